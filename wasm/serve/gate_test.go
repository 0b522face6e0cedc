package main

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// gate holds a test server's requests for some paths back until they are released, as a slow
// link would: the page is seen as a learner sees it before main.wasm, the lessons or the code
// editor have arrived.
type gate struct {
	mu   sync.Mutex
	open map[string]chan struct{} // by path; a path not held is served at once
}

// serveGated serves dir through Handler behind a gate that holds nothing yet.
func serveGated(t *testing.T, dir string) (string, *gate) {
	t.Helper()
	g := &gate{open: map[string]chan struct{}{}}
	h := Handler(dir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		open, held := g.open[r.URL.Path]
		g.mu.Unlock()
		if held {
			select {
			case <-open:
			case <-r.Context().Done():
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/", g
}

// hold holds every request for each path ("/main.wasm") from now until it is released.
func (g *gate) hold(paths ...string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, p := range paths {
		if g.open[p] == nil {
			g.open[p] = make(chan struct{})
		}
	}
}

// release serves each path's requests held and those to come; a path not held is left as it is.
func (g *gate) release(paths ...string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, p := range paths {
		if open := g.open[p]; open != nil {
			close(open)
			delete(g.open, p)
		}
	}
}
