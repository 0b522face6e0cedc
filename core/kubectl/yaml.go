package kubectl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"daemonlab/core/api"
)

// jsonToYAML converts a JSON object to YAML byte for byte as kubectl's -o yaml does
// (sigs.k8s.io/yaml.JSONToYAML: go.yaml.in/yaml/v2 reads the JSON, then writes it back).
// Those rules, written out here so that the page need not carry a second YAML library:
//
//  1. Numbers become int (or uint64, beyond int64) when the text parses as one, else float64,
//     written back with the shortest 'g' formatting ("1e+21"); a number no float holds stays text.
//  2. Keys are sorted at every level in YAML v2's natural order: runs of digits compare as
//     numbers ("a2" before "a10"), and a letter sorts after a non-letter.
//  3. Collections are block style, two spaces per level, and a sequence that is a mapping's value
//     is not indented past its key; empty ones are written {} and [].
//  4. A key longer than 128 bytes, or spanning lines, is written as an explicit "? key".
//  5. A string is plain unless it would read back as something else (null, "", true, yes, on,
//     y, 1, 0x1F, 1_000, 1.5, .inf, 2006-01-02, 1:30 base 60): then it is double-quoted.
//     A string with a newline asks for a literal block (|, |-, |+, with an indentation
//     indicator when it starts with a space or a break).
//  6. The emitter then overrules the style the value asked for: plain becomes single-quoted
//     when the text starts or ends with a space or break, starts with an indicator (# , [ ] { }
//     & * ! | > ' " % @ ` ; "- ", "? ", ": "), contains ": " or " #", starts with --- or ..., or
//     spans lines; single-quoted or literal becomes double-quoted when a break meets a space, the
//     text has a character YAML cannot print (a control character, a tab, U+FEFF, U+FFFE/FFFF,
//     one beyond U+FFFF), or (literal only) it ends with a space or is a key.
//  7. Plain and quoted scalars other than keys fold at a space once the line passes 80 columns.
//  8. Double quotes escape what they must: \0 \a \b \t \n \v \f \r \e \" \\ \N \_ \L \P, else
//     \xXX, \uXXXX or \UXXXXXXXX; all characters, when the string starts with U+FEFF.
func jsonToYAML(doc []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		panic(fmt.Sprintf("kubectl: cannot read back its own JSON: %v", err)) // from indentedJSON
	}
	e := yamlEmitter{indent: -1, whitespace: true, indention: true}
	e.node(v, false)
	e.writeIndent() // the document ends with a line break
	return e.out
}

// yamlReadable is the error kubectl prints instead of YAML when YAML v2 cannot read the JSON
// it converts. That JSON is compact (sigs.k8s.io/yaml.Marshal), but for line breaks between
// tokens the same text as doc: its encoder escapes all control characters but DEL, the C1
// controls and U+FFFE/FFFF, and all line breaks but NEL (U+0085). The reader then:
//
//  1. refuses DEL, the C1 controls but NEL, and U+FFFE/FFFF ("control characters are not
//     allowed"; where it meets one among other faults, it may report another first);
//  2. reads a NEL in a string as a line break, and a line that starts with --- or ... and a
//     space or break as the end of the document ("found unexpected document indicator");
//  3. cannot read a key that spans lines or whose ':' comes more than 1,024 characters after
//     its opening quote: the ':' then has no key ("did not find expected ',' or '}'").
//
// Lines count from 0 for the last error (that of the ':', none on line 0: then its mapping's
// '{' is on line 0 too) and from 1 for the others. It reads string values over lines folded
// (yamlFold).
func yamlReadable(doc []byte) error {
	text := string(doc)
	for _, r := range text {
		if r == 0x7F || r >= 0x80 && r <= 0x9F && r != 0x85 || r == 0xFFFE || r == 0xFFFF {
			return errors.New("error: yaml: control characters are not allowed")
		}
	}
	line := 0 // NELs so far: the JSON kubectl converts has no other line breaks
	for i := 0; i < len(text); i++ {
		if text[i] == '"' {
			start, chars := line, 2
			for i++; text[i] != '"'; i += charWidth(text[i]) {
				chars++
				if text[i] == '\\' {
					i++
					chars++
				}
				if strings.HasPrefix(text[i:], "\u0085") {
					line++
					rest := text[i+2:]
					if (strings.HasPrefix(rest, "---") || strings.HasPrefix(rest, "...")) &&
						(rest[3] == ' ' || strings.HasPrefix(rest[3:], "\u0085")) {
						return fmt.Errorf("error: yaml: line %d: found unexpected document indicator", line+1)
					}
				}
			}
			if text[i+1] != ':' || line == start && chars <= 1024 {
				continue
			}
			if line == 0 {
				return errors.New("error: yaml: did not find expected ',' or '}'")
			}
			return fmt.Errorf("error: yaml: line %d: did not find expected ',' or '}'", line)
		}
	}
	return nil
}

const (
	yamlIndent = 2  // spaces per level
	yamlWidth  = 80 // column after which scalars fold at a space
)

// yamlEmitter holds the state YAML v2's emitter keeps while it writes.
type yamlEmitter struct {
	out        []byte
	column     int   // in characters
	indent     int   // of the current block; -1 before the first
	indents    []int // of the enclosing blocks
	whitespace bool  // the last thing written was whitespace
	indention  bool  // only indentation (and indicators such as "- ") on this line so far
}

type yamlStyle int

const (
	yamlPlain yamlStyle = iota
	yamlSingleQuoted
	yamlDoubleQuoted
	yamlLiteral
)

// node writes v; mapping is true for a mapping's value.
func (e *yamlEmitter) node(v any, mapping bool) {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			e.emptyCollection("{", "}")
			return
		}
		e.pushIndent(false, false)
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareYAMLKeys)
		for _, k := range keys {
			e.writeIndent()
			if a := analyzeScalar(k); !a.multiline && len(k) <= 128 {
				e.str(k, true)
				e.indicator(":", false, false, false)
			} else {
				e.indicator("?", true, false, true)
				e.str(k, false)
				e.writeIndent()
				e.indicator(":", true, false, true)
			}
			e.node(v[k], true)
		}
		e.popIndent()
	case []any:
		if len(v) == 0 {
			e.emptyCollection("[", "]")
			return
		}
		e.pushIndent(false, mapping && !e.indention)
		for _, item := range v {
			e.writeIndent()
			e.indicator("-", true, false, true)
			e.node(item, false)
		}
		e.popIndent()
	case string:
		if strings.Contains(v, "\u0085") {
			v = yamlFold(v)
		}
		e.str(v, false)
	case json.Number:
		switch n, ok := api.ParseYAMLNumber(string(v)); {
		case !ok: // beyond a float: YAML v2 reads the text
			e.str(string(v), false)
		case n.Kind == api.ScalarInt:
			e.scalar(n.IntText(), yamlPlain, false)
		default:
			e.scalar(strconv.FormatFloat(n.Float, 'g', -1, 64), yamlPlain, false)
		}
	case bool:
		e.scalar(strconv.FormatBool(v), yamlPlain, false)
	default: // nil
		e.scalar("null", yamlPlain, false)
	}
}

// emptyCollection writes {} or [] (in flow style, as YAML v2 writes an empty collection).
func (e *yamlEmitter) emptyCollection(open, close string) {
	e.indicator(open, true, true, false)
	e.indicator(close, false, false, false)
}

// str writes a string in the style rule 5 asks for.
func (e *yamlEmitter) str(s string, simpleKey bool) {
	style := yamlDoubleQuoted
	switch {
	case strings.Contains(s, "\n"):
		style = yamlLiteral
	case api.ResolvePlain(s).Kind == api.ScalarString && !api.IsBase60Float(s):
		style = yamlPlain // it reads back as the same string
	}
	e.scalar(s, style, simpleKey)
}

// scalar writes s in the style asked for, or the one the emitter falls back to (rule 6).
func (e *yamlEmitter) scalar(s string, style yamlStyle, simpleKey bool) {
	a := analyzeScalar(s)
	if simpleKey && a.multiline {
		style = yamlDoubleQuoted
	}
	if style == yamlPlain && (!a.plainAllowed || s == "" && simpleKey) {
		style = yamlSingleQuoted
	}
	if style == yamlSingleQuoted && !a.singleQuotedAllowed {
		style = yamlDoubleQuoted
	}
	if style == yamlLiteral && (!a.blockAllowed || simpleKey) {
		style = yamlDoubleQuoted
	}
	e.pushIndent(true, false)
	switch style {
	case yamlPlain:
		e.plain(s, !simpleKey)
	case yamlSingleQuoted:
		e.singleQuoted(s, !simpleKey)
	case yamlDoubleQuoted:
		e.doubleQuoted(s, !simpleKey)
	default:
		e.literal(s)
	}
	e.popIndent()
}

// pushIndent opens a level: a block's indentation grows by two spaces (not for an indentless
// sequence); the first block starts at column 0, the first flow or scalar at 2.
func (e *yamlEmitter) pushIndent(flow, indentless bool) {
	e.indents = append(e.indents, e.indent)
	switch {
	case e.indent < 0 && flow:
		e.indent = yamlIndent
	case e.indent < 0:
		e.indent = 0
	case !indentless:
		e.indent += yamlIndent
	}
}

func (e *yamlEmitter) popIndent() {
	e.indent = e.indents[len(e.indents)-1]
	e.indents = e.indents[:len(e.indents)-1]
}

func (e *yamlEmitter) put(c byte) {
	e.out = append(e.out, c)
	e.column++
}

func (e *yamlEmitter) putBreak() {
	e.out = append(e.out, '\n')
	e.column = 0
}

// write copies the character at s[i] and returns its width.
func (e *yamlEmitter) write(s string, i int) int {
	w := charWidth(s[i])
	e.out = append(e.out, s[i:i+w]...)
	e.column++
	return w
}

// writeBreak copies the line break at s[i] (a newline as the emitter's own) and returns its width.
func (e *yamlEmitter) writeBreak(s string, i int) int {
	if s[i] == '\n' {
		e.putBreak()
		return 1
	}
	w := e.write(s, i)
	e.column = 0
	return w
}

// writeIndent starts a new line when this one has more than indentation on it, then indents.
func (e *yamlEmitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || e.column == indent && !e.whitespace {
		e.putBreak()
	}
	for e.column < indent {
		e.put(' ')
	}
	e.whitespace, e.indention = true, true
}

func (e *yamlEmitter) indicator(s string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	for i := 0; i < len(s); {
		i += e.write(s, i)
	}
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

// foldAt reports whether a space may become a line break (rule 7): not in a key, not the second
// of two spaces, and only past the 80th column.
func (e *yamlEmitter) foldAt(allowBreaks, spaces bool) bool {
	return allowBreaks && !spaces && e.column > yamlWidth
}

func (e *yamlEmitter) plain(s string, allowBreaks bool) {
	if !e.whitespace {
		e.put(' ')
	}
	spaces := false
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			if e.foldAt(allowBreaks, spaces) && i+1 < len(s) && s[i+1] != ' ' {
				e.writeIndent()
				i++
			} else {
				i += e.write(s, i)
			}
			spaces = true
			continue
		}
		i += e.write(s, i)
		e.indention = false
		spaces = false
	}
	e.whitespace, e.indention = false, false
}

func (e *yamlEmitter) singleQuoted(s string, allowBreaks bool) {
	e.indicator("'", true, false, false)
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if e.foldAt(allowBreaks, spaces) && i > 0 && i < len(s)-1 && s[i+1] != ' ' {
				e.writeIndent()
				i++
			} else {
				i += e.write(s, i)
			}
			spaces = true
		case isBreakAt(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			i += e.writeBreak(s, i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			if s[i] == '\'' {
				e.put('\'')
			}
			i += e.write(s, i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.indicator("'", false, false, false)
	e.whitespace, e.indention = false, false
}

func (e *yamlEmitter) doubleQuoted(s string, allowBreaks bool) {
	e.indicator(`"`, true, false, false)
	bom := strings.HasPrefix(s, "\uFEFF")
	spaces := false
	for i := 0; i < len(s); {
		switch {
		case bom || !isPrintableAt(s, i) || isBreakAt(s, i) || s[i] == '"' || s[i] == '\\':
			r, w := utf8.DecodeRuneInString(s[i:])
			i += w
			e.escape(r)
			spaces = false
		case s[i] == ' ':
			if e.foldAt(allowBreaks, spaces) && i > 0 && i < len(s)-1 {
				e.writeIndent()
				if s[i+1] == ' ' {
					e.put('\\')
				}
				i++
			} else {
				i += e.write(s, i)
			}
			spaces = true
		default:
			i += e.write(s, i)
			spaces = false
		}
	}
	e.indicator(`"`, false, false, false)
	e.whitespace, e.indention = false, false
}

// yamlEscapes are the escapes with a letter of their own (rule 8).
var yamlEscapes = map[rune]byte{
	0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0A: 'n', 0x0B: 'v', 0x0C: 'f', 0x0D: 'r',
	0x1B: 'e', '"': '"', '\\': '\\', 0x85: 'N', 0xA0: '_', 0x2028: 'L', 0x2029: 'P',
}

func (e *yamlEmitter) escape(r rune) {
	e.put('\\')
	if c, ok := yamlEscapes[r]; ok {
		e.put(c)
		return
	}
	digits := 8
	switch {
	case r <= 0xFF:
		e.put('x')
		digits = 2
	case r <= 0xFFFF:
		e.put('u')
		digits = 4
	default:
		e.put('U')
	}
	for shift := (digits - 1) * 4; shift >= 0; shift -= 4 {
		e.put("0123456789ABCDEF"[(r>>shift)&0xF])
	}
}

func (e *yamlEmitter) literal(s string) {
	e.indicator("|", true, false, false)
	if s[0] == ' ' || isBreakAt(s, 0) {
		e.indicator(strconv.Itoa(yamlIndent), false, false, false)
	}
	// The chomping indicator: - without a final break, + when the final break is the whole
	// text or follows another break, none for exactly one.
	_, w := utf8.DecodeLastRuneInString(s)
	switch {
	case !isBreakAt(s, len(s)-w):
		e.indicator("-", false, false, false)
	case len(s) == w:
		e.indicator("+", false, false, false)
	default:
		if _, w2 := utf8.DecodeLastRuneInString(s[:len(s)-w]); isBreakAt(s, len(s)-w-w2) {
			e.indicator("+", false, false, false)
		}
	}
	e.putBreak()
	e.indention, e.whitespace = true, true
	breaks := true
	for i := 0; i < len(s); {
		if isBreakAt(s, i) {
			i += e.writeBreak(s, i)
			e.indention = true
			breaks = true
			continue
		}
		if breaks {
			e.writeIndent()
		}
		i += e.write(s, i)
		e.indention = false
		breaks = false
	}
}

// yamlScalar is what YAML v2's emitter learns of a scalar's text before it picks a style.
type yamlScalar struct {
	multiline, plainAllowed, singleQuotedAllowed, blockAllowed bool
}

// analyzeScalar applies rule 6's tests to s.
func analyzeScalar(s string) yamlScalar {
	if s == "" {
		return yamlScalar{plainAllowed: true, singleQuotedAllowed: true}
	}
	indicators := strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...")
	var lineBreaks, special, leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	precededByWhitespace, previousSpace, previousBreak := true, false, false
	for i, w := 0, 0; i < len(s); i += w {
		w = charWidth(s[i])
		followedByWhitespace := i+w >= len(s) || s[i+w] == ' ' || s[i+w] == '\t'
		switch c := s[i]; {
		case i == 0 && strings.IndexByte("#,[]{}&*!|>'\"%@`", c) >= 0:
			indicators = true
		case i == 0 && (c == '?' || c == ':' || c == '-'):
			indicators = indicators || followedByWhitespace
		case c == ':' && followedByWhitespace, c == '#' && precededByWhitespace:
			indicators = true
		}
		if !isPrintableAt(s, i) {
			special = true
		}
		switch {
		case s[i] == ' ':
			leadingSpace = leadingSpace || i == 0
			trailingSpace = trailingSpace || i+w == len(s)
			breakSpace = breakSpace || previousBreak
			previousSpace, previousBreak = true, false
		case isBreakAt(s, i):
			lineBreaks = true
			leadingBreak = leadingBreak || i == 0
			trailingBreak = trailingBreak || i+w == len(s)
			spaceBreak = spaceBreak || previousSpace
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = s[i] == ' ' || s[i] == '\t' || s[i] == 0 || isBreakAt(s, i)
	}
	return yamlScalar{
		multiline:           lineBreaks,
		plainAllowed:        !(leadingSpace || leadingBreak || trailingSpace || trailingBreak || breakSpace || spaceBreak || special || lineBreaks || indicators),
		singleQuotedAllowed: !(breakSpace || spaceBreak || special),
		blockAllowed:        !(trailingSpace || spaceBreak || special),
	}
}

// charWidth is the length of the UTF-8 sequence that starts with byte b.
func charWidth(b byte) int {
	switch {
	case b < 0x80:
		return 1
	case b&0xE0 == 0xC0:
		return 2
	case b&0xF0 == 0xE0:
		return 3
	default:
		return 4
	}
}

// isBreakAt: a line break at s[i] (CR, LF, NEL, LS, PS).
func isBreakAt(s string, i int) bool {
	rest := s[i:]
	return rest[0] == '\r' || rest[0] == '\n' || strings.HasPrefix(rest, "\u0085") ||
		strings.HasPrefix(rest, "\u2028") || strings.HasPrefix(rest, "\u2029")
}

// isPrintableAt: YAML's printable set, as YAML v2 tests it: LF, ASCII from space to ~, and
// U+00A0 to U+FFFD but for the surrogates, U+FEFF, U+FFFE and U+FFFF.
func isPrintableAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r == '\n' || r >= 0x20 && r <= 0x7E || r >= 0xA0 && r <= 0xFFFD && r != 0xFEFF
}

// yamlFold is a string value with NELs as YAML v2 reads it back from JSON (yamlReadable): a
// line break and the spaces around it become one space, or as many newlines as further breaks
// follow it.
func yamlFold(s string) string {
	var b strings.Builder
	for s != "" {
		end := strings.IndexFunc(s, func(r rune) bool { return r == ' ' || r == 0x85 })
		if end < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:end])
		s = s[end:]
		blanks := len(s) - len(strings.TrimLeft(s, " \u0085"))
		run := s[:blanks]
		s = s[blanks:]
		first := strings.Index(run, "\u0085")
		switch {
		case first < 0:
			b.WriteString(run) // spaces only
		case strings.Count(run, "\u0085") == 1:
			b.WriteByte(' ')
		default:
			b.WriteString(strings.Repeat("\n", strings.Count(run, "\u0085")-1))
		}
	}
	return b.String()
}

// compareYAMLKeys orders keys as YAML v2 does (rule 2).
func compareYAMLKeys(a, b string) int {
	switch {
	case yamlKeyLess([]rune(a), []rune(b)):
		return -1
	case yamlKeyLess([]rune(b), []rune(a)):
		return 1
	}
	return 0
}

func yamlKeyLess(a, b []rune) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		al, bl := unicode.IsLetter(a[i]), unicode.IsLetter(b[i])
		if al && bl {
			return a[i] < b[i]
		}
		if al || bl {
			return bl
		}
		// Neither is a letter: compare the runs of digits from here as numbers. A zero after
		// non-zero digits is part of a number, not a leading zero.
		var an, bn int64
		if a[i] == '0' || b[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(a[j]); j-- {
				if a[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < len(a) && unicode.IsDigit(a[ai]); ai++ {
			an = an*10 + int64(a[ai]-'0')
		}
		for ; bi < len(b) && unicode.IsDigit(b[bi]); bi++ {
			bn = bn*10 + int64(b[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return a[i] < b[i]
	}
	return len(a) < len(b)
}
