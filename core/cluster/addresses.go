package cluster

import "daemonlab/core/api"

// FreeIndex finds the smallest index a set of used ones leaves free, as the allocators of the
// simulated network (node IPAM's pod CIDRs, the machines' addresses) hand out the first free one.
// An index may be used more than once (two nodes given the same address in a manifest); it is
// free again when every use is released.
type FreeIndex struct {
	used map[int]int // the uses of each index taken
	next int         // no index below it is free
}

// Use notes an index as taken.
func (x *FreeIndex) Use(i int) {
	if x.used == nil {
		x.used = map[int]int{}
	}
	x.used[i]++
}

// Release drops one use of an index.
func (x *FreeIndex) Release(i int) {
	if x.used[i]--; x.used[i] <= 0 {
		delete(x.used, i)
		x.next = min(x.next, i)
	}
}

// Free returns the smallest index not taken.
func (x *FreeIndex) Free() int {
	for x.used[x.next] > 0 {
		x.next++
	}
	return x.next
}

// Tally is a FreeIndex over one kind's objects, the indices indexOf reads off each (a node's pod
// CIDR, its addresses):
//
//  1. It is read off every object of the kind when first asked for, and kept in step with every
//     create, update and delete of the kind after that, so that the free index costs no pass
//     over the objects (5,000 nodes joining one by one read 5,000 nodes once, not each time).
//  2. A restore drops it; it is read again when next asked for.
//
// It is derived from the objects, as a List's order is: no part of a snapshot, and no write.
type Tally struct {
	kind    string
	indexOf func(obj api.Object, use func(int))
}

// NewTally returns the tally over kind's objects of the indices indexOf passes to use.
func NewTally(kind string, indexOf func(obj api.Object, use func(int))) *Tally {
	return &Tally{kind, indexOf}
}

// Free returns the smallest index no object of the kind holds.
func (t *Tally) Free(c *Cluster) int {
	x := c.tallies[t]
	if x == nil {
		x = &FreeIndex{}
		for o := range c.Each(t.kind) {
			t.indexOf(o, x.Use)
		}
		if c.tallies == nil {
			c.tallies = map[*Tally]*FreeIndex{}
		}
		c.tallies[t] = x
	}
	return x.Free()
}

// tallyWrite keeps the built tallies of a kind in step with a write: old is the object as it
// was (nil for a create), obj as it is (nil for a delete).
func (c *Cluster) tallyWrite(kind string, old, obj api.Object) {
	for t, x := range c.tallies {
		if t.kind != kind {
			continue
		}
		if old != nil {
			t.indexOf(old, x.Release)
		}
		if obj != nil {
			t.indexOf(obj, x.Use)
		}
	}
}

// Octets reads "A.B", two octets of an IPv4 address written as an address is (0 to 255, no
// leading zeros), as the number A×256+B.
func Octets(s string) (int, bool) {
	var v [2]int
	for i := range v {
		end := len(s)
		if i == 0 {
			for end = 0; end < len(s) && s[end] != '.'; end++ {
			}
			if end == len(s) {
				return 0, false
			}
		}
		n, ok := octet(s[:end])
		if !ok {
			return 0, false
		}
		v[i], s = n, s[min(end+1, len(s)):]
	}
	return v[0]<<8 | v[1], true
}

// octet reads one octet as an address writes it: 1 to 3 decimal digits, no leading zero, at
// most 255.
func octet(s string) (int, bool) {
	if s == "" || len(s) > 3 || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, n <= 255
}
