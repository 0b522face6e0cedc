package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// TestCreateMergesPodAffinityLabelKeys pins mutatePodAffinity and
// applyMatchLabelKeysAndMismatchLabelKeys (pkg/registry/core/pod/strategy.go, PrepareForCreate;
// MatchLabelKeysInPodAffinity is GA and on in v1.37): a key of matchLabelKeys the pod has a
// label for becomes `key In (value)`, one of mismatchLabelKeys `key NotIn (value)`, appended to
// the labelSelector's matchExpressions; a key the pod lacks adds nothing, a term without a
// labelSelector is left alone, and the keys stay in the spec. The manifest's affinity is not
// changed.
func TestCreateMergesPodAffinityLabelKeys(t *testing.T) {
	c := cluster.New(1)
	namespace(c, t)
	keyed := api.PodAffinityTerm{TopologyKey: "zone", LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		MatchLabelKeys: []string{"rev", "missing"}, MismatchLabelKeys: []string{"tenant"}}
	unselected := api.PodAffinityTerm{TopologyKey: "zone"}
	affinity := &api.Affinity{
		PodAffinity:     &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: keyed}}},
		PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{keyed, unselected}},
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: map[string]string{"app": "web", "rev": "v2", "tenant": "a"}},
		Spec: api.PodSpec{Affinity: affinity, Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	_, err := Create(c, pod, Options{})
	require.NoError(t, err)
	got := c.Get("Pod", cluster.Key{Namespace: "default", Name: "web-1"}).(*api.Pod).Spec.Affinity

	merged := []api.LabelSelectorRequirement{
		{Key: "rev", Operator: api.LabelSelectorOpIn, Values: []string{"v2"}},
		{Key: "tenant", Operator: api.LabelSelectorOpNotIn, Values: []string{"a"}},
	}
	preferred := got.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm
	assert.Equal(t, merged, preferred.LabelSelector.MatchExpressions)
	assert.Equal(t, map[string]string{"app": "web"}, preferred.LabelSelector.MatchLabels)
	assert.Equal(t, []string{"rev", "missing"}, preferred.MatchLabelKeys, "the keys stay")
	required := got.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	assert.Equal(t, merged, required[0].LabelSelector.MatchExpressions)
	assert.Nil(t, required[1].LabelSelector, "a term without a selector selects nothing, merged or not")
	assert.Empty(t, keyed.LabelSelector.MatchExpressions, "the manifest's affinity is left as it was")
}

// TestCreateRefusesALabelKeyAlsoInTheSelector: the merge comes before validation, so a key the
// pod has a label for, listed in matchLabelKeys and in the labelSelector, is refused
// (ValidateMatchLabelKeysAndMismatchLabelKeys), at upstream's path; without the label nothing
// is merged and the pod is valid.
func TestCreateRefusesALabelKeyAlsoInTheSelector(t *testing.T) {
	for _, tc := range []struct {
		name    string
		labels  map[string]string
		wantErr string
	}{
		{"the pod has the label", map[string]string{"app": "web"},
			`Pod "web" is invalid: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`},
		{"the pod lacks it", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster.New(1)
			namespace(c, t)
			term := api.PodAffinityTerm{TopologyKey: "zone", LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, MatchLabelKeys: []string{"app"}}
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", Labels: tc.labels},
				Spec: api.PodSpec{Affinity: &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term}}},
					Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
			_, err := Create(c, pod, Options{})
			if tc.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tc.wantErr, err.Error())
		})
	}
}
