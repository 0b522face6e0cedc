//go:build js && wasm

package main

import (
	"fmt"
	"runtime/debug"

	"daemonlab/core/sim"

	"honnef.co/go/js/dom/v2"
)

func main() {
	debug.SetGCPercent(sim.GCPercent)
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
	Recover(func() {
		var m Model
		if m, err = restore(); err != nil {
			return
		}
		remembered, _ := storageGet(langKey)
		m.Lang = PickLang(remembered, browserLanguages())
		m.Progress = loadProgress()
		m.LessonsLater = true
		var p *page
		if p, err = mount(m); err != nil {
			return
		}
		p.render()
		p.win.SetTimeout(func() { Recover(func() { p.dispatch(ShowLessonsMsg{}) }, p.showPanic) }, 0)
	}, func(r any) { err = fmt.Errorf("internal error: %v", r) })
	return err
}
