package kubectl

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yamlv2 "go.yaml.in/yaml/v2"
)

// kubectlYAML is what kubectl prints for a JSON document, or the error it prints instead:
// sigs.k8s.io/yaml.JSONToYAML reads the JSON with go.yaml.in/yaml/v2 into a generic value and
// marshals that back.
func kubectlYAML(doc []byte) (string, error) {
	var tree any
	if err := yamlv2.Unmarshal(doc, &tree); err != nil {
		return "", err
	}
	out, err := yamlv2.Marshal(tree)
	return string(out), err
}

// assertKubectlsYAML checks printStructured against kubectlYAML, output and error.
func assertKubectlsYAML(t *testing.T, v any) bool {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	want, wantErr := kubectlYAML(data)
	var got strings.Builder
	err = printStructured(&got, v, "yaml")
	if wantErr != nil {
		return assert.EqualError(t, err, "error: "+wantErr.Error(), "%s", data)
	}
	return assert.NoError(t, err, "%s", data) && assert.Equal(t, want, got.String(), "%s", data)
}

// yamlStrings are texts on every edge of rule 5 to 8 of jsonToYAML.
var yamlStrings = []string{
	"", "plain", "two words", "~", "null", "Null", "true", "yes", "Y", "n", "on", "OFF", "<<",
	"1", "-1", "+1", "0x1F", "0o17", "017", "1_000", "0b101", "-0b101", "0b2", "1.5", ".5", "-.5", "1e3",
	"1E+3", "1.", ".", "-", "+", ".inf", "-.Inf", ".nan", ".na", "1e", "e1", "12:30", "1:30:59.5",
	"1:60", "-1:2", "1:2_3", "2026-11-30", "2026-1-2T3:4:5Z", "2026-11-30 10:00:00", "2026-13-45",
	"2026-11-30T10:00:00Z", "12345-1-1", "1.2.3", "1.0.0-beta",
	"- item", "-item", "? key", "?key", ": v", ":v", "a: b", "a:b", "a #b", "a#b", "#x", "x #",
	",a", "a,b", "[a]", "a[0]", "{a}", "&a", "*a", "!a", "|a", ">a", "'a", "\"a", "%a", "@a", "`a",
	"---", "--- x", "...", "..x", "a---",
	" lead", "trail ", "a  b", "tab\there", "\ttab", "nul\x00", "del\x7f", "bell\a", "esc\x1b",
	"quote's", "back\\slash", `say "hi"`, "é", "日本語", "emoji 😀", "\u0085nel", "a\u2028b", "\u2029",
	"nbsp\u00a0", "\ufeffbom", "x\ufeff", "\ufffe", "\uffff", "\u0080", "\u009f",
	"a \u0085 b", "a\u0085\u0085b", "a\u0085---b", "a\u0085--- b", "a\u0085...\u0085", "a\u0085", "\u0085",
	"a\u0085 \u0085 b", "k\u0085\u0085x", "a\u0085\u0085---\u0085", "\u0085...", "x\u0085\u2028y",
	"a\nb", "a\nb\n", "a\nb\n\n", "\n", "\n\n", "\na", " a\nb", "a \nb", "a\n b", "a\r\nb", "a\rb",
	"line\n", "trailing space \nx", "tab\tline\nx",
	strings.Repeat("word ", 30), strings.Repeat("x", 100) + " y",
	strings.Repeat("a ", 45) + " " + strings.Repeat("b ", 10),
	strings.Repeat("long-", 20) + "\n" + strings.Repeat("word ", 20),
	"'" + strings.Repeat("quoted words ", 10), "\"" + strings.Repeat("dq words ", 12) + "\t",
	strings.Repeat("é ", 50), strings.Repeat("k", 128), strings.Repeat("k", 129),
	strings.Repeat("y", 129) + "\n", "a10", "a9", "a09", "a009", "A", "b", "_a", "1a", "01", "10",
}

// TestJSONToYAMLIsKubectls: every text of yamlStrings as a key, a value and a list item, and
// every shape of collection, comes out as kubectl's own conversion writes it (see kubectlYAML).
func TestJSONToYAMLIsKubectls(t *testing.T) {
	docs := []any{
		map[string]any{},
		map[string]any{"a": map[string]any{}, "b": []any{}, "c": nil, "d": true, "e": false},
		map[string]any{"list": []any{[]any{"a", []any{}}, map[string]any{"k": "v", "l": []any{"x"}}, map[string]any{}}},
		map[string]any{"nums": []any{json.Number("0"), json.Number("-0"), json.Number("12"), json.Number("-7"),
			json.Number("1.5"), json.Number("1e21"), json.Number("1E-7"), json.Number("18446744073709551615"),
			json.Number("18446744073709551616"), json.Number("-9223372036854775809"), json.Number("1e400"),
			json.Number("100000000000000000000000"), json.Number("0.1")}},
		map[string]any{"deep": map[string]any{"er": map[string]any{"est": []any{map[string]any{"x": []any{"y", "z"}}}}}},
	}
	for _, s := range yamlStrings {
		docs = append(docs,
			map[string]any{"k": s},
			map[string]any{s: "v", "list": []any{s, map[string]any{s: s}}},
			map[string]any{s: map[string]any{"nested": s, "items": []any{s}}, "z": []any{[]any{s}}},
		)
	}
	for _, doc := range docs {
		assertKubectlsYAML(t, doc)
	}
}

// TestYAMLKeysSortNaturally pins YAML v2's key order: digit runs compare as numbers, letters
// after other characters.
func TestYAMLKeysSortNaturally(t *testing.T) {
	var keys map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"a10":1,"a9":2,"a09":3,"B":4,"a":5,"_":6,"1":7,"a-b":8,"ab":9,"é":10,"a0":11,"a00":12}`), &keys))
	assertKubectlsYAML(t, keys)
}

// FuzzJSONToYAMLIsKubectls puts two fuzzed texts and a fuzzed number into documents of several
// shapes and compares jsonToYAML with kubectl's own conversion.
func FuzzJSONToYAMLIsKubectls(f *testing.F) {
	for i, s := range yamlStrings {
		f.Add(s, yamlStrings[(i+7)%len(yamlStrings)], "12", uint8(i))
	}
	f.Fuzz(func(t *testing.T, a, b, number string, shape uint8) {
		var num any = json.Number(number)
		if _, err := json.Marshal(num); err != nil {
			num = nil
		}
		var doc map[string]any
		switch shape % 4 {
		case 0:
			doc = map[string]any{a: b, b: num}
		case 1:
			doc = map[string]any{"items": []any{a, map[string]any{a: b, "n": num}, []any{b}}}
		case 2:
			doc = map[string]any{a: map[string]any{b: []any{a, b, num}}, b: map[string]any{}}
		default:
			doc = map[string]any{"x": []any{[]any{map[string]any{a: []any{}}}, b}, a + b: num}
		}
		if !assertKubectlsYAML(t, doc) {
			t.FailNow()
		}
	})
}
