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
// it tolerates), hd2 and hd3, and the web Deployment's two pods on the workers, one each (the
// scheduler spreads them; neither tolerates the control-plane taint).
func TestStartStateRunsOneFluentdPodPerNode(t *testing.T) {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	r := kubectl.ApplyAll(s, []byte(Start), "STDIN", "default")
	require.Empty(t, r.Err)
	s.Advance(30 * time.Second)
	byNode := map[string][]string{}
	for _, p := range s.C.Pods() {
		assert.Equal(t, api.PodRunning, p.Status.Phase)
		byNode[p.Spec.NodeName] = append(byNode[p.Spec.NodeName], p.Namespace)
	}
	assert.Equal(t, map[string][]string{"hd1": {"kube-system"}, "hd2": {"default", "kube-system"}, "hd3": {"default", "kube-system"}}, byNode)
}
