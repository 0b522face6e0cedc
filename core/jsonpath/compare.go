package jsonpath

import (
	"errors"
	"fmt"
)

var (
	errBadComparisonType = errors.New("invalid type for comparison")
	errBadComparison     = errors.New("incompatible types for comparison")
)

// kind is the comparison class of a value, as Go's text/template sorts them: an int64 and a
// float64 are different kinds and do not compare, which is why a filter comparing an integer
// field with 30.0 fails while 30 works.
type kind int

const (
	invalidKind kind = iota
	boolKind
	intKind
	uintKind
	floatKind
	stringKind
)

type scalar struct {
	kind kind
	b    bool
	i    int64
	u    uint64
	f    float64
	s    string
}

func scalarOf(v any) (scalar, error) {
	switch v := v.(type) {
	case bool:
		return scalar{kind: boolKind, b: v}, nil
	case int:
		return scalar{kind: intKind, i: int64(v)}, nil
	case int64:
		return scalar{kind: intKind, i: v}, nil
	case uint8:
		return scalar{kind: uintKind, u: uint64(v)}, nil
	case float64:
		return scalar{kind: floatKind, f: v}, nil
	case string:
		return scalar{kind: stringKind, s: v}, nil
	}
	return scalar{}, errBadComparisonType
}

// compare applies a filter operator the way client-go's template functions do. An unknown
// operator is refused before the values are looked at, as client-go's evalFilter switches on
// the operator before it calls a comparison.
func compare(op string, left, right any) (bool, error) {
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
	default:
		return false, fmt.Errorf("unrecognized filter operator %s", op)
	}
	a, err := scalarOf(left)
	if err != nil {
		return false, err
	}
	b, err := scalarOf(right)
	if err != nil {
		return false, err
	}
	switch op {
	case "==":
		return equal(a, b)
	case "!=":
		eq, err := equal(a, b)
		return !eq, err
	case "<":
		return less(a, b)
	case "<=":
		if lt, err := less(a, b); lt || err != nil {
			return lt, err
		}
		return equal(a, b)
	case ">":
		lt, err := less(a, b)
		if err != nil {
			return false, err
		}
		if lt {
			return false, nil
		}
		eq, err := equal(a, b)
		return !eq, err
	default: // ">=", the last of the operators checked above
		lt, err := less(a, b)
		return !lt && err == nil, err
	}
}

func equal(a, b scalar) (bool, error) {
	if a.kind != b.kind {
		switch {
		case a.kind == intKind && b.kind == uintKind:
			return a.i >= 0 && uint64(a.i) == b.u, nil
		case a.kind == uintKind && b.kind == intKind:
			return b.i >= 0 && a.u == uint64(b.i), nil
		}
		return false, errBadComparison
	}
	return a == b, nil
}

func less(a, b scalar) (bool, error) {
	if a.kind != b.kind {
		switch {
		case a.kind == intKind && b.kind == uintKind:
			return a.i < 0 || uint64(a.i) < b.u, nil
		case a.kind == uintKind && b.kind == intKind:
			return b.i >= 0 && a.u < uint64(b.i), nil
		}
		return false, errBadComparison
	}
	switch a.kind {
	case boolKind:
		return false, errBadComparisonType
	case floatKind:
		return a.f < b.f, nil
	case intKind:
		return a.i < b.i, nil
	case uintKind:
		return a.u < b.u, nil
	}
	return a.s < b.s, nil
}
