package playground

import (
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"

	"daemonlab/core/sim"
)

// largeModel is the start state with n nodes in all, the DaemonSet on every one.
func largeModel(b *testing.B, n int) Model {
	m, err := NewModel(lib)
	require.NoError(b, err)
	for i := 4; i <= n; i++ {
		m = Update(m, RunMsg{fmt.Sprintf("sim add-node hd%d", i)})
	}
	m = Update(m, RunMsg{"sim advance 30s"})
	return m
}

// BenchmarkRender measures one render of the page's view (the compact grid past 48 nodes).
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{3, 100, 400} {
		m := largeModel(b, n)
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			for b.Loop() {
				Render(m)
			}
		})
	}
}

// BenchmarkStep measures steps of the page on a 1,000-node cluster: a command, the controllers
// to quiescence and the render, a hundred per run, so that the garbage collector's work counts
// (the budget: a 16 ms frame, in WebAssembly), with the page's garbage collector target. A
// hundred steps before them are not measured: the page has been used (its first render parses
// the lessons, the engine compiles code when it first runs).
func BenchmarkStep(b *testing.B) {
	const steps = 100
	defer debug.SetGCPercent(debug.SetGCPercent(sim.GCPercent))
	m := largeModel(b, 1000)
	i := 0
	step := func() {
		i++
		m = Update(m, RunMsg{fmt.Sprintf("kubectl label node hd500 step=%d --overwrite", i)})
		Render(m)
	}
	for range steps {
		step()
	}
	for b.Loop() {
		for range steps {
			step()
		}
	}
	b.ReportMetric(float64(b.Elapsed())/1e6/float64(b.N*steps), "ms/step")
	require.Contains(b, m.Terminal.Lines[len(m.Terminal.Lines)-1].Text, "labeled")
}
