package sim_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/internal/measure"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// convergeCost is what applying the agent DaemonSet and running a minute on n nodes allocates:
// objects and bytes, the work of every controller, the scheduler and the kubelets made
// countable. Unlike time it does not vary from run to run or machine to machine.
func convergeCost(t *testing.T, n int) (objects, bytes uint64) {
	s := nodesCluster(t, n)
	objects, bytes = measure.Allocations(func() {
		require.Zero(t, shell.Run(s, "kubectl apply -f -", agentDaemonSet).Code)
		s.Advance(time.Minute)
	})
	requireReady(t, s, n)
	return objects, bytes
}

// assertLinear checks that 10× the work (n nodes, pods, …: 500 unless told) costs at most 12×
// the allocations.
func assertLinear(t *testing.T, what string, cost func(n int) (objects, bytes uint64), small ...int) {
	t.Helper()
	n := append(small, 500)[0]
	smallObjects, smallBytes := cost(n)
	largeObjects, largeBytes := cost(10 * n)
	t.Logf("%s, %d against %d: %.1fx the allocations, %.1fx the bytes", what, 10*n, n, float64(largeObjects)/float64(smallObjects), float64(largeBytes)/float64(smallBytes))
	assert.LessOrEqual(t, float64(largeObjects)/float64(smallObjects), 12.0, "%s, allocations: %d at %d, %d at %d", what, smallObjects, n, largeObjects, 10*n)
	assert.LessOrEqual(t, float64(largeBytes)/float64(smallBytes), 12.0, "%s, bytes: %d at %d, %d at %d", what, smallBytes, n, largeBytes, 10*n)
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
	assertLinear(t, "converging", func(n int) (uint64, uint64) { return convergeCost(t, n) })
}

// TestApplyingNodesScalesLinearly: a manifest of 5,000 nodes applies at most 12× the cost of
// 500. Each new node takes the smallest free pod CIDR; reading every node again for each one
// (kubelet.FreeIndex per node) made it 40× the allocations of 500 (545 MB for 5,000 nodes).
func TestApplyingNodesScalesLinearly(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("a property of the algorithms, measured natively")
	}
	assertLinear(t, "applying nodes", func(n int) (objects, bytes uint64) {
		var s *sim.Sim
		objects, bytes = measure.Allocations(func() { s = nodesCluster(t, n) })
		cidrs := strings.Fields(shell.Run(s, "kubectl get nodes -o jsonpath={.items[*].spec.podCIDR}", "").Out)
		require.Len(t, cidrs, n)
		assert.Equal(t, "10.244.0.0/24", cidrs[0])
		slices.Sort(cidrs)
		assert.Len(t, slices.Compact(cidrs), n, "each node its own pod CIDR")
		return objects, bytes
	})
}

// TestScalingPastThePodLimitIsBounded: `kubectl scale deploy web --replicas=1000000` fills the
// cluster to apiserver.MaxPods and no further, in bounded work: the ReplicaSet controller
// creates in bursts and, once the API server refuses, retries at the work queue's rate-limited
// pace (controller.Retries) — about 14 FailedCreate events in the first minute, not one per
// settling round — and preemption reads each node's own pods, so 20,000 pending pods cost
// linear work (k8s.io/kubernetes pkg/controller/replicaset/replica_set.go processNextWorkItem;
// pkg/scheduler/framework/plugins/defaultpreemption SelectVictimsOnNode).
func TestScalingPastThePodLimitIsBounded(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("20,000 pods: measured natively")
	}
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	var r shell.Result
	objects, bytes := measure.Allocations(func() {
		r = shell.Run(s, "kubectl create deployment big --image=nginx --replicas=1000000", "")
		s.Advance(time.Minute)
	})
	require.Zero(t, r.Code, r.Err)
	assert.Equal(t, "20000", shell.Run(s, "kubectl get rs -l app=big -o jsonpath={.items[0].status.replicas}", "").Out)
	events := shell.Run(s, "kubectl get events --field-selector reason=FailedCreate", "").Out
	failed := strings.Count(events, "FailedCreate")
	assert.Contains(t, events, "DaemonLab's cluster holds at most 20000 pods")
	assert.LessOrEqual(t, failed, 20, "failed creates are retried at the rate limiter's pace: %s", events)
	t.Logf("1,000,000 replicas and a minute: %d objects, %d MB allocated, %d FailedCreate events", objects, bytes>>20, failed)
	assert.Less(t, bytes, uint64(3<<30), "bytes allocated")
}

// TestAddingNodesScalesLinearly: 1,000 nodes joining one `sim add-node` at a time cost at most
// 12× 100 of them. Each join settles the cluster, whose controllers pass over every node; a join
// that allocated in proportion to the nodes already there (the free address and pod CIDR read
// off every node, the nodes copied into a slice per pass, the listing copied by the first write
// after every iteration) made 12,808 joins take 300 s.
func TestAddingNodesScalesLinearly(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("a property of the algorithms, measured natively")
	}
	assertLinear(t, "adding nodes one by one", func(n int) (objects, bytes uint64) {
		s, err := sim.New(1, sim.Empty)
		require.NoError(t, err)
		objects, bytes = measure.Allocations(func() { addNodes(t, s, n) })
		cidrs := strings.Fields(shell.Run(s, "kubectl get nodes -o jsonpath={.items[*].spec.podCIDR}", "").Out)
		require.Len(t, cidrs, n)
		slices.Sort(cidrs)
		assert.Len(t, slices.Compact(cidrs), n, "each node its own pod CIDR")
		return objects, bytes
	}, 100)
}

// TestApplyingManyPodsScalesLinearly: one apply of 10,000 pods on the default cluster's three
// nodes (most of them left Pending, each tried for preemption) costs at most 12× 1,000.
// Preemption read every pod for every candidate node of every unschedulable pod: 10,000 pods
// took 12.9 s and 478 MB.
func TestApplyingManyPodsScalesLinearly(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("a property of the algorithms, measured natively")
	}
	assertLinear(t, "applying pods", func(n int) (objects, bytes uint64) {
		s, err := sim.New(1, sim.Default)
		require.NoError(t, err)
		manifest := podsManifest(n)
		objects, bytes = measure.Allocations(func() {
			r := shell.Run(s, "kubectl apply -f -", manifest)
			require.Zero(t, r.Code, r.Err)
		})
		assert.Equal(t, n, s.C.Count("Pod"))
		return objects, bytes
	}, 1000)
}

// TestAPassAtOneInstantVisitsOnlyWhatChanged: at the instant of its last pass, a controller
// that decides node by node (registration, node IPAM, node lifecycle, taint eviction, the
// kubelets) visits only the nodes written since that pass began (cluster.ChangedNodes), and the
// node lifecycle controller's NoExecute pass only the nodes that want or have a NoExecute
// taint, as upstream's handlers are handed a new node rather than monitoring every node again
// (pkg/controller/nodelifecycle/node_lifecycle_controller.go: monitorNodeHealth runs every
// nodeMonitorPeriod). So 1,000 nodes joining one `sim add-node` at a time read at most 12× the
// objects and machines 100 do (cluster.Reads); every join reading every node made 3,000 joins
// take 7 s. CheckSkips is off here: its full passes read every node by design.
func TestAPassAtOneInstantVisitsOnlyWhatChanged(t *testing.T) {
	defer func(check bool) { sim.CheckSkips = check }(sim.CheckSkips)
	sim.CheckSkips = false
	reads := func(n int) int64 {
		s, err := sim.New(1, sim.Empty)
		require.NoError(t, err)
		before := s.C.Reads()
		addNodes(t, s, n)
		require.Equal(t, n, s.C.Count("Node"))
		return s.C.Reads() - before
	}
	small, large := reads(100), reads(1000)
	t.Logf("1,000 joins against 100: %.1fx the reads (%d, %d)", float64(large)/float64(small), small, large)
	assert.LessOrEqual(t, float64(large)/float64(small), 12.0, "reads: %d for 100 joins, %d for 1,000", small, large)
}
