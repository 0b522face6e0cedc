package playground

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// crashLoopSteps set up a Deployment whose pods crash for ever.
var crashLoopSteps = []Step{{Run: "sim image busybox:1 crash"}, {Run: "kubectl create deployment x --image=busybox:1 --replicas=3"}}

// state is what two sessions must agree on: the clock and every object kubectl shows.
func state(m Model) string {
	r := shell.Run(m.Sim, "kubectl get all,nodes,events -A -o yaml", "")
	return m.Sim.C.Now().String() + "\n" + r.Out + r.Err
}

// startWork is the work the start state costs, which a replay does before its steps.
func startWork(t *testing.T) int64 {
	m, err := NewModel(lib)
	require.NoError(t, err)
	return m.Sim.Work()
}

// TestAShareLinkThatWouldRunForDaysIsCut: a share link of under 300 bytes repeating
// `sim advance 1000h` 99,990 times over a crash loop (days of a browser tab, each run cut by
// the command's budget) is cut once the replay has done replayBudget units of work, past it by
// no more than one command: the session is what was replayed — the step's runs counted as far
// as they went, the timeline at its end — usable, with a notice saying so (and keeping it when
// opened in the open page).
func TestAShareLinkThatWouldRunForDaysIsCut(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("a budget's worth of work, counted the same under wasm (the count is deterministic), takes minutes under Node")
	}
	m, err := NewModel(lib)
	require.NoError(t, err)
	m.Editor = ""
	m.History.Steps = append(crashLoopSteps, Step{Run: "sim advance 1000h", Times: 99_990})
	m.History.Pos = len(m.History.Steps)
	link := ShareFragment(m)
	require.Less(t, len(link), 300)
	t.Logf("the link: %d bytes", len(link))

	cut, err := LoadShared(lib, link)
	require.NoError(t, err)
	work := cut.Sim.Work() - startWork(t)
	assert.GreaterOrEqual(t, work, int64(replayBudget))
	assert.Less(t, work, int64(replayBudget+sim.Budget*101/100), "no more than one command past the budget")
	require.Len(t, cut.History.Steps, 3)
	runs := cut.History.Steps[2].Times
	assert.Equal(t, replayBudget/sim.Budget, runs, "each run does one command's budget")
	assert.Equal(t, 3, cut.History.Pos)
	assert.Equal(t, "session.cut", cut.Notice)
	assert.Equal(t, strconv.Itoa(2+runs), cut.NoticeArg)
	assert.Equal(t, "This session was cut short: only its first 6 commands were replayed, as replaying the rest would take too long. The cluster is as they left it.", Render(cut).Notice)
	cut.Lang = Chinese
	assert.Contains(t, Render(cut).Notice, "只重放了前 6 条命令")

	assert.Contains(t, output(t, cut, "kubectl get pods"), "CrashLoopBackOff", "the session is usable")
	opened := Update(m, SessionMsg{Session: cut})
	assert.Equal(t, "session.cut", opened.Notice)
}

// TestACommandStoppedLiveReplaysToTheSameState: `sim advance 1000h` over a crash loop stops
// where its budget runs out and says so in the terminal, whether the page takes it a piece at a
// time (Chunk) or at once; the session saved and loaded again is the same cluster, stopped at
// the same instant.
func TestACommandStoppedLiveReplaysToTheSameState(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("a budget's worth of work, counted the same under wasm (the count is deterministic), takes minutes under Node")
	}
	live := func(chunk bool) Model {
		m, err := NewModel(lib)
		require.NoError(t, err)
		m.Chunk = chunk
		for _, st := range crashLoopSteps {
			m = Update(m, RunMsg{st.Run})
		}
		m = Update(m, RunMsg{"sim advance 1000h"})
		for m.Tick != nil {
			m = Update(m, WorkMsg{Enough: func() bool { return true }})
		}
		return m
	}
	chunked, whole := live(true), live(false)
	last := chunked.Terminal.Lines[len(chunked.Terminal.Lines)-1]
	assert.True(t, last.Err)
	assert.Regexp(t, `^error: sim advance stopped after \d+h\d+m\d+s of 1000h0m0s: one command may do at most 2,000,000 units of work`, last.Text)
	assert.Equal(t, last, whole.Terminal.Lines[len(whole.Terminal.Lines)-1])
	assert.Equal(t, state(whole), state(chunked))
	assert.Equal(t, append(crashLoopSteps, Step{Run: "sim advance 1000h"}), chunked.History.Steps)

	replayed, err := Load(lib, Save(chunked))
	require.NoError(t, err)
	assert.Empty(t, replayed.Notice)
	assert.Equal(t, state(chunked), state(replayed))
}

// TestLongPlayIsNotCut: thirteen minutes of play at the fastest speed (3,120 ticks of 15s) over
// a Deployment replay in full.
func TestLongPlayIsNotCut(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m.History.Steps = []Step{{Run: "kubectl create deployment web --image=nginx:1.27 --replicas=5"}, {Run: Speeds[len(Speeds)-1].Command(), Times: 13 * 60 * 1000 / TickInterval}}
	m.History.Pos = 2
	loaded, err := Load(lib, Save(m))
	require.NoError(t, err)
	assert.Empty(t, loaded.Notice)
	assert.Equal(t, m.History.Steps, loaded.History.Steps)
	t.Logf("13 minutes of play: %d units of work, %.0f%% of the replay budget", loaded.Sim.Work()-startWork(t), 100*float64(loaded.Sim.Work()-startWork(t))/replayBudget)
}
