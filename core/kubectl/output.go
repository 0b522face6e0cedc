package kubectl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v2"

	"daemonlab/core/api"
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
