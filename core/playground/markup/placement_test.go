package markup

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"daemonlab/core/playground"
)

// parse reads markup back as a browser parses it, inside a div.
func parse(t *testing.T, n *Node) *html.Node {
	t.Helper()
	var w strings.Builder
	n.Write(&w)
	nodes, err := html.ParseFragment(strings.NewReader(w.String()), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	require.NoError(t, err)
	require.Len(t, nodes, 1, w.String())
	return nodes[0]
}

// textOf is an element's text content.
func textOf(n *html.Node) string {
	var s strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			s.WriteString(d.Data)
		}
	}
	return s.String()
}

// all are the elements of tag under n, in document order.
func all(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.Data == tag {
			out = append(out, d)
		}
	}
	return out
}

// attr is an element's attribute's value, "" when it has none.
func attr(n *html.Node, name string) string {
	i := slices.IndexFunc(n.Attr, func(a html.Attribute) bool { return a.Key == name })
	if i < 0 {
		return ""
	}
	return n.Attr[i].Val
}

// TestPlacementTableHasAColumnPerPluginAndARowPerNode: the table's heads are the node, the
// filter, each plugin (its name whole as text, breakable between its words) with its weight,
// and the total; a node that fails spans every column after its name with the plugin and
// kube-scheduler's reason; one that passes has a cell per plugin and its total; marks and
// classes say which is best and where the pod runs.
func TestPlacementTableHasAColumnPerPluginAndARowPerNode(t *testing.T) {
	pl := &playground.Placement{Title: "How the scheduler places it", Lines: []string{"lead"}, Terms: []string{"filter", "score", "total"},
		Node: "Node", Filter: "Filter", Total: "Total", Passes: "✓ passes", Outcome: "a tie",
		Plugins: []playground.PlacementCol{{Plugin: "TaintToleration", Weight: "×3"}, {Plugin: "NodeResourcesBalancedAllocation", Weight: "×1"}},
		Rows: []playground.PlacementRow{
			{Node: "hd1", Plugin: "TaintToleration", Reasons: "node(s) had untolerated taint(s)"},
			{Node: "hd2", Scores: []string{"100", "75"}, Total: "375", Best: true, Here: true, Marks: "★ best · runs here"},
		}}
	box := parse(t, (&Painter[*Node]{B: HTML{}}).Placement(pl))
	assert.Equal(t, "How the scheduler places it", textOf(all(box, "h4")[0]))
	assert.Len(t, all(box, "li"), 3)

	heads := all(box, "thead")[0]
	var texts []string
	for _, h := range all(heads, "th") {
		texts = append(texts, textOf(h))
	}
	assert.Equal(t, []string{"Node", "Filter", "TaintToleration×3", "NodeResourcesBalancedAllocation×1", "Total"}, texts)
	assert.Len(t, all(heads, "wbr"), 4, "Taint|Toleration, Node|Resources|Balanced|Allocation")

	rows := all(all(box, "tbody")[0], "tr")
	require.Len(t, rows, 2)
	fails := all(rows[0], "td")
	require.Len(t, fails, 1)
	assert.Equal(t, "4", attr(fails[0], "colspan"), "the filter, two plugins and the total")
	assert.Equal(t, "✗ TaintToleration: node(s) had untolerated taint(s)", textOf(fails[0]))
	assert.Equal(t, "fails", attr(rows[0], "class"))

	var cells []string
	for _, c := range all(rows[1], "td") {
		cells = append(cells, textOf(c))
	}
	assert.Equal(t, []string{"✓ passes", "100", "75", "375"}, cells)
	assert.Equal(t, "passes best here", attr(rows[1], "class"))
	assert.Equal(t, "hd2★ best · runs here", textOf(all(rows[1], "th")[0]))
	assert.Equal(t, "a tie", textOf(all(box, "p")[1]))
}

// TestPlacementSaysItsConclusionFirstAndExplainsVerdictsAndScores: the outcome is said above
// the table (it is the conclusion, and must be in view); a node that fails has the reason's
// gloss and what on the node caused it under kube-scheduler's reason; each plugin's head has
// what it scores as its title, and the same words are listed, folded, below the table.
func TestPlacementSaysItsConclusionFirstAndExplainsVerdictsAndScores(t *testing.T) {
	pl := &playground.Placement{Title: "t", Lines: []string{"lead"}, Outcome: "a tie", More: "and 2 more", Scores: "What each score measures",
		Plugins: []playground.PlacementCol{{Plugin: "TaintToleration", Weight: "×3", Help: "fewer taints"}},
		Rows: []playground.PlacementRow{
			{Node: "hd1", Plugin: "NodePorts", Reasons: "node(s) didn't have free ports for the requested pod ports", Gloss: "没有空闲端口", Causes: []string{"hp1 holds 8080/TCP"}},
			{Node: "hd2", Scores: []string{"100"}, Total: "300"},
		}}
	box := parse(t, (&Painter[*Node]{B: HTML{}}).Placement(pl))
	var order []string
	for c := box.FirstChild; c != nil; c = c.NextSibling {
		order = append(order, c.Data+"."+attr(c, "class"))
	}
	assert.Equal(t, []string{"h4.", "p.place-line", "p.place-outcome", "div.place-scroll", "p.place-more", "details.place-plugins"}, order)

	fails := all(all(box, "tbody")[0], "td")[0]
	assert.Equal(t, "没有空闲端口", textOf(all(fails, "span")[0]))
	assert.Equal(t, "hp1 holds 8080/TCP", textOf(all(fails, "li")[0]))
	assert.Equal(t, "✗ NodePorts: node(s) didn't have free ports for the requested pod ports没有空闲端口hp1 holds 8080/TCP", textOf(fails), "the reason verbatim first")

	assert.Equal(t, "fewer taints", attr(all(all(box, "thead")[0], "th")[2], "title"))
	help := all(box, "details")[0]
	assert.Equal(t, "What each score measures", textOf(all(help, "summary")[0]))
	assert.Equal(t, "TaintToleration: fewer taints", textOf(all(help, "li")[0]))
}

// TestPlacementWithoutATableIsItsWords: a pod no scheduler chose has its sentence and no table.
func TestPlacementWithoutATableIsItsWords(t *testing.T) {
	box := parse(t, (&Painter[*Node]{B: HTML{}}).Placement(&playground.Placement{Title: "t", Lines: []string{"spec.nodeName"}}))
	assert.Empty(t, all(box, "table"))
	assert.Equal(t, "tspec.nodeName", textOf(box))
}
