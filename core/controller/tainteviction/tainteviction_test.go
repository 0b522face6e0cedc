package tainteviction

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

func seconds(s ...int64) []api.Toleration {
	var out []api.Toleration
	for _, v := range s {
		t := api.Toleration{Key: "k", Operator: "Exists", Effect: "NoExecute"}
		if v >= 0 {
			v := v
			t.TolerationSeconds = &v
		}
		out = append(out, t)
	}
	return out
}

// TestMinTolerationTime pins getMinTolerationTime with upstream's TestGetMinTolerationTime
// (pkg/controller/tainteviction/taint_eviction_test.go; -1 below stands for "no
// tolerationSeconds").
func TestMinTolerationTime(t *testing.T) {
	cases := []struct {
		name string
		used []api.Toleration
		want time.Duration
	}{
		{"no tolerations: now", nil, 0},
		{"no tolerationSeconds: forever", seconds(-1), forever},
		{"the smallest", seconds(1, 2), time.Second},
		{"set beats unset", seconds(1, -1), time.Second},
		{"unset then set", seconds(-1, 1), time.Second},
		{"zero is now", seconds(0, 300), 0},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, MinTolerationTime(tc.used), tc.name)
	}
	neg := int64(-5)
	assert.Equal(t, time.Duration(0), MinTolerationTime([]api.Toleration{{TolerationSeconds: &neg}}), "negative tolerationSeconds evict at once")
}

// TestMatchingTolerationsTakesTheFirstPerTaint pins GetMatchingTolerations: per taint the first
// tolerating toleration in the pod's order, and failure when one taint is not tolerated.
func TestMatchingTolerationsTakesTheFirstPerTaint(t *testing.T) {
	sixty, thirty := int64(60), int64(30)
	tols := []api.Toleration{
		{Operator: "Exists", TolerationSeconds: &sixty, Effect: "NoExecute"},
		{Key: "node.kubernetes.io/unreachable", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &thirty},
	}
	taints := []api.Taint{{Key: "node.kubernetes.io/unreachable", Effect: "NoExecute"}}
	used, ok := MatchingTolerations(taints, tols)
	assert.True(t, ok)
	assert.Equal(t, []api.Toleration{tols[0]}, used, "only the first matching toleration counts, so 60s, not 30s")
	_, ok = MatchingTolerations(append(taints, api.Taint{Key: "x", Effect: "NoExecute"}), tols[1:])
	assert.False(t, ok)
	used, ok = MatchingTolerations(nil, nil)
	assert.True(t, ok)
	assert.Empty(t, used)
}

// markings returns the count of the TaintManagerEviction "Marking for deletion" event of a pod.
func markings(c *cluster.Cluster, pod string) int32 {
	for e := range cluster.All[*api.Event](c) {
		if e.InvolvedObject.Name == pod && e.Message == "Marking for deletion Pod default/"+pod {
			return e.Count
		}
	}
	return 0
}

// TestTerminatingPodsAreProcessedWhenTheirNodesNoExecuteTaintsChange pins handleNodeUpdate
// (pkg/controller/tainteviction/taint_eviction.go): a change of a node's NoExecute taints sends
// every pod on it through processPodOnNode, terminating ones too, so a pod already evicted is
// marked again (the event; the condition it has already is not written twice); without a change
// it is left alone, and one deleted during a countdown is marked when the countdown ends.
func TestTerminatingPodsAreProcessedWhenTheirNodesNoExecuteTaintsChange(t *testing.T) {
	c := cluster.New(1)
	unreachable := api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}
	require.NoError(t, c.Create(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}, Spec: api.NodeSpec{Taints: []api.Taint{unreachable}}}))
	three := int64(300)
	tols := []api.Toleration{{Key: api.TaintNodeUnreachable, Operator: "Exists", Effect: api.TaintEffectNoExecute, TolerationSeconds: &three}}
	for _, name := range []string{"evicted", "deleted"} {
		require.NoError(t, c.Create(&api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.PodSpec{NodeName: "n1", Tolerations: tols}, Status: api.PodStatus{Phase: api.PodRunning}}))
	}
	Sync(c, cluster.Since{})
	deleted := c.Get("Pod", cluster.Key{Namespace: "default", Name: "deleted"}).(*api.Pod)
	c.DeletePod(deleted, nil)
	c.SetNow(c.Now().Add(300 * time.Second))
	Sync(c, cluster.Since{})
	assert.Equal(t, int32(1), markings(c, "evicted"))
	assert.Equal(t, int32(1), markings(c, "deleted"), "a countdown goes on when the pod is deleted meanwhile")

	c.SetNow(c.Now().Add(time.Minute))
	Sync(c, cluster.Since{})
	assert.Equal(t, int32(1), markings(c, "evicted"), "no taint change: a terminating pod is left alone")

	node := api.DeepCopy(c.Node("n1"))
	node.Spec.Taints = append(node.Spec.Taints, api.Taint{Key: api.TaintNodeOutOfService, Value: "nodeshutdown", Effect: api.TaintEffectNoExecute})
	require.NoError(t, c.Update(node))
	Sync(c, cluster.Since{})
	assert.Equal(t, int32(2), markings(c, "evicted"), "marked again: it does not tolerate out-of-service")
	assert.Equal(t, int32(2), markings(c, "deleted"))
	evicted := c.Get("Pod", cluster.Key{Namespace: "default", Name: "evicted"}).(*api.Pod)
	var targets int
	for _, cond := range evicted.Status.Conditions {
		if cond.Type == "DisruptionTarget" {
			targets++
		}
	}
	assert.Equal(t, 1, targets, "one DisruptionTarget")
}

// TestOutOfServiceEvictsEvenDaemonPodsAtOnce pins that the out-of-service taint, NoExecute, is
// this controller's to act on for pods not yet terminating (processPodOnNode; pod GC takes them
// once they are, gcTerminating in pkg/controller/podgc/gc_controller.go): a pod that does not
// tolerate it is due at once, even a DaemonSet's (AddOrUpdateDaemonPodTolerations in
// pkg/controller/daemon/util/daemonset_util.go adds no toleration for it).
func TestOutOfServiceEvictsEvenDaemonPodsAtOnce(t *testing.T) {
	c := cluster.New(1)
	require.NoError(t, c.Create(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}, Spec: api.NodeSpec{Taints: []api.Taint{
		{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute},
		{Key: api.TaintNodeOutOfService, Value: "nodeshutdown", Effect: api.TaintEffectNoExecute},
	}}}))
	daemonPod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "default"}, Spec: api.PodSpec{NodeName: "n1", Tolerations: []api.Toleration{
		{Key: api.TaintNodeNotReady, Operator: "Exists", Effect: api.TaintEffectNoExecute},
		{Key: api.TaintNodeUnreachable, Operator: "Exists", Effect: api.TaintEffectNoExecute},
	}}}
	require.NoError(t, c.Create(daemonPod))
	at, due := Due(c, daemonPod)
	assert.True(t, due)
	assert.Equal(t, c.Now(), at)
	Sync(c, cluster.Since{})
	assert.NotNil(t, c.Get("Pod", cluster.Key{Namespace: "default", Name: "agent"}).(*api.Pod).DeletionTimestamp, "marked for deletion")
}
