package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Limits that keep hostile YAML from taking the page down (checked before go-yaml parses).
const (
	MaxManifestBytes = 1 << 20  // a manifest larger than 1 MiB is refused
	MaxFileBytes     = 16 << 20 // and a scenario or lesson file larger than 16 MiB
	MaxDepth         = 100      // nesting deeper than this is refused; real manifests stay under 20
	MaxNodes         = 100_000  // a stream's aliases may not expand to more values than this
)

// kind of a tree value, as JSON sees it.
type valueKind int

const (
	kindNull valueKind = iota
	kindBool
	kindInt
	kindFloat
	kindString
	kindMap
	kindList
)

// value is a decoded YAML value: what kubectl's YAML-to-JSON step produces, plus the position of
// every value so that problems can point at a line.
type value struct {
	kind      valueKind
	str       string // string; the literal text of a number
	b         bool
	keys      []string // map keys in document order, unique (the last duplicate wins)
	keyLines  []int    // the line of each key, parallel to keys
	vals      []*value // map values, parallel to keys; list items
	line, col int
}

func (v *value) get(key string) *value {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// stringAt is the string at key of a map value, or "" when there is none or it is not a string.
func (v *value) stringAt(key string) string {
	if v.kind != kindMap {
		return ""
	}
	if s := v.get(key); s != nil && s.kind == kindString {
		return s.str
	}
	return ""
}

func (v *value) set(key string, line int, val *value) {
	for i, k := range v.keys {
		if k == key {
			v.vals[i], v.keyLines[i] = val, line
			return
		}
	}
	v.keys = append(v.keys, key)
	v.keyLines = append(v.keyLines, line)
	v.vals = append(v.vals, val)
}

// cloneMap returns a copy of a map value whose entries can be changed without touching v.
func (v *value) cloneMap() *value {
	c := *v
	c.keys = append([]string(nil), v.keys...)
	c.keyLines = append([]int(nil), v.keyLines...)
	c.vals = append([]*value(nil), v.vals...)
	return &c
}

// jsonKind names the JSON type, as encoding/json's UnmarshalTypeError does.
func (v *value) jsonKind() string {
	switch v.kind {
	case kindBool:
		return "bool"
	case kindInt, kindFloat:
		return "number"
	case kindString:
		return "string"
	case kindMap:
		return "object"
	case kindList:
		return "array"
	}
	return "null"
}

// SyntaxError is a YAML document that does not parse.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("yaml: line %d: %s", e.Line, e.Msg)
	}
	return "yaml: " + e.Msg
}

// ConversionError is a document that YAML reads but that has no JSON form. kubectl converts each
// document to JSON before anything else (sigs.k8s.io/yaml), and the conversion fails, whatever
// field holds the culprit:
//
//  1. a map key that is null, or an integer beyond int64 (YAML v2 reads it as a uint64): the
//     first in the document's order, with the key's and its value's Go syntax;
//  2. otherwise a number that is infinite or NaN (.inf, .nan): the first that encoding/json would
//     write (a map's keys sorted), by encoding/json's name for it (+Inf, -Inf, NaN).
type ConversionError struct {
	Line, Column int
	Msg          string
}

func (e *ConversionError) Error() string { return e.Msg }

// parseDocuments parses a multi-document YAML stream into trees, one per non-empty document.
//
// A leading UTF-8 byte order mark is skipped, as kubectl reads every file through
// unicode.BOMOverride (k8s.io/cli-runtime pkg/resource/visitor.go, FileVisitor.Visit).
//
// Guards, in order:
//  1. The stream may be at most max bytes long (MaxManifestBytes for a manifest, MaxFileBytes
//     for DaemonLab's own files); what names it in the error.
//  2. A scan before the parser bounds flow and block nesting by MaxDepth (go-yaml alone runs out
//     of memory on 100,000 nested '[').
//  3. Alias expansion is counted across the stream's documents together and stops at MaxNodes
//     values (a "billion laughs" bomb, or many small ones); values written out are bounded by
//     the size alone.
//
// A document with no JSON form is a ConversionError, in the stream's order.
func parseDocuments(data []byte, what string, max int) ([]*value, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if len(data) > max {
		return nil, &SyntaxError{Msg: fmt.Sprintf("the %s is %d bytes; DaemonLab reads at most %d (%d MiB)", what, len(data), max, max>>20)}
	}
	if err := checkNesting(data, MaxDepth); err != nil {
		return nil, err
	}
	var docs []*value
	c := converter{}
	for _, chunk := range splitDocuments(string(data)) {
		file, err := parser.ParseBytes([]byte(chunk.text), 0)
		if err != nil {
			var se *yaml.SyntaxError
			if errors.As(err, &se) && se.Token != nil {
				return nil, &SyntaxError{Line: se.Token.Position.Line + chunk.line, Column: se.Token.Position.Column, Msg: se.Message}
			}
			return nil, &SyntaxError{Msg: err.Error()}
		}
		for _, doc := range file.Docs {
			if doc == nil || doc.Body == nil {
				continue
			}
			c.anchors, c.lineOffset, c.badKey = map[string]ast.Node{}, chunk.line, nil
			v, err := c.convert(doc.Body, 0)
			if err != nil {
				return nil, err
			}
			if c.badKey != nil {
				return nil, c.badKey
			}
			if bad := v.unsupported(); bad != nil {
				return nil, &ConversionError{Line: bad.line, Column: bad.col, Msg: "json: unsupported value: " + bad.str}
			}
			if v.kind != kindNull {
				docs = append(docs, v)
			}
		}
	}
	return docs, nil
}

// checkNesting bounds, in one pass over the stream and before the parser sees it, how deep it
// nests, reading YAML's lexical rules so that text is never taken for structure nor structure for
// text:
//
//  1. Single-quoted scalars end at a lone ' (two are an escaped one), double-quoted ones at a "
//     that no backslash escapes; both may span lines.
//  2. A quote opens a scalar only where a token starts; inside a plain scalar (it's, x "y) it is
//     text, as on the plain scalar's continuation lines.
//  3. A comment starts at a # that opens a token or follows white space, outside quotes.
//  4. The lines of a | or > block scalar indented past its node are content, not structure.
//  5. A "---" or "..." line starts a new document (splitDocuments parses each alone).
//
// The depth is measured at every step down: open flow brackets, plus block indentation levels,
// plus the "- ", "? " and "key: " indicators on the line outside flow brackets, plus one for each
// open flow sequence whose entry is a "key: value" pair (a mapping of its own: in a flow mapping
// the pair adds no level), plus the brackets inside a plain scalar (text to the parser; counted
// so that no misreading can hide them). The estimate is never below the real depth, so a stream
// it accepts cannot nest deeper than maxDepth; and compact JSON on one line counts only its
// brackets.
func checkNesting(data []byte, maxDepth int) error {
	var indents []int
	var open []byte // the open flow brackets, innermost last: '[' or '{', or 'p' for a sequence whose entry is a pair
	flow, quote, plainFlow, pairs := 0, byte(0), 0, 0
	block, blockContent := -1, -1  // a block scalar's node column, and its content's indentation
	plain, plainIndent := false, 0 // inside a plain scalar whose continuation lines pass this column
	for i, line := 0, 1; i < len(data); line++ {
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += i
		}
		text := data[i:end]
		start, next := i+len(text)-len(bytes.TrimLeft(text, " ")), end+1
		indent := start - i
		blank := len(bytes.Trim(data[start:end], " \t\r")) == 0
		if isDocumentMarker(string(text)) {
			indents, open, flow, quote, plainFlow, pairs, block, plain = nil, nil, 0, 0, 0, 0, -1, false
			start = i + 3
		} else {
			if quote == 0 && block >= 0 && !blank {
				if blockContent < 0 {
					blockContent = indent
				}
				if indent <= block || indent < blockContent {
					block = -1
				}
			}
			if blank || quote == 0 && (block >= 0 || data[start] == '#') {
				i = next
				continue // nothing, a comment, or a block scalar's content
			}
			if plain && flow == 0 && indent <= plainIndent {
				plain, plainFlow = false, 0
			}
			if quote == 0 && flow == 0 {
				for len(indents) > 0 && indents[len(indents)-1] >= indent {
					indents = indents[:len(indents)-1]
				}
				indents = append(indents, indent)
			}
		}
		nodeCol := -1 // the column of the line's innermost node, which a block scalar's lines pass
		if len(indents) > 1 {
			nodeCol = indents[len(indents)-2]
		}
		inline, tokenStart := 0, !plain
		deep := func() error {
			if flow+plainFlow+len(indents)+inline+pairs > maxDepth {
				return &SyntaxError{Line: line, Msg: fmt.Sprintf("the document nests deeper than %d levels", maxDepth)}
			}
			return nil
		}
		spaceAt := func(j int) bool { return j >= end || data[j] == ' ' || data[j] == '\t' || data[j] == '\r' }
		flowAt := func(j int) bool { return j < end && strings.IndexByte(",[]{}", data[j]) >= 0 }
		for j := start; j < end; j++ {
			c := data[j]
			switch {
			case quote == '\'':
				if c == '\'' && j+1 < end && data[j+1] == '\'' {
					j++
				} else if c == '\'' {
					quote = 0
				}
				continue
			case quote == '"':
				if c == '\\' {
					j++
				} else if c == '"' {
					quote = 0
				}
				continue
			case c == '#' && (j == start || spaceAt(j-1)):
				j = end
				continue
			case c == ' ' || c == '\t' || c == '\r':
				tokenStart = tokenStart || !plain
				continue
			}
			indicator := (c == '-' || c == '?' || c == ':') && spaceAt(j+1) || c == ':' && flow > 0 && flowAt(j+1)
			if plain {
				switch {
				case c == ':' && indicator, flow > 0 && flowAt(j):
					plain, plainFlow = false, 0
				case c == '[' || c == '{':
					plainFlow++
					if err := deep(); err != nil {
						return err
					}
					continue
				case c == ']' || c == '}':
					plainFlow = max(plainFlow-1, 0)
					continue
				default:
					continue
				}
			}
			switch {
			case c == '[' || c == '{':
				flow++
				open = append(open, c)
				tokenStart = true
				if err := deep(); err != nil {
					return err
				}
			case c == ']' || c == '}':
				flow = max(flow-1, 0)
				if n := len(open); n > 0 {
					if open[n-1] == 'p' {
						pairs--
					}
					open = open[:n-1]
				}
				tokenStart = false
			case c == ',':
				if n := len(open); n > 0 && open[n-1] == 'p' {
					open[n-1], pairs = '[', pairs-1 // the pair's entry ends
				}
				tokenStart = true
			case indicator && flow > 0:
				if n := len(open); n > 0 && open[n-1] == '[' {
					open[n-1], pairs = 'p', pairs+1
				}
				tokenStart = true
				if err := deep(); err != nil {
					return err
				}
			case indicator:
				if c != ':' {
					nodeCol = j - i
				}
				inline++
				tokenStart = true
				if err := deep(); err != nil {
					return err
				}
			case !tokenStart:
			case c == '\'' || c == '"':
				quote, nodeCol, tokenStart = c, j-i, false
			case (c == '|' || c == '>') && flow == 0 && isBlockScalarHeader(data[j+1:end]):
				block, blockContent, j = nodeCol, -1, end
			case c == '&' || c == '!' || c == '*':
				for !spaceAt(j+1) && (flow == 0 || !flowAt(j+1)) {
					j++
				}
				tokenStart = false
			default:
				plain, plainIndent, nodeCol, tokenStart = true, nodeCol, j-i, false
			}
		}
		i = next
	}
	return nil
}

// isBlockScalarHeader reports whether what follows a | or > completes a block scalar's header:
// indentation and chomping indicators (digits, + and -), then only white space or a comment.
func isBlockScalarHeader(rest []byte) bool {
	rest = bytes.TrimLeft(rest, "0123456789+-")
	t := bytes.TrimLeft(rest, " \t\r")
	return len(t) == 0 || t[0] == '#' && len(t) < len(rest)
}

// isDocumentMarker reports whether line is a "---" or "..." marker, alone or before white space.
func isDocumentMarker(line string) bool {
	body := strings.TrimRight(line, "\r\n")
	for _, m := range []string{"---", "..."} {
		if body == m || strings.HasPrefix(body, m+" ") || strings.HasPrefix(body, m+"\t") {
			return true
		}
	}
	return false
}

// documentChunk is the text of one document and the number of lines before it.
type documentChunk struct {
	text string
	line int
}

// splitDocuments cuts a stream at its "---" and "..." markers (a marker at the start of a line
// ends any block scalar, so the cut is exact). go-yaml drops the document that follows an empty
// one, so each document is parsed on its own; what follows "---" on its line stays, blanked to
// keep its column.
func splitDocuments(s string) []documentChunk {
	var chunks []documentChunk
	var cur strings.Builder
	start := 0
	lines := strings.SplitAfter(s, "\n")
	for i, line := range lines {
		if !isDocumentMarker(line) {
			cur.WriteString(line)
			continue
		}
		chunks = append(chunks, documentChunk{cur.String(), start})
		cur.Reset()
		start = i
		if line[0] == '-' {
			cur.WriteString("   " + line[3:])
		} else {
			cur.WriteString("\n")
		}
	}
	return append(chunks, documentChunk{cur.String(), start})
}

// converter turns go-yaml's syntax tree into values, resolving anchors, aliases, merge keys,
// tags and YAML 1.1 scalars as kubectl's YAML-to-JSON conversion (go-yaml v2) does.
type converter struct {
	anchors    map[string]ast.Node
	inAlias    int              // how many aliases the value being converted is under
	expanded   int              // values converted under an alias, in the whole stream
	lineOffset int              // lines of the stream before this document
	badKey     *ConversionError // the first map key JSON has no form for (ConversionError rule 1)
}

func (c *converter) convert(n ast.Node, depth int) (*value, error) {
	if c.inAlias > 0 {
		if c.expanded++; c.expanded > MaxNodes {
			return nil, &SyntaxError{Line: n.GetToken().Position.Line + c.lineOffset, Msg: fmt.Sprintf("aliases expand to more than %d values", MaxNodes)}
		}
	}
	if depth > MaxDepth {
		return nil, &SyntaxError{Line: n.GetToken().Position.Line + c.lineOffset, Msg: fmt.Sprintf("the document nests deeper than %d levels", MaxDepth)}
	}
	tk := n.GetToken()
	pos := value{line: tk.Position.Line + c.lineOffset, col: tk.Position.Column}
	switch n := n.(type) {
	case *ast.AnchorNode:
		c.anchors[n.Name.GetToken().Value] = n.Value
		return c.convert(n.Value, depth)
	case *ast.AliasNode:
		name := n.Value.GetToken().Value
		target, ok := c.anchors[name]
		if !ok {
			return nil, &SyntaxError{Line: pos.line, Column: pos.col, Msg: fmt.Sprintf("unknown anchor '%s' referenced", name)}
		}
		c.inAlias++
		defer func() { c.inAlias-- }()
		return c.convert(target, depth+1)
	case *ast.TagNode:
		return c.convertTagged(n, depth)
	case *ast.MappingNode:
		return c.convertMap(n.Values, pos, depth)
	case *ast.MappingValueNode:
		return c.convertMap([]*ast.MappingValueNode{n}, pos, depth)
	case *ast.SequenceNode:
		pos.kind = kindList
		for _, item := range n.Values {
			v, err := c.convert(item, depth+1)
			if err != nil {
				return nil, err
			}
			pos.vals = append(pos.vals, v)
		}
		return &pos, nil
	case *ast.LiteralNode:
		pos.kind, pos.str = kindString, n.Value.Value
		return &pos, nil
	case *ast.StringNode:
		if tk.Type == token.SingleQuoteType || tk.Type == token.DoubleQuoteType {
			pos.kind, pos.str = kindString, n.Value
			return &pos, nil
		}
		return resolvePlain(n.Value, pos), nil
	case ast.ScalarNode:
		return resolvePlain(tk.Value, pos), nil
	}
	return nil, &SyntaxError{Line: pos.line, Column: pos.col, Msg: fmt.Sprintf("unsupported YAML node %s", n.Type())}
}

func (c *converter) convertMap(entries []*ast.MappingValueNode, pos value, depth int) (*value, error) {
	pos.kind = kindMap
	var merges []*value
	for _, e := range entries {
		if _, ok := e.Key.(*ast.MergeKeyNode); ok {
			m, err := c.convert(e.Value, depth+1)
			if err != nil {
				return nil, err
			}
			merges = append(merges, m)
			continue
		}
		k, err := c.convert(e.Key, depth+1)
		if err != nil {
			return nil, err
		}
		if k.kind == kindMap || k.kind == kindList {
			return nil, &SyntaxError{Line: k.line, Column: k.col, Msg: "a mapping key must be a scalar"}
		}
		v, err := c.convert(e.Value, depth+1)
		if err != nil {
			return nil, err
		}
		if key, ok := k.keyText(); ok {
			pos.set(key, k.line, v)
		} else if c.badKey == nil {
			c.badKey = &ConversionError{Line: k.line, Column: k.col,
				Msg: fmt.Sprintf("unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k.goValue()), k.goValue(), v.goValue())}
		}
	}
	for _, m := range merges { // merged keys never override keys of the mapping itself
		sources := []*value{m}
		if m.kind == kindList {
			sources = m.vals
		}
		for _, src := range sources {
			if src.kind != kindMap {
				return nil, &SyntaxError{Line: src.line, Column: src.col, Msg: "map merge requires map or sequence of maps as the value"}
			}
			for i, key := range src.keys {
				if pos.get(key) == nil {
					pos.set(key, src.keyLines[i], src.vals[i])
				}
			}
		}
	}
	return &pos, nil
}

// keyText is the JSON object key a scalar becomes, as sigs.k8s.io/yaml makes it of YAML v2's
// value: a float with float32's digits ('g'), .inf, -.inf or .nan; false for a null key or an
// integer beyond int64, which JSON has no key for.
func (v *value) keyText() (string, bool) {
	switch v.kind {
	case kindNull:
		return "", false
	case kindBool:
		return strconv.FormatBool(v.b), true
	case kindInt:
		_, err := strconv.ParseInt(v.str, 10, 64)
		return v.str, err == nil
	case kindFloat:
		f, _ := strconv.ParseFloat(v.str, 64)
		switch s := strconv.FormatFloat(f, 'g', -1, 32); s {
		case "+Inf":
			return ".inf", true
		case "-Inf":
			return "-.inf", true
		case "NaN":
			return ".nan", true
		default:
			return s, true
		}
	}
	return v.str, true
}

// goValue is v as YAML v2 decodes it into an interface{} (a map's keys as the JSON keys they
// became), for messages that print it in Go syntax as kubectl's do.
func (v *value) goValue() any {
	return treeValue[map[any]any](v, func(k string) any { return k }, func(v *value) any {
		switch v.kind {
		case kindBool:
			return v.b
		case kindInt:
			if i, err := strconv.ParseInt(v.str, 10, 64); err == nil {
				return int(i)
			}
			u, _ := strconv.ParseUint(v.str, 10, 64)
			return u
		case kindFloat:
			f, _ := strconv.ParseFloat(v.str, 64)
			return f
		case kindString:
			return v.str
		}
		return nil
	})
}

// treeValue builds Go values of a tree: a map as an M keyed by key of its JSON keys, a list as a
// []any, a scalar as scalar makes it.
func treeValue[M ~map[K]any, K comparable](v *value, key func(string) K, scalar func(*value) any) any {
	switch v.kind {
	case kindMap:
		m := make(M, len(v.keys))
		for i, k := range v.keys {
			m[key(k)] = treeValue[M](v.vals[i], key, scalar)
		}
		return m
	case kindList:
		l := make([]any, len(v.vals))
		for i, item := range v.vals {
			l[i] = treeValue[M](item, key, scalar)
		}
		return l
	}
	return scalar(v)
}

func (c *converter) convertTagged(n *ast.TagNode, depth int) (*value, error) {
	v, err := c.convert(n.Value, depth)
	if err != nil {
		return nil, err
	}
	raw := n.Value.GetToken().Value
	switch tag := n.Start.Value; tag {
	case "!!str":
		if v.kind != kindMap && v.kind != kindList {
			v.kind, v.str = kindString, raw
		}
	case "!!int", "!!float", "!!bool", "!!null":
		r := resolvePlain(raw, *v)
		want := map[string]valueKind{"!!int": kindInt, "!!float": kindFloat, "!!bool": kindBool, "!!null": kindNull}[tag]
		if r.kind != want && !(want == kindFloat && r.kind == kindInt) {
			return nil, &SyntaxError{Line: v.line, Column: v.col, Msg: fmt.Sprintf("cannot decode %s `%s` as a %s", "!!str", raw, tag)}
		}
		return r, nil
	}
	return v, nil
}

// resolvePlain types an unquoted scalar as YAML v2 reads it (ResolvePlain), and as
// sigs.k8s.io/yaml then writes it in JSON: a timestamp stays text, an int is its decimal, a float
// the number encoding/json writes (1e3 is 1000), an infinity or NaN its Go name (+Inf), which no
// JSON holds.
func resolvePlain(s string, pos value) *value {
	v := pos
	v.kind, v.str = kindString, s
	switch r := ResolvePlain(s); r.Kind {
	case ScalarNull:
		v.kind = kindNull
	case ScalarBool:
		v.kind, v.b = kindBool, r.Bool
	case ScalarInt:
		v.kind, v.str = kindInt, r.IntText()
	case ScalarFloat:
		v.kind, v.str = kindFloat, strconv.FormatFloat(r.Float, 'g', -1, 64)
		if out, err := json.Marshal(r.Float); err == nil {
			v.str = string(out)
		}
	}
	return &v
}

// YAMLToJSON reads one YAML (or JSON) document as kubectl's yaml.ToJSON does, YAML 1.1 scalars
// and the same guards as manifests: the result is what encoding/json would decode from the JSON
// (maps, lists, strings, bools, nil), numbers as json.Number. An empty document is nil.
func YAMLToJSON(data []byte) (any, error) {
	docs, err := parseDocuments(data, "manifest", MaxManifestBytes)
	if err != nil {
		return nil, err
	}
	switch len(docs) {
	case 0:
		return nil, nil
	case 1:
		return docs[0].toJSON(), nil
	}
	return nil, &SyntaxError{Msg: fmt.Sprintf("want one document, found %d", len(docs))}
}

// unsupported returns the first number in v that JSON cannot hold, in the order encoding/json
// writes v (a map's keys sorted), or nil.
func (v *value) unsupported() *value {
	switch v.kind {
	case kindFloat:
		if f, _ := strconv.ParseFloat(v.str, 64); math.IsInf(f, 0) || math.IsNaN(f) {
			return v
		}
	case kindMap:
		order := make([]int, len(v.keys))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(v.keys[a], v.keys[b]) })
		for _, i := range order {
			if bad := v.vals[i].unsupported(); bad != nil {
				return bad
			}
		}
	case kindList:
		for _, item := range v.vals {
			if bad := item.unsupported(); bad != nil {
				return bad
			}
		}
	}
	return nil
}

// toJSON converts a tree to JSON values (parseDocuments has refused infinities and NaN).
func (v *value) toJSON() any {
	return treeValue[map[string]any](v, func(k string) string { return k }, func(v *value) any {
		switch v.kind {
		case kindBool:
			return v.b
		case kindInt, kindFloat:
			return json.Number(v.str)
		case kindString:
			return v.str
		}
		return nil
	})
}
