package sim_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/shell"
)

// convergeCost is what applying the agent DaemonSet and running a minute on n nodes allocates:
// objects and bytes, the work of every controller, the scheduler and the kubelets made
// countable. Unlike time it does not vary from run to run or machine to machine.
func convergeCost(t *testing.T, n int) (objects, bytes uint64) {
	s := nodesCluster(t, n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	require.Zero(t, shell.Run(s, "kubectl apply -f -", agentDaemonSet).Code)
	s.Advance(time.Minute)
	runtime.ReadMemStats(&after)
	requireReady(t, s, n)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}

// TestConvergingScalesLinearly holds the performance budget "converging 5,000 nodes costs at
// most 12× converging 500" on the work done, counted as allocations: a path that is
// O(nodes × pods) in reconcile, scheduling or status (a verdict per node for every daemon pod,
// every node re-read for every burst of 250 creates) makes 10× the nodes cost 100×, not 10×.
// `make bench` reports the times.
func TestConvergingScalesLinearly(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("a property of the algorithms, measured natively; 5,000 nodes under Node take minutes")
	}
	smallObjects, smallBytes := convergeCost(t, 500)
	largeObjects, largeBytes := convergeCost(t, 5000)
	t.Logf("5,000 nodes against 500: %.1fx the allocations, %.1fx the bytes", float64(largeObjects)/float64(smallObjects), float64(largeBytes)/float64(smallBytes))
	assert.LessOrEqual(t, float64(largeObjects)/float64(smallObjects), 12.0, "allocations: %d at 500 nodes, %d at 5,000", smallObjects, largeObjects)
	assert.LessOrEqual(t, float64(largeBytes)/float64(smallBytes), 12.0, "bytes: %d at 500 nodes, %d at 5,000", smallBytes, largeBytes)
}
