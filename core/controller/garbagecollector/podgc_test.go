package garbagecollector

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

var outOfServiceTaint = api.Taint{Key: api.TaintNodeOutOfService, Value: "nodeshutdown", Effect: api.TaintEffectNoExecute}

// testNode is a node with a Ready condition of the given status ("" for none) and taints.
func testNode(t *testing.T, c *cluster.Cluster, name string, ready api.ConditionStatus, taints ...api.Taint) {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.NodeSpec{Taints: taints}}
	if ready != "" {
		n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: ready}}
	}
	require.NoError(t, c.Create(n))
}

// testPod is a pod bound to node, in the given phase, terminating (deleted 30s ago) or not.
func testPod(t *testing.T, c *cluster.Cluster, name, node string, phase api.PodPhase, terminating bool) {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: api.PodSpec{NodeName: node}}
	p.Status.Phase = phase
	if terminating {
		at, grace := api.NewTime(c.Now()), int64(30)
		p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &at, &grace
	}
	require.NoError(t, c.Create(p))
}

func podNames(c *cluster.Cluster) []string {
	var out []string
	for p := range c.AllPods() {
		out = append(out, p.Name)
	}
	return out
}

func deletionNames(gc podGC) []string {
	var out []string
	for _, d := range gc.deletions {
		out = append(out, d.pod.Name)
	}
	return out
}

// TestGCTerminatingDeletesTerminatingPodsOnNotReadyOutOfServiceNodes pins gcTerminating
// (pkg/controller/podgc/gc_controller.go; cases after TestGCTerminating in
// gc_controller_test.go): a terminating pod goes when its node is not Ready (IsNodeReady) and has
// a taint of key node.kubernetes.io/out-of-service, whatever its value and effect.
func TestGCTerminatingDeletesTerminatingPodsOnNotReadyOutOfServiceNodes(t *testing.T) {
	noSchedule := api.Taint{Key: api.TaintNodeOutOfService, Effect: api.TaintEffectNoSchedule}
	other := api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}
	cases := []struct {
		name        string
		ready       api.ConditionStatus
		taints      []api.Taint
		phase       api.PodPhase
		terminating bool
		deleted     bool
	}{
		{"not Ready and out of service: deleted", api.ConditionFalse, []api.Taint{outOfServiceTaint}, api.PodRunning, true, true},
		{"Ready Unknown (kubelet gone) and out of service: deleted", api.ConditionUnknown, []api.Taint{other, outOfServiceTaint}, api.PodRunning, true, true},
		{"no Ready condition counts as not Ready", "", []api.Taint{outOfServiceTaint}, api.PodPending, true, true},
		{"the taint's key is all that counts, not its effect", api.ConditionFalse, []api.Taint{noSchedule}, api.PodRunning, true, true},
		{"Ready and out of service: kept, its kubelet finishes it", api.ConditionTrue, []api.Taint{outOfServiceTaint}, api.PodRunning, true, false},
		{"not Ready without the taint: kept", api.ConditionUnknown, []api.Taint{other}, api.PodRunning, true, false},
		{"not terminating: kept (the taint eviction controller's: TestOutOfServiceEvictsEvenDaemonPodsAtOnce)", api.ConditionFalse, []api.Taint{outOfServiceTaint}, api.PodRunning, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster.New(1)
			testNode(t, c, "n1", tc.ready, tc.taints...)
			testPod(t, c, "p", "n1", tc.phase, tc.terminating)
			gc := decidePods(c)
			if !tc.deleted {
				assert.Empty(t, gc.deletions)
				return
			}
			require.Len(t, gc.deletions, 1)
			assert.Nil(t, gc.deletions[0].condition, "gcTerminating writes no condition, only the phase")
			gc.apply(c)
			assert.Empty(t, podNames(c), "force-deleted: gone at once, no kubelet needed")
		})
	}
}

// TestGCOrphanedQuarantinesAMissingNodeFor40s pins gcOrphaned and discoverDeletedNodes
// (pkg/controller/podgc/gc_controller.go; cases after TestGCOrphaned): a node found missing at a
// check is put in quarantine for 40s; when it comes out, its pods go if it is still missing, as
// Failed with DisruptionTarget DeletionByPodGC; if it came back they stay.
func TestGCOrphanedQuarantinesAMissingNodeFor40s(t *testing.T) {
	cases := []struct {
		name string
		// node is whether the node exists at each check: 0s, 20s, 40s.
		node    [3]bool
		deleted bool
	}{
		{"missing throughout: deleted at the end of the quarantine", [3]bool{false, false, false}, true},
		{"back before the end: kept", [3]bool{false, false, true}, false},
		{"back in between and gone again: the quarantine it entered ends on time", [3]bool{false, true, false}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster.New(1)
			testPod(t, c, "p", "gone", api.PodRunning, false)
			for i, exists := range tc.node {
				c.SetNow(cluster.Epoch.Add(time.Duration(i) * gcCheckPeriod))
				if n := c.Node("gone"); n != nil && !exists {
					c.Delete(n)
				} else if n == nil && exists {
					testNode(t, c, "gone", api.ConditionTrue)
				}
				gc := decidePods(c)
				if i < 2 {
					assert.Empty(t, gc.deletions, "in quarantine at %v", c.Now())
				}
				if i == 0 {
					assert.Equal(t, []string{"gone"}, gc.quarantined)
				} else {
					assert.Empty(t, gc.quarantined, "a node in quarantine keeps its time")
				}
				if i == 2 {
					if tc.deleted {
						assert.Equal(t, []string{"gone"}, gc.released)
						require.Len(t, gc.deletions, 1)
						failed, ok := gc.deletions[0].markFailed(c.Now())
						require.True(t, ok)
						assert.Equal(t, api.PodFailed, failed.Status.Phase)
						assert.Equal(t, []api.PodCondition{{Type: "DisruptionTarget", Status: api.ConditionTrue, LastTransitionTime: api.NewTime(c.Now()),
							Reason: "DeletionByPodGC", Message: "PodGC: node no longer exists"}}, failed.Status.Conditions)
					} else {
						assert.Empty(t, gc.deletions)
					}
				}
				gc.apply(c)
			}
			assert.Equal(t, !tc.deleted, len(podNames(c)) == 1)
		})
	}
}

// TestGCOrphanedReplacesTheDisruptionTarget pins UpdatePodCondition (pkg/api/v1/pod/util.go) in
// gcOrphaned: a pod the taint eviction controller marked has its DisruptionTarget replaced, its
// lastTransitionTime kept.
func TestGCOrphanedReplacesTheDisruptionTarget(t *testing.T) {
	p := &api.Pod{Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{
		{Type: api.PodReady, Status: api.ConditionTrue},
		{Type: "DisruptionTarget", Status: api.ConditionTrue, LastTransitionTime: api.NewTime(cluster.Epoch), Reason: "DeletionByTaintManager", Message: "Taint manager: deleting due to NoExecute taint"},
	}}}
	failed, ok := forceDeletion{pod: p, condition: &orphanedBy}.markFailed(cluster.Epoch.Add(time.Hour))
	require.True(t, ok)
	assert.Equal(t, []api.PodCondition{
		{Type: api.PodReady, Status: api.ConditionTrue},
		{Type: "DisruptionTarget", Status: api.ConditionTrue, LastTransitionTime: api.NewTime(cluster.Epoch), Reason: "DeletionByPodGC", Message: "PodGC: node no longer exists"},
	}, failed.Status.Conditions)
	assert.Equal(t, api.PodRunning, p.Status.Phase, "the stored pod is not changed behind the API server's back")
}

// TestGCUnscheduledTerminatingDeletesTerminatingPodsOnNoNode pins gcUnscheduledTerminating with
// upstream's TestGCUnscheduledTerminating cases: a terminating pod bound to no node goes, in any
// phase; a pod bound to a node, or not terminating, stays.
func TestGCUnscheduledTerminatingDeletesTerminatingPodsOnNoNode(t *testing.T) {
	c := cluster.New(1)
	testNode(t, c, "node", api.ConditionTrue)
	testPod(t, c, "a", "", api.PodFailed, true)
	testPod(t, c, "b", "", api.PodSucceeded, true)
	testPod(t, c, "c", "", api.PodRunning, true)
	testPod(t, c, "d", "", api.PodPending, false)
	testPod(t, c, "e", "node", api.PodSucceeded, false)
	testPod(t, c, "f", "node", api.PodRunning, true)
	assert.Equal(t, []string{"a", "b", "c"}, deletionNames(decidePods(c)))
}

// TestPodGCRunsOncePerCheck pins gcCheckPeriod: pod GC runs at the start and every 20s, once
// at each check, and NextTimer names the check at which it has something to do.
func TestPodGCRunsOncePerCheck(t *testing.T) {
	c := cluster.New(1)
	testNode(t, c, "n1", api.ConditionUnknown, outOfServiceTaint)
	c.SetNow(cluster.Epoch.Add(5 * time.Second))
	testPod(t, c, "p", "n1", api.PodRunning, true)
	next, ok := NextTimer(c)
	require.True(t, ok)
	assert.Equal(t, cluster.Epoch.Add(gcCheckPeriod), next)
	assert.False(t, SyncPods(c), "between checks")
	c.SetNow(next)
	ran.Set(c, "", next)
	assert.False(t, SyncPods(c), "the check already ran at this instant")
	ran.Forget(c, "")
	assert.True(t, SyncPods(c))
	assert.Empty(t, podNames(c))
	_, ok = NextTimer(c)
	assert.False(t, ok, "nothing left to do")

	testPod(t, c, "orphan", "gone", api.PodRunning, false)
	next, _ = NextTimer(c)
	assert.Equal(t, cluster.Epoch.Add(2*gcCheckPeriod), next, "the next check, to quarantine the node")
	c.SetNow(next)
	assert.False(t, SyncPods(c))
	next, _ = NextTimer(c)
	assert.Equal(t, cluster.Epoch.Add(2*gcCheckPeriod+quarantineTime), next, "then the end of the quarantine")
}

// TestGCOrphanedQuarantinesANodeAnewOnceItsQuarantineEnded pins the node queue's AddAfter: a
// node whose quarantine ended while it existed (the item came out, nothing was deleted) is put
// in quarantine again, for 40s more, when it goes missing later.
func TestGCOrphanedQuarantinesANodeAnewOnceItsQuarantineEnded(t *testing.T) {
	c := cluster.New(1)
	testPod(t, c, "p", "n1", api.PodRunning, false)
	decidePods(c).apply(c)
	c.SetNow(cluster.Epoch.Add(20 * time.Second))
	testNode(t, c, "n1", api.ConditionTrue)
	c.SetNow(cluster.Epoch.Add(100 * time.Second))
	c.Delete(c.Node("n1"))
	gc := decidePods(c)
	assert.Empty(t, gc.deletions)
	assert.Equal(t, []string{"n1"}, gc.quarantined)
}
