package playground

import (
	"sort"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/controller/nodelifecycle"
	"daemonlab/core/controller/tainteviction"
	"daemonlab/core/kubelet"
	"daemonlab/core/sim"
)

// The clock moves only when the learner moves it (a button, `sim advance`, `sim step`, or play,
// which stops by itself when nothing more is due), so the page says what waits on it: on each
// object what will happen to it and when (a pod's notes), and by the clock the next thing due
// with the one click that moves time there. What is due comes from the functions the
// controllers and the kubelets decide with, so that the page says what the clock will do.
//
// A new session's clock is paused, not playing at 1×: every move of the clock is then a command
// the learner sees echoed (and replays in a share link or after a reload), the states a tutorial
// asks to look at (ContainerCreating, Terminating) stay on screen until the learner moves on,
// and no state waits silently, as the next thing due and its click are always in view. (The
// browser test TestBrowserNewcomersFirstMinute takes a newcomer's first minute this way.)

// Due is one thing waiting on the clock: what will happen (Key, a text that takes the time left)
// to which object (Ref; the zero Ref for the controllers at large), and when.
type Due struct {
	Ref  Ref
	Key  string
	At   time.Time
	Args []any // the text's arguments after the time left, if it has any
}

// what is what the page says of d: its text with the time left from now.
func (d Due) what(l Lang, now time.Time) string {
	return T(l, d.Key, append([]any{countdown(d.At.Sub(now))}, d.Args...)...)
}

// kubeletDoes is the text of each of a kubelet's timers.
var kubeletDoes = map[kubelet.Action]string{
	kubelet.Starts: "due.start", kubelet.Removes: "due.gone", kubelet.Restarts: "due.restart", kubelet.Rejects: "due.reject",
	kubelet.Evicts: "due.evictloop", kubelet.Reports: "due.report",
}

// podDue is what waits on the clock for a pod:
//
//  1. its kubelet's timer (kubelet.PodTimer): it starts, is gone, restarts a crashed container
//     or is rejected;
//  2. its eviction by the taint eviction controller when its tolerationSeconds run out
//     (tainteviction.Due).
func podDue(c *cluster.Cluster, p *api.Pod) []Due {
	ref := Ref{Kind: "Pod", Namespace: p.Namespace, Name: p.Name}
	var out []Due
	if t, ok := kubelet.PodTimer(c, p); ok && t.At.After(c.Now()) {
		out = append(out, Due{Ref: ref, Key: kubeletDoes[t.Does], At: t.At})
	}
	if at, ok := tainteviction.Due(c, p); ok && at.After(c.Now()) {
		out = append(out, Due{Ref: ref, Key: "due.evict", At: at})
	}
	return out
}

// nodeDue is what waits on the clock for a node: its kubelet's timer (kubelet.NodeTimer: an
// eviction loop under memory pressure, a status update to post), and its conditions turning
// Unknown once its stopped kubelet has been silent for the grace period
// (nodelifecycle.UnknownAt).
func nodeDue(c *cluster.Cluster, n *api.Node) []Due {
	ref := Ref{Kind: "Node", Name: n.Name}
	var out []Due
	if t, ok := kubelet.NodeTimer(c, n); ok && t.At.After(c.Now()) {
		out = append(out, Due{Ref: ref, Key: kubeletDoes[t.Does], At: t.At})
	}
	if at, ok := nodelifecycle.UnknownAt(c, n); ok && at.After(c.Now()) {
		out = append(out, Due{Ref: ref, Key: "due.unknown", At: at, Args: []any{nodelifecycle.MonitorPeriod, nodelifecycle.GracePeriod}})
	}
	return out
}

// nodeNotes are what the node's card says waits on the clock for it (nodeDue): "turns Unknown
// in 55s", "posts its status in 7s".
func nodeNotes(l Lang, c *cluster.Cluster, n *api.Node) []string {
	var out []string
	for _, d := range nodeDue(c, n) {
		out = append(out, d.what(l, c.Now()))
	}
	return out
}

// dueOf is everything waiting on the clock, earliest first (then by object):
//
//  1. every node's and every pod's timers (nodeDue, podDue);
//  2. when the next timer of all (sim.NextTimer, what `sim step` moves to) is none of them — a
//     controller's own (a DaemonSet's back-off, minReadySeconds, pod GC, a taint lifted) —
//     the controllers acting then, so that the earliest is always the next timer;
//  3. nothing at all when no timer is due: the cluster is settled.
func dueOf(s *sim.Sim) []Due {
	c := s.C
	var out []Due
	for n := range c.AllNodes() {
		out = append(out, nodeDue(c, n)...)
	}
	for p := range c.AllPods() {
		out = append(out, podDue(c, p)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return out[i].Ref.String() < out[j].Ref.String()
	})
	next, ok := s.NextTimer()
	if ok && (len(out) == 0 || next.Before(out[0].At)) {
		out = append([]Due{{Key: "due.controllers", At: next}}, out...)
	}
	return out
}

// DueView is one thing due, as the page shows it: the object (its name, and the key of the
// button that opens it, "" for the controllers at large), what will happen and in how long, and
// the instant ("t = 5m50s").
type DueView struct {
	Object, Open, What, At string
}

// maxDue is how many things due the view lists, the earliest.
const maxDue = 20

// dueView is what the view says of what is due: the list (the first maxDue), the line by the
// clock ("Next: web-x starts in 3s", or that the cluster is settled) and the click that moves
// the clock to the next thing due, `sim advance` by the time left (nil when nothing is due).
func dueView(l Lang, s *sim.Sim, due []Due) (list []DueView, line string, next *Action) {
	now := s.C.Now()
	for _, d := range due[:min(len(due), maxDue)] {
		dv := DueView{Object: d.Ref.Name, What: d.what(l, now), At: T(l, "clock.value", humanSince(d.At.Sub(cluster.Epoch)))}
		if d.Ref != (Ref{}) {
			dv.Open = OpenKey(d.Ref)
		}
		list = append(list, dv)
	}
	if len(due) == 0 {
		return nil, T(l, "due.settled"), nil
	}
	first := list[0]
	line = T(l, "due.next", strings.TrimSpace(first.Object+" "+first.What))
	if more := len(due) - 1; more > 0 {
		line += " " + T(l, "due.more", more)
	}
	wait := due[0].At.Sub(now)
	return list, line, &Action{Label: T(l, "due.go", countdown(wait)), Command: "sim advance " + shortDuration(wait)}
}

// clockState is the clock's state beside it: its visible words and their spoken form.
//
//  1. playing: "▶ 10×", spoken "playing at 10×";
//  2. paused with something due: "❚❚ paused" (the pause button's sign, which every font the
//     page names has);
//  3. paused with nothing due: "❚❚ paused: nothing more is due" (play stops by itself then, see
//     TickMsg).
func clockState(l Lang, m Model, due []Due) (state, spoken string) {
	switch {
	case m.Playing:
		speed := Speeds[m.Speed].Label
		return "▶ " + speed, T(l, "clock.playing", speed)
	case len(due) == 0:
		return "❚❚ " + T(l, "clock.settled"), T(l, "clock.settled")
	}
	return "❚❚ " + T(l, "clock.paused"), T(l, "clock.paused")
}

// settled reports whether nothing waits on the clock: no timer is due, so play would only move
// the clock.
func settled(s *sim.Sim) bool {
	_, due := s.NextTimer()
	return !due
}
