// Package lesson runs DaemonLab's guided lessons: it parses a lesson (a lesson.yaml with the start
// state and the steps, and one prose file per language) strictly, builds its start state, and
// checks its goals against the live cluster. The lessons themselves are data, in lessons/.
package lesson

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/scenario"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// Lesson is one guided lesson, or a challenge: a start state (cluster, seed, built-in manifests
// applied, setup commands, the editor's text), ordered steps, a recap, and its prose in each
// language. Everything in it is data: goals are command lines checked as scenario steps are,
// solutions are command lines.
type Lesson struct {
	ID        string          `json:"-"` // the directory's name, "01-one-pod-per-node"
	Challenge *Challenge      `json:"challenge,omitempty"`
	Cluster   string          `json:"cluster,omitempty"`
	Seed      *uint64         `json:"seed,omitempty"`
	Apply     []string        `json:"apply,omitempty"` // built-in manifests applied first, by name
	Setup     []scenario.Step `json:"setup,omitempty"`
	Editor    string          `json:"editor,omitempty"`
	Steps     []Step          `json:"steps"`
	Recap     *Recap          `json:"recap,omitempty"`
	Text      map[string]Text `json:"-"` // by language: "en", "zh-CN"

	manifests []string // the built-in manifests Apply names
}

// Challenge makes a lesson a challenge: one task in the style of an exam question, from a
// broken or incomplete start state. Its checks stay hidden until the learner asks for them,
// its hints until asked for one at a time, its solution until the learner gives up. Minutes is
// the time the task should take, for the learner's optional timer.
type Challenge struct {
	Minutes int32 `json:"minutes"`
}

// Step is one step: an optional prediction to make first, the goal and a solution that reaches
// it. The goal holds when every check passes on the live cluster (checks only read) and, with
// Ran, when the learner has run one of its kubectl command lines since the step began, in any
// spelling kubectl reads the same way (see Look) — for steps whose point is to look
// (`kubectl get pods -o wide`). Accepts and Refuses are spellings a learner might type, which
// Parse checks Ran accepts and refuses.
type Step struct {
	ID       string          `json:"id"`
	Predict  *Predict        `json:"predict,omitempty"`
	Goal     []scenario.Step `json:"goal,omitempty"`
	Ran      []string        `json:"ran,omitempty"`
	Accepts  []string        `json:"accepts,omitempty"`
	Refuses  []string        `json:"refuses,omitempty"`
	Solution []scenario.Step `json:"solution"`

	looks []Look // Ran, parsed
}

// Predict asks the learner what will happen before they observe it: Choices answers are offered
// (their text is in the language files), Answer (1-based) is right.
type Predict struct {
	Choices int32 `json:"choices"`
	Answer  int32 `json:"answer"`
}

// Recap is what a lesson leaves the learner with, beside its rules (in the language files): the
// commands it used and the claims of the seed tutorials it tested.
type Recap struct {
	Commands []string `json:"commands"`
	Claims   []Claim  `json:"claims,omitempty"`
}

// Claim is a claim of one of the tutorials DaemonLab grows from (shared/seeds), tested by a
// step: which tutorial ("000" or "003") and section, whether Kubernetes v1.37 bears it out
// (Verdicts), and the step. The claim's words are in the language files.
type Claim struct {
	Seed    string `json:"seed"`
	Section string `json:"section"`
	Verdict string `json:"verdict"`
	Step    string `json:"step"`
}

// Verdicts are what a claim can be found: true in v1.37, false in v1.37, or true once and no
// longer.
var Verdicts = []string{"true", "false", "outdated"}

// Text is a lesson's prose in one language.
type Text struct {
	Title string              `json:"title"`
	Intro string              `json:"intro"`
	Steps map[string]StepText `json:"steps"`
	Recap RecapText           `json:"recap"`
}

// StepText is one step's prose: what to do, hints (shown one at a time, from the concept to
// the command), a prediction's question, choices and what explains its answer, and for a
// challenge what each check of the goal verifies.
type StepText struct {
	Text     string   `json:"text"`
	Hints    []string `json:"hints"`
	Question string   `json:"question,omitempty"`
	Choices  []string `json:"choices,omitempty"`
	Explain  string   `json:"explain,omitempty"`
	Checks   []string `json:"checks,omitempty"`
}

// RecapText is a recap's prose: the rules the lesson taught, and each tested claim in words, in
// the order of the recap's claims.
type RecapText struct {
	Rules  []string `json:"rules"`
	Claims []string `json:"claims,omitempty"`
}

// Languages are the languages every lesson is written in.
var Languages = []string{"en", "zh-CN"}

// idPattern is a lesson directory's name: a two-digit number and a slug.
var idPattern = regexp.MustCompile(`^[0-9]{2}-[a-z0-9-]+$`)

// Load reads every lesson of a file system — one directory per lesson, named like
// "07-node-failure", holding lesson.yaml, en.yaml and zh-CN.yaml — in order. builtIn are the
// manifests a lesson's start may apply by name.
func Load(fsys fs.FS, builtIn map[string]string) ([]*Lesson, error) {
	r, err := NewReader(fsys, builtIn)
	if err != nil {
		return nil, err
	}
	var out []*Lesson
	for r.Left() > 0 {
		l, err := r.Next()
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// Reader reads the lessons of a file system one at a time, as Load does at once, so that a page
// can list them a piece at a time.
type Reader struct {
	fsys    fs.FS
	builtIn map[string]string
	dirs    []string // the lessons' directories not read yet, in order
}

// NewReader lists the lesson directories of fsys.
func NewReader(fsys fs.FS, builtIn map[string]string) (*Reader, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	r := &Reader{fsys: fsys, builtIn: builtIn}
	for _, d := range entries {
		if d.IsDir() && idPattern.MatchString(d.Name()) {
			r.dirs = append(r.dirs, d.Name())
		}
	}
	return r, nil
}

// Left is the number of lessons left to read.
func (r *Reader) Left() int { return len(r.dirs) }

// Next reads the next lesson; a lesson that does not parse stops the reader.
func (r *Reader) Next() (*Lesson, error) {
	dir := r.dirs[0]
	read := func(name string) []byte {
		data, _ := fs.ReadFile(r.fsys, path.Join(dir, name)) // a missing file fails to parse
		return data
	}
	l, err := Parse(dir, read("lesson.yaml"), map[string][]byte{"en": read("en.yaml"), "zh-CN": read("zh-CN.yaml")}, r.builtIn)
	if err != nil {
		r.dirs = nil
		return nil, fmt.Errorf("lesson %s: %w", dir, err)
	}
	r.dirs = r.dirs[1:]
	return l, nil
}

// Parse reads a lesson strictly — the lesson file and one prose file per language — and checks
// that they agree:
//
//  0. the manifests its start applies are built-in ones;
//  1. a lesson has 3 to 6 steps with unique ids, each with a goal and a solution; a challenge
//     has one, whose goal has checks and no prediction or ran, and takes 1 to 60 minutes;
//  2. every goal and solution line is a valid command step; a solution may feed stdin only to
//     `kubectl apply -f -` (the page applies it from the editor's manifest) and to `cat > FILE`
//     (the page writes it in the file's tab);
//  3. ran lines are kubectl command lines (see ParseLook), which accept every line of accepts
//     and none of refuses;
//  4. a prediction has 2 to 5 choices and an answer among them;
//  5. a recap lists commands, and its claims name a tutorial, a verdict and a step;
//  6. every language has a title, an intro and exactly the lesson's steps, each with text and at
//     least one hint, a question, as many choices as the prediction has and an explanation,
//     and as many checks as a challenge's goal has; a recap's rules, and a text per claim.
func Parse(id string, lesson []byte, texts map[string][]byte, builtIn map[string]string) (*Lesson, error) {
	var l Lesson
	if err := api.DecodeStrict(lesson, &l, "lesson file"); err != nil {
		return nil, fmt.Errorf("lesson.yaml: %w", err)
	}
	l.ID = id
	topology, err := sim.ParseTopology(l.Cluster)
	if err != nil {
		return nil, fmt.Errorf("lesson.yaml: %w", err)
	}
	l.Cluster = string(topology)
	if err := l.checkShape(); err != nil {
		return nil, fmt.Errorf("lesson.yaml: %w", err)
	}
	for _, name := range l.Apply {
		manifest, ok := builtIn[name]
		if !ok {
			return nil, fmt.Errorf("lesson.yaml: apply %q: there is no such built-in manifest", name)
		}
		l.manifests = append(l.manifests, manifest)
	}
	for i, st := range l.Setup {
		if err := st.Validate(); err != nil {
			return nil, fmt.Errorf("lesson.yaml: setup %d: %w", i+1, err)
		}
	}
	var ids []string
	for i := range l.Steps {
		st := &l.Steps[i]
		if err := st.validate(ids); err != nil {
			return nil, fmt.Errorf("lesson.yaml: step %q: %w", st.ID, err)
		}
		ids = append(ids, st.ID)
	}
	if err := l.Recap.validate(ids); err != nil {
		return nil, fmt.Errorf("lesson.yaml: recap: %w", err)
	}
	l.Text = map[string]Text{}
	for _, lang := range Languages {
		var t Text
		if err := api.DecodeStrict(texts[lang], &t, "lesson file"); err != nil {
			return nil, fmt.Errorf("%s.yaml: %w", lang, err)
		}
		if err := l.checkText(t); err != nil {
			return nil, fmt.Errorf("%s.yaml: %w", lang, err)
		}
		l.Text[lang] = t
	}
	return &l, nil
}

// checkShape checks the steps a lesson or a challenge has.
func (l *Lesson) checkShape() error {
	n := len(l.Steps)
	if c := l.Challenge; c != nil {
		switch {
		case n != 1:
			return fmt.Errorf("a challenge has one step, its task, not %d", n)
		case c.Minutes < 1 || c.Minutes > 60:
			return fmt.Errorf("challenge: minutes is 1 to 60, not %d", c.Minutes)
		case len(l.Steps[0].Goal) == 0 || l.Steps[0].Predict != nil || len(l.Steps[0].Ran) > 0:
			return errors.New("a challenge's task has checks in its goal, and no prediction or ran")
		}
		return nil
	}
	if n < 3 || n > 6 {
		return fmt.Errorf("a lesson has 3 to 6 steps, not %d", n)
	}
	return nil
}

func (st *Step) validate(before []string) error {
	switch {
	case st.ID == "":
		return errors.New("a step needs an id")
	case slices.Contains(before, st.ID):
		return errors.New("the id is used twice")
	case len(st.Goal) == 0 && len(st.Ran) == 0:
		return errors.New("a step needs a goal: checks, ran, or both")
	case len(st.Solution) == 0:
		return errors.New("a step needs a solution")
	case len(st.Ran) == 0 && len(st.Accepts)+len(st.Refuses) > 0:
		return errors.New("accepts and refuses are spellings of ran, which the step does not have")
	}
	st.looks = nil
	for _, line := range st.Ran {
		look, err := ParseLook(line)
		if err != nil {
			return fmt.Errorf("ran %q: %w", line, err)
		}
		st.looks = append(st.looks, look)
	}
	for _, line := range st.Accepts {
		if !st.ranLine(line) {
			return fmt.Errorf("ran does not accept %q, which accepts lists", line)
		}
	}
	for _, line := range st.Refuses {
		if st.ranLine(line) {
			return fmt.Errorf("ran accepts %q, which refuses lists", line)
		}
	}
	if p := st.Predict; p != nil && (p.Choices < 2 || p.Choices > 5 || p.Answer < 1 || p.Answer > p.Choices) {
		return fmt.Errorf("predict: %d choices with answer %d", p.Choices, p.Answer)
	}
	for i, g := range st.Goal {
		if err := g.Validate(); err != nil {
			return fmt.Errorf("goal %d: %w", i+1, err)
		}
	}
	for i, s := range st.Solution {
		if err := s.Validate(); err != nil {
			return fmt.Errorf("solution %d: %w", i+1, err)
		}
		if _, writes := WritesFile(s.Run); s.Stdin != "" && s.Run != "kubectl apply -f -" && !writes {
			return fmt.Errorf("solution %d: only kubectl apply -f - and cat > FILE read stdin", i+1)
		}
	}
	return nil
}

func (r *Recap) validate(steps []string) error {
	if r == nil {
		return nil
	}
	if len(r.Commands) == 0 {
		return errors.New("a recap lists the commands the lesson used")
	}
	for i, c := range r.Claims {
		switch {
		case c.Seed != "000" && c.Seed != "003":
			return fmt.Errorf("claim %d: seed is 000 or 003, not %q", i+1, c.Seed)
		case c.Section == "":
			return fmt.Errorf("claim %d: a section is needed", i+1)
		case !slices.Contains(Verdicts, c.Verdict):
			return fmt.Errorf("claim %d: verdict is true, false or outdated, not %q", i+1, c.Verdict)
		case !slices.Contains(steps, c.Step):
			return fmt.Errorf("claim %d: there is no step %q", i+1, c.Step)
		}
	}
	return nil
}

func (l *Lesson) checkText(t Text) error {
	if strings.TrimSpace(t.Title) == "" || strings.TrimSpace(t.Intro) == "" {
		return errors.New("a title and an intro are needed")
	}
	if len(t.Steps) != len(l.Steps) {
		return fmt.Errorf("%d steps, but the lesson has %d", len(t.Steps), len(l.Steps))
	}
	for _, st := range l.Steps {
		text, ok := t.Steps[st.ID]
		switch {
		case !ok:
			return fmt.Errorf("no text for step %q", st.ID)
		case strings.TrimSpace(text.Text) == "" || len(text.Hints) == 0:
			return fmt.Errorf("step %q needs a text and hints", st.ID)
		case st.Predict == nil && (len(text.Choices) > 0 || text.Explain != "" || text.Question != ""):
			return fmt.Errorf("step %q has a question or choices but no prediction", st.ID)
		case st.Predict != nil && (len(text.Choices) != int(st.Predict.Choices) || text.Explain == "" || strings.TrimSpace(text.Question) == ""):
			return fmt.Errorf("step %q: the prediction needs a question, %d choices and an explanation", st.ID, st.Predict.Choices)
		case l.Challenge != nil && len(text.Checks) != len(st.Goal):
			return fmt.Errorf("step %q: a challenge says what each of its %d checks verifies, not %d", st.ID, len(st.Goal), len(text.Checks))
		case l.Challenge == nil && len(text.Checks) > 0:
			return fmt.Errorf("step %q: only a challenge's task has checks", st.ID)
		}
	}
	switch r := l.Recap; {
	case r == nil && (len(t.Recap.Rules) > 0 || len(t.Recap.Claims) > 0):
		return errors.New("a recap, but lesson.yaml has none")
	case r != nil && len(t.Recap.Rules) == 0:
		return errors.New("the recap needs the rules the lesson taught")
	case r != nil && len(t.Recap.Claims) != len(r.Claims):
		return fmt.Errorf("the recap words %d claims, but lesson.yaml lists %d", len(t.Recap.Claims), len(r.Claims))
	}
	return nil
}

// Start builds the lesson's start state: its cluster and seed, the built-in manifests applied,
// then the setup run (every setup line must succeed).
func (l *Lesson) Start() (*sim.Sim, error) {
	seed := uint64(1)
	if l.Seed != nil {
		seed = *l.Seed
	}
	s, err := sim.New(seed, sim.Topology(l.Cluster))
	if err != nil {
		return nil, err
	}
	for i, manifest := range l.manifests {
		if r := shell.ApplyAll(s, manifest); r.Err != "" {
			return nil, fmt.Errorf("lesson %s: apply %s: %s", l.ID, l.Apply[i], r.Err)
		}
	}
	for i, st := range l.Setup {
		if problem := scenario.Check(st, shell.Run(s, st.Run, st.Stdin)); problem != "" {
			return nil, fmt.Errorf("lesson %s: setup %d (%s): %s", l.ID, i+1, st.Run, problem)
		}
	}
	return s, nil
}

// Met reports whether a step's goal holds on s, typed being the command lines run since the
// step began: every check passes, and one line runs one of Ran if it is set. Checks only read.
func (st Step) Met(s *sim.Sim, typed []string) bool {
	if len(st.Ran) > 0 && !slices.ContainsFunc(typed, st.ranLine) {
		return false
	}
	for _, g := range st.Goal {
		if scenario.Check(g, shell.Run(s, g.Run, g.Stdin)) != "" {
			return false
		}
	}
	return true
}

// Failing lists the checks of a step's goal that do not pass on s, by index. Checks only read.
func (st Step) Failing(s *sim.Sim) []int {
	var failing []int
	for i, g := range st.Goal {
		if scenario.Check(g, shell.Run(s, g.Run, g.Stdin)) != "" {
			failing = append(failing, i)
		}
	}
	return failing
}

// ranLine reports whether a command line runs one of the step's Ran lines.
func (st Step) ranLine(line string) bool {
	return slices.ContainsFunc(st.looks, func(l Look) bool { return l.RunBy(line) })
}

// writeFile is a solution line that writes its stdin to a file of the workspace.
var writeFile = regexp.MustCompile(`^cat > ([A-Za-z0-9._/-]+)$`)

// WritesFile returns the file a solution line writes from its stdin (`cat > FILE`), if it is
// one.
func WritesFile(run string) (string, bool) {
	m := writeFile.FindStringSubmatch(run)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// RunSolution runs one line of a solution as the page does: a manifest on stdin is applied from
// the editor (all or nothing), a file's text written as its tab writes it, anything else is
// typed into the terminal.
func RunSolution(s *sim.Sim, st scenario.Step) shell.Result {
	if _, ok := WritesFile(st.Run); ok {
		return shell.Run(s, st.Run, st.Stdin)
	}
	if st.Stdin != "" {
		return shell.ApplyAll(s, st.Stdin)
	}
	return shell.Run(s, st.Run, "")
}
