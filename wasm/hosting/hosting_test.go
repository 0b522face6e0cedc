package hosting

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHashedNameIsTheContentsHashBeforeTheExtension: ten hex digits of the SHA-256 before the
// extension; the same content gives the same name, another content another; Hashed tells
// exactly these names.
func TestHashedNameIsTheContentsHashBeforeTheExtension(t *testing.T) {
	assert.Equal(t, "main.2cf24dba5f.wasm", HashedName("main.wasm", []byte("hello")))
	assert.Equal(t, "wasm_exec.2cf24dba5f.js", HashedName("wasm_exec.js", []byte("hello")))
	assert.NotEqual(t, HashedName("main.wasm", []byte("hello")), HashedName("main.wasm", []byte("hello!")))
	for name, want := range map[string]bool{
		"main.2cf24dba5f.wasm":   true,
		"a/main.2cf24dba5f.wasm": true,
		"main.wasm":              false,
		"main.2CF24DBA5F.wasm":   false, // upper case is not how HashedName writes
		"main.2cf24dba5.wasm":    false, // nine digits
		"main.2cf24dba5f0.wasm":  false, // eleven digits
		"x.2cf24dba5f.wasm.br":   false, // a compressed copy
	} {
		assert.Equal(t, want, Hashed(name), name)
	}
}

// TestCacheControlIsImmutableOnlyForHashedAssets: a hashed asset is cached for a year; the
// pages, sw.js and every unhashed file are revalidated.
func TestCacheControlIsImmutableOnlyForHashedAssets(t *testing.T) {
	for name, want := range map[string]string{
		"main.2cf24dba5f.wasm": Immutable,
		"style.2cf24dba5f.css": Immutable,
		"index.html":           Revalidate,
		"embed.html":           Revalidate,
		"sw.js":                Revalidate,
		"main.wasm":            Revalidate,
		"main.js":              Revalidate,
	} {
		assert.Equal(t, want, CacheControl(name), name)
	}
	assert.Equal(t, "public, max-age=31536000, immutable", Immutable)
}

// TestPolicyIsThePagesMetaAndItsFrameAncestors: embed.html may be framed by any origin, every
// other page only by its own; the rest is the page's <meta> policy, however written.
func TestPolicyIsThePagesMetaAndItsFrameAncestors(t *testing.T) {
	for _, tc := range []struct{ name, page, html, want string }{
		{"the full page", "index.html", `<meta http-equiv="Content-Security-Policy" content="default-src 'none';">`, "default-src 'none'; frame-ancestors 'self'"},
		{"the embedded page", "embed.html", `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">`, "default-src 'none'; frame-ancestors *"},
		{"attributes reversed, single quotes, upper case, entities", "index.html", `<META CONTENT='default-src &#39;self&#39;;' HTTP-EQUIV='content-security-policy'>`, "default-src 'self'; frame-ancestors 'self'"},
		{"the first of two", "index.html", `<meta http-equiv="Content-Security-Policy" content="img-src 'self'"><meta http-equiv="Content-Security-Policy" content="img-src data:">`, "img-src 'self'; frame-ancestors 'self'"},
		{"another http-equiv is no policy", "index.html", `<meta http-equiv="refresh" content="5">`, "frame-ancestors 'self'"},
		{"no policy", "embed.html", `<p>hi</p>`, "frame-ancestors *"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Policy(tc.page, []byte(tc.html)))
		})
	}
}

// TestAcceptedPrefersBrotliThenGzip: the stored codings a header accepts, brotli first; q=0
// refuses a coding, * stands for those not listed, and a q-value that is no number accepts
// nothing.
func TestAcceptedPrefersBrotliThenGzip(t *testing.T) {
	names := func(es []Encoding) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Name)
		}
		return out
	}
	for header, want := range map[string][]string{
		"gzip, deflate, br, zstd": {"br", "gzip"},
		"gzip":                    {"gzip"},
		"br;q=0.5, gzip;q=1":      {"br", "gzip"},
		"BR":                      {"br"},
		"br;q=0, gzip":            {"gzip"},
		"*":                       {"br", "gzip"},
		"*, br;q=0":               {"gzip"},
		"*;q=0, gzip":             {"gzip"},
		"gzip;q=x":                nil,
		"identity":                nil,
		"":                        nil,
	} {
		assert.Equal(t, want, names(Accepted(header)), header)
	}
}

// TestContentTypesAreTheBrowsersNeeds: WebAssembly is application/wasm (compileStreaming
// refuses anything else); the copies beside a file are compressible only when the file is.
func TestContentTypesAreTheBrowsersNeeds(t *testing.T) {
	assert.Equal(t, "application/wasm", ContentType("main.2cf24dba5f.wasm"))
	assert.Equal(t, "text/javascript; charset=utf-8", ContentType("sw.js"))
	assert.True(t, Compressible("main.wasm"))
	assert.True(t, Compressible("lessons.json"))
	assert.False(t, Compressible("screenshot.png"))
	assert.False(t, Compressible("main.wasm.br"))
}
