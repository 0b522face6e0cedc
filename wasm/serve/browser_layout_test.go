package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The browser tests of the page's layout (issue 21, the cluster always in view): on a wide
// screen the cluster stays in view whatever the terminal does; on a phone one pane shows at a
// time under a sticky timeline; every button is echoed in the terminal, whose transcript comes
// back after a reload and in a share link.

// applyOutput waits for what the last `$ kubectl apply -f -` printed in the terminal, a block of
// class ("out" or "err"), and returns it.
func (b *browser) applyOutput(t *testing.T, class string) string {
	t.Helper()
	expr := `(() => { const lines = [...document.querySelectorAll('#terminal pre')];
		const at = lines.map(l => l.textContent).lastIndexOf('$ kubectl apply -f -');
		const next = at >= 0 ? lines[at + 1] : null;
		return next && next.classList.contains(` + jsString(class) + `) ? next.textContent : ''; })()`
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](expr+` !== ''`, chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, "the terminal shows `kubectl apply -f -` and its %s", class)
	return eval[string](t, b, expr)
}

// panesShown are the panes the page shows (data-pane), in order.
func (b *browser) panesShown(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, b, `[...document.querySelectorAll('.work > [data-pane]')].filter(e => e.getClientRects().length > 0).map(e => e.dataset.pane)`)
}

// terminalLines are the terminal's blocks, each its class and text.
func (b *browser) terminalLines(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, b, `[...document.querySelectorAll('#terminal pre')].map(p => p.className + ' ' + p.textContent)`)
}

// cardsInView are the node cards' places in the window, and whether each is in it, not under
// anything: its header's middle is the card's own.
func (b *browser) cardsInView(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, b, `[...document.querySelectorAll('#nodes .node')].map(n => {
		const r = n.querySelector('header').getBoundingClientRect();
		const seen = r.top >= 0 && r.bottom <= innerHeight && n.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
		return n.dataset.node + ' ' + Math.round(r.left) + ',' + Math.round(r.top) + (seen ? ' seen' : ' hidden'); })`)
}

// TestBrowserTheClusterStaysInViewWhileTyping: at 1440×900 and 1280×720 the node cards stay
// where they are, in view, while thirty commands are typed in the terminal's drawer below
// them, and the window never scrolls; the terminal and the events scroll on their own, sideways
// too (no line is cut off); the editor's Apply prints in the terminal; the drawer's handle
// resizes it from the keyboard, and the height is remembered; a lesson is a column beside the
// cluster, which it does not push down.
func TestBrowserTheClusterStaysInViewWhileTyping(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	b.openPage(t, url)
	cards := b.cardsInView(t)
	require.Len(t, cards, 3)
	for _, c := range cards {
		require.True(t, strings.HasSuffix(c, " seen"), "the cards are in view: %v", cards)
	}
	for i := range 30 {
		b.run(t, []string{"kubectl get pods -A -o wide", "kubectl describe node hd2", "k get ds -A"}[i%3])
	}
	assert.Equal(t, cards, b.cardsInView(t), "the cards did not move")
	assert.Zero(t, eval[float64](t, b, `scrollY`), "the window did not scroll")
	assert.True(t, eval[bool](t, b, `(() => { const e = document.getElementById('terminal');
		return e.scrollHeight > e.clientHeight && Math.abs(e.scrollTop + e.clientHeight - e.scrollHeight) < 2; })()`), "the terminal scrolls on its own, to its end")
	for _, id := range []string{"terminal", "events"} {
		assert.Contains(t, []string{"auto", "scroll"}, eval[string](t, b, `getComputedStyle(document.getElementById('`+id+`')).overflowX`), "%s: a wide line scrolls", id)
		assert.LessOrEqual(t, eval[float64](t, b, `document.getElementById('`+id+`').getBoundingClientRect().bottom`), 900.0, "%s is in the window", id)
	}
	assert.True(t, eval[bool](t, b, `(() => { const e = document.getElementById('events'); return e.scrollHeight > e.clientHeight; })()`), "the events scroll on their own")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#apply`))))
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch unchanged\ndeployment.apps/web unchanged", b.applyOutput(t, "out"))
	assert.False(t, eval[bool](t, b, `!!document.getElementById('output')`), "no output box of its own")
	b.screenshot(t, "layout-1440")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Focus(chromedp.CSS(`#drawer-handle`)), chromedp.KeyEvent(kb.ArrowUp)))
	assert.Equal(t, "40", eval[string](t, b, `document.getElementById('drawer-handle').getAttribute('aria-valuenow')`))
	assert.InDelta(t, 360, eval[float64](t, b, `document.getElementById('drawer').getBoundingClientRect().height`), 2, "40% of 900 px")
	b.reload(t)
	assert.InDelta(t, 360, eval[float64](t, b, `document.getElementById('drawer').getBoundingClientRect().height`), 2, "remembered")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#drawer-fold`))))
	assert.Equal(t, "false", eval[string](t, b, `document.getElementById('drawer-fold').getAttribute('aria-expanded')`))
	assert.Less(t, eval[float64](t, b, `document.getElementById('drawer').getBoundingClientRect().height`), 60.0, "folded to its title")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#drawer-fold`))))

	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 720)))
	for _, c := range b.cardsInView(t)[:2] {
		assert.True(t, strings.HasSuffix(c, " seen"), "at 1280×720 the cards are in view: %v", c)
	}
	b.run(t, "kubectl get pods -A -o wide")
	b.screenshot(t, "layout-1280")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`!!document.querySelector('#lesson-picker option[value="07-node-failure"]')`, chromedp.WithPollingTimeout(10*time.Second)))
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lesson-picker`), "07-node-failure"))) // and its change event
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor:not(.hidden)`))))
	tutor := eval[[]float64](t, b, `(r => [r.left, r.right, r.top])(document.getElementById('tutor').getBoundingClientRect())`)
	cluster := eval[[]float64](t, b, `(r => [r.left, r.top])(document.getElementById('cluster-pane').getBoundingClientRect())`)
	assert.LessOrEqual(t, tutor[1], cluster[0], "the lesson is a column left of the cluster")
	assert.InDelta(t, tutor[2], cluster[1], 2, "side by side: the lesson does not push the cluster down")
	for _, c := range b.cardsInView(t) {
		assert.True(t, strings.HasSuffix(c, " seen"), "in a lesson the cards are in view: %v", c)
	}
	b.screenshot(t, "layout-lesson")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1280, 720)))
	for _, c := range b.cardsInView(t) {
		assert.True(t, strings.HasSuffix(c, " seen"), "in a lesson at 1280×720 the cards are in view: %v", c)
	}
	b.screenshot(t, "layout-lesson-1280")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), "zh-CN")))
	b.screenshot(t, "layout-lesson-chinese")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserAPhoneShowsOnePaneAtATime: at 390×844 tabs (a tablist) pick the pane, by touch
// and by the arrow keys; Play stays in reach at the top however far the learner scrolls; an
// Apply from the YAML pane shows its output in the terminal's; a lesson adds its own tab.
func TestBrowserAPhoneShowsOnePaneAtATime(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)))
	b.openPage(t, url)
	assert.Equal(t, []string{"Cluster", "YAML", "Terminal"}, eval[[]string](t, b, `[...document.querySelectorAll('#panes [role="tab"]')].map(t => t.textContent)`))
	assert.Equal(t, []string{"cluster"}, b.panesShown(t))

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#pane-yaml`))))
	assert.Equal(t, []string{"yaml"}, b.panesShown(t))
	assert.Equal(t, "true", eval[string](t, b, `document.getElementById('pane-yaml').getAttribute('aria-selected')`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Focus(chromedp.CSS(`#pane-yaml`)), chromedp.KeyEvent(kb.ArrowRight)))
	assert.Equal(t, []string{"terminal"}, b.panesShown(t))
	assert.Equal(t, "pane-terminal", eval[string](t, b, `document.activeElement.id`), "the focus follows the tab")
	assert.Equal(t, []string{"-1", "-1", "0"}, eval[[]string](t, b, `[...document.querySelectorAll('#panes [role="tab"]')].map(t => t.getAttribute('tabindex'))`), "one tab in the tab order")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Home)))
	assert.Equal(t, []string{"cluster"}, b.panesShown(t))

	// Something is due (hd2's lease runs out), so Play runs: with nothing due it stops at once.
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Click(chromedp.CSS(`[data-node="hd2"] .menu-button`)),
		chromedp.Click(chromedp.CSS(`[data-node="hd2"] button[data-command="sim fail hd2 kubelet-down"]`)),
	))
	b.idle(t)
	eval[bool](t, b, `(() => { window.scrollTo(0, document.body.scrollHeight); return true; })()`)
	require.Greater(t, eval[float64](t, b, `scrollY`), 100.0, "the cluster is longer than the window")
	play := eval[[]float64](t, b, `(r => [r.top, r.bottom])(document.getElementById('play').getBoundingClientRect())`)
	assert.GreaterOrEqual(t, play[0], 0.0, "Play is in reach")
	assert.LessOrEqual(t, play[1], 844.0)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#play`))))
	assert.Equal(t, "true", eval[string](t, b, `document.getElementById('play').getAttribute('aria-pressed')`))
	b.screenshot(t, "phone-watching")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#play`))))
	b.idle(t)

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#pane-yaml`)), chromedp.Click(chromedp.CSS(`#apply`))))
	assert.Contains(t, b.applyOutput(t, "out"), "deployment.apps/web unchanged")
	assert.Equal(t, []string{"terminal"}, b.panesShown(t), "the output is shown")
	assert.LessOrEqual(t, eval[int](t, b, `document.documentElement.scrollWidth`), 390)
	b.screenshot(t, "phone-terminal")

	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`!!document.querySelector('#lesson-picker option[value="07-node-failure"]')`, chromedp.WithPollingTimeout(10*time.Second)))
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lesson-picker`), "07-node-failure"))) // and its change event
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#pane-lesson`))))
	assert.Equal(t, []string{"lesson"}, b.panesShown(t), "a lesson opens on its text")
	b.screenshot(t, "phone-lesson")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserTheTranscriptSurvivesAReloadAndALink: the terminal's lines — commands, output,
// errors and the notes of buttons — are there after a reload, and in a fresh browser that opens
// the session's share link.
func TestBrowserTheTranscriptSurvivesAReloadAndALink(t *testing.T) {
	b, _ := openPlayground(t)
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Click(chromedp.CSS(`[data-node="hd2"] .menu-button`)),
		chromedp.Click(chromedp.CSS(`[data-node="hd2"] button[data-command="sim fail hd2 kubelet-down"]`)),
	))
	b.run(t, "kubectl get nodez")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#undo`))))
	lines := b.terminalLines(t)
	require.Equal(t, []string{"cmd $ sim fail hd2 kubelet-down", "out node/hd2 failed: kubelet-down", "cmd $ kubectl get nodez",
		`err error: the server doesn't have a resource type "nodez"`, "note # Undo: back to step 0 of 1"}, lines)
	b.savedHas(t, "Undo: back to step 0 of 1")
	b.reload(t)
	assert.Equal(t, lines, b.terminalLines(t), "after a reload")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#share`)), chromedp.WaitVisible(chromedp.CSS(`#share-url`))))
	link := eval[string](t, b, `document.getElementById('share-url').value`)
	fresh := newBrowser(t)
	fresh.openPage(t, link)
	assert.Equal(t, lines, fresh.terminalLines(t), "in a share link")
	assert.Empty(t, b.consoleErrors())
	assert.Empty(t, fresh.consoleErrors())
}
