// Command wasm is DaemonLab's browser front end: a thin adapter that turns DOM events into
// messages, runs them through update against one simulated cluster, and renders view's plain
// data. app.go holds the model, update and view and is tested natively; dom.go and main.go
// (js/wasm only) touch the page.
package main

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
	"daemonlab/lessons"
)

// Model is everything the page shows: the cluster and its history, the editor's text and the
// last apply, the terminal, the timeline's play state, the language and a notice for the
// learner.
type Model struct {
	Sim       *sim.Sim
	History   History
	Editor    string
	Result    kubectl.Result
	Terminal  Terminal
	Playing   bool
	Speed     int // index into Speeds
	Lang      Lang
	Notice    string // the key of a message for the learner (see texts), or ""
	NoticeArg string // what the message's %s stands for, if it has one
	Selected  Ref    // the object the details panel shows; the zero Ref for none
	Events    EventFilter
	Table     bool           // the cluster as a table rather than cards
	Tutor     *Tutor         // the lesson being taken; nil in the sandbox
	Progress  map[string]int // steps completed, by lesson ID (kept apart from the session)
	// LessonsLater has the lesson picker list only the first LessonsListed lessons: the page
	// opens listing none (reading the lessons would be most of its start-up) and after its first
	// paint reads them a lesson at a time, a task each, so that it answers input meanwhile
	// (ShowLessonsMsg); it clears LessonsLater once they are all listed.
	LessonsLater  bool
	LessonsListed int
	// Chunk has the clock moved a piece at a time: a play tick, or `sim advance` typed or from
	// the timeline's buttons, becomes a Tick under way that WorkMsg carries on, so that the page
	// paints and handles input while a large cluster moves. The page sets it; without it (the
	// tests) the clock moves at once.
	Chunk bool
	// Tick is the clock moving, under way; nil when it is not.
	Tick *Tick
}

// Tick is the clock moving, under way: its step, the run doing it, the cluster's write count
// before it (a run that wrote nothing is no step of the history), and whether it is a play tick
// (which extends a last step that is the same).
type Tick struct {
	Step   Step
	Run    *sim.Run
	writes int64
	play   bool
}

// EventFilter narrows the events list: Type is "" (all), Normal or Warning; Object keeps the
// events whose object (kind/name, as kubectl events prints it) contains it.
type EventFilter struct {
	Type, Object string
}

// Ref names an object the learner clicked: a Node or a Pod.
type Ref struct {
	Kind, Namespace, Name string
}

// Terminal is the terminal pane: what it printed, the lines typed (oldest first), where ↑/↓
// are in that history, and the line being typed.
type Terminal struct {
	Lines   []TermLine
	History []string
	Pos     int // len(History) when not browsing it
	Input   string
}

// TermLine is one block of the terminal: a command echoed, or what it printed (Err for standard
// error).
type TermLine struct {
	Text         string
	Command, Err bool
}

// maxTermLines bounds the scrollback.
const maxTermLines = 500

// startupTime is how long the start state lets the cluster run after applying the start
// manifest, so that its pods are Running when the page opens.
const startupTime = 30 * time.Second

// Speed is one speed of play: each tick of the page's timer (TickInterval of real time) moves
// the clock by Advance.
type Speed struct {
	Label   string
	Advance time.Duration
}

// Command is a tick's step in the history: `sim advance` by the speed's Advance.
func (s Speed) Command() string { return "sim advance " + s.Advance.String() }

// TickInterval is how often play ticks, in milliseconds of real time.
const TickInterval = 250

// Speeds are play's speeds; DefaultSpeed plays a 300s toleration out in half a minute.
var Speeds = []Speed{
	{"1×", 250 * time.Millisecond},
	{"10×", 2500 * time.Millisecond},
	{"30×", 7500 * time.Millisecond},
	{"60×", 15 * time.Second},
}

// DefaultSpeed is 10×.
const DefaultSpeed = 1

// NewModel returns the playground's start state: the default cluster with the start manifest
// applied and 30 simulated seconds run, in English.
func NewModel() (Model, error) {
	s, err := sim.New(1, sim.Default)
	if err != nil {
		return Model{}, err
	}
	r := kubectl.ApplyAll(s, []byte(lessons.Start), "STDIN", "default")
	if r.Err != "" {
		return Model{}, fmt.Errorf("the start manifest does not apply: %s", r.Err)
	}
	s.Advance(startupTime)
	return Model{Sim: s, History: newHistory(s.C), Editor: lessons.Start, Speed: DefaultSpeed, Lang: English}, nil
}

// Recover runs f and turns a panic inside it into a call of report, so that no panic crosses the
// JavaScript boundary (after a panic in a js.FuncOf callback the Go program is gone for good).
// It reports whether f panicked.
func Recover(f func(), report func(any)) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
			report(r)
		}
	}()
	f()
	return false
}

// ApplyMsg asks to apply the editor's text.
type ApplyMsg struct{ Text string }

// RunMsg runs a command line in the terminal, as typed or as a button's command (echoed, so that
// learners see the command behind every button).
type RunMsg struct{ Line string }

// CompleteMsg completes the terminal's line (Tab): one completion replaces it, several are
// listed.
type CompleteMsg struct{ Line string }

// HistoryMsg moves through the terminal's history: -1 older (↑), +1 newer (↓).
type HistoryMsg struct{ Step int }

// ClearMsg clears the terminal (Ctrl+L).
type ClearMsg struct{}

// PlayMsg starts or stops play; SpeedMsg picks its speed; TickMsg is one tick of the page's
// timer while playing: it moves the clock by the speed's amount (with Chunk, it begins that
// Tick). WorkMsg carries a Tick under way on (a play tick, or a `sim advance`) until Enough
// says so (the page gives each a few milliseconds) or it is over. Stopping play lets a Tick
// under way finish; a message that only changes the view leaves it under way; one that moves
// through the history or starts afresh drops it (the state it leaves is replaced); any other
// first finishes it.
type (
	PlayMsg  struct{ On bool }
	SpeedMsg struct{ Index int }
	TickMsg  struct{}
	WorkMsg  struct{ Enough func() bool }
)

// UndoMsg and RedoMsg move one step back or forward in the history; SeekMsg moves to any step
// (the scrubber). Each stops play.
type (
	UndoMsg struct{}
	RedoMsg struct{}
	SeekMsg struct{ Pos int }
)

// ResetMsg starts afresh from the start state, or the lesson's (the page asks for confirmation
// first).
type ResetMsg struct{}

// LangMsg switches the page's language.
type LangMsg struct{ Lang Lang }

// SelectMsg opens the details panel on an object; the zero Ref closes it.
type SelectMsg struct{ Ref Ref }

// EventsMsg sets the events list's filter.
type EventsMsg struct{ Filter EventFilter }

// TableMsg shows the cluster as a table (for screen readers, and for a quick overview) or as
// cards.
type TableMsg struct{ On bool }

// ShowLessonsMsg lists one more lesson in the picker (see Model.LessonsLater).
type ShowLessonsMsg struct{}

// NoticeMsg shows a message to the learner by its key (a damaged link, a saved session that
// could not be read, a share link made); an empty key dismisses it.
type NoticeMsg struct{ Key string }

// Update applies a message to the model. Apply is all or nothing: when any object fails, the
// cluster is left as it was and the result says why. Every command that changes the cluster
// becomes a step of the history. In a lesson, what the learner runs is recorded and the step's
// goal checked after every message.
func Update(m Model, msg any) Model {
	if m.Tutor != nil {
		t := *m.Tutor // a Model is a value: its tutor is copied, not shared
		t.Typed = slices.Clone(t.Typed)
		m.Tutor = &t
	}
	switch msg.(type) {
	case PlayMsg, SpeedMsg, TickMsg, WorkMsg, SelectMsg, TableMsg, EventsMsg, LangMsg, NoticeMsg, ShowLessonsMsg:
	case UndoMsg, RedoMsg, SeekMsg, ResetMsg, LessonMsg, OpenMsg:
		m.Tick = nil
	default:
		m.work(func() bool { return false })
	}
	if next, ok := updateLesson(m, msg); ok {
		next.observe("")
		return next
	}
	m = update(m, msg)
	line := ""
	switch msg := msg.(type) {
	case RunMsg:
		line = strings.TrimSpace(msg.Line)
	case ApplyMsg:
		line = "kubectl apply -f -"
	}
	m.observe(line)
	return m
}

// update applies the messages of the playground itself.
func update(m Model, msg any) Model {
	t := &m.Terminal
	switch msg := msg.(type) {
	case ApplyMsg:
		m.Editor = msg.Text
		m.Result = m.do(Step{Apply: msg.Text})
	case RunMsg:
		line := strings.TrimSpace(msg.Line)
		t.Input = ""
		if line == "" {
			break
		}
		if n := len(t.History); n == 0 || t.History[n-1] != line {
			t.History = append(t.History, line)
		}
		t.Pos = len(t.History)
		t.print(TermLine{Text: "$ " + line, Command: true})
		if line == "clear" {
			t.Lines = nil
			break
		}
		if d, ok := advanceOf(line); ok && m.Chunk {
			m.Tick = &Tick{Step: Step{Run: line}, Run: m.Sim.Begin(d), writes: m.Sim.C.Writes()}
			break
		}
		r := m.do(Step{Run: line})
		if r.Out != "" {
			t.print(TermLine{Text: strings.TrimSuffix(r.Out, "\n")})
		}
		if r.Err != "" {
			t.print(TermLine{Text: strings.TrimSuffix(r.Err, "\n"), Err: true})
		}
	case CompleteMsg:
		t.Input = msg.Line
		switch options := shell.Complete(m.Sim, msg.Line); len(options) {
		case 0:
		case 1:
			t.Input = options[0]
			if !strings.ContainsAny(options[0][len(options[0])-1:], "=./") {
				t.Input += " " // a whole word: on to the next
			}
		default:
			t.Input = commonPrefix(options)
			t.print(TermLine{Text: "$ " + msg.Line, Command: true})
			var words []string
			for _, o := range options {
				words = append(words, lastWord(o))
			}
			t.print(TermLine{Text: strings.Join(words, "  ")})
		}
	case HistoryMsg:
		t.Pos = max(0, min(len(t.History), t.Pos+msg.Step))
		t.Input = ""
		if t.Pos < len(t.History) {
			t.Input = t.History[t.Pos]
		}
	case ClearMsg:
		t.Lines = nil
	case PlayMsg:
		m.Playing = msg.On
	case SpeedMsg:
		if msg.Index >= 0 && msg.Index < len(Speeds) {
			m.Speed = msg.Index
		}
	case TickMsg:
		if m.Playing && m.Tick == nil {
			sp := Speeds[m.Speed]
			m.Tick = &Tick{Step: Step{Run: sp.Command()}, Run: m.Sim.Begin(sp.Advance), writes: m.Sim.C.Writes(), play: true}
			if !m.Chunk {
				m.work(func() bool { return false })
			}
		}
	case WorkMsg:
		m.work(msg.Enough)
	case UndoMsg:
		m.seek(m.History.Pos - 1)
	case RedoMsg:
		m.seek(m.History.Pos + 1)
	case SeekMsg:
		m.seek(msg.Pos)
	case ResetMsg:
		lesson := ""
		if m.Tutor != nil {
			lesson = m.Tutor.Lesson.ID
		}
		m, _ = updateLesson(m, LessonMsg{ID: lesson}) // the sandbox's or the lesson's start again
	case LangMsg:
		if slices.Contains(Langs, msg.Lang) {
			m.Lang = msg.Lang
		}
	case ShowLessonsMsg:
		if m.LessonsLater {
			m.LessonsListed++
			m.LessonsLater = m.LessonsListed < lessonCount()
		}
	case NoticeMsg:
		m.Notice, m.NoticeArg = msg.Key, ""
	case SelectMsg:
		m.Selected = msg.Ref
	case EventsMsg:
		if slices.Contains([]string{"", "Normal", "Warning"}, msg.Filter.Type) {
			m.Events = msg.Filter
		}
	case TableMsg:
		m.Table = msg.On
	}
	return m
}

// do runs a step and, when it changed the cluster, records it in the history.
func (m *Model) do(st Step) kubectl.Result {
	before := m.Sim.C.Writes()
	r := st.do(m.Sim)
	if m.Sim.C.Writes() != before {
		m.History.record(m.Sim.C, st, false)
	}
	return r
}

// work does the pieces of the tick under way until enough reports true or the tick is over; a
// tick over that changed the cluster is a step of the history (a repeat of the last one counts
// as another run of it).
func (m *Model) work(enough func() bool) {
	for m.Tick != nil {
		if m.Tick.Run.Next() {
			if m.Sim.C.Writes() != m.Tick.writes {
				m.History.record(m.Sim.C, m.Tick.Step, m.Tick.play)
			}
			m.Tick = nil
		} else if enough() {
			return
		}
	}
}

// advanceOf reads a line that is `sim advance DURATION` and nothing else (what the shell would
// refuse is left to it).
func advanceOf(line string) (time.Duration, bool) {
	f := strings.Fields(line)
	if len(f) != 3 || f[0] != "sim" || f[1] != "advance" {
		return 0, false
	}
	d, err := time.ParseDuration(f[2])
	return d, err == nil && d >= 0
}

// seek moves the timeline to a step, and stops play.
func (m *Model) seek(pos int) {
	m.Playing = false
	m.History.seek(m.Sim, pos)
}

func (t *Terminal) print(l TermLine) {
	t.Lines = append(t.Lines, l)
	if extra := len(t.Lines) - maxTermLines; extra > 0 {
		t.Lines = t.Lines[extra:]
	}
}

// commonPrefix is the longest prefix of all the lines.
func commonPrefix(lines []string) string {
	p := lines[0]
	for _, l := range lines[1:] {
		for !strings.HasPrefix(l, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// lastWord is what a completion adds: the line's last word.
func lastWord(line string) string {
	return line[strings.LastIndexAny(line, " |")+1:]
}

// View is the page as plain data, in the model's language.
type View struct {
	Lang        Lang
	Clock       string
	Nodes       []NodeView
	Pending     []PodView // pods no node has taken
	Output      string
	Failed      bool
	Problems    []string // the apply's problems, "line N: message" where the line is known
	Terminal    []TermLine
	Input       string
	Time        []Action // the timeline's buttons
	AddNode     Action
	Playing     bool
	Speed       int
	Step, Steps int // where the timeline stands, of how many steps
	Notice      string
	Details     *Details // the panel on the selected object, if it still exists
	Lessons     []LessonItem
	Tutor       *TutorView // the lesson panel, in a lesson
	Events      Section    // the events list, filtered
	Table       bool       // show the cluster as a table
	Compact     bool       // too many nodes for cards: a grid of cells, without their pods
	MorePending int        // pending pods beyond the lane's maxPending
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
	Ref      Ref
	Why      []string
	Sections []Section
	Actions  []Action // a node's fault menu, when the compact grid has none
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
	Usage               []Usage  // cpu and memory requested of allocatable (cards only)
}

// Action is a button's (or a menu item's) label and the command it runs in the terminal.
type Action struct {
	Label, Command string
}

// timeActions are the timeline's buttons.
func timeActions(l Lang) []Action {
	return []Action{
		{T(l, "next"), "sim step"},
		{"+10s", "sim advance 10s"},
		{"+1m", "sim advance 1m"},
		{"+5m", "sim advance 5m"},
	}
}

// nodeActions is a node's fault menu: each item the sim or kubectl command it runs.
func nodeActions(l Lang, node string) []Action {
	var out []Action
	for _, a := range []Action{
		{"kubelet-down", "sim fail %s kubelet-down"},
		{"not-ready", "sim fail %s not-ready"},
		{"memory", "sim fail %s memory-pressure"},
		{"disk", "sim fail %s disk-pressure"},
		{"pid", "sim fail %s pid-pressure"},
		{"network", "sim fail %s network-unavailable"},
		{"recover", "sim recover %s"},
		{"cordon", "kubectl cordon %s"},
		{"uncordon", "kubectl uncordon %s"},
		{"drain", "kubectl drain %s --ignore-daemonsets"},
		{"delete-node", "kubectl delete node %s"},
	} {
		out = append(out, Action{T(l, a.Label), fmt.Sprintf(a.Command, node)})
	}
	return out
}

// openKey is the key (data-key) of the buttons that open the details panel on ref, "open KIND NS/NAME";
// openRef reads it back.
func openKey(ref Ref) string { return "open " + ref.Kind + " " + ref.Namespace + "/" + ref.Name }

func openRef(key string) (Ref, bool) {
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
	v := View{Lang: l, Clock: T(l, "clock.value", humanSince(c.Now().Sub(cluster.Epoch))), Output: m.Result.Out,
		Terminal: m.Terminal.Lines, Input: m.Terminal.Input, Time: timeActions(l), AddNode: addNode(l, c),
		Playing: m.Playing, Speed: m.Speed, Step: m.History.Pos, Steps: len(m.History.Steps)}
	switch {
	case m.Notice != "" && m.NoticeArg != "":
		v.Notice = T(l, m.Notice, m.NoticeArg)
	case m.Notice != "":
		v.Notice = T(l, m.Notice)
	}
	if m.Result.Err != "" {
		v.Output, v.Failed = m.Result.Err, true
	}
	for _, pr := range m.Result.Problems {
		text := pr.Message
		if pr.Line > 0 {
			text = T(l, "line", pr.Line, pr.Message)
		}
		v.Problems = append(v.Problems, text)
	}
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
			nv.Actions, nv.Daemons = nodeActions(l, n.Name), daemonReasons(l, c, n)
		}
		if !v.Compact {
			nv.Usage = nodeUsage(n, podsOn[n.Name])
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
	v.Events = events(m.Sim, m.Events)
	v.Lessons = lessonList(m)
	v.Tutor = tutorView(l, m.Tutor)
	return v
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
//  1. a pod: why it is where it is (podNotes), its YAML and its events;
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
	pv.Owner = kubectl.ControlledBy(&p.ObjectMeta)
	if name, ok := strings.CutPrefix(pv.Owner, "ReplicaSet/"); ok {
		if rs, ok := c.Get("ReplicaSet", cluster.Key{Namespace: p.Namespace, Name: name}).(*api.ReplicaSet); ok {
			if top := kubectl.ControlledBy(&rs.ObjectMeta); top != "" {
				pv.Owner = top
			}
		}
	}
	pv.Colour = ownerColour(pv.Owner)
	pv.Revision, pv.Old = revs.of(p)
	return pv
}
