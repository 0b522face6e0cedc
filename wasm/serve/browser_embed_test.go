package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/playground"
)

// The browser tests of embedding (issue 23): embed.html framed by a tutorial of another origin.

// serveTutorial serves, on an origin of its own, a tutorial page that embeds the playground as
// "Embed this" has it pasted, once for each address, between paragraphs of its own.
func serveTutorial(t *testing.T, srcs ...string) string {
	t.Helper()
	page := `<!doctype html><html><head><meta charset="utf-8"><title>A tutorial</title></head><body><h1>DaemonSets, hands on</h1>`
	for _, src := range srcs {
		page += "<p>Try it here:</p>\n" + playground.EmbedSnippet(src) + "\n"
	}
	page += `<p id="after">The end.</p></body></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// frame is the embed framed at the address that contains src, as a tab of its own (Chromium
// lists a frame of another origin as a target: see isolating), drawn and ready.
func (b *browser) frame(t *testing.T, src string) *browser {
	t.Helper()
	var id string
	require.Eventually(t, func() bool {
		infos, err := chromedp.Targets(b.ctx)
		require.NoError(t, err)
		for _, info := range infos {
			if info.Type == "iframe" && strings.Contains(info.URL, src) {
				id = string(info.TargetID)
			}
		}
		return id != ""
	}, 20*time.Second, 100*time.Millisecond, "a frame of %s", src)
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(target.ID(id)))
	t.Cleanup(cancel)
	f := recording(t, ctx)
	require.NoError(t, chromedp.Do(f.ctx, chromedp.WaitReady(chromedp.CSS(`html[data-ready="true"] #nodes .node`))))
	return f
}

// sizedToItsFrame waits until the first iframe of the tutorial is as tall as the content of its
// frame f (the frame posts it, the snippet's listener sets it) and stays so from one look to the
// next: the frame's height does not depend on the iframe's, which would grow it without end.
func (b *browser) sizedToItsFrame(t *testing.T, f *browser) {
	t.Helper()
	content := func() int {
		return eval[int](t, f, `Math.ceil(document.documentElement.getBoundingClientRect().height)`)
	}
	iframe := func() int {
		return eval[int](t, b, `Math.round(document.querySelector('iframe').getBoundingClientRect().height)`)
	}
	last := 0
	require.Eventually(t, func() bool {
		was, now := last, iframe()
		last = now
		return now == was && now == content()
	}, 10*time.Second, 300*time.Millisecond, "the iframe takes its content's height and keeps it")
	assert.Less(t, last, 4000)
	assert.Greater(t, last, 400)
}

// isolating is the flag that has Chromium run each origin in a process of its own, so that the
// page's frame in a tutorial of another origin of the same site (another port of 127.0.0.1,
// which shares the page's storage, as a site's own docs would) is a target the test can drive.
func isolating() chromedp.ExecAllocatorOption {
	return chromedp.Flag("enable-features", "StrictOriginIsolation")
}

// embedSessions are the keys of the embeds' saved sessions in the page's storage.
func (b *browser) embedSessions(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, b, `Object.keys(localStorage).filter(k => k.startsWith('daemonlab.embed.') && k.endsWith('.daemonlab.session')).sort()`)
}

// TestBrowserAnIframeOnAnotherOriginRunsALessonFromItsURL: a tutorial of another origin frames
// lesson 2 and, in Chinese, lesson 7 by their addresses, as "Embed this" gives the code. Each
// frame opens its lesson, compact (no editor, no session menu), and sizes its iframe through the
// snippet's listener to its content; the learner types the first step's commands in the first
// frame and the step passes. A reload of the tutorial brings each frame back as the learner left
// it, and the full page's saved session is untouched by either.
func TestBrowserAnIframeOnAnotherOriginRunsALessonFromItsURL(t *testing.T) {
	url := servePage(t)
	b := newBrowser(t, isolating())
	b.openPage(t, url)
	b.run(t, "sim add-node hd4")
	b.savedHas(t, "hd4")
	fullPage := eval[string](t, b, `localStorage.getItem('daemonlab.session')`)

	tutorial := serveTutorial(t, url+"embed.html#lesson=2", url+"embed.html#lesson=7&lang=zh-CN")
	require.False(t, strings.HasPrefix(tutorial, url), "another origin")
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate(tutorial)))
	two, seven := b.frame(t, "#lesson=2"), b.frame(t, "#lesson=7")
	require.NoError(t, chromedp.Do(two.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor`))))
	assert.Equal(t, "Lesson 2 · Nodes come and go", two.text(t, "#tutor h2"))
	assert.Equal(t, "第 7 课 · 节点故障", seven.text(t, "#tutor h2"))
	assert.Equal(t, []bool{false, false, false, false}, eval[[]bool](t, two,
		`['#editor-pane', '#session-menu', '#lesson-picker', '#share'].map(s => document.querySelector(s).checkVisibility())`), "compact")
	assert.True(t, eval[bool](t, two, `document.getElementById('open-full').checkVisibility()`), "Open in DaemonLab")
	assert.Equal(t, url+"embed.html#lesson=2", eval[string](t, two, `location.href`), "the frame keeps its address")

	two.predict(t, 1)
	two.run(t, "sim add-node hd4")
	two.run(t, "sim advance 10s")
	assert.Equal(t, "Step 1 of 5 | ✓ Goal met", two.lessonState(t))

	b.sizedToItsFrame(t, two)
	assert.True(t, eval[bool](t, b, `document.getElementById('after').getBoundingClientRect().top > document.querySelectorAll('iframe')[1].getBoundingClientRect().bottom`), "the tutorial flows on below")
	b.screenshot(t, "embed-tutorial")

	_, err := chromedp.Run(two.ctx, chromedp.Poll[bool](`Object.keys(localStorage).some(k => k.startsWith('daemonlab.embed.') && (localStorage.getItem(k) || '').includes('hd4'))`,
		chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, "the frame saves its work")
	seven.predict(t, 2)
	sevenLeft := seven.lessonState(t)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Reload()))
	two, seven = b.frame(t, "#lesson=2"), b.frame(t, "#lesson=7")
	assert.Equal(t, "Step 1 of 5 | ✓ Goal met", two.lessonState(t), "a reload brings the frame back as it was left")
	assert.Equal(t, sevenLeft, seven.lessonState(t), "the other frame's lesson is its own, as it was left")
	assert.Equal(t, 1, eval[int](t, seven, `document.querySelectorAll('#tutor .predict .choice.right, #tutor .predict .choice.wrong').length`), "its prediction kept")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)))
	b.sizedToItsFrame(t, two)
	assert.Equal(t, []string{"Cluster", "Terminal", "Lesson"}, eval[[]string](t, two, `Array.from(document.querySelectorAll('#panes [role="tab"]')).map(b => b.textContent)`),
		"a narrow frame shows a pane at a time, and no YAML")

	b.openPage(t, url)
	assert.Equal(t, fullPage, eval[string](t, b, `localStorage.getItem('daemonlab.session')`), "the full page's session is untouched")
	assert.Len(t, b.embedSessions(t), 2, "a saved session for each frame")
	for _, tab := range []*browser{b, two, seven} {
		assert.Empty(t, tab.consoleErrors())
	}
}

// openTeachersLesson opens a teacher's lesson from disk (teachersLesson).
func (b *browser) openTeachersLesson(t *testing.T) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetUploadFiles(chromedp.CSS(`#lesson-file`), teachersLesson(t)), chromedp.WaitVisible(chromedp.CSS(`#tutor`))))
}

// teachersLesson writes lesson 1's files, its title changed to "My own lesson", as a teacher's
// lesson on disk, and returns their paths: lesson.yaml, en.yaml, zh-CN.yaml.
func teachersLesson(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"lesson.yaml", "en.yaml", "zh-CN.yaml"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "lessons", "01-one-pod-per-node", name))
		require.NoError(t, err)
		if name == "en.yaml" {
			data = []byte(strings.Replace(string(data), "title: One pod per node", "title: My own lesson", 1))
		}
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		paths = append(paths, path)
	}
	return paths
}

// menuItem clicks an item of the Session menu.
func (b *browser) menuItem(t *testing.T, id string) {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#session-menu`)), chromedp.Click(chromedp.CSS(`#`+id))))
}

// TestBrowserATeachersLessonTravelsInALinkAndAFrame: a teacher opens a lesson folder and tries
// it; Share then gives a link that says it holds the lesson, and a learner (another browser)
// who opens it takes the lesson from its first step, without the teacher's work. Embed this
// gives the frame's code, in the page's language, which Copy copies; pasted in a tutorial, the
// frame plays the lesson, and its "Open in DaemonLab" opens the full page, in a new tab, on the
// session as the frame has it.
func TestBrowserATeachersLessonTravelsInALinkAndAFrame(t *testing.T) {
	url := servePage(t)
	teacher := newBrowser(t)
	teacher.openPage(t, url)
	teacher.openTeachersLesson(t)
	teacher.run(t, "sim add-node hd9")

	require.NoError(t, chromedp.Do(teacher.ctx, chromedp.Click(chromedp.CSS(`#share`)), chromedp.WaitVisible(chromedp.CSS(`#share-url`))))
	assert.Equal(t, "This link holds your lesson, its three files and none of your own work in it: copy it (it is selected), and whoever opens it takes the lesson from its first step. Nothing is sent to any server.",
		teacher.text(t, "#notice-text"))
	link := eval[string](t, teacher, `document.getElementById('share-url').value`)
	learner := newBrowser(t, isolating())
	learner.openPage(t, link)
	require.NoError(t, chromedp.Do(learner.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor`))))
	assert.Equal(t, "Your lesson · My own lesson", learner.text(t, "#tutor h2"))
	assert.Equal(t, "Step 1 of 4 | Goal not met yet", learner.lessonState(t))
	assert.NotContains(t, learner.podsByNode(t), "hd9", "none of the teacher's work")

	eval[bool](t, teacher, `(() => { Object.defineProperty(navigator, 'clipboard', {configurable: true, value: {writeText: (s) => { window.copied = s; return Promise.resolve(); }}}); return true; })()`)
	teacher.menuItem(t, "embed-this")
	require.NoError(t, chromedp.Do(teacher.ctx, chromedp.WaitVisible(chromedp.CSS(`#embed-code`))))
	assert.False(t, eval[bool](t, teacher, `document.getElementById('share-url').checkVisibility()`), "the code, not the link")
	assert.Contains(t, teacher.text(t, "#notice-text"), "as wide as its column and 640 px tall")
	code := eval[string](t, teacher, `document.getElementById('embed-code').value`)
	require.NoError(t, chromedp.Do(teacher.ctx, chromedp.Click(chromedp.CSS(`#copy-share`))))
	_, err := chromedp.Run(teacher.ctx, chromedp.Poll[bool](`document.getElementById('copy-share').textContent === '✓ Copied'`))
	require.NoError(t, err)
	assert.Equal(t, code, eval[string](t, teacher, `window.copied`), "Copy copies the code")
	src := regexp.MustCompile(`<iframe src="([^"]+)"`).FindStringSubmatch(code)
	require.NotNil(t, src, code)
	frameSrc := strings.ReplaceAll(src[1], "&amp;", "&")
	assert.True(t, strings.HasPrefix(frameSrc, url+"embed.html#s="), frameSrc)
	assert.True(t, strings.HasSuffix(frameSrc, "&lang=en"), frameSrc)
	assert.Equal(t, playground.EmbedSnippet(frameSrc), code)

	require.NoError(t, chromedp.Do(teacher.ctx, chromedp.SetValue(chromedp.CSS(`#lang`), "zh-CN")))
	eval[bool](t, teacher, `document.getElementById('lang').dispatchEvent(new Event('change'))`)
	teacher.noticeSays(t, "高度先为 640 像素")
	assert.Contains(t, eval[string](t, teacher, `document.getElementById('embed-code').value`), "&amp;lang=zh-CN", "the frame in the page's language")

	require.NoError(t, chromedp.Do(learner.ctx, chromedp.Navigate(serveTutorial(t, frameSrc))))
	f := learner.frame(t, "embed.html#s=")
	require.NoError(t, chromedp.Do(f.ctx, chromedp.WaitVisible(chromedp.CSS(`#tutor`))))
	assert.Equal(t, "Your lesson · My own lesson", f.text(t, "#tutor h2"))
	f.run(t, "kubectl get ds -n kube-system")
	require.NoError(t, chromedp.Do(f.ctx, chromedp.Click(chromedp.CSS(`#open-full`))))
	var full string
	require.Eventually(t, func() bool {
		infos, err := chromedp.Targets(learner.ctx)
		require.NoError(t, err)
		for _, info := range infos {
			if info.Type == "page" && (info.URL == url || strings.HasPrefix(info.URL, url+"#")) {
				full = string(info.TargetID)
			}
		}
		return full != ""
	}, 20*time.Second, 100*time.Millisecond, "Open in DaemonLab opens the full page in a new tab")
	ctx, cancel := chromedp.NewContext(learner.ctx, chromedp.WithTargetID(target.ID(full)))
	t.Cleanup(cancel)
	tab := recording(t, ctx)
	require.NoError(t, chromedp.Do(tab.ctx, chromedp.WaitVisible(chromedp.CSS(`html[data-ready="true"] #tutor`))))
	assert.Equal(t, "Your lesson · My own lesson", tab.text(t, "#tutor h2"))
	assert.Contains(t, eval[string](t, tab, `document.getElementById('terminal').textContent`), "kubectl get ds -n kube-system", "the session as the frame had it")
	assert.Equal(t, url, eval[string](t, tab, `location.href`), "the link is taken from the address, as every link is")
	for _, b := range []*browser{teacher, learner, f, tab} {
		assert.Empty(t, b.consoleErrors())
	}
}
