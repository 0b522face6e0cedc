package playground

import (
	"errors"
	"fmt"
	"maps"
)

// Storage is where the page keeps what outlives the tab: the browser's localStorage (package
// wasm), a map with a quota in the tests. Set fails when the browser refuses the write: storage
// is off (a private window, a sandboxed frame) or full (QuotaExceededError).
type Storage interface {
	Get(key string) (value string, ok bool)
	Set(key, value string) error
	Remove(key string)
}

// The page's storage keys.
const (
	SessionKey  = "daemonlab.session"          // the session, saved a moment after every change
	PreviousKey = "daemonlab.session.previous" // the session the current one replaced (Model.Back)
	BrokenKey   = "daemonlab.session.broken"   // a saved session that could not be read, kept
	LangKey     = "daemonlab.lang"             // the language the learner chose
	ProgressKey = "daemonlab.progress"         // steps completed, by lesson
)

// Keeper keeps the session in a Storage and restores it; the page has one. It remembers the
// session as this tab last wrote or read it, so that a change made by another tab is told from
// its own (Changed).
type Keeper struct {
	Store Storage
	lib   *Library
	last  string // the session as this tab last wrote or read it
	back  string // the previous session as this tab last wrote or read it
	// hold keeps the tab from saving over a saved session that could not be read and of which
	// no copy could be kept, until the learner chooses (KeepMsg).
	hold bool
	// problem is the notice the last save called for ("" when it saved), so that a failing save
	// is told once, not at every keystroke.
	problem string
}

// NewKeeper keeps sessions of lib in store.
func NewKeeper(store Storage, lib *Library) *Keeper { return &Keeper{Store: store, lib: lib} }

// Restore picks the session the page opens on, given the address's fragment (without "#"):
//
//  1. a link (IsLink) opens its session or lesson; the saved session it replaces becomes the
//     previous one, one click away (Model.Back), and a notice says so; a damaged link is refused
//     with a notice, and the saved session opens instead;
//  2. else the saved session; one that cannot be read is copied under BrokenKey — the notice
//     says a copy is kept only when the copy was written, and when it could not be, the tab
//     does not save over it until the learner chooses — and the start state opens, with the
//     session saved before it (PreviousKey) offered;
//  3. else the start state.
//
// The error is the start state's own, which the page cannot do without.
func (k *Keeper) Restore(fragment string) (Model, error) {
	saved, hasSaved := k.Store.Get(SessionKey)
	k.last = saved
	k.back, _ = k.Store.Get(PreviousKey)
	notice, arg := "", ""
	if IsLink(fragment) {
		m, err := OpenLink(k.lib, fragment)
		if err == nil {
			if hasSaved {
				m.Back = []byte(saved)
				if m.Notice == "" { // a replay cut short says so first (see Load)
					m.Notice = "link.kept"
				}
			} else if k.back != "" {
				m.Back = []byte(k.back)
			}
			return m, nil
		}
		notice = "link.bad"
	}
	if hasSaved {
		m, err := Load(k.lib, []byte(saved))
		if err == nil {
			if notice != "" { // the damaged link's, before the saved session's own (see Load)
				m.Notice, m.NoticeArg = notice, ""
			}
			if k.back != "" {
				m.Back = []byte(k.back)
			}
			return m, nil
		}
		notice, arg = "saved.bad", err.Error()
		if k.Store.Set(BrokenKey, saved) != nil {
			notice, k.hold = "saved.bad.held", true
		}
	}
	m, err := NewModel(k.lib)
	if err != nil {
		return Model{}, err
	}
	if k.back != "" {
		m.Back = []byte(k.back)
	}
	m.Notice, m.NoticeArg = notice, arg
	return m, nil
}

// Save writes the session, the previous one and the lesson progress, and returns the message
// the page shows when that calls for telling the learner (nil when nothing changed since the
// last save's verdict):
//
//  1. nothing is written while another tab's change waits for the learner's choice (Model.Other)
//     or while a saved session that could not be read is held (see Restore);
//  2. a session larger than Load reads is not written, so that the last good save stays: the
//     notice says how large it is and offers a file instead;
//  3. a write refused for room drops the older copies first — the unreadable session kept under
//     BrokenKey, then the previous session — and is tried again; the notice says what was
//     dropped, or that nothing could be saved and offers a file instead;
//  4. the progress stored by any tab is merged in, step counts only growing, so that two tabs do
//     not undo each other's progress.
func (k *Keeper) Save(m Model) Msg {
	if m.Other != nil || k.hold {
		return nil
	}
	return k.verdict(k.save(m))
}

func (k *Keeper) save(m Model) (problem, arg string) {
	data := string(Save(m))
	if len(data) > maxSavedBytes {
		return "save.big", fmt.Sprintf("%.1f", float64(len(data))/(1<<20))
	}
	if data != k.last {
		err := k.Store.Set(SessionKey, data)
		for _, older := range []string{BrokenKey, PreviousKey} {
			if !errors.Is(err, ErrQuota) {
				break
			}
			if _, ok := k.Store.Get(older); ok {
				k.Store.Remove(older)
				if older == PreviousKey {
					k.back, problem = "", "save.dropped"
				}
				err = k.Store.Set(SessionKey, data)
			}
		}
		switch {
		case errors.Is(err, ErrQuota):
			return "save.full", ""
		case err != nil:
			return "save.off", ""
		}
		k.last = data
	}
	if back := string(m.Back); back != k.back && problem == "" {
		if k.Store.Set(PreviousKey, back) == nil {
			k.back = back
		}
	}
	k.saveProgress(m.Progress)
	return problem, ""
}

// saveProgress writes the lesson progress merged with what any tab stored: a step count only
// grows. Progress is small, and a refusal to store it is the session's, told already.
func (k *Keeper) saveProgress(progress map[string]int) {
	stored, _ := k.Store.Get(ProgressKey)
	merged := maps.Clone(progress)
	if merged == nil {
		merged = map[string]int{}
	}
	for id, done := range ReadProgress(stored) {
		merged[id] = max(merged[id], done)
	}
	if file := string(ProgressFile(Model{Progress: merged})); file != stored {
		_ = k.Store.Set(ProgressKey, file)
	}
}

// verdict is the message a save's problem calls for: a notice when it differs from the last
// save's, none when it is the same.
func (k *Keeper) verdict(problem, arg string) Msg {
	if problem == k.problem {
		return nil
	}
	k.problem = problem
	return SavedMsg{Problem: problem, Arg: arg}
}

// Changed is the message for a change of the storage made by another tab (the page's "storage"
// event): another session saved over this tab's (OtherTabMsg), or nil.
func (k *Keeper) Changed(key string, value string, removed bool) Msg {
	if key != SessionKey || removed || value == k.last {
		return nil
	}
	k.last = value // what this tab would overwrite now is the other tab's
	return OtherTabMsg{Session: []byte(value)}
}

// Release lets the tab save again after the learner chose to save over a session that could not
// be read (see Restore).
func (k *Keeper) Release() { k.hold = false }

// Unreadable is the saved session that could not be read and is held (see Restore), for the
// page to offer as a file; "" when there is none.
func (k *Keeper) Unreadable() string {
	if !k.hold {
		return ""
	}
	s, _ := k.Store.Get(SessionKey)
	return s
}

// ErrQuota is what a Storage's Set returns when the browser's storage is full.
var ErrQuota = errors.New("the browser's storage for this page is full")

// SavedMsg is a save's verdict (Keeper.Save): Problem is the notice it calls for, "" when the
// session was saved after a save that was not. Storage full and the previous session dropped to
// make room drops it from the model too.
type SavedMsg struct{ Problem, Arg string }

// OtherTabMsg is another tab saving its session over this tab's (Keeper.Changed): the tab stops
// saving until the learner follows the other tab (FollowMsg) or keeps this tab's session
// (KeepMsg), so that neither silently overwrites the other.
type OtherTabMsg struct{ Session []byte }

// FollowMsg opens the other tab's session in this tab; this tab's becomes the previous one.
type FollowMsg struct{}

// KeepMsg keeps this tab's session, which the next save writes; the other tab's becomes the
// previous one, one click away.
type KeepMsg struct{}

// BackMsg goes back to the previous session (Model.Back): the session the current one replaced,
// which becomes the previous one in turn.
type BackMsg struct{}

// ImportMsg opens a session file (what the page's "Save session" downloads, Save's JSON):
// DaemonLab's own file, read up to api.MaxFileBytes rather than the saved session's bound.
type ImportMsg struct{ Data string }

func (SavedMsg) during() during { return keepTick }
func (msg SavedMsg) update(m Model) Model {
	switch {
	case msg.Problem != "":
		m.Notice, m.NoticeArg = msg.Problem, msg.Arg
		if msg.Problem == "save.dropped" {
			m.Back = nil
		}
	case savingNotices[m.Notice]:
		m.Notice, m.NoticeArg = "", ""
	}
	return m
}

// savingNotices are the notices of a save that failed, which a save that works dismisses.
var savingNotices = map[string]bool{"save.big": true, "save.full": true, "save.off": true}

func (OtherTabMsg) during() during { return keepTick }
func (msg OtherTabMsg) update(m Model) Model {
	m.Other, m.Notice, m.NoticeArg = msg.Session, "tab.changed", ""
	return m
}

func (FollowMsg) during() during { return dropTick }
func (FollowMsg) update(m Model) Model {
	other := m.Other
	m.Other = nil
	fresh, err := Load(m.lib, other)
	if err != nil {
		m.Notice, m.NoticeArg = "tab.bad", err.Error()
		return m
	}
	return m.replace(fresh, "replaced")
}

func (KeepMsg) during() during { return keepTick }
func (KeepMsg) update(m Model) Model {
	if m.Other != nil {
		m.Back, m.Other = m.Other, nil
	}
	m.Notice, m.NoticeArg = "", ""
	return m
}

func (BackMsg) during() during { return dropTick }
func (BackMsg) update(m Model) Model {
	if m.Back == nil {
		return m
	}
	fresh, err := Load(m.lib, m.Back)
	if err != nil {
		m.Back, m.Notice, m.NoticeArg = nil, "back.bad", err.Error()
		return m
	}
	fresh.Back = Save(m)
	return m.keepOutliving(fresh, "back.done")
}

func (ImportMsg) during() during { return dropTick }
func (msg ImportMsg) update(m Model) Model {
	fresh, err := loadFile(m.lib, []byte(msg.Data))
	if err != nil {
		m.Notice, m.NoticeArg = "import.bad", err.Error()
		return m
	}
	return m.replace(fresh, "replaced")
}

// replace starts another session (a lesson, a reset, a link, another tab's or a file's
// session) in the model's place: what outlives a session is kept (keepOutliving), and the
// session replaced becomes the previous one, one click away (BackMsg), with a notice saying so —
// unless it holds nothing worth keeping (worthKeeping), when the previous one stays.
func (m Model) replace(fresh Model, notice string) Model {
	fresh.Back = m.Back
	if m.worthKeeping() {
		fresh.Back = Save(m)
	} else {
		notice = ""
	}
	return m.keepOutliving(fresh, notice)
}

// keepOutliving keeps in a fresh session what outlives one: the language, the progress and how
// the clock moves (Chunk). The notice is the fresh session's own, if it has one (a replay cut
// short, see Load), else notice.
func (m Model) keepOutliving(fresh Model, notice string) Model {
	fresh.Lang, fresh.Progress, fresh.Chunk = m.Lang, m.Progress, m.Chunk
	if fresh.Notice == "" {
		fresh.Notice, fresh.NoticeArg = notice, ""
	}
	return fresh
}

// worthKeeping reports whether the session holds the learner's work: a step of the history, an
// edited manifest, or a lesson begun.
func (m Model) worthKeeping() bool {
	start := m.lib.start
	if t := m.Tutor; t != nil {
		start = t.Lesson.Editor
		if t.Step > 0 || len(t.Typed) > 0 || t.Predicted > 0 || t.Hints > 0 {
			return true
		}
	}
	return len(m.History.Steps) > 0 || m.Editor != start
}
