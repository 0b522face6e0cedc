// Command serve serves DaemonLab's page on the loopback interface, or at -addr: `make serve`
// builds the page, makes the deployable folder (`make dist`) and serves it; -dir site serves
// the unhashed build as it is. The page needs nothing but a static file server.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"daemonlab/wasm/hosting"
)

func main() {
	dir := flag.String("dir", "site", "the directory to serve")
	addr := flag.String("addr", "127.0.0.1:8080", "the address to listen on")
	flag.Parse()
	if _, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil {
		log.Fatalf("%s/index.html is missing: run `make build` (site/) or `make dist` first", *dir)
	}
	fmt.Printf("DaemonLab is running at http://%s/ (Ctrl+C to stop)\n", *addr)
	log.Fatal(http.ListenAndServe(*addr, Handler(*dir)))
}

// Handler serves the files of dir: the unhashed site/ that `make build` writes, or the
// deployable folder of `make dist`, by the rules of package hosting, which says them in full:
//
//  1. Cache-Control: immutable for a hashed name, no-cache for everything else (the pages, sw.js
//     and every file of an unhashed site/), so a rebuilt page shows at once;
//  2. X-Content-Type-Options: nosniff, so a file is only ever what its type says;
//  3. Referrer-Policy: no-referrer: the page needs no Referer anywhere, and a share link's
//     session rides in the fragment, which browsers never send, so nothing of it leaks either
//     way; no-referrer also keeps the page's path and query to itself;
//  4. Content-Security-Policy: a page's is the policy of its own <meta http-equiv> (read at each
//     request, so the header never drifts from the page) and frame-ancestors, which a <meta>
//     policy cannot carry: * for embed.html, 'self' for every other page; any other file gets
//     index.html's;
//  5. a file stored compressed beside itself (name.br, name.gz, as `make dist` writes them) is
//     sent so to a client that accepts it, brotli first, with Content-Encoding, the file's own
//     Content-Type and Vary: Accept-Encoding;
//  6. a file that is revalidated (1) has an ETag, a hash of the bytes sent, so that a changed
//     file is never taken for unchanged: Last-Modified alone has a second's grain, and a
//     deployment may keep older times (two versions of sw.js written in one second were once
//     answered 304, and the browser kept the old version);
//  7. Range, HEAD and conditional requests work on every file (net/http's ServeContent);
//     directories, /index.html (redirected to ./) and missing files are net/http's FileServer's;
//  8. a page is its painted copy where the site has one (hosting.Painted: `make build` paints
//     site/index.painted.html, the start screen drawn before the WebAssembly arrives).
func Handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	tags := &etags{known: map[string]etag{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := fileName(r.URL.Path)
		h := w.Header()
		h.Set("Cache-Control", hosting.CacheControl(name))
		for _, kv := range hosting.Common {
			h.Set(kv[0], kv[1])
		}
		h.Set("Content-Security-Policy", contentSecurityPolicy(dir, name))
		if painted := hosting.Painted(name); painted != "" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(painted))); err == nil {
				name = painted // rule 8
			}
		}
		if strings.HasSuffix(r.URL.Path, "/index.html") || !serveFile(w, r, dir, name, tags) {
			files.ServeHTTP(w, r)
		}
	})
}

// fileName is the file a request's path names, relative to the served directory: a
// directory's is its index.html, as FileServer serves it.
func fileName(urlPath string) string {
	name := strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if name == "" || strings.HasSuffix(urlPath, "/") {
		name = path.Join(name, "index.html")
	}
	return name
}

// contentSecurityPolicy is the policy of the page name, or index.html's for a file that is not
// a page (Handler's rule 4).
func contentSecurityPolicy(dir, name string) string {
	page := name
	if !hosting.IsPage(name) {
		page = "index.html"
	}
	text, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(page))) // no page: no meta policy
	return hosting.Policy(page, text)
}

// serveFile serves the file name, or its compressed copy in the first coding the request
// accepts, and reports whether it did (Handler's rules 5–7); when name has a compressed copy
// at all, the response varies by Accept-Encoding, whichever is sent.
func serveFile(w http.ResponseWriter, r *http.Request, dir, name string, tags *etags) bool {
	root := http.Dir(dir)
	h := w.Header()
	for _, e := range hosting.Encodings {
		if f, err := root.Open("/" + name + e.Suffix); err == nil {
			f.Close()
			h.Set("Vary", "Accept-Encoding")
			break
		}
	}
	for _, e := range append(hosting.Accepted(r.Header.Get("Accept-Encoding")), hosting.Encoding{}) { // then the file itself
		f, err := root.Open("/" + name + e.Suffix)
		if err != nil {
			continue
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil || info.IsDir() {
			return false
		}
		if e.Name != "" {
			h.Set("Content-Encoding", e.Name)
		}
		if ct := hosting.ContentType(name); ct != "" {
			h.Set("Content-Type", ct)
		}
		if hosting.CacheControl(name) == hosting.Revalidate {
			tag, err := tags.of(name+e.Suffix, info, f)
			if err != nil {
				return false
			}
			h.Set("ETag", tag)
		}
		http.ServeContent(w, r, name, info.ModTime(), f)
		return true
	}
	return false
}

// etags remembers the ETags of the files served, by path, while their time (to the nanosecond)
// and size stay: a dev server's unhashed main.wasm is not hashed again at every request.
type etags struct {
	mu    sync.Mutex
	known map[string]etag
}

type etag struct {
	mod  time.Time
	size int64
	tag  string
}

// of is the ETag of the file f opened at name (a quoted hash of its bytes), f left at its start.
func (t *etags) of(name string, info os.FileInfo, f io.ReadSeeker) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.known[name]; ok && e.mod.Equal(info.ModTime()) && e.size == info.Size() {
		return e.tag, nil
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	tag := `"` + hex.EncodeToString(sum.Sum(nil))[:20] + `"`
	t.known[name] = etag{info.ModTime(), info.Size(), tag}
	return tag, nil
}
