package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/sim"
)

// The page keeps a step in its history only when the command changed the cluster
// (cluster.Writes): reads must leave the count alone, and everything that changes what a later
// command sees — objects, faults, the clock, the random source — must move it.
func TestWritesMoveOnlyWhenACommandChangesTheCluster(t *testing.T) {
	for _, tc := range []struct {
		line    string
		changes bool
	}{
		{"kubectl get pods -A -o wide", false},
		{"kubectl describe node hd2", false},
		{"kubectl get nodes -o yaml | grep name", false},
		{"kubectl explain ds.spec", false},
		{"kubectl get pod nope", false},
		{"kubectl rollout history ds/nope", false},
		{"sim fail hd2 kubelet-down", true},
		{"sim advance 1s", true},
		{"kubectl label node hd2 disk=ssd", true},
		{"kubectl create deployment web --image=nginx --dry-run=server -o name", false},
		{"kubectl create deployment web --image=nginx", true},
	} {
		t.Run(tc.line, func(t *testing.T) {
			s, err := sim.New(1, sim.Default)
			require.NoError(t, err)
			before := s.C.Writes()
			Run(s, tc.line, "")
			assert.Equal(t, tc.changes, s.C.Writes() != before)
		})
	}
}
