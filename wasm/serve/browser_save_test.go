package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The browser tests of saving: nothing a learner does loses their work (core/playground's
// Keeper, wasm/storage.go).

// savedHas waits until the saved session holds text (the page saves a moment after a change).
func (b *browser) savedHas(t *testing.T, text string) {
	t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`(localStorage.getItem('daemonlab.session') || '').includes(`+jsString(text)+`)`,
		chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, "the session is saved with %q a moment after the change", text)
}

// noticeSays waits for the notice to show text.
func (b *browser) noticeSays(t *testing.T, text string) {
	t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`document.getElementById('notice-text').textContent.includes(`+jsString(text)+`)`,
		chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, "the notice says %q; it says %q", text, b.text(t, "#notice-text"))
}

// reload reloads the page and waits for it to be drawn.
func (b *browser) reload(t *testing.T) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`))))
}

// TestBrowserAnOversizedEditorTextIsLeftOutOfTheSave: a 4.5 MB text left in the editor would
// make a session larger than a load reads; the session is saved without it, the notice says so
// and offers a file, and the work done after it survives a reload.
func TestBrowserAnOversizedEditorTextIsLeftOutOfTheSave(t *testing.T) {
	b, _ := openPlayground(t)
	b.run(t, "kubectl label node hd2 disk=ssd")
	b.savedHas(t, "disk=ssd")
	eval[bool](t, b, `(() => { const e = document.getElementById('editor'); e.value = 'x'.repeat(4500000); e.dispatchEvent(new Event('input')); return true; })()`)
	b.noticeSays(t, "The editor's text is not saved: with it the session would be 4.3 MiB, more than the 4 MiB")
	assert.Equal(t, "Save session to a file", b.text(t, "#notice-actions button"))
	b.run(t, "kubectl cordon hd3")
	b.savedHas(t, "cordon hd3")
	assert.Less(t, eval[int](t, b, `localStorage.getItem('daemonlab.session').length`), 100_000, "saved without the text")
	b.reload(t)
	assert.Equal(t, "step 2 of 2", b.text(t, "#step"), "the cluster's work is saved")
	assert.False(t, eval[bool](t, b, `document.getElementById('notice-text').textContent.includes('could not be read')`))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserAFullStorageSaysSoAndTheSessionGoesToAFile: with localStorage full, a step cannot be
// saved: the notice says so and offers the session as a file, which Open session opens in
// another browser; once there is room again the page saves and the notice goes.
func TestBrowserAFullStorageSaysSoAndTheSessionGoesToAFile(t *testing.T) {
	b, url := openPlayground(t)
	b.run(t, "kubectl cordon hd3")
	b.savedHas(t, "cordon hd3")
	filled := eval[int](t, b, `(() => { let n = 0;
		for (let size = 1 << 20; size >= 1; size >>= 1) {
			for (;;) { try { localStorage.setItem('filler' + n, 'f'.repeat(size)); n++; } catch (e) { break; } }
		}
		return n; })()`)
	require.Positive(t, filled)
	b.run(t, "kubectl label node hd2 disk=ssd")
	b.noticeSays(t, "Your browser's storage for this page is full, so this session is not saved")
	session := b.download(t, `#notice-actions button`)
	assert.Contains(t, string(session), "disk=ssd")

	file := filepath.Join(t.TempDir(), "daemonlab-session.json")
	require.NoError(t, os.WriteFile(file, session, 0o644))
	other := newBrowser(t)
	other.openPage(t, url)
	require.NoError(t, chromedp.Do(other.ctx, chromedp.SetUploadFiles(chromedp.CSS(`#session-file`), []string{file})))
	_, err := chromedp.Run(other.ctx, chromedp.Poll[bool](`document.getElementById('step').textContent === 'step 2 of 2'`, chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, "the session file opens")
	assert.Contains(t, other.text(t, `[data-node="hd3"] .status`), "SchedulingDisabled")

	eval[bool](t, b, `(() => { for (let i = 0; i < `+strconv.Itoa(filled)+`; i++) localStorage.removeItem('filler' + i); return true; })()`)
	b.run(t, "kubectl uncordon hd3")
	b.savedHas(t, "uncordon hd3")
	_, err = chromedp.Run(b.ctx, chromedp.Poll[bool](`document.getElementById('notice').classList.contains('hidden')`, chromedp.WithPollingTimeout(5*time.Second)))
	assert.NoError(t, err, "a save that works again dismisses the notice")
	assert.Empty(t, append(b.consoleErrors(), other.consoleErrors()...))
}

// TestBrowserTwoTabsNeverSilentlyOverwriteEachOther: a second tab on the same session hears of the
// first tab's change, stops saving, and follows it when the learner says so.
func TestBrowserTwoTabsNeverSilentlyOverwriteEachOther(t *testing.T) {
	a, url := openPlayground(t)
	b := a.newTab(t)
	b.openPage(t, url)
	a.run(t, "kubectl cordon hd2")
	a.savedHas(t, "cordon hd2")
	b.noticeSays(t, "This session was changed in another tab")
	b.run(t, "kubectl label node hd3 disk=ssd")
	time.Sleep(600 * time.Millisecond) // longer than the page's delay before saving
	saved := eval[string](t, a, `localStorage.getItem('daemonlab.session')`)
	assert.Contains(t, saved, "cordon hd2")
	assert.NotContains(t, saved, "disk=ssd", "the undecided tab does not save over the other's")

	buttons := eval[[]string](t, b, `Array.from(document.querySelectorAll('#notice-actions button')).map(e => e.textContent)`)
	require.Equal(t, []string{"Follow the other tab", "Keep this tab's session"}, buttons)
	assert.True(t, eval[bool](t, b, `document.getElementById('dismiss').classList.contains('hidden')`), "a choice to make, not to dismiss")
	assert.Equal(t, "● not saved", b.text(t, "#unsaved"))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#notice-actions button`))))
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`document.querySelector('[data-node="hd2"] .status').textContent.includes('SchedulingDisabled')`, chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, "the second tab follows the first")
	b.noticeSays(t, "this tab's own is kept")
	time.Sleep(600 * time.Millisecond)
	assert.NotContains(t, a.text(t, "#notice-text"), "changed in another tab", "the tab followed is told of no change")
	assert.Empty(t, append(a.consoleErrors(), b.consoleErrors()...))
}

// TestBrowserALinkKeepsTheSessionOneClickAway: a lesson link opened over the learner's work, in
// the open page (a change of the fragment) or on a fresh load, keeps that work one click away.
func TestBrowserALinkKeepsTheSessionOneClickAway(t *testing.T) {
	b, url := openPlayground(t)
	b.run(t, "kubectl label node hd2 disk=ssd")
	b.savedHas(t, "disk=ssd")
	for i, tab := range []*browser{b, b.newTab(t)} { // the new tab loads the link afresh, over the same storage
		require.NoError(t, chromedp.Do(tab.ctx, chromedp.Navigate(url+"#lesson=7"), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #tutor`))), "tab %d", i)
		tab.noticeSays(t, "You opened a link: its session replaced yours in this tab, and yours is kept")
		require.Equal(t, "Back to your sandbox (1 step)", tab.text(t, "#notice-actions button"))
		assert.False(t, eval[bool](t, tab, `document.getElementById('dismiss').classList.contains('hidden')`))
		require.NoError(t, chromedp.Do(tab.ctx, chromedp.Click(chromedp.CSS(`#notice-actions button`))))
		tab.noticeSays(t, "You are back where you were")
		assert.Equal(t, "step 1 of 1", tab.text(t, "#step"), "tab %d", i)
		assert.True(t, eval[bool](t, tab, `document.getElementById('tutor').classList.contains('hidden')`), "tab %d", i)
		assert.Empty(t, tab.consoleErrors(), "tab %d", i)
	}
}
