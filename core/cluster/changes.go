package cluster

import (
	"cmp"
	"iter"
	"slices"
	"time"

	"daemonlab/core/api"
)

// Since is when a controller's pass began: the cluster's stamp and clock then. The zero Since
// is no pass at all.
type Since struct {
	stamp uint64
	now   time.Time
	ok    bool
}

// Mark returns the Since of a pass beginning now.
func (c *Cluster) Mark() Since { return Since{c.stamps.now, c.now, true} }

// changeLog is one kind's writes, oldest first, the name of each with the stamp it took: the
// log holds every write of the kind after from.
type changeLog struct {
	from    uint64
	entries []change
}

type change struct {
	stamp uint64
	name  string
}

// logWrite notes a write of an object of a cluster-scoped kind (or of a machine) by name, once
// that kind's log has been asked for (see ChangedNodes), keeping no more than what the kind
// holds can need: a log grown past 2× (that + 1,024) entries drops its older half, and a pass
// older than what it kept visits every node.
func (c *Cluster) logWrite(kind, name string) {
	l := c.logs[kind]
	if l == nil {
		return
	}
	l.entries = append(l.entries, change{c.stamps.now, name})
	size := len(c.objects[kind])
	if kind == "Machine" {
		size = len(c.machines)
	}
	if limit := 2 * (size + 1024); len(l.entries) > limit {
		drop := len(l.entries) / 2
		l.from = l.entries[drop-1].stamp
		l.entries = slices.Delete(l.entries, 0, drop)
	}
}

// written adds to names the names of kind's objects written after since, and reports whether
// the log knows them (a log begins when first asked for).
func (c *Cluster) written(kind string, since uint64, names []string) ([]string, bool) {
	l := c.logs[kind]
	if l == nil {
		if c.logs == nil {
			c.logs = map[string]*changeLog{}
		}
		c.logs[kind] = &changeLog{from: c.stamps.now}
		return names, false
	}
	if since < l.from {
		return names, false
	}
	i, _ := slices.BinarySearchFunc(l.entries, since+1, func(e change, s uint64) int { return cmp.Compare(e.stamp, s) })
	for _, e := range l.entries[i:] {
		names = append(names, e.name)
	}
	return names, true
}

// ChangedNodes returns the nodes a controller's pass that began at since must visit, when what
// the controller decides for a node reads only that node, its machine, the controller's own
// memory of it and the clock, and a visit that changed nothing changes nothing when repeated:
//
//  1. A pass at the instant since began, with no restore since then, visits the nodes written,
//     or whose machine was written, after since began: at the same instant the others would
//     find what the pass that began at since left them, which is nothing to do.
//  2. Any other pass (the clock moved, no pass before, a restore, a log that does not reach back
//     that far) visits every node.
//
// Either way the nodes come in name order, each as stored when the loop reaches it, and the
// sequence is for one range loop (as All's).
func (c *Cluster) ChangedNodes(since Since) iter.Seq[*api.Node] {
	names, ok := c.changedNames(since)
	if !ok {
		return c.AllNodes()
	}
	return func(yield func(*api.Node) bool) {
		for _, name := range names {
			if n := c.Node(name); n != nil && !yield(n) {
				return
			}
		}
	}
}

// changedNames returns the names of the nodes and machines written after since, sorted, if the
// cluster knows them (rule 1 of ChangedNodes).
func (c *Cluster) changedNames(since Since) ([]string, bool) {
	names, nodes := c.written("Node", since.stamp, nil)
	names, machines := c.written("Machine", since.stamp, names)
	if !since.ok || !since.now.Equal(c.now) || c.stamps.restored > since.stamp || !nodes || !machines {
		return nil, false
	}
	slices.Sort(names)
	return slices.Compact(names), true
}

// Reads counts the objects and machines the cluster handed out: each one an iteration (All,
// Each) yields, each one a List copies, each Get that finds one, each machine looked up. It
// is the work of the controllers made countable (a pass over every node reads every node),
// no part of the cluster's state.
func (c *Cluster) Reads() int64 { return c.reads }
