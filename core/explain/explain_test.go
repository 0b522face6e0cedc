//go:build !(js && wasm)

package explain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	openapiclient "k8s.io/client-go/openapi"
	explainv2 "k8s.io/kubectl/pkg/explain/v2"

	"daemonlab/core/api"
	"daemonlab/core/openapi"
)

// fakeOpenAPI serves openapi.json's documents to kubectl's explain, as an API server's
// /openapi/v3 would.
type fakeOpenAPI map[string]openapiclient.GroupVersion

func (f fakeOpenAPI) Paths() (map[string]openapiclient.GroupVersion, error) { return f, nil }

type fakeGroupVersion []byte

func (g fakeGroupVersion) Schema(string) ([]byte, error) { return g, nil }
func (g fakeGroupVersion) ServerRelativeURL() string     { return "" }

func upstreamClient(t *testing.T) fakeOpenAPI {
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(openapi.Raw(), &raw))
	c := fakeOpenAPI{}
	for gv, doc := range raw {
		c[gv] = fakeGroupVersion(doc)
	}
	return c
}

// fieldPaths lists every field path below a kind, down to depth, as a learner could type them.
func fieldPaths(r renderer, s schema, prefix []string, depth int, seen map[string]bool, out *[][]string) {
	if depth == 0 {
		return
	}
	res := r.resolved(s)
	if ref, _ := s["$ref"].(string); ref != "" {
		if seen[ref] {
			return
		}
		seen = withRef(seen, ref)
	}
	for _, sub := range asList(res["allOf"]) {
		fieldPaths(r, asMap(sub), prefix, depth, seen, out)
	}
	if items := asMap(res["items"]); len(items) > 0 {
		fieldPaths(r, items, prefix, depth, seen, out)
	}
	if addl := asMap(res["additionalProperties"]); len(addl) > 0 {
		fieldPaths(r, addl, prefix, depth, seen, out)
	}
	props := asMap(res["properties"])
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		path := append(slices.Clone(prefix), n)
		*out = append(*out, path)
		fieldPaths(r, asMap(props[n]), path, depth-1, seen, out)
	}
}

// TestExplainIsKubectls renders every field path of every modelled kind (down to six levels)
// with kubectl's own plaintext template and with DaemonLab's, and the recursive views, and
// requires the same text.
func TestExplainIsKubectls(t *testing.T) {
	client := upstreamClient(t)
	checked := 0
	for _, k := range api.Kinds {
		doc := openapi.Document(k)
		r := renderer{doc: doc}
		var top schema
		for _, s := range asMap(asMap(doc["components"])["schemas"]) {
			if contains(asMap(s)["x-kubernetes-group-version-kind"], map[string]any{"group": k.Group, "kind": k.Kind, "version": k.Version}) {
				top = asMap(s)
			}
		}
		require.NotNil(t, top, k.Kind)
		paths := [][]string{nil}
		fieldPaths(r, top, nil, 6, nil, &paths)
		gvr := k8sschema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource}
		for _, path := range paths {
			for _, opts := range []Options{{}, {Recursive: true}, {Recursive: true, MaxDepth: 1}} {
				if opts.Recursive && len(path) > 1 {
					continue
				}
				var want bytes.Buffer
				require.NoError(t, explainv2.PrintModelDescription(path, &want, client, gvr, opts.Recursive, opts.MaxDepth, "plaintext"))
				got, err := Explain(k, path, opts)
				require.NoError(t, err)
				if !assert.Equal(t, want.String(), got, "%s %s %+v", k.Kind, strings.Join(path, "."), opts) {
					return
				}
				checked++
			}
		}
	}
	t.Logf("%d explanations identical", checked)
}

// TestExplainUnknownFieldIsKubectlsError pins the message for a path that does not exist.
func TestExplainUnknownFieldIsKubectlsError(t *testing.T) {
	client := upstreamClient(t)
	k := api.Kinds[slices.IndexFunc(api.Kinds, func(k api.Kind) bool { return k.Kind == "DaemonSet" })]
	for _, path := range [][]string{{"spec", "nope"}, {"nope"}, {"spec", "updateStrategy", "rollingUpdate", "maxSurge", "deeper"}} {
		var want bytes.Buffer
		upstream := explainv2.PrintModelDescription(path, &want, client, k8sschema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "daemonsets"}, false, 0, "plaintext")
		require.Error(t, upstream)
		_, err := Explain(k, path, Options{})
		require.Error(t, err)
		assert.Equal(t, upstream.Error(), fmt.Sprintf("error: %v", err), strings.Join(path, "."))
	}
}
