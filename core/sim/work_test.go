package sim_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// crashLoop is the default cluster running a Deployment of 3 pods whose image crashes: the
// kubelet restarts each every 5 minutes once its back-off is at its cap, for ever.
func crashLoop(t testing.TB) *sim.Sim {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	for _, line := range []string{"sim image busybox:1 crash", "kubectl create deployment x --image=busybox:1 --replicas=3"} {
		require.Zero(t, shell.Run(s, line, "").Code, line)
	}
	return s
}

// state is what the tests compare of two clusters: every object kubectl shows, and the clock.
func state(s *sim.Sim) string {
	r := shell.Run(s, "kubectl get all,nodes,events -A -o yaml", "")
	return s.C.Now().String() + "\n" + r.Out + r.Err
}

// TestACommandStopsWhereItsBudgetRunsOut: `sim advance 1000h` over a crash loop (days of a
// browser tab, hours natively) stops once the command has done sim.Budget units of work, past
// it by no more than one stop's settling; the clock stands there, the cluster settled (settling
// again changes nothing); while the command lasts, no Wait lets time pass, and after it the
// clock moves again.
func TestACommandStopsWhereItsBudgetRunsOut(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("a budget's worth of work, counted the same under wasm (the count is deterministic), takes minutes under Node")
	}
	s := crashLoop(t)
	start, before := s.C.Now(), s.Work()
	end := s.Command()
	r := s.Begin(1000 * time.Hour)
	for !r.Next() {
	}
	passed, spent := s.C.Now().Sub(start), s.Work()-before
	assert.Greater(t, passed, 10*time.Hour)
	assert.Less(t, passed, 1000*time.Hour)
	assert.GreaterOrEqual(t, spent, int64(sim.Budget))
	assert.Less(t, spent, int64(sim.Budget)*101/100, "one stop's settling is far less than 1% of the budget")
	assert.Equal(t, "sim advance stopped after "+passed.String()+" of 1000h0m0s: one command may do at most 2,000,000 units of work; the cluster stays as it stands, so run it again to go on", r.Stopped("sim advance"))
	writes := s.C.Writes()
	s.Settle()
	assert.Equal(t, writes, s.C.Writes(), "the cluster is settled where the run stopped")
	assert.True(t, s.Spent())
	assert.False(t, s.Wait(s.C.Now().Add(time.Hour)), "no more time passes in this command")
	assert.Equal(t, writes, s.C.Writes())
	end()
	assert.False(t, s.Spent())
	assert.True(t, s.Wait(s.C.Now().Add(time.Hour)), "the next command goes on")
}

// TestARunThatReachesItsEndIsNotStopped: an advance well within the budget goes all the way and
// says nothing.
func TestARunThatReachesItsEndIsNotStopped(t *testing.T) {
	s := crashLoop(t)
	start := s.C.Now()
	end := s.Command()
	r := s.Begin(time.Hour)
	for !r.Next() {
	}
	end()
	assert.Equal(t, time.Hour, s.C.Now().Sub(start))
	assert.Empty(t, r.Stopped("sim advance"))
}

// TestWorkIsCountedTheSameWhateverWasSkipped: the same commands count the same work from the
// same state whether the controllers' last passes are remembered (and skipped) or not (a
// restored cluster runs every pass again, where the other skips those a label does not concern),
// and whether a run is taken whole or in pieces with
// the cluster read in between, so that a session replayed stops where it stopped live.
func TestWorkIsCountedTheSameWhateverWasSkipped(t *testing.T) {
	work := func(s *sim.Sim, step func(*sim.Sim)) (int64, string) {
		before := s.Work()
		step(s)
		return s.Work() - before, state(s)
	}
	advance := func(s *sim.Sim) {
		shell.Run(s, "kubectl label node hd2 disk=ssd", "") // settles at the same instant
		s.Advance(20 * time.Minute)
	}
	inPieces := func(s *sim.Sim) {
		shell.Run(s, "kubectl label node hd2 disk=ssd", "")
		for r := s.Begin(20 * time.Minute); !r.Next(); {
			state(s)
		}
	}
	wantWork, want := work(crashLoop(t), advance)
	restored := crashLoop(t)
	restored.C.Restore(restored.C.Snapshot())
	for name, got := range map[string]func() (int64, string){
		"restored":  func() (int64, string) { return work(restored, advance) },
		"in pieces": func() (int64, string) { return work(crashLoop(t), inPieces) },
	} {
		gotWork, gotState := got()
		assert.Equal(t, wantWork, gotWork, name)
		assert.Equal(t, want, gotState, name)
	}
}

// BenchmarkWorkRate reports how much work (sim.Sim.Work) a millisecond does natively, over a
// crash loop and over DaemonSets on many nodes (`make bench`; the budget's comment quotes it).
func BenchmarkWorkRate(b *testing.B) {
	cases := []struct {
		name  string
		start func(testing.TB) *sim.Sim
		step  func(*sim.Sim)
	}{
		{"crash loop 100h", crashLoop, func(s *sim.Sim) { s.Advance(100 * time.Hour) }},
		{"converge 1000 nodes", func(t testing.TB) *sim.Sim { return nodesCluster(t, 1000) }, func(s *sim.Sim) {
			shell.Run(s, "kubectl apply -f -", agentDaemonSet)
			s.Advance(time.Minute)
		}},
		{"rollout 1000 nodes", func(t testing.TB) *sim.Sim {
			s := nodesCluster(t, 1000)
			shell.Run(s, "kubectl apply -f -", agentDaemonSet)
			s.Advance(time.Minute)
			return s
		}, func(s *sim.Sim) {
			shell.Run(s, "kubectl set image ds/agent c=busybox:1.37", "")
			s.Advance(10 * time.Minute)
		}},
	}
	for _, c := range cases {
		b.Run(strings.ReplaceAll(c.name, " ", "-"), func(b *testing.B) {
			s := c.start(b)
			snap := s.C.Snapshot()
			var work int64
			for b.Loop() {
				s.C.Restore(snap)
				before := s.Work()
				c.step(s)
				work += s.Work() - before
			}
			b.ReportMetric(float64(work)/float64(b.Elapsed().Milliseconds()+1), "units/ms")
			b.ReportMetric(float64(sim.Budget)/(float64(work)/b.Elapsed().Seconds()), "s/budget")
		})
	}
}
