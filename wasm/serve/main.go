// Command serve serves DaemonLab's static page (site/) on the loopback interface; `make serve`
// builds the page and runs it. The page needs nothing but a static file server.
package main

import (
	"flag"
	"fmt"
	"log"
	"mime"
	"net/http"
	"os"
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

// Handler serves the files of dir with the types browsers need for WebAssembly, and asks them
// not to cache, so a rebuilt page shows at once.
func Handler(dir string) http.Handler {
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
}
