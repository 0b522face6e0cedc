package playground

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/internal/measure"
)

// stepCost is what a step of the page allocates on n nodes running a DaemonSet: a command, the
// controllers to quiescence and the view, measured over twenty steps after ten. Allocations
// are the work made countable: unlike time they do not vary from run to run or machine to
// machine, and the garbage collector's share of a step (which runs on the page's thread) grows
// with them.
func stepCost(t *testing.T, n int) (bytesPerStep uint64) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	var manifest strings.Builder
	for i := range n {
		fmt.Fprintf(&manifest, "apiVersion: v1\nkind: Node\nmetadata: {name: node-%04d}\n---\n", i)
	}
	manifest.WriteString("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: busybox:1.36}]\n")
	m = Update(m, ApplyMsg{Text: manifest.String()})
	require.Empty(t, m.Result.Err)
	m = Update(m, RunMsg{"sim advance 30s"})
	i := 0
	step := func() {
		i++
		m = Update(m, RunMsg{fmt.Sprintf("kubectl label node node-0050 step=%d --overwrite", i)})
		Render(m)
	}
	for range 10 {
		step()
	}
	_, bytes := measure.Allocations(func() {
		for range 20 {
			step()
		}
	})
	require.Contains(t, m.Terminal.Lines[len(m.Terminal.Lines)-1].Text, "labeled")
	return bytes / 20
}

// TestAPageStepScalesLinearly holds the budget "a step of a 1,000-node cluster fits a 16 ms
// frame" where a test can (BenchmarkPageStep1000 measures the time in the browser): what a
// step allocates grows no faster than the cluster (1,000 nodes against 100: at most 12×), and
// stays under 1.5 MB at 1,000 nodes (1.0 MB when the budget was met).
func TestAPageStepScalesLinearly(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("a property of the algorithms, measured natively")
	}
	small, large := stepCost(t, 100), stepCost(t, 1000)
	t.Logf("a step allocates %d bytes at 100 nodes, %d at 1,000 (%.1fx)", small, large, float64(large)/float64(small))
	assert.LessOrEqual(t, float64(large)/float64(small), 12.0)
	assert.LessOrEqual(t, large, uint64(1_500_000))
}
