package kubectl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"daemonlab/core/api"
	"daemonlab/core/jsonpath"
)

// Structured output (-o yaml, -o json) as kubectl prints it. kubectl receives objects from
// the API server as JSON, decodes them into maps and re-encodes them, so:
//
//  1. keys come out sorted at every level (apiVersion, kind, metadata, spec, status);
//  2. -o json indents by four spaces and escapes <, > and & as Go's encoder does;
//  3. -o yaml converts that JSON as sigs.k8s.io/yaml does, with YAML v2 (jsonToYAML: quoting
//     of "true" and "1", literal blocks for multi-line strings, lines folded at 80 columns);
//  4. a request for one named object prints the object; any other request prints a List
//     (apiVersion v1, items, kind List, metadata.resourceVersion ""), even with one item.

// structured returns obj as kubectl's JSON value (a map with number literals kept).
func structured(obj api.Object, kind api.Kind) map[string]any {
	tm := obj.GetTypeMeta()
	if tm.Kind == "" {
		tm = &api.TypeMeta{APIVersion: kind.APIVersion(), Kind: kind.Kind}
	}
	data, err := json.Marshal(obj)
	if err != nil {
		panic(fmt.Sprintf("kubectl: cannot encode a stored %s: %v", kind.Kind, err)) // stored objects always encode
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		panic(fmt.Sprintf("kubectl: cannot decode a stored %s: %v", kind.Kind, err))
	}
	m["apiVersion"], m["kind"] = tm.APIVersion, tm.Kind
	return m
}

// listOf wraps items the way kubectl get does for a list request.
func listOf(items []any) map[string]any {
	if items == nil {
		items = []any{}
	}
	return map[string]any{"apiVersion": "v1", "items": items, "kind": "List", "metadata": map[string]any{"resourceVersion": ""}}
}

// outputFormat is what -o asks for.
type outputFormat struct {
	name         string // "", wide, name, yaml, json, jsonpath, jsonpath-as-json, custom-columns
	template     *jsonpath.Template
	raw          string // the jsonpath template or column spec as typed
	allowMissing bool
	columns      []customColumn
	noHeaders    bool // --no-headers: tables and custom columns without their header line
}

// customColumn is one column of -o custom-columns=HEADER:PATH,…
type customColumn struct {
	header string
	path   *jsonpath.Template
}

// generic reports whether the format prints one document for the whole answer (kubectl's
// "generic" printers) rather than a table or names per resource type.
func (o outputFormat) generic() bool {
	switch o.name {
	case "yaml", "json", "jsonpath", "jsonpath-as-json", "custom-columns":
		return true
	}
	return false
}

// parseOutput reads -o, --template and --allow-missing-template-keys as kubectl's print flags do.
func parseOutput(f Flags) (outputFormat, error) {
	o := outputFormat{name: f.Get("output"), allowMissing: f.Get("allow-missing-template-keys") != "false", noHeaders: f.IsTrue("no-headers")}
	for _, format := range []string{"jsonpath", "jsonpath-as-json", "jsonpath-file", "custom-columns", "custom-columns-file", "go-template", "go-template-file"} {
		if strings.HasPrefix(o.name, format+"=") {
			o.name, o.raw = format, strings.TrimPrefix(o.name, format+"=")
		}
	}
	switch o.name {
	case "", "wide", "name", "yaml", "json":
		return o, nil
	case "jsonpath", "jsonpath-as-json":
		if o.raw == "" {
			o.raw = f.Get("template")
		}
		if o.raw == "" {
			return o, fmt.Errorf("error: template format specified but no template given")
		}
		t, err := jsonpath.Parse(o.raw)
		if err != nil {
			return o, fmt.Errorf("error: error parsing jsonpath %s, %v", o.raw, err)
		}
		o.template = t
		return o, nil
	case "custom-columns":
		return o, o.parseColumns()
	}
	return o, fmt.Errorf("error: DaemonLab does not print -o %s yet; use the table, -o wide, -o name, -o yaml, -o json, -o jsonpath= or -o custom-columns=", o.name)
}

// parseColumns reads a custom-columns spec (NewCustomColumnsPrinterFromSpec): comma-separated
// HEADER:PATH pairs, each path a field path in any of kubectl's relaxed spellings.
func (o *outputFormat) parseColumns() error {
	if o.raw == "" {
		return fmt.Errorf("error: custom-columns format specified but no custom columns given")
	}
	for _, part := range strings.Split(o.raw, ",") {
		header, path, ok := strings.Cut(part, ":")
		if !ok {
			return fmt.Errorf("error: unexpected custom-columns spec: %s, expected <header>:<json-path-expr>", part)
		}
		spec := path
		if path != "" {
			m := relaxedPath.FindStringSubmatch(path)
			if m == nil {
				return fmt.Errorf("error: unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'")
			}
			spec = "{." + m[1] + m[2] + "}"
		}
		t, err := jsonpath.Parse(spec)
		if err != nil {
			return fmt.Errorf("error: %v", err)
		}
		o.columns = append(o.columns, customColumn{header, t})
	}
	return nil
}

// printColumns is the custom-columns printer: the headers, then a row per object, each cell the
// path's values joined by commas ("<none>" for none), aligned as kubectl's tables are.
func printColumns(b *strings.Builder, v any, columns []customColumn, noHeaders bool) error {
	objs := []any{v}
	if m, ok := v.(map[string]any); ok && m["kind"] == "List" {
		objs = asList(m["items"])
	}
	w := tabwriter.NewWriter(b, 6, 4, 3, ' ', 0)
	if !noHeaders {
		headers := make([]string, len(columns))
		for i, c := range columns {
			headers[i] = c.header
		}
		fmt.Fprintln(w, strings.Join(headers, "\t"))
	}
	for _, obj := range objs {
		cells := make([]string, len(columns))
		for i, c := range columns {
			results, err := c.path.Results(obj, jsonpath.Options{AllowMissingKeys: true})
			if err != nil {
				return fmt.Errorf("error: %v", err)
			}
			var values []string
			for _, vs := range results {
				for _, x := range vs {
					values = append(values, terminalEscaper.Replace(fmt.Sprint(x)))
				}
			}
			if len(values) == 0 {
				values = []string{"<none>"}
			}
			cells[i] = strings.Join(values, ",")
		}
		fmt.Fprintln(w, strings.Join(cells, "\t"))
	}
	return w.Flush()
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// printGeneric prints v, a lone object or a List, in a generic format.
func printGeneric(b *strings.Builder, v map[string]any, o outputFormat) error {
	switch o.name {
	case "yaml", "json":
		return printStructured(b, v, o.name)
	case "custom-columns":
		return printColumns(b, unstructured(v), o.columns, o.noHeaders)
	}
	// kubectl hands jsonpath unstructured content: integers are int64, other numbers float64.
	data := unstructured(v)
	out, err := o.template.Execute(data, jsonpath.Options{AllowMissingKeys: o.allowMissing, JSON: o.name == "jsonpath-as-json"})
	if err != nil {
		return fmt.Errorf("error: error executing jsonpath %q: Error executing template: %v. Printing more information for debugging the template:\n"+
			"\ttemplate was:\n\t\t%v\n\tobject given to jsonpath engine was:\n\t\t%#v\n\n", o.raw, err, o.raw, data)
	}
	b.WriteString(out)
	return nil
}

// unstructured converts the numbers of a structured value to int64 (integers) or float64, as
// Kubernetes' unstructured objects hold them.
func unstructured(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = unstructured(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = unstructured(x)
		}
		return l
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	}
	return v
}

// printStructured writes v in format "yaml" or "json". YAML comes with kubectl's error when
// text in v holds a character YAML's reader refuses (see yamlReadable).
func printStructured(b *strings.Builder, v any, format string) error {
	data := indentedJSON(v)
	if format == "json" {
		b.Write(data)
		return nil
	}
	if err := yamlReadable(data); err != nil {
		return err
	}
	b.Write(jsonToYAML(data))
	return nil
}

// indentedJSON is v as kubectl's JSON printer writes it.
func indentedJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "    ")
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("kubectl: cannot encode output: %v", err)) // built from the API types
	}
	return buf.Bytes()
}
