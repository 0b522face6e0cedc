package replicaset

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
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
