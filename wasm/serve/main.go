// Command serve serves DaemonLab's static page (site/) on the loopback interface; `make serve`
// builds the page and runs it. The page needs nothing but a static file server.
package main

import (
	"flag"
	"fmt"
	"html"
	"log"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

func main() {
	dir := flag.String("dir", "site", "the directory to serve")
	addr := flag.String("addr", "127.0.0.1:8080", "the address to listen on")
	flag.Parse()
	if _, err := os.Stat(*dir + "/main.wasm"); err != nil {
		log.Fatalf("%s/main.wasm is missing: run `make build` first", *dir)
	}
	fmt.Printf("DaemonLab is running at http://%s/ (Ctrl+C to stop)\n", *addr)
	log.Fatal(http.ListenAndServe(*addr, Handler(*dir)))
}

// Handler serves the files of dir with the types browsers need for WebAssembly and these
// headers on every response:
//
//  1. Cache-Control: no-cache, so a rebuilt page shows at once;
//  2. X-Content-Type-Options: nosniff, so a file is only ever what its type says;
//  3. Referrer-Policy: no-referrer: the page needs no Referer anywhere, and a share link's
//     session rides in the fragment, which browsers never send, so nothing of it leaks either
//     way; no-referrer also keeps the page's path and query to itself;
//  4. Content-Security-Policy: the policy of dir/index.html's <meta http-equiv> (read at each
//     request, so the header never drifts from the page) and frame-ancestors 'self', which a
//     <meta> policy cannot carry: no page of another origin may frame DaemonLab.
func Handler(dir string) http.Handler {
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", contentSecurityPolicy(dir))
		files.ServeHTTP(w, r)
	})
}

// frameAncestors is the directive the header adds to the page's own policy.
const frameAncestors = "frame-ancestors 'self'"

// contentSecurityPolicy is the policy the page's <meta> declares (see metaPolicy), with
// frameAncestors after it; a page without one (or none to read) gets frameAncestors alone.
func contentSecurityPolicy(dir string) string {
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		return frameAncestors
	}
	if p := strings.TrimRight(strings.TrimSpace(metaPolicy(string(page))), ";"); p != "" {
		return p + "; " + frameAncestors
	}
	return frameAncestors
}

var (
	metaTag   = regexp.MustCompile(`(?is)<meta\s[^>]*>`)
	attribute = regexp.MustCompile(`(?s)([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')`)
)

// metaPolicy is the content of page's first <meta http-equiv="Content-Security-Policy">
// (attributes in any order and case, quoted either way, entities decoded), or "".
func metaPolicy(page string) string {
	for _, tag := range metaTag.FindAllString(page, -1) {
		attrs := map[string]string{}
		for _, a := range attribute.FindAllStringSubmatch(tag, -1) {
			attrs[strings.ToLower(a[1])] = html.UnescapeString(a[2] + a[3])
		}
		if strings.EqualFold(attrs["http-equiv"], "Content-Security-Policy") {
			return attrs["content"]
		}
	}
	return ""
}
