package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// way is a window a story is proved in.
type way struct {
	name          string
	width, height int64
	chinese       bool
}

// threeWays are the windows issue 21's stories are proved in: 1440×900, a 390×844 phone, and
// 1440×900 in Chinese.
var threeWays = []way{{"desktop", 1440, 900, false}, {"phone", 390, 844, false}, {"zh", 1440, 900, true}}

func (w way) phone() bool { return w.width < 500 }

// openAs opens the page in the way's window (a phone's as a phone's) and language.
func (b *browser) openAs(t *testing.T, url string, w way) {
	t.Helper()
	if w.phone() {
		require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(w.width, w.height, chromedp.EmulateMobile)))
	} else {
		require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(w.width, w.height)))
	}
	b.openPage(t, url)
	if w.chinese {
		require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), "zh-CN")))
		eval[bool](t, b, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	}
}

// waitLong polls a JavaScript condition for up to a minute (play runs in real time).
func (b *browser) waitLong(t *testing.T, cond, what string) {
	t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(time.Minute)))
	require.NoError(t, err, what)
}

// playUntilItStops presses Play and waits until play stops by itself, nothing more being due.
func (b *browser) playUntilItStops(t *testing.T) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#play`))))
	b.waitLong(t, `document.getElementById('play').getAttribute('aria-pressed') === 'false' && document.getElementById('nodes').getAttribute('aria-busy') !== 'true'`, "play stops by itself")
	b.idle(t)
}

// TestBrowserANewcomerSeesTimeAndCause is issue 21's "Done when", at 1440×900 (the cluster in
// view throughout), on a phone and in Chinese:
//
//  1. the newcomer applies seed 000's DaemonSet with `operator: Exists` removed: the terminal
//     says, after kubectl's line, which field changed and that revision 2 is rolling out; Play
//     runs the rollout to its end and stops by itself, every fluentd pod then of revision 2;
//  2. they stop hd2's kubelet and play until the web pod on hd2 is evicted; dragged to the
//     second before the eviction's mark, the axis shows the web pod Running on hd2 again, and
//     hd2's fluentd pod says why it stays (it tolerates the unreachable taint forever); End goes
//     back to the end;
//  3. seed 003's DaemonSet (its k8s-master toleration) is flagged before Apply and, applied,
//     hd1's card says why it has no pod (TestBrowserExplainsEveryChange takes that part in each
//     of the three, with the lint at its line).
func TestBrowserANewcomerSeesTimeAndCause(t *testing.T) {
	url := servePage(t)
	for _, tc := range threeWays {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowser(t)
			b.openAs(t, url, tc)
			phone := tc.phone()
			inView := func(what string) {
				t.Helper()
				if phone {
					return // a phone shows one pane at a time: the tabs are TestBrowserAPhoneShowsOnePaneAtATime's
				}
				for _, c := range b.cardsInView(t) {
					assert.True(t, strings.HasSuffix(c, " seen"), "%s: the cluster is in view: %s", what, c)
				}
				assert.Zero(t, eval[float64](t, b, `scrollY`), "%s: the window did not scroll", what)
			}

			// 1. the template diff, revision 2, and the rollout watched to its end
			b.pickPane(t, "yaml")
			b.setEditor(t, strings.Replace(b.editorText(t), "        operator: Exists\n", "", 1))
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#apply`))))
			b.idle(t)
			note := eval[string](t, b, `[...document.querySelectorAll('#terminal pre.note')].pop().textContent`)
			assert.Contains(t, note, "spec.template.spec.tolerations[0].operator: Exists → ")
			assert.Contains(t, note, map[bool]string{false: "revision 2 (ControllerRevision fluentd-elasticsearch-", true: "修订版本 2 (ControllerRevision fluentd-elasticsearch-"}[tc.chinese])
			inView("after Apply")
			b.screenshot(t, "story-applied-"+tc.name)
			b.pickPane(t, "cluster")
			assert.NotEmpty(t, eval[[]string](t, b, `[...document.querySelectorAll('.pod .badge.rev.old')].map(e => e.textContent)`), "the rollout is under way: old pods")
			b.playUntilItStops(t)
			assert.Empty(t, eval[[]string](t, b, `[...document.querySelectorAll('.pod .badge.rev.old')].map(e => e.textContent)`), "the rollout finished")
			assert.Equal(t, 3, eval[int](t, b, `[...document.querySelectorAll('.pod[data-pod^="fluentd-elasticsearch-"]:not(.terminating) .badge.rev')].filter(e => e.textContent.startsWith('rev 2')).length`), "every fluentd pod is of revision 2")
			assert.Contains(t, b.text(t, `#clock-state`), map[bool]string{false: "nothing more is due", true: "没有待发生的事"}[tc.chinese], "the clock says why it stopped")
			inView("after the rollout")

			// 2. hd2's kubelet stops; the axis goes back to the second before the eviction
			b.pickPane(t, "terminal")
			b.run(t, "sim fail hd2 kubelet-down")
			b.pickPane(t, "cluster")
			require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#speed`), "3")))
			eval[bool](t, b, `document.getElementById('speed').dispatchEvent(new Event('change'))`)
			b.playUntilItStops(t)
			end := b.text(t, "#clock")
			web := eval[string](t, b, `document.querySelector('[data-node="hd2"] .pod.terminating').dataset.pod`)
			require.True(t, strings.HasPrefix(web, "web-"), web)
			var evicted string
			for _, m := range b.axisMarks(t) {
				if strings.Contains(m, web) {
					evicted = m
				}
			}
			require.NotEmpty(t, evicted, "the eviction has its mark: %q", b.axisMarks(t))
			at, err := time.ParseDuration(strings.Fields(evicted)[0])
			require.NoError(t, err, evicted)
			b.dragAxisTo(t, strconv.Itoa(int(at.Seconds())-1))
			assert.Equal(t, "1/1 Running", eval[string](t, b, `document.querySelector('[data-node="hd2"] [data-pod="`+web+`"] .state').textContent`), "the web pod is on hd2 again")
			fluentd := eval[string](t, b, `document.querySelector('[data-node="hd2"] .pod[data-pod^="fluentd-elasticsearch-"]').textContent`)
			assert.Contains(t, fluentd, map[bool]string{
				false: "stays: it tolerates node.kubernetes.io/unreachable:NoExecute without tolerationSeconds, so forever",
				true:  "保留：它容忍 node.kubernetes.io/unreachable:NoExecute 且未设置 tolerationSeconds，因此永久容忍",
			}[tc.chinese], "hd2's fluentd pod says why it stays")
			inView("before the eviction")
			b.screenshot(t, "story-before-eviction-"+tc.name)
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Focus(chromedp.CSS(`#scrubber`)), chromedp.KeyEvent(kb.End)))
			b.idle(t)
			assert.Equal(t, end, b.text(t, "#clock"), "End is the end again")
			assert.True(t, eval[bool](t, b, `!!document.querySelector('[data-node="hd2"] [data-pod="`+web+`"].terminating')`), "evicted there")
			inView("back at the end")
			assert.Empty(t, b.consoleErrors())
		})
	}
}
