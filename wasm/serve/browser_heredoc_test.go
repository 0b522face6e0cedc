package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserTerminalTakesATutorialsHereDocument: a learner types a tutorial's
// `cat > FILE <<EOF` a line at a time (the prompt reads ">" until the marker), then pastes
// another here-document whole, as tutorials are copied, and both files are there to cat and
// apply. Ctrl+C drops a here-document under way.
func TestBrowserTerminalTakesATutorialsHereDocument(t *testing.T) {
	b, _ := openPlayground(t)
	sign := func() string { return eval[string](t, b, `document.getElementById('prompt-sign').textContent`) }
	require.Equal(t, "$", sign())
	b.typeCommand(t, "cat > web.yaml <<EOF", kb.Enter)
	assert.Equal(t, ">", sign(), "the prompt reads the here-document")
	for _, l := range []string{"apiVersion: v1", "kind: Pod", "metadata:", "  name: web", "spec:", "  containers:", "  - name: web", "    image: nginx", "EOF"} {
		b.typeCommand(t, l, kb.Enter)
	}
	assert.Equal(t, "$", sign())
	b.run(t, "cat web.yaml")
	outs := eval[[]string](t, b, `Array.from(document.querySelectorAll('#terminal pre.out')).map(p => p.textContent)`)
	require.NotEmpty(t, outs)
	assert.Equal(t, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx", strings.TrimSuffix(outs[len(outs)-1], "\n"))

	pasted := "cat <<EOF | kubectl apply -f -\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pasted\nspec:\n  containers:\n  - name: c\n    image: busybox\nEOF\n"
	eval[bool](t, b, `(() => { const p = document.getElementById('prompt'); p.value = ''; p.focus();
		const dt = new DataTransfer(); dt.setData('text/plain', `+jsString(pasted)+`);
		p.dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true})); return true; })()`)
	b.idle(t)
	terminal := b.text(t, "#terminal")
	assert.Contains(t, terminal, "> EOF")
	assert.Contains(t, terminal, "pod/pasted created")
	assert.Empty(t, eval[string](t, b, `document.getElementById('prompt').value`))

	b.typeCommand(t, "cat > x.yaml <<END", kb.Enter)
	eval[bool](t, b, `(() => { document.getElementById('prompt').value = 'half a line'; return true; })()`)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Focus(chromedp.CSS(`#prompt`)), chromedp.KeyEvent("c", chromedp.KeyModifiers(chromedp.ModifierCtrl))))
	assert.Equal(t, "$", sign(), "Ctrl+C ends the here-document")
	assert.True(t, strings.HasSuffix(strings.TrimSpace(b.text(t, "#terminal")), "> half a line^C"))
	assert.Empty(t, b.consoleErrors())
}
