package lessons

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
)

// TestStartStateRunsOneFluentdPodPerNode: the playground's start manifest, applied to the default
// cluster, runs exactly one Running fluentd pod on each of hd1 (the control plane, whose taint
// it tolerates), hd2 and hd3.
func TestStartStateRunsOneFluentdPodPerNode(t *testing.T) {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	r := kubectl.ApplyAll(s, []byte(Start), "STDIN", "default")
	require.Empty(t, r.Err)
	s.Advance(30 * time.Second)
	byNode := map[string]int{}
	for _, p := range s.C.Pods() {
		assert.Equal(t, "kube-system", p.Namespace)
		assert.Equal(t, api.PodRunning, p.Status.Phase)
		byNode[p.Spec.NodeName]++
	}
	assert.Equal(t, map[string]int{"hd1": 1, "hd2": 1, "hd3": 1}, byNode)
}
