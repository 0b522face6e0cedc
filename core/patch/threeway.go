package patch

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"

	"daemonlab/core/openapi"
)

// ThreeWay computes the strategic merge patch kubectl apply sends (CreateThreeWayMergePatch):
// what takes current, the live object, to modified, the manifest applied now, without undoing
// what others changed, given original, the configuration applied last time:
//
//  1. Changes and additions: every field of modified that current lacks or holds differently
//     (lists that merge, diffed element by element by merge key).
//  2. Deletions: every field of original that modified no longer has, as null (or a
//     {"$patch": "delete"} element, or a "$deleteFromPrimitiveList/<field>" entry).
//  3. Lists that merge get "$setElementOrder/<field>" with modified's order; maps of a field
//     whose strategy retains keys get "$retainKeys".
//  4. Fields in neither original nor modified are left as current has them.
func ThreeWay(original, modified, current map[string]any, doc, schema openapi.Schema) (map[string]any, error) {
	f := field{doc, schema}
	delta, err := diffMaps(current, modified, f, diffOptions{ignoreDeletions: true, setElementOrder: true})
	if err != nil {
		return nil, err
	}
	deletions, err := diffMaps(original, modified, f, diffOptions{setElementOrder: true, ignoreChangesAndAdditions: true})
	if err != nil {
		return nil, err
	}
	return mergeMap(deletions, delta, f, mergeOptions{})
}

// diffOptions say what a diff keeps.
type diffOptions struct {
	ignoreDeletions, ignoreChangesAndAdditions, setElementOrder, buildRetainKeys bool
}

// diffMaps is the patch that takes original to modified, as far as the options keep.
func diffMaps(original, modified map[string]any, f field, opts diffOptions) (map[string]any, error) {
	patch := map[string]any{}
	var retain []any
	for _, key := range slices.Sorted(maps.Keys(modified)) {
		mv := modified[key]
		if opts.buildRetainKeys && mv != nil {
			retain = append(retain, key)
		}
		ov, ok := original[key]
		switch {
		case !ok:
			if !opts.ignoreChangesAndAdditions {
				patch[key] = mv
			}
			continue
		case key == directive:
			os, ok1 := ov.(string)
			ms, ok2 := mv.(string)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("invalid value for special key: %s", directive)
			}
			if os != ms {
				patch[directive] = mv
			}
			continue
		case reflect.TypeOf(ov) != reflect.TypeOf(mv):
			if !opts.ignoreChangesAndAdditions {
				patch[key] = mv
			}
			continue
		}
		child := f.child(key)
		switch o := ov.(type) {
		case map[string]any:
			strategy, retainKeys, _ := child.strategy()
			if strategy == "replace" {
				if !opts.ignoreChangesAndAdditions {
					patch[key] = mv
				}
				continue
			}
			sub := opts
			sub.buildRetainKeys = retainKeys
			p, err := diffMaps(o, mv.(map[string]any), child, sub)
			if err != nil {
				return nil, err
			}
			if len(p) > 0 {
				patch[key] = p
			}
		case []any:
			strategy, retainKeys, mergeKey := child.strategy()
			if strategy != "merge" {
				replaceIfNotEqual(patch, key, ov, mv, opts)
				continue
			}
			sub := opts
			sub.buildRetainKeys = retainKeys
			add, del, order, err := diffLists(o, mv.([]any), child, mergeKey, sub)
			if err != nil {
				return nil, err
			}
			if len(add) > 0 {
				patch[key] = add
			}
			if len(del) > 0 {
				patch[deleteFromListPrefx+key] = del
			}
			if len(order) > 0 {
				patch[setOrderPrefix+key] = order
			}
		default:
			replaceIfNotEqual(patch, key, ov, mv, opts)
		}
	}
	if !opts.ignoreDeletions {
		for key := range original {
			if _, found := modified[key]; !found {
				patch[key] = nil
			}
		}
	}
	if len(retain) > 0 && (len(patch) > 0 || hasRemovedField(original, modified)) {
		patch[retainKeysKey] = sortScalars(retain)
	}
	return patch, nil
}

func replaceIfNotEqual(patch map[string]any, key string, original, modified any, opts diffOptions) {
	if !opts.ignoreChangesAndAdditions && !reflect.DeepEqual(original, modified) {
		patch[key] = modified
	}
}

// hasRemovedField reports whether original has a (non-null) field modified lacks.
func hasRemovedField(original, modified map[string]any) bool {
	for k, v := range original {
		if _, found := modified[k]; v != nil && !found {
			return true
		}
	}
	return false
}

// diffLists diffs a list that merges: the elements to add or change, the scalars to delete,
// and the order to set.
func diffLists(original, modified []any, f field, mergeKey string, opts diffOptions) (add, del, order []any, err error) {
	if len(original) == 0 {
		if len(modified) == 0 || opts.ignoreChangesAndAdditions {
			return nil, nil, nil, nil
		}
		return modified, nil, nil, nil
	}
	if err := sameElementType(original, modified); err != nil {
		return nil, nil, nil, err
	}
	if _, isMap := firstOf(original, modified).(map[string]any); isMap {
		add, del, err = diffListsOfMaps(original, modified, f, mergeKey, opts)
		if err != nil {
			return nil, nil, nil, err
		}
		add = sortByOrder(add, modified, mergeKey)
		same := len(original) == len(modified)
		for i := range modified {
			same = same && sameKey(original[i], openapi.AsMap(modified[i]), mergeKey)
		}
		add = append(add, del...)
		del = nil
		if opts.setElementOrder && (!opts.ignoreChangesAndAdditions && (len(add) > 0 || !same) || !opts.ignoreDeletions && len(add) > 0) {
			for _, m := range modified {
				order = append(order, map[string]any{mergeKey: openapi.AsMap(m)[mergeKey]})
			}
		}
		return add, del, order, nil
	}
	add, del = diffListsOfScalars(original, modified, opts)
	add = sortByOrder(add, modified, "")
	if opts.setElementOrder && (!opts.ignoreDeletions && len(del) > 0 || !opts.ignoreChangesAndAdditions && !reflect.DeepEqual(original, modified)) {
		order = modified
	}
	return add, del, order, nil
}

// diffListsOfScalars walks both lists sorted (as text) and collects additions and deletions.
func diffListsOfScalars(original, modified []any, opts diffOptions) (add, del []any) {
	o, m := sortScalars(slices.Clone(original)), sortScalars(slices.Clone(modified))
	add, del = []any{}, []any{}
	i, j := 0, 0
	for i < len(o) || j < len(m) {
		switch {
		case i < len(o) && j < len(m) && fmt.Sprint(o[i]) == fmt.Sprint(m[j]):
			i, j = i+1, j+1
		case i >= len(o) || j < len(m) && fmt.Sprint(o[i]) > fmt.Sprint(m[j]):
			if !opts.ignoreChangesAndAdditions {
				add = append(add, m[j])
			}
			j++
		default:
			if !opts.ignoreDeletions {
				del = append(del, o[i])
			}
			i++
		}
	}
	return add, dedupeScalars(del)
}

// diffListsOfMaps walks both lists sorted by merge key: matching elements are diffed, new ones
// added, removed ones marked {"$patch": "delete", key: value}.
func diffListsOfMaps(original, modified []any, f field, mergeKey string, opts diffOptions) (add, del []any, err error) {
	o, m := sortByKey(original, mergeKey), sortByKey(modified, mergeKey)
	add, del = []any{}, []any{}
	i, j := 0, 0
	for i < len(o) || j < len(m) {
		var ok, mk string
		if i < len(o) {
			ok = fmt.Sprint(openapi.AsMap(o[i])[mergeKey])
		}
		if j < len(m) {
			mk = fmt.Sprint(openapi.AsMap(m[j])[mergeKey])
		}
		switch {
		case i < len(o) && j < len(m) && ok == mk:
			p, err := diffMaps(o[i].(map[string]any), m[j].(map[string]any), f.items(), opts)
			if err != nil {
				return nil, nil, err
			}
			if len(p) > 0 {
				p[mergeKey] = openapi.AsMap(m[j])[mergeKey]
				add = append(add, p)
			}
			i, j = i+1, j+1
		case i >= len(o) || j < len(m) && ok > mk:
			if !opts.ignoreChangesAndAdditions {
				add = append(add, m[j])
			}
			j++
		default:
			if !opts.ignoreDeletions {
				del = append(del, map[string]any{directive: "delete", mergeKey: openapi.AsMap(o[i])[mergeKey]})
			}
			i++
		}
	}
	return add, del, nil
}

// sortScalars sorts values by their text, as SortableSliceOfScalars does.
func sortScalars(s []any) []any {
	sort.SliceStable(s, func(i, j int) bool { return fmt.Sprint(s[i]) < fmt.Sprint(s[j]) })
	return s
}

// sortByKey sorts maps by the text of their merge key (sortMapsBasedOnField).
func sortByKey(list []any, mergeKey string) []any {
	out := slices.Clone(list)
	sort.SliceStable(out, func(i, j int) bool {
		return fmt.Sprint(openapi.AsMap(out[i])[mergeKey]) < fmt.Sprint(openapi.AsMap(out[j])[mergeKey])
	})
	return out
}
