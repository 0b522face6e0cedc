//go:build js && wasm

package main

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// The page works on honnef.co/go/js/dom's element types, made here straight from an element's
// js.Value. dom's own ways to reach an element or an event (Document.GetElementByID,
// CreateElement, QuerySelectorAll, the event an AddEventListener callback gets) pick its type by
// comparing it with every HTML element and event constructor in turn, which brings every one of
// those types, and all their methods, into main.wasm: 1.8 MB of it, 58 KB in brotli. The page
// needs the generic HTML element, three form controls and the keyboard event.

// element is an HTML element as the page uses it.
type element = *dom.BasicHTMLElement

// asElement is the element v, or nil for null or undefined.
func asElement(v js.Value) element {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}
}

// byID is the document's element with that id, or nil.
func (p *page) byID(id string) element {
	return asElement(p.doc.Call("getElementById", id))
}

// all is every element under root that selector matches.
func all(root js.Value, selector string) []element {
	list := root.Call("querySelectorAll", selector)
	out := make([]element, list.Length())
	for i := range out {
		out[i] = asElement(list.Index(i))
	}
	return out
}

// control is the element with that id when it is a tag element (INPUT, SELECT, TEXTAREA), or nil.
func (p *page) control(id, tag string) element {
	if e := p.byID(id); e != nil && e.Underlying().Get("tagName").String() == tag {
		return e
	}
	return nil
}

// listen calls f with each typ event on target; a panic in f is shown on the page instead of
// ending the Go program (after a panic in a js.FuncOf callback the page would be dead).
func (p *page) listen(target js.Value, typ string, f func(e js.Value)) {
	target.Call("addEventListener", typ, js.FuncOf(func(_ js.Value, args []js.Value) any {
		Recover(func() { f(args[0]) }, p.showPanic)
		return nil
	}))
}

// keyboard is a keydown event as dom's KeyboardEvent.
func keyboard(e js.Value) *dom.KeyboardEvent {
	return &dom.KeyboardEvent{BasicEvent: &dom.BasicEvent{Value: e}}
}
