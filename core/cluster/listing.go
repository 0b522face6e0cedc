package cluster

import (
	"cmp"
	"iter"
	"slices"

	"daemonlab/core/api"
)

// listing is one kind's objects in List order (namespace, then name), kept in step with the
// writes once built, so that a List costs a copy rather than a sort and a lookup per object:
//
//  1. An update replaces its entry, found by binary search.
//  2. A create is appended to a tail of new entries, sorted and merged in by the next List (a
//     few are inserted in place).
//  3. A delete removes its entry; with new entries waiting, the listing is dropped and rebuilt
//     by the next List.
//  4. While an iteration (All, Each) may still read the entries, the first change copies them
//     first; an iteration that has ended reads them no more, so the changes after it are made
//     in place (a controller that iterates over the nodes and then updates one copies nothing).
type listing struct {
	entries []entry // sorted
	added   []entry // created since the last List, in no order
	readers int     // the iterations of entries as they are that have not ended
	gen     int     // counts the copies of entries: an iteration ending after one was reading an older copy
}

// owned returns the entries for changing them.
func (l *listing) owned() []entry {
	if l.readers > 0 {
		l.replace(slices.Clone(l.entries))
	}
	return l.entries
}

// replace puts a new copy of the entries in place: no iteration reads it yet.
func (l *listing) replace(entries []entry) {
	l.entries, l.readers = entries, 0
	l.gen++
}

type entry struct {
	key Key
	obj api.Object
}

// CompareKeys orders keys as the API server lists them, as List does: by their storage key
// <namespace>/<name> as bytes (etcd's order, and the watch cache's btree), which is namespace
// then name except where one namespace begins another: "team-a/x" comes before "team/x", as
// '-' is before '/'.
func CompareKeys(a, b Key) int {
	if a.Namespace == b.Namespace {
		return cmp.Compare(a.Name, b.Name)
	}
	n := min(len(a.Namespace), len(b.Namespace))
	if a.Namespace[:n] != b.Namespace[:n] {
		return cmp.Compare(a.Namespace, b.Namespace)
	}
	if len(a.Namespace) == n { // a's namespace begins b's: a's '/' against b's next byte
		return cmp.Compare('/', b.Namespace[n])
	}
	return cmp.Compare(a.Namespace[n], '/')
}

func compareEntries(a, b entry) int { return CompareKeys(a.key, b.key) }

// newListing sorts a kind's objects.
func newListing(objs map[Key]api.Object) *listing {
	l := &listing{entries: make([]entry, 0, len(objs))}
	for k, o := range objs {
		l.entries = append(l.entries, entry{k, o})
	}
	slices.SortFunc(l.entries, compareEntries)
	return l
}

// find returns where k is, or would be, among the sorted entries.
func (l *listing) find(k Key) (int, bool) {
	return slices.BinarySearchFunc(l.entries, k, func(e entry, k Key) int { return CompareKeys(e.key, k) })
}

// update replaces the object stored under k, wherever it waits.
func (l *listing) update(k Key, obj api.Object) {
	if i, ok := l.find(k); ok {
		l.owned()[i].obj = obj
		return
	}
	for i := range l.added {
		if l.added[i].key == k {
			l.added[i].obj = obj
		}
	}
}

// remove drops k, and reports false when the listing must be rebuilt instead.
func (l *listing) remove(k Key) bool {
	if len(l.added) > 0 {
		return false
	}
	if i, ok := l.find(k); ok {
		l.entries = slices.Delete(l.owned(), i, i+1)
	}
	return true
}

// merge sorts the new entries into the listing.
func (l *listing) merge() {
	if len(l.added) == 0 {
		return
	}
	slices.SortFunc(l.added, compareEntries)
	if len(l.added) <= 8 { // a few: inserted in place (nodes joining one by one land at the end)
		for _, e := range l.added {
			i, _ := l.find(e.key)
			l.entries = slices.Insert(l.owned(), i, e)
		}
		l.added = nil
		return
	}
	merged := make([]entry, 0, len(l.entries)+len(l.added))
	i, j := 0, 0
	for i < len(l.entries) && j < len(l.added) {
		if compareEntries(l.entries[i], l.added[j]) < 0 {
			merged = append(merged, l.entries[i])
			i++
		} else {
			merged = append(merged, l.added[j])
			j++
		}
	}
	merged = append(append(merged, l.entries[i:]...), l.added[j:]...)
	l.replace(merged)
	l.added = nil
}

// listed returns a kind's listing, building it when there is none.
func (c *Cluster) listed(kind string) *listing {
	l := c.sorted[kind]
	if l == nil {
		l = newListing(c.objects[kind])
		c.sorted[kind] = l
	}
	l.merge()
	return l
}

// ListKind returns every object of the named kind ("Pod", "DaemonSet", …), sorted by namespace
// then name.
func (c *Cluster) ListKind(kind string) []api.Object {
	l := c.listed(kind)
	c.reads += int64(len(l.entries))
	out := make([]api.Object, len(l.entries))
	for i, e := range l.entries {
		out[i] = e.obj
	}
	return out
}

// Each returns every object of the named kind, in List order, without copying them into a
// slice: the iteration sees the objects as they were when Each was called, whatever the loop
// writes. The sequence is for one range loop (as every caller uses it): once that ends, later
// writes change the entries in place.
func (c *Cluster) Each(kind string) iter.Seq[api.Object] {
	l := c.listed(kind)
	entries, gen := l.entries, l.gen
	l.readers++
	reading := true
	end := func() {
		if reading && l.gen == gen {
			l.readers--
		}
		reading = false
	}
	return func(yield func(api.Object) bool) {
		defer end()
		for _, e := range entries {
			c.reads++
			if !yield(e.obj) {
				return
			}
		}
	}
}

// All is Each for one Go type of object.
func All[T api.Object](c *Cluster) iter.Seq[T] {
	var zero T
	objs := c.Each(kindOf(zero))
	return func(yield func(T) bool) {
		for o := range objs {
			if !yield(o.(T)) {
				return
			}
		}
	}
}

// listCreated, listUpdated and listDeleted keep a built listing in step with a write.
func (c *Cluster) listCreated(kind string, k Key, obj api.Object) {
	if l := c.sorted[kind]; l != nil {
		l.added = append(l.added, entry{k, obj})
	}
}

func (c *Cluster) listUpdated(kind string, k Key, obj api.Object) {
	if l := c.sorted[kind]; l != nil {
		l.update(k, obj)
	}
}

func (c *Cluster) listDeleted(kind string, k Key) {
	if l := c.sorted[kind]; l != nil && !l.remove(k) {
		delete(c.sorted, kind)
	}
}
