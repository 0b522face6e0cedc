package main

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The deployable folder (`make dist`) in the browser: served by a plain static file server, offline
// after the first visit, and a new version taken only when the learner says so.

// distOf makes the deployable folder of the built site at site (wasm/dist) in a fresh directory
// and returns it. It starts from a copy of the folder `make dist` left, if any, so that the
// compressed copies of unchanged assets are kept rather than made again (main.wasm's brotli
// takes a minute); what the site changed is made anew, so the folder is always the site's.
func distOf(t testing.TB, site string) string {
	t.Helper()
	out := t.TempDir()
	if made := filepath.Join("..", "..", "dist"); exists(filepath.Join(made, "_headers")) {
		copyDir(t, made, out)
	}
	cmd := exec.Command("go", "run", "../dist", "-site", site, "-out", out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "making the deployable folder: %s", msg)
	return out
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// copyDir copies the regular files of from into to, but for the editor's sources (site/editor).
func copyDir(t testing.TB, from, to string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(from, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, name)
		if d.IsDir() {
			if rel == "editor" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	}))
}

// builtSite is site/ as `make build` left it, checked for its module.
func builtSite(t *testing.T) string {
	t.Helper()
	copySite(t) // skips, or fails, without Chromium
	site := filepath.Join("..", "..", "site")
	require.True(t, exists(filepath.Join(site, "main.wasm")), "run `make build` first")
	return site
}

// waitControlled waits until the service worker has installed and controls the page.
func (b *browser) waitControlled(t *testing.T) {
	t.Helper()
	b.waitLong(t, `!!navigator.serviceWorker && !!navigator.serviceWorker.controller`, "the service worker controls the page")
}

// goOffline cuts the browser off the network: the page's and the service worker's requests fail.
func (b *browser) goOffline(t *testing.T) {
	t.Helper()
	offline := true
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		if _, err := cdp.Call(ctx, target, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, target, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			EmulateOfflineServiceWorker: &offline,
			MatchedNetworkConditions:    []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}},
		}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, target, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	})))
}

// assets are the URLs of the page's scripts and style sheets as its HTML names them.
func (b *browser) assets(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, b, `Array.from(document.querySelectorAll('script[src], link[rel=stylesheet]')).map(e => e.getAttribute('src') || e.getAttribute('href'))`)
}

// TestBrowserDistServedByAPlainStaticServerWorks: the deployable folder needs no server of its
// own: net/http's FileServer on it, and nothing else, serves a page that loads under its hashed
// names, becomes ready, and runs kubectl.
func TestBrowserDistServedByAPlainStaticServerWorks(t *testing.T) {
	dist := distOf(t, builtSite(t))
	srv := httptest.NewServer(http.FileServer(http.Dir(dist)))
	t.Cleanup(srv.Close)
	b := newBrowser(t)
	b.openPage(t, srv.URL+"/")
	hashed := regexp.MustCompile(`^[a-z_]+\.[0-9a-f]{10}\.(js|css)$`)
	for _, a := range b.assets(t) {
		assert.Regexp(t, hashed, a)
	}
	assert.Regexp(t, `^editor\.[0-9a-f]{10}\.js$`, eval[string](t, b, `daemonlabAsset('editor.js')`), "the editor, which main.js loads, by its hashed name")
	b.run(t, "kubectl get nodes")
	assert.Contains(t, b.lastTerminal(t), "hd1")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserWorksOfflineAfterTheFirstVisit: once the service worker controls the page, the
// network cut and the server gone, a reload still loads the page, runs a command, opens a
// lesson and prints `kubectl explain pod.spec`.
func TestBrowserWorksOfflineAfterTheFirstVisit(t *testing.T) {
	dist := distOf(t, builtSite(t))
	srv := httptest.NewServer(Handler(dist))
	t.Cleanup(srv.Close)
	b := newBrowser(t)
	b.openPage(t, srv.URL+"/")
	b.waitControlled(t)
	b.goOffline(t)
	srv.CloseClientConnections()
	srv.Close()
	b.reload(t)
	assert.False(t, eval[bool](t, b, `navigator.onLine`), "the browser is offline")
	b.pickPane(t, "terminal")
	b.run(t, "kubectl get nodes")
	assert.Contains(t, b.lastTerminal(t), "hd1")
	b.run(t, "kubectl explain pod.spec")
	assert.Contains(t, strings.Join(b.terminalLines(t), "\n"), "FIELDS:")
	b.waitLong(t, `!!document.querySelector('#lesson-picker option[value="01-one-pod-per-node"]')`, "the lessons are listed")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lesson-picker`), "01-one-pod-per-node")))
	eval[bool](t, b, `document.getElementById('lesson-picker').dispatchEvent(new Event('change'))`)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor`))))
	assert.Equal(t, "Lesson 1 · One pod per node", b.text(t, "#tutor h2"))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserANewVersionWaitsForReload: with version 1 open, the server switches to version 2
// (its style sheet changed), its pages and sw.js given version 1's times (so only their
// ETags tell them apart). The update check installs it and the page says so, still running on
// version 1's assets; Reload brings version 2, every asset of it.
func TestBrowserANewVersionWaitsForReload(t *testing.T) {
	site := builtSite(t)
	v1 := distOf(t, site)
	changed := t.TempDir()
	copyDir(t, site, changed)
	css, err := os.ReadFile(filepath.Join(changed, "style.css"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(changed, "style.css"), append(css, "\n/* version 2 */\n"...), 0o644))
	v2 := distOf(t, changed)
	for _, name := range []string{"index.html", "sw.js"} { // and their copies: as if written in the same second
		for _, suffix := range []string{"", ".br", ".gz"} {
			info, err := os.Stat(filepath.Join(v1, name+suffix))
			require.NoError(t, err)
			require.NoError(t, os.Chtimes(filepath.Join(v2, name+suffix), info.ModTime(), info.ModTime()))
		}
	}

	var served atomic.Pointer[string]
	served.Store(&v1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { Handler(*served.Load()).ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	b := newBrowser(t)
	b.openPage(t, srv.URL+"/")
	b.waitControlled(t)
	old := b.assets(t)
	assert.True(t, eval[bool](t, b, `document.getElementById('update').classList.contains('hidden')`), "no notice while the version is the latest")

	served.Store(&v2)
	eval[bool](t, b, `(navigator.serviceWorker.getRegistration().then(r => r.update()), true)`)
	b.waitLong(t, `!document.getElementById('update').classList.contains('hidden')`, "the page says a new version is ready")
	assert.Equal(t, "A new version of DaemonLab is ready. Reload", strings.Join(strings.Fields(b.text(t, "#update")), " "))
	assert.Equal(t, old, b.assets(t), "the open page keeps its version")
	b.saveScreenshot(t, "update-notice", chromedp.CaptureScreenshot())
	b.pickPane(t, "terminal")
	b.run(t, "kubectl get nodes")
	assert.Contains(t, b.lastTerminal(t), "hd1", "the open page still runs")

	index, err := os.ReadFile(filepath.Join(v2, "index.html"))
	require.NoError(t, err)
	sheet := regexp.MustCompile(`href="(style\.[0-9a-f]{10}\.css)"`).FindSubmatch(index)
	require.NotNil(t, sheet)
	require.NotContains(t, old, string(sheet[1]), "version 2's style sheet is another")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#update-reload`)),
		chromedp.WaitReady(chromedp.CSS(`html[data-ready="true"] link[href="`+string(sheet[1])+`"]`))), "Reload loads version 2")
	now := b.assets(t)
	for _, a := range now {
		assert.Contains(t, string(index), `"`+a+`"`, "every asset is version 2's")
	}
	assert.NotEqual(t, old, now)
	assert.True(t, eval[bool](t, b, `document.getElementById('update').classList.contains('hidden')`), "no notice once on the latest version")
	assert.Empty(t, b.consoleErrors())
}
