package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
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
	dir := copySite(t)
	buildWasm(t, dir)
	return serveDir(t, dir)
}

// pageTags are the build tags of the page's main.wasm: the Makefile's PAGETAGS
// (TestPageTagsAreTheMakefiles).
const pageTags = "lazydata"

// buildWasm builds the page's main.wasm into dir.
func buildWasm(t *testing.T, dir string) {
	t.Helper()
	build := exec.Command("go", "build", "-tags", pageTags, "-o", filepath.Join(dir, "main.wasm"), "..")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "building main.wasm: %s", out)
}

// copySite copies the page's files but main.wasm from site/ into a fresh directory, the
// painted start page as its index.html.
func copySite(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("DAEMONLAB_BROWSER_TESTS") == "required" {
			t.Fatalf("Chromium is required for the browser tests and is missing at %s", chromiumPath)
		}
		t.Skipf("no Chromium at %s; `make test` installs it", chromiumPath)
	}
	dir := t.TempDir()
	// The page is the painted start page (`make build` paints it), as the server serves it.
	for from, to := range map[string]string{"index.painted.html": "index.html", "embed.html": "embed.html", "style.css": "style.css", "main.js": "main.js", "editor.js": "editor.js", "openapi.json": "openapi.json", "lessons.json": "lessons.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "site", from))
		require.NoError(t, err, "`make build` makes site/editor.js, site/embed.html, the data assets and site/index.painted.html")
		require.NoError(t, os.WriteFile(filepath.Join(dir, to), data, 0o644))
	}
	execJS, err := os.ReadFile(filepath.Join(goRoot(t), "lib", "wasm", "wasm_exec.js"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wasm_exec.js"), execJS, 0o644))
	return dir
}

func serveDir(t *testing.T, dir string) string {
	srv := httptest.NewServer(Handler(dir))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func goRoot(t testing.TB) string {
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

// newBrowser starts Chromium with the tests' flags and any extra ones, for 90 seconds.
func newBrowser(t testing.TB, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	return newBrowserFor(t, 90*time.Second, extra...)
}

// newBrowserFor starts Chromium with the tests' flags and any extra ones, for a while.
func newBrowserFor(t testing.TB, while time.Duration, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	opts = append(opts, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts[:]...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, while)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return recording(t, ctx)
}

// newTab opens another tab of the same browser (the same localStorage), recording its errors.
func (b *browser) newTab(t testing.TB) *browser {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	return recording(t, ctx)
}

// recording is the tab of ctx, recording console errors and uncaught exceptions.
func recording(t testing.TB, ctx context.Context) *browser {
	t.Helper()
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

// screenshot saves the page as it looks under .screenshots/ (git-ignored), for a person to look
// at; nothing compares it.
func (b *browser) screenshot(t *testing.T, name string) {
	t.Helper()
	b.saveScreenshot(t, name, chromedp.FullScreenshot(100))
}

// saveScreenshot saves what shot takes (the whole page, or the viewport) as screenshot does.
func (b *browser) saveScreenshot(t *testing.T, name string, shot chromedp.Action[[]byte]) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, shot)
	require.NoError(t, err)
	dir := filepath.Join("..", "..", ".screenshots")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
}

func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

// openPlayground serves the page, opens it in a fresh browser and returns both.
func openPlayground(t *testing.T) (*browser, string) {
	t.Helper()
	url := servePage(t)
	b := newBrowser(t)
	b.openPage(t, url)
	return b, url
}

// openPage loads the page and waits until the Go side has rendered it (its node cards drawn,
// shown or not: a phone opens a lesson on its pane, not the cluster's) and the code editor,
// which loads after that, has taken the textarea's place.
func (b *browser) openPage(t *testing.T, url string) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Navigate(url),
		chromedp.WaitReady(chromedp.CSS(`html[data-ready="true"] #nodes .node`)),
		chromedp.WaitReady(chromedp.CSS(`#code-editor`)),
	))
}

// eval runs a JavaScript expression in the page and returns its value.
func eval[T any](t testing.TB, b *browser, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, opts...))
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
// and hd3, and the web Deployment's pod on each worker, with nothing on the console.
func TestBrowserOpensOnThreeFluentdPods(t *testing.T) {
	b, _ := openPlayground(t)
	pods := b.podsByNode(t)
	require.Len(t, pods, 3, "pods by node: %v", pods)
	for i, node := range []string{"hd1", "hd2", "hd3"} {
		require.Len(t, pods[node], min(i+1, 2), "node %s", node)
		assert.Regexp(t, `^fluentd-elasticsearch-[bcdfghjklmnpqrstvwxz2456789]{5}$`, pods[node][len(pods[node])-1])
		if i > 0 {
			assert.Regexp(t, `^web-[bcdfghjklmnpqrstvwxz2456789]{10}-[bcdfghjklmnpqrstvwxz2456789]{5}$`, pods[node][0])
		}
	}
	states := eval[[]string](t, b, `Array.from(document.querySelectorAll('#nodes .pod .state')).map(s => s.textContent)`)
	assert.Equal(t, []string{"1/1 Running", "1/1 Running", "1/1 Running", "1/1 Running", "1/1 Running"}, states)
	assert.Equal(t, "node-role.kubernetes.io/control-plane:NoSchedule", b.text(t, `[data-node="hd1"] .taint`))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserInvalidSelectorShowsKubernetesErrorAndChangesNothing is the second story: a
// selector that does not match the template's labels is refused with the API server's message,
// at the right line, and the cluster keeps its pods.
func TestBrowserInvalidSelectorShowsKubernetesErrorAndChangesNothing(t *testing.T) {
	b, _ := openPlayground(t)
	before := b.podsByNode(t)
	b.editAndApply(t, "name: fluentd-elasticsearch   # must match", "name: fluentd   # must match")
	assert.Equal(t, "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.template.metadata.labels: Invalid value: {\"name\":\"fluentd\"}: `selector` does not match template `labels`", b.applyOutput(t, "err"))
	assert.Contains(t, b.text(t, "#problems"), "line 16: spec.template.metadata.labels")
	assert.Equal(t, before, b.podsByNode(t))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserAppliesAChangeAndShowsTheResult: an edit that Kubernetes accepts is applied, and
// the output is kubectl's.
func TestBrowserAppliesAChangeAndShowsTheResult(t *testing.T) {
	b, _ := openPlayground(t)
	b.editAndApply(t, "k8s-app: fluentd-logging", "k8s-app: fluentd-logging\n    tier: node")
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch configured\ndeployment.apps/web unchanged", b.applyOutput(t, "out"))
	assert.Empty(t, b.consoleErrors())
}

// pickPane picks a pane by its tab (#pane-NAME: cluster, yaml, terminal, lesson) as a learner
// on a phone does; on a wide window, which shows every pane and no tabs, it does nothing.
func (b *browser) pickPane(t *testing.T, name string) {
	t.Helper()
	if eval[bool](t, b, `document.getElementById('pane-`+name+`').getClientRects().length > 0`) {
		require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#pane-`+name))))
	}
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
	b, _ := openPlayground(t)
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

	// The lines drawn are kept from render to render: Ctrl+L clears them, new ones are added.
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Focus(chromedp.CSS(`#prompt`)), chromedp.KeyEvent("l", chromedp.KeyModifiers(chromedp.ModifierCtrl))))
	assert.Zero(t, eval[int](t, b, `document.querySelectorAll('#terminal pre').length`), "Ctrl+L clears the terminal")
	b.typeCommand(t, "kubectl get nodes", kb.Enter)
	b.typeCommand(t, "kubectl get ns default", kb.Enter)
	lines = eval[[]string](t, b, `Array.from(document.querySelectorAll('#terminal pre')).map(p => p.className + ' ' + p.textContent.split('\n')[0])`)
	assert.Equal(t, []string{"cmd $ kubectl get nodes", "out NAME   STATUS   ROLES           AGE   VERSION",
		"cmd $ kubectl get ns default", "out NAME      STATUS   AGE"}, lines)
	assert.Empty(t, b.consoleErrors())
}

// playNodeFailure plays the page's central story as a newcomer would, with the mouse or the
// keyboard alone: open hd2's menu, stop its kubelet, pick 60×, press play until the web pod is
// evicted, pause. It checks what they should then see: hd2 NotReady, the web pod Terminating
// there and replaced on hd3, the fluentd pod still Running on hd2, the command in the terminal.
func (b *browser) playNodeFailure(t *testing.T, keyboard bool) {
	t.Helper()
	if keyboard {
		b.tabTo(t, `[data-node="hd2"] .menu-button`, false)
		require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Enter))) // opens the menu on its first item
		require.Equal(t, "sim fail hd2 kubelet-down", eval[string](t, b, `document.activeElement.dataset.command`))
		require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Enter)))
		b.tabTo(t, `#speed`, true)
		require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown)))
		b.tabTo(t, `#play`, true)
		require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(" ")))
	} else {
		require.NoError(t, chromedp.Do(b.ctx,
			chromedp.Click(chromedp.CSS(`[data-node="hd2"] .menu-button`)),
			chromedp.Click(chromedp.CSS(`[data-node="hd2"] button[data-command="sim fail hd2 kubelet-down"]`)),
			chromedp.SetValue(chromedp.CSS(`#speed`), "3"),
		))
		eval[bool](t, b, `document.getElementById('speed').dispatchEvent(new Event('change'))`)
		require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#play`))))
	}
	assert.Equal(t, "60×", eval[string](t, b, `document.getElementById('speed').selectedOptions[0].textContent`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`[data-node="hd2"] .pod.terminating`))))
	if keyboard {
		require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(" ")))
	} else {
		require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#play`))))
	}
	b.idle(t) // a tick under way when paused finishes
	assert.Equal(t, "false", eval[string](t, b, `document.getElementById('play').getAttribute('aria-pressed')`), "paused")
	assert.Equal(t, "NotReady", b.text(t, `[data-node="hd2"] .status`))
	pods := b.podsByNode(t)
	require.Len(t, pods["hd2"], 2)
	assert.Regexp(t, `^fluentd-elasticsearch-`, pods["hd2"][1])
	assert.Equal(t, "1/1 Running", eval[string](t, b, `document.querySelector('[data-node="hd2"] .pod:not(.terminating) .state').textContent`))
	require.Len(t, pods["hd3"], 3, "the replacement web pod runs on hd3")
	assert.Equal(t, "$ sim fail hd2 kubelet-down", eval[string](t, b, `Array.from(document.querySelectorAll('#terminal pre.cmd')).pop().textContent`), "the menu's command, echoed")
}

// tabTo presses Tab (Shift+Tab with back) until the element selector names has the focus, as a
// keyboard user moves through the page.
func (b *browser) tabTo(t *testing.T, selector string, back bool) {
	t.Helper()
	var opts []chromedp.KeyOption
	if back {
		opts = append(opts, chromedp.KeyModifiers(chromedp.ModifierShift))
	}
	for range 200 {
		if eval[bool](t, b, `document.activeElement === document.querySelector(`+jsString(selector)+`)`) {
			return
		}
		require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Tab, opts...)))
	}
	t.Fatalf("Tab never reaches %s", selector)
}

// TestBrowserStoppedKubeletKeepsTheDaemonSetPod is the playground's central story, as a
// newcomer plays it with the mouse: from hd2's menu stop its kubelet, press play at 60×, and
// watch the web pod evicted and replaced on hd3 while the fluentd pod stays on hd2 — the
// commands echoed in the terminal.
func TestBrowserStoppedKubeletKeepsTheDaemonSetPod(t *testing.T) {
	b, _ := openPlayground(t)
	// From a cluster without the DaemonSet: the editor's Apply brings it, a pod per node.
	b.run(t, "kubectl delete ds fluentd-elasticsearch -n kube-system")
	b.run(t, "sim advance 1m")
	require.Empty(t, eval[[]string](t, b, `Array.from(document.querySelectorAll('#nodes .pod[data-pod^="fluentd"]')).map(p => p.dataset.pod)`))
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Click(chromedp.CSS(`#apply`)),
		chromedp.Click(chromedp.CSS(`#time-buttons button[title="sim advance 10s"]`)),
	))
	b.idle(t)
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch created\ndeployment.apps/web unchanged", b.applyOutput(t, "out"))
	assert.Equal(t, []string{"1/1 Running", "1/1 Running", "1/1 Running"},
		eval[[]string](t, b, `Array.from(document.querySelectorAll('#nodes .pod[data-pod^="fluentd"] .state')).map(s => s.textContent)`))
	b.playNodeFailure(t, false)
	pods := b.podsByNode(t)
	assert.Equal(t, "▶ Play", b.text(t, "#play"))
	assert.Equal(t, []string{"deleted by the taint eviction controller: its node has a NoExecute taint it does not (or no longer) tolerate",
		"Terminating until the node's kubelet confirms it, the node is deleted, or the node is tainted node.kubernetes.io/out-of-service (pod GC then force-deletes it): the kubelet does not answer."},
		eval[[]string](t, b, `Array.from(document.querySelectorAll('[data-node="hd2"] .pod.terminating .note')).map(n => n.textContent)`))

	// Why did the DaemonSet pod stay? Its details say so, with kubectl's view of it.
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Click(chromedp.CSS(`[data-node="hd2"] .pod:not(.terminating) button.name`)),
		chromedp.WaitVisible(chromedp.CSS(`#details`)),
	))
	assert.Equal(t, "Pod kube-system/"+pods["hd2"][1], b.text(t, "#details-title"))
	assert.Equal(t, "stays: it tolerates node.kubernetes.io/unreachable:NoExecute without tolerationSeconds, so forever", b.text(t, "#details-why"))
	assert.Contains(t, b.text(t, "#details-sections"), "$ kubectl get pod "+pods["hd2"][1]+" -n kube-system -o yaml")
	assert.Contains(t, b.text(t, "#details-sections"), "- effect: NoExecute\n    key: node.kubernetes.io/unreachable\n    operator: Exists")
	b.screenshot(t, "node-failure")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#close-details`))))
	assert.False(t, eval[bool](t, b, `document.getElementById('details').checkVisibility()`))
	// The README's picture of the page.
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1360, 900)))
	eval[bool](t, b, `(() => { window.scrollTo(0, 0); return true; })()`)
	readme, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join("..", "..", ".screenshots", "readme.png"), readme, 0o644))
	assert.Empty(t, b.consoleErrors())
}

// run types a command in the terminal and waits for its echo.
func (b *browser) run(t *testing.T, line string) {
	t.Helper()
	before := eval[int](t, b, `document.querySelectorAll('#terminal pre.cmd').length`)
	b.typeCommand(t, line, kb.Enter)
	require.Equal(t, before+1, eval[int](t, b, `document.querySelectorAll('#terminal pre.cmd').length`), "%q was not run", line)
	b.idle(t)
}

// idle waits until the clock has stopped moving (a `sim advance` or a play tick is done a piece
// at a time, the cluster aria-busy meanwhile) and the page shows where it stopped.
func (b *browser) idle(t *testing.T) {
	t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`!document.querySelector('#nodes[aria-busy]')`, chromedp.WithPollingTimeout(10*time.Second)))
	require.NoError(t, err, "the clock did not stop")
}

// snapshot is what a learner sees of the cluster: the clock and every pod chip's node, name and
// state.
func (b *browser) snapshot(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, b, `[document.getElementById('clock').textContent].concat(
		Array.from(document.querySelectorAll('#nodes .node')).flatMap(n =>
			Array.from(n.querySelectorAll('.pod')).map(p => n.dataset.node + ' ' + p.dataset.pod + ' ' + p.querySelector('.state').textContent +
				' ' + p.querySelector('.badges').textContent)))`)
}

// TestBrowserReloadRestoresTheSession: a reload in the middle of a node failure and a rollout
// brings back the cluster, the clock, the timeline's steps, the unapplied editor text and the
// typed history.
func TestBrowserReloadRestoresTheSession(t *testing.T) {
	b, _ := openPlayground(t)
	b.run(t, "sim fail hd2 kubelet-down")
	b.run(t, "sim advance 7m")
	// hd2's unavailable pod uses up maxUnavailable: the rollout stalls with old pods elsewhere.
	b.run(t, "kubectl set image ds/fluentd-elasticsearch -n kube-system fluentd-elasticsearch=docker.io/library/fluentd:v2.6.0")
	b.run(t, "kubectl get pods -o wide")
	eval[bool](t, b, `(() => { const e = document.getElementById('editor'); e.value += '\n# my notes'; e.dispatchEvent(new Event('input')); return true; })()`)
	before := b.snapshot(t)
	require.Contains(t, strings.Join(before, "\n"), "Terminating")
	require.Contains(t, strings.Join(before, "\n"), "rev 1 · old", "mid-rollout")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`))))
	assert.Equal(t, before, b.snapshot(t))
	assert.Equal(t, "step 3 of 3", b.text(t, "#step"))
	assert.True(t, eval[bool](t, b, `document.getElementById('editor').value.endsWith('# my notes')`))
	b.typeCommand(t, "", kb.ArrowUp)
	assert.Equal(t, "kubectl get pods -o wide", eval[string](t, b, `document.getElementById('prompt').value`))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserShareLinkRoundTrip: a share link opens the same session in a fresh browser, and is
// then dropped from the address bar; a truncated link is refused with a message and the work
// saved in that browser is kept.
func TestBrowserShareLinkRoundTrip(t *testing.T) {
	b, url := openPlayground(t)
	b.run(t, "kubectl cordon hd3")
	b.run(t, "kubectl scale deployment web --replicas=4")
	b.run(t, "sim advance 1m")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#share`)), chromedp.WaitVisible(chromedp.CSS(`#share-url`))))
	link := eval[string](t, b, `document.getElementById('share-url').value`)
	require.True(t, strings.HasPrefix(link, url+"#s="), link)
	shared := b.snapshot(t)

	fresh := newBrowser(t)
	fresh.openPage(t, link)
	assert.Equal(t, shared, fresh.snapshot(t))
	assert.Equal(t, "step 3 of 3", fresh.text(t, "#step"))
	assert.Equal(t, url, eval[string](t, fresh, `location.href`), "the fragment is dropped once loaded")

	other := newBrowser(t)
	other.openPage(t, url)
	other.run(t, "kubectl label node hd2 disk=ssd")
	mine := other.snapshot(t)
	other.openPage(t, link[:len(link)-12])
	assert.Contains(t, other.text(t, "#notice-text"), "This share link is incomplete or was changed")
	assert.Equal(t, mine, other.snapshot(t))
	assert.Equal(t, "step 1 of 1", other.text(t, "#step"))
	assert.Empty(t, append(b.consoleErrors(), fresh.consoleErrors()...))
}

// TestBrowserUndoRedoAndScrubber: undo and redo move through the steps, and the scrubber jumps
// to any of them.
func TestBrowserUndoRedoAndScrubber(t *testing.T) {
	b, _ := openPlayground(t)
	start := b.snapshot(t)
	b.run(t, "sim fail hd2 kubelet-down")
	b.run(t, "sim advance 10m")
	end := b.snapshot(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#undo`)), chromedp.Click(chromedp.CSS(`#undo`))))
	assert.Equal(t, start, b.snapshot(t))
	assert.True(t, eval[bool](t, b, `document.getElementById('undo').disabled`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#redo`)), chromedp.Click(chromedp.CSS(`#redo`))))
	assert.Equal(t, end, b.snapshot(t))
	eval[bool](t, b, `(() => { const s = document.getElementById('scrubber'); s.value = 0; s.dispatchEvent(new Event('input')); return true; })()`)
	assert.Equal(t, start, b.snapshot(t))
	assert.Equal(t, "step 0 of 2", b.text(t, "#step"))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserSpeaksChinese: a browser that prefers Chinese opens the page in Simplified Chinese
// with the zh-cn terms; the switch goes back to English, and the choice survives a reload.
func TestBrowserSpeaksChinese(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: "DaemonLab browser test", AcceptLanguage: "zh-CN,zh"})
		return err
	})))
	b.openPage(t, url)
	assert.Equal(t, "zh-CN", eval[string](t, b, `document.documentElement.lang`))
	assert.Equal(t, "集群", eval[string](t, b, `document.querySelector('.cluster h2').textContent`))
	assert.Equal(t, "应用", b.text(t, "#apply"))
	assert.Equal(t, "▶ 播放", b.text(t, "#play"))
	assert.Equal(t, "让此节点出故障或恢复…", b.text(t, `[data-node="hd2"] .menu-button`))
	assert.Equal(t, "腾空（drain）", eval[string](t, b, `document.querySelector('[data-node="hd2"] button[data-command^="kubectl drain"]').textContent`))
	b.run(t, "kubectl get nodes")
	assert.Contains(t, b.text(t, "#terminal pre.out"), "NAME   STATUS   ROLES", "kubectl's output stays kubectl's")
	b.screenshot(t, "chinese")
	b.playNodeFailure(t, false)
	assert.Equal(t, "保留：它容忍 node.kubernetes.io/unreachable:NoExecute 且未设置 tolerationSeconds，因此永久容忍",
		eval[string](t, b, `document.querySelector('[data-node="hd2"] .pod:not(.terminating) .note').textContent`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), "en")))
	eval[bool](t, b, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	assert.Equal(t, "Cluster", eval[string](t, b, `document.querySelector('.cluster h2').textContent`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`))))
	assert.Equal(t, "en", eval[string](t, b, `document.documentElement.lang`))
	assert.Equal(t, "Apply", b.text(t, "#apply"))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserWorksWithTheKeyboardAlone: the central story with Tab, Enter, the arrow keys and
// Space only — and focus stays where it was while the page re-renders around it.
func TestBrowserWorksWithTheKeyboardAlone(t *testing.T) {
	b, _ := openPlayground(t)
	b.playNodeFailure(t, true)
	assert.Equal(t, "play", eval[string](t, b, `document.activeElement.id`), "focus stays on play")
	b.tabTo(t, `[data-node="hd2"] .menu-button`, false)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(kb.ArrowDown)))
	require.Equal(t, "sim recover hd2 kubelet-down", eval[string](t, b, `document.activeElement.dataset.command`), "the menu offers the recovery first")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent(kb.Enter)))
	assert.Equal(t, "menu hd2", eval[string](t, b, `document.activeElement.dataset.key`), "the menu closed, the focus back on its button, through the re-render")
	b.typeCommand(t, "", kb.Tab)
	assert.NotEqual(t, "prompt", eval[string](t, b, `document.activeElement.id`), "Tab at an empty prompt leaves the terminal")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserFitsAPhone: at 390 px wide the page shows one pane at a time (the cluster first),
// nothing scrolls sideways, and the central story plays by touch.
func TestBrowserFitsAPhone(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)))
	b.openPage(t, url)
	assert.LessOrEqual(t, eval[int](t, b, `document.documentElement.scrollWidth`), 390)
	assert.Equal(t, []string{"cluster"}, b.panesShown(t), "the cluster first, alone")
	b.playNodeFailure(t, false)
	b.screenshot(t, "phone")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserSaysWhenTheSimulatorCannotLoad: the module is fetched and compiled while the page
// loads (site/main.js); when that fails, here on a main.wasm that is not WebAssembly, the page
// says so in its banner instead of staying blank.
func TestBrowserSaysWhenTheSimulatorCannotLoad(t *testing.T) {
	dir := copySite(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.wasm"), []byte("not WebAssembly"), 0o644))
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate(serveDir(t, dir)), chromedp.WaitVisible(chromedp.CSS(`#banner`))))
	assert.Contains(t, b.text(t, "#banner"), "DaemonLab could not load its simulator:")
	assert.Empty(t, b.consoleErrors(), "the failure is reported once, in the banner")
}

// TestBrowserSaysWhatThePageLacks: a page whose HTML lacks an element the Go side drives (here
// the terminal's prompt is a textarea, not an input) says so in the banner instead of failing
// on the first keystroke.
func TestBrowserSaysWhatThePageLacks(t *testing.T) {
	dir := copySite(t)
	buildWasm(t, dir)
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	broken := regexp.MustCompile(`<input id="prompt"[^>]*>`).ReplaceAllString(string(html), `<textarea id="prompt"></textarea>`)
	require.NotEqual(t, string(html), broken, "index.html has an input#prompt")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte(broken), 0o644))
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate(serveDir(t, dir)), chromedp.WaitVisible(chromedp.CSS(`#banner`))))
	assert.Equal(t, "DaemonLab could not start: the page lacks the form controls #prompt", b.text(t, "#banner"))
}

// TestBrowserSurvivesAPanic: a panic inside Go (forced here by making a DOM method that Go calls
// throw, which syscall/js turns into a panic) shows the banner, and the page goes on working.
func TestBrowserSurvivesAPanic(t *testing.T) {
	b, _ := openPlayground(t)
	eval[bool](t, b, `(() => { document.getElementById('share-url').select = () => { throw new Error('forced'); }; return true; })()`)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#share`)), chromedp.WaitVisible(chromedp.CSS(`#banner`))))
	assert.Contains(t, b.text(t, "#banner"), "Something went wrong inside DaemonLab")
	eval[bool](t, b, `delete document.getElementById('share-url').select`)
	b.run(t, "kubectl get ds -A")
	assert.Contains(t, b.text(t, "#terminal pre.out"), "fluentd-elasticsearch")
}

// TestBrowserCodeEditorMarksTheErrorAtItsLine: the YAML editor is CodeMirror (styled, under the
// Content-Security-Policy): an edit typed into it and applied with Ctrl+Enter that Kubernetes
// refuses is marked at its line, and the cluster is unchanged.
func TestBrowserCodeEditorMarksTheErrorAtItsLine(t *testing.T) {
	b, _ := openPlayground(t)
	const cm = `document.getElementById('code-editor').shadowRoot`
	assert.Equal(t, "flex", eval[string](t, b, `getComputedStyle(`+cm+`.querySelector('.cm-editor')).display`), "CodeMirror's own styles apply")
	assert.True(t, eval[bool](t, b, `document.getElementById('editor').hidden`))
	before := b.podsByNode(t)
	line := eval[int](t, b, `Array.from(`+cm+`.querySelectorAll('.cm-line')).findIndex(l => l.textContent.includes('effect: NoSchedule')) + 1`)
	require.Equal(t, 23, line)
	eval[bool](t, b, cm+`.querySelector('.cm-content').focus() || true`)
	keys := []chromedp.Action[chromedp.Void]{chromedp.KeyEvent(kb.Home, chromedp.KeyModifiers(chromedp.ModifierCtrl))}
	for range line - 1 {
		keys = append(keys, chromedp.KeyEvent(kb.ArrowDown))
	}
	require.NoError(t, chromedp.Do(b.ctx, keys...))
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.KeyEvent(kb.End),
		chromedp.KeyEvent("d"),
		chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl)),
	))
	assert.Contains(t, b.applyOutput(t, "err"), `Unsupported value: "NoScheduled"`)
	assert.True(t, eval[bool](t, b, `document.getElementById('editor').value.includes('effect: NoScheduled')`), "the textarea mirrors the editor")
	require.Equal(t, 1, eval[int](t, b, cm+`.querySelectorAll('.cm-lint-marker-error').length`))
	marked := eval[float64](t, b, cm+`.querySelector('.cm-lint-marker-error').getBoundingClientRect().top`)
	lineTop := eval[float64](t, b, fmt.Sprintf(`%s.querySelectorAll('.cm-line')[%d].getBoundingClientRect().top`, cm, line-1))
	assert.InDelta(t, lineTop, marked, 4, "the marker is on line %d", line)
	assert.Equal(t, before, b.podsByNode(t))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserThePageWorksBeforeTheCodeEditorLoads: the code editor (editor.js) loads only once
// the page is ready; until it does, the plain textarea is the editor, and the editor that
// arrives starts from it as the learner left it: the text typed, the problems of the last apply
// marked, the focus and the caret where they were. Here editor.js is served a second late.
func TestBrowserThePageWorksBeforeTheCodeEditorLoads(t *testing.T) {
	dir := copySite(t)
	buildWasm(t, dir)
	url, g := serveGated(t, dir)
	g.hold("/editor.js")
	b := newBrowser(t)
	// Not chromedp.Navigate, which waits for the load event: when the page is ready before that
	// event, the editor's script, held back, holds the event back too.
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			_, err := cdp.Call(ctx, target, page.Navigate, page.NavigateParams{URL: url})
			return err
		}),
		chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`)),
	))
	assert.False(t, eval[bool](t, b, `!!document.getElementById('code-editor')`), "the code editor has not loaded yet")
	require.True(t, eval[bool](t, b, `(() => { const e = document.getElementById('editor');
		e.value = e.value.replace('effect: NoSchedule', 'effect: NoScheduled'); e.dispatchEvent(new Event('input')); return true; })()`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#apply`))))
	assert.Contains(t, b.applyOutput(t, "err"), `Unsupported value: "NoScheduled"`, "the textarea applies on its own")
	eval[bool](t, b, `(() => { const e = document.getElementById('editor'); e.focus();
		const at = e.value.indexOf('NoScheduled'); e.setSelectionRange(at, at); return true; })()`)
	g.release("/editor.js")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitReady(chromedp.CSS(`#code-editor`))))
	const cm = `document.getElementById('code-editor').shadowRoot`
	assert.True(t, eval[bool](t, b, `document.getElementById('editor').hidden`))
	assert.Contains(t, eval[string](t, b, cm+`.querySelector('.cm-content').textContent`), "effect: NoScheduled", "the editor starts from the text typed")
	assert.Equal(t, 1, eval[int](t, b, cm+`.querySelectorAll('.cm-lint-marker-error').length`), "the last apply's problem is marked")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent("X")))
	assert.True(t, eval[bool](t, b, `document.getElementById('editor').value.includes('effect: XNoScheduled')`), "the focus and the caret moved into the editor")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserTableEventsAndLargeClusters: the cluster as a table (a row per node, headers for
// screen readers), the events list filtered by type and object, and a cluster too large for
// cards drawn as a grid of cells whose details carry the fault menu.
func TestBrowserTableEventsAndLargeClusters(t *testing.T) {
	b, _ := openPlayground(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#table-toggle`)), chromedp.WaitVisible(chromedp.CSS(`table.cluster-table`))))
	rows := eval[[]string](t, b, `Array.from(document.querySelectorAll('.cluster-table tr')).map(r => Array.from(r.cells).map(c => c.textContent.split('\n')[0]).join(' | '))`)
	require.Len(t, rows, 4)
	assert.Equal(t, "Node | Status | Roles | Taints | Pods", rows[0])
	assert.Equal(t, "hd1 | Ready | control-plane | node-role.kubernetes.io/control-plane:NoSchedule | kube-system/"+b.podsInTable(t, "hd1"), rows[1])

	b.run(t, "sim fail hd2 kubelet-down")
	b.run(t, "sim advance 2m")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#event-type`), "Warning")))
	eval[bool](t, b, `document.getElementById('event-type').dispatchEvent(new Event('change'))`)
	eval[bool](t, b, `(() => { const i = document.getElementById('event-object'); i.value = 'pod/fluentd'; i.dispatchEvent(new Event('input')); return true; })()`)
	events := strings.Split(eval[string](t, b, `document.getElementById('events').textContent`), "\n")
	require.Len(t, events, 3, "%q", events)
	assert.Equal(t, "$ kubectl events -A --types=Warning", events[0])
	assert.Regexp(t, `^kube-system\s+65s\s+Warning\s+NodeNotReady\s+Pod/fluentd-elasticsearch-\w+\s+Node is not ready$`, events[2])

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#table-toggle`))))
	eval[bool](t, b, `(() => { const p = document.getElementById('prompt');
		for (let i = 4; i <= 60; i++) { p.value = 'sim add-node hd' + i; p.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'})); }
		return true; })()`)
	assert.Equal(t, 60, eval[int](t, b, `document.querySelectorAll('#nodes.compact button.cell').length`))
	assert.Equal(t, "hd2: NotReady, 2 pods", eval[string](t, b, `document.querySelector('#nodes button.cell[data-node="hd2"]').getAttribute('aria-label')`))
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Click(chromedp.CSS(`#nodes button.cell[data-node="hd42"]`)),
		chromedp.Click(chromedp.CSS(`#details button[data-command="kubectl cordon hd42"]`)),
	))
	assert.Equal(t, "$ kubectl cordon hd42", eval[string](t, b, `Array.from(document.querySelectorAll('#terminal pre.cmd')).pop().textContent`))
	assert.True(t, eval[bool](t, b, `document.querySelector('#nodes button.cell[data-node="hd42"]').classList.contains('cordoned')`))
	b.screenshot(t, "large-cluster")
	assert.Empty(t, b.consoleErrors())
}

// podsInTable is the first line of a node's pods cell in the table view.
func (b *browser) podsInTable(t *testing.T, node string) string {
	t.Helper()
	return strings.TrimPrefix(strings.Split(eval[string](t, b, `document.querySelector('.cluster-table tr[data-node="`+node+`"] td:last-child').textContent`), "\n")[0], "kube-system/")
}

// TestBrowserExportsTheManifests: "Export YAML" downloads the learner's objects as
// daemonlab.yaml, ready for kubectl apply on a real cluster; it is an item of the Session menu.
func TestBrowserExportsTheManifests(t *testing.T) {
	b, _ := openPlayground(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#session-menu`))))
	data := b.download(t, `#export`)
	assert.True(t, strings.HasPrefix(string(data), "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  labels:\n    k8s-app: fluentd-logging\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n"), "%s", data)
	assert.Contains(t, string(data), "---\napiVersion: apps/v1\nkind: Deployment\n")
	assert.NotContains(t, string(data), "status:")
	assert.Empty(t, b.consoleErrors())
}

// download clicks what selector names and returns the file the page downloads.
func (b *browser) download(t *testing.T, selector string) []byte {
	t.Helper()
	dir := t.TempDir()
	progress := chromedp.Events(b.ctx, cdpbrowser.DownloadProgress)
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
				Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &[]bool{true}[0]})
			return err
		}),
		chromedp.Click(chromedp.CSS(selector)),
	))
	var file string
	for ev, err := range progress {
		require.NoError(t, err)
		if ev.State == cdpbrowser.DownloadProgressStateCompleted {
			file = filepath.Join(dir, ev.GUID)
			break
		}
	}
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	return data
}

// TestBrowserShowsLearnerDataAsText: markup in what a learner writes (an annotation here) is shown
// as text in the terminal and the details panel, never run: the page builds no element from it.
func TestBrowserShowsLearnerDataAsText(t *testing.T) {
	b, _ := openPlayground(t)
	pod := b.podsByNode(t)["hd1"][0]
	const payload = `<img src=x onerror="window.pwned=1">`
	b.run(t, "kubectl annotate pod "+pod+" -n kube-system note='"+payload+"'")
	b.run(t, "kubectl get pod "+pod+" -n kube-system -o jsonpath={.metadata.annotations.note}")
	assert.Equal(t, payload, eval[string](t, b, `Array.from(document.querySelectorAll('#terminal pre.out')).pop().textContent`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`[data-pod="`+pod+`"] button.name`)), chromedp.WaitVisible(chromedp.CSS(`#details`))))
	assert.Contains(t, b.text(t, "#details-sections"), `note: <img src=x onerror="window.pwned=1">`)
	assert.Equal(t, 0, eval[int](t, b, `document.querySelectorAll('body img').length`))
	assert.False(t, eval[bool](t, b, `window.pwned === 1`))
	assert.Empty(t, b.consoleErrors())
}

// badges are the revision badges of the fluentd pods, by node.
func (b *browser) badges(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, b, `Array.from(document.querySelectorAll('#nodes .pod[data-pod^="fluentd"]')).map(p =>
		p.closest('.node').dataset.node + ' ' + p.querySelector('.badge.rev').textContent)`)
}

// TestBrowserRolloutWithUndo: a new image applied from the editor rolls out node by node — pods
// of the new revision beside old ones, marked old — `kubectl rollout undo` brings the old
// template back as revision 3, and the timeline's undo goes back to the middle of the rollout.
func TestBrowserRolloutWithUndo(t *testing.T) {
	b, _ := openPlayground(t)
	b.editAndApply(t, "fluentd:v2.5.1", "fluentd:v2.6.0")
	var middle []string
	for range 10 { // to the first new pod
		require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#time-buttons button[title="sim step"]`))))
		if middle = b.badges(t); slices.Contains(middle, "hd1 rev 2") {
			break
		}
	}
	assert.Equal(t, []string{"hd1 rev 2", "hd2 rev 1 · old", "hd3 rev 1 · old"}, middle, "hd1 first (nodes in name order), one at a time")
	b.run(t, "kubectl rollout undo ds/fluentd-elasticsearch -n kube-system")
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch rolled back", eval[string](t, b, `Array.from(document.querySelectorAll('#terminal pre.out')).pop().textContent`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#time-buttons button[title="sim advance 1m"]`))))
	b.idle(t)
	assert.Equal(t, []string{"hd1 rev 3", "hd2 rev 3", "hd3 rev 3"}, b.badges(t), "the old template is revision 3 now")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#undo`)), chromedp.Click(chromedp.CSS(`#undo`))))
	assert.Equal(t, middle, b.badges(t))
	assert.Empty(t, b.consoleErrors())
}

// lessonState is the lesson panel as a learner reads it: the step line and the goal's status.
func (b *browser) lessonState(t *testing.T) string {
	t.Helper()
	b.idle(t)
	return eval[string](t, b, `document.querySelector('#tutor .lesson-step').textContent + ' | ' + document.querySelector('#tutor .goal').textContent`)
}

// predict picks a choice of the step's prediction and returns whether the page marked it right.
func (b *browser) predict(t *testing.T, choice int) bool {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tutor .predict button[data-key="choice %d"]`, choice)))))
	return eval[bool](t, b, fmt.Sprintf(`document.querySelector('#tutor .predict button[data-key="choice %d"]').classList.contains('right')`, choice))
}

func (b *browser) nextStep(t *testing.T) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="lesson next"]`))))
}

// TestBrowserLessonOneByTypingInTheTerminal: lesson 1 from the lesson list, the DaemonSet applied
// from the editor and everything else typed into the terminal, each goal ticking as it is met,
// a wrong prediction explained, the recap at the end with the next lesson, and the progress kept
// across a reload.
func TestBrowserLessonOneByTypingInTheTerminal(t *testing.T) {
	b, _ := openPlayground(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lesson-picker`), "01-one-pod-per-node")))
	eval[bool](t, b, `document.getElementById('lesson-picker').dispatchEvent(new Event('change'))`)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor`))))
	assert.Equal(t, "Lesson 1 · One pod per node", b.text(t, "#tutor h2"))
	assert.Equal(t, "Step 1 of 4 | Goal not met yet", b.lessonState(t))
	assert.Empty(t, b.podsByNode(t), "the lesson starts without workloads")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#apply`))))
	b.run(t, "sim advance 30s")
	assert.Equal(t, "Step 1 of 4 | ✓ Goal met", b.lessonState(t))
	b.nextStep(t)

	assert.Equal(t, "The DaemonSet was only just created. What will its UP-TO-DATE column show?", b.text(t, "#tutor .predict .question"), "the question above the choices")
	assert.False(t, b.predict(t, 1), "zero is wrong: UP-TO-DATE counts pods of the current template")
	assert.Contains(t, b.text(t, "#tutor .explain"), "Not quite. DESIRED is 3")
	b.run(t, "kubectl -n kube-system get ds")
	assert.Equal(t, "Step 2 of 4 | ✓ Goal met", b.lessonState(t), "kubectl's own spellings count")
	b.nextStep(t)

	assert.True(t, b.predict(t, 2))
	b.run(t, "kubectl get pods -n kube-system -o wide")
	assert.Equal(t, "Step 3 of 4 | ✓ Goal met", b.lessonState(t))
	b.nextStep(t)

	assert.True(t, b.predict(t, 3))
	b.run(t, "kubectl apply -f log-agent.yaml")
	assert.Equal(t, "Step 4 of 4 | ✓ Goal met", b.lessonState(t))
	assert.Equal(t, "Lesson complete!", b.text(t, "#tutor .lesson-done"))
	assert.Equal(t, "What you learned", b.text(t, "#tutor .recap h3"), "the recap card ends the lesson")
	assert.Equal(t, "Next: Lesson 2 · Nodes come and go", b.text(t, `#tutor button[data-key="lesson goto"]`))
	b.screenshot(t, "lesson-1-recap")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #tutor`))))
	assert.Equal(t, "Step 4 of 4 | ✓ Goal met", b.lessonState(t), "a reload keeps the place")
	assert.Equal(t, "1. One pod per node (4/4)", eval[string](t, b, `document.querySelector('#lesson-picker option[value="01-one-pod-per-node"]').textContent`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="lesson goto"]`))))
	assert.Equal(t, "Lesson 2 · Nodes come and go", b.text(t, "#tutor h2"), "Next opens the next lesson")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserShowSolutionBeforePredictingRevealsTheAnswer: Show solution before a prediction
// marks its answer revealed, never right, explains it, and shows the solution's commands ready to
// run — the first already in the prompt, each one a click away — rather than running them.
func TestBrowserShowSolutionBeforePredictingRevealsTheAnswer(t *testing.T) {
	b, url := openPlayground(t)
	b.openPage(t, url+"#lesson=2")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor .predict`))))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="lesson solve"]`))))
	b.idle(t)
	assert.Equal(t, 0, eval[int](t, b, `document.querySelectorAll('#tutor .predict .choice.right, #tutor .predict .choice.wrong').length`), "never Right")
	assert.Equal(t, 1, eval[int](t, b, `document.querySelectorAll('#tutor .predict .choice.revealed').length`), "the answer is marked revealed")
	assert.True(t, strings.HasPrefix(b.text(t, "#tutor .explain"), "Revealed by Show solution."))
	lines := eval[[]string](t, b, `Array.from(document.querySelectorAll('#tutor .solution .solution-line code')).map(b => b.textContent)`)
	assert.Equal(t, []string{"sim add-node hd4", "sim advance 10s"}, lines)
	assert.Equal(t, "sim add-node hd4", eval[string](t, b, `document.getElementById('prompt').value`), "the first command waits in the prompt")
	assert.Equal(t, "prompt", eval[string](t, b, `document.activeElement.id`), "with the focus, ready for Enter")
	assert.Equal(t, "Step 1 of 5 | Goal not met yet", b.lessonState(t), "nothing ran")
	assert.Len(t, b.podsByNode(t), 3, "no node was added")
	b.screenshot(t, "lesson-2-revealed")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS(`#prompt`), kb.Enter)))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="solution 1"]`))))
	b.idle(t)
	assert.Equal(t, "sim advance 10s", eval[string](t, b, `document.getElementById('prompt').value`))
	assert.Equal(t, "prompt", eval[string](t, b, `document.activeElement.id`), "the prompt has the focus, ready for Enter")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS(`#prompt`), kb.Enter)))
	assert.Equal(t, "Step 1 of 5 | ✓ Goal met", b.lessonState(t), "the learner ran it")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserAChallengeFromStartToCheck: a challenge opened by its link shows the task and not
// its checks; the timer counts down; a Check before the fix marks what fails; hints come one at
// a time; after the fix a Check passes every check, says how long it took and keeps the result,
// which the picker shows, across a reload.
func TestBrowserAChallengeFromStartToCheck(t *testing.T) {
	b, url := openPlayground(t)
	b.openPage(t, url+"#challenge=1")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor`))))
	assert.Equal(t, "Challenge 1 · The log agent skips the control plane", b.text(t, "#tutor h2"))
	assert.Equal(t, "Suggested time: 5 min", b.text(t, "#tutor .lesson-step"))
	assert.Equal(t, 0, eval[int](t, b, `document.querySelectorAll('#tutor .check').length`), "the checks are hidden")
	assert.Equal(t, 0, eval[int](t, b, `document.querySelectorAll('#tutor .hint').length`), "the hints are locked")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="challenge timer"]`))))
	b.idle(t)
	assert.Regexp(t, `^[45]:[0-5][0-9] left$`, b.text(t, "#tutor .timer"))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="challenge check"]`))))
	b.idle(t)
	checks := func() []string {
		return eval[[]string](t, b, `Array.from(document.querySelectorAll('#tutor .check')).map(c => c.className + ': ' + c.textContent)`)
	}
	assert.Equal(t, []string{
		"check failed: The DaemonSet wants a pod on every node, and all of them are ready",
		"check failed: A fluentd pod runs on hd1",
		"check passed: hd1 keeps its control-plane taint, as kubeadm set it",
	}, checks())
	assert.Equal(t, "Hint (1 of 3)", b.text(t, `#tutor button[data-key="lesson hint"]`))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="lesson hint"]`))))
	b.idle(t)
	assert.Equal(t, 1, eval[int](t, b, `document.querySelectorAll('#tutor .hint').length`), "one hint at a time")
	b.screenshot(t, "challenge-1-checked")

	b.run(t, `kubectl patch ds fluentd-elasticsearch -n kube-system --type=json -p '[{"op":"replace","path":"/spec/template/spec/tolerations/0/key","value":"node-role.kubernetes.io/control-plane"}]'`)
	b.run(t, "sim advance 30s")
	assert.Equal(t, "check failed", eval[string](t, b, `document.querySelector('#tutor .check').className`), "nothing is judged until Check")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#tutor button[data-key="challenge check"]`))))
	b.idle(t)
	for _, c := range checks() {
		assert.True(t, strings.HasPrefix(c, "check passed"), c)
	}
	assert.Regexp(t, `^Solved! Time taken: [0-9]+:[0-5][0-9]\.$`, b.text(t, "#tutor .lesson-done"))
	assert.Equal(t, "Your best: solved with hints", b.text(t, "#tutor .result"))
	b.screenshot(t, "challenge-1-solved")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #tutor`))))
	assert.Equal(t, "Your best: solved with hints", b.text(t, "#tutor .result"), "a reload keeps the result")
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`!!document.querySelector('#lesson-picker option[value^="challenges/"]')`, chromedp.WithPollingTimeout(10*time.Second)))
	require.NoError(t, err, "the picker lists the challenges after the first paint")
	assert.Equal(t, "1. The log agent skips the control plane (solved with hints)",
		eval[string](t, b, `document.querySelector('#lesson-picker option[value="challenges/01-the-agent-skips-the-control-plane"]').textContent`))
	assert.Equal(t, "Challenges", eval[string](t, b, `document.querySelector('#lesson-picker option[value="challenges/01-the-agent-skips-the-control-plane"]').parentElement.label`))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserLessonSevenThroughTheFaultMenu: lesson 7 opened by its link, played with the node
// menu and the timeline, in Chinese, at the default window and on a 390×844 phone (its panes
// picked by their tabs as a learner does; the timeline stays in reach).
func TestBrowserLessonSevenThroughTheFaultMenu(t *testing.T) {
	for _, phone := range []bool{false, true} {
		t.Run(map[bool]string{false: "window", true: "phone"}[phone], func(t *testing.T) {
			b, url := openPlayground(t)
			if phone {
				require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)))
			}
			require.NoError(t, chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), "zh-CN")))
			eval[bool](t, b, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
			b.openPage(t, url+"#lesson=7")
			b.pickPane(t, "lesson")
			require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor`))))
			assert.Equal(t, "第 7 课 · 节点故障", b.text(t, "#tutor h2"))
			assert.Equal(t, url, eval[string](t, b, `location.href`), "the lesson link is dropped once opened")

			assert.True(t, b.predict(t, 2))
			b.pickPane(t, "cluster")
			require.NoError(t, chromedp.Do(b.ctx,
				chromedp.Click(chromedp.CSS(`[data-node="hd2"] .menu-button`)),
				chromedp.Click(chromedp.CSS(`[data-node="hd2"] button[data-command="sim fail hd2 kubelet-down"]`)),
				chromedp.Click(chromedp.CSS(`#time-buttons button[title="sim advance 1m"]`)),
			))
			assert.Equal(t, "第 1 步，共 4 步 | ✓ 目标已达成", b.lessonState(t))
			b.pickPane(t, "lesson")
			b.nextStep(t)
			assert.True(t, b.predict(t, 2))
			b.pickPane(t, "terminal")
			b.run(t, "kubectl describe node hd2")
			b.pickPane(t, "lesson")
			b.nextStep(t)
			assert.True(t, b.predict(t, 2))
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#time-buttons button[title="sim advance 5m"]`))))
			assert.Equal(t, "第 3 步，共 4 步 | ✓ 目标已达成", b.lessonState(t))
			b.nextStep(t)
			assert.False(t, b.predict(t, 1))
			b.pickPane(t, "terminal")
			b.run(t, "kubectl get pods -n kube-system -o wide")
			b.pickPane(t, "lesson")
			assert.Equal(t, "本课完成！", b.text(t, "#tutor .lesson-done"))
			b.screenshot(t, "lesson-7-zh"+map[bool]string{false: "", true: "-phone"}[phone])
			assert.Empty(t, b.consoleErrors())
		})
	}
}

// TestBrowserOpensATeachersLessonFromDisk: a teacher's lesson files chosen in the file picker are
// played at once; a malformed set is refused with the parser's message.
func TestBrowserOpensATeachersLessonFromDisk(t *testing.T) {
	b, _ := openPlayground(t)
	paths := teachersLesson(t)
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.SetUploadFiles(chromedp.CSS(`#lesson-file`), paths[:1]),
		chromedp.WaitVisible(chromedp.CSS(`#notice`)),
	))
	assert.Equal(t, "This lesson could not be opened: open the three files lesson.yaml, en.yaml and zh-CN.yaml together (en.yaml is missing).", b.text(t, "#notice-text"))
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.SetUploadFiles(chromedp.CSS(`#lesson-file`), paths),
		chromedp.WaitVisible(chromedp.CSS(`#tutor`)),
	))
	assert.Equal(t, "Your lesson · My own lesson", b.text(t, "#tutor h2"))
	assert.Equal(t, "Step 1 of 4 | Goal not met yet", b.lessonState(t))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserCorruptedSaveStartsAfreshAndKeepsACopy: a saved session that cannot be read (here
// truncated) gives a clean start with a message, and is kept under daemonlab.session.broken.
func TestBrowserCorruptedSaveStartsAfreshAndKeepsACopy(t *testing.T) {
	b, _ := openPlayground(t)
	b.run(t, "sim fail hd2 kubelet-down")
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`(localStorage.getItem('daemonlab.session') || '').includes('kubelet-down')`,
		chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, "the session is saved a moment after the change")
	saved := eval[string](t, b, `localStorage.getItem('daemonlab.session')`)
	damaged := saved[:len(saved)/2]
	eval[bool](t, b, `(() => { localStorage.setItem('daemonlab.session', `+jsString(damaged)+`); return true; })()`)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #notice`))))
	assert.Equal(t, "Your saved session could not be read: this is not a DaemonLab session, or it is damaged. DaemonLab started afresh; a copy is kept in this browser, and you can download it.", b.text(t, "#notice-text"))
	assert.Equal(t, damaged, eval[string](t, b, `localStorage.getItem('daemonlab.session.broken')`))
	assert.Equal(t, "step 0 of 0", b.text(t, "#step"))
	assert.Equal(t, "Ready", b.text(t, `[data-node="hd2"] .status`))
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserDrainWaitsForAPodDisruptionBudget: a learner protects the web Deployment with a
// PodDisruptionBudget that spares none of its pods and drains a node running one: the terminal
// shows kubectl drain trying again every 5s and giving up at its --timeout, the clock has moved
// on by the time drain waited and the node stays cordoned; once the budget spares a pod the same
// drain goes through (k8s.io/kubectl/pkg/drain/drain.go evictPods;
// pkg/registry/core/pod/storage/eviction.go checkAndDecrement).
func TestBrowserDrainWaitsForAPodDisruptionBudget(t *testing.T) {
	b, _ := openPlayground(t)
	terminal := func() []string {
		return eval[[]string](t, b, `Array.from(document.querySelectorAll('#terminal pre')).map(p => p.className + ' ' + p.textContent)`)
	}
	b.run(t, "kubectl create pdb web --selector=app=web --min-available=2")
	assert.Equal(t, "out poddisruptionbudget.policy/web created", terminal()[1])
	node := ""
	for n, pods := range b.podsByNode(t) {
		if slices.ContainsFunc(pods, func(p string) bool { return strings.HasPrefix(p, "web-") }) {
			node = n
		}
	}
	require.NotEmpty(t, node, "a node runs a web pod")
	clock := func() time.Duration {
		d, err := time.ParseDuration(strings.TrimPrefix(b.text(t, "#clock"), "t = "))
		require.NoError(t, err)
		return d
	}
	start := clock()

	b.run(t, "kubectl drain "+node+" --ignore-daemonsets --timeout=12s")
	lines := terminal()[3:] // after the command: cordoned, the DaemonSet warning, then the tries
	require.Len(t, lines, 10)
	assert.Equal(t, "out node/"+node+" cordoned", lines[0])
	for i := 2; i <= 8; i += 2 {
		assert.Regexp(t, `^out evicting pod default/web-`, lines[i], "a try, then its refusal, in the order written")
		if i < 8 {
			assert.Regexp(t, `^err error when evicting pods/"web-.*" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\.$`, lines[i+1])
		}
	}
	assert.Contains(t, lines[9], "global timeout reached: 12s")
	assert.Equal(t, 15*time.Second, clock()-start, "drain waited, trying at 0s, 5s and 10s and timing out at 15s")
	assert.Contains(t, b.text(t, `[data-node="`+node+`"]`), "SchedulingDisabled")

	b.run(t, `kubectl patch pdb web --type=merge -p {"spec":{"minAvailable":1}}`)
	b.run(t, "kubectl drain "+node+" --ignore-daemonsets")
	lines = terminal()
	assert.Regexp(t, `^out evicting pod default/web-\S+\npod/web-\S+ evicted\nnode/`+node+` drained$`, lines[len(lines)-1])
	b.screenshot(t, "drain-with-budget")
	assert.Empty(t, b.consoleErrors())
}
