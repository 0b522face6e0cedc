package jsonpath

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Values are what encoding/json decodes into an interface: map[string]any, []any, string,
// float64 (or int64, as kubectl's unstructured objects hold integers), bool and nil.

// Options change how a template runs.
type Options struct {
	// AllowMissingKeys makes a field that is nowhere to be found print nothing rather than
	// fail ("x is not found"); kubectl turns it on unless --allow-missing-template-keys=false.
	AllowMissingKeys bool
	// JSON prints each action's values as an indented JSON array (-o jsonpath-as-json).
	JSON bool
}

// Execute runs the template on data and returns what kubectl would print.
func (t *Template) Execute(data any, opts Options) (string, error) {
	r := &run{opts: opts}
	results, err := r.block(t.root.nodes, data)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, vs := range results {
		if err := print(&b, vs, opts.JSON); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// Results returns the values each action yields (client-go's FindResults).
func (t *Template) Results(data any, opts Options) ([][]any, error) {
	r := &run{opts: opts}
	return r.block(t.root.nodes, data)
}

// Values returns the values of a template of one action (what --sort-by compares), or nil.
func (t *Template) Values(data any, opts Options) ([]any, error) {
	results, err := t.Results(data, opts)
	if err != nil || len(results) == 0 {
		return nil, err
	}
	return results[0], nil
}

// run is the state of one execution: ranges asked for, open and ended, and the last "end".
type run struct {
	opts                          Options
	beginRange, inRange, endRange int
	lastEnd                       node
}

// block evaluates nodes from root as client-go's FindResults does, counters and all: each
// action runs from the root; after an action that said "range" (once per "range" it said),
// the nodes after it run once per value it yielded, up to an "end"; then evaluation carries
// on after the last "end" met (without one, the nodes after "range" run once more).
func (r *run) block(nodes []node, root any) ([][]any, error) {
	var out [][]any
	for i := 0; i < len(nodes); i++ {
		values, err := r.walk([]any{root}, nodes[i])
		if err != nil {
			return nil, err
		}
		if r.endRange > 0 && r.endRange <= r.inRange {
			r.endRange--
			r.lastEnd = nodes[i]
			break
		}
		if r.beginRange == 0 {
			out = append(out, values)
			continue
		}
		r.beginRange--
		r.inRange++
		body := nodes[i+1:]
		if len(values) == 0 {
			if _, err := r.block(body, nil); err != nil {
				return nil, err
			}
		}
		for _, v := range values {
			sub, err := r.block(body, v)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
		}
		r.inRange--
		for k := i + 1; k < len(nodes); k++ {
			if nodes[k] == r.lastEnd {
				i = k
				break
			}
		}
	}
	return out, nil
}

// walk evaluates one node on a list of values.
func (r *run) walk(in []any, n node) ([]any, error) {
	switch n := n.(type) {
	case *listNode:
		cur := in
		for _, c := range n.nodes {
			var err error
			if cur, err = r.walk(cur, c); err != nil {
				return cur, err
			}
		}
		return cur, nil
	case *textNode:
		return []any{n.text}, nil
	case *intNode:
		return repeat(in, n.value), nil
	case *floatNode:
		return repeat(in, n.value), nil
	case *boolNode:
		return repeat(in, n.value), nil
	case *identNode:
		switch n.name {
		case "range":
			r.beginRange++
			return in, nil
		case "end":
			if r.inRange == 0 {
				return nil, errors.New("not in range, nothing to end")
			}
			r.endRange++
			return nil, nil
		}
		return in, fmt.Errorf("unrecognized identifier %v", n.name)
	case *fieldNode:
		return r.field(in, n.name)
	case *arrayNode:
		return slice(in, n.params)
	case *unionNode:
		var out []any
		for _, part := range n.parts {
			vs, err := r.walk(in, part)
			if err != nil {
				return in, err
			}
			out = append(out, vs...)
		}
		return out, nil
	case *wildcardNode:
		var out []any
		for _, v := range in {
			out = append(out, children(v)...)
		}
		return out, nil
	case *recursiveNode:
		return descend(in), nil
	case *filterNode:
		return r.filter(in, n)
	}
	panic(fmt.Sprintf("jsonpath: unknown node %T", n))
}

func repeat[T any](in []any, v T) []any {
	out := make([]any, len(in))
	for i := range in {
		out[i] = v
	}
	return out
}

func (r *run) field(in []any, name string) ([]any, error) {
	var out []any
	if len(in) == 0 {
		return out, nil
	}
	for _, v := range in {
		if m, ok := v.(map[string]any); ok {
			if x, ok := m[name]; ok {
				out = append(out, x)
			}
		}
	}
	if len(out) == 0 && !r.opts.AllowMissingKeys {
		return out, fmt.Errorf("%s is not found", name)
	}
	return out, nil
}

// slice applies [start:end:step] to each list, as client-go's evalArray does (including that an
// empty selection stops at once).
func slice(in []any, params [3]param) ([]any, error) {
	var out []any
	for _, v := range in {
		if v == nil {
			continue
		}
		list, ok := v.([]any)
		if !ok {
			return in, fmt.Errorf("%T is not array or slice", v)
		}
		p := params
		n := len(list)
		if !p[0].known {
			p[0].value = 0
		}
		if p[0].value < 0 {
			p[0].value += n
		}
		if !p[1].known {
			p[1].value = n
		}
		if p[1].value < 0 || (p[1].value == 0 && p[1].derived) {
			p[1].value += n
		}
		if p[1].value == p[0].value {
			return out, nil
		}
		switch {
		case p[0].value >= n || p[0].value < 0:
			return in, fmt.Errorf("array index out of bounds: index %d, length %d", p[0].value, n)
		case p[1].value > n || p[1].value < 0:
			return in, fmt.Errorf("array index out of bounds: index %d, length %d", p[1].value-1, n)
		case p[0].value > p[1].value:
			return in, fmt.Errorf("starting index %d is greater than ending index %d", p[0].value, p[1].value)
		}
		step := 1
		if p[2].known {
			if p[2].value <= 0 {
				return in, errors.New("step must be > 0")
			}
			step = p[2].value
		}
		for i := p[0].value; i < p[1].value; i += step {
			out = append(out, list[i])
		}
	}
	return out, nil
}

// children lists a value's elements: a map's values (by key), a list's items, a string's bytes.
func children(v any) []any {
	var out []any
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, v[k])
		}
	case []any:
		out = append(out, v...)
	case string:
		for i := 0; i < len(v); i++ {
			out = append(out, v[i])
		}
	}
	return out
}

// descend lists every value with children, each before its descendants.
func descend(in []any) []any {
	var out []any
	for _, v := range in {
		if c := children(v); len(c) > 0 {
			out = append(out, v)
			out = append(out, descend(c)...)
		}
	}
	return out
}

func (r *run) filter(in []any, n *filterNode) ([]any, error) {
	var out []any
	for _, v := range in {
		list, ok := v.([]any)
		if !ok {
			return in, fmt.Errorf("%v is not array or slice and cannot be filtered", printable(v))
		}
		for _, item := range list {
			lefts, err := r.walk([]any{item}, n.left)
			if n.op == "exists" {
				if len(lefts) > 0 {
					out = append(out, item)
				}
				continue
			}
			if err != nil {
				return in, err
			}
			if len(lefts) == 0 {
				continue
			}
			if len(lefts) > 1 {
				return in, errors.New("can only compare one element at a time")
			}
			rights, err := r.walk([]any{item}, n.right)
			if err != nil {
				return in, err
			}
			if len(rights) == 0 {
				continue
			}
			if len(rights) > 1 {
				return in, errors.New("can only compare one element at a time")
			}
			pass, err := compare(n.op, lefts[0], rights[0])
			if err != nil {
				return out, err
			}
			if pass {
				out = append(out, item)
			}
		}
	}
	return out, nil
}

// printable is a value as fmt prints it ("<nil>" for a missing value).
func printable(v any) string { return fmt.Sprintf("%v", v) }

// print writes one action's values: containers as JSON, the rest as text, space-separated.
func print(b *strings.Builder, values []any, asJSON bool) error {
	if asJSON {
		if values == nil {
			values = []any{}
		}
		data, err := json.MarshalIndent(values, "", "    ")
		if err != nil {
			return err
		}
		b.Write(data)
		b.WriteByte('\n')
		return nil
	}
	for i, v := range values {
		switch v.(type) {
		case map[string]any, []any:
			data, err := json.Marshal(v)
			if err != nil {
				return err
			}
			b.Write(data)
		case nil:
			b.WriteString("null")
		default:
			fmt.Fprint(b, v)
		}
		if i != len(values)-1 {
			b.WriteByte(' ')
		}
	}
	return nil
}
