package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// BenchmarkPlayRollout5000 plays a rolling update of a DaemonSet on 5,000 nodes at 60× in the
// page for twenty seconds of real time and reports what a learner would feel: the longest task
// the page ran (ms-longest, the page cannot paint or take input meanwhile), the tasks over 50 ms
// (long-tasks, the browser's "long task"); it logs how far the simulated clock went.
func BenchmarkPlayRollout5000(b *testing.B) {
	if _, err := os.Stat(chromiumPath); err != nil {
		b.Skipf("no Chromium at %s; `make bench` installs it", chromiumPath)
	}
	var manifest strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&manifest, "apiVersion: v1\nkind: Node\nmetadata: {name: node-%04d}\n---\n", i)
	}
	manifest.WriteString("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  updateStrategy: {rollingUpdate: {maxUnavailable: 10%}}\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: busybox:1.36, resources: {requests: {cpu: 10m, memory: 20Mi}}}]\n")
	url := serveBuilt(b)
	for b.Loop() {
		br := newBrowser(b)
		require.NoError(b, chromedp.Do(br.ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`))))
		eval[bool](b, br, `(() => { const e = document.getElementById('editor'); e.value = `+jsString(manifest.String())+`;
			e.dispatchEvent(new Event('input')); return true; })()`)
		require.NoError(b, chromedp.Do(br.ctx, chromedp.Click(chromedp.CSS(`#apply`))))
		require.NoError(b, chromedp.Do(br.ctx, chromedp.WaitVisible(chromedp.CSS(`#nodes button.cell[data-node="node-4999"]`))))
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
