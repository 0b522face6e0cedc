package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/playground"
	"daemonlab/core/playground/markup"
)

// servePainted serves the page as `make build` left it (its painted start page, main.wasm and
// the data assets), through a gate.
func servePainted(t *testing.T) (string, *gate) {
	t.Helper()
	dir := copySite(t)
	wasm, err := os.ReadFile(filepath.Join("..", "..", "site", "main.wasm"))
	require.NoError(t, err, "run `make build` first")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.wasm"), wasm, 0o644))
	return serveGated(t, dir)
}

// openHeld loads url with main.wasm and lessons.json held back, and waits until the new
// document is parsed.
func (b *browser) openHeld(t *testing.T, url string, g *gate) {
	t.Helper()
	g.hold("/main.wasm", "/lessons.json")
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			_, err := cdp.Call(ctx, target, page.Navigate, page.NavigateParams{URL: url})
			return err
		}),
		chromedp.WaitReady(chromedp.CSS(`html[data-paint]:not([data-ready]) #drawer`)), // the new document, not the last
	))
}

// paintedRegions are the ids of the elements whose content the start page paints and the Go
// side's first render draws again: the painted regions that are elements' contents by id.
var paintedRegions = func() []string {
	var ids []string
	for name := range markup.Regions(&markup.Painter[*markup.Node]{B: markup.HTML{}}, playground.View{}) {
		if name != "rules" && name != "starting" {
			ids = append(ids, name)
		}
	}
	return ids
}()

// TestBrowserPaintsTheClusterBeforeTheWasm: a first visit sees the real cluster before
// main.wasm arrives, with the page visibly starting; the Go side then takes it over without a
// jump: the painted regions' markup is what it draws, the cluster's boxes do not move, and the
// page records no layout shift (but in the editor's pane, where CodeMirror takes the textarea's
// place once the page is ready). A click and a command typed meanwhile are not lost: they take
// effect once the page runs.
func TestBrowserPaintsTheClusterBeforeTheWasm(t *testing.T) {
	url, g := servePainted(t)
	b := newBrowser(t)
	b.openHeld(t, url, g)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`#nodes .node .pod`))))
	assert.False(t, eval[bool](t, b, `document.documentElement.hasAttribute('data-ready')`), "main.wasm is held back")
	assert.Equal(t, "shown", eval[string](t, b, `document.documentElement.dataset.paint`))
	assert.Equal(t, []string{"hd1", "hd2", "hd3"}, eval[[]string](t, b, `[...document.querySelectorAll('#nodes .node')].map(n => n.dataset.node)`))
	pods := b.podsByNode(t)
	assert.Len(t, pods["hd2"], 2, "a fluentd pod and a web pod on hd2: %v", pods)
	assert.Equal(t, "starting…", eval[string](t, b, `document.querySelector('#starting span[lang="en"]').innerText`))
	assert.True(t, eval[bool](t, b, `document.getElementById('starting').checkVisibility()`))
	assert.Equal(t, "true", eval[string](t, b, `document.getElementById('work').getAttribute('aria-busy')`))
	before := eval[map[string]string](t, b, `Object.fromEntries(`+paintedRegionsJSON()+`.map(id => [id, document.getElementById(id).innerHTML]))`)
	boxes := `JSON.stringify([...document.querySelectorAll('#nodes .node, #nodes .pod, #due, #clock')].map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }))`
	boxesBefore := eval[string](t, b, boxes)
	// The layout shifts of everything but the editor's pane, where CodeMirror, loaded once the
	// page is ready, takes the textarea's place (as it did before the page was painted).
	eval[bool](t, b, `window.__shift = 0; window.__shifted = [];
		new PerformanceObserver(l => {
			for (const e of l.getEntries()) {
				const moved = e.sources.map(s => s.node).filter(n => n && !document.getElementById('editor-pane').contains(n));
				if (moved.length > 0) {
					window.__shift += e.value;
					window.__shifted.push(...moved.map(n => n.id || n.className || n.nodeName));
				}
			}
		}).observe({type: 'layout-shift', buffered: true}); true`)

	g.release("/main.wasm")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`))))
	after := eval[map[string]string](t, b, `Object.fromEntries(`+paintedRegionsJSON()+`.map(id => [id, document.getElementById(id).innerHTML]))`)
	for _, id := range paintedRegions {
		assert.Equal(t, before[id], after[id], "#%s is drawn as it was painted", id)
	}
	assert.Equal(t, boxesBefore, eval[string](t, b, boxes), "nothing of the cluster moved")
	assert.Zero(t, eval[float64](t, b, `window.__shift`), "no layout shift: %v moved", eval[[]string](t, b, `window.__shifted`))
	assert.False(t, eval[bool](t, b, `document.getElementById('starting').checkVisibility()`), "no longer starting")
	assert.False(t, eval[bool](t, b, `document.getElementById('work').hasAttribute('aria-busy')`))
	g.release("/lessons.json")

	// Again, a first visit in a fresh browser (the page has saved its session in this one), with a
	// click on "+ Add node" and a command typed before the page runs.
	assert.Empty(t, b.consoleErrors())
	b = newBrowser(t)
	b.openHeld(t, url, g)
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.WaitVisible(chromedp.CSS(`#nodes .node .pod`)),
		chromedp.Click(chromedp.CSS(`#add-node`)),
		chromedp.SendKeys(chromedp.CSS(`#prompt`), "kubectl get nodes\r"),
	))
	assert.False(t, eval[bool](t, b, `document.documentElement.hasAttribute('data-ready')`), "main.wasm is held back")
	assert.Equal(t, 3, eval[int](t, b, `document.querySelectorAll('#nodes .node').length`), "no node added yet")
	g.release("/main.wasm")
	g.release("/lessons.json")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`))))
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`document.getElementById('terminal').textContent.includes('hd1')`, chromedp.WithPollingTimeout(10*time.Second)))
	require.NoError(t, err, "the command typed was run")
	assert.Equal(t, 4, eval[int](t, b, `document.querySelectorAll('#nodes .node').length`), "the click on + Add node was replayed")
	assert.Contains(t, b.text(t, "#terminal"), "kubectl get nodes")
	assert.Empty(t, b.consoleErrors())
}

// TestBrowserAChineseVisitorSeesNoEnglishClusterFirst: a browser that prefers Chinese is not
// shown the painted English sandbox while main.wasm loads: the layout stays, empty, with
// "starting…" in Chinese; the page then opens in Chinese.
func TestBrowserAChineseVisitorSeesNoEnglishClusterFirst(t *testing.T) {
	url, g := servePainted(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: "DaemonLab browser test", AcceptLanguage: "zh-CN,zh"})
		return err
	})))
	b.openHeld(t, url, g)
	assert.Equal(t, "hidden", eval[string](t, b, `document.documentElement.dataset.paint`))
	for _, sel := range []string{"#nodes", ".bar", "header.top"} {
		assert.Equal(t, "hidden", eval[string](t, b, `getComputedStyle(document.querySelector(`+jsString(sel)+`)).visibility`), "%s is not shown", sel)
	}
	assert.Equal(t, "正在启动…", eval[string](t, b, `document.getElementById('starting').innerText`))
	g.release("/main.wasm")
	g.release("/lessons.json")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #nodes .node`))))
	assert.Equal(t, "visible", eval[string](t, b, `getComputedStyle(document.getElementById('nodes')).visibility`))
	assert.Equal(t, "让此节点出故障或恢复…", b.text(t, `[data-node="hd2"] .menu-button`))
	assert.Empty(t, b.consoleErrors())
}

// paintedRegionsJSON is paintedRegions as a JavaScript array's source.
func paintedRegionsJSON() string {
	s := "["
	for i, id := range paintedRegions {
		if i > 0 {
			s += ","
		}
		s += jsString(id)
	}
	return s + "]"
}
