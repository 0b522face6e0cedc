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

	"daemonlab/core/lesson"
)

// Tutor is the lesson being taken: which step the learner is on, and what they did in it.
type Tutor struct {
	Lesson    *lesson.Lesson
	Step      int               // the current step's index
	Typed     []string          // the command lines run since the step began
	Predicted int               // the choice made for the step's prediction (1-based); 0 before
	Hints     int               // how many hints are shown
	Solution  int               // how many solution lines "Show solution" has run
	Met       bool              // the step's goal holds (checked after every message)
	Files     map[string]string // a lesson opened from disk: its files, kept with the session
}

// The lesson messages: start a lesson (an empty ID leaves for the sandbox), predict, ask for a
// hint, run the solution's next line, go on to the next step.
type (
	LessonMsg   struct{ ID string }
	OpenMsg     struct{ Files map[string]string } // a lesson's files opened from disk, by name
	ProgressMsg struct{ Data string }             // a progress file to merge into the progress
	PredictMsg  struct{ Choice int }
	HintMsg     struct{}
	SolutionMsg struct{}
	NextStepMsg struct{}
)

// readLessons reads built-in lessons until n are read or none are left, and returns those read.
func (lib *Library) readLessons(n int) ([]*lesson.Lesson, error) {
	lib.openLessons()
	for lib.err == nil && len(lib.read) < n && lib.reader.Left() > 0 {
		l, err := lib.reader.Next()
		if err != nil {
			lib.err = err
			break
		}
		lib.read = append(lib.read, l)
	}
	return lib.read[:min(n, len(lib.read))], lib.err
}

// openLessons lists the built-in lessons' directories, once.
func (lib *Library) openLessons() {
	if lib.reader == nil && lib.err == nil {
		lib.reader, lib.err = lesson.NewReader(lib.files, lib.builtIn)
	}
}

// lessonCount is the number of built-in lessons, read or not.
func (lib *Library) lessonCount() int {
	lib.openLessons()
	if lib.err != nil {
		return len(lib.read)
	}
	return len(lib.read) + lib.reader.Left()
}

// findLesson returns the lesson with an ID, or by its number ("7" for 07-node-failure).
func (lib *Library) findLesson(id string) (*lesson.Lesson, bool) {
	all, err := lib.readLessons(math.MaxInt)
	if err != nil {
		return nil, false
	}
	for _, l := range all {
		if l.ID == id || strings.TrimLeft(strings.SplitN(l.ID, "-", 2)[0], "0") == id {
			return l, true
		}
	}
	return nil, false
}

// StartModel is where a session starts: the playground's start state, or a lesson's (by its ID
// or its number, as a #lesson=N link names it).
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

// lessonFiles are the files of a lesson opened from disk.
var lessonFiles = []string{"lesson.yaml", "en.yaml", "zh-CN.yaml"}

// openedLesson parses a lesson a teacher opened from disk, as strictly as the built-in ones.
func (lib *Library) openedLesson(files map[string]string) (*lesson.Lesson, error) {
	for _, name := range lessonFiles {
		if _, ok := files[name]; !ok {
			return nil, fmt.Errorf("open the three files lesson.yaml, en.yaml and zh-CN.yaml together (%s is missing)", name)
		}
	}
	return lesson.Parse("00-your-lesson", []byte(files["lesson.yaml"]),
		map[string][]byte{"en": []byte(files["en.yaml"]), "zh-CN": []byte(files["zh-CN.yaml"])}, lib.builtIn)
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
	if msg.ID == "" && m.Tutor != nil { // leaving a lesson: back to the learner's own sandbox, if kept
		for i, k := range m.Kept {
			if k.Lesson == "" {
				return m.openKept(i, "sandbox.back")
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
	m.Progress = maps.Clone(m.Progress) // a Model is a value: its map is not shared
	if m.Progress == nil {
		m.Progress = map[string]int{}
	}
	for id, done := range progress {
		m.Progress[id] = max(m.Progress[id], done)
	}
	m.Notice, m.NoticeArg = "progress.done", ""
	return m
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
	if t := m.Tutor; t != nil && t.step().Predict != nil && t.Predicted == 0 && msg.Choice >= 1 && msg.Choice <= int(t.step().Predict.Choices) {
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

func (SolutionMsg) during() during { return finishTick }
func (SolutionMsg) update(m Model) Model {
	t := m.Tutor
	if t == nil || t.Solution >= len(t.step().Solution) {
		return m
	}
	if p := t.step().Predict; p != nil && t.Predicted == 0 {
		t.Predicted = int(p.Answer) // the solution answers the question too
	}
	line := t.step().Solution[t.Solution]
	t.Solution++
	if line.Stdin != "" {
		return Update(m, ApplyMsg{Text: line.Stdin})
	}
	return Update(m, RunMsg{Line: line.Run})
}

func (NextStepMsg) during() during { return finishTick }
func (NextStepMsg) update(m Model) Model {
	if t := m.Tutor; t != nil && t.Met && t.Step < len(t.Lesson.Steps)-1 {
		*t = Tutor{Lesson: t.Lesson, Step: t.Step + 1}
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
		note = T(m.Lang, "note.lesson", tutorView(m.Lang, fresh.Tutor).Heading)
	}
	fresh.Terminal.note(note)
	return m.replace(fresh, notice)
}

func (t *Tutor) step() lesson.Step { return t.Lesson.Steps[t.Step] }

// text is the current step's prose in a language.
func (t *Tutor) text(l Lang) lesson.StepText { return t.Lesson.Text[string(l)].Steps[t.step().ID] }

// typed records a command line the learner ran, in a lesson.
func (m *Model) typed(line string) {
	if m.Tutor != nil {
		m.Tutor.Typed = append(m.Tutor.Typed, line)
	}
}

// observe checks the step's goal: it is met once the prediction, if any, is made and the goal
// holds for what the learner ran (typed). A met step counts in the progress.
func (m *Model) observe() {
	t := m.Tutor
	if t == nil {
		return
	}
	if m.Tick != nil {
		return // the goal is judged when the clock has stopped moving
	}
	st := t.step()
	t.Met = (st.Predict == nil || t.Predicted > 0) && st.Met(m.Sim, t.Typed)
	if id := t.Lesson.ID; t.Met && m.Progress[id] < t.Step+1 {
		m.Progress = maps.Clone(m.Progress) // a Model is a value: its map is not shared
		if m.Progress == nil {
			m.Progress = map[string]int{}
		}
		m.Progress[id] = t.Step + 1
	}
}

// LessonItem is one entry of the lesson list: its number and title, and how many of its steps
// the learner has completed.
type LessonItem struct {
	ID, Title   string
	Done, Steps int
}

// TutorView is the lesson panel.
type TutorView struct {
	ID, Title, Intro string
	Heading          string // "Lesson 7 · Title", or "Your lesson · Title" for one opened from disk (number 00)
	Step, Steps      int    // 1-based
	Text             string
	Hints            []string // those shown
	MoreHints        bool
	Choices          []string // the prediction's, if the step has one
	Predicted        int      // the choice made (1-based), 0 before
	Answer           int      // the right choice, once a choice is made
	Explain          string   // shown once a choice is made
	Verdict          string   // whether the choice was right, once it is made
	Met, Last        bool
	NextSolution     string // the command "Show solution" runs next, "" when none is left
}

// Picker is the lesson picker: the lessons it lists (the first LessonsListed while
// LessonsLater) with the learner's progress, in a language, and the lesson being taken ("" in
// the sandbox).
type Picker struct {
	Lessons []LessonItem
	Lang    Lang
	Current string
}

// RenderPicker is the lesson picker alone: the page draws it as the lessons are listed
// (ShowLessonsMsg), without the rest of the view.
func RenderPicker(m Model) Picker {
	pk := Picker{Lang: m.Lang}
	if m.Tutor != nil {
		pk.Current = m.Tutor.Lesson.ID
	}
	n := math.MaxInt
	if m.LessonsLater {
		n = m.LessonsListed
	}
	listed, _ := m.lib.readLessons(n)
	for _, ls := range listed {
		pk.Lessons = append(pk.Lessons, LessonItem{ID: ls.ID, Title: ls.Text[string(m.Lang)].Title, Done: m.Progress[ls.ID], Steps: len(ls.Steps)})
	}
	return pk
}

// tutorView renders the lesson panel.
func tutorView(l Lang, t *Tutor) *TutorView {
	if t == nil {
		return nil
	}
	text := t.Lesson.Text[string(l)]
	st, prose := t.step(), t.text(l)
	v := &TutorView{ID: t.Lesson.ID, Title: text.Title, Intro: text.Intro, Step: t.Step + 1, Steps: len(t.Lesson.Steps),
		Text: prose.Text, Hints: prose.Hints[:min(t.Hints, len(prose.Hints))], MoreHints: t.Hints < len(prose.Hints),
		Met: t.Met, Last: t.Step == len(t.Lesson.Steps)-1, Heading: T(l, "lesson.own", text.Title)}
	if number, _ := strconv.Atoi(strings.SplitN(t.Lesson.ID, "-", 2)[0]); number > 0 {
		v.Heading = T(l, "lesson.title", number, text.Title)
	}
	if st.Predict != nil {
		v.Choices, v.Predicted = prose.Choices, t.Predicted
		if t.Predicted > 0 {
			v.Answer, v.Explain, v.Verdict = int(st.Predict.Answer), prose.Explain, T(l, "lesson.wrong")
			if v.Predicted == v.Answer {
				v.Verdict = T(l, "lesson.right")
			}
		}
	}
	if t.Solution < len(st.Solution) {
		v.NextSolution = st.Solution[t.Solution].Run
	}
	return v
}

// ProgressFile is the learner's progress as a file (steps completed by lesson ID, JSON): the page
// exports it, and keeps it in its storage.
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

// parseProgress reads a progress file (what the page exports: steps completed by lesson ID) and
// checks it against the lessons: known IDs, counts within their steps.
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
		if !ok || l.ID != id || done < 0 || done > len(l.Steps) {
			return nil, fmt.Errorf("it names no step %d of a lesson %q", done, id)
		}
	}
	return progress, nil
}
