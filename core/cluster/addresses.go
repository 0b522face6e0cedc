package cluster

import "strconv"

// FreeIndex finds the smallest index a set of used ones leaves free, as the allocators of the
// simulated network (node IPAM's pod CIDRs, the machines' addresses) hand out the first free one.
type FreeIndex struct {
	used map[int]bool
	next int // no index below it is free
}

// Use notes an index as taken.
func (x *FreeIndex) Use(i int) {
	if x.used == nil {
		x.used = map[int]bool{}
	}
	x.used[i] = true
}

// Used reports whether an index is taken.
func (x *FreeIndex) Used(i int) bool { return x.used[i] }

// Free returns the smallest index not taken.
func (x *FreeIndex) Free() int {
	for x.used[x.next] {
		x.next++
	}
	return x.next
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
		n, err := strconv.Atoi(s[:end])
		if err != nil || strconv.Itoa(n) != s[:end] || n < 0 || n > 255 {
			return 0, false
		}
		v[i], s = n, s[min(end+1, len(s)):]
	}
	return v[0]<<8 | v[1], true
}
