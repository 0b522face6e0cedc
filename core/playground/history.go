package playground

import (
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// Step is one thing the learner did that changed the cluster: a command line (typed, or run by
// a button or play), the editor's text applied, a file's tab written, or a kubectl edit saved. Replaying the steps from the start state
// rebuilds the session exactly, because the same seed and the same commands give the same
// cluster.
type Step struct {
	Run   string    `json:"run,omitempty"`   // a command line
	Stdin string    `json:"stdin,omitempty"` // its standard input (a here-document typed after it)
	Apply string    `json:"apply,omitempty"` // or the editor's manifests, applied all or nothing
	File  string    `json:"file,omitempty"`  // or a workspace file written with Text, from its tab
	Text  string    `json:"text,omitempty"`
	Edit  *EditStep `json:"edit,omitempty"`  // or a kubectl edit saved
	Times int       `json:"times,omitempty"` // ran this many times in a row (play's ticks); 0 is once
}

// runs is how many times the step ran.
func (st Step) runs() int { return max(st.Times, 1) }

// do runs the step once against s.
func (st Step) do(s *sim.Sim) kubectl.Result {
	switch {
	case st.Run != "":
		return shell.Run(s, st.Run, st.Stdin)
	case st.File != "":
		return shell.WriteFile(s, st.File, st.Text)
	case st.Edit != nil:
		e := st.Edit.Edit
		r, _ := shell.SaveEdit(s, &e, st.Edit.Text)
		return r
	}
	return shell.ApplyAll(s, st.Apply)
}

// kinds is how many of the step's kinds it has set: a valid step has one.
func (st Step) kinds() int {
	n := 0
	for _, set := range []bool{st.Run != "", st.Apply != "", st.File != "", st.Edit != nil} {
		if set {
			n++
		}
	}
	return n
}

// History is the session's steps and the cluster's state after them: undo, redo and the
// scrubber move Pos and restore that state. It keeps the state after each of the last
// recentSnapshots steps and after every snapshotEvery-th step before them; any other position
// is rebuilt from the nearest state before it by replaying steps.
type History struct {
	Steps []Step
	Pos   int                      // Steps[:Pos] are in effect; Steps[Pos:] can be redone
	snaps map[int]cluster.Snapshot // the state after Steps[:i]; 0 (the start) is always kept
}

const (
	recentSnapshots = 100
	snapshotEvery   = 50
)

// newHistory starts a history at the cluster's present state.
func newHistory(c *cluster.Cluster) History {
	return History{snaps: map[int]cluster.Snapshot{0: c.Snapshot()}}
}

// record adds a step that has just run; the cluster is in the state after it. Steps that could
// have been redone are dropped, as an editor drops its redo list on a new edit. With extend (a
// play tick), a step that repeats the last one at the end of the history counts as another run
// of it; a write of a file's tab (File) after a write of the same file replaces it, so that a
// run of typing is one step.
func (h *History) record(c *cluster.Cluster, st Step, extend bool) {
	if extend && h.Pos == len(h.Steps) && h.Pos > 0 {
		last := &h.Steps[h.Pos-1]
		switch {
		case st.Run != "" && last.Run == st.Run:
			last.Times = last.runs() + 1
			h.snaps[h.Pos] = c.Snapshot()
			return
		case st.File != "" && last.File == st.File:
			last.Text = st.Text
			h.snaps[h.Pos] = c.Snapshot()
			return
		}
	}
	h.Steps = append(h.Steps[:h.Pos], st)
	for i := range h.snaps {
		if i > h.Pos {
			delete(h.snaps, i)
		}
	}
	h.Pos++
	h.snaps[h.Pos] = c.Snapshot()
	h.prune()
}

// prune forgets the states that are neither recent nor on the snapshotEvery grid.
func (h *History) prune() {
	for i := range h.snaps {
		if i < h.Pos-recentSnapshots && i%snapshotEvery != 0 {
			delete(h.snaps, i)
		}
	}
}

// seek restores the state after Steps[:pos] (pos is clamped to the history).
func (h *History) seek(s *sim.Sim, pos int) {
	pos = max(0, min(len(h.Steps), pos))
	from := pos
	for ; from > 0; from-- {
		if _, ok := h.snaps[from]; ok {
			break
		}
	}
	s.C.Restore(h.snaps[from])
	for i := from; i < pos; i++ {
		for range h.Steps[i].runs() {
			h.Steps[i].do(s)
		}
		h.snaps[i+1] = s.C.Snapshot()
	}
	h.Pos = pos
	h.prune()
}
