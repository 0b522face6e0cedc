package markup

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"daemonlab/core/playground"
)

// TestHTMLWritesTextAsTextNeverMarkup: a name or message of the learner's, written by the HTML
// builder, reads back (parsed as a browser parses it) as the same text and attribute value.
func TestHTMLWritesTextAsTextNeverMarkup(t *testing.T) {
	for _, s := range []string{
		"plain",
		`<script>alert(1)</script>`,
		`a "quoted" & 'apostrophe' </span>`,
		"中文 · ✓",
	} {
		t.Run(s, func(t *testing.T) {
			b := HTML{}
			e := b.El("span", "c", s)
			b.Attr(e, "title", s)
			var w strings.Builder
			e.Write(&w)
			nodes, err := html.ParseFragment(strings.NewReader(w.String()), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
			require.NoError(t, err)
			require.Len(t, nodes, 1, "one element: %s", w.String())
			span := nodes[0]
			assert.Equal(t, "span", span.Data)
			require.NotNil(t, span.FirstChild)
			assert.Equal(t, html.TextNode, span.FirstChild.Type)
			assert.Equal(t, s, span.FirstChild.Data)
			assert.Nil(t, span.FirstChild.NextSibling, "nothing but the text")
			assert.Equal(t, []html.Attribute{{Key: "class", Val: "c"}, {Key: "title", Val: s}}, span.Attr)
		})
	}
}

// TestHTMLAttrReplacesAsTheDOMDoes: setting an attribute again replaces its value in place, as
// setAttribute does, so that both builders write the same markup.
func TestHTMLAttrReplacesAsTheDOMDoes(t *testing.T) {
	b := HTML{}
	e := b.El("button", "a", "")
	b.Attr(e, "title", "one")
	b.Attr(e, "class", "b")
	b.Attr(e, "title", "two")
	var w strings.Builder
	e.Write(&w)
	assert.Equal(t, `<button class="b" title="two"></button>`, w.String())
}

// allRegions is a template marking every region, each around a placeholder.
func allRegions() string {
	var t strings.Builder
	for name := range Regions(&Painter[*Node]{B: HTML{}}, playground.View{}) {
		t.WriteString("<i><!--paint:" + name + "-->placeholder<!--/paint:" + name + "--></i>\n")
	}
	return t.String()
}

// TestPaintFillsEachRegionOnceAndRefusesABadTemplate pins Paint's rules: every region marked
// once is filled and its markers go; a region unmarked, unknown, marked twice or unclosed is an
// error.
func TestPaintFillsEachRegionOnceAndRefusesABadTemplate(t *testing.T) {
	good := allRegions()
	v := playground.View{Lang: playground.English, Clock: "t = 30s <now>"}
	for _, tc := range []struct {
		name, template, err string
	}{
		{"every region marked", good, ""},
		{"a region unmarked", strings.Replace(good, "<!--paint:clock-->placeholder<!--/paint:clock-->", "", 1), `does not mark the region "clock"`},
		{"an unknown region", good + "<!--paint:nope--><!--/paint:nope-->", `region "nope" the page does not paint`},
		{"a region twice", good + "<!--paint:clock--><!--/paint:clock-->", `marks the region "clock" twice`},
		{"no end marker", "<!--paint:clock-->" + good, `its end marker is missing`},
		{"a region marked again, unclosed", good + "<!--paint:clock-->", `marks the region "clock" twice`},
		{"an unclosed marker", "<!--paint:clock" + good, `unclosed paint marker`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page, err := Paint(tc.template, v)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				assert.Empty(t, page)
				return
			}
			require.NoError(t, err)
			assert.NotContains(t, page, "paint:", "the markers go")
			assert.NotContains(t, page, "placeholder", "each region's placeholder is replaced")
			assert.Contains(t, page, "<i>t = 30s &lt;now&gt;</i>", "the clock's text, escaped")
		})
	}
}
