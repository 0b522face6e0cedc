package jsonpath

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	upstream "k8s.io/client-go/util/jsonpath"
)

// loadData decodes testdata/pods.json as encoding/json does (numbers float64) or, with ints,
// as kubectl's unstructured objects hold it (integers int64).
func loadData(t testing.TB, ints bool) any {
	data, err := os.ReadFile("testdata/pods.json")
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	return numbers(v, ints)
}

func numbers(v any, ints bool) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = numbers(x, ints)
		}
	case []any:
		for i, x := range v {
			v[i] = numbers(x, ints)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil && ints {
			return i
		}
		f, _ := v.Float64()
		return f
	}
	return v
}

// theirs runs client-go's jsonpath; a panic there counts as an error.
func theirs(tmpl string, data any, opts Options) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	j := upstream.New("out")
	j.AllowMissingKeys(opts.AllowMissingKeys)
	j.EnableJSONOutput(opts.JSON)
	if err := j.Parse(tmpl); err != nil {
		return "", err
	}
	var b bytes.Buffer
	err = j.Execute(&b, data)
	return b.String(), err
}

func ours(tmpl string, data any, opts Options) (string, error) {
	t, err := Parse(tmpl)
	if err != nil {
		return "", err
	}
	return t.Execute(data, opts)
}

// templates are what learners type (the kubectl cheat sheet's and the seed tutorials'), and
// the corners of the grammar and of its errors.
var templates = []string{
	`{.items[*].metadata.name}`,
	`{.items[0].metadata.name}`,
	`{.items[-1].metadata.name}`,
	`{.items[0:2].metadata.name}`,
	`{.items[::2].metadata.name}`,
	`{.items[1:].spec.nodeName}`,
	`{.items[5]}`,
	`{.items[2:1]}`,
	`{.items[0:0]}`,
	`{.items[0:3:0]}`,
	`{.items[*].spec.containers[*].image}`,
	`{range .items[*]}{.metadata.name}{"\t"}{.spec.nodeName}{"\n"}{end}`,
	`{range .items[*]}[{.metadata.name}, {.status.phase}] {end}`,
	`{range .items[*]}{range .spec.containers[*]}{.name}={.image};{end}{"\n"}{end}`,
	`{range .items[*]}{.metadata.name}`,
	`{range .nothing[*]}{.x}{end}after`,
	`{end}`,
	`{.items[*].status.conditions[?(@.type=="Ready")].status}`,
	`{.items[?(@.spec.nodeName=="hd2")].metadata.name}`,
	`{.items[?(@.spec.nodeName!="hd2")].metadata.name}`,
	`{.items[?(@.metadata.generation>1)].metadata.name}`,
	`{.items[?(@.spec.priority==0)].metadata.name}`,
	`{.items[?(@.spec.priority>=0.0)].metadata.name}`,
	`{.items[?(@.spec.nodeSelector)].metadata.name}`,
	`{.items[?(@.spec.tolerations[*].key)].metadata.name}`,
	`{.items[?(@.metadata.name < 'fluentd-b')].metadata.name}`,
	`{.items[?(@.spec.hostNetwork==true)].metadata.name}`,
	`{.items[0].metadata.labels}`,
	`{.items[0].metadata.labels.*}`,
	`{.items[0].metadata.labels['app\.kubernetes\.io/name']}`,
	`{.items[0].metadata.labels.app\.kubernetes\.io/name}`,
	`{.items[0].metadata.annotations['x']}`,
	`{.items[0].metadata['name','namespace']}`,
	`{.items[0,1].metadata.name}`,
	`{..image}`,
	`{.items[0]..name}`,
	`{.items[0].metadata.name.*}`,
	`{.items[0].spec.containers[0].resources}`,
	`{.items[0].status.conditions[0].lastProbeTime}`,
	`{.items[0].spec.terminationGracePeriodSeconds}`,
	`{.kind} {.apiVersion}`,
	`{$.kind}{@.kind}`,
	`{.missing}`,
	`{.items[*].missing}`,
	`{.items.x}`,
	`{.kind[0]}`,
	`{.kind[?(@.x)]}`,
	`{"a\u00e9b"}{'it''s'}{"tab\there"}`,
	`{1}{-2}{3.5}{true}{false}`,
	`{nonsense}`,
	`{.items[0].metadata.name`,
	`{.items[0}`,
	`{.items[a]}`,
	`{.items[?(@.x=="y"}`,
	`{.items[?(@.x=="y")}`,
	`{"unterminated}`,
	`{..a..b}`,
	`{.a...b}`,
	`{#}`,
	`plain text, no action`,
	`}{.kind}}`,
	`{.items[?(@.spec.priority=~1)].metadata.name}`,
	`{.items[*].metadata.name[0]}`,
	`{.items[0].metadata.creationTimestamp}{"\n"}`,
	`{.items[?(@.status.conditions[*].status=="True")].metadata.name}`,
	`{range .items[*]}{range .status.conditions[*]}{.type}{end}{end}`,
	`{range .items[*]}{end}{end}`,
	`{.items[0].spec.containers[?(@.name=='fluentd')].image}`,
	`{.items[0].metadata.uid} {.items[0].metadata.resourceVersion}`,
}

// TestTemplatesPrintWhatClientGoPrints runs every template through this package and through
// client-go's util/jsonpath (what kubectl runs) on the same objects — numbers as float64 and
// as kubectl's unstructured content holds them (int64), with missing keys allowed and not, and
// as JSON — and wants the same output and the same error.
func TestTemplatesPrintWhatClientGoPrints(t *testing.T) {
	for _, ints := range []bool{false, true} {
		data := loadData(t, ints)
		for _, opts := range []Options{{AllowMissingKeys: true}, {}, {AllowMissingKeys: true, JSON: true}} {
			for _, tmpl := range templates {
				name := fmt.Sprintf("%s ints=%v %+v", tmpl, ints, opts)
				want, wantErr := theirs(tmpl, data, opts)
				got, err := ours(tmpl, data, opts)
				if wantErr != nil {
					require.NotContains(t, wantErr.Error(), "panic", name)
					if assert.Error(t, err, name) {
						assert.Equal(t, wantErr.Error(), err.Error(), name)
					}
					continue
				}
				if assert.NoError(t, err, name) {
					assertSameOutput(t, tmpl, want, got)
				}
			}
		}
	}
}

// FuzzTemplate: any template either fails in both implementations with the same error or
// prints the same in both (client-go visits map values in random order, so where a template
// walks them with * or .. the outputs are compared as sorted bytes); ours never panics.
func FuzzTemplate(f *testing.F) {
	for _, tmpl := range templates {
		f.Add(tmpl)
	}
	data := loadData(f, false)
	f.Fuzz(func(t *testing.T, tmpl string) {
		got, err := ours(tmpl, data, Options{AllowMissingKeys: true})
		want, wantErr := theirs(tmpl, data, Options{AllowMissingKeys: true})
		if wantErr != nil && strings.HasPrefix(wantErr.Error(), "panic") {
			return
		}
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%q: ours %v, client-go %v", tmpl, err, wantErr)
		}
		if err != nil {
			assert.Equal(t, wantErr.Error(), err.Error(), tmpl)
			return
		}
		assertSameOutput(t, tmpl, want, got)
	})
}

// assertSameOutput compares outputs; where the template walks a map's values (.* or ..),
// which client-go visits in random order, it compares the bytes in any order.
func assertSameOutput(t *testing.T, tmpl, want, got string) {
	t.Helper()
	if strings.Contains(tmpl, "*") || strings.Contains(tmpl, "..") {
		w, g := []byte(want), []byte(got)
		slices.Sort(w)
		slices.Sort(g)
		assert.Equal(t, string(w), string(g), tmpl)
		return
	}
	assert.Equal(t, want, got, tmpl)
}
