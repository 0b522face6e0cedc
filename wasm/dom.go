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
	model    Model
}

func mount(m Model) (*page, error) {
	doc := dom.GetWindow().Document()
	p := &page{doc: doc, model: m}
	for id, dst := range map[string]*dom.Element{
		"clock": &p.clock, "nodes": &p.nodes, "pending": &p.pending,
		"output": &p.output, "problems": &p.problems, "banner": &p.banner,
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
