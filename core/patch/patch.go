// Package patch applies the three kinds of patch the API server accepts (kubectl patch --type):
// strategic merge patches, guided by the API's patch strategies and merge keys (apimachinery's
// util/strategicpatch), JSON merge patches (RFC 7386) and JSON patches (RFC 6902). Documents are
// JSON values as encoding/json decodes them: map[string]any, []any, strings, numbers, bools, nil.
package patch

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"daemonlab/core/openapi"
)

// Strategic applies a strategic merge patch to a copy of original, the object's schema telling
// how each list merges (mergeMap in apimachinery's strategicpatch):
//
//  1. A field set to null is removed; a field the original lacks is added as the patch has it
//     (without its nulls).
//  2. Maps merge field by field. {"$patch": "replace"} replaces the map, {"$patch": "delete"}
//     removes it; "$retainKeys" keeps only the keys it lists; "$setElementOrder/…" is ignored.
//  3. A list whose field has the patch strategy "merge" merges: elements of maps by the field's
//     merge key (an element with {"$patch": "delete"} deletes the one with its key, a new key is
//     added), elements of primitives as a union ("$deleteFromPrimitiveList/<field>" removes
//     values). {"$patch": "replace"} as an element makes the patch's list replace the original.
//     The merged list is ordered as strategicpatch orders it (see orderLike).
//  4. Any other list, and any value whose type changes, is replaced.
func Strategic(original, patch map[string]any, doc, schema openapi.Schema) (map[string]any, error) {
	out, err := mergeMap(clone(original).(map[string]any), patch, doc, schema)
	if err != nil {
		return nil, err
	}
	if out == nil {
		return map[string]any{}, nil
	}
	return out, nil
}

const directive = "$patch"

func mergeMap(original, patch map[string]any, doc, schema openapi.Schema) (map[string]any, error) {
	switch patch[directive] {
	case nil, "merge":
	case "replace":
		out := maps.Clone(patch)
		delete(out, directive)
		return out, nil
	case "delete":
		return nil, nil
	default:
		return nil, fmt.Errorf("unknown patch type: %s in map: %v", patch[directive], patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	props := openapi.AsMap(openapi.Value(doc, schema)["properties"])
	valueSchema := openapi.AsMap(openapi.Value(doc, schema)["additionalProperties"])
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		pv := patch[k]
		if k == directive || k == "$retainKeys" || strings.HasPrefix(k, "$setElementOrder/") {
			continue
		}
		if field, ok := strings.CutPrefix(k, "$deleteFromPrimitiveList/"); ok {
			original[field] = deleteFromList(original[field], pv)
			continue
		}
		fieldSchema := openapi.AsMap(props[k])
		if fieldSchema == nil {
			fieldSchema = valueSchema
		}
		ov, exists := original[k]
		switch {
		case pv == nil:
			delete(original, k)
		case !exists:
			original[k] = withoutNulls(clone(pv))
		default:
			merged, err := mergeValue(ov, pv, doc, fieldSchema)
			if err != nil {
				return nil, err
			}
			if merged == nil {
				delete(original, k)
			} else {
				original[k] = merged
			}
		}
	}
	if keep, ok := patch["$retainKeys"].([]any); ok {
		for k := range original {
			if !slices.Contains(keep, any(k)) {
				delete(original, k)
			}
		}
	}
	return original, nil
}

func mergeValue(ov, pv any, doc, fieldSchema openapi.Schema) (any, error) {
	switch p := pv.(type) {
	case map[string]any:
		if o, ok := ov.(map[string]any); ok {
			m, err := mergeMap(o, p, doc, fieldSchema)
			if m == nil || err != nil {
				return nil, err
			}
			return m, nil
		}
	case []any:
		if o, ok := ov.([]any); ok {
			return mergeList(o, p, doc, fieldSchema)
		}
	}
	return pv, nil
}

func mergeList(original, patch []any, doc, fieldSchema openapi.Schema) (any, error) {
	strategy, _ := fieldSchema["x-kubernetes-patch-strategy"].(string)
	key, _ := fieldSchema["x-kubernetes-patch-merge-key"].(string)
	if !slices.Contains(strings.Split(strategy, ","), "merge") {
		return patch, nil
	}
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	for _, x := range slices.Concat(original, patch) {
		if _, ok := x.(map[string]any); ok != isMap(firstOf(original, patch)) {
			return nil, fmt.Errorf("lists of different types cannot be merged: %v", x)
		}
	}
	if _, maps := firstOf(original, patch).(map[string]any); !maps {
		merged := dedupeScalars(append(slices.Clone(original), patch...))
		return orderLike(merged, patch, original, ""), nil
	}
	// Elements with a $patch directive: delete removes the original with its key, replace makes
	// the patch's list (without them) the whole list.
	var plain []any
	replace := false
	for _, p := range patch {
		pm, _ := p.(map[string]any)
		switch pm[directive] {
		case nil:
			plain = append(plain, p)
		case "delete":
			original = slices.DeleteFunc(slices.Clone(original), func(o any) bool { return sameKey(o, pm, key) })
		case "replace":
			replace = true
		default:
			return nil, fmt.Errorf("unknown patch type: %s in map: %v", pm[directive], pm)
		}
	}
	if replace {
		original, plain = plain, nil
	}
	items := openapi.AsMap(openapi.Value(doc, fieldSchema)["items"])
	merged := slices.Clone(original)
	for _, p := range plain {
		pm, ok := p.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("lists of different types cannot be merged: %v", p)
		}
		if i := slices.IndexFunc(merged, func(o any) bool { return sameKey(o, pm, key) }); i >= 0 {
			m, err := mergeMap(merged[i].(map[string]any), pm, doc, items)
			if err != nil {
				return nil, err
			}
			merged[i] = m
			continue
		}
		merged = append(merged, pm)
	}
	return orderLike(merged, plain, original, key), nil
}

// orderLike puts a merged list in strategicpatch's order (normalizeElementOrder): the elements
// the patch names in the patch's order, the others in the original's, interleaved so that each
// original element keeps its place relative to the patch's elements it came before.
func orderLike(merged, patch, original []any, key string) []any {
	var fromPatch, serverOnly []any
	for _, m := range merged {
		if indexIn(patch, m, key) >= 0 {
			fromPatch = append(fromPatch, m)
		} else {
			serverOnly = append(serverOnly, m)
		}
	}
	slices.SortStableFunc(fromPatch, func(a, b any) int { return indexIn(patch, a, key) - indexIn(patch, b, key) })
	slices.SortStableFunc(serverOnly, func(a, b any) int { return indexIn(original, a, key) - indexIn(original, b, key) })
	out := make([]any, 0, len(merged))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(fromPatch) {
		switch {
		case j >= len(fromPatch):
			out, i = append(out, serverOnly[i]), i+1
		case i >= len(serverOnly):
			out, j = append(out, fromPatch[j]), j+1
		default:
			li, ri := indexIn(original, serverOnly[i], key), indexIn(original, fromPatch[j], key)
			if li >= 0 && ri >= 0 && li < ri {
				out, i = append(out, serverOnly[i]), i+1
			} else {
				out, j = append(out, fromPatch[j]), j+1
			}
		}
	}
	return orEmpty(out)
}

// indexIn finds an element in a list: by merge key for maps, by value for scalars.
func indexIn(list []any, x any, key string) int {
	return slices.IndexFunc(list, func(y any) bool {
		if key == "" {
			return reflect.DeepEqual(x, y)
		}
		return sameKey(y, openapi.AsMap(x), key)
	})
}

func sameKey(o any, p map[string]any, key string) bool {
	om, ok := o.(map[string]any)
	return ok && reflect.DeepEqual(om[key], p[key])
}

func isMap(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

func firstOf(a, b []any) any {
	if len(a) > 0 {
		return a[0]
	}
	return b[0]
}

// dedupeScalars removes repeated values as strategicpatch's deduplicateScalars does: a repeat
// is overwritten by the last element, which moves.
func dedupeScalars(s []any) []any {
	last := len(s) - 1
	for i := 0; i < last; i++ {
		for j := i + 1; j <= last; j++ {
			if s[i] == s[j] {
				s[j] = s[last]
				s = s[:last]
				last--
				j--
			}
		}
	}
	return s
}

func deleteFromList(list, remove any) any {
	l, ok := list.([]any)
	if !ok {
		return list
	}
	gone := openapi.AsList(remove)
	return orEmpty(slices.DeleteFunc(slices.Clone(l), func(x any) bool {
		return slices.ContainsFunc(gone, func(g any) bool { return reflect.DeepEqual(g, x) })
	}))
}

func orEmpty(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// withoutNulls drops null fields from a patch value added where the original has nothing
// (discardNullValuesFromPatch): there is nothing for them to delete.
func withoutNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
			} else {
				x[k] = withoutNulls(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = withoutNulls(e)
		}
	}
	return v
}

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
