// Command wasm is DaemonLab's browser front end: a thin adapter that turns DOM events into
// messages, runs them through update against one simulated cluster, and renders view's plain
// data. app.go holds the model, update and view and is tested natively; dom.go and main.go
// (js/wasm only) touch the page.
package main

import (
	"fmt"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
	"daemonlab/lessons"
)

// Model is everything the page shows: the cluster, the editor's text and the last apply, and
// the terminal.
type Model struct {
	Sim      *sim.Sim
	Editor   string
	Result   kubectl.Result
	Terminal Terminal
}

// Terminal is the terminal pane: what it printed, the lines typed (oldest first), where ↑/↓
// are in that history, and the line being typed.
type Terminal struct {
	Lines   []TermLine
	History []string
	Pos     int // len(History) when not browsing it
	Input   string
}

// TermLine is one block of the terminal: a command echoed, or what it printed (Err for standard
// error).
type TermLine struct {
	Text         string
	Command, Err bool
}

// maxTermLines bounds the scrollback.
const maxTermLines = 500

// startupTime is how long the start state lets the cluster run after applying the start
// manifest, so that its pods are Running when the page opens.
const startupTime = 30 * time.Second

// NewModel returns the playground's start state: the default cluster with the start manifest
// applied and 30 simulated seconds run.
func NewModel() (Model, error) {
	s, err := sim.New(1, sim.Default)
	if err != nil {
		return Model{}, err
	}
	r := kubectl.ApplyAll(s, []byte(lessons.Start), "STDIN", "default")
	if r.Err != "" {
		return Model{}, fmt.Errorf("the start manifest does not apply: %s", r.Err)
	}
	s.Advance(startupTime)
	return Model{Sim: s, Editor: lessons.Start, Result: r}, nil
}

// Recover runs f and turns a panic inside it into a call of report, so that no panic crosses the
// JavaScript boundary (after a panic in a js.FuncOf callback the Go program is gone for good).
// It reports whether f panicked.
func Recover(f func(), report func(any)) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
			report(r)
		}
	}()
	f()
	return false
}

// ApplyMsg asks to apply the editor's text.
type ApplyMsg struct{ Text string }

// RunMsg runs a command line in the terminal, as typed or as a button's command (echoed, so that
// learners see the command behind every button).
type RunMsg struct{ Line string }

// CompleteMsg completes the terminal's line (Tab): one completion replaces it, several are
// listed.
type CompleteMsg struct{ Line string }

// HistoryMsg moves through the terminal's history: -1 older (↑), +1 newer (↓).
type HistoryMsg struct{ Step int }

// ClearMsg clears the terminal (Ctrl+L).
type ClearMsg struct{}

// Update applies a message to the model. Apply is all or nothing: when any object fails, the
// cluster is left as it was and the result says why.
func Update(m Model, msg any) Model {
	t := &m.Terminal
	switch msg := msg.(type) {
	case ApplyMsg:
		m.Editor = msg.Text
		m.Result = kubectl.ApplyAll(m.Sim, []byte(msg.Text), "STDIN", "default")
	case RunMsg:
		line := strings.TrimSpace(msg.Line)
		t.Input = ""
		if line == "" {
			break
		}
		if n := len(t.History); n == 0 || t.History[n-1] != line {
			t.History = append(t.History, line)
		}
		t.Pos = len(t.History)
		t.print(TermLine{Text: "$ " + line, Command: true})
		if line == "clear" {
			t.Lines = nil
			break
		}
		r := shell.Run(m.Sim, line, "")
		if r.Out != "" {
			t.print(TermLine{Text: strings.TrimSuffix(r.Out, "\n")})
		}
		if r.Err != "" {
			t.print(TermLine{Text: strings.TrimSuffix(r.Err, "\n"), Err: true})
		}
	case CompleteMsg:
		t.Input = msg.Line
		switch options := shell.Complete(m.Sim, msg.Line); len(options) {
		case 0:
		case 1:
			t.Input = options[0]
			if !strings.ContainsAny(options[0][len(options[0])-1:], "=./") {
				t.Input += " " // a whole word: on to the next
			}
		default:
			t.Input = commonPrefix(options)
			t.print(TermLine{Text: "$ " + msg.Line, Command: true})
			var words []string
			for _, o := range options {
				words = append(words, lastWord(o))
			}
			t.print(TermLine{Text: strings.Join(words, "  ")})
		}
	case HistoryMsg:
		t.Pos = max(0, min(len(t.History), t.Pos+msg.Step))
		t.Input = ""
		if t.Pos < len(t.History) {
			t.Input = t.History[t.Pos]
		}
	case ClearMsg:
		t.Lines = nil
	}
	return m
}

func (t *Terminal) print(l TermLine) {
	t.Lines = append(t.Lines, l)
	if extra := len(t.Lines) - maxTermLines; extra > 0 {
		t.Lines = t.Lines[extra:]
	}
}

// commonPrefix is the longest prefix of all the lines.
func commonPrefix(lines []string) string {
	p := lines[0]
	for _, l := range lines[1:] {
		for !strings.HasPrefix(l, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// lastWord is what a completion adds: the line's last word.
func lastWord(line string) string {
	return line[strings.LastIndexAny(line, " |")+1:]
}

// View is the page as plain data.
type View struct {
	Clock    string
	Nodes    []NodeView
	Pending  []PodView // pods no node has taken
	Output   string
	Failed   bool
	Problems []api.Problem
	Terminal []TermLine
	Input    string
}

// NodeView is one node card.
type NodeView struct {
	Name, Status, Roles string
	Taints              []string
	Pods                []PodView
	Actions             []Action
}

// Action is a button's (or a menu item's) label and the command it runs in the terminal.
type Action struct {
	Label, Command string
}

// TimeActions are the timeline's buttons.
var TimeActions = []Action{
	{"Next event", "sim step"},
	{"+10s", "sim advance 10s"},
	{"+1m", "sim advance 1m"},
	{"+5m", "sim advance 5m"},
}

// nodeActions is a node's fault menu: each item the sim or kubectl command it runs.
func nodeActions(node string) []Action {
	var out []Action
	for _, a := range []Action{
		{"Stop the kubelet", "sim fail %s kubelet-down"},
		{"Make it NotReady", "sim fail %s not-ready"},
		{"Memory pressure", "sim fail %s memory-pressure"},
		{"Disk pressure", "sim fail %s disk-pressure"},
		{"PID pressure", "sim fail %s pid-pressure"},
		{"Network unavailable", "sim fail %s network-unavailable"},
		{"Recover", "sim recover %s"},
		{"Cordon", "kubectl cordon %s"},
		{"Uncordon", "kubectl uncordon %s"},
		{"Drain", "kubectl drain %s --ignore-daemonsets"},
		{"Delete the node", "kubectl delete node %s"},
	} {
		out = append(out, Action{a.Label, fmt.Sprintf(a.Command, node)})
	}
	return out
}

// PodView is one pod chip.
type PodView struct {
	Name, Namespace, Owner, Status, Ready, QoS, Reason string
}

// Render turns the model into a View.
func Render(m Model) View {
	c := m.Sim.C
	v := View{Clock: "t = " + humanSince(c.Now().Sub(cluster.Epoch)), Output: m.Result.Out, Problems: m.Result.Problems,
		Terminal: m.Terminal.Lines, Input: m.Terminal.Input}
	if m.Result.Err != "" {
		v.Output, v.Failed = m.Result.Err, true
	}
	byNode := map[string][]PodView{}
	for _, p := range c.Pods() {
		pv := podView(p, c.Now())
		if p.Spec.NodeName == "" {
			v.Pending = append(v.Pending, pv)
			continue
		}
		byNode[p.Spec.NodeName] = append(byNode[p.Spec.NodeName], pv)
	}
	for _, n := range c.Nodes() {
		nv := NodeView{Name: n.Name, Status: kubectl.NodeStatus(n), Roles: kubectl.NodeRoles(n), Pods: byNode[n.Name], Actions: nodeActions(n.Name)}
		for _, t := range n.Spec.Taints {
			nv.Taints = append(nv.Taints, t.String())
		}
		v.Nodes = append(v.Nodes, nv)
	}
	return v
}

func humanSince(d time.Duration) string {
	return d.Round(time.Second).String()
}

func podView(p *api.Pod, now time.Time) PodView {
	st := kubectl.PodStatus(p, now)
	pv := PodView{Name: p.Name, Namespace: p.Namespace, QoS: p.Status.QOSClass, Ready: st.Ready, Status: st.Status}
	if ref, ok := api.ControllerOf(&p.ObjectMeta); ok {
		pv.Owner = ref.Kind + "/" + ref.Name
	}
	for _, cond := range p.Status.Conditions {
		if cond.Type == api.PodScheduled && cond.Status == api.ConditionFalse {
			pv.Reason = cond.Message
		}
	}
	return pv
}
