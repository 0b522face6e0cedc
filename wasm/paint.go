//go:build js && wasm

package main

import (
	"syscall/js"

	"daemonlab/core/playground"
	"daemonlab/core/playground/markup"
)

// domBuilder is markup's Builder for the DOM: the page draws its parts with the same code as
// the prerendered start page (core/playground/markup), into elements made of js values (no
// wrapper allocated per element).
type domBuilder struct{ p *page }

func (d domBuilder) El(tag, class, text string) js.Value {
	e := d.p.doc.Call("createElement", tag)
	if class != "" {
		e.Call("setAttribute", "class", class)
	}
	if text != "" {
		e.Set("textContent", text)
	}
	return e
}

func (domBuilder) Attr(e js.Value, name, value string) { e.Call("setAttribute", name, value) }
func (domBuilder) Append(parent, child js.Value)       { parent.Call("appendChild", child) }
func (domBuilder) Text(parent js.Value, text string)   { parent.Call("append", text) }

func (d domBuilder) Click(key string, msg func() playground.Msg) { d.p.clicks[key] = msg }

// painter is the page's markup.Painter.
type painter = markup.Painter[js.Value]
