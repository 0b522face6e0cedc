package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// largeModel is the start state with n nodes in all, the DaemonSet on every one.
func largeModel(b *testing.B, n int) Model {
	m, err := NewModel()
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
