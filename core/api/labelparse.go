package api

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// selToken is a token of the selector string form.
type selToken int

const (
	tokEnd selToken = iota
	tokError
	tokIdent
	tokNot       // !
	tokEquals    // =
	tokDouble    // ==
	tokNotEquals // !=
	tokGreater   // >
	tokLess      // <
	tokIn        // in
	tokNotIn     // notin
	tokOpen      // (
	tokClose     // )
	tokComma     // ,
)

var selSymbols = map[string]selToken{"!": tokNot, "=": tokEquals, "==": tokDouble, "!=": tokNotEquals, ">": tokGreater, "<": tokLess, "(": tokOpen, ")": tokClose, ",": tokComma}

type selItem struct {
	tok selToken
	lit string
}

func isSelSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSelSymbol(c byte) bool { return strings.IndexByte("=!(),><", c) >= 0 }

// lexSelector splits the string form into tokens, as labels.Lexer: runs of symbols take the
// longest operator they start with; anything else up to a symbol or a space is an identifier
// (or the keyword in / notin).
func lexSelector(s string) []selItem {
	// labels.Lexer reads a NUL byte as "no more input": where a token would start it ends the
	// input, inside a token it ends the token and is skipped.
	var items []selItem
	i := 0
	for {
		for i < len(s) && isSelSpace(s[i]) {
			i++
		}
		if i == len(s) || s[i] == 0 {
			return append(items, selItem{tokEnd, ""})
		}
		if isSelSymbol(s[i]) {
			start, best, bestEnd := i, selItem{}, i
			for i < len(s) && isSelSymbol(s[i]) {
				i++
				if t, ok := selSymbols[s[start:i]]; ok {
					best, bestEnd = selItem{t, s[start:i]}, i
				} else if best.tok != tokEnd {
					break
				}
			}
			stoppedAtNUL := i < len(s) && s[i] == 0 && (best.tok == tokEnd || bestEnd == i)
			if best.tok == tokEnd {
				items = append(items, selItem{tokError, fmt.Sprintf("error expected: keyword found '%s'", s[start:i])})
				i += btoi(stoppedAtNUL)
				continue
			}
			i = bestEnd + btoi(stoppedAtNUL)
			items = append(items, best)
			continue
		}
		start := i
		for i < len(s) && s[i] != 0 && !isSelSymbol(s[i]) && !isSelSpace(s[i]) {
			i++
		}
		word := s[start:i]
		if i < len(s) && s[i] == 0 {
			i++
		}
		switch word {
		case "in":
			items = append(items, selItem{tokIn, word})
		case "notin":
			items = append(items, selItem{tokNotIn, word})
		default:
			items = append(items, selItem{tokIdent, word})
		}
	}
}

// selParser is a recursive-descent parser over the tokens; in value position the keywords in and
// notin are identifiers.
type selParser struct {
	items []selItem
	pos   int
}

func (p *selParser) peek(values bool) selItem {
	it := p.items[p.pos]
	if values && (it.tok == tokIn || it.tok == tokNotIn) {
		it.tok = tokIdent
	}
	return it
}

func (p *selParser) next(values bool) selItem {
	it := p.peek(values)
	p.pos++
	return it
}

// ParseSelector parses the string form kubectl takes with -l, as labels.Parse:
//
//	selector    ::= requirement | requirement "," selector
//	requirement ::= [!] KEY [ ("in" | "notin") "(" VALUES ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
//
// A bare KEY means exists, !KEY does not exist; values may be empty; the result is sorted by key.
func ParseSelector(s string) (Selector, error) {
	p := &selParser{items: lexSelector(s)}
	var sel Selector
	for {
		it := p.peek(true)
		switch it.tok {
		case tokIdent, tokNot:
			r, err := p.requirement()
			if err != nil {
				return Selector{}, fmt.Errorf("unable to parse requirement: %v", err)
			}
			sel.Requirements = append(sel.Requirements, r)
			switch after := p.next(true); after.tok {
			case tokEnd:
				sel.sortByKey()
				return sel, nil
			case tokComma:
				if t := p.peek(true); t.tok != tokIdent && t.tok != tokNot {
					return Selector{}, fmt.Errorf("found '%s', expected: identifier after ','", t.lit)
				}
			default:
				return Selector{}, fmt.Errorf("found '%s', expected: ',' or 'end of string'", after.lit)
			}
		case tokEnd:
			sel.sortByKey()
			return sel, nil
		default:
			return Selector{}, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", it.lit)
		}
	}
}

func (p *selParser) requirement() (Requirement, error) {
	var op Operator
	it := p.next(true)
	if it.tok == tokNot {
		op = OpDoesNotExist
		it = p.next(true)
	}
	if it.tok != tokIdent {
		return Requirement{}, fmt.Errorf("found '%s', expected: identifier", it.lit)
	}
	key := it.lit
	if msgs := IsLabelKey(key); len(msgs) > 0 {
		return Requirement{}, &FieldError{ErrorTypeInvalid, "<nil>", key, strings.Join(msgs, "; ")}
	}
	if t := p.peek(true).tok; t == tokEnd || t == tokComma || op == OpDoesNotExist {
		if op != OpDoesNotExist {
			op = OpExists
		}
		return newParsedRequirement(key, op, nil) // after !KEY the caller rejects anything but , or the end
	}
	switch t := p.next(false); t.tok {
	case tokIn:
		op = OpIn
	case tokNotIn:
		op = OpNotIn
	case tokEquals:
		op = OpEquals
	case tokDouble:
		op = OpDoubleEquals
	case tokNotEquals:
		op = OpNotEquals
	case tokGreater:
		op = OpGreaterThan
	case tokLess:
		op = OpLessThan
	default:
		return Requirement{}, fmt.Errorf("found '%s', expected: in, notin, =, ==, !=, gt, lt", t.lit)
	}
	var vals map[string]bool
	var err error
	if op == OpIn || op == OpNotIn {
		vals, err = p.valueSet()
	} else {
		vals, err = p.exactValue()
	}
	if err != nil {
		return Requirement{}, err
	}
	return newParsedRequirement(key, op, vals)
}

// newParsedRequirement validates a parsed requirement with its values sorted.
func newParsedRequirement(key string, op Operator, vals map[string]bool) (Requirement, error) {
	return NewRequirement(key, op, slices.Sorted(maps.Keys(vals)), nil)
}

func (p *selParser) valueSet() (map[string]bool, error) {
	if t := p.next(true); t.tok != tokOpen {
		return nil, fmt.Errorf("found '%s' expected: '('", t.lit)
	}
	t := p.peek(true)
	switch t.tok {
	case tokIdent, tokComma:
		vals, err := p.valueList()
		if err != nil {
			return vals, err
		}
		if c := p.next(true); c.tok != tokClose {
			return nil, fmt.Errorf("found '%s', expected: ')'", t.lit)
		}
		return vals, nil
	case tokClose:
		p.next(true)
		return map[string]bool{"": true}, nil
	}
	return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", t.lit)
}

func (p *selParser) valueList() (map[string]bool, error) {
	vals := map[string]bool{}
	for {
		t := p.next(true)
		switch t.tok {
		case tokIdent:
			vals[t.lit] = true
			switch n := p.peek(true); n.tok {
			case tokComma:
				continue
			case tokClose:
				return vals, nil
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", n.lit)
			}
		case tokComma:
			if len(vals) == 0 {
				vals[""] = true
			}
			switch p.peek(true).tok {
			case tokClose:
				vals[""] = true
				return vals, nil
			case tokComma:
				vals[""] = true
			}
		default:
			return vals, fmt.Errorf("found '%s', expected: ',', or identifier", t.lit)
		}
	}
}

func (p *selParser) exactValue() (map[string]bool, error) {
	if t := p.peek(true).tok; t == tokEnd || t == tokComma {
		return map[string]bool{"": true}, nil
	}
	t := p.next(true)
	if t.tok == tokIdent {
		return map[string]bool{t.lit: true}, nil
	}
	return nil, fmt.Errorf("found '%s', expected: identifier", t.lit)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
