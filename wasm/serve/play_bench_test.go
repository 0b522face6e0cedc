package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// nodesManifest is n nodes named node-0000…, then the agent DaemonSet (10% maxUnavailable).
func nodesManifest(n int) string {
	var m strings.Builder
	for i := range n {
		fmt.Fprintf(&m, "apiVersion: v1\nkind: Node\nmetadata: {name: node-%04d}\n---\n", i)
	}
	m.WriteString("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  updateStrategy: {rollingUpdate: {maxUnavailable: 10%}}\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: busybox:1.36, resources: {requests: {cpu: 10m, memory: 20Mi}}}]\n")
	return m.String()
}

// applyInPage opens the page, applies manifest from the editor and waits for the cell of
// lastNode.
func applyInPage(b *testing.B, url, manifest, lastNode string) *browser {
	br := newBrowser(b)
	require.NoError(b, chromedp.Do(br.ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`))))
	eval[bool](b, br, `(() => { const e = document.getElementById('editor'); e.value = `+jsString(manifest)+`;
		e.dispatchEvent(new Event('input')); return true; })()`)
	require.NoError(b, chromedp.Do(br.ctx, chromedp.Click(chromedp.CSS(`#apply`))))
	require.NoError(b, chromedp.Do(br.ctx, chromedp.WaitVisible(chromedp.CSS(`#nodes button.cell[data-node="`+lastNode+`"]`))))
	return br
}

// BenchmarkPageStep1000 measures a step of the page itself on 1,000 nodes running the agent (30
// simulated seconds after it was applied): a command typed in the terminal (Enter), the
// controllers to quiescence and the render into the DOM, all of which run in the key's event
// handler (style, layout and paint come after, in the same frame). It reports the mean
// (ms/step) and the slowest (ms-slowest) of 100 steps typed back to back, after 20 not
// measured, and the slowest of 50 steps typed a fifth of a second apart, as a learner types
// (ms-slowest-paced), which leaves the page idle time between them (see collectWhenIdle).
func BenchmarkPageStep1000(b *testing.B) {
	if _, err := os.Stat(chromiumPath); err != nil {
		b.Skipf("no Chromium at %s; `make bench` installs it", chromiumPath)
	}
	url := serveBuilt(b)
	for b.Loop() {
		br := applyInPage(b, url, nodesManifest(1000), "node-0999")
		times := eval[[]float64](b, br, `(() => {
			const p = document.getElementById('prompt'), out = [];
			p.value = 'sim advance 30s';
			p.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
			for (let i = 0; i < 120; i++) {
				p.value = 'kubectl label node node-0500 step=' + i + ' --overwrite';
				const t0 = performance.now();
				p.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
				out.push(performance.now() - t0);
			}
			return out.slice(20); })()`)
		require.Contains(b, eval[string](b, br, `Array.from(document.querySelectorAll('#terminal pre.out')).pop().textContent`), "node/node-0500 labeled")
		require.Equal(b, "1002/1002", eval[string](b, br, `(() => { const p = document.getElementById('prompt');
			p.value = 'kubectl get ds agent -o jsonpath={.status.numberReady}/{.status.desiredNumberScheduled}';
			p.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
			return Array.from(document.querySelectorAll('#terminal pre.out')).pop().textContent; })()`), "the agent runs on every worker (the 1,000 and hd2, hd3)")
		paced := eval[[]float64](b, br, `(async () => {
			const p = document.getElementById('prompt'), out = [];
			for (let i = 0; i < 50; i++) {
				await new Promise((done) => setTimeout(done, 200));
				p.value = 'kubectl label node node-0500 paced=' + i + ' --overwrite';
				const t0 = performance.now();
				p.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
				out.push(performance.now() - t0);
			}
			return out; })()`, chromedp.EvalAwaitPromise)
		total, slowest := 0.0, 0.0
		for _, t := range times {
			total += t
			slowest = max(slowest, t)
		}
		b.ReportMetric(total/float64(len(times)), "ms/step")
		b.ReportMetric(slowest, "ms-slowest")
		b.ReportMetric(slices.Max(paced), "ms-slowest-paced")
	}
}

// BenchmarkPlayRollout5000 plays a rolling update of a DaemonSet on 5,000 nodes at 60× in the
// page for twenty seconds of real time and reports what a learner would feel: the longest task
// the page ran (ms-longest, the page cannot paint or take input meanwhile), the tasks over 50 ms
// (long-tasks, the browser's "long task"); it logs how far the simulated clock went.
func BenchmarkPlayRollout5000(b *testing.B) {
	if _, err := os.Stat(chromiumPath); err != nil {
		b.Skipf("no Chromium at %s; `make bench` installs it", chromiumPath)
	}
	url := serveBuilt(b)
	for b.Loop() {
		br := applyInPage(b, url, nodesManifest(5000), "node-4999")
		eval[bool](b, br, `(() => { const p = document.getElementById('prompt'); p.value = 'kubectl set image ds/agent c=busybox:1.37'; return true; })()`)
		require.NoError(b, chromedp.Do(br.ctx, chromedp.Focus(chromedp.CSS(`#prompt`)), chromedp.KeyEvent("\r")))
		start := eval[string](b, br, `document.getElementById('clock').textContent`)
		eval[bool](b, br, `(() => { window.__long = [];
			new PerformanceObserver(l => l.getEntries().forEach(e => window.__long.push(e.duration))).observe({type: 'longtask'});
			const s = document.getElementById('speed'); s.value = '3'; s.dispatchEvent(new Event('change'));
			document.getElementById('play').click(); return true; })()`)
		time.Sleep(20 * time.Second)
		long := eval[[]float64](b, br, `(() => { document.getElementById('play').click(); return window.__long; })()`)
		end := eval[string](b, br, `document.getElementById('clock').textContent`)
		longest := 0.0
		for _, d := range long {
			longest = max(longest, d)
		}
		b.ReportMetric(longest, "ms-longest")
		b.ReportMetric(float64(len(long)), "long-tasks")
		b.Logf("clock %s → %s", start, end)
	}
}
