package api

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Path is a field path as the API server prints it: spec.template.spec.containers[0].image.
type Path struct {
	parent *Path
	name   string // a field name, or "" for an index or key step
	index  string // "[0]" or "[key]" for an index or key step
}

// NewPath returns the path of a top-level field.
func NewPath(name string, more ...string) *Path {
	p := &Path{name: name}
	for _, m := range more {
		p = p.Child(m)
	}
	return p
}

// Child returns the path of a field below p.
func (p *Path) Child(name string, more ...string) *Path {
	c := &Path{parent: p, name: name}
	for _, m := range more {
		c = c.Child(m)
	}
	return c
}

// Index returns the path of element i of the list at p.
func (p *Path) Index(i int) *Path { return &Path{parent: p, index: "[" + strconv.Itoa(i) + "]"} }

// Key returns the path of entry k of the map at p.
func (p *Path) Key(k string) *Path { return &Path{parent: p, index: "[" + k + "]"} }

// String renders the path: names joined by dots, indexes and keys in brackets.
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	var parts []*Path
	for q := p; q != nil; q = q.parent {
		parts = append(parts, q)
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		q := parts[i]
		if q.index != "" {
			b.WriteString(q.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(q.name)
	}
	return b.String()
}

// ErrorType is the kind of a field error; the values are the API's cause types.
type ErrorType string

const (
	ErrorTypeNotFound     ErrorType = "FieldValueNotFound"
	ErrorTypeRequired     ErrorType = "FieldValueRequired"
	ErrorTypeDuplicate    ErrorType = "FieldValueDuplicate"
	ErrorTypeInvalid      ErrorType = "FieldValueInvalid"
	ErrorTypeNotSupported ErrorType = "FieldValueNotSupported"
	ErrorTypeForbidden    ErrorType = "FieldValueForbidden"
	ErrorTypeTooLong      ErrorType = "FieldValueTooLong"
	ErrorTypeTooMany      ErrorType = "FieldValueTooMany"
)

// String is the type as it appears in a message.
func (t ErrorType) String() string {
	switch t {
	case ErrorTypeNotFound:
		return "Not found"
	case ErrorTypeRequired:
		return "Required value"
	case ErrorTypeDuplicate:
		return "Duplicate value"
	case ErrorTypeInvalid:
		return "Invalid value"
	case ErrorTypeNotSupported:
		return "Unsupported value"
	case ErrorTypeForbidden:
		return "Forbidden"
	case ErrorTypeTooLong:
		return "Too long"
	case ErrorTypeTooMany:
		return "Too many"
	}
	return string(t)
}

// FieldError is one problem with one field, as apimachinery's field.Error.
type FieldError struct {
	Type     ErrorType
	Field    string
	BadValue any
	Detail   string
}

// Error renders "<field>: <body>".
func (e *FieldError) Error() string { return e.Field + ": " + e.Body() }

// Body renders the message without the field, following apimachinery's ErrorBody:
//
//  1. Required, Forbidden and Too long print no value.
//  2. int64, int32, float64, float32 and bool values print bare, strings print quoted (%q).
//  3. Anything else prints as JSON (Kubernetes v1.34 and later).
//  4. A non-empty detail follows after ": ".
func (e *FieldError) Body() string {
	s := e.Type.String()
	switch e.Type {
	case ErrorTypeRequired, ErrorTypeForbidden, ErrorTypeTooLong:
	default:
		switch v := e.BadValue.(type) {
		case int64, int32, float64, float32, bool:
			s += fmt.Sprintf(": %v", v)
		case string:
			s += fmt.Sprintf(": %q", v)
		default:
			b, err := json.Marshal(v)
			if err != nil {
				b = []byte(fmt.Sprint(v))
			}
			s += ": " + string(b)
		}
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Invalid reports a malformed value.
func Invalid(p *Path, value any, detail string) *FieldError {
	return &FieldError{ErrorTypeInvalid, p.String(), value, detail}
}

// Required reports a missing value.
func Required(p *Path, detail string) *FieldError {
	return &FieldError{ErrorTypeRequired, p.String(), "", detail}
}

// Forbidden reports a value that is not allowed here.
func Forbidden(p *Path, detail string) *FieldError {
	return &FieldError{ErrorTypeForbidden, p.String(), "", detail}
}

// Duplicate reports a value that must be unique.
func Duplicate(p *Path, value any) *FieldError {
	return &FieldError{ErrorTypeDuplicate, p.String(), value, ""}
}

// NotSupported reports a value outside an enumeration, listing the supported values quoted.
func NotSupported[T ~string](p *Path, value any, valid []T) *FieldError {
	quoted := make([]string, len(valid))
	for i, v := range valid {
		quoted[i] = strconv.Quote(string(v))
	}
	detail := ""
	if len(valid) > 0 {
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	return &FieldError{ErrorTypeNotSupported, p.String(), value, detail}
}

// ErrorList is the result of validating an object; the order is the order of the checks.
type ErrorList []*FieldError

// Dedupe drops repeated messages, keeping the first, as ErrorList.ToAggregate does (and kubectl's
// statusCausesToAggrError with a refusal's causes).
func (l ErrorList) Dedupe() ErrorList {
	seen := map[string]bool{}
	var out ErrorList
	for _, e := range l {
		if msg := e.Error(); !seen[msg] {
			seen[msg] = true
			out = append(out, e)
		}
	}
	return out
}

// Error renders the list as an aggregate: one message, or several in brackets.
func (l ErrorList) Error() string {
	l = l.Dedupe()
	if len(l) == 1 {
		return l[0].Error()
	}
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}
