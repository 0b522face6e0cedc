//go:build js && wasm

package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"honnef.co/go/js/dom/v2"
)

// page owns the DOM: the elements it renders into and the model behind them.
type page struct {
	doc      dom.Document
	clock    dom.Element
	nodes    dom.Element
	pending  dom.Element
	output   dom.Element
	problems dom.Element
	banner   dom.Element
	editor   *dom.HTMLTextAreaElement
	terminal dom.Element
	prompt   *dom.HTMLInputElement
	model    Model
}

func mount(m Model) (*page, error) {
	doc := dom.GetWindow().Document()
	p := &page{doc: doc, model: m}
	for id, dst := range map[string]*dom.Element{
		"clock": &p.clock, "nodes": &p.nodes, "pending": &p.pending,
		"output": &p.output, "problems": &p.problems, "banner": &p.banner, "terminal": &p.terminal,
	} {
		el := doc.GetElementByID(id)
		if el == nil {
			return nil, fmt.Errorf("the page has no #%s element", id)
		}
		*dst = el
	}
	editor, ok := doc.GetElementByID("editor").(*dom.HTMLTextAreaElement)
	if !ok {
		return nil, fmt.Errorf("the page has no #editor textarea")
	}
	p.editor = editor
	p.editor.SetValue(m.Editor)
	prompt, ok := doc.GetElementByID("prompt").(*dom.HTMLInputElement)
	if !ok {
		return nil, fmt.Errorf("the page has no #prompt input")
	}
	p.prompt = prompt
	p.prompt.AddEventListener("keydown", false, p.guard(p.promptKey))
	timeline := doc.GetElementByID("timeline")
	for _, a := range TimeActions {
		button := p.el("button", "", a.Label)
		button.SetAttribute("type", "button")
		button.SetAttribute("title", a.Command)
		command := a.Command
		button.AddEventListener("click", false, p.guard(func(dom.Event) { p.dispatch(RunMsg{Line: command}) }))
		timeline.AppendChild(button)
	}
	doc.GetElementByID("apply").AddEventListener("click", false, p.guard(func(dom.Event) {
		p.dispatch(ApplyMsg{Text: p.editor.Value()})
	}))
	p.editor.AddEventListener("keydown", false, p.guard(func(e dom.Event) {
		k, ok := e.(*dom.KeyboardEvent)
		if ok && k.Key() == "Enter" && (k.CtrlKey() || k.MetaKey()) {
			e.PreventDefault()
			p.dispatch(ApplyMsg{Text: p.editor.Value()})
		}
	}))
	return p, nil
}

// promptKey is the terminal's keyboard: Enter runs the line, ↑/↓ walk the history, Tab
// completes, Ctrl+L clears.
func (p *page) promptKey(e dom.Event) {
	k, ok := e.(*dom.KeyboardEvent)
	if !ok {
		return
	}
	var msg any
	switch {
	case k.Key() == "Enter":
		msg = RunMsg{Line: p.prompt.Value()}
	case k.Key() == "ArrowUp":
		msg = HistoryMsg{Step: -1}
	case k.Key() == "ArrowDown":
		msg = HistoryMsg{Step: +1}
	case k.Key() == "Tab" && !k.ShiftKey():
		msg = CompleteMsg{Line: p.prompt.Value()}
	case k.Key() == "l" && k.CtrlKey():
		msg = ClearMsg{}
	default:
		return
	}
	e.PreventDefault()
	p.dispatch(msg)
	p.prompt.SetValue(p.model.Terminal.Input)
}

// guard wraps an event listener so that a panic inside it is reported on the page instead of
// ending the Go program (after a panic in a js.FuncOf callback the page would be dead).
func (p *page) guard(f func(dom.Event)) func(dom.Event) {
	return func(e dom.Event) {
		Recover(func() { f(e) }, p.showPanic)
	}
}

func (p *page) showPanic(r any) {
	println("DaemonLab internal error:", fmt.Sprint(r), "\n", string(debug.Stack()))
	p.banner.SetTextContent("Something went wrong inside DaemonLab, and that is our bug, not yours. The page keeps working; details are in the browser console.")
	p.banner.Class().Remove("hidden")
}

func (p *page) dispatch(msg any) {
	p.model = Update(p.model, msg)
	p.render()
}

// setClass adds or removes one class.
func setClass(e dom.Element, class string, on bool) {
	if on {
		e.Class().Add(class)
	} else {
		e.Class().Remove(class)
	}
}

func (p *page) el(tag, class, text string) dom.Element {
	e := p.doc.CreateElement(tag)
	if class != "" {
		e.SetAttribute("class", class)
	}
	if text != "" {
		e.SetTextContent(text)
	}
	return e
}

func (p *page) render() {
	v := Render(p.model)
	p.clock.SetTextContent(v.Clock)
	p.nodes.SetTextContent("")
	for _, n := range v.Nodes {
		p.nodes.AppendChild(p.nodeCard(n))
	}
	p.pending.SetTextContent("")
	for _, pod := range v.Pending {
		p.pending.AppendChild(p.podChip(pod))
	}
	setClass(p.pending.ParentElement(), "hidden", len(v.Pending) == 0)
	p.output.SetTextContent(v.Output)
	setClass(p.output, "error", v.Failed)
	p.problems.SetTextContent("")
	for _, pr := range v.Problems {
		text := pr.Message
		if pr.Line > 0 {
			text = fmt.Sprintf("line %d: %s", pr.Line, pr.Message)
		}
		p.problems.AppendChild(p.el("li", "", text))
	}
	p.terminal.SetTextContent("")
	for _, l := range v.Terminal {
		class := "out"
		switch {
		case l.Command:
			class = "cmd"
		case l.Err:
			class = "err"
		}
		p.terminal.AppendChild(p.el("pre", class, l.Text))
	}
	js := p.terminal.Underlying()
	js.Set("scrollTop", js.Get("scrollHeight"))
	p.doc.DocumentElement().SetAttribute("data-ready", "true")
}

func (p *page) nodeCard(n NodeView) dom.Element {
	card := p.el("section", "node", "")
	card.SetAttribute("data-node", n.Name)
	head := p.el("header", "", "")
	head.AppendChild(p.el("h3", "", n.Name))
	head.AppendChild(p.el("span", "status "+strings.ToLower(strings.SplitN(n.Status, ",", 2)[0]), n.Status))
	head.AppendChild(p.el("span", "roles", n.Roles))
	card.AppendChild(head)
	card.AppendChild(p.actionMenu(n))
	if len(n.Taints) > 0 {
		taints := p.el("ul", "taints", "")
		for _, t := range n.Taints {
			chip := p.el("li", "taint", t)
			chip.SetAttribute("title", "taint "+t)
			taints.AppendChild(chip)
		}
		card.AppendChild(taints)
	}
	pods := p.el("ul", "pods", "")
	for _, pod := range n.Pods {
		pods.AppendChild(p.podChip(pod))
	}
	card.AppendChild(pods)
	return card
}

// actionMenu is a node's fault menu: choosing an item runs its command in the terminal.
func (p *page) actionMenu(n NodeView) dom.Element {
	menu := p.el("select", "node-actions", "").(*dom.HTMLSelectElement)
	menu.SetAttribute("aria-label", "actions for node "+n.Name)
	menu.AppendChild(p.el("option", "", "Break or fix this node…"))
	for _, a := range n.Actions {
		o := p.el("option", "", a.Label)
		o.SetAttribute("value", a.Command)
		o.SetAttribute("title", a.Command)
		menu.AppendChild(o)
	}
	menu.AddEventListener("change", false, p.guard(func(dom.Event) {
		if command := menu.Value(); command != "" && menu.SelectedIndex() > 0 {
			p.dispatch(RunMsg{Line: command})
		}
	}))
	return menu
}

func (p *page) podChip(pod PodView) dom.Element {
	chip := p.el("li", "pod "+strings.ToLower(pod.Status), "")
	chip.SetAttribute("data-pod", pod.Name)
	chip.AppendChild(p.el("span", "name", pod.Name))
	chip.AppendChild(p.el("span", "state", pod.Ready+" "+pod.Status))
	meta := pod.Namespace
	if pod.Owner != "" {
		meta += " · " + pod.Owner
	}
	if pod.QoS != "" {
		meta += " · " + pod.QoS
	}
	chip.AppendChild(p.el("span", "meta", meta))
	if pod.Reason != "" {
		chip.AppendChild(p.el("span", "reason", pod.Reason))
	}
	return chip
}
