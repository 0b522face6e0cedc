package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// axisMarks are the time axis's marks as a screen reader names them ("6m25s web-… evicted").
func (b *browser) axisMarks(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, b, `Array.from(document.querySelectorAll('#axis-marks .mark')).map(m => m.getAttribute('aria-label'))`)
}

// axisValue is what the time axis's slider says of where it stands.
func (b *browser) axisValue(t *testing.T) string {
	t.Helper()
	return eval[string](t, b, `document.getElementById('scrubber').getAttribute('aria-valuetext')`)
}

// dragAxisTo moves the time axis's slider to a second of the clock, as a drag does.
func (b *browser) dragAxisTo(t *testing.T, seconds string) {
	t.Helper()
	eval[bool](t, b, `(() => { const s = document.getElementById('scrubber'); s.value = `+seconds+`; s.dispatchEvent(new Event('input')); return true; })()`)
	b.idle(t)
}

// TestBrowserAxisGoesBackBeforeTheEviction: after hd2's kubelet stops and play runs until the
// web pod on hd2 is evicted (tolerationSeconds 300 for unreachable), the time axis has marks for
// the command, hd2 turning Unknown and the eviction; dragged to the second before the eviction
// the web pod is on hd2 again, its card counting down, and the slider names the eviction next;
// End goes back to the end, and the eviction's mark seeks to its instant.
func TestBrowserAxisGoesBackBeforeTheEviction(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	b.openPage(t, url)
	b.playNodeFailure(t, false)
	end := b.snapshot(t)
	web := eval[string](t, b, `document.querySelector('[data-node="hd2"] .pod.terminating').dataset.pod`)
	require.True(t, strings.HasPrefix(web, "web-"), web)

	marks := b.axisMarks(t)
	require.GreaterOrEqual(t, len(marks), 3, "%q", marks)
	assert.Equal(t, "30s $ sim fail hd2 kubelet-down (+1)", marks[0], "the command, and play's ticks begun at the same instant")
	assert.Contains(t, marks, "1m25s hd2 unreachable: Ready Unknown (+2)", "with its two unreachable taints")
	assert.Contains(t, marks, "6m25s "+web+" evicted (+1)", "with its replacement created")
	assert.Regexp(t, `^t = \d+m\d+s, last: 6m25s `+web+` evicted \(\+1\)$`, b.axisValue(t))

	b.dragAxisTo(t, "384")
	assert.Equal(t, "t = 6m24s", b.text(t, "#clock"))
	assert.Equal(t, "t = 6m24s, next: 6m25s "+web+" evicted (+1)", b.axisValue(t))
	assert.Equal(t, b.axisValue(t), b.text(t, "#axis-text"))
	assert.Equal(t, "1/1 Running", eval[string](t, b, `document.querySelector('[data-node="hd2"] [data-pod="`+web+`"] .state').textContent`), "the web pod is on hd2 again")
	assert.Contains(t, eval[string](t, b, `document.querySelector('[data-node="hd2"] [data-pod="`+web+`"]').textContent`), "evicted in 1s", "its card counts down")
	assert.Equal(t, "6m25s "+web+" evicted (+1)", eval[string](t, b, `document.querySelector('#axis-marks .mark.named').getAttribute('aria-label')`))
	b.screenshot(t, "axis-before-eviction")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)))
	b.screenshot(t, "axis-before-eviction-phone")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Focus(chromedp.CSS(`#scrubber`)), chromedp.KeyEvent(kb.End)))
	b.idle(t)
	assert.Equal(t, end, b.snapshot(t), "End is the end again")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowLeft)))
	b.idle(t)
	assert.NotEqual(t, end[0], b.snapshot(t)[0], "← moves back")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#axis-marks .mark[aria-label^="6m25s"]`))))
	b.idle(t)
	assert.Equal(t, "t = 6m25s", b.text(t, "#clock"), "a mark seeks to its instant")
	assert.True(t, eval[bool](t, b, `!!document.querySelector('[data-node="hd2"] [data-pod="`+web+`"].terminating')`), "evicted there")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#undo`))))
	assert.Equal(t, "t = 30s", b.text(t, "#clock"), "undo inside play's run goes back to its start")
	assert.Empty(t, b.consoleErrors())
}
