package cluster

import (
	"slices"

	"daemonlab/core/api"
)

// Groups sorts one kind's objects into groups by what groupOf reads off each (a node's zone;
// the nodes a controller has something to decide about), so that a controller asks how many
// objects a group holds, or which, without a pass over them all:
//
//  1. They are read off every object of the kind when first asked for, and kept in step with
//     every create, update and delete of the kind after that (as a Tally is).
//  2. A restore drops them; they are read again when next asked for.
//
// They are derived from the objects, as a List's order is: no part of a snapshot, and no write.
type Groups struct {
	kind    string
	groupOf func(obj api.Object) (group string, ok bool) // ok is false for an object in no group
}

// NewGroups returns the grouping of kind's objects by groupOf.
func NewGroups(kind string, groupOf func(obj api.Object) (group string, ok bool)) *Groups {
	return &Groups{kind, groupOf}
}

// built returns the groups, reading them off the objects when first asked for.
func (g *Groups) built(c *Cluster) map[string]map[Key]bool {
	groups, ok := c.groups[g]
	if !ok {
		groups = map[string]map[Key]bool{}
		for k, o := range c.objects[g.kind] {
			g.add(groups, k, o)
		}
		if c.groups == nil {
			c.groups = map[*Groups]map[string]map[Key]bool{}
		}
		c.groups[g] = groups
	}
	return groups
}

func (g *Groups) add(groups map[string]map[Key]bool, k Key, obj api.Object) {
	group, ok := g.groupOf(obj)
	if !ok {
		return
	}
	if groups[group] == nil {
		groups[group] = map[Key]bool{}
	}
	groups[group][k] = true
}

func (g *Groups) remove(groups map[string]map[Key]bool, k Key, obj api.Object) {
	group, ok := g.groupOf(obj)
	if !ok {
		return
	}
	if delete(groups[group], k); len(groups[group]) == 0 {
		delete(groups, group)
	}
}

// Sizes returns how many objects each group holds (no entry for an empty group).
func (g *Groups) Sizes(c *Cluster) map[string]int {
	groups := g.built(c)
	sizes := make(map[string]int, len(groups))
	for group, keys := range groups {
		sizes[group] = len(keys)
	}
	return sizes
}

// Members returns the keys of the objects a group holds, in List order.
func (g *Groups) Members(c *Cluster, group string) []Key {
	members := g.built(c)[group]
	keys := make([]Key, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, CompareKeys)
	return keys
}

// indexWrite keeps the built tallies and groups of a kind in step with a write: old is the
// object as it was (nil for a create), obj as it is (nil for a delete).
func (c *Cluster) indexWrite(kind string, old, obj api.Object) {
	c.tallyWrite(kind, old, obj)
	for g, groups := range c.groups {
		if g.kind != kind {
			continue
		}
		if old != nil {
			g.remove(groups, KeyOf(old), old)
		}
		if obj != nil {
			g.add(groups, KeyOf(obj), obj)
		}
	}
}
