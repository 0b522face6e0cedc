package playground

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/cluster"
)

// output is what a read-only command prints now; reads do not become steps.
func output(t *testing.T, m Model, line string) string {
	t.Helper()
	steps := len(m.History.Steps)
	m = Update(m, RunMsg{Line: line})
	require.Len(t, m.History.Steps, steps, "%q only reads", line)
	return m.Terminal.Lines[len(m.Terminal.Lines)-1].Text
}

// TestOnlyCommandsThatChangeTheClusterAreSteps: reads, errors and completion leave the history
// alone; applies, faults and time are steps.
func TestOnlyCommandsThatChangeTheClusterAreSteps(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	for _, msg := range []Msg{RunMsg{"kubectl get pods -o wide"}, RunMsg{"kubectl get dss"}, CompleteMsg{"kubectl get "}, ApplyMsg{"kind: Nope"}} {
		m = Update(m, msg)
	}
	assert.Empty(t, m.History.Steps)
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"})
	m = Update(m, ApplyMsg{m.Editor})
	m = Update(m, RunMsg{"sim advance 1m"})
	assert.Equal(t, []Step{{Run: "sim fail hd2 kubelet-down"}, {Run: "sim advance 1m"}}, m.History.Steps,
		"re-applying the same manifest changes nothing, so it is no step")
}

// TestUndoRedoAndSeekRestoreEveryStep: undo goes back a step at a time, redo forward, the
// scrubber anywhere; a new command after an undo drops the steps that could have been redone.
func TestUndoRedoAndSeekRestoreEveryStep(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	var seen []string // what `get nodes,pods` printed after each step
	seen = append(seen, output(t, m, "kubectl get nodes,pods -A"))
	for _, line := range []string{"sim fail hd2 kubelet-down", "sim advance 1m", "kubectl cordon hd3", "sim advance 6m"} {
		m = Update(m, RunMsg{line})
		seen = append(seen, output(t, m, "kubectl get nodes,pods -A"))
	}
	require.Equal(t, 4, m.History.Pos)
	for pos := 3; pos >= 0; pos-- {
		m = Update(m, UndoMsg{})
		assert.Equal(t, seen[pos], output(t, m, "kubectl get nodes,pods -A"), "after undo to step %d", pos)
	}
	m = Update(m, UndoMsg{})
	assert.Equal(t, 0, m.History.Pos, "nothing before the start")
	m = Update(m, RedoMsg{})
	m = Update(m, RedoMsg{})
	assert.Equal(t, seen[2], output(t, m, "kubectl get nodes,pods -A"))
	m = Update(m, SeekMsg{Pos: 4})
	assert.Equal(t, seen[4], output(t, m, "kubectl get nodes,pods -A"))
	m = Update(m, SeekMsg{Pos: 1})
	m = Update(m, RunMsg{"sim recover hd2"})
	assert.Equal(t, []Step{{Run: "sim fail hd2 kubelet-down"}, {Run: "sim recover hd2"}}, m.History.Steps)
	m = Update(m, RedoMsg{})
	assert.Equal(t, 2, m.History.Pos, "nothing left to redo")
}

// TestSeekRebuildsForgottenStates: beyond the recent snapshots, a state is rebuilt by replaying
// from the nearest one kept, and equals the state first reached there.
func TestSeekRebuildsForgottenStates(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	var seen []string
	for i := range recentSnapshots + 30 {
		m = Update(m, RunMsg{"sim advance 7s"})
		if i == 19 {
			seen = append(seen, output(t, m, "kubectl get pods,nodes -A"))
		}
	}
	require.Len(t, m.History.snaps, recentSnapshots+2, "the start, and the recent ones: 30 to 130")
	m = Update(m, SeekMsg{Pos: 20})
	assert.Equal(t, seen[0], output(t, m, "kubectl get pods,nodes -A"))
}

// TestPlayTicksExtendOneStep: play's ticks advance the clock by the speed's amount and count as
// one step, undone at once.
func TestPlayTicksExtendOneStep(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"}) // something due: play stops when nothing is
	m = Update(m, TickMsg{})
	assert.Len(t, m.History.Steps, 1, "no tick while paused")
	m = Update(m, PlayMsg{On: true})
	for range 4 {
		m = tick(m)
	}
	assert.Equal(t, []Step{{Run: "sim fail hd2 kubelet-down"}, {Run: "sim advance 2.5s", Times: 4}}, m.History.Steps)
	assert.Equal(t, "t = 40s", Render(m).Clock)
	m = Update(m, UndoMsg{})
	assert.False(t, m.Playing, "undo stops play")
	assert.Equal(t, "t = 30s", Render(m).Clock)
}

// tick is a whole play tick, as the page plays it: the tick begins, and its work runs to its end.
func tick(m Model) Model {
	return Update(Update(m, TickMsg{}), WorkMsg{Enough: func() bool { return false }})
}

// TestATickRunsInPiecesToWhatAdvanceLeaves: a play tick is done a piece at a time (the page
// paints between WorkMsgs); taken to its end, it leaves the cluster exactly as `sim advance`
// does, and only then becomes a step of the history.
func TestATickRunsInPiecesToWhatAdvanceLeaves(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"kubectl set image ds/fluentd-elasticsearch -n kube-system fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v2.6.0"})
	m = Update(m, RunMsg{"sim fail hd3 kubelet-down"}) // still something due after the rollout: play goes on
	m = Update(m, SpeedMsg{Index: 3})
	m = Update(m, PlayMsg{On: true})
	want := Update(m, RunMsg{"sim advance 15s"})

	m.Chunk = true
	m = Update(m, TickMsg{})
	require.NotNil(t, m.Tick)
	steps := len(m.History.Steps)
	pieces := 0
	for m.Tick != nil {
		assert.Len(t, m.History.Steps, steps, "no step until the tick is over")
		m = Update(m, WorkMsg{Enough: func() bool { return true }})
		pieces++
	}
	assert.Greater(t, pieces, 1, "a piece is a controller's pass, not the whole tick")
	assert.Equal(t, Step{Run: "sim advance 15s"}, m.History.Steps[len(m.History.Steps)-1])
	assert.Equal(t, output(t, want, "kubectl get all,nodes,events -A -o wide"), output(t, m, "kubectl get all,nodes,events -A -o wide"))
}

// TestMessagesDuringATick: while a tick is under way, pausing and changing the view leave it
// under way; a command first finishes it (the tick is a step before the command's); undo drops
// it and goes back from the last step the page showed.
func TestMessagesDuringATick(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"})
	m = Update(m, PlayMsg{On: true})
	m.Chunk = true
	begun := func(m Model) Model {
		m = Update(m, TickMsg{})
		return Update(m, WorkMsg{Enough: func() bool { return true }})
	}

	m = begun(m)
	for _, msg := range []Msg{PlayMsg{On: false}, SpeedMsg{Index: 2}, SelectMsg{Ref: Ref{Kind: "Node", Name: "hd2"}}, TableMsg{On: true}, LangMsg{Lang: Chinese}, EventsMsg{}, NoticeMsg{}} {
		m = Update(m, msg)
		assert.NotNil(t, m.Tick, "%T leaves the tick under way", msg)
	}
	m = Update(m, TickMsg{})
	assert.NotNil(t, m.Tick, "no second tick begins while one is under way")

	m = Update(m, RunMsg{"kubectl get nodes"})
	assert.Nil(t, m.Tick)
	assert.Equal(t, []Step{{Run: "sim fail hd2 kubelet-down"}, {Run: "sim advance 2.5s"}}, m.History.Steps)
	assert.Equal(t, 32500*time.Millisecond, m.Sim.C.Now().Sub(cluster.Epoch))

	m = Update(m, PlayMsg{On: true})
	m = begun(m)
	m = Update(m, UndoMsg{})
	assert.Nil(t, m.Tick)
	assert.Equal(t, 1, m.History.Pos)
	assert.Equal(t, 30*time.Second, m.Sim.C.Now().Sub(cluster.Epoch))
}

// TestATypedAdvanceRunsInPieces: with Chunk, `sim advance` typed (or from the timeline's
// buttons) moves the clock a piece at a time too; over, it is a step of its own (two are two
// steps, not one step run twice), and the cluster is as the command leaves it at once. Other
// lines, and advances the shell would refuse, run at once.
func TestATypedAdvanceRunsInPieces(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"})
	want := Update(Update(m, RunMsg{"sim advance 5m"}), RunMsg{"sim advance 5m"})

	m.Chunk = true
	for range 2 {
		m = Update(m, RunMsg{"sim advance 5m"})
		require.NotNil(t, m.Tick)
		assert.Equal(t, "$ sim advance 5m", m.Terminal.Lines[len(m.Terminal.Lines)-1].Text)
		for m.Tick != nil {
			m = Update(m, WorkMsg{Enough: func() bool { return true }})
		}
	}
	assert.Equal(t, want.History.Steps, m.History.Steps)
	assert.Equal(t, []Step{{Run: "sim fail hd2 kubelet-down"}, {Run: "sim advance 5m"}, {Run: "sim advance 5m"}}, m.History.Steps)
	assert.Equal(t, output(t, want, "kubectl get all,nodes,events -A -o wide"), output(t, m, "kubectl get all,nodes,events -A -o wide"))

	for _, line := range []string{"sim advance -5m", "sim advance soon", "sim  advance 1s extra", "kubectl get nodes"} {
		m = Update(m, RunMsg{line})
		assert.Nil(t, m.Tick, line)
	}
	assert.True(t, Update(m, ResetMsg{}).Chunk, "a reset keeps the page's way of moving the clock")
	assert.True(t, Update(m, LessonMsg{ID: "01-one-pod-per-node"}).Chunk, "so does a lesson")
	assert.Equal(t, `error: "-5m" is not a duration: use a number and a unit, such as 10s, 5m or 1h30m`, m.Terminal.Lines[5].Text, "the shell's own message")
}

// TestSavedSessionsReplayExactly: a session saved and loaded (as on reload, or through a share
// link) is the same cluster, timeline position, editor and typed history.
func TestSavedSessionsReplayExactly(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, ApplyMsg{strings.Replace(m.Editor, "fluentd:v2.5.1", "fluentd:v2.6.0", 1)})
	require.NotEmpty(t, m.History.Steps[0].Apply, "the new image is a step")
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"})
	m = Update(m, PlayMsg{On: true})
	for range 40 {
		m = tick(m)
	}
	m = Update(m, RunMsg{"kubectl create deployment web --image=nginx --replicas=3"})
	m = Update(m, UndoMsg{})
	m.Editor = "edited but not applied"
	for name, load := range map[string]func(Model) (Model, error){
		"saved":  func(m Model) (Model, error) { return Load(lib, Save(m)) },
		"shared": func(m Model) (Model, error) { return LoadShared(lib, ShareFragment(m)) },
	} {
		t.Run(name, func(t *testing.T) {
			got, err := load(m)
			require.NoError(t, err)
			assert.Equal(t, m.History.Steps, got.History.Steps)
			assert.Equal(t, m.History.Pos, got.History.Pos)
			assert.Equal(t, m.Editor, got.Editor)
			assert.Equal(t, m.Terminal.History, got.Terminal.History)
			assert.Equal(t, output(t, m, "kubectl get all,nodes -A -o wide"), output(t, got, "kubectl get all,nodes -A -o wide"))
			got = Update(got, RedoMsg{})
			assert.Contains(t, output(t, got, "kubectl get deploy"), "web ")
		})
	}
}

// TestDamagedSessionsAreRefused: a truncated or altered share link, or a saved session that is
// not one, is refused with a message, and loading builds nothing.
func TestDamagedSessionsAreRefused(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"})
	link := ShareFragment(m)
	for name, fragment := range map[string]string{
		"truncated":   link[:len(link)-5],
		"not base64":  "s=%%%",
		"altered":     link[:10] + "A" + link[11:],
		"not deflate": "s=" + strings.Repeat("A", 40),
	} {
		_, err := LoadShared(lib, fragment)
		assert.ErrorIs(t, err, errSaved, name)
	}
	for name, saved := range map[string]string{
		"empty":                            ``,
		"not JSON":                         `{"v":1,`,
		"other version":                    `{"v":2,"steps":[],"pos":0,"editor":""}`,
		"unknown field":                    `{"v":1,"steps":[],"pos":0,"editor":"","cmd":"rm -rf"}`,
		"pos past end":                     `{"v":1,"steps":[{"run":"sim step"}],"pos":2,"editor":""}`,
		"negative pos":                     `{"v":1,"steps":[],"pos":-1,"editor":""}`,
		"empty step":                       `{"v":1,"steps":[{}],"pos":1,"editor":""}`,
		"run and apply":                    `{"v":1,"steps":[{"run":"sim step","apply":"kind: Pod"}],"pos":1,"editor":""}`,
		"too many runs":                    `{"v":1,"steps":[{"run":"sim advance 1h","times":100001}],"pos":1,"editor":""}`,
		"negative times":                   `{"v":1,"steps":[{"run":"sim step","times":-3}],"pos":1,"editor":""}`,
		"two documents":                    `{"v":1,"steps":[],"pos":0,"editor":""} {}`,
		"wrong type":                       `{"v":"1","steps":[],"pos":0,"editor":""}`,
		"too large":                        `{"v":1,"steps":[],"pos":0,"editor":"` + strings.Repeat("x", maxSavedBytes) + `"}`,
		"a lesson given up":                `{"v":1,"lesson":{"id":"01-one-pod-per-node","step":0,"gaveUp":true},"steps":[],"pos":0,"editor":""}`,
		"a lesson revealed, no prediction": `{"v":1,"lesson":{"id":"01-one-pod-per-node","step":0,"revealed":true},"steps":[],"pos":0,"editor":""}`,
		"checks not the task's":            `{"v":1,"lesson":{"id":"challenges/01-the-agent-skips-the-control-plane","step":0,"checked":[true]},"steps":[],"pos":0,"editor":""}`,
		"a timer before time":              `{"v":1,"lesson":{"id":"challenges/01-the-agent-skips-the-control-plane","step":0,"started":-5},"steps":[],"pos":0,"editor":""}`,
	} {
		_, err := Load(lib, []byte(saved))
		assert.ErrorIs(t, err, errSaved, name)
	}
}

// FuzzLoadShared: no share link, however forged, panics or loads more than the limits allow.
func FuzzLoadShared(f *testing.F) {
	m, err := NewModel(lib)
	require.NoError(f, err)
	f.Add(ShareFragment(Update(m, RunMsg{"sim fail hd2 kubelet-down"})))
	f.Add(ShareFragment(Update(m, OpenMsg{Files: lessonOneFiles(f)}))) // a teacher's lesson, packed
	f.Add("s=")
	f.Add(`{"v":1,"steps":[{"run":"sim advance 1m","times":3}],"pos":1,"editor":"x"}`)
	f.Fuzz(func(t *testing.T, fragment string) {
		if got, err := LoadShared(lib, fragment); err == nil {
			assert.LessOrEqual(t, len(got.History.Steps), maxSteps)
		}
		if got, err := Load(lib, []byte(fragment)); err == nil {
			assert.LessOrEqual(t, len(got.History.Steps), maxSteps)
		}
	})
}
