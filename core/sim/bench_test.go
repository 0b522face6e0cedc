package sim_test

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"daemonlab/core/cluster"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// The benchmarks of `make bench`: the steps a large cluster must take in a browser tab.

// nodesCluster is an empty cluster with n Ready nodes, joined in one apply.
func nodesCluster(b testing.TB, n int) *sim.Sim {
	s, err := sim.New(1, sim.Empty)
	require.NoError(b, err)
	var m strings.Builder
	for i := range n {
		fmt.Fprintf(&m, "apiVersion: v1\nkind: Node\nmetadata: {name: node-%04d}\n---\n", i)
	}
	require.Zero(b, shell.Run(s, "kubectl apply -f -", m.String()).Code)
	return s
}

// addNodes joins n nodes one `sim add-node` at a time, as a script typed into the shell does.
func addNodes(b testing.TB, s *sim.Sim, n int) {
	for i := range n {
		r := shell.Run(s, fmt.Sprintf("sim add-node n%d", i), "")
		require.Zero(b, r.Code, r.Err)
	}
}

// podsManifest is n pods of one container each, as one stream of documents (10,000 of them
// just under the 1 MiB a manifest may be).
func podsManifest(n int) string {
	var m strings.Builder
	for i := range n {
		fmt.Fprintf(&m, "apiVersion: v1\nkind: Pod\nmetadata: {name: p%05d}\nspec:\n  containers: [{name: c, image: nginx}]\n---\n", i)
	}
	return m.String()
}

const agentDaemonSet = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  updateStrategy: {rollingUpdate: {maxUnavailable: 10%}}\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: busybox:1.36, resources: {requests: {cpu: 10m, memory: 20Mi}}}]\n"

// converged is n nodes with the agent DaemonSet Ready on every one, and its snapshot.
func converged(b *testing.B, n int) (*sim.Sim, cluster.Snapshot) {
	s := nodesCluster(b, n)
	require.Zero(b, shell.Run(s, "kubectl apply -f -", agentDaemonSet).Code)
	s.Advance(time.Minute)
	requireReady(b, s, n)
	return s, s.C.Snapshot()
}

func requireReady(b testing.TB, s *sim.Sim, n int) {
	b.Helper()
	out := shell.Run(s, "kubectl get ds agent -o jsonpath={.status.numberReady}/{.status.updatedNumberScheduled}", "").Out
	require.Equal(b, fmt.Sprintf("%d/%d", n, n), out)
}

// BenchmarkConvergeDaemonSet: apply a DaemonSet and run until every node's pod is Ready.
func BenchmarkConvergeDaemonSet(b *testing.B) {
	for _, n := range []int{100, 500, 1000, 5000} {
		s := nodesCluster(b, n)
		start := s.C.Snapshot()
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			for b.Loop() {
				s.C.Restore(start)
				shell.Run(s, "kubectl apply -f -", agentDaemonSet)
				s.Advance(time.Minute)
			}
			requireReady(b, s, n)
		})
	}
}

// benchFromConverged measures step on n nodes running the agent, each run from that start, and
// checks what it left.
func benchFromConverged(b *testing.B, n int, step, check func(*sim.Sim)) {
	s, start := converged(b, n)
	b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
		for b.Loop() {
			s.C.Restore(start)
			step(s)
		}
		check(s)
	})
}

// BenchmarkRollingUpdate: a new image rolled out with maxUnavailable 10% to the last node.
func BenchmarkRollingUpdate(b *testing.B) {
	benchFromConverged(b, 5000, func(s *sim.Sim) {
		shell.Run(s, "kubectl set image ds/agent c=busybox:1.37", "")
		for s.Step() {
		}
	}, func(s *sim.Sim) { requireReady(b, s, 5000) })
}

// BenchmarkKubeletFailure: one node of 5,000 stops its kubelet; time runs until its pods' fate
// is settled (the unreachable taints, the 300s tolerations run out).
func BenchmarkKubeletFailure(b *testing.B) {
	benchFromConverged(b, 5000, func(s *sim.Sim) {
		shell.Run(s, "sim fail node-2500 kubelet-down", "")
		s.Advance(7 * time.Minute)
	}, func(s *sim.Sim) {
		require.Contains(b, shell.Run(s, "kubectl get node node-2500", "").Out, "NotReady")
	})
}

// BenchmarkSnapshotRestore: the snapshot the page takes after every step, and a restore.
func BenchmarkSnapshotRestore(b *testing.B) {
	const n = 5000
	s, _ := converged(b, n)
	b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
		for b.Loop() {
			s.C.Restore(s.C.Snapshot())
		}
	})
}

// BenchmarkGetPodsAll: kubectl get pods -A, printed.
func BenchmarkGetPodsAll(b *testing.B) {
	const n = 5000
	s, _ := converged(b, n)
	b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
		for b.Loop() {
			shell.Run(s, "kubectl get pods -A", "")
		}
	})
}

// webDeployment is a Deployment of n small pods (cpu 10m, memory 20Mi: 5,000 nodes hold 10,000).
func webDeployment(n int) string {
	return fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: %d\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: nginx:1.27, resources: {requests: {cpu: 10m, memory: 20Mi}}}]\n", n)
}

// BenchmarkMemory: the heap a 5,000-node cluster with the agent DaemonSet and a 10,000-pod
// Deployment holds once everything runs (MB-heap: live objects after a collection; MB-sys: what
// the Go runtime took from the system, which in a tab is the WebAssembly memory), with the
// page's garbage collector target.
func BenchmarkMemory(b *testing.B) {
	const n, replicas = 5000, 10000
	defer debug.SetGCPercent(debug.SetGCPercent(sim.GCPercent))
	for b.Loop() {
		s, _ := converged(b, n)
		require.Zero(b, shell.Run(s, "kubectl apply -f -", webDeployment(replicas)).Code)
		s.Advance(2 * time.Minute)
		out := shell.Run(s, "kubectl get deploy web -o jsonpath={.status.availableReplicas}", "").Out
		require.Equal(b, fmt.Sprint(replicas), out)
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(m.HeapAlloc)/(1<<20), "MB-heap")
		b.ReportMetric(float64(m.Sys)/(1<<20), "MB-sys")
		runtime.KeepAlive(s)
	}
}

// BenchmarkAddNodes: n nodes joining one `sim add-node` at a time (a script piped into the
// shell), with the joins per second.
func BenchmarkAddNodes(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			for b.Loop() {
				s, err := sim.New(1, sim.Empty)
				require.NoError(b, err)
				addNodes(b, s, n)
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkApplyPods: one `kubectl apply -f -` of 10,000 pods on the default cluster (most of
// them left Pending).
func BenchmarkApplyPods(b *testing.B) {
	const n = 10000
	manifest := podsManifest(n)
	b.Run(fmt.Sprintf("pods=%d", n), func(b *testing.B) {
		for b.Loop() {
			s, err := sim.New(1, sim.Default)
			require.NoError(b, err)
			require.Zero(b, shell.Run(s, "kubectl apply -f -", manifest).Code)
		}
	})
}
