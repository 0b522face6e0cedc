//go:build js && wasm

package main

import (
	"fmt"
	"strings"
	"syscall/js"

	"daemonlab/core/playground"
)

// localStorage is the browser's window.localStorage as a playground.Storage. Every call may
// throw: storage is off in a private window or a sandboxed frame, and a write past the quota
// throws a QuotaExceededError, which Set tells apart (playground.ErrQuota).
type localStorage struct{}

func (localStorage) Get(key string) (value string, ok bool) {
	Recover(func() {
		v := js.Global().Get("localStorage").Call("getItem", key)
		if v.Type() == js.TypeString {
			value, ok = v.String(), true
		}
	}, func(any) {})
	return value, ok
}

func (localStorage) Set(key, value string) (err error) {
	Recover(func() { js.Global().Get("localStorage").Call("setItem", key, value) }, func(r any) {
		if e, ok := r.(js.Error); ok && e.Value.Type() == js.TypeObject && e.Value.Get("name").String() == "QuotaExceededError" {
			err = playground.ErrQuota
			return
		}
		err = fmt.Errorf("the browser refused to store %s: %v", key, r)
	})
	return err
}

func (localStorage) Remove(key string) {
	Recover(func() { js.Global().Get("localStorage").Call("removeItem", key) }, func(any) {})
}

// browserLanguages is navigator.languages, the learner's preferred languages in order.
func browserLanguages() []string {
	var out []string
	Recover(func() {
		langs := js.Global().Get("navigator").Get("languages")
		for i := range langs.Length() {
			out = append(out, langs.Index(i).String())
		}
	}, func(any) {})
	return out
}

// takeLink returns the link in the address bar's fragment, if it holds one (playground.IsLink),
// and drops it from the address (a reload then restores the autosave); "" when there is none.
func takeLink() string {
	loc := js.Global().Get("location")
	fragment := strings.TrimPrefix(loc.Get("hash").String(), "#")
	if !playground.IsLink(fragment) {
		return ""
	}
	js.Global().Get("history").Call("replaceState", nil, "", loc.Get("pathname").String()+loc.Get("search").String())
	return fragment
}
