// Command wasm is DaemonLab's page in the browser: it draws core/playground's View into the DOM
// and hands the page's events to playground.Update as messages (dom.go; GOOS=js only).
package main

// Recover runs f and turns a panic inside it into a call of report, so that no panic crosses the
// JavaScript boundary (after a panic in a js.FuncOf callback the Go program is gone for good).
// It reports whether f panicked.
func Recover(f func(), report func(any)) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
			report(r)
		}
	}()
	f()
	return false
}
