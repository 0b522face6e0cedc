package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// TestPodCreateMergesMatchLabelKeysIntoTheSpreadSelector pins mutateTopologySpreadConstraints
// (pkg/registry/core/pod/strategy.go, PrepareForCreate; MatchLabelKeysInPodTopologySpread and
// its SelectorMerge are on in v1.37): each matchLabelKey the pod has a label of becomes
// "key In (value)" in the constraint's labelSelector, which keeps its matchLabelKeys; a key
// the selector already names is then refused, at the constraint's path indexed by the key.
func TestPodCreateMergesMatchLabelKeysIntoTheSpreadSelector(t *testing.T) {
	newPod := func(selector map[string]string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: map[string]string{"app": "web", "pod-template-hash": "abc"}},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}, TopologySpreadConstraints: []api.TopologySpreadConstraint{{
				MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: selector},
				MatchLabelKeys: []string{"pod-template-hash", "missing"}}}}}
	}
	c := cluster.New(1)
	namespace(c, t)
	stored, err := Create(c, newPod(map[string]string{"app": "web"}), Options{})
	require.NoError(t, err)
	tsc := stored.(*api.Pod).Spec.TopologySpreadConstraints[0]
	assert.Equal(t, &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []api.LabelSelectorRequirement{
		{Key: "pod-template-hash", Operator: api.LabelSelectorOpIn, Values: []string{"abc"}}}}, tsc.LabelSelector)
	assert.Equal(t, []string{"pod-template-hash", "missing"}, tsc.MatchLabelKeys)

	_, err = Create(c, newPod(map[string]string{"pod-template-hash": "abc"}), Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `spec.topologySpreadConstraints[0][0]: Invalid value: "pod-template-hash": exists in both matchLabelKeys and labelSelector`)
}
