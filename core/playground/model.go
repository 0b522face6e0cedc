// Package playground is the page's model: the state the playground shows (the simulated
// cluster, its history, the editor, the terminal, the lesson being taken), Update, which applies
// a Msg to it, and Render, which turns it into a View, the plain data the page draws. It runs
// natively and is tested here; package wasm binds it to the DOM. The page hands it the lessons
// it ships (a Library): the lessons are data that only the page imports.
package playground

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/openapi"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// Model is everything the page shows: the cluster and its history, the editor's text and the
// last apply, the terminal, the timeline's play state, the language and a notice for the
// learner.
type Model struct {
	Sim       *sim.Sim
	History   History
	Editor    string        // the manifest tab's text
	Tabs      []string      // the workspace files open in the editor's tabs (see tabs.go)
	Open      string        // the file whose tab is shown; "" for the manifest's
	Edit      *kubectl.Edit // the kubectl edit under way, in its tab; nil for none
	Editing   bool          // the edit's tab is shown
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
	Reference bool           // the reference of every lesson's recap is shown
	Progress  map[string]int // steps completed, by lesson ID (kept apart from the session)
	// LessonsLater has the lesson picker list only the first LessonsListed lessons: the page
	// opens listing none (reading the lessons would be most of its start-up) and after its first
	// paint reads them a lesson at a time, a task each, so that it answers input meanwhile
	// (ShowLessonsMsg); it clears LessonsLater once they are all listed.
	LessonsLater  bool
	LessonsListed int
	// Missing are the data assets the page could not download (AssetMsg): what needs one says so.
	Missing []string
	// Chunk has the clock moved a piece at a time: a play tick, or `sim advance` typed or from
	// the timeline's buttons, becomes a Tick under way that WorkMsg carries on, so that the page
	// paints and handles input while a large cluster moves. The page sets it; without it (the
	// tests) the clock moves at once.
	Chunk bool
	// Tick is the clock moving, under way; nil when it is not.
	Tick *Tick
	// Kept are the sessions this one replaced, newest first, one click away (BackMsg): a lesson,
	// a link, a reset, a file or another tab's session never loses the learner's work.
	Kept []Kept
	// Unsaved says that the session is not being saved: the storage refused it, or the tab waits
	// for the learner's choice (Other, an unreadable session held); the page warns before it is
	// left.
	Unsaved bool
	// Other is another tab's session, saved over this one's (OtherTabMsg): while it is set the
	// page does not save, until the learner follows it (FollowMsg) or keeps this one (KeepMsg).
	Other []byte
	// Cluster is the sandbox's starting cluster (sim.Default unless the learner picked another,
	// see ClusterMsg); a lesson names its own.
	Cluster sim.Topology
	// Pane is the pane a narrow screen shows (see paneViews); Drawer is the terminal's drawer on
	// a wide one.
	Pane   Pane
	Drawer Drawer
	// Embed is how the page is embedded in another's (embed.html, see Embed); nil for the full
	// page. It outlives a session replaced.
	Embed *Embed
	lib   *Library // what the model's start states are made of, shared by every model made from it
}

// Tick is the clock moving, under way: its step, the run doing it, the cluster's write count
// before it (a run that wrote nothing is no step of the history), whether it is a play tick
// (which extends a last step that is the same), and the end of the command it is (it has the
// work budget of one, as the step replayed has: see sim.Sim.Command).
type Tick struct {
	Step   Step
	Run    *sim.Run
	writes int64
	play   bool
	end    func()
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

// String is how the page names the object: "Node hd1", "Pod default/web-1".
func (r Ref) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// Terminal is the terminal pane: what it printed, the lines typed (oldest first), where ↑/↓
// are in that history, and the line being typed.
type Terminal struct {
	Lines   []TermLine
	History []string
	Pos     int // len(History) when not browsing it
	Input   string
	// Here is a here-document being typed: the lines after `cat > ds.yaml <<EOF` up to its
	// marker, which the prompt reads ("> ") before the command runs; nil when none is.
	Here *HereDoc `json:",omitempty"`
}

// prompt is the prompt's sign: ">" while a here-document is typed, else "$".
func (t Terminal) prompt() string {
	if t.Here != nil {
		return ">"
	}
	return "$"
}

// HereDoc is a here-document being typed (see shell.HereDocument): the command that will read
// it, the marker that ends it and the lines so far.
type HereDoc struct {
	Command, Marker, Body string
}

// TermLine is one block of the terminal: a command echoed, what it printed (Err for standard
// error), or the page's own words, written as a shell comment (Note): what a button did that is
// no command (a reset, an undo, play), or what a command changed (see explain). The JSON is a saved transcript's (Saved.Terminal).
type TermLine struct {
	Text    string `json:"text"`
	Command bool   `json:"cmd,omitempty"`
	Err     bool   `json:"err,omitempty"`
	Note    bool   `json:"note,omitempty"`
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

// NewModel returns the playground's start state: the default cluster with the tutorials' files
// in its workspace (shell.WriteTutorials), the library's start manifest applied and 30 simulated
// seconds run, in English.
func NewModel(lib *Library) (Model, error) { return startOn(lib, sim.Default) }

// startOn is the playground's start state on a starting cluster (sim.Topologies): NewModel's
// on the default cluster, or on kubeadm's.
func startOn(lib *Library, cluster sim.Topology) (Model, error) {
	if cluster == "" {
		cluster = sim.Default
	}
	s, err := sim.New(1, cluster)
	if err != nil {
		return Model{}, err
	}
	if err := shell.WriteTutorials(s.C); err != nil {
		return Model{}, err
	}
	r := shell.ApplyAll(s, lib.start)
	if r.Err != "" {
		return Model{}, fmt.Errorf("the start manifest does not apply: %s", r.Err)
	}
	s.Advance(startupTime)
	return Model{Sim: s, History: newHistory(s.C), Editor: lib.start, Speed: DefaultSpeed, Lang: English, Cluster: cluster, lib: lib}, nil
}

// Clusters are the starting clusters the page offers for the sandbox, in its menu's order.
var Clusters = []sim.Topology{sim.Default, sim.Kubeadm}

// startCluster is the sandbox's starting cluster as the page's menu shows it; "" in a lesson.
func (m Model) startCluster() string {
	switch {
	case m.Tutor != nil:
		return ""
	case m.Cluster == "":
		return string(sim.Default)
	}
	return string(m.Cluster)
}

// ClusterMsg starts the sandbox afresh on another starting cluster (Clusters), as Reset does:
// the session before is kept, one click away. A lesson is left for the sandbox.
type ClusterMsg struct{ Cluster sim.Topology }

func (ClusterMsg) during() during { return dropTick }
func (msg ClusterMsg) update(m Model) Model {
	if !slices.Contains(Clusters, msg.Cluster) {
		return m
	}
	fresh, err := startOn(m.lib, msg.Cluster)
	if err != nil {
		return m // the start states are made in the tests
	}
	return m.restart(fresh, "kept.cluster", T(m.Lang, "note.cluster", T(m.Lang, "cluster."+string(msg.Cluster))))
}

// ClusterFileMsg brings a real cluster's dump in from a file the learner picked (the page's
// Import cluster): the file is written to the workspace under its name, as a step, and then
// `sim import -f NAME` runs as if typed, so that the terminal shows what came in and what was
// left out, and undo and share links replay both. A name the workspace cannot take is
// cluster.yaml; a file past the workspace's bounds is its error, in the terminal.
type ClusterFileMsg struct{ Name, Data string }

func (ClusterFileMsg) during() during { return finishTick }
func (msg ClusterFileMsg) update(m Model) Model {
	name := path.Base(msg.Name)
	if clean, err := cluster.CleanPath(name); err != nil || clean != name || strings.HasPrefix(name, ".") {
		name = "cluster.yaml"
	}
	if r, _ := m.do(Step{File: name, Text: msg.Data}); r.Code != 0 {
		m.Terminal.show(r)
		return m
	}
	return RunMsg{Line: "sim import -f " + shell.Quote(name)}.update(m)
}

// Msg is a message for Update. Its methods are unexported, so that only this package's messages
// are messages, and each message handles itself: a message that does not say what it does to a
// Tick under way and how it changes the model is no Msg, and does not compile as one.
type Msg interface {
	// during is what the message does to a Tick under way.
	during() during
	// update applies the message to the model; Update does what every message needs before and
	// after.
	update(m Model) Model
}

// during is what a message does to a Tick under way (see TickMsg).
type during int

const (
	finishTick during = iota // first finishes it: the message acts on the cluster the tick leaves
	keepTick                 // leaves it under way: the message changes only the view, or play
	dropTick                 // drops it: the state it leaves is replaced
)

// ApplyMsg asks to apply the open tab's text: the manifest's as `kubectl apply -f -`, a file's
// as `kubectl apply -f FILE`, each echoed in the terminal with what kubectl printed; on the
// edit's tab it saves the edit. On a narrow screen the YAML pane gives way to the terminal, where
// the output is, unless the apply's problems are marked in the editor.
type ApplyMsg struct{ Text string }

// EditMsg is the manifest's text, or the edit's, edited, not applied: the manifest's is kept
// with the session, the edit's until it is saved.
type EditMsg struct{ Text string }

// WriteMsg is a file's tab edited: the file is written to the workspace (see tabs.go). It
// finishes a Tick under way first, as the workspace is the cluster's.
type WriteMsg struct{ File, Text string }

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

// TerminalKey is the message of a key pressed at the terminal's prompt, whose line is line:
// Enter runs the line, ↑/↓ walk the history, Tab completes, Ctrl+L clears, Ctrl+C drops the
// line. Tab at an empty prompt moves on, as everywhere on the page: the terminal is no keyboard
// trap (help lists the commands). ok is false for any
// other key, which the prompt takes as typing.
func TerminalKey(key string, ctrl, shift bool, line string) (msg Msg, ok bool) {
	switch {
	case key == "Enter":
		return RunMsg{Line: line}, true
	case key == "ArrowUp":
		return HistoryMsg{Step: -1}, true
	case key == "ArrowDown":
		return HistoryMsg{Step: +1}, true
	case key == "Tab" && !shift && strings.TrimSpace(line) != "":
		return CompleteMsg{Line: line}, true
	case key == "l" && ctrl:
		return ClearMsg{}, true
	case key == "c" && ctrl:
		return InterruptMsg{Line: line}, true
	}
	return nil, false
}

// PlayMsg starts or stops play; SpeedMsg picks its speed; TickMsg is one tick of the page's
// timer while playing: it moves the clock by the speed's amount (with Chunk, it begins that
// Tick). WorkMsg carries a Tick under way on (a play tick, or a `sim advance`) until Enough
// says so (the page gives each a few milliseconds) or it is over. Stopping play lets a Tick
// under way finish; a message that only changes the view leaves it under way; one that moves
// through the history or starts afresh drops it (the state it leaves is replaced); any other
// first finishes it (see during). StopMsg drops a Tick under way and stops play: the page sends
// it when a Tick's work panicked, so that the run is not retried.
type (
	PlayMsg  struct{ On bool }
	SpeedMsg struct{ Index int }
	TickMsg  struct{}
	WorkMsg  struct{ Enough func() bool }
	StopMsg  struct{}
)

// UndoMsg and RedoMsg move one step back or forward in the history; SeekMsg moves to any step
// (SeekTimeMsg, in axis.go, to any instant). Each stops play.
type (
	UndoMsg struct{}
	RedoMsg struct{}
	SeekMsg struct{ Pos int }
)

// ResetMsg starts afresh from the start state, or the lesson's (the page asks for confirmation
// first).
type ResetMsg struct{}

// SessionMsg replaces the session with another (a share link opened in the open page), keeping
// what outlives a session (see replace); the session replaced is one click away.
type SessionMsg struct{ Session Model }

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

// AssetMsg is a data asset the page fetches after its first paint (site/main.js), arrived, or
// the reason it did not (Err):
//
//  1. openapi.json: kubectl explain's documents (openapi.Load); until then explain says they
//     are downloading.
//  2. lessons.json: the lessons and challenges (Library.Deliver); the picker lists them from
//     then on, a lesson at a time (LessonsLater).
//
// An asset that did not arrive, or whose data its loader refuses, is Missing: the notice says
// so, and so does what needs it; the rest of the page works on.
type AssetMsg struct {
	Name string
	Data []byte
	Err  error
}

// NoticeMsg shows a message to the learner by its key (a damaged link, a saved session that
// could not be read, a share link made); an empty key dismisses it.
type NoticeMsg struct{ Key string }

// Update applies a message to the model. Apply is all or nothing: when any object fails, the
// cluster is left as it was and the result says why. Every command that changes the cluster
// becomes a step of the history. In a lesson, what the learner runs is recorded and the step's
// goal checked after every message.
func Update(m Model, msg Msg) Model {
	if m.Tutor != nil {
		t := *m.Tutor // a Model is a value: its tutor is copied, not shared
		t.Typed = slices.Clone(t.Typed)
		m.Tutor = &t
	}
	switch msg.during() {
	case finishTick:
		m.work(func() bool { return false })
	case dropTick:
		if m.Tick != nil {
			m.Tick.end()
		}
		m.Tick = nil
	case keepTick:
	}
	m = msg.update(m)
	m.observe()
	return m
}

func (ApplyMsg) during() during { return finishTick }
func (msg ApplyMsg) update(m Model) Model {
	switch {
	case m.Editing && m.Edit != nil:
		m.saveEdit(msg.Text)
		return m
	case m.Open != "":
		m.writeTab(msg.Text)
		m = RunMsg{Line: "kubectl apply -f " + shell.Quote(m.Open)}.update(m)
	default:
		m.Editor = msg.Text
		var notes []string
		m.Result, notes = m.do(Step{Apply: msg.Text})
		m.typed("kubectl apply -f -")
		m.Terminal.print(TermLine{Text: "$ kubectl apply -f -", Command: true})
		m.Terminal.show(m.Result)
		m.Terminal.explain(notes)
		if len(m.Result.Problems) > 0 {
			return m
		}
	}
	if m.Pane == YAMLPane {
		m.Pane = TerminalPane
	}
	return m
}

// EditMsg leaves a Tick under way: it changes no cluster (a file's tab is WriteMsg's).
func (EditMsg) during() during { return keepTick }
func (msg EditMsg) update(m Model) Model {
	switch {
	case m.Editing && m.Edit != nil:
		e := *m.Edit
		e.Text = msg.Text
		m.Edit = &e
	case m.Open == "":
		m.Editor = msg.Text
	}
	return m
}

func (RunMsg) during() during { return finishTick }
func (msg RunMsg) update(m Model) Model {
	t := &m.Terminal
	t.Input = ""
	if h := t.Here; h != nil {
		t.print(TermLine{Text: "> " + msg.Line, Command: true})
		if msg.Line != h.Marker {
			h.Body += msg.Line + "\n"
			return m
		}
		t.Here = nil
		m.typed(h.Command)
		r, notes := m.do(Step{Run: h.Command, Stdin: h.Body})
		t.show(r)
		t.explain(notes)
		return m
	}
	line := strings.TrimSpace(msg.Line)
	if line == "" {
		return m
	}
	if n := len(t.History); n == 0 || t.History[n-1] != line {
		t.History = append(t.History, line)
	}
	t.Pos = len(t.History)
	t.print(TermLine{Text: "$ " + line, Command: true})
	if command, marker, ok := shell.HereDocument(line); ok {
		t.Here = &HereDoc{Command: command, Marker: marker}
		return m
	}
	m.typed(line)
	if line == "clear" {
		t.Lines = nil
		return m
	}
	if m.openEditor(line) {
		return m
	}
	if d, ok := advanceOf(line); ok && m.Chunk {
		m.begin(line, d, false)
		return m
	}
	r, notes := m.do(Step{Run: line})
	t.show(r)
	t.explain(notes)
	return m
}

// PasteMsg is text pasted at the prompt, whose line is line: each of its lines is typed and
// Entered in turn, as a terminal takes a pasted block (a tutorial's here-document), and what
// follows its last newline stays at the prompt. Text without a newline is the browser's to
// paste.
type PasteMsg struct{ Line, Text string }

func (PasteMsg) during() during { return finishTick }
func (msg PasteMsg) update(m Model) Model {
	text := strings.ReplaceAll(strings.ReplaceAll(msg.Text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(text, "\n")
	lines[0] = msg.Line + lines[0]
	for _, l := range lines[:len(lines)-1] {
		m = Update(m, RunMsg{Line: l}) // as if typed: a `sim advance` pasted is over before the next line
	}
	m.Terminal.Input = lines[len(lines)-1]
	return m
}

// InterruptMsg is Ctrl+C at the prompt: as in bash, the line typed, or the here-document under
// way, is dropped with ^C.
type InterruptMsg struct{ Line string }

func (InterruptMsg) during() during { return keepTick }
func (msg InterruptMsg) update(m Model) Model {
	t := &m.Terminal
	t.print(TermLine{Text: t.prompt() + " " + msg.Line + "^C", Command: true})
	t.Here, t.Input = nil, ""
	return m
}

func (CompleteMsg) during() during { return finishTick }
func (msg CompleteMsg) update(m Model) Model {
	t := &m.Terminal
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
	return m
}

func (HistoryMsg) during() during { return finishTick }
func (msg HistoryMsg) update(m Model) Model {
	t := &m.Terminal
	t.Pos = max(0, min(len(t.History), t.Pos+msg.Step))
	t.Input = ""
	if t.Pos < len(t.History) {
		t.Input = t.History[t.Pos]
	}
	return m
}

func (ClearMsg) during() during { return finishTick }
func (ClearMsg) update(m Model) Model {
	m.Terminal.Lines = nil
	return m
}

// PlayMsg starts play only when something is due: on a settled cluster play would only move
// the clock, and the clock's state says "paused: nothing more is due" (see TickMsg).
func (PlayMsg) during() during { return keepTick }
func (msg PlayMsg) update(m Model) Model {
	on := msg.On && (m.Tick != nil || !settled(m.Sim))
	switch {
	case on && !m.Playing:
		sp := Speeds[m.Speed]
		m.Terminal.note(T(m.Lang, "note.play", sp.Label, sp.Command()))
	case !on && m.Playing:
		m.Terminal.note(T(m.Lang, "note.pause", humanSince(m.Sim.C.Now().Sub(cluster.Epoch))))
	}
	m.Playing = on
	return m
}

func (SpeedMsg) during() during { return keepTick }
func (msg SpeedMsg) update(m Model) Model {
	if msg.Index >= 0 && msg.Index < len(Speeds) {
		m.Speed = msg.Index
	}
	return m
}

// TickMsg stops play by itself once nothing more is due (sim.NextTimer reports nothing, and no
// tick is under way): a run ends after its last event, recording no step of the clock alone.
func (TickMsg) during() during { return keepTick }
func (TickMsg) update(m Model) Model {
	if m.Playing && m.Tick == nil && settled(m.Sim) {
		m.Playing = false
	}
	if m.Playing && m.Tick == nil {
		sp := Speeds[m.Speed]
		m.begin(sp.Command(), sp.Advance, true)
		if !m.Chunk {
			m.work(func() bool { return false })
		}
	}
	return m
}

func (WorkMsg) during() during { return keepTick }
func (msg WorkMsg) update(m Model) Model {
	m.work(msg.Enough)
	return m
}

func (StopMsg) during() during { return dropTick }
func (StopMsg) update(m Model) Model {
	m.Playing = false
	return m
}

func (UndoMsg) during() during { return dropTick }

// UndoMsg inside a step (the time axis stands there) goes back to its start, else a step back.
func (UndoMsg) update(m Model) Model {
	pos := m.History.Pos - 1
	if m.History.Into > 0 {
		pos = m.History.Pos
	}
	return m.seekNoted(pos, "note.undo")
}
func (RedoMsg) during() during       { return dropTick }
func (RedoMsg) update(m Model) Model { return m.seekNoted(m.History.Pos+1, "note.redo") }

// seekNoted is seek for the Undo and Redo buttons: the move is noted in the terminal (key) with
// the step the timeline stands at after it; a move that moves nothing (past either end of the
// history) notes nothing.
func (m Model) seekNoted(pos int, key string) Model {
	before, into := m.History.Pos, m.History.Into
	if m = m.seek(pos); m.History.Pos != before || m.History.Into != into {
		m.Terminal.note(T(m.Lang, key, m.History.Pos, len(m.History.Steps)))
	}
	return m
}

func (SeekMsg) during() during           { return dropTick }
func (msg SeekMsg) update(m Model) Model { return m.seek(msg.Pos) }

func (ResetMsg) during() during { return dropTick }
func (ResetMsg) update(m Model) Model {
	fresh, err := m.lessonStart()
	if err != nil {
		return m // the start state was made once already
	}
	return m.restart(fresh, "kept.reset", T(m.Lang, "note.reset")) // the sandbox's or the lesson's start again
}

// lessonStart is the start state of what the model shows: the sandbox's on its cluster, the
// lesson's (one opened from disk with its files).
func (m Model) lessonStart() (Model, error) {
	switch t := m.Tutor; {
	case t == nil:
		return startOn(m.lib, m.Cluster)
	case t.Files != nil: // a lesson opened from disk
		fresh, err := lessonModel(m.lib, t.Lesson)
		if err == nil {
			fresh.Tutor.Files = t.Files
		}
		return fresh, err
	}
	return StartModel(m.lib, m.Tutor.Lesson.ID)
}

func (SessionMsg) during() during           { return dropTick }
func (msg SessionMsg) update(m Model) Model { return m.replace(msg.Session, "link.kept") }

func (LangMsg) during() during { return keepTick }
func (msg LangMsg) update(m Model) Model {
	if slices.Contains(Langs, msg.Lang) {
		m.Lang = msg.Lang
	}
	return m
}

func (ShowLessonsMsg) during() during { return keepTick }
func (ShowLessonsMsg) update(m Model) Model {
	if m.LessonsLater {
		m.LessonsListed++
		m.LessonsLater = m.LessonsListed < m.lib.listable()
	}
	return m
}

func (AssetMsg) during() during { return keepTick }
func (msg AssetMsg) update(m Model) Model {
	err := msg.Err
	if err == nil {
		switch msg.Name {
		case AssetDocs:
			err = openapi.Load(msg.Data)
		case AssetLessons:
			if err = m.lib.Deliver(msg.Data); err == nil {
				m.LessonsLater = true
			}
		default:
			err = fmt.Errorf("DaemonLab has no asset %q", msg.Name)
		}
	}
	if err != nil {
		if !slices.Contains(m.Missing, msg.Name) {
			m.Missing = append(m.Missing, msg.Name)
		}
		m.Notice, m.NoticeArg = "asset.missing."+msg.Name, err.Error()
	}
	return m
}

// The data assets (see AssetMsg).
const (
	AssetDocs    = "openapi.json"
	AssetLessons = "lessons.json"
)

// Assets are the data assets the page fetches after its first paint.
var Assets = []string{AssetDocs, AssetLessons}

// waiting says in the page's language what a command printed while an asset it needs was on
// its way (kubectl.WaitingDocs), or that it will not come (Missing).
func (m *Model) waiting(r kubectl.Result) kubectl.Result {
	say := T(m.Lang, "asset.waiting."+AssetDocs)
	if slices.Contains(m.Missing, AssetDocs) {
		say = T(m.Lang, "asset.missing.cmd."+AssetDocs)
	}
	r.Out = strings.ReplaceAll(r.Out, kubectl.WaitingDocs, say)
	r.Err = strings.ReplaceAll(r.Err, kubectl.WaitingDocs, say)
	r.Stream = slices.Clone(r.Stream)
	for i := range r.Stream {
		r.Stream[i].Text = strings.ReplaceAll(r.Stream[i].Text, kubectl.WaitingDocs, say)
	}
	return r
}

func (NoticeMsg) during() during { return keepTick }
func (msg NoticeMsg) update(m Model) Model {
	m.Notice, m.NoticeArg = msg.Key, ""
	return m
}

// ShareMsg makes a share link (the Share button): the session's, or in a lesson opened from
// disk the lesson's from its start (sharedOf), each with its own notice.
type ShareMsg struct{}

func (ShareMsg) during() during { return keepTick }
func (ShareMsg) update(m Model) Model {
	m.Notice, m.NoticeArg = "share.done", ""
	if m.Tutor != nil && m.Tutor.Files != nil {
		m.Notice = "share.lesson"
	}
	return m
}

// EmbedMsg shows the code that embeds what the model shows in another page ("Embed this", see
// EmbedOf and EmbedSnippet), and the frame's size before it says its own.
type EmbedMsg struct{}

func (EmbedMsg) during() during { return keepTick }
func (EmbedMsg) update(m Model) Model {
	m.Notice, m.NoticeArg = "embed.done", strconv.Itoa(EmbedHeight)
	return m
}

// sharedOf is what a share link of the model carries: the session, or in a lesson opened from
// disk the lesson's start, so that a teacher's lesson folder is shared as a lesson to take, with
// its files and none of the teacher's work in it.
func sharedOf(m Model) Model {
	if m.Tutor != nil && m.Tutor.Files != nil {
		if start, err := m.lessonStart(); err == nil { // it started once already
			return start
		}
	}
	return m
}

func (SelectMsg) during() during { return keepTick }
func (msg SelectMsg) update(m Model) Model {
	m.Selected = msg.Ref
	return m
}

func (EventsMsg) during() during { return keepTick }
func (msg EventsMsg) update(m Model) Model {
	if slices.Contains([]string{"", "Normal", "Warning"}, msg.Filter.Type) {
		m.Events = msg.Filter
	}
	return m
}

func (TableMsg) during() during { return keepTick }
func (msg TableMsg) update(m Model) Model {
	m.Table = msg.On
	return m
}

// do runs a step and, when it changed the cluster, records it in the history. It returns what
// the step printed and what the page says it did to the workloads (see explain).
func (m *Model) do(st Step) (kubectl.Result, []string) {
	before, kept := m.Sim.C.Writes(), workloadsOf(m.Sim.C)
	r := m.waiting(st.do(m.Sim))
	changed := m.Sim.C.Writes() != before
	if changed {
		m.History.record(m.Sim.C, st, false)
	}
	if !explained(st) || !changed && r.Code != 0 {
		return r, nil // a command refused changed nothing: what it applied is not "unchanged"
	}
	return r, explain(m.Lang, m.Sim.C, kept, appliedRefs(m.Sim.C, st))
}

// begin begins a Tick: the command line `sim advance d` (a play tick's with play).
func (m *Model) begin(line string, d time.Duration, play bool) {
	end := m.Sim.Command()
	m.Tick = &Tick{Step: Step{Run: line}, Run: m.Sim.Begin(d), writes: m.Sim.C.Writes(), play: play, end: end}
}

// work does the pieces of the tick under way until enough reports true or the tick is over; a
// tick over that changed the cluster is a step of the history (a repeat of the last one counts
// as another run of it). A tick that its work budget stopped says so in the terminal, as
// `sim advance` does, and stops play.
func (m *Model) work(enough func() bool) {
	for m.Tick != nil {
		if m.Tick.Run.Next() {
			m.Tick.end()
			if m.Sim.C.Writes() != m.Tick.writes {
				m.History.record(m.Sim.C, m.Tick.Step, m.Tick.play)
			}
			if r := shell.Advanced(m.Tick.Run); r.Err != "" {
				m.Terminal.show(r)
				m.Playing = false
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
func (m Model) seek(pos int) Model {
	m.Playing = false
	m.History.seek(m.Sim, pos)
	return m
}

// Class is the line's class on the page: "cmd", "err", "note" or "out".
func (l TermLine) Class() string {
	switch {
	case l.Command:
		return "cmd"
	case l.Err:
		return "err"
	case l.Note:
		return "note"
	}
	return "out"
}

// KeptLines is how many of the terminal's lines drawn (shown) stay when it shows lines: those
// at the end of shown that lines begins with (the scrollback drops lines from the top); 0 when
// the terminal is drawn afresh.
func KeptLines(shown, lines []TermLine) int {
	for k := range shown {
		if rest := shown[k:]; len(rest) <= len(lines) && slices.Equal(rest, lines[:len(rest)]) {
			return len(rest)
		}
	}
	return 0
}

// show prints what a command printed, standard output and error in the order they came.
func (t *Terminal) show(r kubectl.Result) {
	for _, p := range r.Pieces() {
		t.print(TermLine{Text: strings.TrimSuffix(p.Text, "\n"), Err: p.Err})
	}
}

// note prints a note, as a shell comment.
func (t *Terminal) note(text string) { t.print(TermLine{Text: "# " + text, Note: true}) }

// explain prints the page's explanation of a command's changes after its output: one note, each
// line a shell comment.
func (t *Terminal) explain(notes []string) {
	if len(notes) > 0 {
		t.note(strings.Join(notes, "\n# "))
	}
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
