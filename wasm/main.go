//go:build js && wasm

package main

import (
	"fmt"

	"honnef.co/go/js/dom/v2"
)

func main() {
	if err := start(); err != nil {
		if app := dom.GetWindow().Document().GetElementByID("banner"); app != nil {
			app.SetTextContent("DaemonLab could not start: " + err.Error())
			app.Class().Remove("hidden")
		}
		println("DaemonLab could not start:", err.Error())
		return
	}
	select {} // the page lives on in its event listeners
}

func start() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	m, err := NewModel()
	if err != nil {
		return err
	}
	p, err := mount(m)
	if err != nil {
		return err
	}
	p.render()
	return nil
}
