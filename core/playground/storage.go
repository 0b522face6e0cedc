package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
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
	DrawerKey   = "daemonlab.drawer"           // the terminal's drawer, as the learner left it (Drawer.String)
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
	// unreadable is the saved session that could not be read, offered as a file.
	unreadable string
	// embed is embed.html's configuration (NewEmbedKeeper), refused why its fragment was not
	// read; nil and none for the full page.
	embed   *Embed
	refused EmbedError
}

// NewKeeper keeps sessions of lib in store.
func NewKeeper(store Storage, lib *Library) *Keeper { return &Keeper{Store: store, lib: lib} }

// Restore picks the session the page opens on, given the address's fragment (without "#"; an
// embed's keeper opens its own link, see opens, and its model knows it is embedded):
//
//  1. a link (IsLink) opens its session or lesson; the saved session it replaces is kept, one
//     click away (Model.Kept), and a notice says so; a damaged link is refused with a notice,
//     and the saved session opens instead;
//  2. else the saved session; one that cannot be read is copied under BrokenKey — the notice
//     says a copy is kept only when the copy was written, and when it could not be, the tab
//     does not save over it until the learner chooses — and is offered as a file, and the start
//     state opens, with the sessions kept before (PreviousKey) offered;
//  3. else the start state.
//
// The sessions kept (PreviousKey) come along in every case.
//
// The error is the start state's own, which the page cannot do without.
func (k *Keeper) Restore(fragment string) (Model, error) {
	m, err := k.restore(k.opens(fragment))
	return k.embedded(m), err
}

// restore is Restore of the link it opens.
func (k *Keeper) restore(fragment string) (Model, error) {
	saved, hasSaved := k.Store.Get(SessionKey)
	k.last = saved
	k.back, _ = k.Store.Get(PreviousKey)
	var kept []Kept
	if json.Unmarshal([]byte(k.back), &kept) != nil {
		kept = nil // none, or unreadable: nothing to offer
	}
	notice, arg := "", ""
	if IsLink(fragment) {
		m, err := OpenLink(k.lib, fragment)
		if err == nil {
			m.Kept = kept
			if hasSaved {
				m.Kept = pushKept(kept, keptOf([]byte(saved)))
				if m.Notice == "" { // a replay cut short says so first (see Load)
					m.Notice = "link.kept"
				}
			}
			return m, nil
		}
		if notice = linkNotice(err); notice == "link.long" {
			arg = strconv.Itoa(maxLinkBytes >> 10)
		}
	}
	if hasSaved {
		m, err := Load(k.lib, []byte(saved))
		if err == nil {
			if notice != "" { // the damaged link's, before the saved session's own (see Load)
				m.Notice, m.NoticeArg = notice, arg
			}
			m.Kept = kept
			return m, nil
		}
		notice, arg, k.unreadable = "saved.bad", err.Error(), saved
		if k.Store.Set(BrokenKey, saved) != nil {
			notice, k.hold = "saved.bad.held", true
		}
	}
	m, err := NewModel(k.lib)
	if err != nil {
		return Model{}, err
	}
	m.Kept, m.Unsaved = kept, k.hold
	m.Notice, m.NoticeArg = notice, arg
	return m, nil
}

// NeedsLessons reports whether Restore of a fragment needs the library's lessons: the link
// names a lesson or a challenge, or the session it would open (the share link's, else the
// saved one) is in a lesson. The page waits for them (Library.Waiting) only then.
func (k *Keeper) NeedsLessons(fragment string) bool {
	fragment = k.opens(fragment)
	inLesson := func(data []byte) bool {
		var sv struct {
			Lesson json.RawMessage `json:"lesson"`
		}
		return json.Unmarshal(data, &sv) == nil && len(sv.Lesson) > 0 && string(sv.Lesson) != "null"
	}
	if strings.HasPrefix(fragment, lessonLinkKey) || strings.HasPrefix(fragment, challengeLinkKey) {
		return true
	}
	if data, err := sharedData(fragment); err == nil && IsLink(fragment) {
		return inLesson(data)
	}
	saved, _ := k.Store.Get(SessionKey)
	return inLesson([]byte(saved))
}

// Lang is the language the page opens in: the one remembered, else the first preferred that the
// page speaks (PickLang; navigator.languages).
func (k *Keeper) Lang(preferred []string) Lang {
	remembered, _ := k.Store.Get(LangKey)
	return PickLang(remembered, preferred)
}

// Opening is the model the page opens on, as its first render draws it: the session Restore
// gives (a link in the fragment, else the autosave, else the start state), in lang (Lang), with
// the lesson progress and the terminal's drawer as this device keeps them; the lessons listed
// after the first paint (Model.LessonsLater), and the clock moved a piece at a time
// (Model.Chunk). The prerendered start page (markup.Paint, `make build`) is Opening with
// nothing stored and no link.
func (k *Keeper) Opening(fragment string, lang Lang) (Model, error) {
	m, err := k.Restore(fragment)
	if err != nil {
		return Model{}, err
	}
	m.Lang = lang
	saved, _ := k.Store.Get(ProgressKey)
	m.Progress = ReadProgress(saved)
	drawer, _ := k.Store.Get(DrawerKey)
	m.Drawer = ReadDrawer(drawer)
	m.LessonsLater = true
	m.Chunk = true // the clock moves a piece at a time (see the page's work)
	return m, nil
}

// Save writes the session, the previous one and the lesson progress, and returns the message
// the page shows when that calls for telling the learner (nil when nothing changed since the
// last save's verdict):
//
//  1. nothing is written while another tab's change waits for the learner's choice (Model.Other)
//     or while a saved session that could not be read is held (see Restore);
//  2. a session larger than Load reads is saved without the editor's text when that makes it
//     fit (the notice says the text is not saved), and else not written, so that the last good
//     save stays: the notice says how large it is and offers a file instead;
//  3. a write refused for room drops the older copies first — the unreadable session kept under
//     BrokenKey, then the kept sessions, the oldest first — and is tried again; the notice says
//     what was dropped, or that nothing could be saved and offers a file instead;
//  4. the progress stored by any tab is merged in, step counts only growing, so that two tabs do
//     not undo each other's progress.
func (k *Keeper) Save(m Model) Msg {
	if m.Other != nil || k.hold {
		return nil
	}
	return k.verdict(k.save(m))
}

func (k *Keeper) save(m Model) (msg SavedMsg) {
	data := string(Save(m))
	if len(data) > maxSavedBytes {
		mib := func(n int) string { return fmt.Sprintf("%.1f", float64(n)/(1<<20)) }
		whole, short := len(data), m
		short.Editor = ""
		if data = string(Save(short)); len(data) > maxSavedBytes {
			return SavedMsg{Problem: "save.big", Arg: mib(len(data)), Kept: len(m.Kept)}
		}
		msg = SavedMsg{Problem: "save.editor", Arg: mib(whole)}
	}
	kept, keptData := m.Kept, keptFile(m.Kept)
	if data != k.last {
		err := k.Store.Set(SessionKey, data)
		if errors.Is(err, ErrQuota) {
			k.Store.Remove(BrokenKey)
			err = k.Store.Set(SessionKey, data)
		}
		for errors.Is(err, ErrQuota) && len(kept) > 0 {
			kept = kept[:len(kept)-1]
			if keptData = keptFile(kept); len(kept) == 0 {
				k.Store.Remove(PreviousKey)
			} else if k.Store.Set(PreviousKey, keptData) != nil {
				continue // no room even for fewer: try with fewer still
			}
			k.back = keptData
			msg = SavedMsg{Problem: "save.dropped", Arg: strconv.Itoa(len(m.Kept) - len(kept)), Kept: len(kept)}
			err = k.Store.Set(SessionKey, data)
		}
		switch {
		case errors.Is(err, ErrQuota):
			return SavedMsg{Problem: "save.full", Kept: len(kept)}
		case err != nil:
			return SavedMsg{Problem: "save.off", Kept: len(kept)}
		}
		k.last = data
	}
	if keptData != k.back && k.Store.Set(PreviousKey, keptData) == nil {
		k.back = keptData
	}
	k.saveProgress(m.Progress)
	if msg.Problem == "" {
		msg.Kept = len(m.Kept)
	}
	return msg
}

// keptFile is how the kept sessions are stored under PreviousKey.
func keptFile(kept []Kept) string {
	if len(kept) == 0 {
		return ""
	}
	data, _ := json.Marshal(kept) // strings and ints always marshal
	return string(data)
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

// verdict is the message a save calls for: one when its problem differs from the last save's,
// or kept sessions were dropped; none when it is the same.
func (k *Keeper) verdict(msg SavedMsg) Msg {
	if msg.Problem == k.problem && msg.Problem != "save.dropped" {
		return nil
	}
	k.problem = msg.Problem
	return msg
}

// Changed is the message for a change of the storage made by another tab (the page's "storage"
// event, which names the key as stored: see EmbedStore): another session saved over this tab's
// (OtherTabMsg), or nil.
func (k *Keeper) Changed(key string, value string, removed bool) Msg {
	if key != storedKey(k.Store, SessionKey) || removed || value == k.last {
		return nil
	}
	k.last = value // what this tab would overwrite now is the other tab's
	return OtherTabMsg{Session: []byte(value)}
}

// Release lets the tab save again after the learner chose to save over a session that could not
// be read (see Restore).
func (k *Keeper) Release() { k.hold = false }

// Unreadable is the saved session that could not be read (see Restore), for the page to offer
// as a file; "" when there is none.
func (k *Keeper) Unreadable() string { return k.unreadable }

// ErrQuota is what a Storage's Set returns when the browser's storage is full.
var ErrQuota = errors.New("the browser's storage for this page is full")

// SavedMsg is a save's verdict (Keeper.Save): Problem is the notice it calls for, "" when the
// session was saved after a save that was not; Kept is how many of the kept sessions are still
// stored (those dropped to make room go from the model too).
type SavedMsg struct {
	Problem, Arg string
	Kept         int
}

// OtherTabMsg is another tab saving its session over this tab's (Keeper.Changed): the tab stops
// saving until the learner follows the other tab (FollowMsg) or keeps this tab's session
// (KeepMsg), so that neither silently overwrites the other.
type OtherTabMsg struct{ Session []byte }

// FollowMsg opens the other tab's session in this tab; this tab's is kept, one click away.
type FollowMsg struct{}

// KeepMsg keeps this tab's session, which the next save writes; the other tab's is kept, one
// click away.
type KeepMsg struct{}

// BackMsg opens the I-th kept session (Model.Kept, newest first); the session it replaces is
// kept in its turn.
type BackMsg struct{ I int }

// ImportMsg opens a session file (what the page's "Save session" downloads, Save's JSON):
// DaemonLab's own file, read up to api.MaxFileBytes rather than the saved session's bound.
type ImportMsg struct{ Data string }

func (SavedMsg) during() during { return keepTick }
func (msg SavedMsg) update(m Model) Model {
	m.Kept = m.Kept[:min(len(m.Kept), msg.Kept)]
	m.Unsaved = unsavedNotices[msg.Problem]
	switch {
	case msg.Problem != "":
		m.Notice, m.NoticeArg = msg.Problem, msg.Arg
	case unsavedNotices[m.Notice]:
		m.Notice, m.NoticeArg = "", ""
	}
	return m
}

// unsavedNotices are the notices of a save that failed, which a save that works dismisses.
var unsavedNotices = map[string]bool{"save.big": true, "save.full": true, "save.off": true}

func (OtherTabMsg) during() during { return keepTick }
func (msg OtherTabMsg) update(m Model) Model {
	m.Other, m.Notice, m.NoticeArg, m.Unsaved = msg.Session, "tab.changed", "", true
	return m
}

func (FollowMsg) during() during { return dropTick }
func (FollowMsg) update(m Model) Model {
	other := m.Other
	m.Other, m.Unsaved = nil, false
	fresh, err := Load(m.lib, other)
	if err != nil {
		m.Notice, m.NoticeArg = "tab.bad", err.Error()
		return m
	}
	return m.replace(fresh, "kept.tab")
}

func (KeepMsg) during() during { return keepTick }
func (KeepMsg) update(m Model) Model {
	if m.Other != nil {
		m.Kept, m.Other, m.Unsaved = pushKept(m.Kept, keptOf(m.Other)), nil, false
		m.Notice, m.NoticeArg = "kept.other", ""
	}
	return m
}

func (BackMsg) during() during           { return dropTick }
func (msg BackMsg) update(m Model) Model { return m.openKept(msg.I, "back.done") }

// openKept opens the i-th kept session in the model's place, keeping the model's session in
// its turn (replace); a kept session that no longer loads is dropped with a notice.
func (m Model) openKept(i int, notice string) Model {
	if i < 0 || i >= len(m.Kept) {
		return m
	}
	entry, rest := m.Kept[i], slices.Delete(slices.Clone(m.Kept), i, i+1)
	fresh, err := loadFile(m.lib, []byte(entry.Session)) // the page's own save, of any size it could store
	if err != nil {
		m.Kept, m.Notice, m.NoticeArg = rest, "back.bad", err.Error()
		return m
	}
	m.Kept = rest
	return m.replace(fresh, notice)
}

func (ImportMsg) during() during { return dropTick }
func (msg ImportMsg) update(m Model) Model {
	fresh, err := loadFile(m.lib, []byte(msg.Data))
	if err != nil {
		m.Notice, m.NoticeArg = "import.bad", err.Error()
		return m
	}
	return m.replace(fresh, "kept.file")
}

// replace starts another session (a lesson, a reset, a link, another tab's or a file's
// session, one kept) in the model's place: what outlives a session is kept (keepOutliving),
// and the session replaced is kept, one click away (BackMsg), with a notice saying so — unless
// it holds nothing worth keeping (worthKeeping), when nothing is said.
func (m Model) replace(fresh Model, notice string) Model {
	fresh.Kept = m.Kept
	if m.worthKeeping() {
		fresh.Kept = pushKept(m.Kept, keptOf(Save(m)))
	} else if notice != "back.done" && notice != "sandbox.back" && notice != "lesson.resumed" {
		notice = ""
	}
	return m.keepOutliving(fresh, notice)
}

// Kept is a session kept one click away (Model.Kept): the lesson it is in ("" for the
// sandbox), how many steps it has, and its Save.
type Kept struct {
	Lesson  string `json:"lesson,omitempty"`
	Steps   int    `json:"steps"`
	Session string `json:"session"`
}

// maxKept is how many sessions are kept; an older one goes.
const maxKept = 5

// keptOf is a saved session (Save's JSON) as a kept one.
func keptOf(data []byte) Kept {
	var sv Saved
	_ = json.Unmarshal(data, &sv) // what cannot be read shows as a sandbox of no steps, and is refused when opened
	k := Kept{Steps: len(sv.Steps), Session: string(data)}
	if sv.Lesson != nil {
		k.Lesson = sv.Lesson.ID
	}
	return k
}

// pushKept keeps k first, before the others less any that is the same session, at most maxKept.
func pushKept(kept []Kept, k Kept) []Kept {
	out := []Kept{k}
	for _, e := range kept {
		if e.Session != k.Session && len(out) < maxKept {
			out = append(out, e)
		}
	}
	return out
}

// keepOutliving keeps in a fresh session what outlives one: the language, the progress, how
// the clock moves (Chunk), the terminal's drawer and the embedding. The notice is the fresh session's own, if it
// has one (a replay cut short, see Load), else notice.
func (m Model) keepOutliving(fresh Model, notice string) Model {
	fresh.Lang, fresh.Progress, fresh.Chunk, fresh.Drawer, fresh.Embed = m.Lang, m.Progress, m.Chunk, m.Drawer, m.Embed
	if fresh.Notice == "" {
		fresh.Notice, fresh.NoticeArg = notice, ""
	}
	return fresh
}

// worthKeeping reports whether the session holds the learner's work: a step of the history, an
// edited manifest, a file or an edit open in a tab, or a lesson begun.
func (m Model) worthKeeping() bool {
	start := m.lib.start
	if t := m.Tutor; t != nil {
		start = t.Lesson.Editor
		if t.Step > 0 || len(t.Typed) > 0 || t.Predicted > 0 || t.Hints > 0 {
			return true
		}
	}
	return len(m.History.Steps) > 0 || m.Editor != start || len(m.Tabs) > 0 || m.Edit != nil
}
