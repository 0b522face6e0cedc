package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// get serves dir with Handler and returns the response to a GET of path.
func get(t *testing.T, dir, path string) *http.Response {
	t.Helper()
	rec := httptest.NewRecorder()
	Handler(dir).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec.Result()
}

// siteOf writes files into a fresh directory.
func siteOf(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	return dir
}

// TestHandlerSendsEveryHeaderOnEveryResponse: the page, its scripts, its module and a file that
// is not there all carry nosniff, no-referrer and the policy with frame-ancestors; all but the
// error carry no-cache (net/http's serveError drops Cache-Control from an error response).
func TestHandlerSendsEveryHeaderOnEveryResponse(t *testing.T) {
	dir := siteOf(t, map[string]string{
		"index.html": `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">`,
		"main.js":    `"use strict";`,
		"main.wasm":  "\x00asm\x01\x00\x00\x00",
	})
	for _, tc := range []struct{ path, contentType, cacheControl string }{
		{"/", "text/html; charset=utf-8", "no-cache"},
		{"/main.js", "text/javascript; charset=utf-8", "no-cache"},
		{"/main.wasm", "application/wasm", "no-cache"},
		{"/missing.css", "text/plain; charset=utf-8", ""},
	} {
		t.Run(tc.path, func(t *testing.T) {
			res := get(t, dir, tc.path)
			assert.Equal(t, tc.contentType, res.Header.Get("Content-Type"))
			assert.Equal(t, tc.cacheControl, res.Header.Get("Cache-Control"))
			assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
			assert.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"))
			assert.Equal(t, "default-src 'none'; frame-ancestors 'self'", res.Header.Get("Content-Security-Policy"))
		})
	}
}

// TestHandlerPolicyIsThePagesMetaAndFrameAncestors: the header's policy is the one index.html's
// <meta http-equiv> declares, however the tag is written, followed by frame-ancestors 'self',
// which a <meta> policy cannot carry; a page that declares none is still not framed.
func TestHandlerPolicyIsThePagesMetaAndFrameAncestors(t *testing.T) {
	for _, tc := range []struct{ name, html, want string }{
		{"as the page writes it", `<head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval'"></head>`,
			"default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'self'"},
		{"attributes reversed, single quotes, upper case, entities", `<META CONTENT='default-src &#39;self&#39;;' HTTP-EQUIV='content-security-policy'>`,
			"default-src 'self'; frame-ancestors 'self'"},
		{"the first policy of two", `<meta http-equiv="Content-Security-Policy" content="img-src 'self'"><meta http-equiv="Content-Security-Policy" content="img-src data:">`,
			"img-src 'self'; frame-ancestors 'self'"},
		{"another http-equiv is no policy", `<meta http-equiv="refresh" content="5">`, "frame-ancestors 'self'"},
		{"no policy", `<p>hello</p>`, "frame-ancestors 'self'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := get(t, siteOf(t, map[string]string{"index.html": tc.html}), "/")
			assert.Equal(t, tc.want, res.Header.Get("Content-Security-Policy"))
		})
	}
	res := get(t, t.TempDir(), "/")
	assert.Equal(t, "frame-ancestors 'self'", res.Header.Get("Content-Security-Policy"), "no index.html")
}

// TestHandlerSendsTheShippedPagesPolicy: served from site/, the header is site/index.html's
// <meta> policy word for word (found here by its text), then frame-ancestors 'self'.
func TestHandlerSendsTheShippedPagesPolicy(t *testing.T) {
	site := filepath.Join("..", "..", "site")
	html, err := os.ReadFile(filepath.Join(site, "index.html"))
	require.NoError(t, err)
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]+)">`).FindSubmatch(html)
	require.NotNil(t, m, "site/index.html declares its policy in a <meta>")
	require.Contains(t, string(m[1]), "script-src 'self' 'wasm-unsafe-eval'")
	assert.Equal(t, string(m[1])+"; frame-ancestors 'self'", get(t, site, "/").Header.Get("Content-Security-Policy"))
}
