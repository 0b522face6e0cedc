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
	script := `const fs = require("fs"), z = require("zlib");
for (const f of process.argv.slice(1)) console.log(z.brotliCompressSync(fs.readFileSync(f)).length);`
	args := []string{"-e", script}
	for _, f := range files {
		args = append(args, filepath.Join(site, f))
	}
	out, err := exec.Command("node", args...).Output()
	require.NoError(t, err, "node compresses the page")
	sizes := map[string]int{}
	for i, line := range strings.Fields(string(out)) {
		n, err := strconv.Atoi(line)
		require.NoError(t, err)
		sizes[files[i]] = n
	}
	return sizes
}

// TestBrowserPageTransferHoldsItsSize guards the page's compressed transfer (wasm, JavaScript,
// CSS and HTML, brotli) against growing. The performance budget is 1.3 MB and is NOT met: the
// Go runtime, honnef.co/go/js/dom and the YAML libraries make main.wasm about 2.1 MB brotli
// (see the README's performance section). Until it is, this holds the size where it is, so
// that nothing makes it worse unnoticed.
func TestBrowserPageTransferHoldsItsSize(t *testing.T) {
	const ceiling = 2_300_000 // bytes; the budget is 1_300_000
	sizes := brotliSizes(t, "main.wasm", "editor.js", "wasm_exec.js", "main.js", "style.css", "index.html")
	total := 0
	for _, n := range sizes {
		total += n
	}
	t.Logf("page transfer: %d bytes brotli (main.wasm %d, editor.js %d)", total, sizes["main.wasm"], sizes["editor.js"])
	assert.LessOrEqual(t, total, ceiling)
}
