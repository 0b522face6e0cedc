package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeLenientKeepsWhatItModelsAndSaysWhatItSkips pins DecodeLenient's rules: a real
// cluster's List of any kinds is flattened as kubectl's FlattenListVisitor flattens it; a kind
// not served is found by its apiVersion and kind; a served one decodes, its unknown fields
// skipped and named once by path with [] for list indices; a value of the wrong type is the
// object's error (the API server's "cannot be handled as").
func TestDecodeLenientKeepsWhatItModelsAndSaysWhatItSkips(t *testing.T) {
	found, err := DecodeLenient([]byte(`apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: kube-root-ca.crt}
- apiVersion: v1
  kind: Pod
  metadata: {name: p}
  spec:
    containers:
    - {name: a, image: x, resizePolicy: [{resourceName: cpu}]}
    - {name: b, image: x, resizePolicy: [], futureField: 1}
- apiVersion: v1
  kind: PodList
  items:
  - apiVersion: v1
    kind: Pod
    metadata: {name: nested}
    spec: {containers: [{name: c, image: x}]}
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: d}
  spec: {minReadySeconds: soon}
`))
	require.NoError(t, err)
	require.Len(t, found, 4)
	assert.Equal(t, "ConfigMap", found[0].Kind)
	assert.Nil(t, found[0].Manifest.Object, "not served")
	assert.Equal(t, "p", found[1].Manifest.Object.GetObjectMeta().Name)
	assert.Equal(t, []string{"spec.containers[].resizePolicy", "spec.containers[].futureField"}, found[1].Skipped)
	assert.Equal(t, "DaemonSet", found[2].Kind)
	var de *DecodeError
	require.ErrorAs(t, found[2].Err, &de)
	assert.Contains(t, de.Error(), `cannot be handled as a DaemonSet: json: cannot unmarshal string`)
	assert.Equal(t, "nested", found[3].Manifest.Object.GetObjectMeta().Name, "a nested list's items come after the list's own")

	for in, want := range map[string]string{
		"apiVersion: v1\nitems:\n- {metadata: {name: x}}\n": "Object 'Kind' is missing",
		"- 1\n- 2\n":                               "cannot unmarshal array",
		"apiVersion: v1\nkind: List\nitems: 3\n":   "items is not a list of objects",
		"apiVersion: v1\nkind: List\nitems: [3]\n": "cannot unmarshal number",
	} {
		_, err := DecodeLenient([]byte(in))
		assert.ErrorContains(t, err, want, in)
	}
}

// FuzzDecodeLenient: no input makes DecodeLenient panic; every object it returns has a kind
// and an apiVersion, and a decoded one is of the kind it names.
func FuzzDecodeLenient(f *testing.F) {
	f.Add("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n}, status: {images: [{names: [x]}]}}\n- {apiVersion: v1, kind: ConfigMap}\n")
	f.Add(billionLaughs())
	f.Add(dsWith(validTemplate))
	f.Add("apiVersion: v1\nkind: PodList\nitems: [{items: [{apiVersion: v1, kind: Pod}]}, null]\n")
	f.Fuzz(func(t *testing.T, in string) {
		found, err := DecodeLenient([]byte(in))
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		for _, fd := range found {
			assert.NotEmpty(t, fd.Kind)
			assert.NotEmpty(t, fd.APIVersion)
			if fd.Manifest.Object != nil {
				assert.Equal(t, fd.Kind, fd.Manifest.Kind.Kind)
			}
		}
	})
}
