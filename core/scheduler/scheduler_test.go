package scheduler

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// TestNumFeasibleNodesToFind pins the adaptive share of nodes the scheduler filters before it
// stops (upstream TestNumFeasibleNodesToFind, the cases with percentageOfNodesToScore unset).
func TestNumFeasibleNodesToFind(t *testing.T) {
	for _, tc := range []struct{ all, want int }{
		{10, 10},
		{99, 99},
		{100, 100}, // 49% of 100 is 49: never fewer than 100
		{1000, 420},
		{5000, 500},
		{6000, 300},
	} {
		assert.Equal(t, tc.want, numFeasibleNodesToFind(tc.all), "%d nodes", tc.all)
	}
}

// TestSchedulingResumesWhereTheLastAttemptStopped: in a cluster of 100 nodes or more a pod is
// filtered against nodes from nextStartNodeIndex on, round the list, only until enough pass;
// the index moves by the nodes filtered, so the next pod starts after them
// (findNodesThatPassFilters). A pod that fits nowhere is filtered against every node, and its
// message counts them all.
func TestSchedulingResumesWhereTheLastAttemptStopped(t *testing.T) {
	var nodes []string
	for i := range 1000 {
		nodes = append(nodes, fmt.Sprintf("n%04d", i))
	}
	c := world(t, nodes, []podSpec{{name: "a", memory: "1Gi"}, {name: "b", memory: "1Gi"}, {name: "huge", memory: "8Gi"}})
	cy := NewCycle(c)
	pod := func(name string) *api.Pod {
		return c.Get("Pod", cluster.Key{Namespace: "default", Name: name}).(*api.Pod)
	}

	d := cy.Schedule(pod("a"))
	assert.Equal(t, 420, d.processed, "the first 420 nodes all fit")
	require.True(t, cy.Apply(d))
	next, _ := nextStartNodeIndex.Get(c, struct{}{})
	assert.Equal(t, 420, next)
	n, err := strconv.Atoi(d.Node[1:])
	require.NoError(t, err)
	assert.Less(t, n, 420, "the pod went to one of the nodes filtered")

	d = cy.Schedule(pod("b"))
	require.True(t, cy.Apply(d))
	n, err = strconv.Atoi(d.Node[1:])
	require.NoError(t, err)
	assert.GreaterOrEqual(t, n, 420, "the next pod was filtered from node 420 on")
	assert.Less(t, n, 840)

	d = cy.Schedule(pod("huge"))
	assert.Equal(t, 1000, d.processed)
	assert.Contains(t, d.Message, "0/1000 nodes are available: 1000 Insufficient memory.")
}
