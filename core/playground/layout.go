package playground

import (
	"slices"
	"strconv"
	"strings"
)

// Pane is what a narrow screen (a phone) shows of the page, one at a time, under the timeline:
// the cluster, the YAML editor, the terminal (with the events) or the lesson. A wide screen
// shows them all at once; the model keeps the choice either way, so that a window made narrow
// shows the pane the learner picked.
type Pane string

// The panes, in the order of their tabs.
const (
	ClusterPane  Pane = "cluster"
	YAMLPane     Pane = "yaml"
	TerminalPane Pane = "terminal"
	LessonPane   Pane = "lesson"
)

// PaneView is one tab of the pane switcher (a tablist): its pane, its label and whether it is
// the one shown.
type PaneView struct {
	Pane     Pane
	Label    string
	Selected bool
}

// paneViews are the pane switcher's tabs:
//
//  1. Cluster, YAML and Terminal (the YAML's only where the editor is shown: not in an embed
//     without it), then Lesson in a lesson or while the reference is shown;
//  2. the tab selected is the model's Pane when it is one of them; else (none picked yet, or
//     the Lesson's after the lesson was left) the Lesson's in a lesson and the Cluster's outside
//     one, so that a lesson opens on its text and the sandbox on its cluster.
func paneViews(m Model) []PaneView {
	panes := []Pane{ClusterPane, YAMLPane, TerminalPane}
	if m.Embed != nil && !m.Embed.Editor {
		panes = []Pane{ClusterPane, TerminalPane}
	}
	lesson := m.Tutor != nil || m.Reference
	if lesson {
		panes = append(panes, LessonPane)
	}
	shown := m.Pane
	if !slices.Contains(panes, shown) {
		shown = panes[0]
		if lesson {
			shown = LessonPane
		}
	}
	labels := map[Pane]string{ClusterPane: "cluster", YAMLPane: "editor", TerminalPane: "terminal", LessonPane: "pane.lesson"}
	out := make([]PaneView, len(panes))
	for i, p := range panes {
		out[i] = PaneView{Pane: p, Label: T(m.Lang, labels[p]), Selected: p == shown}
	}
	return out
}

// PaneMsg shows a pane on a narrow screen; a pane the switcher does not offer (the Lesson
// outside a lesson) is refused.
type PaneMsg struct{ Pane Pane }

func (PaneMsg) during() during { return keepTick }
func (msg PaneMsg) update(m Model) Model {
	if slices.ContainsFunc(paneViews(m), func(v PaneView) bool { return v.Pane == msg.Pane }) {
		m.Pane = msg.Pane
	}
	return m
}

// PaneKey is the message of a key pressed on the pane switcher's tabs, as the WAI-ARIA tabs
// pattern has it (a tab is shown as it gets the focus):
//
//  1. ArrowRight shows the next tab's pane, ArrowLeft the previous one's, each wrapping round;
//  2. Home shows the first, End the last;
//
// ok is false for any other key, which is the browser's (Tab leaves the tablist).
func PaneKey(key string, tabs []PaneView) (msg Msg, ok bool) {
	if len(tabs) == 0 {
		return nil, false
	}
	at := max(0, slices.IndexFunc(tabs, func(v PaneView) bool { return v.Selected }))
	switch key {
	case "ArrowRight":
		at = (at + 1) % len(tabs)
	case "ArrowLeft":
		at = (at + len(tabs) - 1) % len(tabs)
	case "Home":
		at = 0
	case "End":
		at = len(tabs) - 1
	default:
		return nil, false
	}
	return PaneMsg{Pane: tabs[at].Pane}, true
}

// Drawer is the terminal's drawer on a wide screen, docked at the bottom across the page: its
// height, in percent of the window's (0 for the default), and whether it is folded to its title
// bar. It is the learner's setting on this device, kept apart from the session (DrawerKey), and
// it outlives a session replaced, as the language does.
type Drawer struct {
	Height int
	Folded bool
}

// The drawer's heights, in percent of the window's: the cluster and the editor keep at least a
// quarter of the window above it.
const (
	MinDrawer     = 15
	MaxDrawer     = 70
	DefaultDrawer = 35
	drawerStep    = 5
)

// height is the drawer's height in percent: the default for none set, else within
// [MinDrawer, MaxDrawer].
func (d Drawer) height() int {
	if d.Height == 0 {
		return DefaultDrawer
	}
	return max(MinDrawer, min(MaxDrawer, d.Height))
}

// String is the drawer as stored: its height, and " folded" when it is.
func (d Drawer) String() string {
	s := strconv.Itoa(d.height())
	if d.Folded {
		s += " folded"
	}
	return s
}

// ReadDrawer reads a drawer as String stores it; anything else is the default drawer.
func ReadDrawer(stored string) Drawer {
	height, folded := strings.CutSuffix(stored, " folded")
	n, err := strconv.Atoi(height)
	if err != nil || n < MinDrawer || n > MaxDrawer {
		return Drawer{}
	}
	return Drawer{Height: n, Folded: folded}
}

// DrawerView is the drawer as the page draws it: its height in percent of the window's,
// whether it is folded, its handle's readable value and its fold button's label.
type DrawerView struct {
	Height      int
	Folded      bool
	Value, Fold string
}

// RenderDrawer is the drawer's part of the View alone, which the page draws while the drawer is
// dragged without rendering the rest.
func RenderDrawer(m Model) DrawerView {
	d := m.Drawer
	v := DrawerView{Height: d.height(), Folded: d.Folded, Value: T(m.Lang, "drawer.value", d.height()), Fold: T(m.Lang, "drawer.fold")}
	if d.Folded {
		v.Value, v.Fold = T(m.Lang, "drawer.folded"), T(m.Lang, "drawer.unfold")
	}
	return v
}

// DrawerMsg sets the drawer (a drag of its handle, or its fold button): the height is kept
// within [MinDrawer, MaxDrawer].
type DrawerMsg struct{ Drawer Drawer }

func (DrawerMsg) during() during { return keepTick }
func (msg DrawerMsg) update(m Model) Model {
	d := msg.Drawer
	d.Height = d.height()
	m.Drawer = d
	return m
}

// HandleKey is the message of a key pressed on the drawer's handle, a window splitter as the
// WAI-ARIA pattern has it (its value is the drawer's height):
//
//  1. ArrowUp makes the drawer a step taller, ArrowDown a step shorter, unfolding it;
//  2. Home makes it the shortest, End the tallest, unfolding it;
//  3. Enter folds it, or unfolds it to its height before.
//
// ok is false for any other key.
func HandleKey(key string, d Drawer) (msg Msg, ok bool) {
	h := d.height()
	switch key {
	case "ArrowUp":
		h += drawerStep
	case "ArrowDown":
		h -= drawerStep
	case "Home":
		h = MinDrawer
	case "End":
		h = MaxDrawer
	case "Enter":
		return DrawerMsg{Drawer: Drawer{Height: h, Folded: !d.Folded}}, true
	default:
		return nil, false
	}
	return DrawerMsg{Drawer: Drawer{Height: h}}, true
}
