package api

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Operator is a selector operator. The string form (kubectl -l) uses the lowercase spellings; the
// API's LabelSelector uses In, NotIn, Exists and DoesNotExist.
type Operator string

const (
	OpDoesNotExist Operator = "!"
	OpEquals       Operator = "="
	OpDoubleEquals Operator = "=="
	OpIn           Operator = "in"
	OpNotEquals    Operator = "!="
	OpNotIn        Operator = "notin"
	OpExists       Operator = "exists"
	OpGreaterThan  Operator = "gt"
	OpLessThan     Operator = "lt"
)

var requirementOperators = []Operator{OpDoesNotExist, OpEquals, OpDoubleEquals, OpIn, OpNotEquals, OpNotIn, OpExists, OpGreaterThan, OpLessThan}

// Requirement is one condition of a label selector: key, operator, values.
type Requirement struct {
	Key      string
	Operator Operator
	Values   []string // sorted and unique when parsed from a string
}

// NewRequirement validates and builds a requirement, as labels.NewRequirement:
//
//  1. The key must be a label key.
//  2. in and notin need at least one value; =, == and != exactly one; exists and ! none;
//     gt and lt exactly one integer.
//  3. Every value must be a label value.
func NewRequirement(key string, op Operator, vals []string, path *Path) (Requirement, error) {
	var errs ErrorList
	keyPath, valuePath := path.Child("key"), path.Child("values")
	if msgs := IsLabelKey(key); len(msgs) > 0 {
		errs = append(errs, Invalid(keyPath, key, strings.Join(msgs, "; ")))
	}
	switch op {
	case OpIn, OpNotIn:
		if len(vals) == 0 {
			errs = append(errs, Invalid(valuePath, vals, "for 'in', 'notin' operators, values set can't be empty"))
		}
	case OpEquals, OpDoubleEquals, OpNotEquals:
		if len(vals) != 1 {
			errs = append(errs, Invalid(valuePath, vals, "exact-match compatibility requires one single value"))
		}
	case OpExists, OpDoesNotExist:
		if len(vals) != 0 {
			errs = append(errs, Invalid(valuePath, vals, "values set must be empty for exists and does not exist"))
		}
	case OpGreaterThan, OpLessThan:
		if len(vals) != 1 {
			errs = append(errs, Invalid(valuePath, vals, "for 'Gt', 'Lt' operators, exactly one value is required"))
		}
		for i, v := range vals {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				errs = append(errs, Invalid(valuePath.Index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"))
			}
		}
	default:
		errs = append(errs, NotSupported(path.Child("operator"), string(op), requirementOperators))
	}
	for i, v := range vals {
		if msgs := IsLabelValue(v); len(msgs) > 0 {
			errs = append(errs, Invalid(valuePath.Index(i).Key(key), v, strings.Join(msgs, "; ")))
		}
	}
	r := Requirement{Key: key, Operator: op, Values: vals}
	if len(errs) > 0 {
		return r, errs
	}
	return r, nil
}

// Matches reports whether labels satisfy r:
//
//  1. exists: the key is present; !: it is absent.
//  2. in, =, ==: the key is present and its value is one of the values.
//  3. notin, !=: the key is absent, or its value is none of the values.
//  4. gt, lt: the key is present, both sides are integers, and the inequality holds.
func (r Requirement) Matches(labels map[string]string) bool {
	val, ok := labels[r.Key]
	switch r.Operator {
	case OpIn, OpEquals, OpDoubleEquals:
		return ok && slices.Contains(r.Values, val)
	case OpNotIn, OpNotEquals:
		return !ok || !slices.Contains(r.Values, val)
	case OpExists:
		return ok
	case OpDoesNotExist:
		return !ok
	case OpGreaterThan, OpLessThan:
		if !ok || len(r.Values) != 1 {
			return false
		}
		have, err1 := strconv.ParseInt(val, 10, 64)
		want, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		return r.Operator == OpGreaterThan && have > want || r.Operator == OpLessThan && have < want
	}
	return false
}

// String renders r in the string form: "app=web", "tier in (a,b)", "!legacy".
func (r Requirement) String() string {
	var b strings.Builder
	if r.Operator == OpDoesNotExist {
		b.WriteString("!")
	}
	b.WriteString(r.Key)
	switch r.Operator {
	case OpEquals, OpDoubleEquals, OpNotEquals:
		b.WriteString(string(r.Operator))
	case OpIn, OpNotIn:
		b.WriteString(" " + string(r.Operator) + " (")
	case OpGreaterThan:
		b.WriteString(">")
	case OpLessThan:
		b.WriteString("<")
	default:
		return b.String()
	}
	vals := slices.Clone(r.Values)
	sort.Strings(vals)
	b.WriteString(strings.Join(vals, ","))
	if r.Operator == OpIn || r.Operator == OpNotIn {
		b.WriteString(")")
	}
	return b.String()
}

// Selector is a conjunction of requirements, sorted by key. The nil Selector matches nothing;
// a non-nil empty one matches everything.
type Selector struct {
	Requirements []Requirement
	nothing      bool
}

// Everything returns the selector that matches every set of labels.
func Everything() Selector { return Selector{} }

// Nothing returns the selector that matches no labels (a nil LabelSelector).
func Nothing() Selector { return Selector{nothing: true} }

// Matches reports whether every requirement matches labels.
func (s Selector) Matches(labels map[string]string) bool {
	if s.nothing {
		return false
	}
	for _, r := range s.Requirements {
		if !r.Matches(labels) {
			return false
		}
	}
	return true
}

// Empty reports whether s matches everything.
func (s Selector) Empty() bool { return !s.nothing && len(s.Requirements) == 0 }

// String renders s in the string form, requirements joined by commas.
func (s Selector) String() string {
	parts := make([]string, len(s.Requirements))
	for i, r := range s.Requirements {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// sortByKey sorts with sort.Sort, as labels does: requirements with equal keys end up in the
// same (unstable) order as upstream's.
func (s *Selector) sortByKey() { sort.Sort(byKey(s.Requirements)) }

type byKey []Requirement

func (a byKey) Len() int           { return len(a) }
func (a byKey) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a byKey) Less(i, j int) bool { return a[i].Key < a[j].Key }

// SelectorFromSet returns the selector requiring every key=value of set.
func SelectorFromSet(set map[string]string) Selector {
	var s Selector
	for _, k := range slices.Sorted(maps.Keys(set)) {
		s.Requirements = append(s.Requirements, Requirement{Key: k, Operator: OpEquals, Values: []string{set[k]}})
	}
	return s
}

// FormatLabels renders labels as kubectl prints them: k=v pairs sorted by key joined by commas,
// "<none>" when there are none.
func FormatLabels(labels map[string]string) string {
	if len(labels) == 0 {
		return "<none>"
	}
	parts := make([]string, 0, len(labels))
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		parts = append(parts, k+"="+labels[k])
	}
	return strings.Join(parts, ",")
}

// LabelSelectorAsSelector converts the API's LabelSelector, as metav1.LabelSelectorAsSelector:
//
//  1. nil matches nothing; an empty selector matches everything.
//  2. matchLabels become = requirements, matchExpressions In/NotIn/Exists/DoesNotExist the
//     corresponding ones; any other operator is an error.
func LabelSelectorAsSelector(ls *LabelSelector) (Selector, error) {
	if ls == nil {
		return Nothing(), nil
	}
	var s Selector
	for _, k := range slices.Sorted(maps.Keys(ls.MatchLabels)) {
		r, err := NewRequirement(k, OpEquals, []string{ls.MatchLabels[k]}, nil)
		if err != nil {
			return Selector{}, err
		}
		s.Requirements = append(s.Requirements, r)
	}
	for _, e := range ls.MatchExpressions {
		var op Operator
		switch e.Operator {
		case LabelSelectorOpIn:
			op = OpIn
		case LabelSelectorOpNotIn:
			op = OpNotIn
		case LabelSelectorOpExists:
			op = OpExists
		case LabelSelectorOpDoesNotExist:
			op = OpDoesNotExist
		default:
			return Selector{}, fmt.Errorf("%q is not a valid label selector operator", e.Operator)
		}
		r, err := NewRequirement(e.Key, op, slices.Clone(e.Values), nil)
		if err != nil {
			return Selector{}, err
		}
		s.Requirements = append(s.Requirements, r)
	}
	s.sortByKey()
	return s, nil
}

// FormatLabelSelector renders a LabelSelector as kubectl's SELECTOR column: the string form,
// "<none>" when empty, "<error>" when invalid.
func FormatLabelSelector(ls *LabelSelector) string {
	s, err := LabelSelectorAsSelector(ls)
	if err != nil {
		return "<error>"
	}
	if out := s.String(); out != "" {
		return out
	}
	return "<none>"
}

// WithLabelKeys is ls with, for each of keys that labels has, the requirement "key op (its
// value)" appended to matchExpressions, as the API server merges a pod's matchLabelKeys (op In)
// and mismatchLabelKeys (op NotIn) into a selector of its spec (applyLabelKeysToLabelSelector
// in pkg/registry/core/pod/strategy.go). ls itself is left as it was; a nil ls stays nil (it
// matches nothing either way), and without keys the result is ls.
func WithLabelKeys(ls *LabelSelector, keys []string, op LabelSelectorOperator, labels map[string]string) *LabelSelector {
	if ls == nil || len(keys) == 0 {
		return ls
	}
	merged := *ls
	merged.MatchExpressions = slices.Clip(ls.MatchExpressions)
	for _, k := range keys {
		if v, ok := labels[k]; ok {
			merged.MatchExpressions = append(merged.MatchExpressions, LabelSelectorRequirement{Key: k, Operator: op, Values: []string{v}})
		}
	}
	return &merged
}
