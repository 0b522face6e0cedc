package patch

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"daemonlab/core/openapi"
)

// The directives of strategic merge patches.
const (
	directive           = "$patch"
	retainKeysKey       = "$retainKeys"
	setOrderPrefix      = "$setElementOrder/"
	deleteFromListPrefx = "$deleteFromPrimitiveList/"
)

// field is where a value sits in the schema: the document and the field's schema (nil for a
// field the schema does not know, which merges as a plain value).
type field struct {
	doc, schema openapi.Schema
}

// child is the schema of key k below a map's schema: a property, or the map's value schema.
func (f field) child(k string) field {
	v := openapi.Value(f.doc, f.schema)
	if p := openapi.AsMap(openapi.AsMap(v["properties"])[k]); p != nil {
		return field{f.doc, p}
	}
	return field{f.doc, openapi.AsMap(v["additionalProperties"])}
}

// items is the schema of a list's elements.
func (f field) items() field {
	return field{f.doc, openapi.AsMap(openapi.Value(f.doc, f.schema)["items"])}
}

// strategy is the field's patch strategy (merge or replace; "" for none) and whether it also
// retains keys, and its merge key.
func (f field) strategy() (strategy string, retainKeys bool, mergeKey string) {
	for _, s := range strings.Split(fmt.Sprint(f.schema["x-kubernetes-patch-strategy"]), ",") {
		switch s {
		case "retainKeys":
			retainKeys = true
		case "merge", "replace":
			strategy = s
		}
	}
	mergeKey, _ = f.schema["x-kubernetes-patch-merge-key"].(string)
	return strategy, retainKeys, mergeKey
}

// mergeOptions are how mergeMap treats a patch: applied to an object (parallel lists of
// deletions and orders are acted on, nulls with nothing to delete dropped), or merged into
// another patch (they are kept).
type mergeOptions struct {
	applying bool
}

// Strategic applies a strategic merge patch to a copy of original, the object's schema telling
// how each field merges (StrategicMergePatch in apimachinery's util/strategicpatch):
//
//  1. A field set to null is removed; a field the original lacks, or whose type changes, takes
//     the patch's value (without nulls, and without maps carrying a $patch directive).
//  2. Maps merge field by field. {"$patch": "replace"} replaces the map, {"$patch": "delete"}
//     empties it; "$retainKeys" keeps only the keys it lists.
//  3. A list whose field has the patch strategy "merge" merges: elements of maps by the field's
//     merge key (an element with {"$patch": "delete"} deletes the one with its key,
//     {"$patch": "replace"} makes the patch's elements the list, a new key is added), elements
//     of primitives as a union; "$deleteFromPrimitiveList/<field>" removes values, and
//     "$setElementOrder/<field>" orders the result. Other lists are replaced.
//  4. Merged lists come out in strategicpatch's order: the patch's elements in the patch's (or
//     the set) order, the others where they were relative to them.
func Strategic(original, patch map[string]any, doc, schema openapi.Schema) (map[string]any, error) {
	out, err := mergeMap(clone(original).(map[string]any), clone(patch).(map[string]any), field{doc, schema}, mergeOptions{applying: true})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func mergeMap(original, patch map[string]any, f field, opts mergeOptions) (map[string]any, error) {
	if d, ok := patch[directive]; ok {
		switch d {
		case "replace":
			delete(patch, directive)
			return patch, nil
		case "delete":
			return map[string]any{}, nil
		}
		return nil, fmt.Errorf("unknown patch type: %s in map: %v", d, patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := retainKeys(original, patch, opts); err != nil {
		return nil, err
	}
	if err := setElementOrders(original, patch, f, opts); err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		pv := patch[k]
		isDeleteList := false
		if name, ok := strings.CutPrefix(k, deleteFromListPrefx); ok {
			if !opts.applying {
				original[k] = pv
				continue
			}
			k, isDeleteList = name, true
		}
		if pv == nil {
			delete(original, k)
			if opts.applying {
				continue
			}
		}
		ov, exists := original[k]
		if !exists || reflect.TypeOf(ov) != reflect.TypeOf(pv) {
			if !isDeleteList {
				if opts.applying {
					discardNulls(pv)
				}
				if v, keep := removeDirectives(pv); keep {
					original[k] = v
				} else {
					delete(original, k)
				}
			}
			continue
		}
		child := f.child(k)
		strategy, _, mergeKey := child.strategy()
		var err error
		switch o := ov.(type) {
		case map[string]any:
			if strategy == "replace" {
				original[k] = pv
			} else {
				original[k], err = mergeMap(o, pv.(map[string]any), child, opts)
			}
		case []any:
			if strategy == "merge" || isDeleteList {
				original[k], err = mergeSlice(o, pv.([]any), child, mergeKey, opts, isDeleteList)
			} else {
				original[k] = pv
			}
		default:
			if v, keep := removeDirectives(pv); keep {
				original[k] = v
			} else {
				delete(original, k)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

var errRetainKeys = errors.New("invalid patch format of retainKeys")

// retainKeys acts on a "$retainKeys" list: applying a patch, keys of the original it does not
// list go (and every key the patch sets must be listed); merging patches, it is carried over.
func retainKeys(original, patch map[string]any, opts mergeOptions) error {
	keep, found := patch[retainKeysKey]
	if !found {
		return nil
	}
	delete(patch, retainKeysKey)
	if !opts.applying {
		if prev, ok := original[retainKeysKey]; ok && !reflect.DeepEqual(prev, keep) {
			return fmt.Errorf("%v and %v are not deep equal: this may happen when calculating the 3-way diff patch", prev, keep)
		}
		original[retainKeysKey] = keep
		return nil
	}
	list, ok := keep.([]any)
	if !ok {
		return errRetainKeys
	}
	for k, v := range patch {
		if v != nil && !strings.HasPrefix(k, deleteFromListPrefx) && !strings.HasPrefix(k, setOrderPrefix) && !slices.Contains(list, any(k)) {
			return errRetainKeys
		}
	}
	for k := range original {
		if !slices.Contains(list, any(k)) {
			delete(original, k)
		}
	}
	return nil
}

// setElementOrders acts on "$setElementOrder/<field>" lists (mergePatchIntoOriginal): the
// field's list is merged and put in the order the directive gives.
func setElementOrders(original, patch map[string]any, f field, opts mergeOptions) error {
	for _, key := range slices.Sorted(maps.Keys(patch)) {
		name, ok := strings.CutPrefix(key, setOrderPrefix)
		if !ok {
			continue
		}
		order, ok := patch[key].([]any)
		if !ok {
			return errors.New("invalid patch format of setElementOrder list")
		}
		if !opts.applying {
			if prev, ok := original[key]; ok && !reflect.DeepEqual(prev, order) {
				return errors.New("invalid patch format of setElementOrder list")
			}
			original[key] = order
		}
		delete(patch, key)
		ov, foundOriginal := original[name].([]any)
		pv, foundPatch := patch[name].([]any)
		child := f.child(name)
		strategy, _, mergeKey := child.strategy()
		var merged []any
		switch {
		case foundOriginal && !foundPatch:
			merged = ov
		case !foundOriginal && foundPatch:
			v, keep := removeDirectives(pv)
			if !keep {
				continue
			}
			merged = v.([]any)
		case foundOriginal && foundPatch:
			var err error
			if strategy == "merge" {
				if merged, err = mergeSlice(ov, pv, child, mergeKey, opts, false); err != nil {
					return err
				}
			} else {
				merged = pv
			}
		default:
			continue
		}
		inOrder, serverOnly := partition(merged, order, mergeKey)
		original[name] = normalizeOrder(inOrder, serverOnly, order, ov, mergeKey)
		delete(patch, name)
	}
	return nil
}

// mergeSlice merges a list whose field merges: scalars as a union (or, for a deletion list,
// without the values listed), maps by mergeKey, then orders the result.
func mergeSlice(original, patch []any, f field, mergeKey string, opts mergeOptions, isDeleteList bool) ([]any, error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	if err := sameElementType(original, patch); err != nil {
		return nil, err
	}
	var merged []any
	if _, maps := firstOf(original, patch).(map[string]any); !maps {
		if opts.applying && isDeleteList {
			return deleteFromSlice(original, patch), nil
		}
		merged = dedupeScalars(append(slices.Clone(original), patch...))
		mergeKey = ""
	} else {
		if mergeKey == "" {
			return nil, errors.New("cannot merge lists without merge key")
		}
		var err error
		if original, patch, err = specialElements(original, patch, mergeKey); err != nil {
			return nil, err
		}
		merged = slices.Clone(original)
		for _, p := range patch {
			pm := p.(map[string]any)
			i := slices.IndexFunc(merged, func(o any) bool { return sameKey(o, pm, mergeKey) })
			if i < 0 {
				merged = append(merged, pm)
				continue
			}
			m, err := mergeMap(merged[i].(map[string]any), pm, f.items(), opts)
			if err != nil {
				return nil, err
			}
			merged[i] = m
		}
	}
	inPatch, serverOnly := partition(merged, patch, mergeKey)
	return normalizeOrder(inPatch, serverOnly, patch, original, mergeKey), nil
}

// specialElements handles list elements with a $patch directive: delete removes the original
// element with that key, replace makes the patch's other elements the list.
func specialElements(original, patch []any, mergeKey string) ([]any, []any, error) {
	var plain []any
	replace := false
	for _, p := range patch {
		pm := p.(map[string]any)
		switch d, ok := pm[directive]; {
		case !ok:
			plain = append(plain, p)
		case d == "delete":
			v, ok := pm[mergeKey]
			if !ok {
				return nil, nil, fmt.Errorf("map: %v does not contain declared merge key: %s", pm, mergeKey)
			}
			original = slices.DeleteFunc(slices.Clone(original), func(o any) bool { return openapi.AsMap(o)[mergeKey] == v })
		case d == "replace":
			replace = true
		case d == "merge":
			return nil, nil, errors.New("merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, fmt.Errorf("unknown patch type: %s in map: %v", d, pm)
		}
	}
	if replace {
		return plain, nil, nil
	}
	return original, plain, nil
}

// partition splits a merged list into the elements by (keys of) another list and the rest.
func partition(merged, by []any, mergeKey string) (in, rest []any) {
	for _, m := range merged {
		if indexIn(by, m, mergeKey) >= 0 {
			in = append(in, m)
		} else {
			rest = append(rest, m)
		}
	}
	return in, rest
}

// normalizeOrder is normalizeElementOrder: the elements of the patch in patchOrder's order
// (elements marked for deletion last), the others in serverOrder's, interleaved so that an
// original element keeps its place before the patch's elements that came after it.
func normalizeOrder(patch, serverOnly, patchOrder, serverOrder []any, mergeKey string) []any {
	patch = sortByOrder(patch, patchOrder, mergeKey)
	serverOnly = sortByOrder(serverOnly, serverOrder, mergeKey)
	out := make([]any, 0, len(patch)+len(serverOnly))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(patch) {
		switch {
		case j >= len(patch):
			out, i = append(out, serverOnly[i]), i+1
		case i >= len(serverOnly):
			out, j = append(out, patch[j]), j+1
		default:
			li, ri := indexIn(serverOrder, serverOnly[i], mergeKey), indexIn(serverOrder, patch[j], mergeKey)
			if li >= 0 && ri >= 0 && li < ri {
				out, i = append(out, serverOnly[i]), i+1
			} else {
				out, j = append(out, patch[j]), j+1
			}
		}
	}
	return out
}

// sortByOrder is normalizeSliceOrder's stable sort by position in order (with its quirk: an
// element not in order sorts before any other), deletion markers moved last.
func sortByOrder(list, order []any, mergeKey string) []any {
	var keep, deletes []any
	for _, x := range list {
		if m, ok := x.(map[string]any); ok && mergeKey != "" && m[directive] == "delete" {
			deletes = append(deletes, x)
		} else {
			keep = append(keep, x)
		}
	}
	sort.SliceStable(keep, func(a, b int) bool {
		if ia := indexIn(order, keep[a], mergeKey); ia >= 0 {
			if ib := indexIn(order, keep[b], mergeKey); ib >= 0 {
				return ia < ib
			}
		}
		return true
	})
	return append(keep, deletes...)
}

// indexIn finds an element in a list: by merge key for maps, by value for scalars (as ==).
func indexIn(list []any, x any, mergeKey string) int {
	val := func(v any) any {
		if mergeKey == "" {
			return v
		}
		return openapi.AsMap(v)[mergeKey]
	}
	want := val(x)
	return slices.IndexFunc(list, func(y any) bool { return scalar(want) && scalar(val(y)) && val(y) == want })
}

func scalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

func sameKey(o any, p map[string]any, key string) bool {
	om, ok := o.(map[string]any)
	return ok && scalar(om[key]) && scalar(p[key]) && om[key] == p[key]
}

func firstOf(a, b []any) any {
	if len(a) > 0 {
		return a[0]
	}
	return b[0]
}

// sameElementType is sliceElementType's check: every element of the same JSON type, no lists.
func sameElementType(lists ...[]any) error {
	var first reflect.Type
	for _, l := range lists {
		for _, v := range l {
			t := reflect.TypeOf(v)
			switch {
			case first == nil && t != nil && t.Kind() == reflect.Slice:
				return errors.New("lists of lists are not supported")
			case first == nil:
				first = t
			case t != first:
				return fmt.Errorf("list element types are not identical: %v", lists)
			}
		}
	}
	return nil
}

// dedupeScalars removes repeated values as strategicpatch's deduplicateScalars does: a repeat
// is overwritten by the last element, which moves.
func dedupeScalars(s []any) []any {
	last := len(s) - 1
	for i := 0; i < last; i++ {
		for j := i + 1; j <= last; j++ {
			if scalar(s[i]) && s[i] == s[j] {
				s[j] = s[last]
				s = s[:last]
				last--
				j--
			}
		}
	}
	return s
}

func deleteFromSlice(list, remove []any) []any {
	out := make([]any, 0, len(list))
	for _, v := range list {
		if indexIn(remove, v, "") < 0 {
			out = append(out, v)
		}
	}
	return out
}

// discardNulls drops null fields from a patch value added where the original has nothing.
func discardNulls(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
			} else {
				discardNulls(e)
			}
		}
	case []any:
		for _, e := range x {
			discardNulls(e)
		}
	}
}

// removeDirectives drops, from a value added as it is, every map carrying a $patch directive
// (keep is false when the value itself is one).
func removeDirectives(v any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x[directive]; ok {
			return nil, false
		}
		for k, e := range x {
			if ev, keep := removeDirectives(e); keep {
				x[k] = ev
			} else {
				delete(x, k)
			}
		}
		return x, true
	case []any:
		out := []any{}
		for _, e := range x {
			if ev, keep := removeDirectives(e); keep {
				out = append(out, ev)
			}
		}
		return out, true
	}
	return v, true
}
