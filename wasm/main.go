//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"syscall/js"

	"daemonlab/core/playground"
	"daemonlab/core/sim"
)

// main starts the page (start), at once or, when what it opens is in a lesson and the lessons
// are still downloading (see library_fetched.go), once they have arrived.
func main() {
	debug.SetGCPercent(sim.GCPercent)
	assets := map[string]js.Value{}
	for _, name := range fetched {
		assets[name] = js.Global().Call("daemonlabData", name) // a promise of its bytes (site/main.js)
	}
	keeper, fragment := keeperOf()
	lang := keeper.Lang(browserLanguages())
	if e := keeper.Embed(); e != nil && e.Lang != "" {
		lang = e.Lang
	}
	if lib.Waiting() && keeper.NeedsLessons(fragment) {
		awaitAsset(assets[playground.AssetLessons], func(data []byte, err error) {
			if err == nil {
				err = lib.Deliver(data)
			}
			if err != nil {
				couldNotStart(lang, errors.New(playground.T(lang, "asset.lessons.start", err.Error())))
				return
			}
			delete(assets, playground.AssetLessons)
			startWith(keeper, fragment, lang, assets)
		})
	} else {
		startWith(keeper, fragment, lang, assets)
	}
	// The page lives on in its event listeners; after a failed start the program stays too, as
	// a program that exits is the page's stopped banner (site/main.js), and the banner here says
	// better why.
	select {}
}

// keeperOf is where the page keeps its session, and the link in its address it opens: the
// browser's storage and the link taken from the address (takeLink) for the full page; for
// embed.html (<html data-embed>), its part of the storage, configured by its address's fragment,
// which stays in the address (playground.NewEmbedKeeper).
func keeperOf() (*playground.Keeper, string) {
	if !js.Global().Get("document").Get("documentElement").Call("hasAttribute", "data-embed").Bool() {
		return playground.NewKeeper(localStorage{}, lib), takeLink()
	}
	return playground.NewEmbedKeeper(localStorage{}, lib, strings.TrimPrefix(js.Global().Get("location").Get("hash").String(), "#")), ""
}

// startWith starts the page and hands it the assets on their way as they arrive.
func startWith(keeper *playground.Keeper, fragment string, lang playground.Lang, assets map[string]js.Value) {
	p, err := start(keeper, fragment, lang)
	if err != nil {
		couldNotStart(lang, err)
		return
	}
	for name, promise := range assets {
		awaitAsset(promise, func(data []byte, err error) { p.dispatch(playground.AssetMsg{Name: name, Data: data, Err: err}) })
	}
}

// couldNotStart says on the page why it could not start.
func couldNotStart(lang playground.Lang, err error) {
	if banner := asElement(js.Global().Get("document").Call("getElementById", "banner")); banner != nil {
		banner.SetTextContent(playground.T(lang, "start.failed", err.Error()))
		banner.Class().Remove("hidden")
	}
	println("DaemonLab could not start:", err.Error())
}

// awaitAsset calls then with an asset's bytes once its promise (site/main.js's daemonlabData)
// settles, or with why it did not arrive.
func awaitAsset(promise js.Value, then func([]byte, error)) {
	var ok, failed js.Func
	done := func() { ok.Release(); failed.Release() }
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer done()
		bytes := js.Global().Get("Uint8Array").New(args[0])
		data := make([]byte, bytes.Get("length").Int())
		js.CopyBytesToGo(data, bytes)
		Recover(func() { then(data, nil) }, func(r any) { println("DaemonLab internal error:", fmt.Sprint(r)) })
		return nil
	})
	failed = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer done()
		reason := "it did not arrive"
		if len(args) > 0 && args[0].Truthy() {
			reason = args[0].Call("toString").String()
		}
		Recover(func() { then(nil, errors.New(reason)) }, func(r any) { println("DaemonLab internal error:", fmt.Sprint(r)) })
		return nil
	})
	promise.Call("then", ok, failed)
}

func start(keeper *playground.Keeper, fragment string, lang playground.Lang) (p *page, err error) {
	Recover(func() {
		var m playground.Model
		if m, err = keeper.Opening(fragment, lang); err != nil {
			return
		}
		if p, err = mount(m, keeper); err != nil {
			return
		}
		p.render()
		p.listLessons()
	}, func(r any) { err = fmt.Errorf("internal error: %v", r) })
	return p, err
}

// listLessons lists the lessons in the picker after the page's first paint, a lesson a task (see
// Model.LessonsLater), unless it is listing them already.
func (p *page) listLessons() {
	if p.listing || !p.model.LessonsLater {
		return
	}
	p.listing = true
	p.win.SetTimeout(func() {
		Recover(func() {
			p.listing = false
			p.dispatch(playground.ShowLessonsMsg{})
			p.listLessons()
		}, p.showPanic)
	}, 0)
}
