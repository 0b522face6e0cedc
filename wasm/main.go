//go:build js && wasm

package main

import (
	"fmt"
	"runtime/debug"
	"syscall/js"

	"daemonlab/core/playground"
	"daemonlab/core/sim"
	"daemonlab/lessons"
)

// lib is what the playground is made of: the start manifest and the lessons the page ships.
var lib = playground.NewLibrary(lessons.Start, lessons.Files, lessons.Challenges, lessons.BuiltIn)

func main() {
	debug.SetGCPercent(sim.GCPercent)
	if err := start(); err != nil {
		if banner := asElement(js.Global().Get("document").Call("getElementById", "banner")); banner != nil {
			banner.SetTextContent("DaemonLab could not start: " + err.Error())
			banner.Class().Remove("hidden")
		}
		println("DaemonLab could not start:", err.Error())
	}
	// The page lives on in its event listeners; after a failed start the program stays too, as
	// a program that exits is the page's stopped banner (site/main.js), and the banner here says
	// better why.
	select {}
}

func start() (err error) {
	Recover(func() {
		var m playground.Model
		keeper := playground.NewKeeper(localStorage{}, lib)
		if m, err = keeper.Restore(takeLink()); err != nil {
			return
		}
		remembered, _ := keeper.Store.Get(playground.LangKey)
		m.Lang = playground.PickLang(remembered, browserLanguages())
		saved, _ := keeper.Store.Get(playground.ProgressKey)
		m.Progress = playground.ReadProgress(saved)
		drawer, _ := keeper.Store.Get(playground.DrawerKey)
		m.Drawer = playground.ReadDrawer(drawer)
		m.LessonsLater = true
		m.Chunk = true // the clock moves a piece at a time (see page.work)
		var p *page
		if p, err = mount(m, keeper); err != nil {
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
			p.dispatch(playground.ShowLessonsMsg{})
			if p.model.LessonsLater {
				p.listLessons()
			}
		}, p.showPanic)
	}, 0)
}
