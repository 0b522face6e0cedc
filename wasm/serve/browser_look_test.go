package main

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// focusedCommand is the command of the menu item with the focus, or "".
func (b *browser) focusedCommand(t *testing.T) string {
	t.Helper()
	return eval[string](t, b, `document.activeElement.dataset.command || ''`)
}

// menuCommands are the commands of a node's menu items, in order.
func (b *browser) menuCommands(t *testing.T, node string) []string {
	t.Helper()
	return eval[[]string](t, b, `Array.from(document.querySelectorAll('[data-node="`+node+`"] [role=menu] [role=menuitem]')).map(b => b.dataset.command)`)
}

// menuOpen reports whether a node's menu is open, as its button says and as it is drawn.
func (b *browser) menuOpen(t *testing.T, node string) bool {
	t.Helper()
	expanded := eval[string](t, b, `document.querySelector('[data-node="`+node+`"] .menu-button').getAttribute('aria-expanded')`)
	shown := eval[bool](t, b, `!document.querySelector('[data-node="`+node+`"] [role=menu]').hidden`)
	require.Equal(t, expanded == "true", shown, "aria-expanded says what is drawn")
	return shown
}

func (b *browser) keys(t *testing.T, keys ...string) {
	t.Helper()
	for _, k := range keys {
		require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(k)))
	}
}

// TestBrowserNodeMenuSaysItsState: a node's menu is a menu button (WAI-ARIA's menu button
// pattern): Enter opens it on its first item, the arrow keys, Home and End move through it,
// Escape closes it and returns the focus, Enter runs an item and closes it. It offers what
// applies: once hd2's kubelet is stopped the menu names the fault and offers to restart the
// kubelet, not to stop it again; cordoned, it offers Uncordon and not Cordon.
func TestBrowserNodeMenuSaysItsState(t *testing.T) {
	b, _ := openPlayground(t)
	button := `[data-node="hd2"] .menu-button`
	assert.Equal(t, "menu", eval[string](t, b, `document.querySelector('`+button+`').getAttribute('aria-haspopup')`))
	assert.False(t, b.menuOpen(t, "hd2"))
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll('[role=menuitem]:not([tabindex="-1"])').length`), "items are reached with the arrow keys, not Tab")

	b.tabTo(t, button, false)
	b.keys(t, kb.Enter)
	require.True(t, b.menuOpen(t, "hd2"))
	assert.Equal(t, "sim fail hd2 kubelet-down", b.focusedCommand(t), "Enter opens the menu on its first item")
	b.keys(t, kb.ArrowDown)
	assert.Equal(t, "sim fail hd2 not-ready", b.focusedCommand(t))
	b.keys(t, kb.ArrowUp, kb.ArrowUp)
	assert.Equal(t, "kubectl delete node hd2", b.focusedCommand(t), "ArrowUp wraps to the last item")
	b.keys(t, kb.Home)
	assert.Equal(t, "sim fail hd2 kubelet-down", b.focusedCommand(t))
	b.keys(t, kb.Escape)
	assert.False(t, b.menuOpen(t, "hd2"), "Escape closes the menu")
	assert.Equal(t, "menu hd2", eval[string](t, b, `document.activeElement.dataset.key`), "and returns the focus to its button")

	b.keys(t, kb.ArrowDown)
	require.True(t, b.menuOpen(t, "hd2"), "ArrowDown on the button opens the menu too")
	b.keys(t, kb.Enter)
	assert.Equal(t, "$ sim fail hd2 kubelet-down", eval[string](t, b, `Array.from(document.querySelectorAll('#terminal pre.cmd')).pop().textContent`), "Enter ran the item")
	assert.False(t, b.menuOpen(t, "hd2"), "the menu closes after an action")
	assert.Equal(t, "menu hd2", eval[string](t, b, `document.activeElement.dataset.key`), "the focus is back on its button")

	commands := b.menuCommands(t, "hd2")
	require.NotEmpty(t, commands)
	assert.Equal(t, "sim recover hd2 kubelet-down", commands[0], "the stopped kubelet is offered a restart")
	assert.NotContains(t, commands, "sim fail hd2 kubelet-down", "and not stopped again")
	assert.Equal(t, "Restart the kubelet", eval[string](t, b, `document.querySelector('[data-node="hd2"] [role=menuitem]').textContent`))
	assert.Equal(t, []string{"kubelet-down"}, eval[[]string](t, b, `Array.from(document.querySelectorAll('[data-node="hd2"] .fault')).map(f => f.textContent)`), "the card names the fault")
	assert.Equal(t, "actions for node hd2; faults: kubelet-down", eval[string](t, b, `document.querySelector('`+button+`').getAttribute('aria-label')`))
	b.screenshot(t, "node-menu-fault")

	// Tab leaves an open menu and closes it; a click elsewhere closes it too.
	b.keys(t, kb.Enter)
	require.True(t, b.menuOpen(t, "hd2"))
	b.screenshot(t, "node-menu-open")
	b.keys(t, kb.Tab)
	assert.False(t, b.menuOpen(t, "hd2"), "Tab closes the menu")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(button))))
	require.True(t, b.menuOpen(t, "hd2"))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`.cluster h2`))))
	assert.False(t, b.menuOpen(t, "hd2"), "a click elsewhere closes the menu")

	b.run(t, "kubectl cordon hd3")
	assert.Contains(t, b.menuCommands(t, "hd3"), "kubectl uncordon hd3")
	assert.NotContains(t, b.menuCommands(t, "hd3"), "kubectl cordon hd3")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserEditorIndentsOnTab: Tab in the code editor indents; Escape and then Tab leaves it,
// as the hint under it says.
func TestBrowserEditorIndentsOnTab(t *testing.T) {
	b, _ := openPlayground(t)
	assert.Equal(t, "Tab indents · Esc, then Tab, leaves the editor", b.text(t, "#editor-keys"))
	eval[bool](t, b, codeView+`.focus() || true`)
	eval[bool](t, b, `(() => { const v = `+codeView+`; v.dispatch({selection: {anchor: 0}}); return true; })()`)
	first := eval[string](t, b, `document.getElementById('editor').value.split('\n')[0]`)
	b.keys(t, kb.Tab)
	assert.Equal(t, "  "+first, eval[string](t, b, `document.getElementById('editor').value.split('\n')[0]`), "Tab indented the line")
	assert.True(t, eval[bool](t, b, `document.activeElement.id === 'code-editor'`), "and the focus stayed")
	b.keys(t, kb.Escape, kb.Tab)
	assert.False(t, eval[bool](t, b, `document.activeElement.id === 'code-editor'`), "Escape, then Tab, moved the focus on")
	assert.Equal(t, "  "+first, eval[string](t, b, `document.getElementById('editor').value.split('\n')[0]`), "without indenting")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserShareHasCopy: the share link's notice has a Copy button that copies the link and
// says so; where the page may not write the clipboard, it selects the link and says to copy it.
func TestBrowserShareHasCopy(t *testing.T) {
	b, _ := openPlayground(t)
	eval[bool](t, b, `(() => { Object.defineProperty(navigator, 'clipboard', {configurable: true, value: {writeText: (s) => { window.copied = s; return Promise.resolve(); }}}); return true; })()`)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#share`)), chromedp.WaitVisible(chromedp.CSS(`#copy-share`))))
	assert.Equal(t, "Copy", b.text(t, "#copy-share"))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#copy-share`))))
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`document.getElementById('copy-share').textContent === '✓ Copied'`))
	require.NoError(t, err)
	assert.Equal(t, eval[string](t, b, `document.getElementById('share-url').value`), eval[string](t, b, `window.copied`))
	assert.Contains(t, eval[string](t, b, `window.copied`), "#")

	eval[bool](t, b, `(() => { Object.defineProperty(navigator, 'clipboard', {configurable: true, value: undefined}); return true; })()`)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#copy-share`))))
	assert.Equal(t, "Selected: press Ctrl/⌘ + C", b.text(t, "#copy-share"))
	assert.True(t, eval[bool](t, b, `(() => { const i = document.getElementById('share-url'); return document.activeElement === i && i.selectionEnd - i.selectionStart === i.value.length; })()`))
	b.screenshot(t, "share-copy")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserHeaderIsOneRow: at 1280×720 and 1440×900 the header's controls stand in one row,
// in English and in Chinese, with the Reset button armed (its longest label) too; the file
// actions are in the Session menu, which keeps each one's name.
func TestBrowserHeaderIsOneRow(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	b.openPage(t, url)
	oneRow := `(() => { const items = Array.from(document.querySelectorAll('.top > *, .session > *')).filter(e => e.offsetParent !== null && !e.classList.contains('session'));
		const tops = items.map(e => e.getBoundingClientRect()), first = tops[0];
		return tops.every(r => r.top < first.bottom && r.bottom > first.top) && document.querySelector('.top').getBoundingClientRect().height < 60; })()`
	for _, size := range [][2]int64{{1280, 720}, {1440, 900}} {
		require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(size[0], size[1])))
		for _, lang := range []string{"en", "zh-CN"} {
			require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), lang)))
			eval[bool](t, b, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
			assert.True(t, eval[bool](t, b, oneRow), "%dx%d %s", size[0], size[1], lang)
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#reset`))))
			assert.True(t, eval[bool](t, b, `document.getElementById('reset').classList.contains('armed')`))
			assert.True(t, eval[bool](t, b, oneRow), "%dx%d %s, Reset armed", size[0], size[1], lang)
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`.cluster h2`))))
		}
		require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), "en")))
		eval[bool](t, b, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	}
	names := eval[[]string](t, b, `Array.from(document.querySelectorAll('#session-items [role=menuitem]')).map(i => i.getAttribute('aria-label') || i.textContent)`)
	assert.Equal(t, []string{"Export YAML", "Save the whole session to a file", "Open a session file",
		"Import a real cluster's objects: the output of kubectl get nodes,daemonsets,deployments,replicasets,pods -A -o yaml",
		"Embed this lesson or session in your own page: the <iframe> code to paste",
		"Reference: every lesson's recap", "Open a lesson from disk (lesson.yaml, en.yaml, zh-CN.yaml), or drop the files on the page", "Save your lesson progress to a file", "Load lesson progress from a file"}, names)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#session-menu`))))
	assert.Equal(t, "true", eval[string](t, b, `document.getElementById('session-menu').getAttribute('aria-expanded')`))
	assert.Equal(t, "export", eval[string](t, b, `document.activeElement.id`), "the Session menu opens on its first item")
	b.saveScreenshot(t, "look-1440x900-session-menu", chromedp.CaptureScreenshot())
	b.keys(t, kb.End)
	assert.Equal(t, "Load lesson progress from a file", eval[string](t, b, `document.activeElement.getAttribute('aria-label')`))
	b.keys(t, kb.Escape)
	assert.Equal(t, "session-menu", eval[string](t, b, `document.activeElement.id`))
	assert.Empty(t, b.consoleErrors())
}

// lookSize is a window the look tests take the page at: its name in the screenshots' names.
type lookSize struct {
	name          string
	width, height int64
	mobile        bool
}

// lookSizes are the sizes the issues name: two wide windows and a phone.
var lookSizes = []lookSize{{"1440x900", 1440, 900, false}, {"1280x720", 1280, 720, false}, {"390x844", 390, 844, true}}

// emulate makes the browser's window a look size.
func (b *browser) emulate(t *testing.T, size lookSize) {
	t.Helper()
	opts := []chromedp.EmulateViewportOption{}
	if size.mobile {
		opts = append(opts, chromedp.EmulateMobile)
	}
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(size.width, size.height, opts...)))
}

// TestBrowserLooks: the page at the sizes the issue names, in Chinese and in a dark system
// theme (whose background is dark, and whose code is in a monospace font, CJK included), saved
// under .screenshots/ for a person to look at; pods fade in and out, except under
// prefers-reduced-motion.
func TestBrowserLooks(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	for _, size := range lookSizes {
		name := "look-" + size.name
		b.emulate(t, size)
		b.openPage(t, url)
		assert.LessOrEqual(t, eval[float64](t, b, `document.querySelector('.top').getBoundingClientRect().height`), 100.0, "%s: the header is two rows at most", name)
		b.saveScreenshot(t, name, chromedp.CaptureScreenshot())
		require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#session-menu`))))
		box := eval[[]float64](t, b, `(() => { const r = document.getElementById('session-items').getBoundingClientRect(); return [r.left, r.right]; })()`)
		assert.True(t, box[0] >= 0 && box[1] <= float64(size.width), "%s: the Session menu is on the screen: %v", name, box)
		covered := eval[[]string](t, b, `Array.from(document.querySelectorAll('#session-items [role=menuitem]')).filter(i => {
			const r = i.getBoundingClientRect(); return !i.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }).map(i => i.textContent)`)
		assert.Empty(t, covered, "%s: nothing covers the Session menu's items", name)
		b.saveScreenshot(t, name+"-session-menu", chromedp.CaptureScreenshot())
	}
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	b.openPage(t, url)
	b.run(t, "sim fail hd2 kubelet-down")
	b.run(t, "sim advance 6m")
	assert.Equal(t, "pod-leave", eval[string](t, b, `getComputedStyle(document.querySelector('[data-node="hd2"] .pod.terminating.leaving')).animationName`), "the evicted pod fades as it begins to leave")
	b.run(t, "kubectl scale deploy web --replicas=3")
	assert.Equal(t, "pod-enter", eval[string](t, b, `getComputedStyle(document.querySelector('.pod.entering')).animationName`), "a new pod fades in")
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll('.pod.entering').length - 1`), "only the new one")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
		return err
	})))
	assert.Equal(t, "none", eval[string](t, b, `getComputedStyle(document.querySelector('.pod.entering')).animationName`), "no motion for those who ask for less")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), "zh-CN")))
	eval[bool](t, b, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	eval[bool](t, b, `(document.querySelector('.legend').open = true)`)
	mono := eval[string](t, b, `getComputedStyle(document.querySelector('.pod .name')).fontFamily`)
	assert.Contains(t, mono, `"Noto Sans Mono CJK SC"`, "Chinese in code falls to a CJK monospace, not a serif")
	b.saveScreenshot(t, "look-zh-CN", chromedp.CaptureScreenshot())

	assert.Equal(t, "rgb(246, 247, 249)", eval[string](t, b, `getComputedStyle(document.documentElement).backgroundColor`), "light by default")
	b.darkTheme(t)
	dark := eval[[]float64](t, b, `(() => { const c = getComputedStyle(document.documentElement).backgroundColor.match(/\d+/g).map(Number);
		const e = getComputedStyle(document.getElementById('code-editor').shadowRoot.querySelector('.cm-editor')).backgroundColor.match(/\d+/g).map(Number);
		return [c[0] + c[1] + c[2], e[0] + e[1] + e[2]]; })()`)
	assert.Less(t, dark[0], 150.0, "a dark system theme darkens the page")
	assert.Less(t, dark[1], 150.0, "and the code editor")
	time.Sleep(time.Second) // the buttons' colours have moved to the dark ones (a short transition)
	b.saveScreenshot(t, "look-dark-zh-CN", chromedp.CaptureScreenshot())
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), "en")))
	eval[bool](t, b, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	b.saveScreenshot(t, "look-dark", chromedp.CaptureScreenshot())
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserLessonsAndChallengesLook: a prediction's question, a revealed answer with the
// solution's lines, a lesson's recap, the reference and a checked challenge, at 1440×900,
// 1280×720 and on a 390×844 phone, and in Chinese on a dark system theme, saved under
// .screenshots/ for a person to look at; nothing in the lesson's pane is wider than the pane.
func TestBrowserLessonsAndChallengesLook(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	fits := func(name string) {
		t.Helper()
		over := eval[float64](t, b, `document.getElementById('tutor').scrollWidth - document.getElementById('tutor').clientWidth`)
		assert.LessOrEqual(t, over, 1.0, "%s: the lesson's pane scrolls sideways", name)
	}
	shoot := func(name string) {
		t.Helper()
		fits(name)
		b.saveScreenshot(t, name, chromedp.CaptureScreenshot())
	}
	for _, size := range lookSizes {
		b.emulate(t, size)
		b.openPage(t, url+"#lesson=6")
		b.pickPane(t, "lesson")
		require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor .predict .question`))))
		shoot("lesson-question-" + size.name)
		require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="lesson solve"]`))))
		b.idle(t)
		shoot("lesson-revealed-" + size.name)

		b.openPage(t, url+"#challenge=3")
		b.pickPane(t, "lesson")
		require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="challenge check"]`))))
		b.idle(t)
		shoot("challenge-checked-" + size.name)

		require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#session-menu`)), chromedp.Click(chromedp.CSS(`#reference-open`))))
		b.idle(t)
		require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor .recap`))))
		assert.Equal(t, "Reference", b.text(t, "#tutor h2"))
		assert.GreaterOrEqual(t, eval[int](t, b, `document.querySelectorAll('#tutor .recap').length`), 21, "every lesson's recap")
		shoot("reference-" + size.name)
	}
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	b.darkTheme(t)
	b.openPage(t, url+"#lesson=13")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), "zh-CN")))
	eval[bool](t, b, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	b.idle(t)
	shoot("lesson-dark-zh-CN")
	b.openPage(t, url+"#challenge=1")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="challenge check"]`))))
	b.idle(t)
	shoot("challenge-dark-zh-CN")
	assert.Empty(t, b.consoleErrors())
}
