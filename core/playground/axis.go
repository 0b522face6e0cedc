package playground

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubelet"
)

// Mark is something that happened, as the time axis shows it: when, of what kind, and its
// label's text (a key of texts, with its arguments), standing for More others of the same at
// the same second. These are the marks:
//
//  1. each step of the history, at its start: the command typed (or the button's, or play's);
//  2. a node's Ready condition turning Unknown (the node controller's NodeNotReady event: its
//     kubelet stopped posting status), False (the kubelet's NodeNotReady) or True again
//     (NodeReady);
//  3. a taint added to or removed from a node;
//  4. a pod created or deleted by its controller (SuccessfulCreate, SuccessfulDelete), evicted
//     (TaintManagerEviction's "Marking for deletion", the kubelet's Evicted), preempted (the
//     scheduler's Preempted, the kubelet's Preempting) or refused by its kubelet (OutOfcpu,
//     NodePorts, …: kubelet.IsRefusal);
//  5. a Deployment's rollout step (ScalingReplicaSet).
//
// Marks 2 to 5 are found as each step runs (see seen.marks): the events recorded meanwhile,
// at the instant they last happened, and the taints that differ, at the instant the taint says
// it was added (timeAdded), else the last transition of the node's conditions within the
// step, else the step's end.
type Mark struct {
	At   time.Time
	Kind MarkKind
	Key  string
	Args []any
	More int
}

// MarkKind is what a mark is about; the page colours marks by it.
type MarkKind string

// The kinds of marks.
const (
	MarkCommand MarkKind = "command"
	MarkNode    MarkKind = "node"
	MarkTaint   MarkKind = "taint"
	MarkPod     MarkKind = "pod"
	MarkRollout MarkKind = "rollout"
)

// Label is the mark's text in a language: "hd2 Ready: Unknown", "web-7d4 evicted (+2)".
func (mk Mark) Label(l Lang) string {
	s := T(l, mk.Key, mk.Args...)
	if mk.More > 0 {
		s += " " + T(l, "mark.more", mk.More)
	}
	return s
}

// maxStepMarks bounds the marks a step keeps: after marks at the same second of the same text
// key merged (boundMarks: a DaemonSet creating 5,000 pods at once is one mark), the first maxStepMarks stay and later ones are dropped.
const maxStepMarks = 100

// boundMarks merges the marks of the same kind and text key at the same second into
// the first of them, counting the others in More, and keeps at most maxStepMarks.
func boundMarks(marks []Mark) []Mark {
	type same struct {
		at   int64
		key  string
		kind MarkKind
	}
	var out []Mark
	index := map[same]int{}
	for _, mk := range marks {
		k := same{mk.At.Unix(), mk.Key, mk.Kind}
		if i, ok := index[k]; ok {
			out[i].More += 1 + mk.More
			continue
		}
		if len(out) == maxStepMarks {
			continue
		}
		index[k] = len(out)
		out = append(out, mk)
	}
	return out
}

// seen is what the cluster had when the history last looked (at its present position): the
// last resourceVersion handed out, the write stamp, and each node's taints, so that what a step
// changed can be told (marks).
type seen struct {
	version int64
	stamp   uint64
	at      time.Time
	taints  map[string][]api.Taint
}

// seenOf is what the cluster has now.
func seenOf(c *cluster.Cluster) *seen {
	s := &seen{version: c.Version(), stamp: c.Stamp(), at: c.Now(), taints: map[string][]api.Taint{}}
	for n := range c.AllNodes() {
		s.taints[n.Name] = n.Spec.Taints
	}
	return s
}

// marks are the marks of what happened since the history last looked (see Mark), and it looks
// again.
func (s *seen) marks(c *cluster.Cluster) []Mark {
	if s == nil {
		return nil
	}
	var out []Mark
	if c.ChangedSince(s.stamp, "Event") {
		for obj := range c.Each("Event") {
			e := obj.(*api.Event)
			if rv, _ := strconv.ParseInt(e.ResourceVersion, 10, 64); rv > s.version {
				if mk, ok := eventMark(e); ok {
					out = append(out, mk)
				}
			}
		}
	}
	next := seenOf(c)
	if c.ChangedSince(s.stamp, "Node") {
		for n := range c.AllNodes() {
			out = append(out, taintMarks(n, s.taints[n.Name], s.at, c.Now())...)
		}
	}
	*s = *next
	return out
}

// eventMark is the mark an event makes, if it makes one (marks 2, 4 and 5 of Mark).
func eventMark(e *api.Event) (Mark, bool) {
	at, obj := e.LastSeen(), e.InvolvedObject
	mk := func(kind MarkKind, key string, args ...any) (Mark, bool) {
		return Mark{At: at, Kind: kind, Key: key, Args: args}, true
	}
	switch {
	case obj.Kind == "Node" && e.Reason == "NodeNotReady" && e.Source.Component == "kubelet":
		return mk(MarkNode, "mark.node.notready", obj.Name)
	case obj.Kind == "Node" && e.Reason == "NodeNotReady":
		return mk(MarkNode, "mark.node.unknown", obj.Name)
	case obj.Kind == "Node" && e.Reason == "NodeReady":
		return mk(MarkNode, "mark.node.ready", obj.Name)
	case obj.Kind == "Pod" && (e.Reason == "TaintManagerEviction" && strings.HasPrefix(e.Message, "Marking for deletion") || e.Reason == "Evicted"):
		return mk(MarkPod, "mark.pod.evicted", obj.Name)
	case obj.Kind == "Pod" && (e.Reason == "Preempted" || e.Reason == "Preempting" && e.Source.Component == "kubelet"):
		return mk(MarkPod, "mark.pod.preempted", obj.Name)
	case obj.Kind == "Pod" && e.Source.Component == "kubelet" && kubelet.IsRefusal(e.Reason):
		return mk(MarkPod, "mark.pod.refused", obj.Name, e.Reason)
	case e.Reason == "SuccessfulCreate" && strings.HasPrefix(e.Message, "Created pod: "):
		return mk(MarkPod, "mark.pod.created", strings.TrimPrefix(e.Message, "Created pod: "))
	case e.Reason == "SuccessfulDelete" && strings.HasPrefix(e.Message, "Deleted pod: "):
		return mk(MarkPod, "mark.pod.deleted", strings.TrimPrefix(e.Message, "Deleted pod: "))
	case obj.Kind == "Deployment" && e.Reason == "ScalingReplicaSet":
		return mk(MarkRollout, "mark.rollout", obj.Name, e.Message)
	}
	return Mark{}, false
}

// taintMarks are the marks of the taints added to and removed from a node that had the taints
// had at from and has n's now, at to (mark 3 of Mark).
func taintMarks(n *api.Node, had []api.Taint, from, to time.Time) []Mark {
	same := func(a, b api.Taint) bool { return a.Key == b.Key && a.Value == b.Value && a.Effect == b.Effect }
	at := func(t api.Taint) time.Time {
		if t.TimeAdded != nil && t.TimeAdded.After(from) && !t.TimeAdded.After(to) {
			return t.TimeAdded.Time
		}
		var last time.Time
		for _, cond := range n.Status.Conditions {
			if tt := cond.LastTransitionTime.Time; tt.After(from) && !tt.After(to) && tt.After(last) {
				last = tt
			}
		}
		if last.IsZero() {
			return to
		}
		return last
	}
	var out []Mark
	for _, t := range n.Spec.Taints {
		if !slices.ContainsFunc(had, func(h api.Taint) bool { return same(h, t) }) {
			out = append(out, Mark{At: at(t), Kind: MarkTaint, Key: "mark.taint.added", Args: []any{n.Name, t.Key + ":" + string(t.Effect)}})
		}
	}
	for _, t := range had {
		if !slices.ContainsFunc(n.Spec.Taints, func(h api.Taint) bool { return same(h, t) }) {
			t.TimeAdded = nil
			out = append(out, Mark{At: at(t), Kind: MarkTaint, Key: "mark.taint.removed", Args: []any{n.Name, t.Key + ":" + string(t.Effect)}})
		}
	}
	return out
}

// Command is how a step shows as a command: its line, `kubectl apply -f -` for the editor's
// manifests, the file a tab wrote, or the edit saved; play's ticks with how many ran.
func (st Step) Command() string {
	switch {
	case st.Run != "" && st.Times > 1:
		return st.Run + " ×" + strconv.Itoa(st.Times)
	case st.Run != "":
		return st.Run
	case st.File != "":
		return "vim " + st.File
	case st.Edit != nil:
		return "kubectl edit"
	}
	return "kubectl apply -f -"
}

// Axis is the time axis as the page draws it: a slider over the session's simulated time,
// from its start to the end of the last step (redo-able steps included), standing at Now, with
// the marks on its track. Times are on the cluster's clock (since cluster.Epoch), as the clock
// shows them.
type Axis struct {
	Start, Now, End time.Duration
	Marks           []AxisMark
	Inside          bool   // the axis stands inside a step: Undo goes back to its start
	Text            string // the slider's aria-valuetext: where it stands, and the next mark or the last one
	Named           int    // the index of the mark Text names, -1 for none
}

// AxisMark is one mark on the track: where, its kind, its label, and its text with its instant
// (the button's accessible name).
type AxisMark struct {
	At          time.Duration
	Kind        MarkKind
	Label, Text string
}

// maxAxisMarks bounds the marks the track draws, however large the cluster and long the
// session: the track is cut into maxAxisMarks equal slots, and the marks in one slot are drawn
// as its first, its label saying how many more it stands for.
const maxAxisMarks = 24

// marks are every mark of the history (see Mark): each step's command at its start, then what
// happened while it ran.
func (h *History) marks() []Mark {
	var out []Mark
	for i, st := range h.Steps {
		out = append(out, Mark{At: h.spans[i].start, Kind: MarkCommand, Key: "mark.command", Args: []any{st.Command()}})
		out = append(out, h.spans[i].marks...)
	}
	return out
}

// axisOf is the history's time axis in a language.
func axisOf(l Lang, h *History) Axis {
	since := func(t time.Time) time.Duration { return t.Sub(cluster.Epoch) }
	a := Axis{Start: since(h.Start), Now: since(h.Now()), End: since(h.End()), Inside: h.Into > 0}
	length := a.End - a.Start
	var slots [maxAxisMarks]*Mark // the earliest mark in each slot, counting the others
	for _, mk := range h.marks() {
		s := 0
		if length > 0 {
			s = min(int(time.Duration(maxAxisMarks)*(since(mk.At)-a.Start)/length), maxAxisMarks-1)
		}
		switch first := slots[s]; {
		case first == nil:
			slots[s] = &mk
		case mk.At.Before(first.At):
			mk.More += 1 + first.More
			slots[s] = &mk
		default:
			first.More += 1 + mk.More
		}
	}
	var slotted []Mark
	for _, mk := range slots {
		if mk != nil {
			slotted = append(slotted, *mk)
		}
	}
	for _, mk := range slotted {
		label := mk.Label(l)
		a.Marks = append(a.Marks, AxisMark{At: since(mk.At), Kind: mk.Kind, Label: label, Text: T(l, "mark.at", humanSince(since(mk.At)), label)})
	}
	before, after := -1, -1
	for i, m := range a.Marks {
		if m.At <= a.Now {
			before = i
		} else if after == -1 {
			after = i
		}
	}
	switch now := humanSince(a.Now); {
	case after != -1:
		a.Text, a.Named = T(l, "axis.next", now, a.Marks[after].Text), after
	case before != -1:
		a.Text, a.Named = T(l, "axis.last", now, a.Marks[before].Text), before
	default:
		a.Text, a.Named = T(l, "clock.value", now), -1
	}
	return a
}

// AxisKey is the time axis's keyboard, or false for a key it leaves to the browser: ← and ↓ move
// back by AxisStep, → and ↑ forward, Page Up and Page Down by ten times as much, Home and End to
// the axis's ends.
func AxisKey(a Axis, key string) (Msg, bool) {
	step := AxisStep(a)
	to := a.Now
	switch key {
	case "ArrowLeft", "ArrowDown":
		to -= step
	case "ArrowRight", "ArrowUp":
		to += step
	case "PageDown":
		to -= 10 * step
	case "PageUp":
		to += 10 * step
	case "Home":
		to = a.Start
	case "End":
		to = a.End
	default:
		return nil, false
	}
	return SeekTimeMsg{At: max(a.Start, min(a.End, to))}, true
}

// AxisStep is how far an arrow key moves the time axis: a hundredth of its length, rounded up
// to 1s, 5s, 10s, 30s, 1m, 5m, 10m, 30m or 1h, at least a second.
func AxisStep(a Axis) time.Duration {
	want := (a.End - a.Start) / 100
	for _, d := range []time.Duration{time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute} {
		if want <= d {
			return d
		}
	}
	return time.Hour
}

// SeekTimeMsg moves the time axis to an instant on the clock (since cluster.Epoch): the slider
// dragged, a mark clicked, a key pressed on the slider. The instant is rounded to the second,
// except the axis's end, and kept within the axis; the cluster is then as it was at that
// instant exactly (History.place). It stops play.
type SeekTimeMsg struct{ At time.Duration }

func (SeekTimeMsg) during() during { return dropTick }
func (msg SeekTimeMsg) update(m Model) Model {
	h := &m.History
	start, end := h.Start.Sub(cluster.Epoch), h.End().Sub(cluster.Epoch)
	at := msg.At
	if at < end {
		at = max(start, min(end, at.Round(time.Second)))
	}
	m.Playing = false
	h.seekTime(m.Sim, cluster.Epoch.Add(min(at, end)))
	return m
}
