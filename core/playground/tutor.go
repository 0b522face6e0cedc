package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/lesson"
)

// Tutor is the lesson or challenge being taken: which step the learner is on, and what they did
// in it.
type Tutor struct {
	Lesson    *lesson.Lesson
	Step      int               // the current step's index
	Typed     []string          // the command lines run since the step began
	Predicted int               // the choice made for the step's prediction (1-based); 0 before
	Revealed  bool              // the prediction's answer was shown by Show solution, before a choice
	Hints     int               // how many hints are shown
	Solution  int               // how many of the solution's lines are shown (all, once asked for)
	Met       bool              // the step's goal holds (checked after every message; a challenge's at Check)
	Files     map[string]string // a lesson opened from disk: its files, kept with the session
	// A challenge's: each check's verdict at the last Check (nil before the first), whether the
	// learner gave up, when the learner started the timer and how long the task took until a
	// Check passed (milliseconds of the page's clock, handed in; 0 for none).
	Checked []bool
	GaveUp  bool
	Started float64
	Took    float64
}

// The lesson messages: start a lesson (an empty ID leaves for the sandbox; a lesson left for
// another, kept, is taken up where it was left), predict, ask for a
// hint, show the solution (a challenge's: give up), put one of its lines in the prompt or the
// editor, go on to the next step; a challenge's Check and timer, both at Now, the page's clock
// in milliseconds; show or hide the reference of every lesson's recap.
type (
	LessonMsg      struct{ ID string }
	OpenMsg        struct{ Files map[string]string } // a lesson's files opened from disk, by name
	ProgressMsg    struct{ Data string }             // a progress file to merge into the progress
	PredictMsg     struct{ Choice int }
	HintMsg        struct{}
	SolutionMsg    struct{}
	UseSolutionMsg struct{ Line int }
	NextStepMsg    struct{}
	CheckMsg       struct{ Now float64 }
	TimerMsg       struct{ Now float64 }
	ReferenceMsg   struct{ Show bool }
)

// StartModel is where a session starts: the playground's start state, or a lesson's or a
// challenge's (by its ID or its number, as a #lesson=N or #challenge=N link names it).
func StartModel(lib *Library, lessonID string) (Model, error) {
	if lessonID == "" {
		return NewModel(lib)
	}
	l, ok := lib.findLesson(lessonID)
	if !ok {
		return Model{}, fmt.Errorf("there is no lesson %q", lessonID)
	}
	return lessonModel(lib, l)
}

// lessonModel is a lesson's start state, with its tutor at the first step.
func lessonModel(lib *Library, l *lesson.Lesson) (Model, error) {
	s, err := l.Start()
	if err != nil {
		return Model{}, err
	}
	return Model{Sim: s, History: newHistory(s.C), Editor: l.Editor, Speed: DefaultSpeed, Lang: English,
		Tutor: &Tutor{Lesson: l}, lib: lib}, nil
}

func (LessonMsg) during() during { return dropTick }
func (msg LessonMsg) update(m Model) Model {
	m.Reference = false
	if msg.ID == "" && m.Tutor != nil { // leaving a lesson: back to the learner's own sandbox, if kept
		for i, k := range m.Kept {
			if k.Lesson == "" {
				return m.openKept(i, "sandbox.back")
			}
		}
	}
	if l, ok := m.lib.findLesson(msg.ID); ok && (m.Tutor == nil || m.Tutor.Lesson.ID != l.ID) {
		for i, k := range m.Kept { // a lesson left for another is taken up where it was left
			if k.Lesson == l.ID {
				return m.openKept(i, "lesson.resumed")
			}
		}
	}
	fresh, err := StartModel(m.lib, msg.ID)
	if err != nil {
		return m // the page offers only lessons that exist
	}
	return m.restart(fresh, "kept.lesson", "")
}

func (ProgressMsg) during() during { return finishTick }
func (msg ProgressMsg) update(m Model) Model {
	progress, err := m.lib.parseProgress([]byte(msg.Data))
	if err != nil {
		m.Notice, m.NoticeArg = "progress.bad", err.Error()
		return m
	}
	for id, done := range progress {
		m.progress(id, done)
	}
	m.Notice, m.NoticeArg = "progress.done", ""
	return m
}

// progress records what the learner achieved in a lesson (steps completed) or a challenge (its
// result, see challengeResult): a count only grows.
func (m *Model) progress(id string, done int) {
	if m.Progress[id] >= done {
		return
	}
	m.Progress = maps.Clone(m.Progress) // a Model is a value: its map is not shared
	if m.Progress == nil {
		m.Progress = map[string]int{}
	}
	m.Progress[id] = done
}

func (OpenMsg) during() during { return dropTick }
func (msg OpenMsg) update(m Model) Model {
	l, err := m.lib.openedLesson(msg.Files)
	if err == nil {
		var fresh Model
		if fresh, err = lessonModel(m.lib, l); err == nil {
			fresh.Tutor.Files = msg.Files
			return m.restart(fresh, "kept.lesson", "")
		}
	}
	m.Notice, m.NoticeArg = "lesson.bad", err.Error()
	return m
}

func (PredictMsg) during() during { return finishTick }
func (msg PredictMsg) update(m Model) Model {
	if t := m.Tutor; t != nil && t.step().Predict != nil && t.Predicted == 0 && !t.Revealed && msg.Choice >= 1 && msg.Choice <= int(t.step().Predict.Choices) {
		t.Predicted = msg.Choice
		t.Typed = nil // predict, then observe: what was looked at before does not count
	}
	return m
}

func (HintMsg) during() during { return finishTick }
func (HintMsg) update(m Model) Model {
	if t := m.Tutor; t != nil {
		t.Hints = min(t.Hints+1, len(t.text(m.Lang).Hints))
	}
	return m
}

// SolutionMsg shows the step's solution, its command lines ready to run rather than run: the
// first, a command, goes to the prompt when the prompt is empty, and each can be put in the
// prompt, the editor or its file's tab (UseSolutionMsg), which may hold the learner's work. Before a prediction is made, it reveals the answer: the
// prediction is marked revealed, never right. In a challenge it is giving up, which the
// progress keeps.
func (SolutionMsg) during() during { return finishTick }
func (SolutionMsg) update(m Model) Model {
	t := m.Tutor
	if t == nil || t.Solution > 0 {
		return m
	}
	if t.Lesson.Challenge != nil {
		t.GaveUp, t.Started = true, 0 // the timer stops: there is no time to beat any more
		m.progress(t.Lesson.ID, challengeGaveUp)
	} else if t.step().Predict != nil && t.Predicted == 0 {
		t.Revealed = true
	}
	t.Solution = len(t.step().Solution)
	if first := t.step().Solution[0]; m.Terminal.Input == "" && first.Stdin == "" {
		m.Terminal.Input = first.Run // the editor's text and the files wait for a click: they may hold the learner's work
	}
	return m
}

// UseSolutionMsg puts a line of the shown solution in the prompt, its manifest in the editor's
// manifest tab, or the file it writes (`cat > FILE`) in the file's tab, for the learner to run;
// a phone shows that pane.
func (UseSolutionMsg) during() during { return keepTick }
func (msg UseSolutionMsg) update(m Model) Model {
	t := m.Tutor
	if t == nil || msg.Line < 0 || msg.Line >= t.Solution {
		return m
	}
	line := t.step().Solution[msg.Line]
	if file, ok := lesson.WritesFile(line.Run); ok {
		m.openFiles([]string{"cat", file})
		m.writeFile(file, line.Stdin)
		m.Pane = YAMLPane
		return m
	}
	if line.Stdin != "" {
		m.Editor, m.Open, m.Editing = line.Stdin, "", false
		m.Pane = YAMLPane
		return m
	}
	m.Terminal.Input = line.Run
	m.Pane = TerminalPane
	return m
}

func (NextStepMsg) during() during { return finishTick }
func (NextStepMsg) update(m Model) Model {
	if t := m.Tutor; t != nil && t.Met && t.Step < len(t.Lesson.Steps)-1 {
		*t = Tutor{Lesson: t.Lesson, Step: t.Step + 1}
	}
	return m
}

// The results of a challenge, as the progress keeps them (a higher one replaces a lower):
// given up, solved with hints, solved without.
const (
	challengeGaveUp = 1 + iota
	challengeWithHints
	challengeSolved
)

// CheckMsg runs a challenge's checks and shows each one's verdict. When all pass the task is
// solved: the time it took since the timer started is kept, and the result goes to the
// progress (solved, with hints, or after giving up).
func (CheckMsg) during() during { return finishTick }
func (msg CheckMsg) update(m Model) Model {
	t := m.Tutor
	if t == nil || t.Lesson.Challenge == nil {
		return m
	}
	failing := t.step().Failing(m.Sim)
	t.Checked = make([]bool, len(t.step().Goal))
	for i := range t.Checked {
		t.Checked[i] = !slices.Contains(failing, i)
	}
	if len(failing) > 0 || t.Met {
		return m
	}
	t.Met = true
	if t.Started > 0 {
		t.Took = max(msg.Now-t.Started, 0)
	}
	switch {
	case t.GaveUp:
		m.progress(t.Lesson.ID, challengeGaveUp)
	case t.Hints > 0:
		m.progress(t.Lesson.ID, challengeWithHints)
	default:
		m.progress(t.Lesson.ID, challengeSolved)
	}
	return m
}

// TimerMsg starts a challenge's timer (again, if it ran), until the learner gives up.
func (TimerMsg) during() during { return keepTick }
func (msg TimerMsg) update(m Model) Model {
	if t := m.Tutor; t != nil && t.Lesson.Challenge != nil && !t.Met && !t.GaveUp && msg.Now > 0 {
		t.Started = msg.Now
	}
	return m
}

func (ReferenceMsg) during() during { return keepTick }
func (msg ReferenceMsg) update(m Model) Model {
	m.Reference = msg.Show
	if msg.Show {
		m.Pane = LessonPane
	}
	return m
}

// restart moves to a fresh start state (replace), keeping the commands typed and the terminal's
// lines too, as a shell keeps them, and notes in the terminal what the button did: note, or, for
// a lesson begun (note ""), the lesson's heading.
func (m Model) restart(fresh Model, notice, note string) Model {
	fresh.Terminal.History, fresh.Terminal.Pos = m.Terminal.History, len(m.Terminal.History)
	fresh.Terminal.Lines = slices.Clone(m.Terminal.Lines)
	if note == "" && fresh.Tutor != nil {
		note = T(m.Lang, "note.lesson", heading(m.Lang, fresh.Tutor.Lesson))
	}
	fresh.Terminal.note(note)
	return m.replace(fresh, notice)
}

func (t *Tutor) step() lesson.Step { return t.Lesson.Steps[t.Step] }

// examining reports whether the page should say no unasked word on a cause (no "not here"
// placeholders, no editor lints), which would give the answer away: while a challenge is under
// way and not given up, as an exam would not, and while a lesson step's prediction waits for its
// answer. What the learner asks for (kubectl, a node's details) it answers as ever.
func (m Model) examining() bool {
	t := m.Tutor
	switch {
	case t == nil:
		return false
	case t.Lesson.Challenge != nil:
		return !t.GaveUp && !t.Met
	}
	return t.step().Predict != nil && t.Predicted == 0 && !t.Revealed
}

// text is the current step's prose in a language.
func (t *Tutor) text(l Lang) lesson.StepText { return t.Lesson.Text[string(l)].Steps[t.step().ID] }

// typed records a command line the learner ran, in a lesson.
func (m *Model) typed(line string) {
	if m.Tutor != nil {
		m.Tutor.Typed = append(m.Tutor.Typed, line)
	}
}

// observe checks a lesson step's goal: it is met once the prediction, if any, is made (or its
// answer revealed) and the goal holds for what the learner ran (typed). A met step counts in the
// progress. A challenge's checks run only at Check (CheckMsg).
func (m *Model) observe() {
	t := m.Tutor
	if t == nil || t.Lesson.Challenge != nil {
		return
	}
	if m.Tick != nil {
		return // the goal is judged when the clock has stopped moving
	}
	st := t.step()
	t.Met = (st.Predict == nil || t.Predicted > 0 || t.Revealed) && st.Met(m.Sim, t.Typed)
	if t.Met {
		m.progress(t.Lesson.ID, t.Step+1)
	}
}

// LessonItem is one entry of the lesson list: its number and title, and how many of its steps
// the learner has completed; for a challenge, its result (see challengeResult; Steps is the
// best).
type LessonItem struct {
	ID, Title   string
	Done, Steps int
	Challenge   bool
	Label       string // as the picker lists it: "7. Node failure (2/4)", "3. … (solved)"
}

// TutorView is the lesson panel.
type TutorView struct {
	ID, Title, Intro string
	Heading          string // "Lesson 7 · Title", "Challenge 3 · Title", or "Your lesson · Title" for one opened from disk (number 00)
	Step, Steps      int    // 1-based
	Text             string
	Hints            []string // those shown
	MoreHints        bool
	HintCount        int      // how many hints the step has
	Question         string   // the prediction's, if the step has one
	Choices          []string // the prediction's, if the step has one
	Predicted        int      // the choice made (1-based), 0 before
	Revealed         bool     // the answer was revealed by Show solution
	Answer           int      // the right choice, once a choice is made or revealed
	Explain          string   // shown once a choice is made or revealed
	Verdict          string   // whether the choice was right, or that it was revealed
	Met, Last        bool
	PredictFirst     bool           // the step's goal waits for its prediction (what is run before it does not count)
	Solution         []SolutionLine // the solution's lines, once shown
	Recap            *RecapView     // the lesson's recap, once its last step is met
	Next             *LessonItem    // what comes next, once the last step is met
	Challenge        *ChallengeView // a challenge's
}

// SolutionLine is a line of a shown solution: the command to type, or a manifest to apply from
// the editor (Text is then its objects' kinds and names) or a file to write in its tab (Text is
// the file's name).
type SolutionLine struct {
	Text   string
	Editor bool
}

// ChallengeView is what a challenge's panel shows beside its task: the time it should take, the
// timer (its start in the page's clock, 0 when off), each check with its verdict after a Check,
// and the result.
type ChallengeView struct {
	Minutes int
	Started float64
	Checks  []CheckView // after a Check
	Solved  bool
	GaveUp  bool
	Took    float64 // ms, when solved with the timer on
	Result  string  // the best result kept in the progress, in words; "" before any
}

// CheckView is one check of a challenge: what it verifies, and whether it passed.
type CheckView struct {
	Text   string
	Passed bool
}

// RecapView is a lesson's recap: the rules it taught, the commands it used, and the seed
// tutorials' claims it tested with their verdicts.
type RecapView struct {
	Rules, Commands []string
	Claims          []ClaimView
}

// ClaimView is a seed tutorial's claim, where it is, and what v1.37 says of it, in words.
type ClaimView struct {
	Text, Where, Verdict string
}

// Picker is the lesson picker: the lessons and challenges it lists (the first LessonsListed
// while LessonsLater) with the learner's progress, in a language, and the lesson being taken
// ("" in the sandbox).
type Picker struct {
	Lessons []LessonItem
	Lang    Lang
	Current string
	Waiting string // while the lessons are downloading (Library.Waiting), what the picker says
}

// RenderPicker is the lesson picker alone: the page draws it as the lessons are listed
// (ShowLessonsMsg), without the rest of the view.
func RenderPicker(m Model) Picker {
	pk := Picker{Lang: m.Lang}
	if m.lib.Waiting() && !slices.Contains(m.Missing, AssetLessons) {
		pk.Waiting = T(m.Lang, "asset.lessons.waiting")
	}
	if m.Tutor != nil {
		pk.Current = m.Tutor.Lesson.ID
	}
	n := math.MaxInt
	if m.LessonsLater {
		n = m.LessonsListed
	}
	lessons, challenges := m.lib.catalog(n)
	for _, ls := range lessons {
		title := ls.Text[string(m.Lang)].Title
		pk.Lessons = append(pk.Lessons, LessonItem{ID: ls.ID, Title: title, Done: m.Progress[ls.ID], Steps: len(ls.Steps),
			Label: T(m.Lang, "lesson.item", number(ls), title, m.Progress[ls.ID], len(ls.Steps))})
	}
	for _, c := range challenges {
		title, done := c.Text[string(m.Lang)].Title, m.Progress[c.ID]
		label := T(m.Lang, "challenge.item", number(c), title)
		if done > 0 {
			label = T(m.Lang, "challenge.itemDone", number(c), title, challengeResult(m.Lang, done))
		}
		pk.Lessons = append(pk.Lessons, LessonItem{ID: c.ID, Title: title, Done: done, Steps: challengeSolved, Challenge: true, Label: label})
	}
	return pk
}

// number is a lesson's or a challenge's number, from its directory's name; 0 for one opened
// from disk.
func number(l *lesson.Lesson) int {
	n, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(l.ID, challengePrefix), "-", 2)[0])
	return n
}

// heading is a lesson's heading: "Lesson 7 · Node failure", "Challenge 3 · …", "Your lesson · …".
func heading(l Lang, ls *lesson.Lesson) string {
	title := ls.Text[string(l)].Title
	switch n := number(ls); {
	case n == 0:
		return T(l, "lesson.own", title)
	case ls.Challenge != nil:
		return T(l, "challenge.title", n, title)
	default:
		return T(l, "lesson.title", n, title)
	}
}

// tutorView renders the lesson panel.
func tutorView(m Model) *TutorView {
	t, l := m.Tutor, m.Lang
	if t == nil {
		return nil
	}
	text := t.Lesson.Text[string(l)]
	st, prose := t.step(), t.text(l)
	v := &TutorView{ID: t.Lesson.ID, Title: text.Title, Intro: text.Intro, Step: t.Step + 1, Steps: len(t.Lesson.Steps),
		Text: prose.Text, Hints: prose.Hints[:min(t.Hints, len(prose.Hints))], MoreHints: t.Hints < len(prose.Hints), HintCount: len(prose.Hints),
		Met: t.Met, Last: t.Step == len(t.Lesson.Steps)-1, Heading: heading(l, t.Lesson)}
	if st.Predict != nil {
		v.Question, v.Choices, v.Predicted, v.Revealed = prose.Question, prose.Choices, t.Predicted, t.Revealed
		v.PredictFirst = t.Predicted == 0 && !t.Revealed
		if !v.PredictFirst {
			v.Answer, v.Explain, v.Verdict = int(st.Predict.Answer), prose.Explain, T(l, "lesson.wrong")
			switch {
			case t.Revealed:
				v.Verdict = T(l, "lesson.revealed")
			case t.Predicted == v.Answer:
				v.Verdict = T(l, "lesson.right")
			}
		}
	}
	for _, line := range st.Solution[:t.Solution] {
		if file, ok := lesson.WritesFile(line.Run); ok {
			v.Solution = append(v.Solution, SolutionLine{Text: file, Editor: true})
		} else if line.Stdin != "" {
			v.Solution = append(v.Solution, SolutionLine{Text: manifestLabel(line.Stdin), Editor: true})
		} else {
			v.Solution = append(v.Solution, SolutionLine{Text: line.Run})
		}
	}
	if t.Lesson.Challenge != nil {
		v.Challenge = challengeView(m)
	}
	if t.Met && v.Last {
		v.Recap = recapView(l, t.Lesson)
		if next := m.lib.next(t.Lesson); next != nil && t.Lesson.ID != "00-your-lesson" {
			v.Next = &LessonItem{ID: next.ID, Title: heading(l, next), Challenge: next.Challenge != nil}
		}
	}
	return v
}

// manifestLabel names a solution's manifest by its objects: "DaemonSet node-exporter".
func manifestLabel(manifest string) string {
	objects, _ := api.Decode([]byte(manifest)) // a lesson's solution decodes: the tests apply it
	var names []string
	for _, o := range objects {
		names = append(names, o.Kind.Kind+" "+o.Object.GetObjectMeta().Name)
	}
	return strings.Join(names, ", ")
}

// challengeView is a challenge's part of the panel.
func challengeView(m Model) *ChallengeView {
	t, l := m.Tutor, m.Lang
	cv := &ChallengeView{Minutes: int(t.Lesson.Challenge.Minutes), Started: t.Started, Solved: t.Met, GaveUp: t.GaveUp, Took: t.Took,
		Result: challengeResult(l, m.Progress[t.Lesson.ID])}
	checks := t.text(l).Checks
	for i, passed := range t.Checked {
		cv.Checks = append(cv.Checks, CheckView{Text: checks[i], Passed: passed})
	}
	return cv
}

// challengeResult is a challenge's result as the progress keeps it, in words.
func challengeResult(l Lang, result int) string {
	switch result {
	case challengeSolved:
		return T(l, "challenge.solved")
	case challengeWithHints:
		return T(l, "challenge.hints")
	case challengeGaveUp:
		return T(l, "challenge.gaveup")
	}
	return ""
}

// recapView is a lesson's recap in a language; nil for a lesson without one.
func recapView(l Lang, ls *lesson.Lesson) *RecapView {
	r := ls.Recap
	if r == nil {
		return nil
	}
	text := ls.Text[string(l)].Recap
	v := &RecapView{Rules: text.Rules, Commands: r.Commands}
	for i, c := range r.Claims {
		v.Claims = append(v.Claims, ClaimView{Text: text.Claims[i], Where: T(l, "recap.where."+c.Seed, c.Section), Verdict: T(l, "recap."+c.Verdict)})
	}
	return v
}

// ReferenceView is every lesson's recap, in order: the reference a learner comes back to.
type ReferenceView struct {
	Lessons []ReferenceEntry
}

// ReferenceEntry is one lesson's recap in the reference, and whether the learner has finished
// the lesson (the page folds the recaps of the others, which answer their predictions).
type ReferenceEntry struct {
	ID, Heading string
	Done        bool
	Recap       RecapView
}

// referenceView renders the reference (all the lessons are read).
func referenceView(m Model) *ReferenceView {
	if !m.Reference {
		return nil
	}
	lessons, _ := m.lib.lessons.take(math.MaxInt, m.lib.builtIn)
	v := &ReferenceView{}
	for _, ls := range lessons {
		if r := recapView(m.Lang, ls); r != nil {
			v.Lessons = append(v.Lessons, ReferenceEntry{ID: ls.ID, Heading: heading(m.Lang, ls), Done: m.Progress[ls.ID] >= len(ls.Steps), Recap: *r})
		}
	}
	return v
}

// ProgressFile is the learner's progress as a file (steps completed by lesson ID, and results by
// challenge ID, JSON): the page exports it, and keeps it in its storage.
func ProgressFile(m Model) []byte {
	data, _ := json.Marshal(m.Progress) // a map of ints always marshals
	return data
}

// ReadProgress reads the progress the page kept (ProgressFile); anything unreadable, or none,
// is no progress.
func ReadProgress(saved string) map[string]int {
	progress := map[string]int{}
	if json.Unmarshal([]byte(saved), &progress) != nil {
		return map[string]int{}
	}
	return progress
}

// parseProgress reads a progress file (what the page exports: steps completed by lesson ID,
// results by challenge ID) and checks it against the lessons: known IDs, counts within their
// steps, results among those a challenge has.
func (lib *Library) parseProgress(data []byte) (map[string]int, error) {
	var progress map[string]int
	var session Saved
	if json.Unmarshal(data, &session) == nil && session.Version != 0 {
		return nil, errors.New("it is a session file: open it with Open session")
	}
	if len(data) > 64<<10 || json.Unmarshal(data, &progress) != nil {
		return nil, errors.New("it is not a DaemonLab progress file")
	}
	for id, done := range progress {
		l, ok := lib.findLesson(id)
		most := challengeSolved
		if ok && l.Challenge == nil {
			most = len(l.Steps)
		}
		if !ok || l.ID != id || done < 0 || done > most {
			return nil, fmt.Errorf("it names no step %d of a lesson %q", done, id)
		}
	}
	return progress, nil
}

// TimerText is a challenge's timer at now (the page's clock, in milliseconds): the time left of
// the suggested minutes since started, "4:05 left", or how far over it the learner is.
func TimerText(l Lang, minutes int, started, now float64) string {
	left := int64(minutes)*60 - int64(max(now-started, 0))/1000
	if left >= 0 {
		return T(l, "challenge.left", clockText(left))
	}
	return T(l, "challenge.over", clockText(-left))
}

// TookText is how long a solved challenge took (milliseconds), as the panel says it.
func TookText(l Lang, took float64) string {
	return T(l, "challenge.took", clockText(int64(took)/1000))
}

// clockText is a number of seconds as minutes and seconds: "4:05".
func clockText(seconds int64) string { return fmt.Sprintf("%d:%02d", seconds/60, seconds%60) }
