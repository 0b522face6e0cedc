package kubectl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v2"

	"daemonlab/core/api"
	"daemonlab/core/jsonpath"
)

// Structured output (-o yaml, -o json) as kubectl prints it. kubectl receives objects from
// the API server as JSON, decodes them into maps and re-encodes them, so:
//
//  1. keys come out sorted at every level (apiVersion, kind, metadata, spec, status);
//  2. -o json indents by four spaces and escapes <, > and & as Go's encoder does;
//  3. -o yaml converts that JSON with the YAML v2 emitter of sigs.k8s.io/yaml (quoting of
//     "true" and "1", literal blocks for multi-line strings, lines folded at 80 columns);
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
	name         string // "", wide, name, yaml, json, jsonpath, jsonpath-as-json
	template     *jsonpath.Template
	raw          string // the jsonpath template as typed
	allowMissing bool
}

// generic reports whether the format prints one document for the whole answer (kubectl's
// "generic" printers) rather than a table or names per resource type.
func (o outputFormat) generic() bool {
	switch o.name {
	case "yaml", "json", "jsonpath", "jsonpath-as-json":
		return true
	}
	return false
}

// parseOutput reads -o, --template and --allow-missing-template-keys as kubectl's print flags do.
func parseOutput(f Flags) (outputFormat, error) {
	o := outputFormat{name: f.Get("output"), allowMissing: f.Get("allow-missing-template-keys") != "false"}
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
	}
	return o, fmt.Errorf("error: DaemonLab does not print -o %s yet; use the table, -o wide, -o name, -o yaml, -o json or -o jsonpath=", o.name)
}

// printGeneric prints v, a lone object or a List, in a generic format.
func printGeneric(b *strings.Builder, v map[string]any, o outputFormat) error {
	switch o.name {
	case "yaml", "json":
		printStructured(b, v, o.name)
		return nil
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

// printStructured writes v in format "yaml" or "json".
func printStructured(b *strings.Builder, v any, format string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "    ")
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("kubectl: cannot encode output: %v", err))
	}
	if format == "json" {
		b.Write(buf.Bytes())
		return
	}
	// sigs.k8s.io/yaml.JSONToYAML: YAML v2 reads the JSON (picking int or float for
	// numbers) and writes it back as block YAML.
	var tree any
	if err := yaml.Unmarshal(buf.Bytes(), &tree); err != nil {
		panic(fmt.Sprintf("kubectl: cannot convert output to YAML: %v", err))
	}
	out, err := yaml.Marshal(tree)
	if err != nil {
		panic(fmt.Sprintf("kubectl: cannot convert output to YAML: %v", err))
	}
	b.Write(out)
}
