package cluster

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

func pod(name string) *api.Pod {
	p := &api.Pod{}
	p.Name, p.Namespace = name, "default"
	p.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
	return p
}

func dump(t *testing.T, c *Cluster) string {
	b, err := json.Marshal(struct {
		Now  time.Time
		Pods []*api.Pod
	}{c.Now(), c.Pods()})
	require.NoError(t, err)
	return string(b)
}

// TestRestoreBringsBackEverything: after a restore the objects, the clock, the resourceVersions
// and the random draws are those of the snapshot, and the snapshot can be restored again.
func TestRestoreBringsBackEverything(t *testing.T) {
	c := New(3)
	require.NoError(t, c.Create(pod("a")))
	snap := c.Snapshot()
	before := dump(t, c)

	play := func() string {
		g := pod("web-" + c.RandomString(5))
		require.NoError(t, c.Create(g))
		c.SetNow(Epoch.Add(time.Hour))
		c.Delete(c.Pods()[0])
		return dump(t, c) + g.UID + c.RandomString(5)
	}
	first := play()
	for range 2 {
		c.Restore(snap)
		assert.Equal(t, before, dump(t, c))
		assert.Equal(t, first, play(), "the same calls after a restore give the same cluster and draws")
	}
}

// TestCreateAssignsStoreFields pins what the store fills in: uid, resourceVersion and
// creationTimestamp, and a clear error for a name taken (core/apiserver does the rest).
func TestCreateAssignsStoreFields(t *testing.T) {
	c := New(1)
	g := pod("web")
	require.NoError(t, c.Create(g))
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, g.UID)
	assert.Equal(t, "1", g.ResourceVersion)
	assert.True(t, g.CreationTimestamp.Equal(Epoch))
	assert.EqualError(t, c.Create(pod(g.Name)), `Pod "`+g.Name+`" already exists`)
}

func BenchmarkSnapshotThreeNodes(b *testing.B) {
	c := New(1)
	for i := range 20 {
		_ = c.Create(pod(fmt.Sprintf("p-%d", i)))
	}
	b.ResetTimer()
	for range b.N {
		c.Restore(c.Snapshot())
	}
}

// TestSnapshotsShareUntilWritten: a snapshot shares the cluster's maps (copy on write), so
// no write after it — to objects, machines or controllers' memory, before or after a restore —
// may show in it; each snapshot restores exactly the state it saved.
func TestSnapshotsShareUntilWritten(t *testing.T) {
	c := New(5)
	require.NoError(t, c.Create(pod("a")))
	c.SetMachine("n1", Machine{Faults: []string{"not-ready"}})
	memo := NewMemo[string, string]("test")
	memo.Set(c, "k", "1")
	state := func() string {
		b, err := json.Marshal(struct {
			Pods     []*api.Pod
			Machines map[string]Machine
		}{c.Pods(), c.machines})
		require.NoError(t, err)
		return string(b) + fmt.Sprint(c.memo) // fmt prints a map in key order
	}
	first, firstState := c.Snapshot(), state()
	write := func(name string) {
		require.NoError(t, c.Create(pod(name)))
		a := *c.Pods()[0]
		a.Labels = map[string]string{"changed": name}
		require.NoError(t, c.Update(&a))
		c.Delete(c.Pods()[0])
		c.SetMachine("n1", Machine{KubeletDown: true})
		c.RemoveMachine("n1")
		memo.Set(c, "k", name)
		memo.Forget(c, "k")
	}
	write("b")
	second, secondState := c.Snapshot(), state()
	write("c")
	c.Restore(first)
	assert.Equal(t, firstState, state())
	write("d")
	c.Restore(second)
	assert.Equal(t, secondState, state())
	write("e")
	c.Restore(first)
	assert.Equal(t, firstState, state(), "a snapshot restored twice, with writes between")
}

// withPod is a cluster holding one pod, for events about it.
func withPod(t *testing.T) (*Cluster, *api.Pod) {
	c := New(1)
	require.NoError(t, c.Create(pod("a")))
	return c, c.Pods()[0]
}

// TestRecordCountsRepeatsThroughTheIndex: a repeat of an event is counted on the stored one
// (client-go's EventCorrelator), and counting it keeps the index, which needs no rebuild.
func TestRecordCountsRepeatsThroughTheIndex(t *testing.T) {
	c, p := withPod(t)
	c.Record(p, EventNormal, "Pulled", "pulled", "kubelet", "n1")
	c.Record(p, EventNormal, "Started", "started", "kubelet", "n1")
	c.Record(p, EventNormal, "Pulled", "pulled", "kubelet", "n1")
	require.NotNil(t, c.events, "counting a repeat keeps the index")
	events := List[*api.Event](c)
	require.Len(t, events, 2)
	counts := map[string]int32{}
	for _, e := range events {
		counts[e.Reason] = e.Count
	}
	assert.Equal(t, map[string]int32{"Pulled": 2, "Started": 1}, counts)
}

// TestRecordFindsAnEventWhoseHashCollides: should two different events share a hash, the index
// points at the wrong one, and the repeat is still counted on its own event (found by a scan).
func TestRecordFindsAnEventWhoseHashCollides(t *testing.T) {
	c, p := withPod(t)
	c.Record(p, EventNormal, "Pulled", "pulled", "kubelet", "n1")
	c.Record(p, EventWarning, "BackOff", "back-off", "kubelet", "n1")
	var pulled, backOff *api.Event
	for _, e := range List[*api.Event](c) {
		if e.Reason == "Pulled" {
			pulled = e
		} else {
			backOff = e
		}
	}
	c.eventIndex()[identityOf(backOff).hash()] = KeyOf(pulled) // a collision
	c.Record(p, EventWarning, "BackOff", "back-off", "kubelet", "n1")
	assert.Equal(t, int32(2), c.Get("Event", KeyOf(backOff)).(*api.Event).Count)
	assert.Equal(t, int32(1), c.Get("Event", KeyOf(pulled)).(*api.Event).Count)
}

// TestChangedSinceDatesWritesByKind: a write dates its kind only ("Memo" and "Machine" for the
// controllers' memory and the machines); a restore, which may bring back anything, dates all.
func TestChangedSinceDatesWritesByKind(t *testing.T) {
	c := New(1)
	snap := c.Snapshot()
	stamp := c.Stamp()
	require.NoError(t, c.Create(pod("a")))
	assert.True(t, c.ChangedSince(stamp, "Node", "Pod"))
	assert.False(t, c.ChangedSince(stamp, "Node", "Memo", "Machine"))

	stamp = c.Stamp()
	NewMemo[string, string]("test").Set(c, "k", "v")
	assert.True(t, c.ChangedSince(stamp, "Memo"))
	c.SetMachine("n", Machine{})
	assert.True(t, c.ChangedSince(stamp, "Machine"))
	assert.False(t, c.ChangedSince(stamp, "Pod"))

	stamp = c.Stamp()
	c.Restore(snap)
	assert.True(t, c.ChangedSince(stamp, "Node"), "a restore changes everything")
	assert.Greater(t, c.Stamp(), stamp, "the stamp never goes back")
}
