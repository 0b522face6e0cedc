// Package patch applies the three kinds of patch the API server accepts (kubectl patch --type):
// strategic merge patches, guided by the API's patch strategies and merge keys (apimachinery's
// util/strategicpatch), JSON merge patches (RFC 7386) and JSON patches (RFC 6902). Documents are
// JSON values as encoding/json decodes them: map[string]any, []any, strings, numbers, bools, nil.
package patch

// Merge applies a JSON merge patch (RFC 7386): objects merge key by key, null removes a key,
// anything else (lists included) replaces.
func Merge(original, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return clone(patch)
	}
	o, ok := original.(map[string]any)
	if !ok {
		o = map[string]any{}
	} else {
		o = clone(o).(map[string]any)
	}
	for k, v := range p {
		if v == nil {
			delete(o, k)
			continue
		}
		o[k] = Merge(o[k], v)
	}
	return o
}

// clone deep-copies a JSON value.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = clone(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clone(e)
		}
		return out
	}
	return v
}
