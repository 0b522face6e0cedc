package cluster

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

func node(name string) *api.Node {
	n := &api.Node{}
	n.Name = name
	return n
}

func nodeNames(nodes func(func(*api.Node) bool)) []string {
	var names []string
	for n := range nodes {
		names = append(names, n.Name)
	}
	return names
}

// TestChangedNodesAtOneInstantAreTheNodesWrittenSince holds ChangedNodes' rules: at the instant
// of the pass that began at since, the nodes written or whose machine was written after it, in
// name order (a deleted one is no node to visit); every node after no pass, on a clock that
// moved, after a restore, and on the first ask of the log.
func TestChangedNodesAtOneInstantAreTheNodesWrittenSince(t *testing.T) {
	c := New(1)
	for _, name := range []string{"a", "b", "c", "d"} {
		require.NoError(t, c.Create(node(name)))
	}
	all := []string{"a", "b", "c", "d"}
	assert.Equal(t, all, nodeNames(c.ChangedNodes(c.Mark())), "the log's first ask: every node")
	assert.Equal(t, all, nodeNames(c.ChangedNodes(Since{})), "no pass before: every node")

	since := c.Mark()
	assert.Empty(t, nodeNames(c.ChangedNodes(since)), "nothing written since")
	require.NoError(t, c.Update(node("c")))
	c.SetMachine("a", Machine{})
	require.NoError(t, c.Update(node("c")))
	c.Delete(node("d"))
	assert.Equal(t, []string{"a", "c"}, nodeNames(c.ChangedNodes(since)), "written since, or their machine")

	snap := c.Snapshot()
	later := c.Mark()
	c.Restore(snap)
	assert.Equal(t, []string{"a", "b", "c"}, nodeNames(c.ChangedNodes(later)), "a restore since: every node")

	since = c.Mark()
	c.SetNow(c.Now().Add(time.Second))
	assert.Equal(t, []string{"a", "b", "c"}, nodeNames(c.ChangedNodes(since)), "the clock moved: every node")
}

// TestChangedNodesForgetsOnlyWhatNoPassCanNeed: a log keeps at least twice what its kind holds
// (plus 1,024) of its latest writes; a pass older than what it kept visits every node.
func TestChangedNodesForgetsOnlyWhatNoPassCanNeed(t *testing.T) {
	c := New(1)
	require.NoError(t, c.Create(node("a")))
	require.NoError(t, c.Create(node("b")))
	c.ChangedNodes(c.Mark()) // the logs begin
	old := c.Mark()
	for range 1100 {
		require.NoError(t, c.Update(node("a")))
	}
	recent := c.Mark()
	require.NoError(t, c.Update(node("b")))
	assert.Equal(t, []string{"a", "b"}, nodeNames(c.ChangedNodes(old)), "1,101 writes are kept")
	for range 1000 {
		require.NoError(t, c.Update(node("b")))
	}
	assert.Equal(t, []string{"a", "b"}, nodeNames(c.ChangedNodes(old)), "forgotten: every node")
	assert.Equal(t, []string{"b"}, nodeNames(c.ChangedNodes(recent)), "the latest writes are kept")
}

// TestGroupsKeepInStepWithTheWrites: a grouping's sizes and members follow every create, update
// and delete of its kind, an object in no group counts nowhere, and a restore brings back the
// snapshot's.
func TestGroupsKeepInStepWithTheWrites(t *testing.T) {
	c := New(1)
	byZone := NewGroups("Node", func(obj api.Object) (string, bool) {
		zone, ok := obj.GetObjectMeta().Labels["zone"]
		return zone, ok
	})
	zoned := func(name, zone string) *api.Node {
		n := node(name)
		n.Labels = map[string]string{"zone": zone}
		return n
	}
	require.NoError(t, c.Create(zoned("a", "east")))
	assert.Equal(t, map[string]int{"east": 1}, byZone.Sizes(c), "read off the objects when first asked for")
	require.NoError(t, c.Create(zoned("c", "east")))
	require.NoError(t, c.Create(zoned("b", "west")))
	require.NoError(t, c.Create(node("z")))
	snap := c.Snapshot()
	assert.Equal(t, map[string]int{"east": 2, "west": 1}, byZone.Sizes(c))
	assert.Equal(t, []Key{{Name: "a"}, {Name: "c"}}, byZone.Members(c, "east"), "in List order")

	require.NoError(t, c.Update(zoned("a", "west")))
	c.Delete(node("c"))
	assert.Equal(t, map[string]int{"west": 2}, byZone.Sizes(c), "an emptied group is gone")
	assert.True(t, slices.Equal([]Key{{Name: "a"}, {Name: "b"}}, byZone.Members(c, "west")))
	assert.Empty(t, byZone.Members(c, "east"))

	c.Restore(snap)
	assert.Equal(t, map[string]int{"east": 2, "west": 1}, byZone.Sizes(c), "the snapshot's")
}
