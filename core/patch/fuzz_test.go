package patch

import (
	"testing"

	"daemonlab/core/api"
	"daemonlab/core/openapi"
)

// FuzzPatches applies arbitrary patches of all three kinds to a DaemonSet: no panic, whatever
// the input.
func FuzzPatches(f *testing.F) {
	for _, seed := range []string{
		`{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"x"},{"name":"d","$patch":"delete"}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"$patch":"replace"},{"name":"e"}]}}}}`,
		`{"metadata":{"finalizers":["a","a","b"],"$deleteFromPrimitiveList/finalizers":["a"]}}`,
		`{"spec":{"updateStrategy":{"$retainKeys":["type"],"type":"OnDelete"}}}`,
		`[{"op":"add","path":"/spec/template/spec/containers/-","value":{}},{"op":"move","from":"/spec","path":"/spec/x"}]`,
		`{"spec":null}`, `[]`, `7`, `"s"`,
	} {
		f.Add(seed)
	}
	k, _ := api.KindFor("apps/v1", "DaemonSet")
	original := map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c"}, map[string]any{"name": "d"}}}}}, "metadata": map[string]any{"finalizers": []any{"a"}}}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := api.YAMLToJSON([]byte(text))
		if err != nil {
			return
		}
		if pm, ok := p.(map[string]any); ok {
			_, _ = Strategic(original, pm, openapi.Document(k), openapi.Root(k))
		}
		_ = Merge(original, p)
		_, _ = JSON(original, p)
	})
}

// TestMixedListsAreRefused: a merged list must hold maps only or scalars only.
func TestMixedListsAreRefused(t *testing.T) {
	k, _ := api.KindFor("apps/v1", "DaemonSet")
	original := map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c"}}}}}}
	patch := map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "x"}, 5}}}}}
	if _, err := Strategic(original, patch, openapi.Document(k), openapi.Root(k)); err == nil {
		t.Fatal("a list of a map and a number merged")
	}
}
