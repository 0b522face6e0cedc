package api

import (
	"fmt"
	"sort"
	"strings"
)

// FieldSelector is a parsed field selector (apimachinery fields.ParseSelector):
//
//  1. Terms are separated by commas (a backslash-escaped comma is data) and sorted.
//  2. Each term is field!=value, field==value or field=value, the first operator found.
//  3. In a value, \\, \, and \= stand for themselves; any other escape, or an unescaped "="
//     or ",", is an error.
//  4. A term with neither field nor value selects everything.
type FieldSelector []FieldTerm

// FieldTerm is one field=value or field!=value term.
type FieldTerm struct {
	Field, Value string
	Not          bool
}

// ParseFieldSelector parses a field selector, with apimachinery's error messages.
func ParseFieldSelector(s string) (FieldSelector, error) {
	var terms []string
	start, inSlash := 0, false
	for i, c := range s {
		switch {
		case inSlash:
			inSlash = false
		case c == '\\':
			inSlash = true
		case c == ',':
			terms = append(terms, s[start:i])
			start = i + 1
		}
	}
	if s != "" {
		terms = append(terms, s[start:])
	}
	sort.Strings(terms)
	var sel FieldSelector
	for _, term := range terms {
		if term == "" {
			continue
		}
		field, op, value, ok := splitFieldTerm(term)
		if !ok {
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", s, term)
		}
		v, err := unescapeFieldValue(value)
		if err != nil {
			return nil, err
		}
		if field == "" && v == "" {
			continue // "=" and "!=" alone select everything
		}
		sel = append(sel, FieldTerm{Field: field, Value: v, Not: op == "!="})
	}
	return sel, nil
}

func splitFieldTerm(term string) (field, op, value string, ok bool) {
	for i := range term {
		for _, op := range []string{"!=", "==", "="} {
			if strings.HasPrefix(term[i:], op) {
				return term[:i], op, term[i+len(op):], true
			}
		}
	}
	return "", "", "", false
}

func unescapeFieldValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil
	}
	var b strings.Builder
	inSlash := false
	for _, c := range s {
		switch {
		case inSlash && (c == '\\' || c == ',' || c == '='):
			b.WriteRune(c)
			inSlash = false
		case inSlash:
			return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", string([]rune{'\\', c}))
		case c == '\\':
			inSlash = true
		case c == ',' || c == '=':
			return "", fmt.Errorf("invalid field selector: unescaped character in value: %v", c)
		default:
			b.WriteRune(c)
		}
	}
	if inSlash {
		return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", `\`)
	}
	return b.String(), nil
}

// Matches reports whether an object with these field values satisfies every term.
func (sel FieldSelector) Matches(fields map[string]string) bool {
	for _, t := range sel {
		if (fields[t.Field] == t.Value) == t.Not {
			return false
		}
	}
	return true
}
