package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"strings"

	"daemonlab/core/lesson"
	"daemonlab/lessons"
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

// builtIn holds the lessons the page ships as far as they have been read (each is read once): the
// page reads them a lesson at a time after its first paint (see Model.LessonsLater); whatever
// needs them all reads the rest at once.
var builtIn struct {
	read   []*lesson.Lesson
	reader *lesson.Reader
	err    error
}

// readLessons reads built-in lessons until n are read or none are left, and returns those read.
func readLessons(n int) ([]*lesson.Lesson, error) {
	openLessons()
	for builtIn.err == nil && len(builtIn.read) < n && builtIn.reader.Left() > 0 {
		l, err := builtIn.reader.Next()
		if err != nil {
			builtIn.err = err
			break
		}
		builtIn.read = append(builtIn.read, l)
	}
	return builtIn.read[:min(n, len(builtIn.read))], builtIn.err
}

// openLessons lists the built-in lessons' directories, once.
func openLessons() {
	if builtIn.reader == nil && builtIn.err == nil {
		builtIn.reader, builtIn.err = lesson.NewReader(lessons.Files, lessons.BuiltIn)
	}
}

// lessonCount is the number of built-in lessons, read or not.
func lessonCount() int {
	openLessons()
	if builtIn.err != nil {
		return len(builtIn.read)
	}
	return len(builtIn.read) + builtIn.reader.Left()
}

// allLessons returns the built-in lessons (lessons_test guarantees they parse).
func allLessons() ([]*lesson.Lesson, error) {
	return readLessons(math.MaxInt)
}

// findLesson returns the lesson with an ID, or by its number ("7" for 07-node-failure).
func findLesson(id string) (*lesson.Lesson, bool) {
	all, err := allLessons()
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

// startModel is where a session starts: the playground's start state, or a lesson's.
func startModel(lessonID string) (Model, error) {
	if lessonID == "" {
		return NewModel()
	}
	l, ok := findLesson(lessonID)
	if !ok {
		return Model{}, fmt.Errorf("there is no lesson %q", lessonID)
	}
	return lessonModel(l)
}

// lessonFiles are the files of a lesson opened from disk.
var lessonFiles = []string{"lesson.yaml", "en.yaml", "zh-CN.yaml"}

// openedLesson parses a lesson a teacher opened from disk, as strictly as the built-in ones.
func openedLesson(files map[string]string) (*lesson.Lesson, error) {
	for _, name := range lessonFiles {
		if _, ok := files[name]; !ok {
			return nil, fmt.Errorf("open the three files lesson.yaml, en.yaml and zh-CN.yaml together (%s is missing)", name)
		}
	}
	return lesson.Parse("00-your-lesson", []byte(files["lesson.yaml"]),
		map[string][]byte{"en": []byte(files["en.yaml"]), "zh-CN": []byte(files["zh-CN.yaml"])}, lessons.BuiltIn)
}

// lessonModel is a lesson's start state, with its tutor at the first step.
func lessonModel(l *lesson.Lesson) (Model, error) {
	s, err := l.Start()
	if err != nil {
		return Model{}, err
	}
	return Model{Sim: s, History: newHistory(s.C), Editor: l.Editor, Speed: DefaultSpeed, Lang: English,
		Tutor: &Tutor{Lesson: l}}, nil
}

// updateLesson handles the lesson messages; ok is false for any other message.
func updateLesson(m Model, msg any) (Model, bool) {
	t := m.Tutor
	switch msg := msg.(type) {
	case LessonMsg:
		fresh, err := startModel(msg.ID)
		if err != nil {
			return m, true // the page offers only lessons that exist
		}
		return m.restart(fresh), true
	case ProgressMsg:
		progress, err := parseProgress([]byte(msg.Data))
		if err != nil {
			m.Notice, m.NoticeArg = "progress.bad", err.Error()
			return m, true
		}
		m.Progress = maps.Clone(m.Progress) // a Model is a value: its map is not shared
		if m.Progress == nil {
			m.Progress = map[string]int{}
		}
		for id, done := range progress {
			m.Progress[id] = max(m.Progress[id], done)
		}
		m.Notice, m.NoticeArg = "progress.done", ""
	case OpenMsg:
		l, err := openedLesson(msg.Files)
		if err == nil {
			var fresh Model
			if fresh, err = lessonModel(l); err == nil {
				fresh.Tutor.Files = msg.Files
				return m.restart(fresh), true
			}
		}
		m.Notice, m.NoticeArg = "lesson.bad", err.Error()
	case PredictMsg:
		if t != nil && t.step().Predict != nil && t.Predicted == 0 && msg.Choice >= 1 && msg.Choice <= int(t.step().Predict.Choices) {
			t.Predicted = msg.Choice
			t.Typed = nil // predict, then observe: what was looked at before does not count
		}
	case HintMsg:
		if t != nil {
			t.Hints = min(t.Hints+1, len(t.text(m.Lang).Hints))
		}
	case SolutionMsg:
		if t == nil || t.Solution >= len(t.step().Solution) {
			return m, true
		}
		if p := t.step().Predict; p != nil && t.Predicted == 0 {
			t.Predicted = int(p.Answer) // the solution answers the question too
		}
		line := t.step().Solution[t.Solution]
		t.Solution++
		if line.Stdin != "" {
			return Update(m, ApplyMsg{Text: line.Stdin}), true
		}
		return Update(m, RunMsg{Line: line.Run}), true
	case NextStepMsg:
		if t != nil && t.Met && t.Step < len(t.Lesson.Steps)-1 {
			*t = Tutor{Lesson: t.Lesson, Step: t.Step + 1}
		}
	default:
		return m, false
	}
	return m, true
}

// restart moves to a fresh start state, keeping what outlives a session: the language, the
// progress, how the clock moves (Chunk) and the commands typed.
func (m Model) restart(fresh Model) Model {
	fresh.Lang, fresh.Progress, fresh.Chunk = m.Lang, m.Progress, m.Chunk
	fresh.Terminal.History, fresh.Terminal.Pos = m.Terminal.History, len(m.Terminal.History)
	return fresh
}

func (t *Tutor) step() lesson.Step { return t.Lesson.Steps[t.Step] }

// text is the current step's prose in a language.
func (t *Tutor) text(l Lang) lesson.StepText { return t.Lesson.Text[string(l)].Steps[t.step().ID] }

// observe records what the learner did (a command line) and checks the step's goal: it is met
// once the prediction, if any, is made and the goal holds. A met step counts in the progress.
func (m *Model) observe(line string) {
	t := m.Tutor
	if t == nil {
		return
	}
	if line != "" {
		t.Typed = append(t.Typed, line)
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
	Step, Steps      int // 1-based
	Text             string
	Hints            []string // those shown
	MoreHints        bool
	Choices          []string // the prediction's, if the step has one
	Predicted        int      // the choice made (1-based), 0 before
	Answer           int      // the right choice, once a choice is made
	Explain          string   // shown once a choice is made
	Met, Last        bool
	NextSolution     string // the command "Show solution" runs next, "" when none is left
}

// lessonList is what the lesson picker lists: the lessons (the first LessonsListed while
// LessonsLater) with the learner's progress.
func lessonList(m Model) []LessonItem {
	n := math.MaxInt
	if m.LessonsLater {
		n = m.LessonsListed
	}
	listed, _ := readLessons(n)
	var out []LessonItem
	for _, ls := range listed {
		out = append(out, LessonItem{ID: ls.ID, Title: ls.Text[string(m.Lang)].Title, Done: m.Progress[ls.ID], Steps: len(ls.Steps)})
	}
	return out
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
		Met: t.Met, Last: t.Step == len(t.Lesson.Steps)-1}
	if st.Predict != nil {
		v.Choices, v.Predicted = prose.Choices, t.Predicted
		if t.Predicted > 0 {
			v.Answer, v.Explain = int(st.Predict.Answer), prose.Explain
		}
	}
	if t.Solution < len(st.Solution) {
		v.NextSolution = st.Solution[t.Solution].Run
	}
	return v
}

// parseProgress reads a progress file (what the page exports: steps completed by lesson ID) and
// checks it against the lessons: known IDs, counts within their steps.
func parseProgress(data []byte) (map[string]int, error) {
	var progress map[string]int
	if len(data) > 64<<10 || json.Unmarshal(data, &progress) != nil {
		return nil, errors.New("it is not a DaemonLab progress file")
	}
	for id, done := range progress {
		l, ok := findLesson(id)
		if !ok || l.ID != id || done < 0 || done > len(l.Steps) {
			return nil, fmt.Errorf("it names no step %d of a lesson %q", done, id)
		}
	}
	return progress, nil
}
