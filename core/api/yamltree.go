package api

import (
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
	MaxManifestBytes = 1 << 20 // a manifest larger than 1 MiB is refused
	MaxDepth         = 100     // nesting deeper than this is refused; real manifests stay under 20
	MaxNodes         = 100_000 // alias expansion may not produce more values than this
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
// Guards, in order:
//  1. The stream may be at most MaxManifestBytes long.
//  2. A scan before the parser bounds flow and block nesting by MaxDepth (go-yaml alone runs out
//     of memory on 100,000 nested '[').
//  3. Alias expansion is counted and stops at MaxNodes values (a "billion laughs" bomb).
//
// A document with no JSON form is a ConversionError, in the stream's order.
func parseDocuments(data []byte) ([]*value, error) {
	if len(data) > MaxManifestBytes {
		return nil, &SyntaxError{Msg: fmt.Sprintf("the manifest is %d bytes; DaemonLab reads at most %d (1 MiB)", len(data), MaxManifestBytes)}
	}
	if err := checkNesting(data); err != nil {
		return nil, err
	}
	var docs []*value
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
			c := converter{anchors: map[string]ast.Node{}, lineOffset: chunk.line}
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

// checkNesting estimates, line by line and without parsing, how deep the stream nests: open flow
// brackets, plus indentation levels, plus "- " and "key: " indicators on the line. The estimate
// is never below the real depth, so a stream it accepts cannot nest deeper than MaxDepth.
func checkNesting(data []byte) error {
	flow, quote := 0, byte(0)
	var indents []int
	blockScalarIndent := -1
	for n, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if blockScalarIndent >= 0 {
			if strings.TrimSpace(line) == "" || indent > blockScalarIndent {
				continue // content of a | or > block scalar
			}
			blockScalarIndent = -1
		}
		if quote == 0 && flow == 0 && trimmed != "" && trimmed[0] != '#' {
			for len(indents) > 0 && indents[len(indents)-1] >= indent {
				indents = indents[:len(indents)-1]
			}
			indents = append(indents, indent)
		}
		inline := 0
		prev := byte(' ')
		for i := 0; i < len(trimmed); i++ {
			c := trimmed[i]
			switch {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '#' && (prev == ' ' || prev == '\t'):
				i = len(trimmed)
			case c == '"' || c == '\'':
				quote = c
			case c == '[' || c == '{':
				flow++
			case c == ']' || c == '}':
				flow = max(flow-1, 0)
			case c == '-' && (prev == ' ' || prev == '\t') && (i+1 == len(trimmed) || trimmed[i+1] == ' '):
				inline++
			case c == ':' && (i+1 == len(trimmed) || trimmed[i+1] == ' '):
				inline++
			}
			prev = c
		}
		if depth := flow + len(indents) + inline; depth > MaxDepth {
			return &SyntaxError{Line: n + 1, Msg: fmt.Sprintf("the document nests deeper than %d levels", MaxDepth)}
		}
		if t := strings.TrimSpace(stripComment(trimmed)); quote == 0 && isBlockScalarHeader(t) {
			blockScalarIndent = indent
		}
	}
	return nil
}

// isBlockScalarHeader reports whether line ends in a block scalar's header: an indicator | or >
// with its indentation and chomping indicators (digits, + and -), alone on the line or after
// white space, a key's ':' or an entry's '-'.
func isBlockScalarHeader(line string) bool {
	rest := strings.TrimRight(line, "0123456789+-")
	if rest == "" || rest[len(rest)-1] != '|' && rest[len(rest)-1] != '>' {
		return false
	}
	before := rest[:len(rest)-1]
	return before == "" || strings.ContainsRune(" \t\n\f\r:-", rune(before[len(before)-1]))
}

func stripComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		return s[:i]
	}
	return s
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
		body := strings.TrimRight(line, "\r\n")
		marker := ""
		for _, m := range []string{"---", "..."} {
			if body == m || strings.HasPrefix(body, m+" ") || strings.HasPrefix(body, m+"\t") {
				marker = m
			}
		}
		if marker == "" {
			cur.WriteString(line)
			continue
		}
		chunks = append(chunks, documentChunk{cur.String(), start})
		cur.Reset()
		start = i
		if marker == "---" {
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
	nodes      int
	lineOffset int              // lines of the stream before this document
	badKey     *ConversionError // the first map key JSON has no form for (ConversionError rule 1)
}

func (c *converter) convert(n ast.Node, depth int) (*value, error) {
	c.nodes++
	if c.nodes > MaxNodes {
		return nil, &SyntaxError{Line: n.GetToken().Position.Line + c.lineOffset, Msg: fmt.Sprintf("the document expands to more than %d values (aliases)", MaxNodes)}
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
	docs, err := parseDocuments(data)
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
