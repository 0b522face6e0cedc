//go:build js && wasm

package main

import (
	"daemonlab/core/playground"
	"encoding/json"
	"strings"
	"syscall/js"
)

// The page's localStorage keys.
const (
	sessionKey  = "daemonlab.session"        // the session, saved after every step
	brokenKey   = "daemonlab.session.broken" // a saved session that could not be read, kept
	langKey     = "daemonlab.lang"           // the language the learner chose
	progressKey = "daemonlab.progress"       // steps completed, by lesson
)

// lessonLinkKey introduces a link to a lesson: …/#lesson=7.
const lessonLinkKey = "lesson="

// loadProgress reads the lesson progress saved in localStorage; anything unreadable is no
// progress.
func loadProgress() map[string]int {
	progress := map[string]int{}
	if saved, ok := storageGet(progressKey); ok {
		if json.Unmarshal([]byte(saved), &progress) != nil {
			return map[string]int{}
		}
	}
	return progress
}

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
//  1. a share link's session; a damaged link is refused with a notice;
//  2. else the session saved in localStorage; one that cannot be read is kept under brokenKey
//     and refused with a notice;
//  3. else the start state.
func restore() (playground.Model, error) {
	m, notice := openShared()
	if notice == "" && m.Sim != nil {
		return m, nil
	}
	if saved, ok := storageGet(sessionKey); ok {
		m, err := playground.Load(lib, []byte(saved))
		if err == nil {
			m.Notice = notice
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

// openShared loads the session of a share link in the address bar (or starts the lesson a
// #lesson=N link names), and drops the link's fragment from it (a reload then restores the
// autosave). It returns no model when the address carries neither, and a notice when the link
// is damaged.
func openShared() (m playground.Model, notice string) {
	loc := js.Global().Get("location")
	fragment := strings.TrimPrefix(loc.Get("hash").String(), "#")
	lesson, isLesson := strings.CutPrefix(fragment, lessonLinkKey)
	if !playground.IsShareFragment(fragment) && !isLesson {
		return playground.Model{}, ""
	}
	js.Global().Get("history").Call("replaceState", nil, "", loc.Get("pathname").String()+loc.Get("search").String())
	if isLesson {
		m, err := playground.StartModel(lib, lesson)
		if err != nil {
			return playground.Model{}, "link.bad"
		}
		return m, ""
	}
	m, err := playground.LoadShared(lib, fragment)
	if err != nil {
		println("DaemonLab did not open the share link:", err.Error())
		return playground.Model{}, "link.bad"
	}
	return m, ""
}
