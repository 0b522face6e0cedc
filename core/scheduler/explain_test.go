package scheduler

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// requesting is a pod in default bound to node ("" for a pending one) whose one container
// requests exactly list (nothing when list is empty).
func requesting(t *testing.T, c *cluster.Cluster, name, node string, list api.ResourceList) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: api.PodSpec{NodeName: node,
		Containers: []api.Container{{Name: "c", Image: "nginx", Resources: api.ResourceRequirements{Requests: list}}}}}
	require.NoError(t, create(c, p))
	return pod(c, name)
}

func scoreOf(t *testing.T, e Explanation, node, plugin string) (int64, bool) {
	for _, n := range e.Nodes {
		if n.Node != node {
			continue
		}
		for _, s := range n.Scores {
			if s.Plugin == plugin {
				return s.Score, true
			}
		}
		return 0, false
	}
	t.Fatalf("no node %s", node)
	return 0, false
}

// TestBalancedAllocationCountsActualRequests pins NodeResourcesBalancedAllocation's use of the
// requests as they are (pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go:
// useRequested, PreScore): a pod asking 1Gi of 4Gi and no cpu moves the memory fraction to 0.25
// and leaves cpu at 0, so 50 + (50 + 87 − 100)/2 = 68 (with 100m cpu defaulted it would be 69);
// a pod that requests nothing skips the plugin.
func TestBalancedAllocationCountsActualRequests(t *testing.T) {
	c := world(t, []string{"n1", "n2"}, nil)
	e := Explain(c, requesting(t, c, "mem", "", api.ResourceList{api.ResourceMemory: api.MustParseQuantity("1Gi")}))
	score, ok := scoreOf(t, e, "n1", NodeResourcesBalancedAllocation)
	require.True(t, ok)
	assert.Equal(t, int64(68), score)

	e = Explain(c, requesting(t, c, "none", "", nil))
	_, ok = scoreOf(t, e, "n1", NodeResourcesBalancedAllocation)
	assert.False(t, ok, "a pod requesting nothing skips BalancedAllocation")
	_, ok = scoreOf(t, e, "n1", NodeResourcesFit)
	assert.True(t, ok, "LeastAllocated still scores it")
}

// TestLeastAllocatedCountsNonZeroRequestsOfTheNodesPods pins LeastAllocated's use of the node's
// non-zero requested (noderesources/resource_allocation.go: calculateResourceAllocatableRequest
// reads GetNonZeroRequested; pkg/scheduler/util/pod_resources.go: 100m cpu and 200Mi memory for
// a container that requests none): two pods without requests on n1 count 200m and 400Mi, so
// with the incoming pod's own defaults n1 scores (92 + 85) / 2 = 88 and the empty n2 scores
// (97 + 95) / 2 = 96, and only n2 is best.
func TestLeastAllocatedCountsNonZeroRequestsOfTheNodesPods(t *testing.T) {
	c := world(t, []string{"n1", "n2"}, nil)
	requesting(t, c, "a", "n1", nil)
	requesting(t, c, "b", "n1", nil)
	e := Explain(c, requesting(t, c, "new", "", nil))
	n1, ok := scoreOf(t, e, "n1", NodeResourcesFit)
	require.True(t, ok)
	n2, _ := scoreOf(t, e, "n2", NodeResourcesFit)
	assert.Equal(t, []int64{88, 96}, []int64{n1, n2})
	assert.Equal(t, []string{"n2"}, e.Best)
}

// TestExplainSaysEachNodesFilterAndScores pins what Explain reports (schedule_one.go:
// schedulePod, findNodesThatFitPod, prioritizeNodes): a node that fails names its filter and
// reasons; with one passing node nothing is scored; with none, the message is FitError's.
func TestExplainSaysEachNodesFilterAndScores(t *testing.T) {
	c := world(t, []string{"n1", "n2", "n3"}, nil)
	n2 := api.DeepCopy(c.Node("n2"))
	n2.Spec.Unschedulable = true
	require.NoError(t, c.Update(n2))
	n3 := api.DeepCopy(c.Node("n3"))
	n3.Spec.Taints = []api.Taint{{Key: "gpu", Effect: api.TaintEffectNoSchedule}}
	require.NoError(t, c.Update(n3))

	e := Explain(c, requesting(t, c, "p", "", nil))
	require.Len(t, e.Nodes, 3)
	assert.Equal(t, NodeVerdict{}, e.Nodes[0].Verdict)
	assert.Empty(t, e.Nodes[0].Scores, "one passing node is taken unscored")
	assert.Equal(t, NodeVerdict{Plugin: NodeUnschedulable, Reasons: []string{"node(s) were unschedulable"}}, e.Nodes[1].Verdict)
	assert.Equal(t, NodeVerdict{Plugin: TaintToleration, Reasons: []string{"node(s) had untolerated taint(s)"}}, e.Nodes[2].Verdict)
	assert.Equal(t, []string{"n1"}, e.Best)
	assert.Empty(t, e.Message)

	e = Explain(c, requesting(t, c, "huge", "", api.ResourceList{api.ResourceMemory: api.MustParseQuantity("8Gi")}))
	assert.Empty(t, e.Best)
	assert.Equal(t, "0/3 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable.", e.Message)
	assert.Equal(t, NodeResourcesFit, e.Nodes[0].Verdict.Plugin)
}

// TestScoresCountBoundPodsNotNominatedOnes pins findNodesThatPassFilters and prioritizeNodes
// (pkg/scheduler/schedule_one.go): a pod nominated to a node counts there while the incoming
// pod is filtered, but the node scored is the snapshot's, without it: a 3Gi nominated pod
// leaves no room for a 2Gi pod on n1, and a 1Gi pod scores n1 as it scores the empty n2.
func TestScoresCountBoundPodsNotNominatedOnes(t *testing.T) {
	c := world(t, []string{"n1", "n2"}, []podSpec{{name: "nominee", class: "system-cluster-critical", memory: "3Gi"},
		{name: "big", memory: "2Gi"}, {name: "small", memory: "1Gi"}})
	nominee := api.DeepCopy(pod(c, "nominee"))
	nominee.Status.NominatedNodeName = "n1"
	require.NoError(t, c.Update(nominee))

	e := Explain(c, pod(c, "big"))
	assert.Equal(t, NodeVerdict{Plugin: NodeResourcesFit, Reasons: []string{"Insufficient memory"}}, e.Nodes[0].Verdict)
	e = Explain(c, pod(c, "small"))
	n1, ok1 := scoreOf(t, e, "n1", NodeResourcesFit)
	n2, ok2 := scoreOf(t, e, "n2", NodeResourcesFit)
	require.True(t, ok1 && ok2)
	assert.Equal(t, n2, n1)
	assert.Equal(t, []string{"n1", "n2"}, e.Best)
}
