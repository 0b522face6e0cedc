// Package explain is kubectl explain: the documentation of a kind or of one of its fields, from
// the API server's OpenAPI v3 documents (package openapi), laid out as kubectl v1.37's plaintext
// template (k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl) lays it out.
package explain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mitchellh/go-wordwrap"

	"daemonlab/core/api"
	"daemonlab/core/openapi"
)

// schema is one OpenAPI schema object.
type schema = openapi.Schema

// Options are explain's flags.
type Options struct {
	Recursive bool // --recursive: every field below, names and types only
	MaxDepth  int  // --max-depth with --recursive: how deep; 0 for no limit
}

// Explain documents kind k, or the field at path below it, as kubectl explain prints it:
//
//  1. GROUP (for a named group), KIND and VERSION.
//  2. For a field, FIELD with its type (and ENUM values), descending through objects, arrays and
//     maps to the field named.
//  3. DESCRIPTION, wrapped at 76 columns, then FIELDS: each field, its type, -required- and
//     up to four enum values, and its description.
//
// A field that does not exist is kubectl's `field "x" does not exist`.
func Explain(k api.Kind, path []string, opts Options) (string, error) {
	var b strings.Builder
	if k.Group != "" {
		fmt.Fprintf(&b, "GROUP:      %s\n", k.Group)
	}
	fmt.Fprintf(&b, "KIND:       %s\nVERSION:    %s\n\n", k.Kind, k.Version)
	if root := openapi.Root(k); root != nil {
		out := renderer{doc: openapi.Document(k), opts: opts}.output(root, nil, path)
		if out == "" {
			return "", fmt.Errorf("field %q does not exist", path[len(path)-1])
		}
		b.WriteString(out)
	}
	b.WriteString("\n")
	return b.String(), nil
}

type renderer struct {
	doc  schema
	opts Options
}

func (r renderer) resolveRef(ref any) schema { return openapi.Resolve(r.doc, ref) }

// resolved is the schema a schema refers to, or the schema itself.
func (r renderer) resolved(s schema) schema { return openapi.Resolved(r.doc, s) }

// output is the template's "output": follow the path, then print the description and fields.
func (r renderer) output(s schema, history map[string]bool, path []string) string {
	ref, _ := s["$ref"].(string)
	next := withRef(history, ref)
	res := r.resolved(s)
	if len(path) == 0 {
		desc := r.description(s)
		if desc == "" {
			desc = "<empty>"
		}
		out := "DESCRIPTION:\n" + indent(4, wordwrap.WrapString(desc, 76)) + "\n"
		if docs := externalDocs(res, 0); docs != "" {
			out += "\n" + docs
		}
		if fields := r.fieldList(res, 1, nil); fields != "" {
			out += "FIELDS:\n" + fields
		}
		return out
	}
	if ref != "" && history[ref] {
		return ""
	}
	if sub := asMap(asMap(res["properties"])[path[0]]); len(sub) > 0 {
		out := ""
		if len(path) == 1 {
			out = fmt.Sprintf("FIELD: %s <%s>\n", path[0], r.typeGuess(sub)) + extractEnum(sub, true, -1, 0) + "\n\n"
		}
		return out + r.output(sub, nil, path[1:])
	}
	if items := asMap(res["items"]); len(items) > 0 {
		return r.output(items, next, path)
	}
	if addl := asMap(res["additionalProperties"]); len(addl) > 0 {
		return r.output(addl, next, path)
	}
	for _, sub := range asList(res["allOf"]) {
		if out := r.output(asMap(sub), next, path); out != "" {
			return out
		}
	}
	return ""
}

// withRef is history with ref added (a copy, as the template's set makes one).
func withRef(history map[string]bool, ref string) map[string]bool {
	next := make(map[string]bool, len(history)+1)
	for k := range history {
		next[k] = true
	}
	next[ref] = true
	return next
}

// fieldList prints the fields of a schema, sorted by name, and with --recursive their fields,
// following references, array items, map values and allOf; a reference seen before ends the walk.
func (r renderer) fieldList(s schema, level int, history map[string]bool) string {
	ref, _ := s["$ref"].(string)
	if ref != "" && history[ref] {
		return ""
	}
	next := withRef(history, ref)
	res := r.resolved(s)
	var b strings.Builder
	props := asMap(res["properties"])
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		b.WriteString(r.fieldDetail(res, name, level))
		if r.opts.Recursive && (r.opts.MaxDepth == 0 || level < r.opts.MaxDepth) {
			b.WriteString(r.fieldList(asMap(props[name]), level+1, next))
		}
	}
	for _, sub := range asList(res["allOf"]) {
		b.WriteString(r.fieldList(asMap(sub), level, next))
	}
	if items := asMap(res["items"]); len(items) > 0 {
		b.WriteString(r.fieldList(items, level, next))
	}
	if addl := asMap(res["additionalProperties"]); len(addl) > 0 {
		b.WriteString(r.fieldList(addl, level, next))
	}
	return b.String()
}

// fieldDetail prints one field: name, type, -required-, enum values, then (unless recursive)
// its description and external docs.
func (r renderer) fieldDetail(s schema, name string, level int) string {
	pad := level * 2
	field := asMap(asMap(s["properties"])[name])
	out := indent(pad, name) + "\t<" + r.typeGuess(field) + ">"
	if contains(s["required"], name) {
		out += " -required-"
	}
	out += extractEnum(field, false, 4, pad) + "\n"
	if r.opts.Recursive {
		return out
	}
	desc, _ := field["description"].(string)
	if desc == "" {
		desc = "<no description>"
	}
	out += indent(pad+2, wordwrap.WrapString(desc, uint(78-pad))) + "\n"
	if docs := externalDocs(field, pad+2); docs != "" {
		out += "\n" + docs
	}
	return out + "\n"
}

// description gathers a schema's description and those of its allOf, items and map values.
func (r renderer) description(s schema) string {
	res := r.resolved(s)
	out := ""
	if d, _ := res["description"].(string); d != "" {
		out += d + "\n"
	}
	for _, sub := range asList(res["allOf"]) {
		out += r.description(asMap(sub))
	}
	if items := asMap(res["items"]); len(items) > 0 {
		out += r.description(items)
	}
	if addl := asMap(res["additionalProperties"]); len(addl) > 0 {
		out += r.description(addl)
	}
	return out
}

// externalDocs prints a schema's EXTERNAL DOCS block at the given indent, or "".
func externalDocs(s schema, pad int) string {
	docs := asMap(s["externalDocs"])
	if len(docs) == 0 {
		return ""
	}
	out := indent(pad, "EXTERNAL DOCS:") + "\n"
	if d, _ := docs["description"].(string); d != "" {
		out += indent(pad+4, wordwrap.WrapString(d, uint(76-pad))) + "\n"
	}
	if u, _ := docs["url"].(string); u != "" {
		out += indent(pad+4, "URL: "+u) + "\n"
	}
	return out
}

// typeGuess names a schema's type as explain does: []T, map[string]T, the referenced kind's
// name for an object, or the JSON type (object as Object).
func (r renderer) typeGuess(s schema) string {
	switch {
	case len(asMap(s["items"])) > 0:
		return "[]" + r.typeGuess(asMap(s["items"]))
	case len(asMap(s["additionalProperties"])) > 0:
		return "map[string]" + r.typeGuess(asMap(s["additionalProperties"]))
	case len(asList(s["allOf"])) == 1 && len(asMap(s["properties"])) == 0:
		return r.typeGuess(asMap(asList(s["allOf"])[0]))
	}
	if ref, _ := s["$ref"].(string); ref != "" {
		target := r.resolveRef(ref)
		typ, _ := target["type"].(string)
		if target == nil || typ == "" || typ == "object" {
			name := ref[strings.LastIndex(ref, "/")+1:]
			if name = name[strings.LastIndex(name, ".")+1:]; name != "" {
				return name
			}
			return "Object"
		}
		return typ
	}
	switch typ, _ := s["type"].(string); typ {
	case "object", "":
		return "Object"
	default:
		return typ
	}
}

// extractEnum prints a schema's enum values: on the field's own line as "enum: a, b, …" (at most
// limit of them), or after FIELD as "ENUM:" and one value a line.
func extractEnum(s schema, long bool, limit, pad int) string {
	values := asList(s["enum"])
	if len(values) == 0 {
		return ""
	}
	out := "ENUM:"
	if !long {
		out = "\n" + strings.Repeat(" ", pad) + "enum: "
	}
	for i, v := range values {
		if limit > -1 && i >= limit {
			out += ", ...."
			break
		}
		switch {
		case i > 0 && !long:
			out += ", "
		case long:
			out += "\n    "
		}
		if v == "" {
			out += `""`
		} else {
			out += fmt.Sprint(v)
		}
	}
	return out
}

// indent pads the start of s and of every line after it.
func indent(n int, s string) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

var (
	contains = openapi.Contains
	asMap    = openapi.AsMap
	asList   = openapi.AsList
)

// Fields lists the names of the fields at path below kind k (through references, arrays, maps
// and allOf), sorted; nil if the path does not lead to an object.
func Fields(k api.Kind, path []string) []string {
	if root := openapi.Root(k); root != nil {
		return renderer{doc: openapi.Document(k)}.fields(root, path)
	}
	return nil
}

func (r renderer) fields(s schema, path []string) []string {
	res := r.resolved(s)
	for _, key := range []string{"items", "additionalProperties"} {
		if sub := asMap(res[key]); len(sub) > 0 {
			return r.fields(sub, path)
		}
	}
	if all := asList(res["allOf"]); len(all) > 0 && len(asMap(res["properties"])) == 0 {
		return r.fields(asMap(all[0]), path)
	}
	props := asMap(res["properties"])
	if len(path) > 0 {
		sub := asMap(props[path[0]])
		if len(sub) == 0 {
			return nil
		}
		return r.fields(sub, path[1:])
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
