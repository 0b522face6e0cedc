//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"daemonlab/core/playground"
)

// The page's localStorage keys.
const (
	sessionKey  = "daemonlab.session"        // the session, saved after every step
	brokenKey   = "daemonlab.session.broken" // a saved session that could not be read, kept
	langKey     = "daemonlab.lang"           // the language the learner chose
	progressKey = "daemonlab.progress"       // steps completed, by lesson
)

// storageGet reads a localStorage item; ok is false when there is none or the browser refuses
// storage (a private window, a sandboxed frame), which throws.
func storageGet(key string) (value string, ok bool) {
	Recover(func() {
		v := js.Global().Get("localStorage").Call("getItem", key)
		if v.Type() == js.TypeString {
			value, ok = v.String(), true
		}
	}, func(any) {})
	return value, ok
}

// storageSet writes a localStorage item; when the browser refuses (storage off or full), the
// page goes on without saving.
func storageSet(key, value string) {
	Recover(func() { js.Global().Get("localStorage").Call("setItem", key, value) }, func(r any) {
		println("DaemonLab could not save to localStorage:", r)
	})
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

// restore picks the session the page opens on:
//
//  1. a share link's session (with its notice, if its replay was cut short); a damaged link is
//     refused with a notice;
//  2. else the session saved in localStorage (the same); one that cannot be read is kept under
//     brokenKey and refused with a notice;
//  3. else the start state.
func restore() (playground.Model, error) {
	m, notice := openShared()
	if notice == "" && m.Sim != nil {
		return m, nil
	}
	if saved, ok := storageGet(sessionKey); ok {
		m, err := playground.Load(lib, []byte(saved))
		if err == nil {
			if notice != "" { // the damaged link's, before the saved session's own (see playground.Load)
				m.Notice, m.NoticeArg = notice, ""
			}
			return m, nil
		}
		println("DaemonLab could not read the saved session:", err.Error())
		storageSet(brokenKey, saved)
		if notice == "" {
			notice = "saved.bad"
		}
	}
	m, err := playground.NewModel(lib)
	m.Notice = notice
	return m, err
}

// openShared opens a link in the address bar (playground.OpenLink) and drops the link's
// fragment from it (a reload then restores the autosave). It returns no model when the address
// carries none, and a notice when the link is damaged.
func openShared() (m playground.Model, notice string) {
	loc := js.Global().Get("location")
	fragment := strings.TrimPrefix(loc.Get("hash").String(), "#")
	if !playground.IsLink(fragment) {
		return playground.Model{}, ""
	}
	js.Global().Get("history").Call("replaceState", nil, "", loc.Get("pathname").String()+loc.Get("search").String())
	m, err := playground.OpenLink(lib, fragment)
	if err != nil {
		println("DaemonLab did not open the link:", err.Error())
		return playground.Model{}, "link.bad"
	}
	return m, ""
}
