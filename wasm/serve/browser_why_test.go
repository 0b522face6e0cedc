package main

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// whyLooks are the windows the why-panel is proved and photographed in: issue 24's sizes, and
// the widest in Chinese and in a dark system theme.
var whyLooks = []whyLook{
	{"1440x900", 1440, 900, false, false, false},
	{"1280x720", 1280, 720, false, false, false},
	{"390x844", 390, 844, true, false, false},
	{"zh-CN", 1440, 900, false, true, false},
	{"dark", 1440, 900, false, false, true},
}

// whyLook is one of whyLooks.
type whyLook struct {
	name          string
	width, height int64
	phone         bool
	chinese, dark bool
}

// openLook opens the page in a new browser as the look says: its window, language and theme.
func openLook(t *testing.T, url string, w whyLook) *browser {
	t.Helper()
	b := newBrowser(t)
	b.openAs(t, url, way{w.name, w.width, w.height, w.chinese})
	if w.dark {
		b.darkTheme(t)
	}
	return b
}

// darkTheme emulates a system theme that prefers dark colours.
func (b *browser) darkTheme(t *testing.T) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	})))
}

// openWhy opens the details panel on the first pod whose name starts with prefix, and waits
// for its scheduling.
func (b *browser) openWhy(t *testing.T, prefix string) {
	t.Helper()
	b.pickPane(t, "cluster")
	require.NoError(t, chromedp.Do(b.ctx,
		chromedp.Click(chromedp.CSS(`[data-pod^="`+prefix+`"] button.name`)),
		chromedp.WaitVisible(chromedp.CSS(`#details .placement`)),
	))
}

// showPlacement scrolls the panel's scheduling to the top of the view (below a phone's sticky
// timeline and pane switcher), for a screenshot.
func (b *browser) showPlacement(t *testing.T) {
	t.Helper()
	eval[bool](t, b, `(() => { document.querySelector('#details .placement').scrollIntoView({block: 'start'});
		const tabs = document.getElementById('pane-cluster').getBoundingClientRect();
		if (tabs.height > 0 && document.documentElement.scrollTop > 0) window.scrollBy(0, -tabs.bottom);
		return true; })()`)
}

// placementRows are the why-panel table's rows, each its node and its cells' texts.
func (b *browser) placementRows(t *testing.T) [][]string {
	t.Helper()
	return eval[[][]string](t, b, `Array.from(document.querySelectorAll('#details .place-table tbody tr')).map(r =>
		[r.dataset.node].concat(Array.from(r.querySelectorAll('td')).map(c => c.textContent)))`)
}

// TestBrowserWhyPanelShowsEachNodesFilterAndScores is issue 24's item 7 on the page, at
// 1440×900, 1280×720, on a 390×844 phone, in Chinese and in a dark theme: a web pod's details
// say why its node, computed now — hd1 rejected by TaintToleration with kube-scheduler's
// reason, the workers scored per plugin with each weight and the total, the best and the pod's
// own node marked; on a phone each node is a card of labelled lines, and nothing is wider than
// the window. A DaemonSet pod's panel names its one node,
// and a pod left Pending says no node passes. Screenshots are saved under .screenshots/why-*:
// the panel as it opens, and scrolled to the scheduling.
func TestBrowserWhyPanelShowsEachNodesFilterAndScores(t *testing.T) {
	url := servePage(t)
	for _, w := range whyLooks {
		t.Run(w.name, func(t *testing.T) {
			b := openLook(t, url, w)
			b.openWhy(t, "web-")
			heads := eval[[]string](t, b, `Array.from(document.querySelectorAll('#details .place-table thead th')).map(h => h.textContent)`)
			words := map[bool][]string{false: {"Node", "Filter", "Total"}, true: {"节点", "过滤", "总分"}}[w.chinese]
			assert.Equal(t, []string{words[0], words[1], "TaintToleration×3", "NodeResourcesFit×1", "PodTopologySpread×2", "NodeResourcesBalancedAllocation×1", words[2]}, heads)
			rows := b.placementRows(t)
			require.Len(t, rows, 3)
			reason, gloss, cause := "✗ TaintToleration: node(s) had untolerated taint(s)", "", "its taint node-role.kubernetes.io/control-plane:NoSchedule, which the pod does not tolerate"
			if w.chinese {
				gloss, cause = "节点有 Pod 不容忍的污点", "其污点 node-role.kubernetes.io/control-plane:NoSchedule，Pod 不容忍它"
			}
			assert.Equal(t, []string{"hd1", reason + gloss + cause}, rows[0], "the plugin and kube-scheduler's reason as upstream prints them, its gloss in Chinese, then the taint that caused it")
			assert.Equal(t, cause, b.text(t, "#details .place-table .causes li"))
			help := eval[[]string](t, b, `Array.from(document.querySelectorAll('#details .place-table th.plugin')).map(h => h.title)`)
			require.Len(t, help, 4)
			for _, h := range help {
				assert.NotEmpty(t, h, "each plugin's head says what it scores")
			}
			assert.Len(t, eval[[]string](t, b, `Array.from(document.querySelectorAll('#details .place-plugins li')).map(l => l.textContent)`), 4, "and so does a list a phone can open")
			for _, r := range rows[1:] {
				require.Len(t, r, 7, "the verdict, four scores and the total")
				assert.Equal(t, map[bool]string{false: "✓ passes", true: "✓ 通过"}[w.chinese], r[1])
			}
			here := eval[string](t, b, `document.querySelector('#details .place-table tr.here').dataset.node`)
			assert.Equal(t, here, eval[string](t, b, `document.querySelector('#details .place-table tr.best').dataset.node`), "the node without the other web pod is best")
			lead := b.text(t, "#details .place-line")
			assert.Contains(t, lead, here)
			assert.Contains(t, lead, map[bool]string{false: "as it is now", true: "集群当前的状态"}[w.chinese])
			assert.Len(t, eval[[]string](t, b, `Array.from(document.querySelectorAll('#details .place-terms li')).map(l => l.textContent)`), 3, "filter, score and total in a sentence each")

			assert.LessOrEqual(t, eval[int](t, b, `document.documentElement.scrollWidth`), int(w.width), "the page is no wider than the window")
			box := eval[[]float64](t, b, `(() => { const r = document.querySelector('#details .place-scroll').getBoundingClientRect(); return [r.left, r.right]; })()`)
			assert.LessOrEqual(t, box[1], float64(w.width), "the table's box is on the screen")
			assert.LessOrEqual(t, eval[int](t, b, `(() => { const s = document.querySelector('#details .place-scroll'); return s.scrollWidth - s.clientWidth; })()`), 0, "the whole table is in view, nothing scrolled out of its box")
			if w.phone {
				top := eval[[]float64](t, b, `[document.getElementById('details').getBoundingClientRect().top, document.getElementById('pane-cluster').getBoundingClientRect().bottom]`)
				assert.InDelta(t, top[1], top[0], 2, "a phone scrolls the panel it opens into view, below its sticky bar")
				assert.Equal(t, "TaintToleration ×3", eval[string](t, b, `getComputedStyle(document.querySelector('#details .place-table td.score'), '::before').content.replaceAll('"', '')`), "a phone's card labels each score with its plugin and weight")
			}
			if w.dark {
				bg := eval[string](t, b, `getComputedStyle(document.querySelector('#details .place-table tbody th')).backgroundColor`)
				assert.NotEqual(t, "rgba(0, 0, 0, 0)", bg, "the sticky column hides what scrolls under it")
				assert.Less(t, eval[float64](t, b, `getComputedStyle(document.querySelector('#details .place-table tbody th')).backgroundColor.match(/\d+/g).slice(0, 3).map(Number).reduce((a, c) => a + c)`), 150.0, "dark")
			}
			b.saveScreenshot(t, "why-opened-"+w.name, chromedp.CaptureScreenshot())
			b.showPlacement(t)
			b.saveScreenshot(t, "why-"+w.name, chromedp.CaptureScreenshot())

			b.openWhy(t, "fluentd-")
			assert.Contains(t, b.text(t, "#details .place-line"), map[bool]string{false: "Its DaemonSet pins it to", true: "它的 DaemonSet 把它固定在"}[w.chinese])
			assert.Len(t, b.placementRows(t), 1, "its one node, not a row per node it was never offered")

			if w.name == "1440x900" {
				b.run(t, "kubectl cordon hd2")
				b.run(t, "kubectl cordon hd3")
				b.run(t, "kubectl run stuck --image=nginx")
				b.openWhy(t, "stuck")
				rows := b.placementRows(t)
				assert.Equal(t, [][]string{
					{"hd1", "✗ TaintToleration: node(s) had untolerated taint(s)its taint node-role.kubernetes.io/control-plane:NoSchedule, which the pod does not tolerate"},
					{"hd2", "✗ NodeUnschedulable: node(s) were unschedulable"},
					{"hd3", "✗ NodeUnschedulable: node(s) were unschedulable"},
				}, rows)
				assert.Equal(t, "No node passes every filter: the pod stays Pending.", b.text(t, "#details .place-outcome"))
				assert.True(t, eval[bool](t, b, `(() => { const o = document.querySelector('#details .place-outcome');
					return o.compareDocumentPosition(document.querySelector('#details .place-scroll')) === Node.DOCUMENT_POSITION_FOLLOWING; })()`), "the conclusion comes before the table")
				b.showPlacement(t)
				b.saveScreenshot(t, "why-pending-"+w.name, chromedp.CaptureScreenshot())
			}
			assert.Empty(t, b.consoleErrors())
		})
	}
}

// TestBrowserWhyPanelSaysTheKubeletRefusedANamedPod: a pod given spec.nodeName onto a node too
// full for it fails with the kubelet's reason, and its details say so first — who refused it
// (the kubelet on hd3), the reason and message kubectl shows, that it is not retried — then
// that no scheduler chose its node and what the kubelet checks; the time axis marks the
// refusal. At 1440×900, 1280×720, on a 390×844 phone, in Chinese and in a dark theme;
// screenshots under .screenshots/refused-*.
func TestBrowserWhyPanelSaysTheKubeletRefusedANamedPod(t *testing.T) {
	url := servePage(t)
	pods := "apiVersion: v1\nkind: Pod\nmetadata: {name: hog}\nspec:\n  nodeName: hd3\n  containers: [{name: c, image: nginx, resources: {requests: {cpu: 3500m}}}]\n" +
		"---\napiVersion: v1\nkind: Pod\nmetadata: {name: more}\nspec:\n  nodeName: hd3\n  containers: [{name: c, image: nginx, resources: {requests: {cpu: \"1\"}}}]\n"
	for _, w := range whyLooks {
		t.Run(w.name, func(t *testing.T) {
			b := openLook(t, url, w)
			b.pickPane(t, "yaml")
			b.setEditor(t, pods)
			require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#apply`))))
			b.applyOutput(t, "out")
			b.pickPane(t, "terminal")
			b.run(t, "sim advance 5s")
			b.openWhy(t, "more")
			lines := eval[[]string](t, b, `Array.from(document.querySelectorAll('#details .place-line')).map(l => l.textContent)`)
			require.Len(t, lines, 2)
			want := map[bool][]string{
				false: {"The kubelet on hd3 refused it: OutOfcpu — Node didn't have enough resource: cpu, requested: 1000, used: 3700, capacity: 4000.", "Its spec.nodeName named hd3"},
				true:  {"hd3 上的 kubelet 拒绝了它：OutOfcpu —— Node didn't have enough resource: cpu, requested: 1000, used: 3700, capacity: 4000。", "它创建时的 spec.nodeName 就指定了 hd3"},
			}[w.chinese]
			assert.Contains(t, lines[0], want[0])
			assert.True(t, strings.HasPrefix(lines[1], want[1]), lines[1])
			assert.Empty(t, b.placementRows(t), "no scheduler chose: no table")
			assert.Contains(t, strings.Join(b.axisMarks(t), "\n"), map[bool]string{false: "more refused by its kubelet: OutOfcpu", true: "more 被 kubelet 拒绝：OutOfcpu"}[w.chinese])
			assert.LessOrEqual(t, eval[int](t, b, `document.documentElement.scrollWidth`), int(w.width), "the page is no wider than the window")
			b.showPlacement(t)
			b.saveScreenshot(t, "refused-"+w.name, chromedp.CaptureScreenshot())
			assert.Empty(t, b.consoleErrors())
		})
	}
}
