package shell

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/apiserver"
	"daemonlab/core/sim"
)

// TestTheClusterHoldsAtMostMaxNodes: the simulated cluster stops at apiserver.MaxNodes (5,000,
// Kubernetes' documented scalability envelope, "Considerations for large clusters"): a node
// past it, joined with `sim add-node` or applied as a Node, is Forbidden with the bound in the
// message, and the cluster is exactly as it was.
func TestTheClusterHoldsAtMostMaxNodes(t *testing.T) {
	s, err := sim.New(1, sim.Empty)
	require.NoError(t, err)
	var m strings.Builder
	for i := range apiserver.MaxNodes - 1 {
		fmt.Fprintf(&m, "apiVersion: v1\nkind: Node\nmetadata: {name: node-%04d}\n---\n", i)
	}
	require.Zero(t, Run(s, "kubectl apply -f -", m.String()).Code)
	require.Zero(t, Run(s, "sim add-node last", "").Code, "the 5,000th node joins")
	require.Equal(t, apiserver.MaxNodes, s.C.Count("Node"))
	for _, c := range []struct{ run, stdin, want string }{
		{"sim add-node one-too-many", "", `Error from server (Forbidden): nodes "one-too-many" is forbidden: DaemonLab's cluster holds at most 5000 nodes`},
		{"kubectl apply -f -", "apiVersion: v1\nkind: Node\nmetadata: {name: one-too-many}\n", `nodes "one-too-many" is forbidden: DaemonLab's cluster holds at most 5000 nodes`},
	} {
		t.Run(c.run, func(t *testing.T) {
			writes := s.C.Writes()
			r := Run(s, c.run, c.stdin)
			assert.Equal(t, 1, r.Code)
			assert.Contains(t, r.Err, c.want)
			assert.Equal(t, writes, s.C.Writes(), "the cluster changed")
			assert.Nil(t, s.C.Node("one-too-many"))
		})
	}
}
