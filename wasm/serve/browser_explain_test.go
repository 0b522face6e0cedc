package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/lessons"
)

// setEditor replaces the code editor's whole text as typing would.
func (b *browser) setEditor(t *testing.T, text string) {
	t.Helper()
	eval[bool](t, b, `(() => { const v = `+codeView+`; v.dispatch({changes: {from: 0, to: v.state.doc.length, insert: `+jsString(text)+`}, userEvent: 'input.type'}); return true; })()`)
}

// waitFor polls a JavaScript condition for up to five seconds.
func (b *browser) waitFor(t *testing.T, cond, what string) {
	t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, what)
}

// TestBrowserExplainsEveryChange is the story of issue 21's "every change explained", at
// 1440×900, on a phone and in Chinese:
//
//  1. the seed's DaemonSet applied without `operator: Exists` — the terminal shows, after
//     kubectl's own line, which field changed and that revision 2 is rolling out under
//     RollingUpdate, maxUnavailable 1;
//  2. seed 003's DaemonSet in the editor is flagged before Apply: its k8s-master toleration
//     matches no taint, and the control-plane key is named, in the list under the editor and
//     as a warning at its line;
//  3. applied (in place of the start's DaemonSet), hd1's card shows a ghost saying why it has
//     no pod, upstream's predicate second.
func TestBrowserExplainsEveryChange(t *testing.T) {
	url := servePage(t)
	for _, tc := range threeWays {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowser(t)
			b.openAs(t, url, tc)

			// 1. the template diff, revision 2 and its rollout
			b.pickPane(t, "terminal")
			b.run(t, "kubectl apply -f daemonset.yaml")
			lines := eval[[]string](t, b, `Array.from(document.querySelectorAll('#terminal pre')).slice(-2).map(p => p.className + ' ' + p.textContent)`)
			require.Len(t, lines, 2)
			assert.Equal(t, "out daemonset.apps/fluentd-elasticsearch configured", lines[0], "kubectl's output is kubectl's")
			note := strings.TrimPrefix(lines[1], "note ")
			assert.Contains(t, note, "spec.template.spec.tolerations[0].operator: Exists → ")
			if tc.chinese {
				assert.Contains(t, note, "（未设置）")
				assert.Contains(t, note, "修订版本 2 (ControllerRevision fluentd-elasticsearch-")
				assert.Contains(t, note, "正以 RollingUpdate 策略滚动更新到 3 个节点（maxUnavailable=1，maxSurge=0）")
			} else {
				assert.Contains(t, note, "(unset)")
				assert.Contains(t, note, "revision 2 (ControllerRevision fluentd-elasticsearch-")
				assert.Contains(t, note, "is rolling out to 3 nodes under RollingUpdate (maxUnavailable=1, maxSurge=0)")
			}
			eval[bool](t, b, `(() => { document.querySelector('#terminal pre.note').scrollIntoView({block: 'center'}); return true; })()`)
			b.saveScreenshot(t, "explain-diff-"+tc.name, chromedp.CaptureScreenshot())

			// 2. seed 003's DaemonSet is flagged before Apply
			b.run(t, "kubectl delete ds fluentd-elasticsearch -n kube-system")
			b.run(t, "sim advance 10s")
			b.pickPane(t, "yaml")
			b.setEditor(t, lessons.K8sMasterDaemonSet)
			b.waitFor(t, `document.querySelectorAll('#lints li').length === 1`, "the editor's text has its lint")
			lint := b.text(t, "#lints li")
			assert.Contains(t, lint, "node-role.kubernetes.io/k8s-master")
			assert.Contains(t, lint, "node-role.kubernetes.io/control-plane")
			assert.Contains(t, lint, "hd1")
			assert.True(t, strings.HasPrefix(lint, map[bool]string{false: "line 16: ", true: "第 16 行："}[tc.chinese]), lint)
			const cm = `document.getElementById('code-editor').shadowRoot`
			b.waitFor(t, cm+`.querySelectorAll('.cm-lint-marker-warning').length === 1`, "the code editor marks the warning")
			marked := eval[float64](t, b, cm+`.querySelector('.cm-lint-marker-warning').getBoundingClientRect().top`)
			lineTop := eval[float64](t, b, cm+`.querySelectorAll('.cm-line')[15].getBoundingClientRect().top`)
			assert.InDelta(t, lineTop, marked, 4, "the marker is on line 16")
			assert.Empty(t, eval[[]string](t, b, `Array.from(document.querySelectorAll('[data-node="hd1"] .ghost')).map(g => g.textContent)`), "no DaemonSet, no ghost")
			eval[bool](t, b, `(() => { document.getElementById('lints').scrollIntoView({block: 'center'}); return true; })()`)
			b.saveScreenshot(t, "explain-lint-"+tc.name, chromedp.CaptureScreenshot())

			// 3. applied: hd1 shows why it has no pod
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#apply`))))
			b.idle(t)
			b.pickPane(t, "terminal")
			b.run(t, "sim advance 10s")
			b.pickPane(t, "cluster")
			reason := map[bool]string{
				false: "hd1 has the taint node-role.kubernetes.io/control-plane:NoSchedule; fluentd-elasticsearch does not tolerate it, so it creates no pod here; one already running stays until its template changes (a rolling update deletes it and creates none)",
				true:  "hd1 带有污点 node-role.kubernetes.io/control-plane:NoSchedule；fluentd-elasticsearch 不容忍它，因此不会在此创建 Pod；已在运行的 Pod 会保留，直到其模板变化（滚动更新会删除它，且不再创建）",
			}[tc.chinese]
			assert.Equal(t, []string{reason}, eval[[]string](t, b, `Array.from(document.querySelectorAll('[data-node="hd1"] .ghost .reason')).map(g => g.textContent)`))
			assert.Equal(t, "DaemonSet/fluentd-elasticsearch", b.text(t, `[data-node="hd1"] .ghost .name`))
			assert.Equal(t, "(NodeShouldRunDaemonPod: shouldRun=false, shouldContinueRunning=true)", b.text(t, `[data-node="hd1"] .ghost .predicate`), "upstream's predicate second")
			assert.Empty(t, eval[[]string](t, b, `Array.from(document.querySelectorAll('[data-node="hd2"] .ghost, [data-node="hd3"] .ghost')).map(g => g.textContent)`), "hd2 and hd3 run the pod")
			assert.Equal(t, "dashed", eval[string](t, b, `getComputedStyle(document.querySelector('[data-node="hd1"] .ghost')).borderLeftStyle`))
			eval[bool](t, b, `(() => { document.querySelector('[data-node="hd1"]').scrollIntoView({block: 'start'}); return true; })()`)
			b.saveScreenshot(t, "explain-ghost-"+tc.name, chromedp.CaptureScreenshot())
			assert.Empty(t, b.consoleErrors())
		})
	}
}
