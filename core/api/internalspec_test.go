package api

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// TestInternalPodSpecJSONIsTheInternalTypesJSON compares internalPodSpecJSON with what
// kube-apiserver v1.37 writes for the same pods: testdata/internal-pod-spec/<case>.want.json is
// json.MarshalIndent(spec, "", " ") of the internal core.PodSpec (k8s.io/kubernetes
// pkg/apis/core) that the pod in <case>.json converts to (legacyscheme's conversion from v1;
// "stored" after v1 defaulting, as the API server holds a pod DaemonLab stored; "every-field",
// a pod with every field DaemonLab models set, without it), as apimachinery's diff.Diff
// prints it (staging/src/k8s.io/apimachinery/pkg/util/diff/diff.go toPrettyJSON).
func TestInternalPodSpecJSONIsTheInternalTypesJSON(t *testing.T) {
	for _, name := range []string{"stored", "every-field"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("testdata/internal-pod-spec/" + name + ".json")
			require.NoError(t, err)
			want, err := os.ReadFile("testdata/internal-pod-spec/" + name + ".want.json")
			require.NoError(t, err)
			var pod Pod
			require.NoError(t, json.Unmarshal(data, &pod))
			assert.Equal(t, string(want), internalPodSpecJSON(&pod.Spec))
		})
	}
}

// fillEvery sets every field of v, recursively: a string "x", a bool true, a number 1, a
// pointer, slice or map to one element filled in turn, a quantity 1, an IntOrString 1.
func fillEvery(v reflect.Value) {
	switch v.Type() {
	case reflect.TypeFor[Quantity]():
		v.Set(reflect.ValueOf(MustParseQuantity("1")))
		return
	case reflect.TypeFor[IntOrString]():
		v.Set(reflect.ValueOf(FromInt(1)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillEvery(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fillEvery(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		key, elem := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		key.SetString("k")
		fillEvery(elem)
		v.SetMapIndex(key, elem)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillEvery(v.Field(i))
			}
		}
	default:
		panic("fillEvery: a " + v.Type().String())
	}
}

// unplaced lists the keys of a v1 JSON value of the internal type typ that no field of the
// layout takes, with their paths.
func unplaced(typ string, v any, path string) []string {
	switch {
	case v == nil:
		return nil
	case strings.HasPrefix(typ, "*"):
		return unplaced(typ[1:], v, path)
	case strings.HasPrefix(typ, "[]"):
		var out []string
		for i, item := range v.([]any) {
			out = append(out, unplaced(typ[2:], item, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	case slices.Contains([]string{"string", "bool", "int", "intstr", "quantity", "map"}, typ):
		return nil
	}
	obj := v.(map[string]any)
	taken := map[string]bool{}
	var out []string
	var walk func(typ string)
	walk = func(typ string) {
		for _, f := range internalTypes[typ] {
			if f.embed {
				walk(f.typ)
				continue
			}
			taken[f.v1] = true
			out = append(out, unplaced(f.typ, obj[f.v1], path+"."+f.v1)...)
		}
	}
	walk(typ)
	for k := range obj {
		if !taken[k] {
			out = append(out, path+"."+k)
		}
	}
	return out
}

// TestEveryPodSpecFieldHasItsPlaceInTheInternalSpec: internalpodspec.txt takes every field of
// DaemonLab's PodSpec, so that a refused pod update's diff shows all of them; a field added to
// DaemonLab's types without its line there would be left out of the diff unseen. Two fields
// DaemonLab's types share with another use have no place because v1 has no such field
// (ImagePullSecrets' LocalObjectReference has no optional, DownwardAPIProjection no
// defaultMode): the API server's strict decoding refuses them.
func TestEveryPodSpecFieldHasItsPlaceInTheInternalSpec(t *testing.T) {
	var spec PodSpec
	fillEvery(reflect.ValueOf(&spec).Elem())
	data, err := json.Marshal(spec)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(data, &v))
	assert.ElementsMatch(t, []string{"spec.imagePullSecrets[0].optional", "spec.volumes[0].projected.sources[0].downwardAPI.defaultMode"}, unplaced("PodSpec", v, "spec"))
	assert.NotPanics(t, func() { internalPodSpecJSON(&spec) })
}

// v1Fields are a k8s.io/api type's fields, an inline struct's included, as "GoName jsonName".
func v1Fields(t reflect.Type) []string {
	var fields []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" && (f.Anonymous || opts == "inline") {
			fields = append(fields, v1Fields(f.Type)...)
			continue
		}
		fields = append(fields, f.Name+" "+name)
	}
	return fields
}

// TestTheInternalSpecNamesV1sFields checks internalpodspec.txt against the v1 types of
// k8s.io/api v0.37.2, which declare their fields as the internal ones do, under the same Go
// names and in the same order: each type of the file is a v1 type of the same name, and its
// fields are the v1 type's, KEY its Go name (metav1's LabelSelector, tagged, keys by its JSON
// name) and V1NAME its JSON name, so that a value DaemonLab holds lands under the right key.
func TestTheInternalSpecNamesV1sFields(t *testing.T) {
	v1 := map[string]reflect.Type{}
	var collect func(reflect.Type)
	collect = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || v1[t.Name()] != nil {
			return
		}
		v1[t.Name()] = t
		for i := range t.NumField() {
			collect(t.Field(i).Type)
		}
	}
	collect(reflect.TypeFor[corev1.PodSpec]())
	require.Contains(t, internalTypes, "PodSpec")
	for name := range internalTypes {
		vt, ok := v1[name]
		if !assert.True(t, ok, "%s is no type of the v1 pod spec", name) {
			continue
		}
		var got []string
		var walk func(string)
		walk = func(typ string) {
			for _, f := range internalTypes[typ] {
				if f.embed {
					walk(f.typ)
					continue
				}
				goName := f.key
				if vt.PkgPath() != reflect.TypeFor[corev1.PodSpec]().PkgPath() { // metav1: keyed by its tags
					sf, ok := vt.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, f.key) })
					require.True(t, ok, "%s.%s", name, f.key)
					goName = sf.Name
				}
				got = append(got, goName+" "+f.v1)
			}
		}
		walk(name)
		assert.Equal(t, v1Fields(vt), got, name)
	}
}
