package sim_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// nodesCluster is an empty cluster with n Ready nodes, joined in one apply.
func nodesCluster(b *testing.B, n int) *sim.Sim {
	s, err := sim.New(1, sim.Empty)
	require.NoError(b, err)
	var m strings.Builder
	for i := range n {
		fmt.Fprintf(&m, "apiVersion: v1\nkind: Node\nmetadata: {name: node-%04d}\n---\n", i)
	}
	require.Zero(b, shell.Run(s, "kubectl apply -f -", m.String()).Code)
	return s
}

const agentDaemonSet = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: busybox:1.36, resources: {requests: {cpu: 10m, memory: 20Mi}}}]\n"

// BenchmarkConvergeDaemonSet: apply a DaemonSet and run until every node's pod is Ready.
func BenchmarkConvergeDaemonSet(b *testing.B) {
	for _, n := range []int{100, 1000, 5000} {
		s := nodesCluster(b, n)
		start := s.C.Snapshot()
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			for b.Loop() {
				s.C.Restore(start)
				shell.Run(s, "kubectl apply -f -", agentDaemonSet)
				s.Advance(time.Minute)
			}
			out := shell.Run(s, "kubectl get ds agent -o jsonpath={.status.numberReady}", "").Out
			require.Equal(b, fmt.Sprint(n), out)
		})
	}
}
