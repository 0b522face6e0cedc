package kubectl

import (
	"fmt"
	"regexp"
	"sort"

	"daemonlab/core/api"
	"daemonlab/core/jsonpath"
)

// --sort-by, as kubectl's sorter.go does it:
//
//  1. The field may be written name1.name2, .name1.name2, {name1.name2} or {.name1.name2}
//     (RelaxedJSONPathExpression); anything else is used as a template as it is.
//  2. Each object yields the first value of the template (missing keys allowed); if no object
//     of a non-empty list has one, kubectl fails with "couldn't find any field with path".
//  3. Objects without a value sort first; integers, floats and strings compare with their own
//     kind, strings as quantities when both parse as one ("100Mi" < "1Gi"), otherwise as text.
//  4. The sort is sort.Sort's (not stable), on the list in the API server's order, so equal
//     values come out as kubectl would put them.
//  5. A table sorts per resource type; -o yaml/json/jsonpath sort the whole List.

// relaxedPath is RelaxedJSONPathExpression's pattern: a.b, .a.b, {a.b} or {.a.b}.
var relaxedPath = regexp.MustCompile(`^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`)

// sortTemplate parses a --sort-by field.
func sortTemplate(field string) (*jsonpath.Template, string, error) {
	if m := relaxedPath.FindStringSubmatch(field); m != nil {
		field = "{." + m[1] + m[2] + "}"
	}
	t, err := jsonpath.Parse(field)
	if err != nil {
		return nil, field, fmt.Errorf("error: %v", err)
	}
	return t, field, nil
}

// byField sorts by the values of a --sort-by field, swapping the caller's items along.
type byField struct {
	values [][]any
	swap   func(i, j int)
	err    error
	field  string
}

func (s *byField) Len() int { return len(s.values) }

func (s *byField) Swap(i, j int) {
	s.values[i], s.values[j] = s.values[j], s.values[i]
	s.swap(i, j)
}

func (s *byField) Less(i, j int) bool {
	a, b := s.values[i], s.values[j]
	if len(a) == 0 {
		return true
	}
	if len(b) == 0 {
		return false
	}
	less, err := isLess(a[0], b[0])
	if err != nil && s.err == nil {
		s.err = fmt.Errorf("error: Field %s in [][][]reflect.Value is an unsortable type: interface, err: %v", s.field, err)
	}
	return less
}

// sortItems sorts n items, item(i) giving the i-th as a structured object, calling swap to
// move the caller's items along.
func sortItems(field string, n int, item func(i int) map[string]any, swap func(i, j int)) error {
	if n == 0 {
		return nil
	}
	t, field, err := sortTemplate(field)
	if err != nil {
		return err
	}
	s := &byField{swap: swap, field: field}
	found := false
	for i := 0; i < n; i++ {
		vs, err := t.Values(unstructured(item(i)), jsonpath.Options{AllowMissingKeys: true})
		if err != nil {
			return fmt.Errorf("error: %v", err)
		}
		found = found || len(vs) > 0
		s.values = append(s.values, vs)
	}
	if !found {
		return fmt.Errorf("error: couldn't find any field with path %q in the list of objects", field)
	}
	sort.Sort(s)
	return s.err
}

// isLess is kubectl's comparison of two sort values.
func isLess(a, b any) (bool, error) {
	switch {
	case a == nil && b == nil:
		return false, nil
	case a == nil:
		return true, nil
	case b == nil:
		return false, nil
	}
	switch a := a.(type) {
	case int64:
		if b, ok := b.(int64); ok {
			return a < b, nil
		}
	case float64:
		if b, ok := b.(float64); ok {
			return a < b, nil
		}
	case string:
		if b, ok := b.(string); ok {
			qa, errA := api.ParseQuantity(a)
			qb, errB := api.ParseQuantity(b)
			if errA != nil || errB != nil {
				return a < b, nil
			}
			return qa.Cmp(qb) < 0, nil
		}
	default:
		return false, fmt.Errorf("unsortable type: %T", a)
	}
	return false, fmt.Errorf("unsortable interface: interface")
}
