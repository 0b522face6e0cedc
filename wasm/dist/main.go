// Command dist turns the built page (site/, as `make build` leaves it) into the folder to deploy
// on any static host (`make dist`: dist/, or DIST=DIR), by the rules of package hosting:
//
//  1. Which files: every file of the site but the sources and what only the README shows — the
//     editor/ directory (CodeMirror's sources and node_modules, bundled into editor.js),
//     screenshot.png, dotfiles, and compressed copies (*.br, *.gz) that dist itself writes.
//     Files that exist only after a build (main.wasm, editor.js, wasm_exec.js, data assets
//     such as openapi.json) are picked up like any other.
//  2. Names: the pages (*.html) and sw.js keep their names; every other file is written under
//     its hashed name (main.wasm → main.1a2b3c4d5e.wasm).
//  3. Pages: their <script src> and <link href> that name an asset are rewritten to its hashed
//     name, and before their first <script> (so before main.js runs) they get
//     <meta name="daemonlab-assets" content='{"main.wasm":"main.1a2b3c4d5e.wasm",...}'>, the map
//     main.js's daemonlabAsset reads: every other fetch of an asset, in JavaScript or in Go,
//     names it through that. Assets name no other asset inside themselves.
//  4. sw.js: its `const VERSION = "dev";` and `const PRECACHE = [];` lines are written with the
//     version (a hash over every precached file's URL and content and sw.js's own text) and the
//     URLs to precache: the pages (index.html as "./", the URL it is served at) and every
//     hashed asset.
//  5. Compressed copies: beside every compressible file, name.br (brotli at quality 11 with the
//     largest window browsers decode, 16 MB) and name.gz (gzip -9).
//  6. _headers (the format of Netlify and Cloudflare Pages) and nginx.conf (a snippet for a
//     server block) say the headers of package hosting's rules for every file.
//  7. The output is the same bytes for the same input. Writing into a folder left by an earlier
//     dist removes what is no longer part of the page and keeps the compressed copies of a
//     hashed asset that is still there (its name is its content's hash; brotli at quality 11
//     takes about 40 s for main.wasm). dist refuses a folder that is not empty and has no
//     _headers (not one it wrote), and a folder inside the site or the site inside it.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"daemonlab/wasm/hosting"
)

func main() {
	site := flag.String("site", "site", "the built site to make the deployable folder of")
	out := flag.String("out", "dist", "the folder to write")
	flag.Parse()
	files, err := build(os.DirFS(*site))
	if err == nil {
		err = write(*site, *out, files)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
	var total int
	for _, f := range files {
		total += len(f.data)
	}
	fmt.Printf("%s: %d files, %d bytes before compression\n", *out, len(files), total)
}

// file is one file of the deployable folder, before its compressed copies.
type file struct {
	name string
	data []byte
}

// skipped reports whether the site's file name is left out of the folder (rule 1).
func skipped(name string) bool {
	base := path.Base(name)
	first, _, _ := strings.Cut(name, "/")
	return first == "editor" || name == "screenshot.png" || strings.HasPrefix(base, ".") ||
		strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz")
}

// build reads the site and returns the folder's files, sorted by name, without compressed
// copies (rules 1–4, 6).
func build(site fs.FS) ([]file, error) {
	var names []string
	err := fs.WalkDir(site, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name != "." && skipped(name) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && !skipped(name) {
			names = append(names, name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	assets := map[string]string{}
	var pages, out []file
	var worker []byte
	for _, name := range names {
		data, err := fs.ReadFile(site, name)
		if err != nil {
			return nil, err
		}
		switch {
		case hosting.IsPainted(name): // deployed as its page
		case hosting.IsPage(name):
			if painted, err := fs.ReadFile(site, hosting.Painted(name)); err == nil {
				data = painted // the page as `make build` painted it
			}
			pages = append(pages, file{name, data})
		case name == hosting.ServiceWorker:
			worker = data
		default:
			hashed := hosting.HashedName(name, data)
			assets[name] = hashed
			out = append(out, file{hashed, data})
		}
	}
	if len(pages) == 0 {
		return nil, errors.New("the site has no page (*.html): run `make build` first")
	}
	if worker == nil {
		return nil, fmt.Errorf("the site has no %s", hosting.ServiceWorker)
	}
	for _, p := range pages {
		text, err := rewritePage(p.name, p.data, assets)
		if err != nil {
			return nil, err
		}
		out = append(out, file{p.name, text})
	}
	sw, err := serviceWorker(worker, out)
	if err != nil {
		return nil, err
	}
	out = append(out, file{hosting.ServiceWorker, sw})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	out = append(out, file{"_headers", headersFile(out)}, file{"nginx.conf", nginxConf(out)})
	return out, nil
}

var (
	reference   = regexp.MustCompile(`(?is)(<(?:script|link)\s[^>]*?\b(?:src|href)\s*=\s*)("([^"]*)"|'([^']*)')`)
	firstScript = regexp.MustCompile(`(?i)<script[\s>]`)
)

// rewritePage points the page's <script src> and <link href> at the assets' hashed names and
// writes the asset map before its first <script> (rule 3).
func rewritePage(name string, page []byte, assets map[string]string) ([]byte, error) {
	page = reference.ReplaceAllFunc(page, func(m []byte) []byte {
		g := reference.FindSubmatch(m)
		target := string(g[3]) + string(g[4])
		hashed, ok := assets[strings.TrimPrefix(target, "./")]
		if !ok {
			return m
		}
		return append(append(append([]byte{}, g[1]...), '"'), append([]byte(hashed), '"')...)
	})
	at := firstScript.FindIndex(page)
	if at == nil {
		return nil, fmt.Errorf("%s has no <script>: nothing of it would read the asset map", name)
	}
	mapJSON, err := json.Marshal(assets) // keys sorted: the same bytes every time
	if err != nil {
		return nil, err
	}
	attr := strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;").Replace(string(mapJSON))
	meta := "<meta name=\"daemonlab-assets\" content='" + attr + "'>\n"
	return slices.Concat(page[:at[0]], []byte(meta), page[at[0]:]), nil
}

const (
	versionLine  = `const VERSION = "dev";`
	precacheLine = `const PRECACHE = [];`
)

// serviceWorker writes the version and the URLs to precache into sw.js (rule 4); files are the
// pages and the hashed assets.
func serviceWorker(worker []byte, files []file) ([]byte, error) {
	for _, line := range []string{versionLine, precacheLine} {
		if bytes.Count(worker, []byte(line)) != 1 {
			return nil, fmt.Errorf("%s must have the line %s once, for dist to fill in", hosting.ServiceWorker, line)
		}
	}
	var urls []string
	version := sha256.New()
	version.Write(worker)
	sorted := slices.Clone(files)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	for _, f := range sorted {
		url := f.name
		if url == "index.html" {
			url = "./"
		}
		urls = append(urls, url)
		sum := sha256.Sum256(f.data)
		fmt.Fprintf(version, "%s\t%x\n", url, sum)
	}
	list, err := json.Marshal(urls)
	if err != nil {
		return nil, err
	}
	v := hex.EncodeToString(version.Sum(nil))[:16]
	worker = bytes.Replace(worker, []byte(versionLine), []byte(`const VERSION = "`+v+`";`), 1)
	return bytes.Replace(worker, []byte(precacheLine), []byte(`const PRECACHE = `+string(list)+`;`), 1), nil
}

// headers are the headers of the folder's file name by package hosting's rules; page is its
// text when it is a page.
func headers(name string, page []byte) [][2]string {
	h := append([][2]string{{"Cache-Control", hosting.CacheControl(name)}}, hosting.Common...)
	if hosting.IsPage(name) {
		h = append(h, [2]string{"Content-Security-Policy", hosting.Policy(name, page)})
	}
	return h
}

// paths are the URL paths a file is served at: a page also without .html (Cloudflare Pages
// serves it there) and index.html at /.
func paths(name string) []string {
	out := []string{"/" + name}
	if hosting.IsPage(name) {
		out = append(out, "/"+strings.TrimSuffix(name, ".html"))
		if name == "index.html" {
			out = []string{"/", "/index.html", "/index"}
		}
	}
	return out
}

// headersFile is the _headers file: every file's headers, by path (rule 6). Each path has a
// block of its own, as a header set by two matching blocks would be sent with both values.
func headersFile(files []file) []byte {
	var b bytes.Buffer
	b.WriteString("# DaemonLab's response headers, for Netlify and Cloudflare Pages (written by make dist).\n")
	for _, f := range files {
		for _, p := range paths(f.name) {
			fmt.Fprintf(&b, "%s\n", p)
			for _, h := range headers(f.name, f.data) {
				fmt.Fprintf(&b, "  %s: %s\n", h[0], h[1])
			}
		}
	}
	return b.Bytes()
}

// nginxConf is the nginx snippet (rule 6): the compressed copies, and every file's
// headers (add_header in a location replaces every add_header above it, so each location says
// all of its own).
func nginxConf(files []file) []byte {
	var b bytes.Buffer
	b.WriteString(`# DaemonLab for nginx (written by make dist): include this file in the server block whose root
# is this folder. brotli_static needs the ngx_brotli module (Debian: libnginx-mod-http-brotli-static):
# without it, delete that line and gzip_static still serves the .gz copies. The types are
# nginx's mime.types, which has application/wasm since nginx 1.21.
gzip_static on;
gzip_vary on;
brotli_static on;
`)
	location := func(match string, h [][2]string) {
		fmt.Fprintf(&b, "location %s {\n", match)
		for _, kv := range h {
			fmt.Fprintf(&b, "    add_header %s %q always;\n", kv[0], kv[1])
		}
		b.WriteString("}\n")
	}
	for _, f := range files {
		if hosting.IsPage(f.name) || f.name == hosting.ServiceWorker {
			location("= /"+f.name, headers(f.name, f.data))
		}
	}
	location(`~ "\.[0-9a-f]{10}\.[^./]+$"`, headers("x.0123456789.js", nil))
	location("/", headers("", nil))
	return b.Bytes()
}

// write writes files and their compressed copies into out (rules 5 and 7).
func write(site, out string, files []file) error {
	if err := checkOut(site, out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	keep := map[string]bool{}
	var jobs []func() error
	for _, f := range files {
		keep[f.name] = true
		jobs = append(jobs, func() error { return writeFile(filepath.Join(out, f.name), f.data) })
		if !hosting.Compressible(f.name) {
			continue
		}
		for _, e := range hosting.Encodings {
			keep[f.name+e.Suffix] = true
			target := filepath.Join(out, f.name+e.Suffix)
			if hosting.Hashed(f.name) && same(filepath.Join(out, f.name), f.data) && exists(target) {
				continue
			}
			jobs = append(jobs, func() error {
				data, err := hosting.Compress(e.Name, f.data)
				if err != nil {
					return err
				}
				return writeFile(target, data)
			})
		}
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !keep[e.Name()] {
			if err := os.RemoveAll(filepath.Join(out, e.Name())); err != nil {
				return err
			}
		}
	}
	return runAll(jobs)
}

// checkOut refuses an output folder that would overwrite the site or something not written by
// dist (rule 7).
func checkOut(site, out string) error {
	s, err := filepath.Abs(site)
	if err != nil {
		return err
	}
	o, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if within(o, s) || within(s, o) {
		return fmt.Errorf("the output %s and the site %s must not be inside one another", out, site)
	}
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	if !exists(filepath.Join(out, "_headers")) {
		return fmt.Errorf("%s is not empty and not a folder dist wrote (it has no _headers): not touching it", out)
	}
	return nil
}

// within reports whether path a is b or inside it.
func within(a, b string) bool {
	rel, err := filepath.Rel(b, a)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// same reports whether the file at name holds data.
func same(name string, data []byte) bool {
	old, err := os.ReadFile(name)
	return err == nil && bytes.Equal(old, data)
}

// writeFile writes data to name through a temporary file renamed into place, so that a dist
// stopped half-way leaves no truncated file for the next one to keep.
func writeFile(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// runAll runs the jobs two at a time (compressing main.wasm takes most of the time; the
// machines this runs on have two cores) and returns the first error.
func runAll(jobs []func() error) error {
	var wg sync.WaitGroup
	errs := make([]error, len(jobs))
	next := make(chan int)
	for range 2 {
		wg.Go(func() {
			for i := range next {
				errs[i] = jobs[i]()
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}
