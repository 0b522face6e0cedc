package api

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// ScalarKind is what YAML v2 reads an unquoted scalar as.
type ScalarKind int

// The kinds of unquoted scalars.
const (
	ScalarString ScalarKind = iota
	ScalarNull
	ScalarBool
	ScalarInt
	ScalarFloat
	ScalarTimestamp
)

// Scalar is an unquoted scalar as YAML v2 reads it: its kind and, for a boolean or a number,
// its value (an int beyond int64 is Uint).
type Scalar struct {
	Kind     ScalarKind
	Bool     bool
	Int      int64
	Uint     uint64
	Unsigned bool // the value is Uint
	Float    float64
}

// ResolvePlain reads an unquoted scalar as YAML v2 (go.yaml.in/yaml/v2, kubectl's YAML library
// through sigs.k8s.io/yaml) does, by YAML 1.1's rules in resolve.go's order:
//
//  1. Only a text that starts with a sign, a digit, a '.' or one of yYnNtTfFoO~ can be other
//     than a string (so "<<" is a string).
//  2. "", ~, null, Null, NULL are null; y, yes, on, true and n, no, off, false (lower, Title and
//     UPPER case) are booleans; .inf, .nan and the signed infinities are floats.
//  3. A text starting with '.' is a float when strconv reads one.
//  4. A text starting with a sign or a digit is a timestamp (four digits and a dash, then a
//     date, with or without a time); else, its underscores dropped, an int64 (0x, 0o and
//     0-prefixed octal included), a uint64, a float of the form ±(.d+|d+(.d*)?)(e±d+)?, or a
//     0b/-0b binary int.
//  5. Anything else is a string.
func ResolvePlain(s string) Scalar {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return Scalar{Kind: ScalarNull}
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return Scalar{Kind: ScalarBool, Bool: true}
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return Scalar{Kind: ScalarBool}
	case ".nan", ".NaN", ".NAN":
		return Scalar{Kind: ScalarFloat, Float: math.NaN()}
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return Scalar{Kind: ScalarFloat, Float: math.Inf(1)}
	case "-.inf", "-.Inf", "-.INF":
		return Scalar{Kind: ScalarFloat, Float: math.Inf(-1)}
	}
	switch c := s[0]; {
	case c == '.':
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return Scalar{Kind: ScalarFloat, Float: f}
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if isTimestamp(s) {
			return Scalar{Kind: ScalarTimestamp}
		}
		plain := strings.ReplaceAll(s, "_", "")
		if n, ok := ParseYAMLNumber(plain); ok {
			return n
		}
		if bin, ok := strings.CutPrefix(plain, "0b"); ok {
			if i, err := strconv.ParseInt(bin, 2, 64); err == nil {
				return Scalar{Kind: ScalarInt, Int: i}
			}
			if u, err := strconv.ParseUint(bin, 2, 64); err == nil {
				return Scalar{Kind: ScalarInt, Uint: u, Unsigned: true}
			}
		} else if bin, ok := strings.CutPrefix(plain, "-0b"); ok {
			if i, err := strconv.ParseInt("-"+bin, 2, 64); err == nil {
				return Scalar{Kind: ScalarInt, Int: i}
			}
		}
	}
	return Scalar{Kind: ScalarString}
}

// ParseYAMLNumber is step 4's number: an int64, a uint64, or a float of YAML's form.
func ParseYAMLNumber(s string) (Scalar, bool) {
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		return Scalar{Kind: ScalarInt, Int: i}, true
	}
	if u, err := strconv.ParseUint(s, 0, 64); err == nil {
		return Scalar{Kind: ScalarInt, Uint: u, Unsigned: true}, true
	}
	if yamlStyleFloat(s) {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return Scalar{Kind: ScalarFloat, Float: f}, true
		}
	}
	return Scalar{}, false
}

// IntText is an int scalar's value in decimal.
func (n Scalar) IntText() string {
	if n.Unsigned {
		return strconv.FormatUint(n.Uint, 10)
	}
	return strconv.FormatInt(n.Int, 10)
}

// IsBase60Float matches YAML 1.1's sexagesimal floats, ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$,
// which YAML v2 quotes though it no longer reads them.
func IsBase60Float(s string) bool {
	if !strings.Contains(s, ":") {
		return false
	}
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	s = strings.TrimLeft(s, "0123456789_")
	groups := 0
	for strings.HasPrefix(s, ":") {
		n := digits(s[1:])
		if n == 0 || n > 2 || n == 2 && s[1] > '5' {
			return false
		}
		s = s[1+n:]
		groups++
	}
	if rest, ok := strings.CutPrefix(s, "."); ok {
		s = strings.TrimLeft(rest, "0123456789_")
	}
	return groups > 0 && s == ""
}

// yamlTimestamps are the layouts YAML v2 reads a timestamp in.
var yamlTimestamps = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isTimestamp: four digits and a dash, then one of yamlTimestamps.
func isTimestamp(s string) bool {
	if len(s) < 5 || strings.IndexFunc(s[:4], func(r rune) bool { return r < '0' || r > '9' }) >= 0 || s[4] != '-' {
		return false
	}
	for _, layout := range yamlTimestamps {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// yamlStyleFloat matches ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func yamlStyleFloat(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if rest, ok := strings.CutPrefix(s, "."); ok {
		n := digits(rest)
		if n == 0 {
			return false
		}
		s = rest[n:]
	} else {
		n := digits(s)
		if n == 0 {
			return false
		}
		s = s[n:]
		if rest, ok := strings.CutPrefix(s, "."); ok {
			s = rest[digits(rest):]
		}
	}
	if s == "" {
		return true
	}
	if s[0] != 'e' && s[0] != 'E' {
		return false
	}
	s = s[1:]
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	n := digits(s)
	return n > 0 && n == len(s)
}

// digits is the length of s's leading run of ASCII digits.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
