//go:build js && wasm

package main

import (
	"fmt"
	"runtime/debug"
	"syscall/js"

	"daemonlab/core/sim"
)

func main() {
	debug.SetGCPercent(sim.GCPercent)
	if err := start(); err != nil {
		if banner := asElement(js.Global().Get("document").Call("getElementById", "banner")); banner != nil {
			banner.SetTextContent("DaemonLab could not start: " + err.Error())
			banner.Class().Remove("hidden")
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
		p.listLessons()
	}, func(r any) { err = fmt.Errorf("internal error: %v", r) })
	return err
}

// listLessons lists the lessons in the picker after the page's first paint, a lesson a task (see
// Model.LessonsLater).
func (p *page) listLessons() {
	p.win.SetTimeout(func() {
		Recover(func() {
			p.dispatch(ShowLessonsMsg{})
			if p.model.LessonsLater {
				p.listLessons()
			}
		}, p.showPanic)
	}, 0)
}
