# DaemonLab: `make serve` runs the playground, `make test` runs every test.
GO       ?= go
GOROOT   := $(shell $(GO) env GOROOT)
# Go 1.24 and later keep the WebAssembly support files in lib/wasm.
WASMEXEC := $(GOROOT)/lib/wasm
ADDR     ?= 127.0.0.1:8080
DIST     ?= dist
FUZZTIME ?= 10m

.PHONY: build dist serve test test-native test-upstream test-fuzz test-wasm test-browser chromium fuzz fuzz-all bench clean

# Packages off the simulation's hot path (parsing YAML and JSON, printing, the DOM wrappers,
# lessons) are compiled without inlining: main.wasm is about 170 KB smaller in brotli, and the
# benchmarks under Node show no difference (make bench). The simulation itself, the runtime and
# the rest of the standard library keep it. The tests under Node run the same code.
NOINLINE  := github.com/goccy/... honnef.co/... github.com/mitchellh/... fmt \
             math/big regexp/... encoding/json compress/flate text/tabwriter \
             daemonlab/core/kubectl daemonlab/core/explain daemonlab/core/lesson daemonlab/core/shell \
             daemonlab/core/jsonpath daemonlab/core/patch
WASMFLAGS := $(foreach p,$(NOINLINE),-gcflags=$(p)=-l)

# The page's build leaves out the data its first screen does not need (tag lazydata):
# kubectl explain's OpenAPI documents (core/openapi keeps what patches read) and the lessons,
# which the page fetches after its first paint as site/openapi.json and site/lessons.json.
# Natively and in every test they are linked in. The browser tests build with the same tag
# (wasm/serve: pageTags).
PAGETAGS := lazydata
ASSETS   := site/openapi.json site/lessons.json

site/main.wasm: go.mod go.sum Makefile $(shell find core wasm lessons -type f)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -tags $(PAGETAGS) -ldflags="-s -w" $(WASMFLAGS) -o $@ ./wasm

site/openapi.json: core/openapi/openapi.json
	cp $< $@

site/lessons.json: go.mod $(shell find core lessons -type f)
	$(GO) run ./lessons/pack $@

site/wasm_exec.js: $(WASMEXEC)/wasm_exec.js
	cp "$(WASMEXEC)/wasm_exec.js" $@

# The YAML editor: CodeMirror 6 from npm (versions pinned by the lockfile), bundled by esbuild.
site/editor.js: site/editor/main.js site/editor/package.json site/editor/package-lock.json
	cd site/editor && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build

# The start page painted before the WebAssembly arrives: the page's template (site/index.html)
# with the start model's cluster, clock and what is due drawn natively by the page's own view
# code (core/playground/markup). The server serves it as index.html.
site/index.painted.html: site/index.html go.mod go.sum $(shell find core lessons wasm/prerender -type f)
	$(GO) run ./wasm/prerender -in site/index.html -out $@

# embed.html, the compact page for a frame in another's (README: Embedding), is the painted
# index.html with <html data-embed>: one markup, which the style sheet and the Go side make
# compact; a frame whose address opens something else than the sandbox shows its layout and
# "starting…" until the Go side draws it (site/main.js).
site/embed.html: site/index.painted.html
	sed 's/^<html lang="en">$$/<html lang="en" data-embed>/' $< > $@
	@grep -q '^<html lang="en" data-embed>$$' $@ || { echo "site/index.html has no <html lang=\"en\"> line"; rm -f $@; exit 1; }

build: site/main.wasm site/wasm_exec.js site/editor.js site/embed.html $(ASSETS) site/index.painted.html
	@raw=$$(wc -c < site/main.wasm); gz=$$(gzip -9 -c site/main.wasm | wc -c); \
	  echo "site/main.wasm: $$raw bytes raw, $$gz bytes gzip"

# The deployable folder (wasm/dist says what is in it): hashed asset names, .br and .gz copies,
# _headers and nginx.conf. Made again when the site or the tool changes.
$(DIST)/_headers: build $(shell find site -type f -not -path 'site/editor/*') $(wildcard wasm/dist/*.go wasm/hosting/*.go)
	$(GO) run ./wasm/dist -site site -out $(DIST)

dist: $(DIST)/_headers

# The page as it is deployed: the folder `make dist` makes, served at ADDR.
serve: dist
	$(GO) run ./wasm/serve -dir $(DIST) -addr $(ADDR)

test: test-native test-fuzz test-wasm test-browser

test-native: test-upstream
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm ./core/... ./lessons/...
	$(GO) test -skip Browser ./...

# The differential tests of the scheduler against kube-scheduler v1.37.2, and of the kubelet's
# admission against kubelet v1.37.2's, in-process: a module of its own, so that k8s.io/kubernetes
# stays out of the product's go.mod. UPSTREAM_CASES=N runs N random cases instead of 3,000;
# UPSTREAM_SEED=S UPSTREAM_CASES=1 replays the case of seed S.
test-upstream:
	cd core/scheduler/upstreamtest && $(GO) vet ./... && $(GO) test ./...

test-wasm:
	GOOS=js GOARCH=wasm $(GO) test $(WASMFLAGS) -exec="$(WASMEXEC)/go_js_wasm_exec" ./core/... ./lessons/... ./wasm

# The browser tests drive Debian's Chromium; install it when it is missing.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Chromium is missing: installing Debian's chromium package (needs root and apt)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# dist first: the browser tests of the deployable folder start from it (distOf), so that they do
# not compress main.wasm again.
test-browser: chromium build dist
	DAEMONLAB_BROWSER_TESTS=required $(GO) test -count=1 -timeout 30m -run Browser ./wasm/serve

FUZZPKGS := ./core/api ./core/jsonpath ./core/kubectl ./core/shell ./core/patch ./core/lesson ./core/scenario ./core/playground
# `make test` runs each target for a count of inputs, not a time: with Go 1.26 a time-boxed run
# can fail with "context deadline exceeded" as its time runs out (golang/go#75804, fixed in 1.27).
FUZZBRIEF ?= 5000x

# Every fuzz target for FUZZTIME (10 minutes) with `make fuzz`; `make test` runs each briefly.
fuzz:
	@$(MAKE) --no-print-directory fuzz-all FUZZFOR=$(FUZZTIME)

test-fuzz:
	@$(MAKE) --no-print-directory fuzz-all FUZZFOR=$(FUZZBRIEF)

fuzz-all:
	@for pkg in $(FUZZPKGS); do \
	  for target in $$($(GO) test -list 'Fuzz.*' $$pkg | grep ^Fuzz); do \
	    echo "fuzzing $$pkg $$target for $(FUZZFOR)"; \
	    $(GO) test -run XXX -fuzz "^$$target$$" -fuzztime $(FUZZFOR) $$pkg > /tmp/daemonlab-fuzz.log 2>&1 || { cat /tmp/daemonlab-fuzz.log; exit 1; }; \
	  done; \
	done

# Benchmarks in benchstat's format, natively and compiled to WebAssembly under Node (with the
# ratio), the page's sizes, its time to interactive in headless Chromium against a Go
# hello-world page and the floor page (wasm/serve/testdata/floor: the libraries the core cannot
# do without, used as little as possible; its main.wasm's brotli size is reported too), a step typed in the page on 1,000 nodes, and the longest task while it plays a
# 5,000-node rolling update, 1,000 and 5,000 nodes joining one sim add-node at a time, and one
# apply of 10,000 pods. Results also land in .bench/ (git-ignored).
# BenchmarkMemory runs in a process of its own: a process's memory keeps what earlier benchmarks
# took (a WebAssembly memory never shrinks).
BENCH_ALL  := Converge|RollingUpdate|KubeletFailure|SnapshotRestore|GetPodsAll|AddNodes|ApplyPods|Render|Step
BENCH_WASM := Converge|RollingUpdate|KubeletFailure|SnapshotRestore|GetPodsAll|AddNodes|ApplyPods|Step
SIZES_JS := const fs = require("fs"), z = require("zlib"); let total = 0; for (const f of ["main.wasm", "editor.js", "wasm_exec.js", "main.js", "style.css", "index.painted.html", "embed.html", "openapi.json", "lessons.json"]) { const d = fs.readFileSync("site/" + f), gz = z.gzipSync(d, {level: 9}).length, br = z.brotliCompressSync(d).length; total += br; console.log(f.padEnd(19), "raw", String(d.length).padStart(9), "  gzip", String(gz).padStart(8), "  brotli", String(br).padStart(8)); } console.log("all of it (brotli at Node defaults; the first screen as make dist sends it, against the floor page: BenchmarkTimeToInteractive):", total, "bytes");
bench: build dist chromium
	@mkdir -p .bench
	@echo "== native"
	@$(GO) test -run XXX -bench '$(BENCH_ALL)' -benchtime 1x -benchmem ./core/sim ./core/playground | tee .bench/native.txt
	@$(GO) test -run XXX -bench Memory -benchtime 1x -benchmem ./core/sim | tee -a .bench/native.txt | grep Benchmark
	@echo "== WebAssembly under Node"
	@GOOS=js GOARCH=wasm $(GO) test $(WASMFLAGS) -exec="$(WASMEXEC)/go_js_wasm_exec" -run XXX -bench '$(BENCH_WASM)' -benchtime 1x -benchmem ./core/sim ./core/playground | tee .bench/wasm.txt
	@GOOS=js GOARCH=wasm $(GO) test $(WASMFLAGS) -exec="$(WASMEXEC)/go_js_wasm_exec" -run XXX -bench Memory -benchtime 1x -benchmem ./core/sim | tee -a .bench/wasm.txt | grep Benchmark
	@echo "== WebAssembly / native"
	@awk '/^Benchmark/ { name = $$1; sub(/-[0-9]+$$/, "", name); if (FILENAME ~ /native/) n[name] = $$3; else w[name] = $$3 } \
	  END { for (k in w) if (k in n) printf "%-45s %6.2fx\n", k, w[k] / n[k] }' .bench/native.txt .bench/wasm.txt | sort
	@echo "== the page (bytes)"
	@node -e '$(SIZES_JS)'
	@echo "== time to interactive (headless Chromium, loopback, cache off) of the page, the floor page and a hello-world page"
	@DAEMONLAB_WASMFLAGS='$(WASMFLAGS)' $(GO) test -run XXX -bench TimeToInteractive -benchtime 1x ./wasm/serve | tee .bench/tti.txt | grep Benchmark
	@echo "== a second visit to the deployable folder (service worker in control, cache on) against the hello-world page's first visit"
	@$(GO) test -run XXX -bench RepeatVisit -benchtime 1x ./wasm/serve | tee .bench/repeat.txt | grep Benchmark
	@echo "== a step typed in the page on 1,000 nodes (command, controllers, render into the DOM)"
	@$(GO) test -run XXX -bench PageStep1000 -benchtime 1x ./wasm/serve | tee .bench/step.txt | grep Benchmark
	@echo "== playing a rolling update of 5,000 nodes at 60x in the page for 20 s"
	@$(GO) test -run XXX -bench PlayRollout5000 -benchtime 1x ./wasm/serve | tee .bench/play.txt | grep Benchmark

clean:
	rm -rf $(DIST) site/main.wasm site/wasm_exec.js site/editor.js site/index.painted.html site/editor/node_modules $(ASSETS)
