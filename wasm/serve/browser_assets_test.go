package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveHeld serves the page built into dir, holding back the named assets until release is
// called, as a slow link would.
func serveHeld(t *testing.T, dir string, held ...string) (url string, release func()) {
	t.Helper()
	url, g := serveGated(t, dir)
	var paths []string
	for _, name := range held {
		paths = append(paths, "/"+name)
	}
	g.hold(paths...)
	return url, func() { g.release(paths...) }
}

// lastTerminalLine is the terminal's last line.
func (b *browser) lastTerminalLine(t *testing.T) string {
	t.Helper()
	return eval[string](t, b, `Array.from(document.querySelectorAll('#terminal pre')).pop().textContent`)
}

// TestBrowserExplainSaysLoadingUntilItsDocumentsArrive: the page opens before kubectl explain's
// documents and the lessons have arrived (both held back); meanwhile explain says its documents
// are downloading (in the page's language), the lesson picker says the lessons are loading, and
// kubectl patch, which merges by the documents' patch strategies and merge keys, works; once they arrive, explain
// prints kubectl's text and the picker lists the lessons.
func TestBrowserExplainSaysLoadingUntilItsDocumentsArrive(t *testing.T) {
	dir := copySite(t)
	buildWasm(t, dir)
	for _, tc := range []struct {
		name, lang, loading, lessonsLoading string
	}{
		{"English", "en", "loading… kubectl explain's documents are still downloading; run it again in a moment", "Loading the lessons…"},
		{"Chinese", "zh-CN", "加载中……kubectl explain 的文档仍在下载，请稍后再运行一次", "正在加载课程……"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, release := serveHeld(t, dir, "openapi.json", "lessons.json")
			t.Cleanup(release)
			b := newBrowser(t)
			b.openPage(t, url)
			require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), tc.lang)))
			eval[bool](t, b, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
			b.pickPane(t, "terminal")
			b.run(t, "kubectl explain pod.spec.tolerations")
			assert.Equal(t, tc.loading, b.lastTerminalLine(t))
			assert.Equal(t, []string{"", tc.lessonsLoading}, eval[[]string](t, b, `Array.from(document.querySelectorAll('#lesson-picker option')).map(o => o.disabled ? o.textContent : '')`))
			b.run(t, `kubectl patch ds fluentd-elasticsearch -n kube-system -p '{"spec":{"template":{"spec":{"containers":[{"name":"fluentd-elasticsearch","image":"docker.io/library/fluentd:v2.6.0"}]}}}}'`)
			b.run(t, "kubectl get ds fluentd-elasticsearch -n kube-system -o jsonpath='{.spec.template.spec.containers[*].name} {.spec.template.spec.containers[*].image}'")
			assert.Equal(t, "fluentd-elasticsearch docker.io/library/fluentd:v2.6.0", b.lastTerminalLine(t), "the strategic merge patch merged the container by its name")

			release()
			b.waitFor(t, `document.querySelectorAll('#lesson-picker option').length > 20`, "the lessons are listed once they arrive")
			assert.Zero(t, eval[int](t, b, `document.querySelectorAll('#lesson-picker option[disabled]').length`))
			b.run(t, "kubectl explain pod.spec.tolerations")
			assert.Contains(t, eval[string](t, b, `document.getElementById('terminal').textContent`), "FIELD: tolerations <[]Toleration>")
			assert.Empty(t, b.consoleErrors())
		})
	}
}

// TestBrowserALessonLinkAtStartWaitsForTheLessons: a lesson link opens its lesson though the
// lessons come after main.wasm: the page starts once they have arrived, in the lesson.
func TestBrowserALessonLinkAtStartWaitsForTheLessons(t *testing.T) {
	dir := copySite(t)
	buildWasm(t, dir)
	url, release := serveHeld(t, dir, "lessons.json")
	t.Cleanup(release)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate(url+"#lesson=7")))
	time.Sleep(time.Second)
	assert.False(t, eval[bool](t, b, `document.documentElement.getAttribute('data-ready') === 'true'`), "the page waits for the lessons it opens")
	release()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitReady(chromedp.CSS(`html[data-ready="true"] #tutor`))))
	b.pickPane(t, "lesson")
	assert.Equal(t, "Lesson 7 · Node failure", b.text(t, "#tutor h2"))
	assert.Equal(t, url, eval[string](t, b, `location.href`), "the lesson link is dropped once opened")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserAMissingAssetIsSaidAndBreaksNothing: with openapi.json missing (a 404), the notice
// says kubectl explain's documents could not be downloaded, explain says so too, and the rest
// works; with lessons.json missing, a lesson link says in the banner that its lessons could not
// be downloaded, and the saved session is left as it was.
func TestBrowserAMissingAssetIsSaidAndBreaksNothing(t *testing.T) {
	dir := copySite(t)
	buildWasm(t, dir)
	require.NoError(t, os.Remove(filepath.Join(dir, "openapi.json")))
	b := newBrowser(t)
	url := serveDir(t, dir)
	b.openPage(t, url)
	b.waitFor(t, `document.getElementById('notice-text').textContent.includes("kubectl explain's documents could not be downloaded (Error: HTTP 404)")`, "the notice says the documents are missing")
	b.pickPane(t, "terminal")
	b.run(t, "kubectl explain pod")
	assert.Equal(t, "kubectl explain's documents could not be downloaded; reload the page to try again", b.lastTerminalLine(t))
	b.run(t, "kubectl get ds -n kube-system")
	assert.Contains(t, b.lastTerminalLine(t), "fluentd-elasticsearch")

	require.NoError(t, os.Remove(filepath.Join(dir, "lessons.json")))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url+"#lesson=7"), chromedp.WaitVisible(chromedp.CSS(`#banner`))))
	banner := b.text(t, "#banner")
	assert.True(t, strings.HasPrefix(banner, "DaemonLab could not start: the lessons it opens with could not be downloaded (Error: HTTP 404)"), banner)
	assert.Contains(t, eval[string](t, b, `localStorage.getItem('daemonlab.session') || ''`), `"typed":["kubectl explain pod","kubectl get ds -n kube-system"]`, "the saved session is as it was")
}
