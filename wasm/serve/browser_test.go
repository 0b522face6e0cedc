package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The browser tests build the page, serve it with Handler and drive it in headless Chromium.
// Without Chromium they skip, unless DAEMONLAB_BROWSER_TESTS=required (as `make test` sets it),
// when they fail.

const chromiumPath = "/usr/bin/chromium"

// servePage builds main.wasm into a fresh copy of site/ and serves it.
func servePage(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("DAEMONLAB_BROWSER_TESTS") == "required" {
			t.Fatalf("Chromium is required for the browser tests and is missing at %s", chromiumPath)
		}
		t.Skipf("no Chromium at %s; `make test` installs it", chromiumPath)
	}
	dir := t.TempDir()
	for _, f := range []string{"index.html", "style.css", "main.js"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "site", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), data, 0o644))
	}
	execJS, err := os.ReadFile(filepath.Join(goRoot(t), "lib", "wasm", "wasm_exec.js"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wasm_exec.js"), execJS, 0o644))
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "main.wasm"), "..")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building main.wasm: %s", out)
	srv := httptest.NewServer(Handler(dir))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func goRoot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// browser is one headless Chromium tab that records console errors and uncaught exceptions.
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts[:]...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	b := &browser{ctx: ctx}
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				b.errors = append(b.errors, "console.error")
			}
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, ev.ExceptionDetails.Text)
		}
	}))
	return b
}

func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

// openPage loads the page and waits until the Go side has rendered it.
func (b *browser) openPage(t *testing.T, url string) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`)),
	))
}

// eval runs a JavaScript expression in the page and returns its value.
func eval[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	require.NoError(t, err, "evaluating %s", expr)
	return v
}

func (b *browser) text(t *testing.T, selector string) string {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(selector)))
	require.NoError(t, err, "reading %s", selector)
	return v
}

func (b *browser) podsByNode(t *testing.T) map[string][]string {
	t.Helper()
	pairs := eval[[]string](t, b, `
		Array.from(document.querySelectorAll('#nodes .node')).flatMap(n =>
			Array.from(n.querySelectorAll('.pod')).map(p => n.dataset.node + ' ' + p.dataset.pod))`)
	out := map[string][]string{}
	for _, p := range pairs {
		node, pod, _ := strings.Cut(p, " ")
		out[node] = append(out[node], pod)
	}
	return out
}

// editAndApply replaces old with new in the editor and presses Apply.
func (b *browser) editAndApply(t *testing.T, old, new string) {
	t.Helper()
	replaced := eval[bool](t, b, `(() => { const e = document.getElementById('editor');
		const before = e.value; e.value = e.value.replace(`+jsString(old)+`, `+jsString(new)+`);
		return e.value !== before; })()`)
	require.True(t, replaced, "the editor has no %q", old)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#apply`))))
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBrowserOpensOnThreeFluentdPods is the walking skeleton's first story: the page opens on
// the default cluster with the tutorial's fluentd DaemonSet, one Running pod on each of hd1, hd2
// and hd3, and nothing on the console.
func TestBrowserOpensOnThreeFluentdPods(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	b.openPage(t, url)
	pods := b.podsByNode(t)
	require.Len(t, pods, 3, "pods by node: %v", pods)
	for _, node := range []string{"hd1", "hd2", "hd3"} {
		require.Len(t, pods[node], 1, "node %s", node)
		assert.Regexp(t, `^fluentd-elasticsearch-[bcdfghjklmnpqrstvwxz2456789]{5}$`, pods[node][0])
	}
	states := eval[[]string](t, b, `Array.from(document.querySelectorAll('#nodes .pod .state')).map(s => s.textContent)`)
	assert.Equal(t, []string{"1/1 Running", "1/1 Running", "1/1 Running"}, states)
	assert.Equal(t, "node-role.kubernetes.io/control-plane:NoSchedule", b.text(t, `[data-node="hd1"] .taint`))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserInvalidSelectorShowsKubernetesErrorAndChangesNothing is the second story: a
// selector that does not match the template's labels is refused with the API server's message,
// at the right line, and the cluster keeps its pods.
func TestBrowserInvalidSelectorShowsKubernetesErrorAndChangesNothing(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	b.openPage(t, url)
	before := b.podsByNode(t)
	b.editAndApply(t, "name: fluentd-elasticsearch   # must match", "name: fluentd   # must match")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#output.error`))))
	assert.Equal(t, "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.template.metadata.labels: Invalid value: {\"name\":\"fluentd\"}: `selector` does not match template `labels`", b.text(t, "#output"))
	assert.Contains(t, b.text(t, "#problems"), "line 16: spec.template.metadata.labels")
	assert.Equal(t, before, b.podsByNode(t))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserAppliesAChangeAndShowsTheResult: an edit that Kubernetes accepts is applied, and
// the output is kubectl's.
func TestBrowserAppliesAChangeAndShowsTheResult(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	b.openPage(t, url)
	b.editAndApply(t, "k8s-app: fluentd-logging", "k8s-app: fluentd-logging\n    tier: node")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#output:not(.error)`))))
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch configured", strings.TrimSpace(b.text(t, "#output")))
	assert.Empty(t, b.consoleErrors())
}

// typeCommand types a line into the terminal's prompt and presses a key (Enter, Tab, …).
func (b *browser) typeCommand(t *testing.T, line, key string) {
	t.Helper()
	eval[bool](t, b, `(() => { const p = document.getElementById('prompt'); p.value = `+jsString(line)+`; return true; })()`)
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Focus(chromedp.CSS(`#prompt`)),
		chromedp.KeyEvent(key),
	))
}

// TestBrowserTerminalRunsKubectlWithCompletionAndHistory: a learner types kubectl in the
// terminal, completes a word with Tab, recalls the last line with ↑, and sees kubectl's output.
func TestBrowserTerminalRunsKubectlWithCompletionAndHistory(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	b.openPage(t, url)
	b.typeCommand(t, "kubectl get ds -A", kb.Enter)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#terminal pre.out`))))
	lines := eval[[]string](t, b, `Array.from(document.querySelectorAll('#terminal pre')).map(p => p.className + ' ' + p.textContent)`)
	require.Len(t, lines, 2)
	assert.Equal(t, "cmd $ kubectl get ds -A", lines[0])
	assert.Contains(t, lines[1], "kube-system   fluentd-elasticsearch   3         3         3")
	b.typeCommand(t, "kubectl cord", kb.Tab)
	assert.Equal(t, "kubectl cordon ", eval[string](t, b, `document.getElementById('prompt').value`))
	b.typeCommand(t, "", kb.ArrowUp)
	assert.Equal(t, "kubectl get ds -A", eval[string](t, b, `document.getElementById('prompt').value`))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserStoppedKubeletKeepsTheDaemonSetPod is the playground's central story: from a node's
// menu a learner stops hd2's kubelet, moves time on 5 minutes, and sees hd2 NotReady with its
// fluentd pod still there — the commands echoed in the terminal.
func TestBrowserStoppedKubeletKeepsTheDaemonSetPod(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	b.openPage(t, url)
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Click(chromedp.CSS(`[data-node="hd2"] .node-menu summary`)),
		chromedp.Click(chromedp.CSS(`[data-node="hd2"] button[data-command="sim fail hd2 kubelet-down"]`)),
		chromedp.Click(chromedp.CSS(`#timeline button[title="sim advance 5m"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-node="hd2"] .status.notready`)),
	))
	commands := eval[[]string](t, b, `Array.from(document.querySelectorAll('#terminal pre.cmd')).map(p => p.textContent)`)
	assert.Equal(t, []string{"$ sim fail hd2 kubelet-down", "$ sim advance 5m"}, commands)
	pods := b.podsByNode(t)
	require.Len(t, pods["hd2"], 1)
	assert.Regexp(t, `^fluentd-elasticsearch-`, pods["hd2"][0])
	assert.Equal(t, "t = 5m30s", b.text(t, "#clock"))
	assert.Empty(t, b.consoleErrors())
}
