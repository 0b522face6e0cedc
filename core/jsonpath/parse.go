// Package jsonpath is kubectl's template language for -o jsonpath= and --sort-by, with the
// grammar and the results of client-go's util/jsonpath:
//
//  1. Text outside braces is printed as it is; each {action} is evaluated from the root
//     object (inside range … end, from the current item).
//  2. In an action: .field (a backslash escapes a dot), .* and [*] for every element, ..field
//     for recursive descent, [n], [start:end:step] with negative indices from the end,
//     ['key'], [a,b] unions, [?(@.k == "v")] filters with == != < > <= >= (or a bare path
//     for "exists"), "quoted" and 'quoted' literals with Go escapes, numbers, true and false,
//     @ and $ for the current object, range and end.
//  3. Every value an action yields is printed, separated by spaces: strings as they are,
//     numbers and booleans as Go's fmt prints them (so 1e+06 for a float 1000000), null for
//     null, and maps and lists as compact JSON.
//
// Where client-go walks a Go map, it visits keys in random order; this package visits them
// sorted, so that the same command always prints the same thing.
package jsonpath

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// node is one element of a parsed template.
type node interface{}

type (
	listNode      struct{ nodes []node }
	textNode      struct{ text string }
	fieldNode     struct{ name string }
	identNode     struct{ name string } // range, end
	intNode       struct{ value int }
	floatNode     struct{ value float64 }
	boolNode      struct{ value bool }
	wildcardNode  struct{}
	recursiveNode struct{}
	unionNode     struct{ parts []*listNode }
	arrayNode     struct{ params [3]param }
	filterNode    struct {
		left, right *listNode
		op          string
	}
)

// param is one of start, end and step of a slice.
type param struct {
	value   int
	known   bool
	derived bool // the end of [n], which is n+1
}

// Template is a parsed jsonpath template.
type Template struct {
	root *listNode
}

var (
	errSyntax   = errors.New("invalid syntax")
	dictKey     = regexp.MustCompile(`^'([^']*)'$`)
	sliceParams = regexp.MustCompile(`^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$`)
	comparison  = regexp.MustCompile(`^([^!<>=]+)([!<>=]+)(.+?)$`)
)

// MaxLength bounds a template, so that a pasted novel cannot stall the page.
const MaxLength = 64 << 10

// Parse parses a template, returning client-go's error for a malformed one.
func Parse(text string) (*Template, error) {
	if len(text) > MaxLength {
		return nil, fmt.Errorf("template is longer than %d bytes", MaxLength)
	}
	p := &parser{input: text, root: &listNode{}}
	if err := p.parseText(); err != nil {
		return nil, err
	}
	return &Template{root: p.root}, nil
}

// parseAction parses the inside of one action on its own, as client-go does for the parts of
// unions, ['keys'] and the two sides of a filter.
func parseAction(text string) (*listNode, error) {
	t, err := Parse("{" + text + "}")
	if err != nil {
		return nil, err
	}
	return t.root.nodes[0].(*listNode), nil
}

type parser struct {
	input      string
	pos, start int
	width      int
	root       *listNode
}

const eof = -1

func (p *parser) next() rune {
	if p.pos >= len(p.input) {
		p.width = 0
		return eof
	}
	r, w := utf8.DecodeRuneInString(p.input[p.pos:])
	p.width = w
	p.pos += w
	return r
}

func (p *parser) backup() { p.pos -= p.width }

func (p *parser) peek() rune {
	r := p.next()
	p.backup()
	return r
}

func (p *parser) consume() string {
	s := p.input[p.start:p.pos]
	p.start = p.pos
	return s
}

// parseText reads text up to the next "{" and then the action it opens, until the input ends.
func (p *parser) parseText() error {
	for {
		for !strings.HasPrefix(p.input[p.pos:], "{") {
			if p.next() == eof {
				if p.pos > p.start {
					p.root.nodes = append(p.root.nodes, &textNode{p.consume()})
				}
				return nil
			}
		}
		if p.pos > p.start {
			p.root.nodes = append(p.root.nodes, &textNode{p.consume()})
		}
		p.pos++
		p.consume()
		action := &listNode{}
		p.root.nodes = append(p.root.nodes, action)
		if err := p.parseAction(action); err != nil {
			return err
		}
	}
}

// parseAction reads the elements of one action up to its closing "}".
func (p *parser) parseAction(cur *listNode) error {
	for {
		rest := p.input[p.pos:]
		var err error
		switch {
		case strings.HasPrefix(rest, "}"):
			p.pos++
			p.consume()
			return nil
		case strings.HasPrefix(rest, "[?("):
			err = p.parseFilter(cur)
		case strings.HasPrefix(rest, ".."):
			err = p.parseRecursive(cur)
		default:
			err = p.parseElement(cur)
		}
		if err != nil {
			return err
		}
	}
}

func (p *parser) parseElement(cur *listNode) error {
	switch r := p.next(); {
	case r == eof || r == '\r' || r == '\n':
		return errors.New("unclosed action")
	case r == ' ', r == '@', r == '$':
		p.consume()
		return nil
	case r == '[':
		return p.parseArray(cur)
	case r == '"' || r == '\'':
		return p.parseQuote(cur, r)
	case r == '.':
		return p.parseField(cur)
	case r == '+' || r == '-' || unicode.IsDigit(r):
		p.backup()
		return p.parseNumber(cur)
	case isAlphaNumeric(r):
		p.backup()
		return p.parseIdentifier(cur)
	default:
		return fmt.Errorf("unrecognized character in action: %#U", r)
	}
}

func (p *parser) parseIdentifier(cur *listNode) error {
	for !isTerminator(p.next()) {
	}
	p.backup()
	switch v := p.consume(); v {
	case "true", "false":
		cur.nodes = append(cur.nodes, &boolNode{v == "true"})
	default:
		cur.nodes = append(cur.nodes, &identNode{v})
	}
	return nil
}

func (p *parser) parseRecursive(cur *listNode) error {
	if n := len(cur.nodes); n > 0 {
		if _, ok := cur.nodes[n-1].(*recursiveNode); ok {
			return errors.New("invalid multiple recursive descent")
		}
	}
	p.pos += 2
	p.consume()
	cur.nodes = append(cur.nodes, &recursiveNode{})
	if isAlphaNumeric(p.peek()) {
		return p.parseField(cur)
	}
	return nil
}

func (p *parser) parseNumber(cur *listNode) error {
	if r := p.peek(); r == '+' || r == '-' {
		p.next()
	}
	for {
		if r := p.next(); r != '.' && !unicode.IsDigit(r) {
			p.backup()
			break
		}
	}
	v := p.consume()
	if i, err := strconv.Atoi(v); err == nil {
		cur.nodes = append(cur.nodes, &intNode{i})
		return nil
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		cur.nodes = append(cur.nodes, &floatNode{f})
		return nil
	}
	return fmt.Errorf("cannot parse number %s", v)
}

// parseArray reads [..] up to the first "]": a union, a 'key', or a slice.
func (p *parser) parseArray(cur *listNode) error {
	for r := p.next(); r != ']'; r = p.next() {
		if r == eof || r == '\n' {
			return errors.New("unterminated array")
		}
	}
	text := p.consume()
	text = text[1 : len(text)-1]
	if text == "*" {
		text = ":"
	}
	if parts := strings.Split(text, ","); len(parts) > 1 {
		union := &unionNode{}
		for _, part := range parts {
			l, err := parseAction("[" + strings.Trim(part, " ") + "]")
			if err != nil {
				return err
			}
			union.parts = append(union.parts, l)
		}
		cur.nodes = append(cur.nodes, union)
		return nil
	}
	if key := dictKey.FindStringSubmatch(text); key != nil {
		l, err := parseAction("." + key[1])
		if err != nil {
			return err
		}
		cur.nodes = append(cur.nodes, l.nodes...)
		return nil
	}
	m := sliceParams.FindStringSubmatch(text)
	if m == nil {
		return fmt.Errorf("invalid array index %s", text)
	}
	var params [3]param
	for i, s := range m[1:] {
		switch {
		case s == "" && i == 1:
			params[1] = param{value: params[0].value + 1, known: true, derived: true}
		case s == "":
		case i > 0 && s == ":":
		default:
			if i > 0 {
				s = s[1:]
			}
			v, err := strconv.Atoi(s)
			if err != nil {
				return fmt.Errorf("array index %s is not a number", s)
			}
			params[i] = param{value: v, known: true}
		}
	}
	cur.nodes = append(cur.nodes, &arrayNode{params})
	return nil
}

// parseFilter reads [?(left op right)] or [?(path)], quotes protecting ")".
func (p *parser) parseFilter(cur *listNode) error {
	p.pos += 3
	p.consume()
	begin, end := false, false
	var pair rune
scan:
	for {
		r := p.next()
		switch r {
		case eof, '\n':
			return errors.New("unterminated filter")
		case '"', '\'':
			if !begin {
				begin, pair = true, r
				continue
			}
			if p.input[p.pos-2] != '\\' && r == pair {
				end = true
			}
		case ')':
			if begin == end {
				break scan
			}
		}
	}
	if p.next() != ']' {
		return errors.New("unclosed array expect ]")
	}
	text := p.consume()
	text = text[:len(text)-2]
	m := comparison.FindStringSubmatch(text)
	if m == nil {
		l, err := parseAction(text)
		if err != nil {
			return err
		}
		cur.nodes = append(cur.nodes, &filterNode{left: l, right: &listNode{}, op: "exists"})
		return nil
	}
	left, err := parseAction(m[1])
	if err != nil {
		return err
	}
	right, err := parseAction(m[3])
	if err != nil {
		return err
	}
	cur.nodes = append(cur.nodes, &filterNode{left: left, right: right, op: m[2]})
	return nil
}

func (p *parser) parseQuote(cur *listNode, quote rune) error {
	for {
		switch p.next() {
		case eof, '\n':
			return errors.New("unterminated quoted string")
		case quote:
			if p.input[p.pos-2] != '\\' {
				v := p.consume()
				s, err := unquote(v)
				if err != nil {
					return fmt.Errorf("unquote string %s error %v", v, err)
				}
				cur.nodes = append(cur.nodes, &textNode{s})
				return nil
			}
		}
	}
}

func (p *parser) parseField(cur *listNode) error {
	p.consume()
	for {
		r := p.next()
		if r == '\\' {
			p.next()
			continue
		}
		if isTerminator(r) {
			p.backup()
			break
		}
	}
	switch v := p.consume(); v {
	case "*":
		cur.nodes = append(cur.nodes, &wildcardNode{})
	default:
		cur.nodes = append(cur.nodes, &fieldNode{strings.ReplaceAll(v, `\`, "")})
	}
	return nil
}

// isTerminator reports whether r ends a field name or an identifier.
func isTerminator(r rune) bool {
	switch r {
	case ' ', '\t', '\r', '\n', eof, '.', ',', '[', ']', '$', '@', '{', '}':
		return true
	}
	return false
}

func isAlphaNumeric(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// unquote is strconv.Unquote that also takes single-quoted strings of any length.
func unquote(s string) (string, error) {
	n := len(s)
	if n < 2 || s[0] != s[n-1] || (s[0] != '"' && s[0] != '\'') {
		return "", errSyntax
	}
	quote := s[0]
	s = s[1 : n-1]
	if !strings.ContainsRune(s, '\\') && !strings.ContainsRune(s, rune(quote)) {
		return s, nil
	}
	var b []byte
	for len(s) > 0 {
		c, multibyte, rest, err := strconv.UnquoteChar(s, quote)
		if err != nil {
			return "", err
		}
		s = rest
		if c < utf8.RuneSelf || !multibyte {
			b = append(b, byte(c))
		} else {
			b = utf8.AppendRune(b, c)
		}
	}
	return string(b), nil
}
