package cluster

import (
	"fmt"
	"iter"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

// TestListKeepsOrderThroughWrites: List is in namespace-then-name order and shows the latest
// version of every object, whatever mix of creates, updates, deletes, snapshots and restores
// came before it — the kept listing (listing.go) must agree with sorting the store afresh; and
// an iteration (All) read after more writes shows what there was when it began.
func TestListKeepsOrderThroughWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	c := New(1)
	var snap Snapshot
	want := func() []string {
		keys := slices.SortedFunc(maps.Keys(c.objects["Pod"]), CompareKeys)
		var out []string
		for _, k := range keys {
			out = append(out, fmt.Sprintf("%s/%s@%s", k.Namespace, k.Name, c.objects["Pod"][k].GetObjectMeta().ResourceVersion))
		}
		return out
	}
	format := func(pods iter.Seq[*api.Pod]) []string {
		var out []string
		for p := range pods {
			out = append(out, fmt.Sprintf("%s/%s@%s", p.Namespace, p.Name, p.ResourceVersion))
		}
		return out
	}
	got := func() []string { return format(slices.Values(c.Pods())) }
	// An iteration begun (All) and read some writes later sees the pods as they were when it
	// began.
	var begun iter.Seq[*api.Pod]
	var then []string
	for step := range 3000 {
		ns, name := []string{"default", "kube-system", "a"}[rng.IntN(3)], fmt.Sprintf("p%d", rng.IntN(40))
		existing, _ := c.Get("Pod", Key{ns, name}).(*api.Pod)
		switch op := rng.IntN(10); {
		case op < 4 && existing == nil:
			p := pod(name)
			p.Namespace = ns
			require.NoError(t, c.Create(p))
		case op < 7 && existing != nil:
			updated := *existing
			require.NoError(t, c.Update(&updated))
		case op < 9 && existing != nil:
			c.Delete(existing)
		case op == 9 && step%2 == 0:
			snap = c.Snapshot()
		case op == 9 && snap.objects != nil:
			c.Restore(snap)
		}
		if rng.IntN(4) == 0 {
			assert.Equal(t, want(), got(), "after step %d", step)
		}
		switch {
		case begun == nil && rng.IntN(5) == 0:
			begun, then = c.AllPods(), want()
		case begun != nil && rng.IntN(5) == 0:
			assert.Equal(t, then, format(begun), "an iteration read at step %d", step)
			begun = nil
		}
	}
	assert.Equal(t, want(), got())
}

// TestListIsInTheAPIServersKeyOrder: List orders objects by their storage key
// <namespace>/<name> compared as bytes, as etcd and the watch cache's btree do
// (k8s.io/apiserver pkg/storage/cacher/store/store_btree.go, a.Key < b.Key), so a namespace
// that another begins with a '-' after it comes second.
func TestListIsInTheAPIServersKeyOrder(t *testing.T) {
	c := New(1)
	keys := []Key{{"team", "b"}, {"team-a", "z"}, {"team", "a"}, {"te", "q"}, {"teams", "a"}, {"a", "x"}}
	for _, k := range keys {
		p := pod(k.Name)
		p.Namespace = k.Namespace
		require.NoError(t, c.Create(p))
	}
	var got, want []string
	for _, p := range c.Pods() {
		got = append(got, p.Namespace+"/"+p.Name)
	}
	for _, k := range keys {
		want = append(want, k.Namespace+"/"+k.Name)
	}
	slices.Sort(want)
	assert.Equal(t, want, got)
	assert.Equal(t, []string{"a/x", "te/q", "team-a/z", "team/a", "team/b", "teams/a"}, got)
}

// TestIterationsSeeTheirBeginningAndEndedOnesCostNoCopy: an iteration (All) sees the objects as
// they were when it began, whatever is written during it, nested iterations included; once it
// has ended, an update changes the listing in place instead of copying it (5,000 nodes iterated
// and then one updated, for every node joining, copied 5,000 entries each time).
func TestIterationsSeeTheirBeginningAndEndedOnesCostNoCopy(t *testing.T) {
	c := New(1)
	for i := range 3 {
		require.NoError(t, c.Create(pod(fmt.Sprintf("p%d", i))))
	}
	versions := func(pods iter.Seq[*api.Pod], during func()) []string {
		var out []string
		for p := range pods {
			out = append(out, p.Name+"@"+p.ResourceVersion)
			during()
		}
		return out
	}
	update := func(name string) {
		next := *c.Get("Pod", Key{"default", name}).(*api.Pod)
		require.NoError(t, c.Update(&next))
	}
	before := versions(c.AllPods(), func() {})
	inner := 0
	outer := versions(c.AllPods(), func() {
		assert.Equal(t, versions(slices.Values(c.Pods()), func() {}), versions(c.AllPods(), func() {}), "a nested iteration sees the writes before it")
		update(fmt.Sprintf("p%d", inner))
		inner++
	})
	assert.Equal(t, before, outer, "the writes during the iteration do not show in it")
	assert.NotEqual(t, before, versions(c.AllPods(), func() {}), "a new iteration shows them")

	for range c.AllPods() {
	}
	l := c.sorted["Pod"]
	gen := l.gen
	update("p1")
	assert.Equal(t, gen, l.gen, "an update after an ended iteration copies nothing")
	for range c.AllPods() {
		update("p2")
		break
	}
	assert.Equal(t, gen+1, l.gen, "an update during an iteration copies the entries once")
}
