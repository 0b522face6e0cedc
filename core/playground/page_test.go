package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTerminalKeysAreItsMessages pins the prompt's keyboard: Enter runs the line, ↑/↓ walk the
// history, Tab (not Shift+Tab, nor at an empty prompt, where focus moves on) completes, Ctrl+L
// clears; any other key is typing.
func TestTerminalKeysAreItsMessages(t *testing.T) {
	tests := []struct {
		key         string
		ctrl, shift bool
		line        string
		want        Msg
	}{
		{"Enter", false, false, "k get po", RunMsg{Line: "k get po"}},
		{"ArrowUp", false, false, "k get po", HistoryMsg{Step: -1}},
		{"ArrowDown", false, false, "k get po", HistoryMsg{Step: +1}},
		{"Tab", false, false, "k get po", CompleteMsg{Line: "k get po"}},
		{"Tab", false, true, "k get po", nil},
		{"Tab", false, false, "", nil},   // focus moves on: no keyboard trap
		{"Tab", false, false, "  ", nil}, // nor on blanks
		{"l", true, false, "k get po", ClearMsg{}},
		{"l", false, false, "k get po", nil},
		{"a", false, false, "k get po", nil},
	}
	for _, tt := range tests {
		msg, ok := TerminalKey(tt.key, tt.ctrl, tt.shift, tt.line)
		assert.Equal(t, tt.want != nil, ok, "%s ctrl=%t shift=%t", tt.key, tt.ctrl, tt.shift)
		assert.Equal(t, tt.want, msg, "%s ctrl=%t shift=%t", tt.key, tt.ctrl, tt.shift)
	}
}

// TestTheTerminalKeepsTheLinesItStillShows: a redraw keeps the lines drawn that the new lines
// begin with (after the scrollback dropped some from the top), and draws afresh otherwise.
func TestTheTerminalKeepsTheLinesItStillShows(t *testing.T) {
	a, b, c, d := TermLine{Text: "$ a", Command: true}, TermLine{Text: "b"}, TermLine{Text: "c", Err: true}, TermLine{Text: "d"}
	tests := []struct {
		name         string
		shown, lines []TermLine
		want         int
	}{
		{"nothing drawn", nil, []TermLine{a}, 0},
		{"lines printed", []TermLine{a, b}, []TermLine{a, b, c}, 2},
		{"nothing printed", []TermLine{a, b}, []TermLine{a, b}, 2},
		{"the top scrolled off", []TermLine{a, b, c}, []TermLine{b, c, d}, 2},
		{"cleared", []TermLine{a, b}, nil, 0},
		{"other lines", []TermLine{a, b}, []TermLine{c, d}, 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, KeptLines(tt.shown, tt.lines), tt.name)
	}
	assert.Equal(t, []string{"cmd", "out", "err"}, []string{a.Class(), b.Class(), c.Class()})
}

// TestEditingKeepsTheTextWithoutApplyingIt: the editor's text edited is the model's (and the
// session's) without an apply, and a Tick under way stays under way.
func TestEditingKeepsTheTextWithoutApplyingIt(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m.Chunk = true
	m = Update(m, RunMsg{"sim advance 1m"})
	require.NotNil(t, m.Tick)
	steps := len(m.History.Steps)
	m = Update(m, EditMsg{Text: "kind: Nope"})
	assert.Equal(t, "kind: Nope", Render(m).Editor)
	assert.NotNil(t, m.Tick, "typing leaves the clock moving")
	assert.Len(t, m.History.Steps, steps, "nothing applied")
	assert.Len(t, Render(m).Terminal, 1, "the advance echoed, nothing applied")
}

// TestStopDropsTheTickAndPlay: StopMsg (a tick's work panicked) stops play and drops the Tick,
// leaving the history as it was.
func TestStopDropsTheTickAndPlay(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"}) // something due: play stops when nothing is
	m.Chunk = true
	m = Update(Update(m, PlayMsg{On: true}), TickMsg{})
	require.NotNil(t, m.Tick)
	m = Update(m, StopMsg{})
	assert.Nil(t, m.Tick)
	assert.False(t, m.Playing)
	assert.Equal(t, []Step{{Run: "sim fail hd2 kubelet-down"}}, m.History.Steps)
}

// TestLinksOpenSessionsAndLessons: a share link opens its session, a #lesson=N link the lesson's
// start; a damaged one is an error; other fragments are no links. A session opened in the open
// page (SessionMsg) keeps the language, the progress and how the clock moves, and keeps the
// session it replaced one click away (BackMsg).
func TestLinksOpenSessionsAndLessons(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim add-node hd4"})
	share := ShareFragment(m)
	for fragment, link := range map[string]bool{share: true, "lesson=7": true, "lesson=99": true, "s=%%%": true, "": false, "top": false} {
		assert.Equal(t, link, IsLink(fragment), fragment)
	}
	shared, err := OpenLink(lib, share)
	require.NoError(t, err)
	assert.Len(t, Render(shared).Nodes, 4)
	lesson, err := OpenLink(lib, "lesson=7")
	require.NoError(t, err)
	assert.Equal(t, "07-node-failure", lesson.Tutor.Lesson.ID)
	for _, bad := range []string{"lesson=99", "s=%%%"} {
		_, err := OpenLink(lib, bad)
		assert.Error(t, err, bad)
	}

	m = Update(Update(m, LangMsg{Lang: Chinese}), NoticeMsg{Key: "share.done"})
	m.Progress, m.Chunk = map[string]int{"07-node-failure": 2}, true
	m = Update(m, SessionMsg{Session: lesson})
	assert.Equal(t, "07-node-failure", m.Tutor.Lesson.ID)
	assert.Equal(t, Chinese, m.Lang)
	assert.Equal(t, map[string]int{"07-node-failure": 2}, m.Progress)
	assert.True(t, m.Chunk)
	v := Render(m)
	assert.Equal(t, T(Chinese, "link.kept"), v.Notice)
	require.Len(t, v.NoticeActions, 1)
	assert.Equal(t, BackMsg{}, v.NoticeActions[0].Msg)
	m = Update(m, v.NoticeActions[0].Msg)
	assert.Nil(t, m.Tutor, "back in the sandbox")
	assert.Len(t, Render(m).Nodes, 4)
	assert.Equal(t, Chinese, m.Lang)
}

// TestProgressIsKeptAsAFile: the progress the page keeps reads back; a missing or unreadable
// one is no progress.
func TestProgressIsKeptAsAFile(t *testing.T) {
	m := Model{Progress: map[string]int{"01-one-pod-per-node": 3}}
	assert.Equal(t, m.Progress, ReadProgress(string(ProgressFile(m))))
	for _, saved := range []string{"", "{", `{"a":"b"}`} {
		assert.Equal(t, map[string]int{}, ReadProgress(saved), saved)
	}
}

// TestNodeStatusesHaveAClassEach: a node's STATUS is drawn as its condition in lower case, and
// cordoned when scheduling is disabled.
func TestNodeStatusesHaveAClassEach(t *testing.T) {
	for status, want := range map[string]string{
		"Ready": "ready", "NotReady": "notready", "Unknown": "unknown",
		"Ready,SchedulingDisabled": "ready cordoned", "NotReady,SchedulingDisabled": "notready cordoned",
	} {
		assert.Equal(t, want, StatusClass(status), status)
	}
}
