package markup

import (
	"encoding/json"
	"fmt"
	"strings"

	"daemonlab/core/playground"
)

// Node is an element, or a text node (Tag ""), as HTML builds it.
type Node struct {
	Tag   string
	Text  string      // a text node's text
	Attrs [][2]string // in the order first set, as the DOM keeps them
	Kids  []*Node
}

// HTML is the Builder that builds Nodes, to be written as HTML (Node.Write).
type HTML struct{}

// El is a new element.
func (HTML) El(tag, class, text string) *Node {
	n := &Node{Tag: tag}
	if class != "" {
		n.Attrs = append(n.Attrs, [2]string{"class", class})
	}
	if text != "" {
		n.Kids = append(n.Kids, &Node{Text: text})
	}
	return n
}

// Attr sets an attribute, in place when it is set already.
func (HTML) Attr(e *Node, name, value string) {
	for i, a := range e.Attrs {
		if a[0] == name {
			e.Attrs[i][1] = value
			return
		}
	}
	e.Attrs = append(e.Attrs, [2]string{name, value})
}

// Append appends a child.
func (HTML) Append(parent, child *Node) { parent.Kids = append(parent.Kids, child) }

// Text appends a text node.
func (HTML) Text(parent *Node, text string) { parent.Kids = append(parent.Kids, &Node{Text: text}) }

// Click draws nothing: a page of HTML has no listeners.
func (HTML) Click(string, func() playground.Msg) {}

// Write writes n as HTML to w: text and attribute values escaped (escape), so that a name or a
// message of the learner's is text, never markup; a wbr, a void element, without an end tag.
func (n *Node) Write(w *strings.Builder) {
	if n.Tag == "" {
		escape(w, n.Text)
		return
	}
	w.WriteString("<" + n.Tag)
	for _, a := range n.Attrs {
		w.WriteString(" " + a[0] + `="`)
		escape(w, a[1])
		w.WriteString(`"`)
	}
	w.WriteString(">")
	if n.Tag == "wbr" { // a void element: no content, no end tag
		return
	}
	for _, k := range n.Kids {
		k.Write(w)
	}
	w.WriteString("</" + n.Tag + ">")
}

// escape writes s with the characters that could end a text or a quoted attribute value as
// character references: & < > " '. (The standard library's html package would do the same, but
// its entity table, built when the program starts, is 100 KB of main.wasm.)
func escape(w *strings.Builder, s string) {
	for _, r := range s {
		switch r {
		case '&':
			w.WriteString("&amp;")
		case '<':
			w.WriteString("&lt;")
		case '>':
			w.WriteString("&gt;")
		case '"':
			w.WriteString("&#34;")
		case '\'':
			w.WriteString("&#39;")
		default:
			w.WriteRune(r)
		}
	}
}

// Text is an element of the page whose text is the view's: its id and its text.
type Text struct{ ID, Text string }

// Texts are the page's elements whose whole content is a text of the view.
func Texts(v playground.View) []Text {
	return []Text{
		{"clock", v.Clock},
		{"play", playground.T(v.Lang, map[bool]string{false: "play", true: "pause"}[v.Playing])},
		{"step", playground.T(v.Lang, "scrubber", v.Step, v.Steps)},
		{"axis-text", v.Axis.Text},
		{"table-toggle", playground.T(v.Lang, map[bool]string{false: "table", true: "cards"}[v.Table])},
		{"add-node", "+ " + v.AddNode.Label},
		{"prompt-sign", v.Prompt},
		{"apply-hint", v.Hint},
	}
}

// EventsText is the events list's text: its command and kubectl's output.
func EventsText(v playground.View) string { return "$ " + v.Events.Command + "\n" + v.Events.Text }

// Regions are the parts of the page the prerender paints (Paint), by the name of their markers,
// and what fills each. A region's content is what the page's first render draws there for the
// same view (the browser test TestBrowserPaintsTheClusterBeforeTheWasm holds them equal).
func Regions(p *Painter[*Node], v playground.View) map[string]func(parent *Node) {
	regions := map[string]func(*Node){
		"nodes":         func(e *Node) { p.Nodes(e, v) },
		"clock-state":   func(e *Node) { p.ClockState(e, v) },
		"due":           func(e *Node) { p.Due(e, v, false) },
		"lesson-picker": func(e *Node) { p.Picker(e, v.Picker) },
		"speed":         func(e *Node) { p.Speeds(e, v.Speed) },
		"panes":         func(e *Node) { p.Panes(e, v) },
		"editor-tabs":   func(e *Node) { p.Tabs(e, v) },
		"editor":        func(e *Node) { p.B.Text(e, v.Editor) },
		"events":        func(e *Node) { p.B.Text(e, EventsText(v)) },
		"drawer-fold":   func(e *Node) { p.B.Text(e, v.Drawer.Fold) },
		"rules":         func(e *Node) { p.B.Text(e, Rules(v.Lang)) },
		"time-buttons": func(e *Node) {
			for _, a := range v.Time {
				p.B.Append(e, p.TimeButton(a))
			}
		},
		// The starting state's words, in every language: the page shows the one of the
		// language it will open in (site/main.js decides, site/style.css shows).
		"starting": func(e *Node) {
			for _, l := range playground.Langs {
				s := p.B.El("span", "", playground.T(l, "starting"))
				p.B.Attr(s, "lang", string(l))
				p.B.Append(e, s)
			}
		},
	}
	for _, t := range Texts(v) {
		regions[t.ID] = func(e *Node) { p.B.Text(e, t.Text) }
	}
	return regions
}

// Rules are what site/main.js needs to decide, in the document's head, whether a visit opens on
// the painted start page (in lang): as JSON, the page's language, the storage keys whose value
// changes what the first screen shows (a saved session, lesson progress), the key of the
// language remembered and the language tags of each language the page speaks (PickLang's
// rules), and the beginnings of a link in the fragment (playground.IsLink).
func Rules(lang playground.Lang) string {
	langs := map[string]playground.Lang{}
	for _, t := range playground.LangTags {
		langs[t.Tag] = t.Lang
	}
	rules, err := json.Marshal(map[string]any{
		"lang":    lang,
		"stored":  []string{playground.SessionKey, playground.ProgressKey},
		"langKey": playground.LangKey,
		"langs":   playground.Langs,
		"tags":    langs,
		"links":   playground.LinkKeys,
	})
	if err != nil {
		panic(err) // strings only: it cannot fail
	}
	return string(rules)
}

// Paint fills the regions of the page's template with what the view v shows: each region is
// marked in the template by <!--paint:NAME--> and <!--/paint:NAME-->, and what lies between is
// replaced (the template's own content there is what a page not prerendered shows until the
// WebAssembly draws it). The rules:
//
//  1. every region (Regions) is marked exactly once, and nothing else is marked; regions do
//     not nest;
//  2. the markers go: the painted regions hold what the page's first render draws, and nothing
//     else (a comment left would differ from the page's own markup).
func Paint(template string, v playground.View) (string, error) {
	p := &Painter[*Node]{B: HTML{}, Lang: v.Lang}
	regions := Regions(p, v)
	var out strings.Builder
	rest := template
	seen := map[string]bool{}
	for {
		i := strings.Index(rest, "<!--paint:")
		if i < 0 {
			break
		}
		name, after, ok := strings.Cut(rest[i+len("<!--paint:"):], "-->")
		fill, known := regions[name]
		switch {
		case !ok || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz-") != "":
			return "", fmt.Errorf("the template has an unclosed paint marker at byte %d", len(template)-len(rest)+i)
		case !known:
			return "", fmt.Errorf("the template marks a region %q the page does not paint", name)
		case seen[name]:
			return "", fmt.Errorf("the template marks the region %q twice", name)
		}
		end := "<!--/paint:" + name + "-->"
		j := strings.Index(after, end)
		if j < 0 {
			return "", fmt.Errorf("the template's region %q has no end marker %s", name, end)
		}
		if strings.Contains(after[:j], "<!--paint:") {
			return "", fmt.Errorf("the template's region %q holds another region: its end marker is missing", name)
		}
		seen[name] = true
		parent := &Node{}
		fill(parent)
		out.WriteString(rest[:i])
		for _, k := range parent.Kids {
			k.Write(&out)
		}
		rest = after[j+len(end):]
	}
	out.WriteString(rest)
	for name := range regions {
		if !seen[name] {
			return "", fmt.Errorf("the template does not mark the region %q", name)
		}
	}
	return out.String(), nil
}
