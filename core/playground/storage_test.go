package playground

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memStore is a Storage in memory with a quota on the bytes of its keys and values, as a
// browser's localStorage has (about 5 MB a site); off refuses every write, as a private window
// or a sandboxed frame does.
type memStore struct {
	items map[string]string
	quota int
	off   bool
}

func newStore(quota int) *memStore { return &memStore{items: map[string]string{}, quota: quota} }

func (s *memStore) Get(key string) (string, bool) { v, ok := s.items[key]; return v, ok }
func (s *memStore) Remove(key string)             { delete(s.items, key) }
func (s *memStore) has(key string) bool           { _, ok := s.items[key]; return ok }
func (s *memStore) Set(key, value string) error {
	if s.off {
		return errors.New("SecurityError")
	}
	used := len(key) + len(value)
	for k, v := range s.items {
		if k != key {
			used += len(k) + len(v)
		}
	}
	if used > s.quota {
		return ErrQuota
	}
	s.items[key] = value
	return nil
}

// worked is a sandbox session with a step of the learner's own.
func worked(t *testing.T, line string) Model {
	t.Helper()
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{Line: line})
	require.Len(t, m.History.Steps, 1, line)
	return m
}

// TestASaveIsNeverOneLoadWouldRefuse: a session larger than Load reads is never written. With a
// 4.5 MB text left in the editor it is saved without the text (the cluster's work is kept) and
// the notice says so; a session too large even without it (forty applies of 120 KB
// annotations) is not written at all, the last good save stays and loads, and the notice says
// how large it is and the limit and offers a file. Each is told once; a save that works again
// dismisses the notice.
func TestASaveIsNeverOneLoadWouldRefuse(t *testing.T) {
	store := newStore(10 << 20)
	k := NewKeeper(store, lib)
	m := worked(t, "kubectl label node hd2 disk=ssd")
	require.Nil(t, k.Save(m), "a save that works after none is no news")

	m = Update(m, EditMsg{Text: strings.Repeat("x", 4_500_000)})
	msg := k.Save(m)
	assert.Equal(t, SavedMsg{Problem: "save.editor", Arg: "4.3", Kept: 0}, msg)
	saved, err := Load(lib, []byte(store.items[SessionKey]))
	require.NoError(t, err)
	assert.Equal(t, "ssd", saved.Sim.C.Nodes()[1].Labels["disk"], "the cluster's work is saved")
	assert.Empty(t, saved.Editor, "without the editor's text")
	v := Render(Update(m, msg))
	assert.Contains(t, v.Notice, fmt.Sprintf("%d MiB", maxSavedBytes>>20), "the notice names the limit")
	assert.Equal(t, []NoticeAction{{Label: T(English, "action.export-session"), Page: "export-session"}}, v.NoticeActions)
	assert.Nil(t, k.Save(m), "told once, not at every keystroke")

	m = Update(Update(m, msg), EditMsg{Text: "short"})
	assert.Equal(t, SavedMsg{}, k.Save(m), "a save that works again says so")
	good := store.items[SessionKey]
	for i := range 40 {
		m = Update(m, ApplyMsg{Text: fmt.Sprintf("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: big\n  annotations: {note: %s}\n", strings.Repeat(string(rune('a'+i%26)), 120_000))})
		require.Empty(t, m.Result.Err)
	}
	msg = k.Save(m)
	require.IsType(t, SavedMsg{}, msg)
	assert.Equal(t, "save.big", msg.(SavedMsg).Problem)
	assert.Equal(t, good, store.items[SessionKey], "the good save stays")
	_, err = Load(lib, []byte(good))
	assert.NoError(t, err)
	m = Update(m, msg)
	assert.True(t, m.Unsaved)
	assert.Contains(t, Render(m).Unsaved, "not saved", "marked on the page")
	m = Update(m, ResetMsg{}) // the history goes, kept one click away (too large to store: dropped for room or refused)
	msg = k.Save(m)
	assert.Empty(t, Render(Update(m, msg)).Unsaved)
}

// TestAFullStorageDropsOlderCopiesFirst: a save refused for room drops the unreadable copy, then
// the kept sessions, the oldest first, and tries again; when nothing makes room, or storage is
// off, the save fails with a notice offering a file and the last good save stays.
func TestAFullStorageDropsOlderCopiesFirst(t *testing.T) {
	m := worked(t, "kubectl cordon hd3")
	session := len(Save(m)) + len(SessionKey)
	m.Kept = []Kept{{Steps: 1, Session: strings.Repeat("b", 3000)}, {Steps: 2, Session: strings.Repeat("c", 3000)}}
	kept := keptFile(m.Kept)
	for _, tc := range []struct {
		name    string
		quota   int
		off     bool
		want    SavedMsg
		stays   []string // keys still stored
		dropped []string // keys gone
	}{
		{"room for all", 1 << 20, false, SavedMsg{Kept: 2}, []string{SessionKey, PreviousKey, BrokenKey}, nil},
		{"room once the broken copy goes", session + len(kept) + len(PreviousKey) + 5, false, SavedMsg{Kept: 2}, []string{SessionKey, PreviousKey}, []string{BrokenKey}},
		{"room once the oldest kept session goes", session + len(kept)/2 + 100 + len(PreviousKey), false, SavedMsg{Problem: "save.dropped", Arg: "1", Kept: 1}, []string{SessionKey, PreviousKey}, []string{BrokenKey}},
		{"room once every kept session goes", session + 100, false, SavedMsg{Problem: "save.dropped", Arg: "2", Kept: 0}, []string{SessionKey}, []string{BrokenKey, PreviousKey}},
		{"no room at all", session - 1, false, SavedMsg{Problem: "save.full", Kept: 0}, nil, []string{BrokenKey, PreviousKey}},
		{"storage off", 1 << 20, true, SavedMsg{Problem: "save.off", Kept: 2}, []string{BrokenKey, PreviousKey}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := newStore(1 << 20)
			store.items[BrokenKey], store.items[PreviousKey] = "broken", kept
			store.quota, store.off = tc.quota, tc.off
			k := NewKeeper(store, lib)
			k.back = kept
			msg := k.Save(m)
			if tc.want.Problem == "" {
				assert.Nil(t, msg)
			} else {
				require.Equal(t, tc.want, msg)
				assert.NotEqual(t, tc.want.Problem, T(English, tc.want.Problem), "the notice has a text")
			}
			for _, key := range tc.stays {
				assert.True(t, store.has(key), key)
			}
			for _, key := range tc.dropped {
				assert.False(t, store.has(key), key)
			}
			if tc.want.Problem == "save.full" || tc.want.Problem == "save.off" {
				assert.False(t, store.has(SessionKey), "nothing half written")
				assert.True(t, Update(m, msg).Unsaved)
			}
			if msg != nil {
				assert.Len(t, Update(m, msg).Kept, tc.want.Kept, "the kept sessions dropped are gone from the page too")
			}
		})
	}
}

// TestAnUnreadableSessionIsKeptOrNotSavedOver: a saved session that cannot be read is copied
// under BrokenKey and the notice says so; when no copy fits, the notice says that instead and
// the tab does not save over it until the learner chooses; the session saved before it is
// offered either way.
func TestAnUnreadableSessionIsKeptOrNotSavedOver(t *testing.T) {
	previous := keptFile([]Kept{keptOf(Save(worked(t, "sim add-node hd4")))})
	for _, tc := range []struct {
		name  string
		quota int
		want  string
	}{
		{"a copy fits", 1 << 20, "saved.bad"},
		{"no copy fits", len(SessionKey) + len(PreviousKey) + len(previous) + 40, "saved.bad.held"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := newStore(1 << 20)
			store.items[SessionKey], store.items[PreviousKey] = `{"v":99,"steps":[]}`, previous
			store.quota = tc.quota
			k := NewKeeper(store, lib)
			m, err := k.Restore("")
			require.NoError(t, err)
			assert.Equal(t, tc.want, m.Notice)
			v := Render(m)
			assert.Contains(t, v.Notice, "another version of DaemonLab", "the notice says why")
			require.NotEmpty(t, v.NoticeActions)
			last := v.NoticeActions[len(v.NoticeActions)-1]
			assert.Equal(t, BackMsg{}, last.Msg, "the kept session is offered")
			assert.Equal(t, "Back to your sandbox (1 step)", last.Label)
			assert.Equal(t, "download-unreadable", v.NoticeActions[0].Page, "and the unreadable one as a file")
			assert.Equal(t, `{"v":99,"steps":[]}`, k.Unreadable())

			m = Update(m, RunMsg{Line: "kubectl cordon hd2"})
			k.Save(m)
			if tc.want == "saved.bad" {
				assert.Equal(t, `{"v":99,"steps":[]}`, store.items[BrokenKey])
				assert.NotEqual(t, `{"v":99,"steps":[]}`, store.items[SessionKey], "saved over, a copy being kept")
				return
			}
			assert.False(t, store.has(BrokenKey))
			assert.Equal(t, `{"v":99,"steps":[]}`, store.items[SessionKey], "not saved over")
			assert.True(t, m.Unsaved, "marked on the page")
			k.Release()
			store.quota = 1 << 20
			k.Save(m)
			assert.NotEqual(t, `{"v":99,"steps":[]}`, store.items[SessionKey], "saved over once the learner chose")

			back := Update(m, BackMsg{})
			assert.Len(t, Render(back).Nodes, 4, "the previous session opens")
		})
	}
}

// TestALinkKeepsTheSessionItReplaces: a share link or a #lesson= link opened on a saved session
// keeps that session as the previous one, one click away, and saved under PreviousKey.
func TestALinkKeepsTheSessionItReplaces(t *testing.T) {
	shared := ShareFragment(worked(t, "sim add-node hd4"))
	for _, link := range []string{shared, "lesson=7"} {
		store := newStore(1 << 20)
		mine := string(Save(worked(t, "kubectl label node hd2 disk=ssd")))
		store.items[SessionKey] = mine
		k := NewKeeper(store, lib)
		m, err := k.Restore(link)
		require.NoError(t, err)
		assert.Equal(t, "link.kept", m.Notice)
		require.Len(t, m.Kept, 1)
		assert.Equal(t, mine, m.Kept[0].Session)
		k.Save(m)
		assert.Equal(t, keptFile(m.Kept), store.items[PreviousKey], "kept across reloads")
		assert.Equal(t, string(Save(m)), store.items[SessionKey])

		back := Update(m, BackMsg{})
		assert.Equal(t, "back.done", back.Notice)
		if link == shared { // a session of a step is worth keeping; an untouched lesson is not
			require.NotEmpty(t, Render(back).NoticeActions)
			assert.Equal(t, BackMsg{}, Render(back).NoticeActions[0].Msg, "and back again")
		}
		assert.Equal(t, "ssd", back.Sim.C.Nodes()[1].Labels["disk"])
	}

	store := newStore(1 << 20)
	m, err := NewKeeper(store, lib).Restore("s=%%%")
	require.NoError(t, err)
	assert.Equal(t, "link.bad", m.Notice, "a damaged link opens the saved session (here none) with a notice")
}

// TestTwoTabsNeverSilentlyOverwriteEachOther: when another tab saves over this tab's session,
// this tab stops saving until the learner follows the other tab or keeps this tab's session;
// either way the session not chosen is the previous one, one click away.
func TestTwoTabsNeverSilentlyOverwriteEachOther(t *testing.T) {
	for _, choice := range []Msg{FollowMsg{}, KeepMsg{}} {
		t.Run(fmt.Sprintf("%T", choice), func(t *testing.T) {
			store := newStore(1 << 20)
			a, b := NewKeeper(store, lib), NewKeeper(store, lib)
			ma, err := a.Restore("")
			require.NoError(t, err)
			mb, err := b.Restore("")
			require.NoError(t, err)

			ma = Update(ma, RunMsg{Line: "kubectl cordon hd2"})
			a.Save(ma)
			theirs := store.items[SessionKey]
			assert.Nil(t, a.Changed(SessionKey, theirs, false), "a tab's own save is no news")
			msg := b.Changed(SessionKey, theirs, false)
			require.Equal(t, OtherTabMsg{Session: []byte(theirs)}, msg)
			mb = Update(mb, msg)
			assert.Equal(t, "tab.changed", mb.Notice)
			actions := Render(mb).NoticeActions
			require.Len(t, actions, 2)
			assert.Equal(t, []Msg{FollowMsg{}, KeepMsg{}}, []Msg{actions[0].Msg, actions[1].Msg})

			mb = Update(mb, RunMsg{Line: "kubectl label node hd3 disk=ssd"})
			assert.Nil(t, b.Save(mb))
			assert.Equal(t, theirs, store.items[SessionKey], "the undecided tab does not save over the other's")

			mb = Update(mb, choice)
			b.Save(mb)
			if _, follow := choice.(FollowMsg); follow {
				assert.True(t, mb.Sim.C.Nodes()[1].Spec.Unschedulable, "the other tab's session")
				require.NotEmpty(t, mb.Kept)
				assert.Contains(t, mb.Kept[0].Session, "disk=ssd", "this tab's is kept")
			} else {
				assert.Equal(t, "ssd", mb.Sim.C.Nodes()[2].Labels["disk"], "this tab's session")
				assert.Equal(t, "kept.other", mb.Notice)
				assert.Equal(t, keptFile([]Kept{keptOf([]byte(theirs))}), store.items[PreviousKey], "the other tab's is kept")
			}
			assert.Equal(t, string(Save(mb)), store.items[SessionKey])
			assert.Nil(t, b.Changed(SessionKey, "", true), "a session removed is no session saved over")
		})
	}
}

// TestProgressFromTwoTabsAddsUp: a tab saving its progress keeps what another tab stored; step
// counts only grow.
func TestProgressFromTwoTabsAddsUp(t *testing.T) {
	store := newStore(1 << 20)
	store.items[ProgressKey] = `{"01-one-pod-per-node":3,"07-node-failure":1}`
	m := worked(t, "kubectl cordon hd2")
	m.Progress = map[string]int{"07-node-failure": 2, "02-adopt": 1}
	NewKeeper(store, lib).Save(m)
	assert.Equal(t, map[string]int{"01-one-pod-per-node": 3, "07-node-failure": 2, "02-adopt": 1}, ReadProgress(store.items[ProgressKey]))
}

// TestReplacingASessionKeepsItOneClickAway: a lesson picked, a reset, a lesson file or a session
// file opened over the learner's work keeps that work, one click away, with a notice that says
// what happened; over a start state that holds nothing of the learner's, the kept sessions stay
// as they were and nothing is said.
func TestReplacingASessionKeepsItOneClickAway(t *testing.T) {
	file := string(Save(worked(t, "sim add-node hd4")))
	for msg, notice := range map[Msg]string{LessonMsg{ID: "07-node-failure"}: "kept.lesson", ResetMsg{}: "kept.reset", ImportMsg{Data: file}: "kept.file"} {
		m := worked(t, "kubectl label node hd2 disk=ssd")
		replaced := Update(m, msg)
		assert.Equal(t, notice, replaced.Notice, "%T", msg)
		require.Len(t, replaced.Kept, 1, "%T", msg)
		assert.Equal(t, string(Save(m)), replaced.Kept[0].Session, "%T", msg)
		assert.Equal(t, "Back to your sandbox (1 step)", Render(replaced).NoticeActions[0].Label, "%T", msg)
		back := Update(replaced, BackMsg{})
		assert.Equal(t, "ssd", back.Sim.C.Nodes()[1].Labels["disk"], "%T", msg)

		fresh, err := NewModel(lib)
		require.NoError(t, err)
		fresh.Kept = []Kept{keptOf([]byte(file))}
		again := Update(fresh, msg)
		assert.Empty(t, again.Notice, "%T over a start state", msg)
		assert.Equal(t, fresh.Kept, again.Kept, "%T over a start state", msg)
	}
}

// TestLeavingALessonBringsTheSandboxBack: the sandbox kept when a lesson started comes back when
// the learner leaves the lesson (or picks the sandbox), however many lessons came between, the
// lessons left being kept in their turn; a reset in the sandbox starts afresh.
func TestLeavingALessonBringsTheSandboxBack(t *testing.T) {
	m := worked(t, "kubectl label node hd2 disk=ssd")
	m = Update(m, LessonMsg{ID: "03-choosing-nodes"})
	m = Update(m, RunMsg{Line: "kubectl get nodes"})
	m = Update(m, LessonMsg{ID: "07-node-failure"})
	m = Update(m, RunMsg{Line: "kubectl get nodes"})
	require.Len(t, m.Kept, 2)
	l, ok := lib.findLesson("03-choosing-nodes")
	require.True(t, ok)
	assert.Equal(t, "Back to "+heading(English, l), Render(m).NoticeActions[0].Label)
	m = Update(m, LessonMsg{})
	assert.Nil(t, m.Tutor)
	assert.Equal(t, "sandbox.back", m.Notice)
	assert.Equal(t, "ssd", m.Sim.C.Nodes()[1].Labels["disk"], "the sandbox as it was left")
	assert.Len(t, m.Kept, 2, "both lessons kept")
	assert.Equal(t, "07-node-failure", m.Kept[0].Lesson)

	m = Update(m, ResetMsg{})
	assert.Empty(t, m.Sim.C.Nodes()[1].Labels["disk"], "a reset in the sandbox starts afresh")
	assert.Equal(t, "kept.reset", m.Notice)
}

// TestASessionFileOpensUpToItsOwnBound: a session file is read up to api.MaxFileBytes, beyond the
// saved session's bound; one that is not a session is refused and changes nothing.
func TestASessionFileOpensUpToItsOwnBound(t *testing.T) {
	big := worked(t, "kubectl cordon hd2")
	big.Editor = strings.Repeat("x", 5<<20)
	m := worked(t, "kubectl label node hd2 disk=ssd")
	opened := Update(m, ImportMsg{Data: string(Save(big))})
	assert.True(t, opened.Sim.C.Nodes()[1].Spec.Unschedulable)
	assert.Len(t, opened.Editor, 5<<20)

	for _, bad := range []string{"", "{", `{"v":1,"steps":[{"run":""}]}`, strings.Repeat(" ", 17<<20)} {
		refused := Update(m, ImportMsg{Data: bad})
		assert.Equal(t, "import.bad", refused.Notice)
		assert.Equal(t, Save(m), Save(refused), "nothing changed")
	}
}
