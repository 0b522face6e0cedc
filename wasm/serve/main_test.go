package main

import (
	"io"
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

// request serves dir with Handler and returns the response to method on path with headers.
func request(t *testing.T, dir, method, path string, headers map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	Handler(dir).ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	data, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return string(data)
}

// distLike is a folder as `make dist` writes it: a page, a hashed asset and sw.js, each with
// its compressed copies (their text names them, to tell them apart), and an asset without.
func distLike(t *testing.T) string {
	return siteOf(t, map[string]string{
		"index.html":              `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">`,
		"index.html.br":           "index in brotli",
		"index.html.gz":           "index in gzip",
		"embed.html":              `<meta http-equiv="Content-Security-Policy" content="default-src 'self'">`,
		"main.0123456789.wasm":    "\x00asm\x01\x00\x00\x00",
		"main.0123456789.wasm.br": "wasm in brotli",
		"main.0123456789.wasm.gz": "wasm in gzip",
		"sw.js":                   "// worker",
		"sw.js.gz":                "worker in gzip",
		"logo.abcdef0123.png":     "png",
	})
}

// TestHandlerSendsTheCompressedCopyTheClientAccepts: brotli if accepted, else gzip, else the
// file; the copy's Content-Encoding and the file's own Content-Type; Vary: Accept-Encoding
// wherever there is a copy, whichever is sent, and not where there is none.
func TestHandlerSendsTheCompressedCopyTheClientAccepts(t *testing.T) {
	dir := distLike(t)
	for _, tc := range []struct{ name, path, accept, encoding, contentType, body, vary string }{
		{"brotli first", "/main.0123456789.wasm", "gzip, deflate, br, zstd", "br", "application/wasm", "wasm in brotli", "Accept-Encoding"},
		{"gzip without brotli", "/main.0123456789.wasm", "gzip", "gzip", "application/wasm", "wasm in gzip", "Accept-Encoding"},
		{"brotli refused", "/main.0123456789.wasm", "br;q=0, gzip", "gzip", "application/wasm", "wasm in gzip", "Accept-Encoding"},
		{"neither", "/main.0123456789.wasm", "", "", "application/wasm", "\x00asm\x01\x00\x00\x00", "Accept-Encoding"},
		{"the page at /", "/", "br", "br", "text/html; charset=utf-8", "index in brotli", "Accept-Encoding"},
		{"a coding without a copy", "/sw.js", "br", "", "text/javascript; charset=utf-8", "// worker", "Accept-Encoding"},
		{"the copy there is", "/sw.js", "br, gzip", "gzip", "text/javascript; charset=utf-8", "worker in gzip", "Accept-Encoding"},
		{"no copy at all", "/logo.abcdef0123.png", "br, gzip", "", "image/png", "png", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := request(t, dir, http.MethodGet, tc.path, map[string]string{"Accept-Encoding": tc.accept})
			assert.Equal(t, http.StatusOK, res.StatusCode)
			assert.Equal(t, tc.encoding, res.Header.Get("Content-Encoding"))
			assert.Equal(t, tc.contentType, res.Header.Get("Content-Type"))
			assert.Equal(t, tc.vary, res.Header.Get("Vary"))
			assert.Equal(t, tc.body, body(t, res))
		})
	}
}

// TestHandlerHeadersByKindOfFile: a hashed asset is immutable, the pages and sw.js are
// revalidated; every response has nosniff and no-referrer; a page's policy is its own with its
// frame-ancestors (embed.html may be framed by anyone), any other file's is index.html's.
func TestHandlerHeadersByKindOfFile(t *testing.T) {
	dir := distLike(t)
	index := "default-src 'none'; frame-ancestors 'self'"
	for _, tc := range []struct{ path, cacheControl, policy string }{
		{"/", "no-cache", index},
		{"/embed.html", "no-cache", "default-src 'self'; frame-ancestors *"},
		{"/sw.js", "no-cache", index},
		{"/main.0123456789.wasm", "public, max-age=31536000, immutable", index},
		{"/logo.abcdef0123.png", "public, max-age=31536000, immutable", index},
	} {
		t.Run(tc.path, func(t *testing.T) {
			for _, accept := range []string{"br", ""} {
				res := request(t, dir, http.MethodGet, tc.path, map[string]string{"Accept-Encoding": accept})
				assert.Equal(t, tc.cacheControl, res.Header.Get("Cache-Control"), accept)
				assert.Equal(t, tc.policy, res.Header.Get("Content-Security-Policy"), accept)
				assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), accept)
				assert.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"), accept)
			}
		})
	}
}

// TestHandlerServesRangesHeadAndNotModifiedOfACopy: a compressed copy answers a Range with
// its own bytes, a HEAD with no body, and a request whose copy has not changed with 304; and
// /index.html is redirected to / as FileServer does, so a page has one URL.
func TestHandlerServesRangesHeadAndNotModifiedOfACopy(t *testing.T) {
	dir := distLike(t)
	res := request(t, dir, http.MethodGet, "/main.0123456789.wasm", map[string]string{"Accept-Encoding": "br", "Range": "bytes=0-3"})
	assert.Equal(t, http.StatusPartialContent, res.StatusCode)
	assert.Equal(t, "wasm", body(t, res))
	assert.Equal(t, "br", res.Header.Get("Content-Encoding"))

	res = request(t, dir, http.MethodHead, "/main.0123456789.wasm", map[string]string{"Accept-Encoding": "gzip"})
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
	assert.Empty(t, body(t, res))

	modified := request(t, dir, http.MethodGet, "/", map[string]string{"Accept-Encoding": "br"}).Header.Get("Last-Modified")
	require.NotEmpty(t, modified)
	res = request(t, dir, http.MethodGet, "/", map[string]string{"Accept-Encoding": "br", "If-Modified-Since": modified})
	assert.Equal(t, http.StatusNotModified, res.StatusCode)

	res = request(t, dir, http.MethodGet, "/index.html", map[string]string{"Accept-Encoding": "br"})
	assert.Equal(t, http.StatusMovedPermanently, res.StatusCode)
	assert.Equal(t, "./", res.Header.Get("Location"))
}

// TestHandlerTellsAChangedFileByItsETag: a revalidated file changed without its time moving
// (a deployment that keeps times, two writes in one second) is sent again, not answered 304;
// an unchanged one is answered 304; a hashed asset needs no ETag.
func TestHandlerTellsAChangedFileByItsETag(t *testing.T) {
	dir := distLike(t)
	first := request(t, dir, http.MethodGet, "/sw.js", map[string]string{"Accept-Encoding": "gzip"})
	tag, modified := first.Header.Get("ETag"), first.Header.Get("Last-Modified")
	require.NotEmpty(t, tag)
	conditional := map[string]string{"Accept-Encoding": "gzip", "If-None-Match": tag, "If-Modified-Since": modified}
	assert.Equal(t, http.StatusNotModified, request(t, dir, http.MethodGet, "/sw.js", conditional).StatusCode)

	info, err := os.Stat(filepath.Join(dir, "sw.js.gz"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sw.js.gz"), []byte("worker v2 gzip"), 0o644))
	require.NoError(t, os.Chtimes(filepath.Join(dir, "sw.js.gz"), info.ModTime(), info.ModTime()))
	res := request(t, dir, http.MethodGet, "/sw.js", conditional)
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "worker v2 gzip", body(t, res))
	assert.NotEqual(t, tag, res.Header.Get("ETag"))

	identity := request(t, dir, http.MethodGet, "/sw.js", nil).Header.Get("ETag")
	assert.NotEqual(t, res.Header.Get("ETag"), identity, "each representation its own tag")
	assert.Empty(t, request(t, dir, http.MethodGet, "/main.0123456789.wasm", nil).Header.Get("ETag"))
}

// TestHandlerServesThePaintedPage: the page at / is the painted start page when `make build`
// has painted it (rule 8), else the template, index.html, as it is; other files are served as
// they are.
func TestHandlerServesThePaintedPage(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  map[string]string
	}{
		{"painted", map[string]string{"index.html": "template", "index.painted.html": "painted", "main.js": "js"},
			map[string]string{"/": "painted", "/main.js": "js", "/index.painted.html": "painted"}},
		{"not painted", map[string]string{"index.html": "template", "main.js": "js"},
			map[string]string{"/": "template", "/main.js": "js"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := siteOf(t, tc.files)
			for path, want := range tc.want {
				res := get(t, dir, path)
				require.Equal(t, http.StatusOK, res.StatusCode, path)
				assert.Equal(t, want, body(t, res), path)
				assert.Equal(t, "no-cache", res.Header.Get("Cache-Control"), path)
			}
		})
	}
}
