// Package markup is the one definition of the page's drawn parts (the cluster's cards and their
// pods, the clock's state, what is due, the lesson picker, the pane switcher...), written against
// a small element-building interface, Builder, so that the same code draws them twice:
//
//  1. into the DOM, by the page in the browser (package wasm, its Builder made of js values);
//  2. into HTML, natively, by `make build` (HTML, Paint), so that the page's first paint shows the
//     real cluster before the WebAssembly arrives.
//
// The page's first render after the prerendered paint must draw the same markup (no jump): the
// painted regions (Regions) are what both draw from the same View.
package markup

import (
	"strconv"
	"strings"

	"daemonlab/core/playground"
)

// Builder makes elements of type E: the DOM's, or HTML's Node.
type Builder[E any] interface {
	// El is a new element of tag, with a class and a text ("" for none).
	El(tag, class, text string) E
	// Attr sets an attribute of e (a second set of the same name replaces its value).
	Attr(e E, name, value string)
	// Append appends child to parent's children.
	Append(parent, child E)
	// Text appends a text node to parent's children.
	Text(parent E, text string)
	// Click has a click on a button whose data-key is key dispatch msg's message (the page's one
	// click listener; see Painter.Button). HTML draws no listeners and ignores it.
	Click(key string, msg func() playground.Msg)
}

// Painter draws the page's parts with a Builder, in a language, knowing what the page drew
// before (the node menu open, the pods' statuses as last drawn).
type Painter[E any] struct {
	B    Builder[E]
	Lang playground.Lang
	// OpenMenu names the node whose menu is drawn open (its data-menu), or "".
	OpenMenu string
	// Shown are the pods' statuses as the last render drew them (by namespace/name; nil on the
	// first render, which marks none entering), and Drawn as this one draws them (nil: not kept).
	Shown, Drawn map[string]string
}

// Button is a button that dispatches msg's message when clicked (an open button's key says its
// message, see playground.OpenKey: msg is nil); key names it, for the page's click listener and
// for keeping focus across renders.
func (p *Painter[E]) Button(class, text, key string, msg func() playground.Msg) E {
	b := p.B.El("button", class, text)
	p.attrs(b, "type", "button", "data-key", key)
	if msg != nil {
		p.B.Click(key, msg)
	}
	return b
}

// OpenButton is a button that opens the details panel on ref.
func (p *Painter[E]) OpenButton(class, text string, ref playground.Ref) E {
	b := p.Button(class, text, playground.OpenKey(ref), nil)
	p.B.Attr(b, "aria-label", playground.T(p.Lang, "open", ref.Name))
	return b
}

// attrs sets attributes of e, each given as its name and then its value.
func (p *Painter[E]) attrs(e E, nameValues ...string) {
	for i := 0; i+1 < len(nameValues); i += 2 {
		p.B.Attr(e, nameValues[i], nameValues[i+1])
	}
}

// NodeCard is a node's card: its name, status and roles, its menu, its faults, conditions,
// usage, taints and notes, and its pods and the DaemonSets' ghosts.
func (p *Painter[E]) NodeCard(n playground.NodeView) E {
	b := p.B
	card := b.El("section", "node", "")
	p.attrs(card, "data-node", n.Name, "aria-label", n.Name)
	head := b.El("header", "", "")
	title := b.El("h3", "", "")
	b.Append(title, p.OpenButton("node-name", n.Name, playground.Ref{Kind: "Node", Name: n.Name}))
	b.Append(head, title)
	b.Append(head, b.El("span", "status "+playground.StatusClass(n.Status), n.Status))
	b.Append(head, b.El("span", "roles", n.Roles))
	b.Append(card, head)
	b.Append(card, p.NodeMenu(n))
	if len(n.Faults) > 0 {
		b.Append(card, p.Chips("fault", n.Faults))
	}
	if len(n.Conditions) > 0 {
		b.Append(card, p.Chips("condition", n.Conditions))
	}
	for _, u := range n.Usage {
		label := playground.T(p.Lang, "usage", u.Resource, u.Requested, u.Allocated, u.Percent)
		row := b.El("div", "usage", "")
		b.Attr(row, "title", label)
		b.Append(row, b.El("span", "", u.Resource+" "+u.Requested+" / "+u.Allocated))
		meter := b.El("meter", "", "")
		p.attrs(meter, "min", "0", "max", "100", "high", "90", "value", strconv.Itoa(u.Percent), "aria-label", label)
		b.Append(row, meter)
		b.Append(card, row)
	}
	if len(n.Taints) > 0 {
		b.Append(card, p.Chips("taint", n.Taints))
	}
	for _, note := range n.Notes {
		b.Append(card, b.El("p", "node-note", note))
	}
	pods := b.El("ul", "pods", "")
	for _, pod := range n.Pods {
		b.Append(pods, p.PodChip(pod))
	}
	for _, g := range n.Ghosts {
		b.Append(pods, p.GhostChip(g))
	}
	b.Append(card, pods)
	return card
}

// GhostChip is the placeholder of a DaemonSet that runs no pod on the node: its owner, "not
// here", why, and upstream's predicate in small type. It is no pod chip (class ghost, not pod):
// nothing runs there.
func (p *Painter[E]) GhostChip(g playground.Ghost) E {
	b := p.B
	chip := b.El("li", "ghost", "")
	p.attrs(chip, "data-ghost", g.Owner, "title", g.Reason+" "+g.Predicate)
	b.Append(chip, b.El("span", "name", g.Owner))
	b.Append(chip, b.El("span", "state", playground.T(p.Lang, "ghost")))
	b.Append(chip, b.El("span", "reason", g.Reason))
	b.Append(chip, b.El("span", "predicate", g.Predicate))
	return chip
}

// Chips is a list of chips of one kind ("taint", "condition"), each titled with its kind in the
// page's language for screen readers and tooltips.
func (p *Painter[E]) Chips(kind string, items []string) E {
	list := p.B.El("ul", kind+"s", "")
	for _, item := range items {
		chip := p.B.El("li", kind, item)
		p.B.Attr(chip, "title", playground.T(p.Lang, kind, item))
		p.B.Append(list, chip)
	}
	return list
}

// NodeMenu is a node's menu (see wasm/menu.go): a menu button, marked with the number of the
// node's faults, and the actions that apply to the node now (playground's nodeActions), each
// running its command in the terminal. It is drawn open when it was (OpenMenu).
func (p *Painter[E]) NodeMenu(n playground.NodeView) E {
	b := p.B
	menu := b.El("div", "menu node-menu", "")
	b.Attr(menu, "data-menu", n.Name)
	open := p.OpenMenu == n.Name
	button := p.Button("menu-button", playground.T(p.Lang, "node.menu"), "menu "+n.Name, nil)
	label := playground.T(p.Lang, "node.actions", n.Name)
	if len(n.Faults) > 0 {
		label = playground.T(p.Lang, "node.actions.faults", n.Name, strings.Join(n.Faults, ", "))
		b.Append(button, b.El("span", "fault-count", strconv.Itoa(len(n.Faults))))
	}
	p.attrs(button, "aria-haspopup", "menu", "aria-expanded", strconv.FormatBool(open), "aria-label", label, "aria-controls", "menu-"+n.Name)
	b.Append(menu, button)
	list := p.ActionButtons(n.Actions, "menuitem", "node-actions menu-list")
	p.attrs(list, "role", "menu", "id", "menu-"+n.Name, "aria-label", label)
	if !open {
		b.Attr(list, "hidden", "")
	}
	b.Append(menu, list)
	return menu
}

// ActionButtons are a node's actions in a div of class, a button per action running its
// command: the items of its menu (role "menuitem", reached with the arrow keys, not Tab), or the
// buttons of the details panel (role "").
func (p *Painter[E]) ActionButtons(actions []playground.Action, role, class string) E {
	items := p.B.El("div", class, "")
	for _, a := range actions {
		command := a.Command
		b := p.Button("small", a.Label, command, func() playground.Msg { return playground.RunMsg{Line: command} })
		p.attrs(b, "title", command, "data-command", command)
		if role != "" {
			p.attrs(b, "role", role, "tabindex", "-1")
		}
		p.B.Append(items, b)
	}
	return items
}

// PodChip is a pod's chip. A pod the last render did not draw is marked entering, one that has
// just begun Terminating leaving, for the style sheet's short fades (Shown; the first render
// marks none).
func (p *Painter[E]) PodChip(pod playground.PodView) E {
	b := p.B
	class := "pod " + strings.ToLower(pod.Status)
	key := pod.Namespace + "/" + pod.Name
	if before, ok := p.Shown[key]; p.Shown != nil && !ok {
		class += " entering"
	} else if ok && pod.Status == "Terminating" && before != "Terminating" {
		class += " leaving"
	}
	if p.Drawn != nil {
		p.Drawn[key] = pod.Status
	}
	if pod.Colour >= 0 {
		class += " owner-" + strconv.Itoa(pod.Colour)
	}
	chip := b.El("li", class, "")
	b.Attr(chip, "data-pod", pod.Name)
	b.Append(chip, p.OpenButton("name", pod.Name, playground.Ref{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name}))
	b.Append(chip, b.El("span", "state", pod.Ready+" "+pod.Status))
	meta := b.El("span", "meta", pod.Namespace)
	if kind, name, ok := strings.Cut(pod.Owner, "/"); ok {
		b.Text(meta, " · ")
		b.Append(meta, p.OpenButton("owner", pod.Owner, playground.Ref{Kind: kind, Namespace: pod.Namespace, Name: name}))
	}
	b.Append(chip, meta)
	badges := b.El("span", "badges", "")
	if pod.QoS != "" {
		qos := b.El("span", "badge qos "+strings.ToLower(pod.QoS), pod.QoS)
		b.Attr(qos, "title", playground.T(p.Lang, "qos", pod.QoS))
		b.Append(badges, qos)
	}
	if pod.Revision != "" {
		rev, class := pod.Revision, "badge rev"
		if pod.Old {
			rev, class = rev+" · "+playground.T(p.Lang, "old"), class+" old"
		}
		b.Append(badges, b.El("span", class, rev))
	}
	b.Append(chip, badges)
	for _, note := range pod.Notes {
		b.Append(chip, b.El("span", "note", note))
	}
	return chip
}

// ClockState fills parent with the clock's state: its words, hidden from screen readers, and
// their spoken form.
func (p *Painter[E]) ClockState(parent E, v playground.View) {
	shown := p.B.El("span", "", v.ClockState)
	p.B.Attr(shown, "aria-hidden", "true")
	p.B.Append(parent, shown)
	p.B.Append(parent, p.B.El("span", "sr-only", v.ClockSpoken))
}

// Due fills parent with what waits on the clock: the line that says the next thing due, in a
// list of the rest (open when it was), and the click that moves time there; or that the
// cluster is settled.
func (p *Painter[E]) Due(parent E, v playground.View, open bool) {
	b := p.B
	if v.Next == nil {
		b.Append(parent, b.El("span", "due-line settled", v.DueLine))
		return
	}
	list := b.El("details", "due-list", "")
	if open {
		b.Attr(list, "open", "")
	}
	b.Append(list, b.El("summary", "due-line", v.DueLine))
	items := b.El("ol", "", "")
	for _, d := range v.Due {
		li := b.El("li", "", "")
		if d.Open != "" {
			ref, _ := playground.OpenRef(d.Open)
			b.Append(li, p.OpenButton("object", d.Object, ref))
			b.Text(li, " ")
		}
		b.Text(li, d.What+" · "+d.At)
		b.Append(items, li)
	}
	b.Append(list, items)
	b.Append(parent, list)
	next := *v.Next
	button := p.Button("due-next", next.Label, "due:next", func() playground.Msg { return playground.RunMsg{Line: next.Command} })
	p.attrs(button, "title", next.Command, "data-command", next.Command)
	b.Append(parent, button)
}

// Picker fills the lesson picker: the sandbox, while the lessons are downloading a disabled
// option that says so, the lessons and the challenges, each kind in a group of its own.
func (p *Painter[E]) Picker(picker E, want playground.Picker) {
	b := p.B
	sandbox := b.El("option", "", playground.T(want.Lang, "lesson.sandbox"))
	b.Attr(sandbox, "value", "")
	b.Append(picker, sandbox)
	if want.Waiting != "" {
		waiting := b.El("option", "", want.Waiting)
		b.Attr(waiting, "disabled", "")
		b.Append(picker, waiting)
	}
	var groups [2]*E // lessons, challenges
	for _, l := range want.Lessons {
		i := 0
		if l.Challenge {
			i = 1
		}
		if groups[i] == nil {
			group := b.El("optgroup", "", "")
			b.Attr(group, "label", playground.T(want.Lang, [2]string{"challenge.lessons", "challenge.group"}[i]))
			b.Append(picker, group)
			groups[i] = &group
		}
		o := b.El("option", "", l.Label)
		b.Attr(o, "value", l.ID)
		b.Append(*groups[i], o)
	}
}

// Speeds fills the speed picker, an option per speed of play, its value its index, the one at
// index selected (View.Speed) selected.
func (p *Painter[E]) Speeds(parent E, selected int) {
	for i, s := range playground.Speeds {
		o := p.B.El("option", "", s.Label)
		p.B.Attr(o, "value", strconv.Itoa(i))
		if i == selected {
			p.B.Attr(o, "selected", "")
		}
		p.B.Append(parent, o)
	}
}

// TimeButton is a timeline button of the time actions, with its label and its command as its
// title.
func (p *Painter[E]) TimeButton(a playground.Action) E {
	b := p.B.El("button", "", a.Label)
	p.attrs(b, "type", "button", "title", a.Command)
	return b
}

// Panes fills the phone's pane switcher, a tab per pane (the one shown in the tab order, the
// others reached by the arrow keys).
func (p *Painter[E]) Panes(parent E, v playground.View) {
	for _, t := range v.Panes {
		pane := t.Pane
		b := p.Button("", t.Label, "pane:"+string(pane), func() playground.Msg { return playground.PaneMsg{Pane: pane} })
		tabIndex := "-1"
		if t.Selected {
			tabIndex = "0"
		}
		p.attrs(b, "role", "tab", "id", "pane-"+string(pane), "aria-selected", strconv.FormatBool(t.Selected), "tabindex", tabIndex)
		p.B.Append(parent, b)
	}
}

// Tabs fills the editor's tab row: a tab per open file or edit, each a tab button and, but for
// the manifest's, a close button.
func (p *Painter[E]) Tabs(parent E, v playground.View) {
	b := p.B
	for i, t := range v.Tabs {
		class := "tab"
		if t.Active {
			class += " active"
		}
		wrap := b.El("span", class, "")
		msg := playground.TabMsg{File: t.File, Edit: t.Edit}
		title := p.Button("tab-title", t.Title, "tab:"+strconv.Itoa(i), func() playground.Msg { return msg })
		p.attrs(title, "role", "tab", "aria-selected", strconv.FormatBool(t.Active), "title", t.Title)
		b.Append(wrap, title)
		if t.Close != "" {
			closeMsg := playground.CloseTabMsg{File: t.File, Edit: t.Edit}
			c := p.Button("tab-close", "×", "close:"+strconv.Itoa(i), func() playground.Msg { return closeMsg })
			p.attrs(c, "aria-label", t.Close, "title", t.Close)
			b.Append(wrap, c)
		}
		b.Append(parent, wrap)
	}
}

// Nodes fills the cluster's element with its node cards (the view as cards; the grid and the
// table are the page's own, drawn once it runs).
func (p *Painter[E]) Nodes(parent E, v playground.View) {
	for _, n := range v.Nodes {
		p.B.Append(parent, p.NodeCard(n))
	}
}

// Placement is a pod's scheduling in the details panel (playground.Placement): its heading, what
// it explains, what the attempt comes to (the conclusion, above the table, in view), a table of
// the nodes, what each score measures (folded; also each plugin's column head's title) and how
// to read the table. A row
// per node: its name first (the column that stays in view while a narrow table scrolls
// sideways), then the filter's verdict — a node that fails gives the plugin and
// kube-scheduler's reasons across the score columns, their gloss and what on the node caused
// them below; one that passes has a score per plugin
// (the columns, headed with each plugin's weight) and the total. Best rows and the pod's own
// node are marked. Each score and total cell carries its column's head (data-label), for a
// phone's style sheet, which lays each row out as a card of labelled lines.
func (p *Painter[E]) Placement(pl *playground.Placement) E {
	b := p.B
	box := b.El("section", "placement", "")
	b.Append(box, b.El("h4", "", pl.Title))
	for _, line := range pl.Lines {
		b.Append(box, b.El("p", "place-line", line))
	}
	if pl.Outcome != "" {
		b.Append(box, b.El("p", "place-outcome", pl.Outcome))
	}
	if len(pl.Rows) > 0 {
		b.Append(box, p.placementTable(pl))
	}
	if pl.More != "" {
		b.Append(box, b.El("p", "place-more", pl.More))
	}
	if pl.Scores != "" {
		b.Append(box, p.scoresHelp(pl))
	}
	if len(pl.Terms) > 0 {
		terms := b.El("ul", "place-terms", "")
		for _, term := range pl.Terms {
			b.Append(terms, b.El("li", "", term))
		}
		b.Append(box, terms)
	}
	return box
}

// placementTable is Placement's table, in a box that scrolls sideways when it is wider.
func (p *Painter[E]) placementTable(pl *playground.Placement) E {
	b := p.B
	scroll := b.El("div", "place-scroll", "")
	p.attrs(scroll, "role", "region", "tabindex", "0", "aria-label", pl.Title)
	table := b.El("table", "place-table", "")
	head := b.El("tr", "", "")
	th := func(parent E, class, text string) E {
		h := b.El("th", class, text)
		b.Attr(h, "scope", "col")
		b.Append(parent, h)
		return h
	}
	th(head, "", pl.Node)
	th(head, "", pl.Filter)
	for _, col := range pl.Plugins {
		h := th(head, "plugin", "")
		if col.Help != "" {
			b.Attr(h, "title", col.Help)
		}
		p.camelCase(h, col.Plugin)
		b.Append(h, b.El("span", "weight", col.Weight))
	}
	if len(pl.Plugins) > 0 {
		th(head, "total", pl.Total)
	}
	thead := b.El("thead", "", "")
	b.Append(thead, head)
	b.Append(table, thead)
	body := b.El("tbody", "", "")
	for _, r := range pl.Rows {
		b.Append(body, p.placementRow(pl, r))
	}
	b.Append(table, body)
	b.Append(scroll, table)
	return scroll
}

// placementRow is one node's row of the table.
func (p *Painter[E]) placementRow(pl *playground.Placement, r playground.PlacementRow) E {
	b := p.B
	class := "passes"
	if r.Plugin != "" {
		class = "fails"
	}
	if r.Best {
		class += " best"
	}
	if r.Here {
		class += " here"
	}
	row := b.El("tr", class, "")
	b.Attr(row, "data-node", r.Node)
	name := b.El("th", "", r.Node)
	b.Attr(name, "scope", "row")
	if r.Marks != "" {
		b.Append(name, b.El("span", "mark", r.Marks))
	}
	b.Append(row, name)
	if r.Plugin != "" {
		verdict := b.El("td", "verdict", "✗ ")
		b.Attr(verdict, "colspan", strconv.Itoa(1+len(pl.Plugins)+min(len(pl.Plugins), 1)))
		b.Append(verdict, b.El("code", "", r.Plugin))
		b.Text(verdict, ": "+r.Reasons)
		if r.Gloss != "" {
			b.Append(verdict, b.El("span", "gloss", r.Gloss))
		}
		if len(r.Causes) > 0 {
			causes := b.El("ul", "causes", "")
			for _, c := range r.Causes {
				b.Append(causes, b.El("li", "", c))
			}
			b.Append(verdict, causes)
		}
		b.Append(row, verdict)
		return row
	}
	b.Append(row, b.El("td", "verdict", pl.Passes))
	for i, col := range pl.Plugins {
		score := ""
		if i < len(r.Scores) {
			score = r.Scores[i]
		}
		cell := b.El("td", "score", score)
		b.Attr(cell, "data-label", col.Plugin+" "+col.Weight)
		b.Append(row, cell)
	}
	if len(pl.Plugins) > 0 {
		total := b.El("td", "total", r.Total)
		b.Attr(total, "data-label", pl.Total)
		b.Append(row, total)
	}
	return row
}

// scoresHelp is what each score plugin of the table measures, folded under its heading: the
// same words as the columns' titles, for a screen without a pointer to hover them.
func (p *Painter[E]) scoresHelp(pl *playground.Placement) E {
	b := p.B
	box := b.El("details", "place-plugins", "")
	b.Append(box, b.El("summary", "", pl.Scores))
	list := b.El("ul", "", "")
	for _, col := range pl.Plugins {
		if col.Help == "" {
			continue
		}
		item := b.El("li", "", "")
		b.Append(item, b.El("code", "", col.Plugin))
		b.Text(item, ": "+col.Help)
		b.Append(list, item)
	}
	b.Append(box, list)
	return box
}

// camelCase appends a plugin's name to parent with a line-break opportunity (wbr) before each
// inner capital, so that a narrow column breaks "NodeResourcesBalancedAllocation" between its
// words, and its text stays the name.
func (p *Painter[E]) camelCase(parent E, name string) {
	start := 0
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			p.B.Text(parent, name[start:i])
			p.B.Append(parent, p.B.El("wbr", "", ""))
			start = i
		}
	}
	p.B.Text(parent, name[start:])
}
