package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"daemonlab/core/playground"
)

// painted paints site/index.html and parses it as a browser does.
func painted(t *testing.T) (*html.Node, playground.View) {
	t.Helper()
	template, err := os.ReadFile("../../site/index.html")
	require.NoError(t, err)
	page, err := Page(string(template))
	require.NoError(t, err)
	assert.NotContains(t, page, "paint:", "every marker is painted over")
	doc, err := html.Parse(strings.NewReader(page))
	require.NoError(t, err)
	v, err := StartView()
	require.NoError(t, err)
	return doc, v
}

// find is every element under n for which match holds, in document order.
func find(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && match(d) {
			out = append(out, d)
		}
	}
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func has(key, value string) func(*html.Node) bool {
	return func(n *html.Node) bool { return attr(n, key) == value }
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// TestPaintedPageShowsTheStartView: the painted start page shows what the page's first render
// shows a first visit: each node's card with its pods, in order, the clock, what is due, the
// time buttons and the lesson picker as it opens, its lessons loading.
func TestPaintedPageShowsTheStartView(t *testing.T) {
	doc, v := painted(t)
	nodes := find(doc, has("id", "nodes"))
	require.Len(t, nodes, 1)
	cards := find(nodes[0], func(n *html.Node) bool { return n.Data == "section" && attr(n, "data-node") != "" })
	require.Len(t, cards, len(v.Nodes))
	require.NotEmpty(t, v.Nodes)
	for i, n := range v.Nodes {
		assert.Equal(t, n.Name, attr(cards[i], "data-node"))
		var pods []string
		for _, li := range find(cards[i], func(n *html.Node) bool { return attr(n, "data-pod") != "" }) {
			pods = append(pods, attr(li, "data-pod"))
		}
		var want []string
		for _, p := range n.Pods {
			want = append(want, p.Name)
		}
		assert.Equal(t, want, pods, "the pods of %s", n.Name)
	}
	for _, tc := range []struct{ id, text string }{
		{"clock", v.Clock},
		{"due", v.DueLine},
		{"play", playground.T(playground.English, "play")},
		{"add-node", "+ " + v.AddNode.Label},
	} {
		got := find(doc, has("id", tc.id))
		require.Len(t, got, 1, tc.id)
		assert.Equal(t, tc.text, text(got[0]), tc.id)
	}
	picker := find(doc, has("id", "lesson-picker"))
	require.Len(t, picker, 1)
	var options []string
	for _, o := range find(picker[0], func(n *html.Node) bool { return n.Data == "option" }) {
		options = append(options, text(o))
	}
	require.NotEmpty(t, v.Picker.Waiting, "the page opens before its lessons arrive")
	assert.Equal(t, []string{playground.T(playground.English, "lesson.sandbox"), v.Picker.Waiting}, options, "the sandbox, and that the lessons are loading")
	times := find(find(doc, has("id", "time-buttons"))[0], func(n *html.Node) bool { return n.Data == "button" })
	assert.Len(t, times, len(v.Time))
}

// TestPaintedPageShowsTheStartPane: on a phone, which shows one pane at a time, the painted
// page shows the pane the start view selects (the template marks it shown), not none.
func TestPaintedPageShowsTheStartPane(t *testing.T) {
	doc, v := painted(t)
	var selected []string
	for _, p := range v.Panes {
		if p.Selected {
			selected = append(selected, string(p.Pane))
		}
	}
	var shown []string
	for _, n := range find(doc, func(n *html.Node) bool { return attr(n, "data-pane") != "" }) {
		if strings.Contains(" "+attr(n, "class")+" ", " shown ") {
			shown = append(shown, attr(n, "data-pane"))
		}
	}
	require.Len(t, selected, 1)
	assert.Equal(t, selected, shown)
}

// TestPaintedPageNeedsNoTranslation: the page's static texts are already what the page's
// translation into the painted language writes (playground.T), so that the first render changes
// none of them (no flash of other words).
func TestPaintedPageNeedsNoTranslation(t *testing.T) {
	doc, v := painted(t)
	require.Equal(t, playground.English, v.Lang)
	for _, a := range [][2]string{{"data-i18n", ""}, {"data-i18n-aria", "aria-label"}, {"data-i18n-title", "title"}} {
		for _, n := range find(doc, func(n *html.Node) bool { return attr(n, a[0]) != "" }) {
			want := playground.T(v.Lang, attr(n, a[0]))
			if a[1] == "" {
				assert.Equal(t, want, text(n), "the text of [%s=%s]", a[0], attr(n, a[0]))
			} else {
				assert.Equal(t, want, attr(n, a[1]), "the %s of [%s=%s]", a[1], a[0], attr(n, a[0]))
			}
		}
	}
}
