package kubectl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSortValuesCompareAsKubectlDoes pins kubectl get's isLess (pkg/cmd/get/sorter.go):
// quantities compare by value, other strings as text, numbers within their kind, a missing
// value first, and mixed kinds are an error.
func TestSortValuesCompareAsKubectlDoes(t *testing.T) {
	tests := []struct {
		name    string
		a, b    any
		want    bool
		wantErr string
	}{
		{"quantities by value", "100Mi", "1Gi", true, ""},
		{"quantities by value, reversed", "1Gi", "100Mi", false, ""},
		{"cpu quantities", "500m", "2", true, ""},
		{"text when not quantities", "hd10", "hd2", true, ""},
		{"timestamps as text", "2026-01-01T00:00:05Z", "2026-01-01T00:00:10Z", true, ""},
		{"integers", int64(2), int64(10), true, ""},
		{"floats", 2.5, 1.5, false, ""},
		{"nil first", nil, "a", true, ""},
		{"nil last", "a", nil, false, ""},
		{"both nil", nil, nil, false, ""},
		{"mixed kinds", int64(1), "a", false, "unsortable interface: interface"},
		{"maps do not sort", map[string]any{}, map[string]any{}, false, "unsortable type: map[string]interface {}"},
		{"booleans do not sort", true, false, false, "unsortable type: bool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := isLess(tt.a, tt.b)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, tt.wantErr, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestSortByAcceptsKubectlsRelaxedPaths: name1.name2, .name1.name2, {name1.name2} and
// {.name1.name2} all mean {.name1.name2} (RelaxedJSONPathExpression).
func TestSortByAcceptsKubectlsRelaxedPaths(t *testing.T) {
	for _, field := range []string{"metadata.name", ".metadata.name", "{metadata.name}", "{.metadata.name}"} {
		_, got, err := sortTemplate(field)
		require.NoError(t, err, field)
		assert.Equal(t, "{.metadata.name}", got, field)
	}
}
