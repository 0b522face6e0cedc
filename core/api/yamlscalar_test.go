package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sigsyaml "sigs.k8s.io/yaml"
)

// plainScalars are unquoted scalars on every edge of ResolvePlain's rules.
var plainScalars = []string{
	"", "~", "null", "Null", "NULL", "nul", "y", "Yes", "ON", "off", "no", "true", "False", "<<",
	"0", "-0", "+1", "17", "017", "08", "0_8", "0o17", "0x1F", "0x_1F", "+0x1F", "-0x1F", "0b101",
	"-0b101", "0b_1", "0b", "0x", "1_000", "1__0", "_1", "1_", "+_1", "1e3", "1E+3", "1e", "e1",
	"1.", "0.", ".5", "-.5", "._5", "1_000.5", "0.1_2", "1e1_0", "1.5e", ".", "+",
	"9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551615",
	"18446744073709551616", "1e400", "-1e400", "4.9e-324", "1e-7", "1e21", "100000000",
	".inf", "-.Inf", "+.INF", ".nan", ".NaN", "1:30", "1:30:59.5", "190:20:30",
	"2026-11-30", "2026-1-2", "2026-11-30T10:00:00Z", "2026-11-30t10:00:00Z", "2026-11-30 10:00:00",
	"2026-13-45", "12345-1-1", "1.2.3", "v1.37", "nginx:1.27", "10Gi", "500m", "1e3Mi",
}

// TestPlainScalarsReadAsKubectlReadsThem: a manifest's unquoted scalar becomes the JSON value,
// or the error, that kubectl's reader (sigs.k8s.io/yaml.YAMLToJSON, YAML v2) makes of it; as a
// map key, the JSON key or the error kubectl's makes of it (a float with float32's digits, .inf,
// a null key or one beyond int64 refused, with the key and its value in Go syntax).
func TestPlainScalarsReadAsKubectlReadsThem(t *testing.T) {
	for _, s := range plainScalars {
		assertReadAsKubectl(t, s)
		if s != "" && s != "<<" { // no key, and the merge key
			assertDocReadAsKubectl(t, s+": v")
		}
	}
	for _, doc := range []string{
		"3.14159265358979: v", "1e-7: v", "2.5e10: v", "~: {a: 1, b: [1, 2.5, x, true, ~]}",
		"a: {18446744073709551615: 1.5}", "null: 1e21", "a: [{~: x}]", "x: 1\n~: .inf",
	} {
		assertDocReadAsKubectl(t, doc)
	}
}

// FuzzPlainScalarReadsAsKubectlReadsIt fuzzes TestPlainScalarsReadAsKubectlReadsThem with texts
// of the characters numbers, booleans and timestamps are made of.
func FuzzPlainScalarReadsAsKubectlReadsIt(f *testing.F) {
	for _, s := range plainScalars {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Trim(s, "0123456789abcdefxoABCDEFXOnNyYtTlLuU.+-_:~ ") != "" || strings.TrimSpace(s) != s ||
			strings.Contains(s, ": ") || strings.HasSuffix(s, ":") || strings.HasPrefix(s, "- ") || strings.HasPrefix(s, ":") || s == "-" {
			return
		}
		if !assertReadAsKubectl(t, s) {
			t.FailNow()
		}
	})
}

// assertReadAsKubectl checks s read as a value: the JSON, or the conversion's error, is
// kubectl's.
func assertReadAsKubectl(t *testing.T, s string) bool {
	t.Helper()
	return assertDocReadAsKubectl(t, "v: "+s)
}

func assertDocReadAsKubectl(t *testing.T, doc string) bool {
	t.Helper()
	want, wantErr := sigsyaml.YAMLToJSON([]byte(doc))
	v, err := YAMLToJSON([]byte(doc))
	if wantErr != nil {
		return assert.Error(t, err, "%q: kubectl says %v", doc, wantErr) && assert.Contains(t, wantErr.Error(), err.Error(), "%q", doc)
	}
	if !assert.NoError(t, err, "%q", doc) {
		return false
	}
	got, err := json.Marshal(v)
	return assert.NoError(t, err, "%q", doc) && assert.JSONEq(t, string(want), string(got), "%q", doc) && assert.Equal(t, string(want), string(got), "%q", doc)
}

// TestNonFiniteNumbersFailTheDocumentAsKubectlReadsIt: an infinity or NaN anywhere in a document
// fails kubectl's conversion to JSON (sigs.k8s.io/yaml.Unmarshal, as kubectl's stream decoder
// calls it), naming the first that encoding/json would write: map keys in sorted order.
func TestNonFiniteNumbersFailTheDocumentAsKubectlReadsIt(t *testing.T) {
	for _, doc := range []string{
		"a: .inf", "a: [1, -.inf]", "b: .nan\na: .inf", "a: {z: .nan, y: -.Inf}", "z: [.NaN]\nm: {k: +.inf}",
		"a: !!float .inf", "a: &x .inf\nb: *x", "a: {<<: {b: .nan}}",
	} {
		var raw json.RawMessage
		want := sigsyaml.Unmarshal([]byte(doc), &raw)
		require.Error(t, want, "%q", doc)
		_, err := YAMLToJSON([]byte(doc))
		if assert.Error(t, err, "%q", doc) {
			assert.Equal(t, want.Error(), "error converting YAML to JSON: "+err.Error(), "%q", doc)
		}
	}
}
