package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPodAffinityValidation pins validatePodAffinity, validatePodAntiAffinity,
// validatePodAffinityTerm and ValidateMatchLabelKeysAndMismatchLabelKeys
// (pkg/apis/core/validation/validation.go), their messages and paths as the API server renders
// them (checked against upstream's ValidatePodSpec), including upstream's spellings: the
// namespaces at "namespace", and a key of matchLabelKeys also in the labelSelector at the
// term's path indexed by the key's place.
func TestPodAffinityValidation(t *testing.T) {
	const pod = `apiVersion: v1
kind: Pod
metadata: {name: x, namespace: default}
spec:
  containers: [{name: c, image: nginx}]
  affinity:
`
	const nameRules = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	const required = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
	cases := []struct {
		name     string
		affinity string
		want     []string
	}{
		{"valid terms", `podAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname, matchLabelKeys: [tier], mismatchLabelKeys: [team]}
  preferredDuringSchedulingIgnoredDuringExecution:
  - {weight: 100, podAffinityTerm: {labelSelector: {}, namespaceSelector: {}, topologyKey: zone}}
podAntiAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - {labelSelector: {matchExpressions: [{key: app, operator: NotIn, values: [db]}]}, namespaces: [kube-system], topologyKey: zone}
`, nil},
		{"a namespace that is no DNS label", `podAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - {labelSelector: {}, namespaces: [Bad_NS], topologyKey: zone}
`, []string{required + `.namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`}},
		{"a matchLabelKeys key that is no label key", `podAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - {labelSelector: {}, matchLabelKeys: [ok, Bad Key], topologyKey: zone}
`, []string{required + `.matchLabelKeys[1]: Invalid value: "Bad Key": ` + nameRules}},
		{"a matchLabelKeys key in the labelSelector too", `podAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - {labelSelector: {matchLabels: {app: web}, matchExpressions: [{key: app, operator: In, values: [web]}]}, matchLabelKeys: [app], topologyKey: zone}
`, []string{required + `[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`}},
		{"a key in matchLabelKeys and mismatchLabelKeys", `podAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - {labelSelector: {}, matchLabelKeys: [app], mismatchLabelKeys: [app], topologyKey: zone}
`, []string{required + `.matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and mismatchLabelKeys`}},
		{"label keys without a labelSelector", `podAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - {matchLabelKeys: [app], mismatchLabelKeys: [team], topologyKey: zone}
`, []string{required + ".matchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
			required + ".mismatchLabelKeys: Forbidden: must not be specified when labelSelector is not set"}},
		{"an empty topologyKey", `podAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - {labelSelector: {}}
`, []string{required + ".topologyKey: Required value: can not be empty",
			required + `.topologyKey: Invalid value: "": name part must be non-empty`,
			required + `.topologyKey: Invalid value: "": ` + nameRules}},
		{"a topologyKey that is no label key", `podAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - {labelSelector: {}, topologyKey: "bad key!"}
`, []string{required + `.topologyKey: Invalid value: "bad key!": ` + nameRules}},
		{"selectors checked as label selectors", `podAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - labelSelector: {matchExpressions: [{key: app, operator: Gt, values: ["1"]}]}
    namespaceSelector: {matchExpressions: [{key: team, operator: In}]}
    topologyKey: zone
`, []string{required + `.labelSelector.matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator`,
			required + ".namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"}},
		{"a preferred weight out of range", `podAffinity:
  preferredDuringSchedulingIgnoredDuringExecution:
  - {weight: 0, podAffinityTerm: {labelSelector: {}, topologyKey: zone}}
`, []string{"spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100"}},
		{"anti-affinity is checked the same", `podAntiAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
  - {labelSelector: {matchExpressions: [{key: app, operator: Exists, values: [x]}]}, topologyKey: zone}
  preferredDuringSchedulingIgnoredDuringExecution:
  - {weight: 101, podAffinityTerm: {labelSelector: {}, topologyKey: zone}}
`, []string{"spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
			"spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range decodeValidate(t, pod+indent(indent(tc.affinity))) {
				got = append(got, e.Error())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
