//go:build !(js && wasm)

package patch_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"daemonlab/core/api"
	"daemonlab/core/internal/measure"
	"daemonlab/core/openapi"
	"daemonlab/core/patch"
	"daemonlab/core/scenario"
)

// decode reads JSON with numbers kept as json.Number, as the patch package holds them.
func decode(t *testing.T, data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	return v
}

func encode(t *testing.T, v any) []byte {
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return data
}

// objects plays every scenario and returns the objects of the kinds patches are tried on.
func objects(t *testing.T) map[string][][]byte {
	files, err := filepath.Glob("../testdata/scenarios/*.yaml")
	require.NoError(t, err)
	out := map[string][][]byte{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		sc, err := scenario.Parse(data)
		require.NoError(t, err)
		s, err := sc.Play()
		require.NoError(t, err)
		for _, kind := range []string{"DaemonSet", "Deployment", "Pod", "Node"} {
			for _, o := range s.C.ListKind(kind) {
				out[kind] = append(out[kind], encode(t, o))
			}
		}
	}
	return out
}

var patches = map[string][]string{
	"DaemonSet": {
		`{"spec":{"updateStrategy":{"type":"OnDelete"}}}`,
		`{"spec":{"updateStrategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":0}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox:1.37"}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"envoy"}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"c","$patch":"delete"}]}}}}`,
		`{"spec":{"template":{"spec":{"tolerations":[{"operator":"Exists"}]}}}}`,
		`{"spec":{"template":{"spec":{"nodeSelector":{"disk":"ssd"}}}}}`,
		`{"spec":{"template":{"metadata":{"labels":{"tier":"node"}}}}}`,
		`{"metadata":{"labels":{"k8s-app":null,"team":"infra"},"annotations":{"kubernetes.io/change-cause":"patched"}}}`,
		`{"metadata":{"finalizers":["example.com/keep"]}}`,
		`{"spec":{"template":{"spec":{"$patch":"replace","containers":[{"name":"only","image":"nginx"}]}}}}`,
		`{"spec":{"template":{"spec":{"volumes":[{"name":"varlog","emptyDir":{}}]}}}}`,
		`{"spec":{"minReadySeconds":10,"revisionHistoryLimit":null}}`,
	},
	"Deployment": {
		`{"spec":{"replicas":5}}`,
		`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"nginx","resources":{"limits":{"memory":"200Mi"}}}]}}}}`,
	},
	"Pod": {
		`{"metadata":{"labels":{"app":null}}}`,
		`{"spec":{"containers":[{"name":"c","image":"busybox:2"}],"activeDeadlineSeconds":30}}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":["x"],"finalizers":["y"]}}`,
	},
	"Node": {
		`{"spec":{"unschedulable":true}}`,
		`{"spec":{"taints":[{"key":"dedicated","value":"x","effect":"NoSchedule"}]}}`,
		`{"metadata":{"labels":{"disk":"ssd","node-role.kubernetes.io/control-plane":null}}}`,
		`{"status":{"conditions":[{"type":"Ready","status":"False"}]}}`,
	},
}

var kinds = map[string]struct {
	kind   api.Kind
	schema any
}{
	"DaemonSet":  {kindOf("DaemonSet"), appsv1.DaemonSet{}},
	"Deployment": {kindOf("Deployment"), appsv1.Deployment{}},
	"Pod":        {kindOf("Pod"), corev1.Pod{}},
	"Node":       {kindOf("Node"), corev1.Node{}},
}

func kindOf(name string) api.Kind {
	for _, k := range api.Kinds {
		if k.Kind == name {
			return k
		}
	}
	panic(name)
}

// TestStrategicIsApimachinerys applies strategic merge patches to every scenario's DaemonSets,
// Deployments, pods and nodes with DaemonLab's Strategic (guided by the OpenAPI document) and
// with apimachinery's strategicpatch (guided by the k8s.io/api types), and requires the same
// documents.
func TestStrategicIsApimachinerys(t *testing.T) {
	checked := 0
	for kind, objs := range objects(t) {
		k := kinds[kind]
		for _, p := range patches[kind] {
			for _, obj := range objs {
				want, err := strategicpatch.StrategicMergePatch(obj, []byte(p), k.schema)
				require.NoError(t, err)
				got, err := patch.Strategic(decode(t, obj).(map[string]any), decode(t, []byte(p)).(map[string]any), openapi.Document(k.kind), openapi.Root(k.kind))
				require.NoError(t, err)
				if !assert.Equal(t, decode(t, want), decode(t, encode(t, got)), "%s %s", kind, p) {
					return
				}
				checked++
			}
		}
	}
	t.Logf("%d patches identical", checked)
}

// TestMergeAndJSONPatchAreEvanphxs compares JSON merge patches and JSON patches with
// evanphx/json-patch, the library the API server applies them with.
func TestMergeAndJSONPatchAreEvanphxs(t *testing.T) {
	doc := `{"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y"}],"tolerations":[{"key":"k"}]}}},"metadata":{"labels":{"a":"1","b/c":"2"}}}`
	for _, p := range []string{
		`{"spec":{"replicas":3}}`,
		`{"metadata":{"labels":{"a":null,"c":"3"}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"only"}]}}}}`,
		`{"spec":null}`,
	} {
		want, err := jsonpatch.MergePatch([]byte(doc), []byte(p))
		require.NoError(t, err)
		got := patch.Merge(decode(t, []byte(doc)), decode(t, []byte(p)))
		assert.Equal(t, decode(t, want), decode(t, encode(t, got)), p)
	}
	for _, p := range []string{
		`[{"op":"replace","path":"/spec/replicas","value":4}]`,
		`[{"op":"add","path":"/spec/template/spec/containers/-","value":{"name":"c"}}]`,
		`[{"op":"add","path":"/spec/template/spec/containers/0","value":{"name":"first"}}]`,
		`[{"op":"remove","path":"/spec/template/spec/tolerations/0"}]`,
		`[{"op":"remove","path":"/metadata/labels/b~1c"}]`,
		`[{"op":"move","from":"/metadata/labels/a","path":"/metadata/labels/z"}]`,
		`[{"op":"copy","from":"/spec/template/spec/containers/1","path":"/spec/template/spec/containers/0"}]`,
		`[{"op":"test","path":"/spec/replicas","value":1},{"op":"add","path":"/spec/paused","value":true}]`,
		`[{"op":"replace","path":"/spec/template/spec/containers/1/image","value":"z"}]`,
	} {
		ops, err := jsonpatch.DecodePatch([]byte(p))
		require.NoError(t, err)
		want, err := ops.Apply([]byte(doc))
		require.NoError(t, err)
		got, err := patch.JSON(decode(t, []byte(doc)), decode(t, []byte(p)))
		require.NoError(t, err, p)
		assert.Equal(t, decode(t, want), decode(t, encode(t, got)), p)
	}
	for _, p := range []string{
		`[{"op":"test","path":"/spec/replicas","value":2}]`,
		`[{"op":"remove","path":"/spec/nope"}]`,
		`[{"op":"add","path":"/nope/deeper","value":1}]`,
		`[{"op":"replace","path":"/spec/template/spec/containers/9/image","value":"z"}]`,
		`[{"op":"jump","path":"/spec"}]`,
	} {
		ops, err := jsonpatch.DecodePatch([]byte(p))
		require.NoError(t, err)
		_, upstream := ops.Apply([]byte(doc))
		require.Error(t, upstream, p)
		_, err = patch.JSON(decode(t, []byte(doc)), decode(t, []byte(p)))
		assert.Error(t, err, p)
	}
}

// applied is what a manifest for obj would have said: its name, namespace, labels and spec.
func applied(t *testing.T, obj []byte) map[string]any {
	o := decode(t, obj).(map[string]any)
	meta := o["metadata"].(map[string]any)
	m := map[string]any{"apiVersion": o["apiVersion"], "kind": o["kind"], "metadata": map[string]any{"name": meta["name"]}}
	for _, k := range []string{"namespace", "labels"} {
		if v, ok := meta[k]; ok {
			m["metadata"].(map[string]any)[k] = v
		}
	}
	if spec, ok := o["spec"]; ok {
		m["spec"] = spec
	}
	return m
}

// edits are changes a learner makes to a manifest before applying it again.
var edits = map[string]func(m map[string]any){
	"same":           func(m map[string]any) {},
	"label added":    func(m map[string]any) { setIn(m, "x", "metadata", "labels", "tier") },
	"labels dropped": func(m map[string]any) { delete(m["metadata"].(map[string]any), "labels") },
	"spec dropped":   func(m map[string]any) { delete(m, "spec") },
	"first container's image": func(m map[string]any) {
		if cs := containers(m); len(cs) > 0 {
			cs[0].(map[string]any)["image"] = "example/changed:2"
		}
	},
	"container added": func(m map[string]any) {
		if cs := containers(m); cs != nil {
			setContainers(m, append([]any{map[string]any{"name": "aaa-first", "image": "x"}}, cs...))
		}
	},
	"containers reversed": func(m map[string]any) {
		if cs := containers(m); len(cs) > 1 {
			slices.Reverse(cs)
		}
	},
	"last container removed": func(m map[string]any) {
		if cs := containers(m); len(cs) > 1 {
			setContainers(m, cs[:len(cs)-1])
		}
	},
	"tolerations replaced": func(m map[string]any) {
		if spec := podSpec(m); spec != nil {
			spec["tolerations"] = []any{map[string]any{"operator": "Exists"}}
		}
	},
	"a field removed": func(m map[string]any) {
		if spec := podSpec(m); spec != nil {
			delete(spec, "terminationGracePeriodSeconds")
			delete(spec, "dnsPolicy")
		}
	},
}

func setIn(m map[string]any, v any, path ...string) {
	for _, p := range path[:len(path)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}

func podSpec(m map[string]any) map[string]any {
	spec, _ := m["spec"].(map[string]any)
	if tmpl, ok := spec["template"].(map[string]any); ok {
		spec, _ = tmpl["spec"].(map[string]any)
	}
	return spec
}

func containers(m map[string]any) []any {
	cs, _ := podSpec(m)["containers"].([]any)
	return cs
}

func setContainers(m map[string]any, cs []any) { podSpec(m)["containers"] = cs }

// TestThreeWayIsKubectlApplys checks kubectl apply's three-way merge: for every scenario's
// DaemonSets, Deployments, pods and nodes as the live objects, a manifest for each (as last
// applied) and edits of it (as applied now) give the same object through DaemonLab's ThreeWay
// and Strategic as through apimachinery's CreateThreeWayMergePatch and StrategicMergePatch.
func TestThreeWayIsKubectlApplys(t *testing.T) {
	checked := 0
	for kind, objs := range objects(t) {
		k := kinds[kind]
		for _, obj := range objs {
			for name, edit := range edits {
				original := applied(t, obj)
				modified := decode(t, encode(t, original)).(map[string]any)
				edit(modified)
				upstreamPatch, err := strategicpatch.CreateThreeWayMergePatch(encode(t, original), encode(t, modified), obj, mustLookup(t, k.schema), true)
				require.NoError(t, err)
				want, err := strategicpatch.StrategicMergePatch(obj, upstreamPatch, k.schema)
				require.NoError(t, err)
				doc, root := openapi.Document(k.kind), openapi.Root(k.kind)
				p, err := patch.ThreeWay(original, modified, decode(t, obj).(map[string]any), doc, root)
				require.NoError(t, err)
				got, err := patch.Strategic(decode(t, obj).(map[string]any), p, doc, root)
				require.NoError(t, err)
				if !assert.Equal(t, decode(t, want), decode(t, encode(t, got)), "%s, %s: patch %s, ours %s", kind, name, upstreamPatch, encode(t, p)) {
					return
				}
				checked++
			}
		}
	}
	t.Logf("%d applies identical", checked)
}

func mustLookup(t *testing.T, schema any) strategicpatch.LookupPatchMeta {
	meta, err := strategicpatch.NewPatchMetaFromStruct(schema)
	require.NoError(t, err)
	return meta
}

// TestAJSONPatchsCopiesAreBoundedByTheAPIServersCopyLimit pins JSONPatchMaxCopyBytes
// (k8s.io/apiserver pkg/server/config.go, set as evanphx/json-patch's AccumulatedCopySizeLimit;
// patch.go copy): a patch that copies /metadata into itself 30 times fails at the copy that takes
// the total past 3 MiB, with evanphx's message, and the memory it takes stays bounded.
func TestAJSONPatchsCopiesAreBoundedByTheAPIServersCopyLimit(t *testing.T) {
	doc := `{"metadata":{"name":"web","annotations":{"note":"` + strings.Repeat("x", 3000) + `"}}}`
	var ops []string
	for i := range 30 {
		ops = append(ops, fmt.Sprintf(`{"op":"copy","from":"/metadata","path":"/metadata/c%d"}`, i))
	}
	p := "[" + strings.Join(ops, ",") + "]"

	defer func(old int64) { jsonpatch.AccumulatedCopySizeLimit = old }(jsonpatch.AccumulatedCopySizeLimit)
	jsonpatch.AccumulatedCopySizeLimit = patch.MaxCopyBytes
	upstream, err := jsonpatch.DecodePatch([]byte(p))
	require.NoError(t, err)
	_, want := upstream.Apply([]byte(doc))
	require.Error(t, want)

	d, q := decode(t, []byte(doc)), decode(t, []byte(p))
	_, bytes := measure.Allocations(func() { _, err = patch.JSON(d, q) })
	assert.EqualError(t, err, want.Error())
	assert.Less(t, bytes, uint64(64<<20), "bytes allocated")
}
