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
//
// Where the documents come from depends on the build:
//
//  1. Natively, and in every test, openapi.json is linked in (documents_full.go).
//  2. The page's build (tag lazydata, set by the Makefile) links in patch.json instead: the same
//     documents in the same format, cut down to what strategic merge patches read (a sixth of
//     openapi.json's size, compressed), so that patching works from the start. The page fetches
//     openapi.json after its first paint and hands it to Load; until then Described is false
//     and kubectl explain says its documents are still downloading.
package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"daemonlab/core/api"
)

// Schema is one OpenAPI schema object, as decoded JSON.
type Schema = map[string]any

var (
	docsOnce  sync.Once
	docs      map[string]Schema // by group-version path: "api/v1", "apis/apps/v1"
	described = linkedDescribed // whether docs hold explain's descriptions
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

// documents returns the documents by group-version path: those linked in (see the package's
// doc), read at first use, or those Load read since.
func documents() map[string]Schema {
	docsOnce.Do(func() {
		if docs == nil {
			var err error
			if docs, err = parse(linked); err != nil {
				panic("openapi: the linked documents: " + err.Error()) // embedded at build time, checked by tests
			}
		}
	})
	return docs
}

// parse reads documents in openapi.json's format into whole documents, by group-version path;
// the documents share the schemas they have in common. It refuses:
//
//  1. data that is not that format's JSON, or no documents;
//  2. a document that names a schema the data does not hold.
func parse(data []byte) (map[string]Schema, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("the documents are not OpenAPI documents in DaemonLab's format: %w", err)
	}
	if len(f.Documents) == 0 {
		return nil, errors.New("the documents are not OpenAPI documents in DaemonLab's format: there are none")
	}
	out := map[string]Schema{}
	for gv, d := range f.Documents {
		schemas := Schema{}
		for _, name := range d.Schemas {
			s, ok := f.Schemas[name]
			if !ok {
				return nil, fmt.Errorf("the document %s names the schema %s, which the documents do not hold", gv, name)
			}
			schemas[name] = s
		}
		out[gv] = Schema{"openapi": d.OpenAPI, "paths": d.Paths, "components": Schema{"schemas": schemas}}
	}
	return out, nil
}

// Load replaces the documents with openapi.json's, as the page fetched it: from then on
// Described is true. Data parse refuses (see parse) is an error and changes nothing.
func Load(data []byte) error {
	d, err := parse(data)
	if err != nil {
		return err
	}
	docsOnce.Do(func() {})
	docs, described = d, true
	return nil
}

// Described reports whether the documents hold the descriptions kubectl explain prints: always
// natively, and in the page once Load has read openapi.json.
func Described() bool { return described }

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
