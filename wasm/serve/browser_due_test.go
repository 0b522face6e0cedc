package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserNewcomersFirstMinute takes a newcomer's first minute: open the page, apply the
// tutorial's DaemonSet from the editor (without `operator: Exists`, which means the same but
// is a new template: a rolling update), and watch. The clock of a new session is paused (see
// core/playground/due.go for why), and nothing waits on it silently: the clock's state says
// paused, the pods say when they start or go, and by the clock the next thing due has the one
// click that moves time there, echoed in the terminal. Clicking it until nothing is due leaves
// every pod Running and the clock's state saying nothing more is due (the due strip gives way);
// play, after the next apply, stops by itself when nothing more is due.
func TestBrowserNewcomersFirstMinute(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	b.openPage(t, url)
	assert.Equal(t, "❚❚ paused: nothing more is due", b.text(t, "#clock-state [aria-hidden]"))
	assert.Equal(t, "paused: nothing more is due", b.text(t, "#clock-state .sr-only"), "the state, spoken")
	assert.False(t, eval[bool](t, b, `document.getElementById('due').checkVisibility()`), "settled: the clock's state alone says so, in one row")

	b.editAndApply(t, "        operator: Exists\n", "")
	b.idle(t)
	assert.Equal(t, "❚❚ paused", b.text(t, "#clock-state [aria-hidden]"))
	line := b.text(t, "#due .due-line")
	assert.Regexp(t, `^Next: fluentd-elasticsearch-\S+ (gone in 1s|starts in 3s)`, line)
	next := eval[string](t, b, `document.querySelector('#due .due-next').dataset.command`)
	assert.Regexp(t, `^sim advance \d`, next)
	notes := eval[string](t, b, `Array.from(document.querySelectorAll('#nodes .pod .note')).map(n => n.textContent).join('\n')`)
	assert.Regexp(t, `gone in 1s|starts in 3s`, notes, "the pods say what they wait for")
	b.screenshot(t, "due-applied")

	clock := b.text(t, "#clock")
	time.Sleep(time.Second)
	assert.Equal(t, clock, b.text(t, "#clock"), "paused: the clock moves only when the learner moves it")
	assert.Equal(t, line, b.text(t, "#due .due-line"), "and the page keeps saying what waits")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#due summary`))))
	assert.Greater(t, eval[int](t, b, `document.querySelectorAll('#due ol li').length`), 0, "the list of what is due")
	b.saveScreenshot(t, "due-list", chromedp.CaptureScreenshot())
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)))
	b.saveScreenshot(t, "due-phone", chromedp.CaptureScreenshot())
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	eval[bool](t, b, `(() => { const s = document.getElementById('lang'); s.value = 'zh-CN'; return s.dispatchEvent(new Event('change')); })()`)
	assert.Equal(t, "❚❚ 已暂停", b.text(t, "#clock-state [aria-hidden]"))
	assert.Contains(t, b.text(t, "#due .due-line"), "下一个：fluentd-elasticsearch-")
	b.saveScreenshot(t, "due-zh", chromedp.CaptureScreenshot())
	eval[bool](t, b, `(() => { const s = document.getElementById('lang'); s.value = 'en'; return s.dispatchEvent(new Event('change')); })()`)

	clicks := 0
	for ; clicks < 30 && eval[bool](t, b, `!!document.querySelector('#due .due-next')`); clicks++ {
		command := eval[string](t, b, `document.querySelector('#due .due-next').dataset.command`)
		require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#due .due-next`))))
		b.idle(t)
		assert.Equal(t, "$ "+command, eval[string](t, b, `Array.from(document.querySelectorAll('#terminal pre.cmd')).pop().textContent`), "the click, echoed as its command")
	}
	assert.Less(t, clicks, 30, "the rollout is over")
	assert.False(t, eval[bool](t, b, `document.getElementById('due').checkVisibility()`), "settled: the clock's state alone says so, in one row")
	assert.Equal(t, "❚❚ paused: nothing more is due", b.text(t, "#clock-state [aria-hidden]"))
	b.assertAllRunning(t)
	b.screenshot(t, "due-settled")

	b.editAndApply(t, "        effect: NoSchedule\n", "        operator: Exists\n        effect: NoSchedule\n")
	b.idle(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#speed`), "3")))
	eval[bool](t, b, `document.getElementById('speed').dispatchEvent(new Event('change'))`)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#play`))))
	assert.Equal(t, "▶ 60×", b.text(t, "#clock-state [aria-hidden]"))
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`document.getElementById('play').getAttribute('aria-pressed') === 'false'`, chromedp.WithPollingTimeout(20*time.Second)))
	require.NoError(t, err, "play stops by itself: %s %s %s %s", b.text(t, "#clock"), b.text(t, "#clock-state"), b.text(t, "#due"), b.text(t, "#terminal"))
	b.idle(t)
	assert.Equal(t, "❚❚ paused: nothing more is due", b.text(t, "#clock-state [aria-hidden]"))
	b.assertAllRunning(t)
	assert.Empty(t, b.consoleErrors())
}

// assertAllRunning checks that every pod chip on the nodes is 1/1 Running, with no note of
// something due.
func (b *browser) assertAllRunning(t *testing.T) {
	t.Helper()
	states := eval[[]string](t, b, `Array.from(document.querySelectorAll('#nodes .pod')).map(p => p.dataset.pod + ' ' + p.querySelector('.state').textContent)`)
	require.NotEmpty(t, states)
	for _, s := range states {
		assert.True(t, strings.HasSuffix(s, "1/1 Running"), s)
	}
	assert.Empty(t, eval[[]string](t, b, `Array.from(document.querySelectorAll('#nodes .pod .note')).map(n => n.textContent)`), "nothing waits")
}
