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
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of what guards the page as a whole: the headers Handler sends.

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
