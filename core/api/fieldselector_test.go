package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/fields"
)

var fieldSelectorSeeds = []string{
	"", "spec.nodeName=hd2", "status.phase!=Running", "spec.nodeName==hd2,status.phase=Running",
	"metadata.name=a\\,b", "metadata.name=a\\=b", "metadata.name=a\\\\b", "metadata.name=a\\b",
	"metadata.name=a=b", "metadata.name", "a=", "=b", ",,a=b,", "a!=b,a=c", "x=\\",
}

// checkAgainstApimachinery: ours parses exactly what fields.ParseSelector parses, with its
// error, and matches the same field sets.
func checkAgainstApimachinery(t *testing.T, s string) {
	want, wantErr := fields.ParseSelector(s)
	got, err := ParseFieldSelector(s)
	if wantErr != nil {
		require.Error(t, err, s)
		assert.Equal(t, wantErr.Error(), err.Error(), s)
		return
	}
	require.NoError(t, err, s)
	for _, set := range []map[string]string{
		{}, {"spec.nodeName": "hd2"}, {"status.phase": "Running"}, {"spec.nodeName": "hd2", "status.phase": "Running"},
		{"metadata.name": "a,b"}, {"metadata.name": "a=b"}, {"metadata.name": `a\b`}, {"a": ""}, {"a": "b"}, {"a": "c"},
	} {
		assert.Equal(t, want.Matches(fields.Set(set)), got.Matches(set), "%q on %v", s, set)
	}
}

// TestFieldSelectorsParseAsTheAPIServerParsesThem pins apimachinery's fields.ParseSelector:
// =, == and !=, escaped commas and equals signs, its errors.
func TestFieldSelectorsParseAsTheAPIServerParsesThem(t *testing.T) {
	for _, s := range fieldSelectorSeeds {
		checkAgainstApimachinery(t, s)
	}
}

func FuzzParseFieldSelector(f *testing.F) {
	for _, s := range fieldSelectorSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkAgainstApimachinery(t, s) })
}
