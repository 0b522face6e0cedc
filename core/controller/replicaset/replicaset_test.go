package replicaset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/internal/measure"
)

func pod(name, node string, phase api.PodPhase, readySince time.Duration, created time.Duration) *api.Pod {
	p := &api.Pod{}
	p.Name, p.UID = name, name
	p.Spec.NodeName = node
	p.Status.Phase = phase
	p.CreationTimestamp = api.NewTime(cluster.Epoch.Add(created))
	if readySince >= 0 {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(cluster.Epoch.Add(readySince))}}
	}
	return p
}

// TestSortForDeletion pins ActivePodsWithRanks' order, the first to delete first: unscheduled,
// Pending before Running, not Ready before Ready, more co-located pods first, Ready for less
// time first, newer first.
func TestSortForDeletion(t *testing.T) {
	now := cluster.Epoch.Add(time.Hour)
	pods := []*api.Pod{
		pod("ready-long-ago", "a", api.PodRunning, 0, 0),
		pod("unscheduled", "", api.PodPending, -1, 0),
		pod("pending", "a", api.PodPending, -1, 0),
		pod("running-not-ready", "a", api.PodRunning, -1, 0),
		pod("ready-recently", "a", api.PodRunning, 59*time.Minute, 0),
		pod("crowded", "b", api.PodRunning, 0, 0),
	}
	sortForDeletion(pods, map[string]int{"a": 4, "b": 5}, now)
	var got []string
	for _, p := range pods {
		got = append(got, p.Name)
	}
	assert.Equal(t, []string{"unscheduled", "pending", "running-not-ready", "crowded", "ready-recently", "ready-long-ago"}, got)
}

// TestASyncCreatesAtMostBurstReplicasAndTheClusterAtMostMaxPods pins manageReplicas' burst
// (pkg/controller/replicaset/replica_set.go BurstReplicas 500) and DaemonLab's bound on the
// cluster (apiserver.MaxPods): a ReplicaSet scaled to 1,000,000 gets 500 pods a sync until the
// API server refuses the pod past 20,000, with a FailedCreate event, and a bounded allocation.
func TestASyncCreatesAtMostBurstReplicasAndTheClusterAtMostMaxPods(t *testing.T) {
	c := cluster.New(1)
	ns := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
	ns.Name = "default"
	_, err := apiserver.Create(c, ns, apiserver.Options{})
	require.NoError(t, err)
	rs := &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}}
	rs.Name, rs.Namespace = "web", "default"
	labels := map[string]string{"app": "web"}
	rs.Spec.Replicas, rs.Spec.Selector, rs.Spec.Template.Labels = ptr(int32(1_000_000)), &api.LabelSelector{MatchLabels: labels}, labels
	rs.Spec.Template.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
	_, err = apiserver.Create(c, rs, apiserver.Options{})
	require.NoError(t, err)

	syncs := 0
	_, bytes := measure.Allocations(func() {
		for again := true; again; syncs++ {
			require.Less(t, syncs, 100)
			prev := c.Count("Pod")
			_, again = Sync(c, c.Get("ReplicaSet", cluster.KeyOf(rs)).(*api.ReplicaSet))
			assert.LessOrEqual(t, c.Count("Pod")-prev, burstReplicas)
		}
	})
	assert.Equal(t, apiserver.MaxPods/burstReplicas+1, syncs, "40 full syncs, then one whose first create is refused")
	assert.Equal(t, apiserver.MaxPods, c.Count("Pod"))
	var failed []string
	for e := range cluster.All[*api.Event](c) {
		if e.Reason == "FailedCreate" {
			failed = append(failed, e.Message)
		}
	}
	require.Len(t, failed, 1)
	assert.Regexp(t, `^Error creating: pods "web-[a-z0-9]{5}" is forbidden: DaemonLab's cluster holds at most 20000 pods$`, failed[0])
	t.Logf("%d syncs, %d MiB allocated", syncs, bytes>>20)
	assert.Less(t, bytes, uint64(512<<20), "bytes allocated")
}

func ptr[T any](v T) *T { return &v }
