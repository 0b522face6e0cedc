// Command prerender paints DaemonLab's start page: it renders the model a first visit opens on
// (the default cluster, in English, nothing saved, no link: playground's Keeper.Opening over
// empty storage) with the page's own view code (core/playground/markup), natively, into the
// painted regions of the page's template, so that the first paint shows the real cluster
// before the WebAssembly arrives. `make build` runs it:
//
//	go run ./wasm/prerender -in site/index.html -out site/index.painted.html
package main

import (
	"flag"
	"fmt"
	"os"

	"daemonlab/core/playground"
	"daemonlab/core/playground/markup"
	"daemonlab/lessons"
)

func main() {
	in := flag.String("in", "site/index.html", "the page's template")
	out := flag.String("out", "site/index.painted.html", "the painted page to write")
	flag.Parse()
	template, err := os.ReadFile(*in)
	if err == nil {
		var page string
		if page, err = Page(string(template)); err == nil {
			err = os.WriteFile(*out, []byte(page), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "prerender:", err)
		os.Exit(1)
	}
}

// Page paints the template with the start page's view (StartView).
func Page(template string) (string, error) {
	v, err := StartView()
	if err != nil {
		return "", err
	}
	return markup.Paint(template, v)
}

// StartView is what the page's first render shows a first visit. The page as `make build`
// builds it (PAGETAGS lazydata, wasm/library_fetched.go) opens before its lessons arrive
// (lessons.json, fetched after the first paint): the lesson picker says they are loading, here
// as there.
func StartView() (playground.View, error) {
	lib := playground.NewLibraryLater(lessons.Start, lessons.BuiltIn)
	keeper := playground.NewKeeper(nothingStored{}, lib)
	m, err := keeper.Opening("", keeper.Lang(nil))
	if err != nil {
		return playground.View{}, err
	}
	return playground.Render(m), nil
}

// nothingStored is a first visit's storage: empty, and keeping nothing.
type nothingStored struct{}

func (nothingStored) Get(string) (string, bool) { return "", false }
func (nothingStored) Set(string, string) error  { return nil }
func (nothingStored) Remove(string)             {}
