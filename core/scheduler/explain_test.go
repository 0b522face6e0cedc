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

// TestExplainOfABoundPodLeavesItOut: a bound pod is explained as a pending copy in the cluster
// as it is now, without itself (schedule_one.go: schedulePod sees a pod not yet in the cache's
// snapshot): its node does not count its 3Gi, so n1 passes NodeResourcesFit's filter, and the
// default spread constraint does not count it among its ReplicaSet's pods, so n1 and n2 tie
// (podtopologyspread/scoring.go: Score counts the node's pods the selector matches).
func TestExplainOfABoundPodLeavesItOut(t *testing.T) {
	c := world(t, []string{"n1", "n2"}, nil)
	yes := true
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.ReplicaSetSpec{
		Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}}}
	require.NoError(t, create(c, rs))
	rs = c.Get("ReplicaSet", cluster.Key{Namespace: "default", Name: "web"}).(*api.ReplicaSet)
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: map[string]string{"app": "web"},
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: rs.UID, Controller: &yes}}},
		Spec: api.PodSpec{NodeName: "n1", Containers: []api.Container{{Name: "c", Image: "nginx",
			Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("3Gi")}}}}}}
	require.NoError(t, create(c, p))

	e := Explain(c, pod(c, "web-1"))
	require.Len(t, e.Nodes, 2)
	assert.Equal(t, NodeVerdict{}, e.Nodes[0].Verdict, "n1 does not count the pod's own 3Gi")
	spread, ok := scoreOf(t, e, "n1", PodTopologySpread)
	require.True(t, ok, "a ReplicaSet's pod is spread")
	other, _ := scoreOf(t, e, "n2", PodTopologySpread)
	assert.Equal(t, other, spread, "the pod is not counted on its own node")
	assert.Equal(t, []string{"n1", "n2"}, e.Best)
	assert.Equal(t, "n1", pod(c, "web-1").Spec.NodeName, "the stored pod is as it was")
}

// TestExplainNamesTheNodesAPodIsPinnedTo: a pod whose required node affinity names its node in
// matchFields, as a DaemonSet's pods do, is narrowed to it by NodeAffinity's PreFilter
// (nodeaffinity/node_affinity.go: PreFilter), and Explain names it; the others did not satisfy
// the plugin.
func TestExplainNamesTheNodesAPodIsPinnedTo(t *testing.T) {
	c := world(t, []string{"n1", "n2", "n3"}, nil)
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "default"}, Spec: api.PodSpec{
		Containers: []api.Container{{Name: "c", Image: "nginx"}},
		Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"n2"}}}}}}}}}}
	require.NoError(t, create(c, p))
	e := Explain(c, pod(c, "agent"))
	assert.Equal(t, []string{"n2"}, e.Pinned)
	assert.Equal(t, []string{"n2"}, e.Best)
	assert.Equal(t, NodeVerdict{Plugin: NodeAffinity, Reasons: []string{"node(s) didn't satisfy plugin(s) [NodeAffinity]"}}, e.Nodes[0].Verdict)
	assert.Equal(t, NodeVerdict{}, e.Nodes[1].Verdict)

	assert.Nil(t, Explain(c, requesting(t, c, "free", "", nil)).Pinned, "a pod without such a term considers every node")
}

// TestPlacedBySaysWhoBoundThePod: the scheduler's binding leaves a Scheduled event
// (pkg/scheduler/schedule_one.go: finishBinding, "Successfully assigned");
// a pod created with spec.nodeName has none (pkg/kubelet/kubelet_pods.go: generateAPIPodStatus
// adds PodScheduled=True to it), a static pod's mirror is the kubelet's (kubetypes.IsMirrorPod),
// and once an hour has passed (kube-apiserver's --event-ttl) the event may be gone.
func TestPlacedBySaysWhoBoundThePod(t *testing.T) {
	c := world(t, []string{"n1"}, []podSpec{{name: "scheduled", memory: "1Gi"}, {name: "named", node: "n1", memory: "1Gi"}})
	cy := NewCycle(c)
	require.True(t, cy.Apply(cy.Schedule(pod(c, "scheduled"))))
	mirror := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "static-n1", Namespace: "default", Annotations: map[string]string{api.AnnotationConfigMirror: "hash"}},
		Spec: api.PodSpec{NodeName: "n1", Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	require.NoError(t, create(c, mirror))

	assert.Equal(t, PlacedByScheduler, PlacedBy(c, pod(c, "scheduled")))
	assert.Equal(t, PlacedByNodeName, PlacedBy(c, pod(c, "named")), "no PodScheduled condition, no Scheduled event")
	assert.Equal(t, PlacedByKubelet, PlacedBy(c, pod(c, "static-n1")))

	c.SetNow(c.Now().Add(cluster.EventTTL))
	c.ExpireEvents()
	assert.Equal(t, PlacedUnknown, PlacedBy(c, pod(c, "scheduled")), "its event expired an hour after it")
}

// TestNodeResourcesFitCountsScalarResources pins fitsRequest's scalar resources
// (pkg/scheduler/framework/plugins/noderesources/fit.go): an extended resource a node does not
// offer leaves the pod out with "Insufficient example.com/gpu", unresolvably; one it offers is
// counted against what its pods already take.
func TestNodeResourcesFitCountsScalarResources(t *testing.T) {
	c := world(t, []string{"n1", "n2"}, nil)
	n2 := api.DeepCopy(c.Node("n2"))
	n2.Status.Allocatable[api.ResourceName("example.com/gpu")] = api.MustParseQuantity("1")
	require.NoError(t, c.Update(n2))
	gpu := func(name, node string) *api.Pod { // an extended resource is asked by its limit, which defaulting copies to requests
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "c", Image: "nginx",
			Resources: api.ResourceRequirements{Limits: api.ResourceList{api.ResourceName("example.com/gpu"): api.MustParseQuantity("1")}}}}}}
		require.NoError(t, create(c, p))
		return pod(c, name)
	}

	e := Explain(c, gpu("first", ""))
	assert.Equal(t, NodeVerdict{Plugin: NodeResourcesFit, Reasons: []string{"Insufficient example.com/gpu"}}, e.Nodes[0].Verdict)
	assert.Equal(t, []string{"n2"}, e.Best)

	gpu("holder", "n2")
	e = Explain(c, gpu("second", ""))
	assert.Equal(t, "0/2 nodes are available: 2 Insufficient example.com/gpu.", e.Message)
}
