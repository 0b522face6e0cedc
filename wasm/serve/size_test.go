package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brotliSizes compresses the shipped page's files as a server would (brotli at its default
// quality, by Node's zlib, which `make test` already needs) and returns their sizes.
func brotliSizes(t *testing.T, files ...string) map[string]int {
	t.Helper()
	site := filepath.Join("..", "..", "site")
	if _, err := os.Stat(filepath.Join(site, "main.wasm")); err != nil {
		if os.Getenv("DAEMONLAB_BROWSER_TESTS") == "required" {
			t.Fatal("site/main.wasm is missing: `make build` makes it")
		}
		t.Skip("site/main.wasm is missing: run `make build`")
	}
	sizes := map[string]int{}
	for _, f := range files {
		sizes[f] = brotliSize(t, filepath.Join(site, f))
	}
	return sizes
}

// brotliSize is the size of the file at path compressed as brotliSizes compresses.
func brotliSize(tb testing.TB, path string) int {
	tb.Helper()
	out, err := exec.Command("node", "-e", `console.log(require("zlib").brotliCompressSync(require("fs").readFileSync(process.argv[1])).length)`, path).Output()
	require.NoError(tb, err, "node compresses %s", path)
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	require.NoError(tb, err)
	return n
}

// TestBrowserPageTransferHoldsItsSize guards the page's compressed transfer (wasm, JavaScript,
// CSS and HTML, brotli) and main.wasm's raw size, which the browser downloads and compiles before
// the page can start, against growing. The performance budget is 1.3 MB and is NOT met: the Go
// runtime, reflection (encoding/json, fmt, the YAML parser), regexp and the simulator's own code
// make main.wasm about 1.84 MB brotli (see the README's performance section); the libraries
// alone, in a page that does nothing else (testdata/floor), are 0.91 MB. This holds both sizes
// where they are, so that nothing makes them worse unnoticed: for
// instance a call that brings honnef.co/go/js/dom's type-by-constructor wrappers back adds
// 2 MB raw but only 72 KB brotli.
// At brotli's default 4 MB window main.wasm's size jumps with its layout: 12 KB more raw
// code once gave 44 KB more brotli, 7.6 KB at a 16 MB window.
func TestBrowserPageTransferHoldsItsSize(t *testing.T) {
	const (
		ceiling    = 2_430_000  // bytes, brotli; the budget is 1_300_000 (saving, the work budgets and the retries added 32 KB; files, lists and ServiceAccounts 15 KB; editor tabs and kubectl edit 27 KB; Services, the kubeadm start, sim import, the cluster menu and here-documents 85 KB; issue 21's time axis, what is due, the explanations and lints, the drawer and panes, the menus and the dark theme 65 KB; issue 22's 21 lessons and 11 challenges, 100 KB of them their YAML in two languages with its upstream citations, the lesson panel's challenges, recaps and reference, pod update validation and PriorityClass)
		rawCeiling = 12_950_000 // bytes, main.wasm uncompressed
	)
	sizes := brotliSizes(t, "main.wasm", "editor.js", "wasm_exec.js", "main.js", "style.css", "index.html")
	total := 0
	for _, n := range sizes {
		total += n
	}
	info, err := os.Stat(filepath.Join("..", "..", "site", "main.wasm"))
	require.NoError(t, err)
	t.Logf("page transfer: %d bytes brotli (main.wasm %d, editor.js %d); main.wasm %d bytes raw", total, sizes["main.wasm"], sizes["editor.js"], info.Size())
	assert.LessOrEqual(t, total, ceiling)
	assert.LessOrEqual(t, info.Size(), int64(rawCeiling))
}
