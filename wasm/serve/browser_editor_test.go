package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codeView is the code editor's EditorView, found from its content element as
// EditorView.findFromDOM finds it.
const codeView = `(() => { const c = document.getElementById('code-editor').shadowRoot.querySelector('.cm-content');
	const t = c.cmView || c.cmTile; return t.rootView ? t.rootView.view : t.view; })()`

// typeInEditor replaces old with new in the code editor as typing would (a user edit, which the
// editor mirrors into the textarea).
func (b *browser) typeInEditor(t *testing.T, old, new string) {
	t.Helper()
	ok := eval[bool](t, b, `(() => { const v = `+codeView+`; const doc = v.state.doc.toString(); const i = doc.indexOf(`+jsString(old)+`);
		if (i < 0) return false; v.dispatch({changes: {from: i, to: i + `+jsString(old)+`.length, insert: `+jsString(new)+`}, userEvent: 'input.type'}); return true; })()`)
	require.True(t, ok, "the editor has no %q", old)
}

// editorText is what the code editor shows.
func (b *browser) editorText(t *testing.T) string {
	t.Helper()
	return eval[string](t, b, codeView+`.state.doc.toString()`)
}

// lastTerminal is the terminal's last line that a command printed (the page's notes, see
// playground.TermLine.Note, are not).
func (b *browser) lastTerminal(t *testing.T) string {
	t.Helper()
	return eval[string](t, b, `Array.from(document.querySelectorAll('#terminal pre:not(.note)')).pop().textContent`)
}

// activeTab is the title of the editor's tab shown.
func (b *browser) activeTab(t *testing.T) string {
	t.Helper()
	return eval[string](t, b, `document.querySelector('#editor-tabs .tab.active .tab-title').textContent`)
}

// TestBrowserEditorTabsAndKubectlEdit is the story of issue 20's editor: `vim daemonset.yaml`
// opens the file in a tab, a change typed there is the file (cat shows it), Apply runs
// `kubectl apply -f daemonset.yaml` in the terminal; `kubectl edit` opens the DaemonSet in a tab,
// an invalid change reopens it with kubectl's error on top and the text kept, and a good one
// saved with Ctrl+S is "edited".
func TestBrowserEditorTabsAndKubectlEdit(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(1440, 900)))
	b.openPage(t, url)

	b.run(t, "kubectl delete ds fluentd-elasticsearch -n kube-system")
	b.run(t, "vim daemonset.yaml")
	assert.Equal(t, "daemonset.yaml", b.activeTab(t))
	assert.Contains(t, b.editorText(t), "kind: DaemonSet")
	b.typeInEditor(t, "memory: 200Mi", "memory: 250Mi")
	b.run(t, "cat daemonset.yaml")
	assert.Contains(t, b.text(t, "#terminal"), "memory: 250Mi", "cat shows what the tab shows")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#apply`))))
	b.idle(t)
	cmds := eval[[]string](t, b, `Array.from(document.querySelectorAll('#terminal pre.cmd')).map(p => p.textContent)`)
	assert.Equal(t, "$ kubectl apply -f daemonset.yaml", cmds[len(cmds)-1])
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch created", b.lastTerminal(t))
	b.screenshot(t, "editor-tabs")

	b.run(t, "kubectl edit ds/fluentd-elasticsearch -n kube-system")
	assert.Equal(t, "edit: daemonset/fluentd-elasticsearch", b.activeTab(t))
	assert.True(t, strings.HasPrefix(b.editorText(t), "# Please edit the object below. Lines beginning with a '#' will be ignored,\n"))
	assert.False(t, eval[bool](t, b, `document.getElementById('save').classList.contains('hidden')`), "Save is shown")

	// invalid: the tab reopens with the error on top, the learner's text kept
	b.typeInEditor(t, "    k8s-app: fluentd-logging\n", "    k8s-app: -bad-\n")
	scrolled := eval[int](t, b, `(() => { const s = document.getElementById('code-editor').shadowRoot.querySelector('.cm-scroller'); s.scrollTop = 400; return s.scrollTop; })()`)
	require.Positive(t, scrolled, "the learner has scrolled down the edit")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#save`))))
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`document.getElementById('editor').value.includes('was not valid')`, chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err)
	text := b.editorText(t)
	assert.Contains(t, text, "#\n# daemonsets.apps \"fluentd-elasticsearch\" was not valid:\n# * metadata.labels: Invalid value: \"-bad-\": ")
	assert.Contains(t, text, "k8s-app: -bad-\n", "the learner's text is kept")
	assert.Equal(t, `error: daemonsets.apps "fluentd-elasticsearch" is invalid`, b.lastTerminal(t))
	assert.Equal(t, []int{0, 0}, eval[[]int](t, b, `(() => { const s = document.getElementById('code-editor').shadowRoot.querySelector('.cm-scroller'); return [s.scrollLeft, s.scrollTop]; })()`),
		"the reopened edit shows its first lines, the error, from their start")
	b.screenshot(t, "editor-edit-invalid")

	// fixed, the image changed, saved with Ctrl+S: edited
	b.typeInEditor(t, "k8s-app: -bad-", "k8s-app: fluentd-logging")
	b.typeInEditor(t, "image: docker.io/library/fluentd:v2.5.1", "image: docker.io/library/fluentd:v2.5.2")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl))))
	b.idle(t)
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch edited", b.lastTerminal(t))
	assert.Equal(t, "daemonset.yaml", b.activeTab(t), "the edit's tab closed")
	b.run(t, "kubectl get ds fluentd-elasticsearch -n kube-system -o jsonpath={.spec.template.spec.containers[0].image}")
	assert.Equal(t, "docker.io/library/fluentd:v2.5.2", b.lastTerminal(t))

	// closing an edit's tab cancels it
	b.run(t, "kubectl edit ds fluentd-elasticsearch -n kube-system")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#editor-tabs .tab.active .tab-close`))))
	assert.Equal(t, "Edit cancelled, no changes made.", b.lastTerminal(t))

	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Click(chromedp.CSS(`#pane-terminal`))))
	b.run(t, "vim pod-burstable.yaml")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#pane-yaml`))))
	assert.LessOrEqual(t, eval[int](t, b, `document.documentElement.scrollWidth`), 390, "the tabs scroll, the page does not")
	b.screenshot(t, "editor-tabs-phone")
	assert.Empty(t, b.consoleErrors())
}
