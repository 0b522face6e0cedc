// Command wasm is DaemonLab's browser front end: a thin adapter that turns DOM events into
// messages, runs them through update against one simulated cluster, and renders view's plain
// data. app.go holds the model, update and view and is tested natively; dom.go and main.go
// (js/wasm only) touch the page.
package main

import (
	"fmt"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
	"daemonlab/lessons"
)

// Model is everything the page shows: the cluster, the editor's text and the last apply.
type Model struct {
	Sim    *sim.Sim
	Editor string
	Result kubectl.Result
}

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

// Update applies a message to the model. Apply is all or nothing: when any object fails, the
// cluster is left as it was and the result says why.
func Update(m Model, msg any) Model {
	switch msg := msg.(type) {
	case ApplyMsg:
		m.Editor = msg.Text
		m.Result = kubectl.ApplyAll(m.Sim, []byte(msg.Text), "STDIN", "default")
	}
	return m
}

// View is the page as plain data.
type View struct {
	Clock    string
	Nodes    []NodeView
	Pending  []PodView // pods no node has taken
	Output   string
	Failed   bool
	Problems []api.Problem
}

// NodeView is one node card.
type NodeView struct {
	Name, Status, Roles string
	Taints              []string
	Pods                []PodView
}

// PodView is one pod chip.
type PodView struct {
	Name, Namespace, Owner, Status, Ready, QoS, Reason string
}

// Render turns the model into a View.
func Render(m Model) View {
	c := m.Sim.C
	v := View{Clock: "t = " + humanSince(c.Now().Sub(cluster.Epoch)), Output: m.Result.Out, Problems: m.Result.Problems}
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
		nv := NodeView{Name: n.Name, Status: kubectl.NodeStatus(n), Roles: kubectl.NodeRoles(n), Pods: byNode[n.Name]}
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
