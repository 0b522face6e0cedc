package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"daemonlab/wasm/hosting"

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

// The page's files, as the server names them: what the first screen needs before the page is
// interactive, and what the page fetches after its first paint (site/main.js).
var (
	firstScreen     = []string{"index.html", "main.js", "wasm_exec.js", "style.css", "main.wasm"}
	afterFirstPaint = []string{"editor.js", "openapi.json", "lessons.json"}
)

// TestBrowserPageTransferHoldsItsSize guards the page's compressed transfer (brotli) against
// growing, in two parts, and main.wasm's raw size, which the browser downloads and compiles
// before the page can start:
//
//  1. the first screen: index.html, main.js, wasm_exec.js, style.css and main.wasm, what the
//     page needs before it is interactive. Issue 23's budget is what DaemonLab adds above the
//     floor page's wasm (testdata/floor, 910,723 bytes: the libraries the core cannot do
//     without), at most 0.90 MB, and is NOT met: the Go runtime, reflection (encoding/json, fmt,
//     the YAML parser), regexp and the simulator's own code make main.wasm about 2.19 MB (see the
//     README's performance section).
//  2. later: editor.js and the data assets (openapi.json, lessons.json), fetched after the first
//     screen (main.js). That the data is here, not linked into main.wasm, is held by the first
//     ceiling: linked in, it adds about 150 KB.
//
// A call that brings honnef.co/go/js/dom's type-by-constructor wrappers back adds 2 MB raw but
// only 72 KB brotli. At brotli's default 4 MB window main.wasm's size jumps with its layout: 12
// KB more raw code once gave 44 KB more brotli, 7.6 KB at a 16 MB window.
func TestBrowserPageTransferHoldsItsSize(t *testing.T) {
	const (
		floorWasm    = 910_723
		firstCeiling = 2_250_000  // bytes, brotli (2,145,370 when the data left main.wasm; 2,225,140 with issue 24's scheduler plugins and why-panel; 2,247,786 with the kubelet's admission); the budget is floorWasm + 900_000
		laterCeiling = 310_000    // bytes, brotli (297,202: editor.js 120,959, openapi.json 54,350, lessons.json 121,893)
		rawCeiling   = 12_725_000 // bytes, main.wasm uncompressed (12,133,843; 12,647,054 with issue 24; 12,716,171 with the kubelet's admission; 12,720,811 with its preemption reading each request once)
	)
	var shipped []string // the first screen's files as site/ holds them: the page painted
	for _, f := range firstScreen {
		if painted := hosting.Painted(f); painted != "" {
			f = painted
		}
		shipped = append(shipped, f)
	}
	first := brotliSizes(t, shipped...)
	later := brotliSizes(t, afterFirstPaint...)
	sum := func(sizes map[string]int) int {
		total := 0
		for _, n := range sizes {
			total += n
		}
		return total
	}
	info, err := os.Stat(filepath.Join("..", "..", "site", "main.wasm"))
	require.NoError(t, err)
	t.Logf("first screen: %d bytes brotli (main.wasm %d), %d above the floor page's wasm; later: %d (%v); main.wasm %d bytes raw",
		sum(first), first["main.wasm"], sum(first)-floorWasm, sum(later), later, info.Size())
	assert.LessOrEqual(t, sum(first), firstCeiling)
	assert.LessOrEqual(t, sum(later), laterCeiling)
	assert.LessOrEqual(t, info.Size(), int64(rawCeiling))
}

// TestPageTagsAreTheMakefiles checks that the browser tests build main.wasm with the tags
// `make build` does.
func TestPageTagsAreTheMakefiles(t *testing.T) {
	makefile, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	require.NoError(t, err)
	assert.Contains(t, strings.Split(string(makefile), "\n"), "PAGETAGS := "+pageTags)
}
