package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of what guards the page as a whole: the headers Handler sends, and the banner the
// page shows once the Go runtime has stopped (site/main.js).

// recordingServer serves h, and at /frame.html a page that frames src (the same origin's page
// when src is "/"), noting the paths asked for.
type recordingServer struct {
	*httptest.Server
	mu    sync.Mutex
	asked map[string]bool
}

func serveRecording(t *testing.T, h http.Handler, src string) *recordingServer {
	t.Helper()
	s := &recordingServer{asked: map[string]bool{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/frame.html" {
			fmt.Fprintf(w, `<!doctype html><title>framing</title><iframe id="page" src="%s" width="900" height="600" onload="document.title = 'loaded'"></iframe>`, src)
			return
		}
		s.mu.Lock()
		s.asked[r.URL.Path] = true
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *recordingServer) wasAsked(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked[path]
}

// TestBrowserRefusesToBeFramedByAnotherOrigin: the page served by Handler carries
// frame-ancestors 'self' in its header policy, so a page of another origin (another port) that
// frames it gets nothing: the browser fetches the page and refuses it, and none of its scripts
// is even asked for. Its own origin may frame it, and a plain file server's page (no header)
// is framed by anyone: the refusal is the header's.
func TestBrowserRefusesToBeFramedByAnotherOrigin(t *testing.T) {
	dir := copySite(t)
	buildWasm(t, dir)
	for _, tc := range []struct {
		name        string
		handler     http.Handler
		otherOrigin bool
		framed      bool
	}{
		{"another origin, Handler", Handler(dir), true, false},
		{"the same origin, Handler", Handler(dir), false, true},
		{"another origin, a plain file server", http.FileServer(http.Dir(dir)), true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pageSrv := serveRecording(t, tc.handler, "/")
			framer := pageSrv.URL + "/frame.html"
			if tc.otherOrigin {
				framer = serveRecording(t, http.NotFoundHandler(), pageSrv.URL+"/").URL + "/frame.html"
			}
			require.NotEqual(t, tc.otherOrigin, strings.HasPrefix(framer, pageSrv.URL), "origins")
			b := newBrowser(t)
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate(framer)))
			_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`document.title === 'loaded'`))
			require.NoError(t, err, "the frame's load event")
			require.True(t, pageSrv.wasAsked("/"), "the frame asked for the page")
			assert.Equal(t, tc.framed, pageSrv.wasAsked("/main.js"), "the framed page ran")
			if tc.framed && !tc.otherOrigin {
				_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`document.getElementById('page').contentDocument.documentElement.dataset.ready === 'true'`))
				require.NoError(t, err, "the page works in its own origin's frame")
			}
		})
	}
}

// TestBrowserRunsUnderTheHeaderPolicy: the page as Handler serves it (the header policy with
// the <meta> one) loads, compiles its WebAssembly under 'wasm-unsafe-eval', styles itself and
// starts its code editor without one Content-Security-Policy violation; the policy is enforced
// all the same: an image from another origin is refused by each of the two policies.
func TestBrowserRunsUnderTheHeaderPolicy(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.violations = []; document.addEventListener('securitypolicyviolation', e => violations.push(e.effectiveDirective + ' ' + e.blockedURI + (e.originalPolicy.endsWith("frame-ancestors 'self'") ? ' by the header' : ' by the meta')));`,
		})
		return err
	})))
	res, err := chromedp.RunResponse(b.ctx, chromedp.Navigate(url))
	require.NoError(t, err)
	policy, _ := res.Headers["Content-Security-Policy"].(string)
	require.Contains(t, policy, "script-src 'self' 'wasm-unsafe-eval'")
	require.True(t, strings.HasSuffix(policy, "; frame-ancestors 'self'"), "the header policy: %q", policy)
	b.openPage(t, url)
	assert.Empty(t, eval[[]string](t, b, `violations`))
	assert.Empty(t, b.consoleErrors())
	eval[bool](t, b, `(() => { const img = document.createElement('img'); img.src = 'http://127.0.0.1:9/refused.png'; document.body.append(img); return true; })()`)
	_, err = chromedp.Run(b.ctx, chromedp.Poll[bool](`violations.length >= 2`))
	require.NoError(t, err, "an image of another origin is refused by both policies")
	assert.ElementsMatch(t, []string{"img-src http://127.0.0.1:9/refused.png by the header", "img-src http://127.0.0.1:9/refused.png by the meta"},
		eval[[]string](t, b, `violations`), "each policy refuses it")
}

// wasmMemoryPages bounds the page's WebAssembly memory in TestBrowserSaysWhenTheSimulatorStops,
// in V8's 64 KiB pages (--wasm-max-mem-pages): 20 MiB, enough for the page to start (it needs
// about 12 MiB: raise this when it no longer starts), not for a hundred more nodes.
const wasmMemoryPages = 320

// exhaustMemory types `sim add-node` into the terminal, all in one task (so no autosave runs
// meanwhile), until the Go runtime has run out of memory and exited: the prompt is then no
// longer cleared. It returns how many nodes were added.
func (b *browser) exhaustMemory(t *testing.T) int {
	t.Helper()
	added := eval[int](t, b, `(() => { const p = document.getElementById('prompt');
		for (let i = 0; i < 5000; i++) {
			p.value = 'sim add-node oom' + i;
			p.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'}));
			if (p.value !== '') return i;
		}
		return -1; })()`)
	require.Positive(t, added, "the simulator did not run out of memory")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#stopped`))))
	return added
}

// TestBrowserSaysWhenTheSimulatorStops: when the Go runtime itself exits, here for real, out of
// the memory Chromium is started with (wasmMemoryPages) after a learner adds node after node,
// the page says so in its language, goes inert under the banner, and the banner's Reload button
// brings back the session as last autosaved. The calls into the exited program that follow are
// not reported as errors: the banner says it once.
func TestBrowserSaysWhenTheSimulatorStops(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t, chromedp.Flag("js-flags", fmt.Sprintf("--wasm-max-mem-pages=%d", wasmMemoryPages)))
	var mu sync.Mutex
	var logged []string
	require.NoError(t, chromedp.Listen(b.ctx, func(ev any) {
		if ev, ok := ev.(*runtime.EventConsoleAPICalled); ok && ev.Type == runtime.ConsoleAPICalledTypeLog {
			mu.Lock()
			defer mu.Unlock()
			for _, a := range ev.Args {
				logged = append(logged, string(a.Value))
			}
		}
	}))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	b.openPage(t, url)
	b.run(t, "sim add-node survivor")
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`(localStorage.getItem('daemonlab.session') || '').includes('sim add-node survivor')`))
	require.NoError(t, err, "the step is autosaved")

	added := b.exhaustMemory(t)
	t.Logf("out of memory after %d nodes more", added)
	mu.Lock()
	// The runtime's words depend on the allocation that finds no room: the heap's ("out of
	// memory") or the runtime's own off-heap memory, such as a js.Value's finalizer record
	// ("runtime: cannot allocate memory").
	assert.Regexp(t, `fatal error: (out of memory|runtime: cannot allocate memory)`, strings.Join(logged, "\n"), "the Go runtime's own last words")
	mu.Unlock()
	assert.Equal(t, "true", eval[string](t, b, `document.documentElement.dataset.stopped`))
	assert.Equal(t, "DaemonLab's simulator has stopped.", b.text(t, "#stopped-title"))
	assert.Contains(t, b.text(t, "#stopped-text"), "ran out of memory")
	assert.Contains(t, b.text(t, "#stopped-text"), "as it was last saved")
	assert.Equal(t, "reload", eval[string](t, b, `document.activeElement.id`), "Reload has the focus")
	assert.True(t, eval[bool](t, b, `Array.from(document.body.children).every(e => e.inert === (e.id !== 'stopped'))`), "all but the banner is inert")
	assert.True(t, eval[bool](t, b, `(() => { const r = document.getElementById('apply').getBoundingClientRect();
		return document.getElementById('stopped').contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); })()`), "a click on Apply lands on the banner's backdrop")
	b.saveScreenshot(t, "stopped", chromedp.CaptureScreenshot())
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)))
	assert.LessOrEqual(t, eval[int](t, b, `document.getElementById('stopped').firstElementChild.getBoundingClientRect().right`), 390, "the banner fits a phone")
	b.saveScreenshot(t, "stopped-phone", chromedp.CaptureScreenshot())
	assert.Empty(t, b.consoleErrors())

	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Click(chromedp.CSS(`#reload`)),
		chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`)),
	))
	assert.False(t, eval[bool](t, b, `document.documentElement.hasAttribute('data-stopped')`))
	assert.True(t, eval[bool](t, b, `document.getElementById('stopped').classList.contains('hidden')`))
	assert.True(t, eval[bool](t, b, `!!document.querySelector('[data-node="survivor"]')`), "the saved session is back")
	assert.False(t, eval[bool](t, b, `!!document.querySelector('[data-node="oom0"]')`), "the steps after the last save are gone")
	assert.Equal(t, "step 1 of 1", eval[string](t, b, `document.getElementById('step').textContent`), "where the timeline stood (a phone shows the axis, not the count)")

	// In Chinese, the banner is in Chinese: the Go side translated it with the rest of the page.
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900), chromedp.SetValue(chromedp.CSS(`#lang`), "zh-CN")))
	eval[bool](t, b, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	b.exhaustMemory(t)
	assert.Equal(t, "DaemonLab 的模拟器已停止运行。", b.text(t, "#stopped-title"))
	assert.Contains(t, b.text(t, "#stopped-text"), "内存不足")
	assert.Equal(t, "重新加载", b.text(t, "#reload"))
	b.saveScreenshot(t, "stopped-chinese", chromedp.CaptureScreenshot())
	assert.Empty(t, b.consoleErrors())
}
