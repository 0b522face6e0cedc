package playground

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
)

// Saved is a session as the page keeps it in localStorage and in share links: the steps from the
// start state (never the cluster itself — replaying them rebuilds it), where the timeline stands,
// the editor's text, the commands typed and the end of the terminal's transcript. It holds data only: loading it runs nothing but
// DaemonLab's own command language against the simulated cluster.
type Saved struct {
	Version int           `json:"v"`
	Lesson  *SavedLesson  `json:"lesson,omitempty"` // the lesson being taken; its start is the session's
	Steps   []Step        `json:"steps"`
	Pos     int           `json:"pos"`
	Into    time.Duration `json:"into,omitempty"` // how far into Steps[Pos] the time axis stands (History.Into), in nanoseconds
	Editor  string        `json:"editor"`
	Typed   []string      `json:"typed,omitempty"`
	Tabs    []string      `json:"tabs,omitempty"`    // the files open in the editor's tabs
	Open    string        `json:"open,omitempty"`    // the file whose tab is shown, "" the manifest's
	Edit    *kubectl.Edit `json:"edit,omitempty"`    // the kubectl edit under way
	Editing bool          `json:"editing,omitempty"` // its tab is shown
	Cluster string        `json:"cluster,omitempty"` // the sandbox's starting cluster, if not the default
	// Terminal is the end of the terminal's lines (transcript), so that a reload or a link shows
	// the terminal as it was; a session saved before it was kept has none.
	Terminal []TermLine `json:"terminal,omitempty"`
}

// SavedLesson is where a learner is in a lesson.
type SavedLesson struct {
	ID        string            `json:"id"`
	Step      int               `json:"step"`
	Typed     []string          `json:"typed,omitempty"`
	Predicted int               `json:"predicted,omitempty"`
	Hints     int               `json:"hints,omitempty"`
	Solution  int               `json:"solution,omitempty"`
	Revealed  bool              `json:"revealed,omitempty"`
	Files     map[string]string `json:"files,omitempty"` // a lesson opened from disk
	// A challenge's (see Tutor).
	Checked []bool  `json:"checked,omitempty"`
	GaveUp  bool    `json:"gaveUp,omitempty"`
	Started float64 `json:"started,omitempty"`
	Took    float64 `json:"took,omitempty"`
}

// savedVersion is the format's version; a saved session of another version is refused.
const savedVersion = 1

// Limits on what a saved session or a share link may hold, so that a forged one cannot make the
// page run for minutes or fill the tab's memory.
const (
	maxSavedBytes = 4 << 20 // the JSON, and a share link once inflated
	maxSteps      = 5000
	maxRuns       = 100_000 // the runs of every step together (play's ticks count one each)
	maxTyped      = 1000
	// replayBudget bounds the work of replaying the steps (sim.Sim.Work): 4 commands' worth
	// (sim.Budget), 5 to 10 seconds natively with the command that crosses it. Thirteen minutes
	// of play at 60× (3,120 ticks of 15s) over a Deployment do a twentieth of it.
	replayBudget = 4 * sim.Budget
)

// errSaved is what every rejection of a saved session wraps: the page shows its message.
var errSaved = errors.New("this is not a DaemonLab session, or it is damaged")

// Save returns the session as JSON.
func Save(m Model) []byte {
	sv := Saved{Version: savedVersion, Steps: m.History.Steps, Pos: m.History.Pos, Into: m.History.Into, Editor: m.Editor, Typed: m.Terminal.History,
		Tabs: m.Tabs, Open: m.Open, Edit: m.Edit, Editing: m.Editing, Terminal: transcript(m.Terminal.Lines)}
	if m.Cluster != sim.Default && m.Tutor == nil {
		sv.Cluster = string(m.Cluster)
	}
	if t := m.Tutor; t != nil {
		sv.Lesson = &SavedLesson{ID: t.Lesson.ID, Step: t.Step, Typed: t.Typed, Predicted: t.Predicted, Hints: t.Hints, Solution: t.Solution,
			Revealed: t.Revealed, Files: t.Files, Checked: t.Checked, GaveUp: t.GaveUp, Started: t.Started, Took: t.Took}
	}
	data, err := json.Marshal(sv)
	if err != nil {
		panic(err) // strings, ints and slices of them always marshal
	}
	return data
}

// Load rebuilds a saved session: the start state (of lib), then every step replayed, then the timeline
// moved to where it stood. Anything malformed, too large or of another version is an error
// (wrapping errSaved) and builds nothing. A replay that reaches replayBudget stops after the
// command that reached it: the session is what was replayed (the history up to there, a step's
// runs counted as far as they went, the timeline at its end at the latest), and its notice
// ("session.cut") says how many commands were replayed.
func Load(lib *Library, data []byte) (Model, error) { return load(lib, data, maxSavedBytes) }

// loadFile is Load of a session file the learner opened: DaemonLab's own file, read up to
// api.MaxFileBytes, as lessons and scenarios are.
func loadFile(lib *Library, data []byte) (Model, error) { return load(lib, data, api.MaxFileBytes) }

// load is Load with a bound on the data's size.
func load(lib *Library, data []byte, limit int) (Model, error) {
	if len(data) > limit {
		return Model{}, fmt.Errorf("%w: it is larger than %d MB", errSaved, limit>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var sv Saved
	if err := dec.Decode(&sv); err != nil || dec.More() {
		return Model{}, errSaved
	}
	if err := sv.check(); err != nil {
		return Model{}, err
	}
	m, err := sv.start(lib)
	if err != nil {
		return Model{}, fmt.Errorf("%w: %v", errSaved, err)
	}
	if err := sv.Lesson.check(m.Tutor); err != nil {
		return Model{}, err
	}
	m.replay(sv.Steps)
	m.History.seekInto(m.Sim, sv.Pos, sv.Into)
	m.Editor = sv.Editor
	m.Tabs, m.Open, m.Edit, m.Editing = sv.Tabs, sv.Open, sv.Edit, sv.Editing && sv.Edit != nil
	m.Terminal.History = sv.Typed
	m.Terminal.Lines = sv.Terminal
	m.Terminal.Pos = len(sv.Typed)
	if l := sv.Lesson; l != nil {
		m.Tutor = &Tutor{Lesson: m.Tutor.Lesson, Step: l.Step, Typed: l.Typed, Predicted: l.Predicted, Hints: l.Hints, Solution: l.Solution,
			Revealed: l.Revealed, Files: l.Files, Checked: l.Checked, GaveUp: l.GaveUp, Started: l.Started, Took: l.Took}
		m.Tutor.Met = m.Tutor.Lesson.Challenge != nil && len(l.Checked) > 0 && !slices.Contains(l.Checked, false)
		m.observe()
	}
	return m, nil
}

// replay runs the steps and records them, within replayBudget (see Load).
func (m *Model) replay(steps []Step) {
	limit, ran := m.Sim.Work()+replayBudget, 0
	for _, st := range steps {
		runs, done := st.runs(), 0
		for ; done < runs && m.Sim.Work() < limit; done++ {
			st.do(m.Sim)
		}
		if ran += done; done < runs {
			st.Times = 0 // run once, as a step that ran once is recorded
			if done > 1 {
				st.Times = done
			}
		}
		if done > 0 {
			m.History.record(m.Sim.C, st, false)
		}
		if done < runs {
			m.Notice, m.NoticeArg = "session.cut", strconv.Itoa(ran)
			return
		}
	}
}

// start is the saved session's start state: the playground's, a built-in lesson's, or that of
// the lesson opened from disk it carries.
func (sv Saved) start(lib *Library) (Model, error) {
	switch {
	case sv.Lesson == nil:
		if sv.Cluster != "" {
			return startOn(lib, sim.Topology(sv.Cluster))
		}
		return NewModel(lib)
	case sv.Lesson.Files != nil:
		l, err := lib.openedLesson(sv.Lesson.Files)
		if err != nil {
			return Model{}, err
		}
		return lessonModel(lib, l)
	}
	return StartModel(lib, sv.Lesson.ID)
}

// check says whether a saved place in a lesson fits the lesson the tutor started.
func (l *SavedLesson) check(t *Tutor) error {
	if l == nil {
		return nil
	}
	if l.Step < 0 || l.Step >= len(t.Lesson.Steps) || l.Hints < 0 || l.Solution < 0 || l.Predicted < 0 || len(l.Typed) > maxTyped {
		return fmt.Errorf("%w: its place in the lesson is impossible", errSaved)
	}
	st := t.Lesson.Steps[l.Step]
	if l.Solution > len(st.Solution) || l.Hints > 5 || st.Predict == nil && (l.Predicted > 0 || l.Revealed) || st.Predict != nil && l.Predicted > int(st.Predict.Choices) ||
		l.Checked != nil && len(l.Checked) != len(st.Goal) || t.Lesson.Challenge == nil && (l.Checked != nil || l.GaveUp || l.Started != 0 || l.Took != 0) ||
		l.Started < 0 || l.Took < 0 {
		return fmt.Errorf("%w: its place in the lesson is impossible", errSaved)
	}
	return nil
}

// check enforces the format's rules and limits.
func (sv Saved) check() error {
	switch {
	case sv.Version != savedVersion:
		return fmt.Errorf("%w: it was saved by another version of DaemonLab", errSaved)
	case len(sv.Steps) > maxSteps:
		return fmt.Errorf("%w: it has more than %d steps", errSaved, maxSteps)
	case sv.Pos < 0 || sv.Pos > len(sv.Steps) || sv.Into < 0:
		return errSaved
	case len(sv.Typed) > maxTyped:
		return fmt.Errorf("%w: it has more than %d typed commands", errSaved, maxTyped)
	case !transcriptFits(sv.Terminal):
		return fmt.Errorf("%w: its terminal has more than %d lines or %d KB", errSaved, maxSavedLines, maxSavedTermBytes>>10)
	case sv.Cluster != "" && (sv.Lesson != nil || !slices.Contains(Clusters, sim.Topology(sv.Cluster))):
		return fmt.Errorf("%w: it starts from a cluster DaemonLab does not offer", errSaved)
	case len(sv.Tabs) > maxTabs || sv.Open != "" && !slices.Contains(sv.Tabs, sv.Open) || sv.Edit != nil && !sv.Edit.Valid():
		return errSaved
	}
	for _, f := range sv.Tabs {
		if name, err := cluster.CleanPath(f); err != nil || name != f || name == "" {
			return errSaved
		}
	}
	runs := 0
	for _, st := range sv.Steps {
		if st.kinds() != 1 || st.Times < 0 || st.Times > maxRuns || st.Edit != nil && !st.Edit.Edit.Valid() || st.Text != "" && st.File == "" {
			return errSaved
		}
		if runs += st.runs(); runs > maxRuns {
			return fmt.Errorf("%w: it runs more than %d commands", errSaved, maxRuns)
		}
	}
	return nil
}

// shareKey introduces the session in a share link's fragment: …/#s=<data>.
const shareKey = "s="

// ShareFragment returns the URL fragment (without "#") that carries the whole session: its JSON,
// deflated and in unpadded base64url. Fragments never reach a server.
func ShareFragment(m Model) string {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		panic(err) // only for an invalid level
	}
	w.Write(Save(m)) // writes to a bytes.Buffer do not fail
	w.Close()
	return shareKey + base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// lessonLinkKey and challengeLinkKey introduce a link to a lesson or a challenge: …/#lesson=7,
// …/#challenge=3.
const (
	lessonLinkKey    = "lesson="
	challengeLinkKey = "challenge="
)

// IsLink reports whether a URL fragment (without "#") is a link the playground opens: a share
// link's, which claims to carry a session, or a link to a lesson or a challenge.
func IsLink(fragment string) bool {
	return slices.ContainsFunc(LinkKeys, func(key string) bool { return strings.HasPrefix(fragment, key) })
}

// LinkKeys begin the fragments that are links (IsLink).
var LinkKeys = []string{shareKey, lessonLinkKey, challengeLinkKey}

// OpenLink opens a link (see IsLink): the session a share link carries (LoadShared), or the
// start of the lesson a #lesson=N link names, or the challenge a #challenge=N link names.
func OpenLink(lib *Library, fragment string) (Model, error) {
	if id, ok := strings.CutPrefix(fragment, lessonLinkKey); ok {
		return StartModel(lib, id)
	}
	if id, ok := strings.CutPrefix(fragment, challengeLinkKey); ok {
		return StartModel(lib, challengePrefix+id)
	}
	return LoadShared(lib, fragment)
}

// LoadShared rebuilds the session a share link's fragment carries (sharedData): the JSON
// inflated is read up to maxSavedBytes, and the work is linear in the link, within its bound.
func LoadShared(lib *Library, fragment string) (Model, error) {
	data, err := sharedData(fragment)
	if err != nil {
		return Model{}, err
	}
	return Load(lib, data)
}

// sharedData is the saved session a share link's fragment carries, inflated (up to one byte
// more than a saved session may be); a link longer than maxLinkBytes is refused before it is
// decoded (errLinkLong), and a truncated or altered link is an error wrapping errSaved.
func sharedData(fragment string) ([]byte, error) {
	if len(fragment) > maxLinkBytes {
		return nil, fmt.Errorf("%w: %w", errSaved, errLinkLong)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(fragment, shareKey))
	if err != nil {
		return nil, fmt.Errorf("%w: the link is incomplete or was changed", errSaved)
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), maxSavedBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: the link is incomplete or was changed", errSaved)
	}
	return data, nil
}
