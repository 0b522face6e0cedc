package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/wasm/hosting"
)

const (
	testPage = `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'">
<link rel="stylesheet" href="style.css">
<link rel="icon" href="data:,">
<script src="main.js"></script>
<script src='./wasm_exec.js' defer></script>
<script src="https://example.com/x.js"></script>
</head><body></body></html>
`
	testWorker = "const VERSION = \"dev\";\nconst PRECACHE = [];\n"
)

// testSite is a built site as make build leaves it, with the files dist leaves out.
func testSite() fstest.MapFS {
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	return fstest.MapFS{
		"index.html":            f(testPage),
		"embed.html":            f(strings.Replace(testPage, "'self'\">", "'self'; img-src data:\">", 1)),
		"main.js":               f(`fetch(daemonlabAsset("main.wasm"))`),
		"wasm_exec.js":          f("// wasm_exec"),
		"style.css":             f("body{}"),
		"main.wasm":             f("\x00asm\x01\x00\x00\x00"),
		"help.json":             f(`{"a":1}`),
		"sw.js":                 f(testWorker),
		"screenshot.png":        f("png"),
		"editor/main.js":        f("source"),
		"editor/node_modules/x": f("module"),
		".DS_Store":             f("junk"),
		"main.wasm.gz":          f("old copy"),
	}
}

func names(files []file) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.name)
	}
	return out
}

func content(t *testing.T, files []file, name string) string {
	t.Helper()
	for _, f := range files {
		if f.name == name {
			return string(f.data)
		}
	}
	require.Failf(t, "no such file", "%s in %v", name, names(files))
	return ""
}

// TestDistHashesEveryAssetButThePagesAndTheWorker: every file of the site but the sources,
// the screenshot, dotfiles and compressed copies; assets under hashed names, pages and sw.js
// under their own; and the headers files.
func TestDistHashesEveryAssetButThePagesAndTheWorker(t *testing.T) {
	files, err := build(testSite())
	require.NoError(t, err)
	h := func(name, data string) string { return hosting.HashedName(name, []byte(data)) }
	assert.ElementsMatch(t, []string{
		"index.html", "embed.html", "sw.js", "_headers", "nginx.conf",
		h("main.js", `fetch(daemonlabAsset("main.wasm"))`), h("wasm_exec.js", "// wasm_exec"), h("style.css", "body{}"),
		h("main.wasm", "\x00asm\x01\x00\x00\x00"), h("help.json", `{"a":1}`),
	}, names(files))
}

// TestDistPointsThePagesAtTheHashedAssets: <script src> and <link href> naming an asset are
// rewritten (quoted either way, ./ or not), other URLs are left, and the asset map comes
// before the first script, every asset in it.
func TestDistPointsThePagesAtTheHashedAssets(t *testing.T) {
	files, err := build(testSite())
	require.NoError(t, err)
	page := content(t, files, "index.html")
	css, js, wasmExec := hosting.HashedName("style.css", []byte("body{}")), hosting.HashedName("main.js", []byte(`fetch(daemonlabAsset("main.wasm"))`)), hosting.HashedName("wasm_exec.js", []byte("// wasm_exec"))
	assert.Contains(t, page, `<link rel="stylesheet" href="`+css+`">`)
	assert.Contains(t, page, `<script src="`+js+`"></script>`)
	assert.Contains(t, page, `<script src="`+wasmExec+`" defer></script>`)
	assert.Contains(t, page, `<link rel="icon" href="data:,">`)
	assert.Contains(t, page, `<script src="https://example.com/x.js">`)
	meta := `<meta name="daemonlab-assets" content='{"help.json":"` + hosting.HashedName("help.json", []byte(`{"a":1}`)) +
		`","main.js":"` + js + `","main.wasm":"` + hosting.HashedName("main.wasm", []byte("\x00asm\x01\x00\x00\x00")) +
		`","style.css":"` + css + `","wasm_exec.js":"` + wasmExec + `"}'>` + "\n<script src=\"" + js
	assert.Contains(t, page, meta)
	assert.Contains(t, content(t, files, "embed.html"), `<meta name="daemonlab-assets"`)
}

// TestDistWritesTheWorkersVersionAndPrecache: sw.js gets every page (index.html as ./) and
// hashed asset to precache, and a version that changes when any of them does.
func TestDistWritesTheWorkersVersionAndPrecache(t *testing.T) {
	files, err := build(testSite())
	require.NoError(t, err)
	sw := content(t, files, "sw.js")
	assert.Regexp(t, `^const VERSION = "[0-9a-f]{16}";\n`, sw)
	assert.Contains(t, sw, `"./"`)
	assert.Contains(t, sw, `"embed.html"`)
	for _, f := range files {
		if hosting.Hashed(f.name) {
			assert.Contains(t, sw, `"`+f.name+`"`)
		}
	}
	assert.NotContains(t, sw, `"index.html"`)
	assert.NotContains(t, sw, `"_headers"`)

	changed := testSite()
	changed["help.json"] = &fstest.MapFile{Data: []byte(`{"a":2}`)}
	again, err := build(changed)
	require.NoError(t, err)
	version := func(sw string) string { return strings.SplitN(sw, "\n", 2)[0] }
	assert.NotEqual(t, version(sw), version(content(t, again, "sw.js")), "a changed asset is a new version")
}

// TestDistIsTheSameBytesForTheSameSite: two builds of one site are equal to the byte.
func TestDistIsTheSameBytesForTheSameSite(t *testing.T) {
	a, err := build(testSite())
	require.NoError(t, err)
	b, err := build(testSite())
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestDistRefusesASiteItCannotServe: a site without a page, a page without a script (nothing
// would read the asset map), a worker without its lines to fill in.
func TestDistRefusesASiteItCannotServe(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(fstest.MapFS)
		want   string
	}{
		{"no page", func(s fstest.MapFS) { delete(s, "index.html"); delete(s, "embed.html") }, "the site has no page"},
		{"no worker", func(s fstest.MapFS) { delete(s, "sw.js") }, "the site has no sw.js"},
		{"a page without a script", func(s fstest.MapFS) { s["embed.html"] = &fstest.MapFile{Data: []byte("<p>hi</p>")} }, "embed.html has no <script>"},
		{"a worker without PRECACHE", func(s fstest.MapFS) { s["sw.js"] = &fstest.MapFile{Data: []byte(`const VERSION = "dev";`)} }, "const PRECACHE = [];"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := testSite()
			tc.change(site)
			_, err := build(site)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestDistHeadersSayEveryFilesRules: _headers gives each path one block (a page also without
// .html, index.html at /) with its Cache-Control and, for a page, its policy with its
// frame-ancestors; nginx.conf says the same per location.
func TestDistHeadersSayEveryFilesRules(t *testing.T) {
	files, err := build(testSite())
	require.NoError(t, err)
	headers := content(t, files, "_headers")
	wasm := hosting.HashedName("main.wasm", []byte("\x00asm\x01\x00\x00\x00"))
	common := "  X-Content-Type-Options: nosniff\n  Referrer-Policy: no-referrer\n"
	assert.Contains(t, headers, "\n/"+wasm+"\n  Cache-Control: public, max-age=31536000, immutable\n"+common)
	assert.Contains(t, headers, "\n/sw.js\n  Cache-Control: no-cache\n"+common)
	for _, p := range []string{"/", "/index.html", "/index"} {
		assert.Contains(t, headers, "\n"+p+"\n  Cache-Control: no-cache\n"+common+"  Content-Security-Policy: default-src 'none'; script-src 'self'; frame-ancestors 'self'\n")
	}
	for _, p := range []string{"/embed.html", "/embed"} {
		assert.Contains(t, headers, "\n"+p+"\n  Cache-Control: no-cache\n"+common+"  Content-Security-Policy: default-src 'none'; script-src 'self'; img-src data:; frame-ancestors *\n")
	}
	assert.Equal(t, 1, strings.Count(headers, "\n/sw.js\n"), "one block per path")

	nginx := content(t, files, "nginx.conf")
	for _, want := range []string{
		"gzip_static on;", "gzip_vary on;", "brotli_static on;",
		"location = /embed.html {\n    add_header Cache-Control \"no-cache\" always;\n    add_header X-Content-Type-Options \"nosniff\" always;\n    add_header Referrer-Policy \"no-referrer\" always;\n    add_header Content-Security-Policy \"default-src 'none'; script-src 'self'; img-src data:; frame-ancestors *\" always;\n}",
		"location = /sw.js {\n    add_header Cache-Control \"no-cache\" always;",
		"location ~ \"\\.[0-9a-f]{10}\\.[^./]+$\" {\n    add_header Cache-Control \"public, max-age=31536000, immutable\" always;",
		"location / {\n    add_header Cache-Control \"no-cache\" always;",
	} {
		assert.Contains(t, nginx, want)
	}
}

// unbrotli and gunzip decode a compressed copy.
func unbrotli(t *testing.T, data []byte) []byte {
	out, err := io.ReadAll(brotli.NewReader(bytes.NewReader(data)))
	require.NoError(t, err)
	return out
}

func gunzip(t *testing.T, data []byte) []byte {
	r, err := gzip.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	return out
}

// TestDistWritesCompressedCopiesBesideCompressibleFiles: .br and .gz that decode to the file,
// beside every compressible file and no other, the same bytes in every run; a run into the
// folder of an earlier one keeps a hashed asset's copies and removes what left the site.
func TestDistWritesCompressedCopiesBesideCompressibleFiles(t *testing.T) {
	site := testSite()
	site["logo.png"] = &fstest.MapFile{Data: []byte("png")}
	files, err := build(site)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "dist")
	require.NoError(t, write(t.TempDir(), out, files))
	for _, f := range files {
		br, brErr := os.ReadFile(filepath.Join(out, f.name+".br"))
		gz, gzErr := os.ReadFile(filepath.Join(out, f.name+".gz"))
		if !hosting.Compressible(f.name) {
			assert.Error(t, brErr, f.name)
			assert.Error(t, gzErr, f.name)
			continue
		}
		require.NoError(t, brErr, f.name)
		require.NoError(t, gzErr, f.name)
		assert.Equal(t, f.data, unbrotli(t, br), f.name)
		assert.Equal(t, f.data, gunzip(t, gz), f.name)
	}
	again := filepath.Join(t.TempDir(), "dist")
	require.NoError(t, write(t.TempDir(), again, files))
	assert.Equal(t, snapshot(t, out), snapshot(t, again), "the same bytes")

	wasm := hosting.HashedName("main.wasm", []byte("\x00asm\x01\x00\x00\x00")) + ".br"
	require.NoError(t, os.WriteFile(filepath.Join(out, wasm), []byte("kept"), 0o644)) // marks the copy: kept, not made again
	delete(site, "logo.png")
	files, err = build(site)
	require.NoError(t, err)
	require.NoError(t, write(t.TempDir(), out, files))
	after := snapshot(t, out)
	assert.Equal(t, "kept", after[wasm], "a hashed asset's copies are kept")
	for name := range after {
		assert.NotContains(t, name, "logo", "what left the site leaves the folder")
	}
	assert.Equal(t, content(t, files, "index.html"), after["index.html"])
}

// snapshot is every file of dir by name.
func snapshot(t *testing.T, dir string) map[string]string {
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = string(data)
	}
	return out
}

// TestDistRefusesAFolderItDidNotWrite: a folder with files but no _headers, the site itself,
// a folder inside the site, and the site inside the folder are refused and left as they were.
func TestDistRefusesAFolderItDidNotWrite(t *testing.T) {
	files, err := build(testSite())
	require.NoError(t, err)
	site := t.TempDir()
	someone := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(someone, "notes.txt"), []byte("mine"), 0o644))
	for _, tc := range []struct{ name, out, want string }{
		{"another's folder", someone, "not a folder dist wrote"},
		{"the site", site, "must not be inside one another"},
		{"inside the site", filepath.Join(site, "dist"), "must not be inside one another"},
		{"around the site", filepath.Dir(site), "must not be inside one another"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := write(site, tc.out, files)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	assert.Equal(t, map[string]string{"notes.txt": "mine"}, snapshot(t, someone))
	assert.Empty(t, snapshot(t, site))
}

// TestDistDeploysThePaintedPageAsThePage: where `make build` painted a page (index.painted.html),
// the folder's index.html is the painted one, pointed at the hashed assets as any page, and the
// painted copy is no file of its own.
func TestDistDeploysThePaintedPageAsThePage(t *testing.T) {
	site := testSite()
	site["index.painted.html"] = &fstest.MapFile{Data: []byte(strings.Replace(testPage, "<body>", `<body><p id="painted">the cluster</p>`, 1))}
	files, err := build(site)
	require.NoError(t, err)
	assert.NotContains(t, names(files), "index.painted.html")
	for _, f := range names(files) {
		assert.False(t, strings.Contains(f, "painted"), "%s is no file of the folder", f)
	}
	index := content(t, files, "index.html")
	assert.Contains(t, index, `<p id="painted">the cluster</p>`)
	assert.Contains(t, index, "daemonlab-assets", "pointed at the hashed assets")
	assert.NotContains(t, content(t, files, "embed.html"), "painted", "a page not painted is as it was")
}
