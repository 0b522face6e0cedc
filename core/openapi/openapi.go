// Package openapi is the API server's OpenAPI v3 documents for the kinds DaemonLab models:
// what kubectl explain prints and what strategic merge patches follow (patch strategies and
// merge keys).
//
// openapi.json holds the documents of the groups DaemonLab models (api/v1, apis/apps/v1,
// apis/policy/v1, apis/scheduling.k8s.io/v1), cut down to its kinds and to the keys explain and
// patching read; TestSchemaIsUpstreams checks it against kubernetes v1.37.2's. A schema the
// documents share (ObjectMeta in all of them, the pod spec in api/v1 and apps/v1) is written
// once: the file is {"schemas": every schema by name, "documents": by group-version path, each
// document's paths and the names of its schemas}, and Document puts each document back whole.
package openapi

import (
	_ "embed"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	"daemonlab/core/api"
)

//go:embed openapi.json
var openapiJSON []byte

// Schema is one OpenAPI schema object, as decoded JSON.
type Schema = map[string]any

var (
	docsOnce sync.Once
	docs     map[string]Schema // by group-version path: "api/v1", "apis/apps/v1"
)

// file is openapi.json: the schemas once, and the documents that name them.
type file struct {
	Schemas   map[string]Schema `json:"schemas"`
	Documents map[string]struct {
		OpenAPI string   `json:"openapi"`
		Paths   Schema   `json:"paths"`
		Schemas []string `json:"schemas"`
	} `json:"documents"`
}

// documents reads openapi.json into whole documents, by group-version path; the documents
// share the schemas they have in common.
func documents() map[string]Schema {
	docsOnce.Do(func() {
		var f file
		if err := json.Unmarshal(openapiJSON, &f); err != nil {
			panic("openapi: openapi.json: " + err.Error()) // embedded at build time, checked by tests
		}
		docs = map[string]Schema{}
		for gv, d := range f.Documents {
			schemas := Schema{}
			for _, name := range d.Schemas {
				schemas[name] = f.Schemas[name]
			}
			docs[gv] = Schema{"openapi": d.OpenAPI, "paths": d.Paths, "components": Schema{"schemas": schemas}}
		}
	})
	return docs
}

// Raw returns the documents by group-version path, as JSON: what the API server serves at
// /openapi/v3/<path>, keyed by path.
func Raw() []byte {
	data, err := json.Marshal(documents())
	if err != nil {
		panic("openapi: " + err.Error()) // decoded JSON always encodes
	}
	return data
}

// Document returns the OpenAPI document of kind k's group-version.
func Document(k api.Kind) Schema {
	return documents()[GroupVersionPath(k)]
}

// GroupVersionPath is where a kind's group-version is served: api/v1 or apis/<group>/<version>.
func GroupVersionPath(k api.Kind) string {
	if k.Group == "" {
		return "api/" + k.Version
	}
	return "apis/" + k.Group + "/" + k.Version
}

// ListPath is the path that lists a kind across namespaces.
func ListPath(k api.Kind) string { return "/" + GroupVersionPath(k) + "/" + k.Resource }

// GVK is a kind as x-kubernetes-group-version-kind writes it.
func GVK(k api.Kind) map[string]any {
	return map[string]any{"group": k.Group, "kind": k.Kind, "version": k.Version}
}

// Root returns the schema of kind k (the one whose x-kubernetes-group-version-kind names it).
func Root(k api.Kind) Schema {
	doc := Document(k)
	schemas := AsMap(AsMap(doc["components"])["schemas"])
	names := make([]string, 0, len(schemas))
	for name := range schemas {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if s := AsMap(schemas[name]); Contains(s["x-kubernetes-group-version-kind"], GVK(k)) {
			return s
		}
	}
	return nil
}

// Resolve returns the schema a "#/components/schemas/…" reference names in doc, or nil.
func Resolve(doc Schema, ref any) Schema {
	s, ok := ref.(string)
	if !ok || !strings.HasPrefix(s, "#/") {
		return nil
	}
	var cur any = doc
	for _, part := range strings.Split(strings.TrimPrefix(s, "#/"), "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	m, _ := cur.(map[string]any)
	return m
}

// Resolved is the schema s refers to, or s itself.
func Resolved(doc, s Schema) Schema {
	if ref := Resolve(doc, s["$ref"]); ref != nil {
		return ref
	}
	return s
}

// Value is what a field's schema describes once references and single-element allOf wrappers
// are followed: the object, array or scalar schema itself.
func Value(doc, s Schema) Schema {
	res := Resolved(doc, s)
	if all := AsList(res["allOf"]); len(all) == 1 && len(AsMap(res["properties"])) == 0 {
		return Value(doc, AsMap(all[0]))
	}
	return res
}

// Contains reports whether a JSON list holds value.
func Contains(list, value any) bool {
	for _, x := range AsList(list) {
		if reflect.DeepEqual(x, value) {
			return true
		}
	}
	return false
}

// AsMap is v as a JSON object, or nil.
func AsMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// AsList is v as a JSON array, or nil.
func AsList(v any) []any {
	l, _ := v.([]any)
	return l
}
