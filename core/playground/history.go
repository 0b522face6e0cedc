package playground

import (
	"strings"
	"time"

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

// History is the session's steps, when each ran, and the cluster's state after them: undo,
// redo and the time axis move Pos (and Into) and restore that state. It keeps the state after
// each of the last recentSnapshots steps and after every snapshotEvery-th step before them; any
// other position is rebuilt from the nearest state before it by replaying steps.
type History struct {
	Steps []Step
	Pos   int // Steps[:Pos] are in effect; Steps[Pos:] can be redone
	// Into is how far into Steps[Pos] the clock has run when the time axis stands inside a step
	// that only moves the clock (see clockStep); 0 at the boundary after Steps[:Pos].
	Into  time.Duration
	Start time.Time                // the clock when the session began
	spans []span                   // when each step ran, and what happened meanwhile
	snaps map[int]cluster.Snapshot // the state after Steps[:i]; 0 (the start) is always kept
	seen  *seen                    // what the cluster had at the present position, for marks
	cut   []cutStep                // standing inside a step: the part of it run so far, as steps
}

// span is when a step ran (from start to end on the cluster's clock) and the marks of what
// happened while it ran.
type span struct {
	start, end time.Time
	marks      []Mark
}

// cutStep is a piece of a step the time axis stands inside (see History.cut): the step that
// runs that piece, when it runs, and the state after it.
type cutStep struct {
	step Step
	span span
	snap cluster.Snapshot
}

const (
	recentSnapshots = 100
	snapshotEvery   = 50
)

// newHistory starts a history at the cluster's present state.
func newHistory(c *cluster.Cluster) History {
	return History{Start: c.Now(), snaps: map[int]cluster.Snapshot{0: c.Snapshot()}, seen: seenOf(c)}
}

// end is when the steps in effect (Steps[:pos]) ended: the session's start for none.
func (h *History) end(pos int) time.Time {
	if pos == 0 {
		return h.Start
	}
	return h.spans[pos-1].end
}

// End is the end of the last step, redo-able steps included: the time axis's end.
func (h *History) End() time.Time { return h.end(len(h.Steps)) }

// Now is where the time axis stands: the end of the steps in effect, and Into more.
func (h *History) Now() time.Time { return h.end(h.Pos).Add(h.Into) }

// record adds a step that has just run; the cluster is in the state after it. Steps that could
// have been redone are dropped, as an editor drops its redo list on a new edit; standing inside
// a step, the part of it run so far is recorded first (as the steps of History.cut) and the rest
// dropped. With extend (a play tick), a step that repeats the last one at the end of the history
// counts as another run of it; a write of a file's tab (File) after a write of the same file
// replaces it, so that a run of typing is one step. The step's span ends on the clock now, and
// its marks are what the cluster's events and taints say happened meanwhile (see marksOf).
func (h *History) record(c *cluster.Cluster, st Step, extend bool) {
	h.commitCut()
	marks := h.seen.marks(c)
	if extend && h.Pos == len(h.Steps) && h.Pos > 0 {
		last := &h.Steps[h.Pos-1]
		sp := &h.spans[h.Pos-1]
		switch {
		case st.Run != "" && last.Run == st.Run:
			last.Times = last.runs() + 1
			sp.end, sp.marks = c.Now(), boundMarks(append(sp.marks, marks...))
			h.snaps[h.Pos] = c.Snapshot()
			return
		case st.File != "" && last.File == st.File:
			last.Text = st.Text
			sp.end, sp.marks = c.Now(), boundMarks(append(sp.marks, marks...))
			h.snaps[h.Pos] = c.Snapshot()
			return
		}
	}
	h.push(st, span{start: h.end(h.Pos), end: c.Now(), marks: boundMarks(marks)}, c.Snapshot())
}

// push appends a step after Steps[:Pos], dropping the steps after them, with its span and the
// state after it.
func (h *History) push(st Step, sp span, snap cluster.Snapshot) {
	h.Steps, h.spans = append(h.Steps[:h.Pos], st), append(h.spans[:h.Pos], sp)
	for i := range h.snaps {
		if i > h.Pos {
			delete(h.snaps, i)
		}
	}
	h.Pos++
	h.snaps[h.Pos] = snap
	h.prune()
}

// commitCut makes the part of the step the time axis stands inside steps of their own (see
// History.cut), the rest of the history dropped, before a new step is recorded.
func (h *History) commitCut() {
	for _, piece := range h.cut {
		h.push(piece.step, piece.span, piece.snap)
	}
	h.cut, h.Into = nil, 0
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
func (h *History) seek(s *sim.Sim, pos int) { h.seekInto(s, pos, 0) }

// seekInto restores the state after Steps[:pos] and into more of Steps[pos], when that step
// only moves the clock and into is within it (else into is 0): the nearest state kept at or
// before pos is restored and the steps after it replayed, then the part of Steps[pos] up to
// into (see cutOf).
func (h *History) seekInto(s *sim.Sim, pos int, into time.Duration) {
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
	h.Pos, h.Into, h.cut = pos, 0, nil
	h.prune()
	h.seen = seenOf(s.C)
	if pos == len(h.Steps) || into <= 0 || into >= h.spans[pos].end.Sub(h.spans[pos].start) {
		return
	}
	pieces, ok := h.cutOf(pos, into)
	if !ok {
		return
	}
	at := h.spans[pos].start
	for _, st := range pieces {
		for range st.runs() {
			st.do(s)
		}
		sp := span{start: at, end: s.C.Now()}
		first := len(h.cut) == 0
		for _, mk := range h.spans[pos].marks {
			if (first || mk.At.After(sp.start)) && !mk.At.After(sp.end) {
				sp.marks = append(sp.marks, mk)
			}
		}
		h.cut = append(h.cut, cutStep{step: st, span: sp, snap: s.C.Snapshot()})
		at = sp.end
	}
	h.Into = s.C.Now().Sub(h.spans[pos].start)
	h.seen = seenOf(s.C)
}

// seekTime moves the time axis to the instant t (see place).
func (h *History) seekTime(s *sim.Sim, t time.Time) {
	pos, into := h.place(t)
	h.seekInto(s, pos, into)
}

// place is where the instant t is on the time axis:
//
//  1. at (or before) the session's start, no step is in effect: the axis's start is the
//     session's, before the commands run at that instant;
//  2. else the steps that ended at or before t are in effect (those at t included);
//  3. if t falls inside the next step and that step only moves the clock (clockRun), the clock
//     runs into it up to t; inside any other step, the axis stands before it.
func (h *History) place(t time.Time) (pos int, into time.Duration) {
	if !t.After(h.Start) {
		return 0, 0
	}
	for pos < len(h.Steps) && !h.spans[pos].end.After(t) {
		pos++
	}
	if pos < len(h.Steps) && t.After(h.spans[pos].start) {
		if _, ok := h.Steps[pos].clockRun(h.spans[pos]); ok {
			into = t.Sub(h.spans[pos].start)
		}
	}
	return pos, into
}

// clockRun is how long one run of a step that only moves the clock takes, and whether the step
// is one: `sim advance D` (play's ticks too) runs for D; `sim step` runs to the next due timer,
// the length of its span.
func (st Step) clockRun(sp span) (time.Duration, bool) {
	if st.Stdin != "" {
		return 0, false
	}
	if d, ok := advanceOf(st.Run); ok && d > 0 {
		return d, true
	}
	if strings.Join(strings.Fields(st.Run), " ") == "sim step" && st.Times == 0 {
		return sp.end.Sub(sp.start), true
	}
	return 0, false
}

// cutOf is the part of the clock step Steps[i] that runs for into of it, as steps: its whole
// runs (the step itself, Times fewer), then `sim advance` of the rest. The time advancing by
// pieces gives is the time advancing at once gives (Sim.Advance(a) then Advance(b) is
// Advance(a+b): TestSeekingInsideAStepIsAdvancingThere), so the cut is the cluster at that
// instant exactly.
func (h *History) cutOf(i int, into time.Duration) ([]Step, bool) {
	st := h.Steps[i]
	per, ok := st.clockRun(h.spans[i])
	if !ok || per <= 0 {
		return nil, false
	}
	whole := min(int(into/per), st.runs()-1)
	var out []Step
	if whole > 0 {
		out = append(out, Step{Run: st.Run, Times: whole})
		if whole == 1 {
			out[0].Times = 0
		}
	}
	if rest := into - time.Duration(whole)*per; rest > 0 {
		out = append(out, Step{Run: "sim advance " + rest.String()})
	}
	return out, true
}
