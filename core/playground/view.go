package playground

import (
	"encoding/json"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/kubelet"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// View is the page as plain data, in the model's language.
type View struct {
	Lang          Lang
	Clock         string
	Nodes         []NodeView
	Pending       []PodView // pods no node has taken
	Editor        string    // the open tab's text
	Tabs          []TabView // the editor's tabs
	Editing       bool      // the edit's tab is open: Save finishes it, Apply is Save
	Hint          string    // what Apply (or Save) does with the open tab
	Problems      []string  // the apply's problems, "line N: message" where the line is known (kubectl's output is the terminal's)
	Diagnostics   string    // the same problems and the lints, for the code editor to mark at their lines: JSON, [{"line", "column", "message", "severity"}]
	Lints         []string  // warnings on the open tab's text before it is applied (see lints), "line N: message" where the line is known
	Terminal      []TermLine
	Input         string
	Prompt        string   // the prompt's sign: "$", or ">" in a here-document
	Cluster       string   // the sandbox's starting cluster (Clusters), "" in a lesson
	Time          []Action // the timeline's buttons
	AddNode       Action
	Playing       bool
	Speed         int
	Step, Steps   int  // where the timeline stands, of how many steps
	Axis          Axis // the time axis (see axis.go)
	Notice        string
	Share         string         // with the notice of a share link made, the link's fragment (ShareFragment)
	NoticeActions []NoticeAction // the notice's buttons
	MustChoose    bool           // the notice waits for a choice of its buttons: no Dismiss
	Unsaved       string         // says that the session is not being saved, or ""
	Details       *Details       // the panel on the selected object, if it still exists
	Picker        Picker
	Tutor         *TutorView     // the lesson panel, in a lesson
	Reference     *ReferenceView // every lesson's recap, when asked for
	Events        Section        // the events list, filtered
	Table         bool           // show the cluster as a table
	Compact       bool           // too many nodes for cards: a grid of cells, without their pods
	MorePending   int            // pending pods beyond the lane's maxPending
	// The clock's state and what waits on it (see due.go): the state beside the clock ("▶ 10×",
	// "❚❚ paused") and its spoken form, what is due (the earliest maxDue), the line that says the
	// next thing due or that the cluster is settled, and the click that moves time there (nil
	// when nothing is due).
	ClockState, ClockSpoken string
	Due                     []DueView
	DueLine                 string
	Next                    *Action
	Panes                   []PaneView // a narrow screen's pane switcher, the pane shown selected
	Drawer                  DrawerView // the terminal's drawer on a wide screen
	// Embed is, with the notice of "Embed this", the embed's fragment (EmbedOf).
	Embed string
}

// compactNodes is how many nodes the cards show; a larger cluster is drawn as a grid of cells.
const compactNodes = 48

// maxPending is how many pending pods the lane shows; MorePending counts the rest.
const maxPending = 100

// maxEvents is how many events the list shows, the newest.
const maxEvents = 200

// Details is the panel on one object: what the page explains about it (why it is where it is,
// its timers) and what kubectl shows of it, each with the command that shows it.
type Details struct {
	Ref       Ref
	Why       []string
	Placement *Placement // a pod's: how the scheduler places it, node by node (see placement)
	Sections  []Section
	Actions   []Action // a node's fault menu, when the compact grid has none
}

// Section is one kubectl command's output in the details panel.
type Section struct {
	Command, Text string
}

// NodeView is one node card.
type NodeView struct {
	Name, Status, Roles string
	Taints              []string
	Pods                []PodView
	Actions             []Action
	Daemons             []string // for each DaemonSet, whether it wants a pod here and why
	PodCount            int      // the pods bound to it (the compact grid does not list them)
	Conditions          []string // the conditions not as a healthy node has them (Ready=Unknown, MemoryPressure)
	Faults              []string // the faults `sim fail` gave its machine and no `sim recover` cleared yet (kubelet.ActiveFaults)
	Usage               []Usage  // cpu and memory requested of allocatable (cards only)
	Notes               []string // what waits on the clock for the node (nodeNotes; cards only)
	Ghosts              []Ghost  // the DaemonSets that run no pod here, and why (cards only)
}

// StatusClass is the class of a node's STATUS: "ready", "notready" or "unknown", and
// "cordoned" when SchedulingDisabled. The page asks only when a status it draws changed (the
// grid of a large cluster is redrawn on every tick of play).
func StatusClass(status string) string {
	class := strings.ToLower(strings.SplitN(status, ",", 2)[0])
	if strings.Contains(status, "SchedulingDisabled") {
		class += " cordoned"
	}
	return class
}

// diagnostic is one problem of an apply ("error") or a lint ("warning"), where the code editor
// marks it (Line and Column are 0 when unknown).
type diagnostic struct {
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

// Action is a button's (or a menu item's) label and the command it runs in the terminal.
type Action struct {
	Label, Command string
}

// TimeActions are the timeline's buttons.
func TimeActions(l Lang) []Action {
	return []Action{
		{T(l, "next"), "sim step"},
		{"+10s", "sim advance 10s"},
		{"+1m", "sim advance 1m"},
		{"+5m", "sim advance 5m"},
	}
}

// OpenKey is the key (data-key) of the buttons that open the details panel on ref, "open KIND
// NS/NAME"; OpenRef reads it back.
func OpenKey(ref Ref) string { return "open " + ref.Kind + " " + ref.Namespace + "/" + ref.Name }

func OpenRef(key string) (Ref, bool) {
	rest, ok := strings.CutPrefix(key, "open ")
	kind, object, ok2 := strings.Cut(rest, " ")
	namespace, name, ok3 := strings.Cut(object, "/")
	return Ref{Kind: kind, Namespace: namespace, Name: name}, ok && ok2 && ok3
}

// addNode is the button that adds a worker: the first free name of hd1, hd2, hd3, …
func addNode(l Lang, c *cluster.Cluster) Action {
	count := 0
	for range c.AllNodes() {
		count++
	}
	taken := make([]bool, count+2) // of count nodes, one of hd1 … hd(count+1) is free
	for n := range c.AllNodes() {
		number, ok := strings.CutPrefix(n.Name, "hd")
		if i, err := strconv.Atoi(number); ok && err == nil && i >= 1 && i < len(taken) && strconv.Itoa(i) == number {
			taken[i] = true
		}
	}
	i := 1
	for taken[i] {
		i++
	}
	return Action{T(l, "add-node"), "sim add-node hd" + strconv.Itoa(i)}
}

// PodView is one pod chip: its owner (the top one: a Deployment rather than its ReplicaSet, as
// describe's "Controlled By" names them) with the owner's colour (-1 for none), the revision of
// its template and whether that is an old one, and notes on its timers and fate (see podNotes).
type PodView struct {
	Name, Namespace, Owner, Status, Ready, QoS string
	Colour                                     int
	Revision                                   string
	Old                                        bool
	Notes                                      []string
}

// Render turns the model into a View.
func Render(m Model) View {
	c, l := m.Sim.C, m.Lang
	v := View{Lang: l, Clock: T(l, "clock.value", humanSince(c.Now().Sub(cluster.Epoch))), Editor: m.tabText(), Tabs: m.tabViews(), Editing: m.Editing && m.Edit != nil,
		Terminal: m.Terminal.Lines, Input: m.Terminal.Input, Prompt: m.Terminal.prompt(), Cluster: m.startCluster(), Time: TimeActions(l), AddNode: addNode(l, c),
		Playing: m.Playing, Speed: m.Speed, Step: m.History.Pos, Steps: len(m.History.Steps), Axis: axisOf(l, &m.History)}
	v.Notice = noticeText(l, m.Notice, m.NoticeArg)
	v.NoticeActions, v.MustChoose = noticeActionsOf(m), mustChoose[m.Notice]
	switch {
	case v.Editing:
		v.Hint = T(l, "save.hint")
	case m.Open != "":
		v.Hint = T(l, "apply.file.hint", m.Open, m.Open)
	default:
		v.Hint = T(l, "apply.hint")
	}
	if m.Unsaved {
		v.Unsaved = T(l, "unsaved")
	}
	switch m.Notice {
	case "share.done", "share.lesson":
		v.Share = ShareFragment(sharedOf(m))
	case "embed.done":
		v.Embed = EmbedOf(m).Fragment()
	}
	v.Problems, v.Lints, v.Diagnostics = EditorMarks(m)
	nodes := c.Nodes()
	v.Compact, v.Table = len(nodes) > compactNodes, m.Table
	byNode := map[string][]PodView{}
	podsOn := map[string][]*api.Pod{}
	podCount := make(map[string]int, len(nodes))
	revs := &revisions{c: c}
	for p := range c.AllPods() {
		switch {
		case p.Spec.NodeName == "" && len(v.Pending) < maxPending:
			v.Pending = append(v.Pending, podView(l, c, revs, p))
		case p.Spec.NodeName == "":
			v.MorePending++
		case v.Compact:
			podCount[p.Spec.NodeName]++
		default:
			byNode[p.Spec.NodeName] = append(byNode[p.Spec.NodeName], podView(l, c, revs, p))
			if p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
				podsOn[p.Spec.NodeName] = append(podsOn[p.Spec.NodeName], p)
			}
		}
	}
	v.Nodes = make([]NodeView, 0, len(nodes))
	for _, n := range nodes {
		nv := NodeView{Name: n.Name, Status: kubectl.NodeStatus(n), Pods: byNode[n.Name], PodCount: len(byNode[n.Name]) + podCount[n.Name]}
		if !v.Compact || v.Table { // a cell shows the status and the pods alone
			nv.Roles, nv.Conditions = kubectl.NodeRoles(n), nodeConditions(n)
			for _, t := range n.Spec.Taints {
				nv.Taints = append(nv.Taints, t.String())
			}
		}
		selected := m.Selected == (Ref{Kind: "Node", Name: n.Name})
		if !v.Compact || selected {
			machine, _ := c.Machine(n.Name)
			nv.Actions, nv.Daemons, nv.Faults = nodeActions(l, n, machine), daemonReasons(l, c, n), kubelet.ActiveFaults(machine)
		}
		if !v.Compact {
			nv.Usage, nv.Notes = nodeUsage(n, podsOn[n.Name]), nodeNotes(l, c, n)
			if !m.examining() {
				nv.Ghosts = ghosts(l, c, n, nv.Pods)
			}
		}
		v.Nodes = append(v.Nodes, nv)
		if selected {
			v.Details = &Details{Ref: m.Selected, Why: nv.Daemons, Sections: sections(m.Sim, "kubectl describe node "+n.Name)}
			if v.Compact {
				v.Details.Actions = nv.Actions // the cells have no menus
			}
		}
	}
	if sel := m.Selected; sel.Kind != "Node" {
		v.Details = details(l, m.Sim, sel)
	}
	due := dueOf(m.Sim)
	v.ClockState, v.ClockSpoken = clockState(l, m, due)
	v.Due, v.DueLine, v.Next = dueView(l, m.Sim, due)
	v.Events = events(m.Sim, m.Events)
	v.Picker = RenderPicker(m)
	v.Tutor = tutorView(m)
	v.Reference = referenceView(m)
	v.Panes, v.Drawer = paneViews(m), RenderDrawer(m)
	return v
}

// EditorMarks are what the editor's pane marks on the open tab's text: the last apply's
// problems and the lints of the text ("line N: message" where the line is known; none during a
// challenge, see examining), and both for
// the code editor to mark at their lines (View.Diagnostics). Render has them; the page asks for
// them alone as the learner types, which renders nothing else.
func EditorMarks(m Model) (problems, lints []string, diagnostics string) {
	l := m.Lang
	marks := []diagnostic{}
	at := func(line int, message string) string {
		if line > 0 {
			return T(l, "line", line, message)
		}
		return message
	}
	for _, pr := range m.Result.Problems {
		marks = append(marks, diagnostic{pr.Line, pr.Column, pr.Message, "error"})
		problems = append(problems, at(pr.Line, pr.Message))
	}
	var found []Lint
	if !m.examining() {
		found = editorLints(m, m.tabText())
	}
	for _, lint := range found {
		marks = append(marks, diagnostic{lint.Line, 0, lint.Message, "warning"})
		lints = append(lints, at(lint.Line, lint.Message))
	}
	data, _ := json.Marshal(marks) // ints and strings always marshal
	return problems, lints, string(data)
}

// events is the events list: `kubectl events -A`, of one type if the filter says so, keeping
// the header and the newest maxEvents events whose OBJECT column contains the filter's object.
func events(s *sim.Sim, f EventFilter) Section {
	now := s.C.Now()
	if m := lastEvents; m.filter == f && m.now.Equal(now) && m.same(s.C.Each("Event")) {
		return m.section
	}
	section := formatEvents(s, f)
	lastEvents = eventsMemo{stored: slices.Collect(s.C.Each("Event")), now: now, filter: f, section: section}
	return section
}

// eventsMemo is the events list last rendered and what it was made from: the stored events
// (which are never changed in place, and which the memo keeps alive, so the same pointers mean
// the same events), the clock (the ages) and the filter. Most renders — a keystroke, a panel
// opened, a command that records no event — show the same list, and formatting thousands of
// events is most of a render's cost in a large cluster.
type eventsMemo struct {
	stored  []api.Object
	now     time.Time
	filter  EventFilter
	section Section
}

// same reports whether the stored events are the ones the memo was made from.
func (m eventsMemo) same(stored iter.Seq[api.Object]) bool {
	i := 0
	for e := range stored {
		if i == len(m.stored) || m.stored[i] != e {
			return false
		}
		i++
	}
	return i == len(m.stored)
}

// lastEvents is the one memo (the page renders one model at a time).
var lastEvents eventsMemo

// formatEvents makes the events list (kubectl.EventLines formats only the lines it shows).
func formatEvents(s *sim.Sim, f EventFilter) Section {
	cmd := "kubectl events -A"
	if f.Type != "" {
		cmd += " --types=" + f.Type
	}
	want := strings.ToLower(f.Object)
	lines, message := kubectl.EventLines(s, f.Type, func(object string) bool { return strings.Contains(strings.ToLower(object), want) }, maxEvents)
	if message != "" {
		return Section{Command: cmd, Text: message}
	}
	return Section{Command: cmd, Text: strings.TrimRight(strings.Join(lines, ""), "\n")}
}

// details is the panel on a pod or a workload, or nil when it is gone:
//
//  1. a pod: why it is where it is (podNotes), how the scheduler places it (placement), its
//     YAML and its events;
//  2. a DaemonSet: for every node whether it wants a pod there and why, describe and the
//     rollout history;
//  3. a Deployment or a ReplicaSet: describe (and a Deployment's rollout history).
func details(l Lang, s *sim.Sim, ref Ref) *Details {
	obj := s.C.Get(ref.Kind, cluster.Key{Namespace: ref.Namespace, Name: ref.Name})
	if obj == nil {
		return nil
	}
	d := &Details{Ref: ref}
	ns := " -n " + ref.Namespace
	switch o := obj.(type) {
	case *api.Pod:
		d.Why = podNotes(l, s.C, o)
		d.Placement = placement(l, s.C, o)
		d.Sections = sections(s, "kubectl get pod "+o.Name+ns+" -o yaml", "kubectl events"+ns+" --for pod/"+o.Name)
	case *api.DaemonSet:
		d.Why = nodeReasons(l, s.C, o)
		d.Sections = sections(s, "kubectl describe ds "+o.Name+ns, "kubectl rollout history ds/"+o.Name+ns)
	case *api.Deployment:
		d.Sections = sections(s, "kubectl describe deploy "+o.Name+ns, "kubectl rollout history deploy/"+o.Name+ns)
	case *api.ReplicaSet:
		d.Sections = sections(s, "kubectl describe rs "+o.Name+ns)
	default:
		return nil
	}
	return d
}

// sections runs read-only kubectl commands for the details panel.
func sections(s *sim.Sim, commands ...string) []Section {
	var out []Section
	for _, cmd := range commands {
		r := shell.Run(s, cmd, "")
		out = append(out, Section{Command: cmd, Text: strings.TrimRight(r.Out+r.Err, "\n")})
	}
	return out
}

func humanSince(d time.Duration) string {
	return d.Round(time.Second).String()
}

func podView(l Lang, c *cluster.Cluster, revs *revisions, p *api.Pod) PodView {
	st := kubectl.PodStatus(p, c.Now())
	pv := PodView{Name: p.Name, Namespace: p.Namespace, QoS: p.Status.QOSClass, Ready: st.Ready, Status: st.Status,
		Notes: podNotes(l, c, p)}
	pv.Owner = topOwner(c, p)
	pv.Colour = ownerColour(pv.Owner)
	pv.Revision, pv.Old = revs.of(p)
	return pv
}

// topOwner is the pod's top owner, as describe's "Controlled By" names it ("DaemonSet/fluentd"):
// a Deployment rather than its ReplicaSet; "" for a pod no controller owns.
func topOwner(c *cluster.Cluster, p *api.Pod) string {
	owner := kubectl.ControlledBy(&p.ObjectMeta)
	if name, ok := strings.CutPrefix(owner, "ReplicaSet/"); ok {
		if rs, ok := c.Get("ReplicaSet", cluster.Key{Namespace: p.Namespace, Name: name}).(*api.ReplicaSet); ok {
			if top := kubectl.ControlledBy(&rs.ObjectMeta); top != "" {
				owner = top
			}
		}
	}
	return owner
}

// NoticeAction is a button of the notice: its label, and what it does — a message for Update
// (Msg), or one of the page's own actions (Page): "export-session" downloads the session as a
// file, "download-unreadable" the saved session that could not be read, "save-over" lets the
// page save over it.
type NoticeAction struct {
	Label string
	Msg   Msg
	Page  string
}

// noticeActions are the buttons of each notice that has some, in order; "back" is shown only
// when a session is kept (Model.Kept), and names it.
var noticeActions = map[string][]string{
	"link.kept": {"back"}, "kept.lesson": {"back"}, "kept.reset": {"back"}, "kept.cluster": {"back"}, "kept.file": {"back"}, "kept.tab": {"back"},
	"kept.other": {"back"}, "back.done": {"back"}, "sandbox.back": {"back"}, "lesson.resumed": {"back"}, "saved.bad": {"download-unreadable", "back"},
	"session.cut":    {"back"},
	"saved.bad.held": {"download-unreadable", "save-over", "back"},
	"save.big":       {"export-session"}, "save.full": {"export-session"}, "save.off": {"export-session"}, "save.editor": {"export-session"},
	"tab.changed": {"follow", "keep"},
}

// mustChoose are the notices that wait for the learner's choice: they cannot be dismissed.
var mustChoose = map[string]bool{"tab.changed": true, "saved.bad.held": true}

// noticeActionsOf is the notice's buttons.
func noticeActionsOf(m Model) []NoticeAction {
	var out []NoticeAction
	for _, do := range noticeActions[m.Notice] {
		a := NoticeAction{Label: T(m.Lang, "action."+do)}
		switch do {
		case "back":
			if len(m.Kept) == 0 {
				continue
			}
			a.Label, a.Msg = keptLabel(m, m.Kept[0]), BackMsg{}
		case "follow":
			a.Msg = FollowMsg{}
		case "keep":
			a.Msg = KeepMsg{}
		default:
			a.Page = do
		}
		out = append(out, a)
	}
	return out
}

// keptLabel names a kept session on its button: "Back to your sandbox (3 steps)", "Back to
// lesson 7 · Node failure".
func keptLabel(m Model, k Kept) string {
	if l, ok := m.lib.findLesson(k.Lesson); ok && k.Lesson != "" {
		return T(m.Lang, "action.back.lesson", heading(m.Lang, l))
	}
	if k.Lesson != "" {
		return T(m.Lang, "action.back.lesson", k.Lesson)
	}
	if k.Steps == 1 {
		return T(m.Lang, "action.back.sandbox.one")
	}
	return T(m.Lang, "action.back.sandbox", k.Steps)
}

// noticeText is a notice's text by its key, with its argument if it has one; "" for none.
func noticeText(l Lang, key, arg string) string {
	switch {
	case key != "" && arg != "":
		return T(l, key, arg)
	case key != "":
		return T(l, key)
	}
	return ""
}
