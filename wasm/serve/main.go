// Command serve serves DaemonLab's page on the loopback interface, or at -addr: `make serve`
// builds the page, makes the deployable folder (`make dist`) and serves it; -dir site serves
// the unhashed build as it is. The page needs nothing but a static file server.
package main

import (
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

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
//     Content-Type and Vary: Accept-Encoding; Range, HEAD and conditional requests work on it as
//     on any file (net/http's ServeContent). Anything else is net/http's FileServer's.
func Handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := fileName(r.URL.Path)
		h := w.Header()
		h.Set("Cache-Control", hosting.CacheControl(name))
		for _, kv := range hosting.Common {
			h.Set(kv[0], kv[1])
		}
		h.Set("Content-Security-Policy", contentSecurityPolicy(dir, name))
		if !strings.HasSuffix(r.URL.Path, "/index.html") && serveEncoded(w, r, dir, name) {
			return
		}
		files.ServeHTTP(w, r)
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

// serveEncoded serves name's compressed copy in the first coding the request accepts and
// reports whether it did (Handler's rule 5); when name has a compressed copy at all, the
// response varies by Accept-Encoding, whichever is sent.
func serveEncoded(w http.ResponseWriter, r *http.Request, dir, name string) bool {
	root := http.Dir(dir)
	for _, e := range hosting.Encodings {
		if f, err := root.Open("/" + name + e.Suffix); err == nil {
			f.Close()
			w.Header().Add("Vary", "Accept-Encoding")
			break
		}
	}
	for _, e := range hosting.Accepted(r.Header.Get("Accept-Encoding")) {
		f, err := root.Open("/" + name + e.Suffix)
		if err != nil {
			continue
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil || info.IsDir() {
			continue
		}
		h := w.Header()
		h.Set("Content-Encoding", e.Name)
		if ct := hosting.ContentType(name); ct != "" {
			h.Set("Content-Type", ct)
		}
		http.ServeContent(w, r, name, info.ModTime(), f)
		return true
	}
	return false
}
