package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// podWith is a Pod manifest labelled app=web whose spec adds the given YAML to one container.
func podWith(spec string) string {
	return "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default, labels: {app: web}}\nspec:\n  containers: [{name: c, image: nginx}]\n" + indent(spec)
}

// TestValidateTopologySpreadConstraints pins validateTopologySpreadConstraints
// (pkg/apis/core/validation/validation.go; the cases of TestValidateTopologySpreadConstraints in
// validation_test.go) with a new pod's options in v1.37, as the API server renders the errors.
func TestValidateTopologySpreadConstraints(t *testing.T) {
	const p = "spec.topologySpreadConstraints[0]"
	cases := []struct {
		name string
		tscs string
		want []string
	}{
		{"all required fields", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]", nil},
		{"missing maxSkew", "topologySpreadConstraints: [{topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]",
			[]string{p + ".maxSkew: Invalid value: 0: must be greater than zero"}},
		{"negative maxSkew", "topologySpreadConstraints: [{maxSkew: -1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]",
			[]string{p + ".maxSkew: Invalid value: -1: must be greater than zero"}},
		{"negative minDomains", "topologySpreadConstraints: [{maxSkew: 1, minDomains: -1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]",
			[]string{p + ".minDomains: Invalid value: -1: must be greater than zero"}},
		{"minDomains with ScheduleAnyway", "topologySpreadConstraints: [{maxSkew: 1, minDomains: 3, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]",
			[]string{p + ".minDomains: Invalid value: 3: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"}},
		{"negative minDomains with ScheduleAnyway", "topologySpreadConstraints: [{maxSkew: 1, minDomains: -1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]",
			[]string{p + ".minDomains: Invalid value: -1: must be greater than zero",
				p + ".minDomains: Invalid value: -1: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"}},
		{"missing topologyKey", "topologySpreadConstraints: [{maxSkew: 1, whenUnsatisfiable: DoNotSchedule}]",
			[]string{p + ".topologyKey: Required value: can not be empty"}},
		{"missing whenUnsatisfiable", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone}]",
			[]string{p + `.whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway"`}},
		{"unsupported whenUnsatisfiable", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: N/A}]",
			[]string{p + `.whenUnsatisfiable: Unsupported value: "N/A": supported values: "DoNotSchedule", "ScheduleAnyway"`}},
		{"duplicate key and action", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]",
			[]string{p + `.{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"`}},
		{"one key with both actions", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]", nil},
		{"the node inclusion policies", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: Ignore, nodeTaintsPolicy: Honor}]", nil},
		{"unsupported nodeAffinityPolicy", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: Always}]",
			[]string{p + `.nodeAffinityPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"`}},
		{"unsupported nodeTaintsPolicy", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, nodeTaintsPolicy: Always}]",
			[]string{p + `.nodeTaintsPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"`}},
		{"a matchLabelKey that is no label name", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {}, matchLabelKeys: [\"/simple\"]}]",
			[]string{p + `.matchLabelKeys[0]: Invalid value: "/simple": prefix part must be non-empty`}},
		{"a matchLabelKey twice in the (merged) selector", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [foo], " +
			"labelSelector: {matchLabels: {foo: value1}, matchExpressions: [{key: foo, operator: In, values: [value1]}]}}]",
			[]string{p + `[0]: Invalid value: "foo": exists in both matchLabelKeys and labelSelector`}},
		{"a matchLabelKey the selector names once", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [foo], labelSelector: {matchLabels: {foo: value1}}}]", nil},
		{"matchLabelKeys without a labelSelector", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [foo]}]",
			[]string{p + ".matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"}},
		{"an invalid labelSelector", "topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{key: foo, operator: Has}]}}]",
			[]string{p + `.labelSelector.matchExpressions[0].operator: Invalid value: "Has": not a valid selector operator`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range decodeValidate(t, podWith(tc.tscs)) {
				got = append(got, e.Error())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestWithLabelKeysMergesThePodsLabelValues pins applyLabelKeysToLabelSelector
// (pkg/registry/core/pod/strategy.go): each key the pod has a label of becomes "key op (value)"
// after the selector's own expressions; a key it lacks adds nothing; a nil selector stays nil;
// the selector given is left as it was.
func TestWithLabelKeysMergesThePodsLabelValues(t *testing.T) {
	ls := &LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []LabelSelectorRequirement{{Key: "tier", Operator: LabelSelectorOpExists}}}
	got := WithLabelKeys(ls, []string{"pod-template-hash", "missing"}, LabelSelectorOpIn, map[string]string{"app": "web", "pod-template-hash": "abc"})
	assert.Equal(t, &LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []LabelSelectorRequirement{
		{Key: "tier", Operator: LabelSelectorOpExists},
		{Key: "pod-template-hash", Operator: LabelSelectorOpIn, Values: []string{"abc"}},
	}}, got)
	assert.Len(t, ls.MatchExpressions, 1, "the given selector is left as it was")
	assert.Nil(t, WithLabelKeys(nil, []string{"app"}, LabelSelectorOpIn, map[string]string{"app": "web"}))
	assert.Same(t, ls, WithLabelKeys(ls, nil, LabelSelectorOpIn, nil))
}
