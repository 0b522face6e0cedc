package explain

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

func kind(t *testing.T, name string) api.Kind {
	i := slices.IndexFunc(api.Kinds, func(k api.Kind) bool { return k.Kind == name })
	require.GreaterOrEqual(t, i, 0)
	return api.Kinds[i]
}

// TestFieldsFollowReferencesArraysAndMaps pins the field names completion offers at a path:
// through references (spec → DaemonSetSpec), arrays (tolerations) and allOf wrappers.
func TestFieldsFollowReferencesArraysAndMaps(t *testing.T) {
	ds := kind(t, "DaemonSet")
	assert.Equal(t, []string{"apiVersion", "kind", "metadata", "spec", "status"}, Fields(ds, nil))
	assert.Equal(t, []string{"rollingUpdate", "type"}, Fields(ds, []string{"spec", "updateStrategy"}))
	assert.Equal(t, []string{"effect", "key", "operator", "tolerationSeconds", "value"}, Fields(ds, []string{"spec", "template", "spec", "tolerations"}))
	assert.Nil(t, Fields(ds, []string{"spec", "nope"}))
	assert.Empty(t, Fields(ds, []string{"spec", "minReadySeconds"}), "a number has no fields")
}

// TestExplainFindsTheTutorialsField runs explain itself (also in WebAssembly, where the
// differential test against kubectl cannot run): the seed tutorial's path, and the error for a
// missing field.
func TestExplainFindsTheTutorialsField(t *testing.T) {
	out, err := Explain(kind(t, "DaemonSet"), []string{"spec", "updateStrategy", "rollingUpdate"}, Options{})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out, "GROUP:      apps\nKIND:       DaemonSet\nVERSION:    v1\n\nFIELD: rollingUpdate <RollingUpdateDaemonSet>\n"), out)
	assert.Contains(t, out, "  maxUnavailable\t<IntOrString>\n")
	_, err = Explain(kind(t, "Pod"), []string{"spec", "nodeNam"}, Options{})
	assert.EqualError(t, err, `field "nodeNam" does not exist`)
}
