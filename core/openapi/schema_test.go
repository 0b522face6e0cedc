//go:build !(js && wasm)

package openapi

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

var update = flag.Bool("update", false, "regenerate openapi.json from kubernetes v1.37.2's OpenAPI v3 documents")

// kubernetesVersion is the release whose api/openapi-spec/v3 documents openapi.json is cut from.
const kubernetesVersion = "v1.37.2"

// keptKeys are the schema keys kubectl explain's plaintext template reads, and the patch
// strategies and merge keys of strategic merge patches.
var keptKeys = []string{"description", "type", "properties", "required", "items", "additionalProperties", "allOf", "enum", "$ref", "externalDocs", "x-kubernetes-group-version-kind", "x-kubernetes-patch-strategy", "x-kubernetes-patch-merge-key"}

// patchKeys are the schema keys strategic merge patches read (package patch: the structure,
// the patch strategies and merge keys) and Root reads (the group-version-kind): all that
// patch.json keeps of openapi.json.
var patchKeys = []string{"properties", "items", "additionalProperties", "allOf", "$ref", "x-kubernetes-group-version-kind", "x-kubernetes-patch-strategy", "x-kubernetes-patch-merge-key"}

// specDir finds kubernetes' OpenAPI v3 documents in the module cache, downloading the module
// when asked to update.
func specDir(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	require.NoError(t, err)
	dir := filepath.Join(strings.TrimSpace(string(out)), "k8s.io", "kubernetes@"+kubernetesVersion, "api", "openapi-spec", "v3")
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	if !*update {
		t.Skipf("kubernetes %s is not in the module cache; `go test ./core/openapi -run TestSchemaIsUpstreams -update` downloads it", kubernetesVersion)
	}
	require.NoError(t, exec.Command("go", "mod", "download", "k8s.io/kubernetes@"+kubernetesVersion).Run())
	return dir
}

// trim keeps of a schema the keys kept, recursively, and collects the references it meets.
func trim(v any, refs map[string]bool, kept []string) any {
	m, ok := v.(map[string]any)
	if !ok {
		if list, ok := v.([]any); ok {
			for i := range list {
				list[i] = trim(list[i], refs, kept)
			}
		}
		return v
	}
	out := map[string]any{}
	for _, k := range kept {
		x, ok := m[k]
		if !ok {
			continue
		}
		switch k {
		case "properties":
			props := map[string]any{}
			for name, p := range x.(map[string]any) {
				props[name] = trim(p, refs, kept)
			}
			out[k] = props
		case "$ref":
			refs[x.(string)] = true
			out[k] = x
		case "items", "additionalProperties", "allOf":
			out[k] = trim(x, refs, kept)
		default:
			out[k] = x
		}
	}
	return out
}

// build cuts one group-version's document down to the kinds DaemonLab models: their list paths
// (for the GVK lookup) and the schemas reachable from them.
func build(t *testing.T, file string, kinds []api.Kind) map[string]any {
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var doc struct {
		Paths      map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	paths := map[string]any{}
	refs := map[string]bool{}
	for _, k := range kinds {
		path := ListPath(k)
		op, ok := doc.Paths[path]["get"].(map[string]any)
		require.True(t, ok, "no GET %s", path)
		paths[path] = map[string]any{"get": map[string]any{"x-kubernetes-group-version-kind": op["x-kubernetes-group-version-kind"]}}
		for name, s := range doc.Components.Schemas {
			if gvks, ok := s.(map[string]any)["x-kubernetes-group-version-kind"].([]any); ok {
				for _, g := range gvks {
					if g.(map[string]any)["kind"] == k.Kind && g.(map[string]any)["group"] == k.Group {
						refs["#/components/schemas/"+name] = true
					}
				}
			}
		}
	}
	schemas := map[string]any{}
	for len(refs) > 0 {
		var next = map[string]bool{}
		for ref := range refs {
			name := strings.TrimPrefix(ref, "#/components/schemas/")
			if _, done := schemas[name]; done {
				continue
			}
			s, ok := doc.Components.Schemas[name]
			require.True(t, ok, "missing schema %s", name)
			schemas[name] = trim(s, next, keptKeys)
		}
		refs = next
	}
	return map[string]any{"openapi": "3.0.0", "paths": paths, "components": map[string]any{"schemas": schemas}}
}

// TestSchemaIsUpstreams checks that openapi.json is what kubernetes v1.37.2's OpenAPI v3
// documents give for the modelled kinds (rewrite it with -update), and that the documents read
// back from it are those documents whole.
func TestSchemaIsUpstreams(t *testing.T) {
	dir := specDir(t)
	docs := map[string]map[string]any{}
	for gv, file := range map[string]string{"api/v1": "api__v1_openapi.json", "apis/apps/v1": "apis__apps__v1_openapi.json", "apis/policy/v1": "apis__policy__v1_openapi.json", "apis/scheduling.k8s.io/v1": "apis__scheduling.k8s.io__v1_openapi.json"} {
		var kinds []api.Kind
		for _, k := range api.Kinds {
			if GroupVersionPath(k) == gv {
				kinds = append(kinds, k)
			}
		}
		docs[gv] = build(t, filepath.Join(dir, file), kinds)
	}
	want, err := json.Marshal(shared(t, docs))
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile("openapi.json", append(want, '\n'), 0o644))
	}
	got, err := os.ReadFile("openapi.json")
	require.NoError(t, err)
	if !assert.JSONEq(t, string(want), string(got), "openapi.json is stale: go test ./core/openapi -run TestSchemaIsUpstreams -update") {
		return
	}
	whole, err := json.Marshal(docs)
	require.NoError(t, err)
	assert.JSONEq(t, string(whole), string(Raw()), "the documents come back whole")
}

// shared writes documents as openapi.json holds them: every schema once, under "schemas", and
// each document's paths and the names of its schemas; a name two documents give different
// schemas would be an error (upstream's documents never do).
func shared(t *testing.T, docs map[string]map[string]any) map[string]any {
	schemas := map[string]any{}
	documents := map[string]any{}
	for gv, doc := range docs {
		own := doc["components"].(map[string]any)["schemas"].(map[string]any)
		names := make([]string, 0, len(own))
		for name, s := range own {
			if seen, ok := schemas[name]; ok {
				require.Equal(t, seen, s, "%s differs between documents", name)
			}
			schemas[name] = s
			names = append(names, name)
		}
		slices.Sort(names)
		documents[gv] = map[string]any{"openapi": doc["openapi"], "paths": doc["paths"], "schemas": names}
	}
	return map[string]any{"schemas": schemas, "documents": documents}
}

// TestPatchDocumentsAreOpenAPIsCutDown checks that patch.json, which the page links in instead
// of openapi.json, is openapi.json with only patchKeys kept in every schema (rewrite it with
// -update), so that strategic merge patches read the same in both.
func TestPatchDocumentsAreOpenAPIsCutDown(t *testing.T) {
	whole, err := os.ReadFile("openapi.json")
	require.NoError(t, err)
	var f map[string]map[string]any
	require.NoError(t, json.Unmarshal(whole, &f))
	for name, s := range f["schemas"] {
		f["schemas"][name] = trim(s, map[string]bool{}, patchKeys)
	}
	want, err := json.Marshal(f)
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile("patch.json", append(want, '\n'), 0o644))
	}
	got, err := os.ReadFile("patch.json")
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got), "patch.json is stale: go test ./core/openapi -run TestPatchDocumentsAreOpenAPIsCutDown -update")
}

// TestLoadRefusesWhatIsNotTheDocuments pins Load's refusals: each is a clear error, and the
// documents stay as they were.
func TestLoadRefusesWhatIsNotTheDocuments(t *testing.T) {
	before := Raw()
	for _, tc := range []struct {
		name, data, err string
	}{
		{"not JSON", "<html>404</html>", "the documents are not OpenAPI documents in DaemonLab's format"},
		{"another shape", `{"schemas": [1, 2]}`, "the documents are not OpenAPI documents in DaemonLab's format"},
		{"no documents", `{"schemas": {}, "documents": {}}`, "there are none"},
		{"a schema missing", `{"schemas": {}, "documents": {"api/v1": {"openapi": "3.0.0", "paths": {}, "schemas": ["io.k8s.api.core.v1.Pod"]}}}`, "the document api/v1 names the schema io.k8s.api.core.v1.Pod, which the documents do not hold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Load([]byte(tc.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			assert.JSONEq(t, string(before), string(Raw()), "a refused load changes nothing")
			assert.True(t, Described())
		})
	}
}

// TestLoadedDocumentsAreTheLinkedOnes checks that openapi.json handed to Load, as the page
// fetches it, gives the documents the native build links in: one definition, two ways in.
func TestLoadedDocumentsAreTheLinkedOnes(t *testing.T) {
	linkedDocs := Raw()
	data, err := os.ReadFile("openapi.json")
	require.NoError(t, err)
	require.NoError(t, Load(data))
	assert.JSONEq(t, string(linkedDocs), string(Raw()))
	assert.True(t, Described())
}
