package api

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/internal/measure"
)

// TestDecodeSeedManifest loads the tutorial's fluentd-elasticsearch DaemonSet unchanged, comments
// and all.
func TestDecodeSeedManifest(t *testing.T) {
	data, err := os.ReadFile("../../lessons/start/fluentd-elasticsearch.yaml")
	require.NoError(t, err)
	ms, err := Decode(data)
	require.NoError(t, err)
	require.Len(t, ms, 1)
	ds, ok := ms[0].Object.(*DaemonSet)
	require.True(t, ok)
	assert.Equal(t, "fluentd-elasticsearch", ds.Name)
	assert.Equal(t, "kube-system", ds.Namespace)
	assert.Equal(t, "node-role.kubernetes.io/control-plane", ds.Spec.Template.Spec.Tolerations[0].Key)
	assert.Equal(t, "200Mi", ds.Spec.Template.Spec.Containers[0].Resources.Limits[ResourceMemory].String())
	Default(ds)
	assert.Empty(t, Validate(ds))
}

// TestDecodeErrors pins the API server's decoding errors: strict unknown fields with their full
// path, encoding/json type errors naming the Go struct field, unknown kinds, missing kinds, YAML
// syntax errors with their line.
func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name, in, want string
		line           int
	}{
		{"unknown field", dsHead + "  templat: {}\n", `DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: unknown field "spec.templat"`, 7},
		{"unknown fields listed with indexes", dsHead + "  template:\n    spec:\n      containers:\n      - name: c\n        imagee: x\n  foo: 1\n",
			`DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: unknown field "spec.template.spec.containers[0].imagee", unknown field "spec.foo"`, 11},
		{"wrong type", dsHead + "  minReadySeconds: soon\n", `DaemonSet in version "v1" cannot be handled as a DaemonSet: json: cannot unmarshal string into Go struct field DaemonSetSpec.spec.minReadySeconds of type int32`, 7},
		{"number label value", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {version: 1.0}\n", `Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`, 5},
		{"list where a map belongs", dsHead + "  template: [1]\n", `DaemonSet in version "v1" cannot be handled as a DaemonSet: json: cannot unmarshal array into Go struct field DaemonSetSpec.spec.template of type v1.PodTemplateSpec`, 7},
		{"bad quantity", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {limits: {memory: 200MB}}\n", `Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`, 7},
		{"unknown kind", "apiVersion: apps/v1\nkind: DaemonSett\nmetadata: {name: x}\n", `no matches for kind "DaemonSett" in version "apps/v1"`, 1},
		{"old apiVersion", "apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata: {name: x}\n", `no matches for kind "DaemonSet" in version "extensions/v1beta1"`, 1},
		{"missing kind", "apiVersion: v1\nmetadata: {name: x}\n", `Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"x"}}'`, 1},
		{"syntax error", "a: 1\nb: [1,2\n", "yaml: line 2: sequence end token ']' not found", 2},
		{"bad indentation", "a:\n  b: c\n d: e\n", "yaml: line 3: value is not allowed in this context", 3},
		// sigs.k8s.io/yaml converts the document to JSON first, which fails on the number whatever
		// the field, before a later document's syntax error and before a field's type is checked.
		{"infinity", dsHead + "  minReadySeconds: .inf\n---\na: [\n", "json: unsupported value: +Inf", 7},
		{"the first infinity JSON writes", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {z: .nan, a: -.Inf}\n", "json: unsupported value: -Inf", 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.in))
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.Equal(t, tc.line, problemLine(err))
		})
	}
}

func problemLine(err error) int {
	var de *DecodeError
	var se *SyntaxError
	var nk *NoKindMatchError
	var mk *MissingKindError
	var ce *ConversionError
	var ie *ItemError
	var ue *UndecodableError
	switch {
	case errors.As(err, &ie):
		return ie.Line
	case errors.As(err, &ue):
		return ue.Line
	case errors.As(err, &ce):
		return ce.Line
	case errors.As(err, &de):
		return de.Problems[0].Line
	case errors.As(err, &se):
		return se.Line
	case errors.As(err, &nk):
		return nk.Line
	case errors.As(err, &mk):
		return mk.Line
	}
	return -1
}

// TestDecodeMultiDocument reads "---"-separated streams, skipping empty documents, and resolves
// anchors, aliases and merge keys.
func TestDecodeMultiDocument(t *testing.T) {
	in := "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n# only a comment\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: a\n  labels: &l {app: web}\nspec:\n  nodeSelector: *l\n  containers:\n  - &c {name: c, image: nginx}\n  - <<: *c\n    name: d\n"
	ms, err := Decode([]byte(in))
	require.NoError(t, err)
	require.Len(t, ms, 2)
	pod := ms[1].Object.(*Pod)
	assert.Equal(t, map[string]string{"app": "web"}, pod.Spec.NodeSelector)
	assert.Equal(t, "d", pod.Spec.Containers[1].Name)
	assert.Equal(t, "nginx", pod.Spec.Containers[1].Image)
	assert.Equal(t, 13, ms[1].LineOf("metadata.labels"))
	assert.Equal(t, 17, ms[1].LineOf("spec.containers[0].image"))
}

func billionLaughs() string {
	var b strings.Builder
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		b.WriteString(n + ": &" + n + " [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]\n")
		prev = n
	}
	return b.String()
}

// TestHostileYAMLIsRefusedQuickly pins the guards of parseDocuments: each hostile input is a
// clear error in well under a second (go-yaml alone runs out of memory on the first two).
func TestHostileYAMLIsRefusedQuickly(t *testing.T) {
	cases := map[string]struct{ in, want string }{
		"alias bomb":                     {billionLaughs(), "aliases expand to more than 100000 values"},
		"100,000 nested [":               {strings.Repeat("[", 100_000), "the document nests deeper than 100 levels"},
		"500,000 nested - ":              {strings.Repeat("- ", 500_000), "the document nests deeper than 100 levels"},
		"nested flow maps":               {strings.Repeat("{a: ", 5000), "the document nests deeper than 100 levels"},
		"deep block mappings":            {deepBlock(300), "the document nests deeper than 100 levels"},
		"more than 1 MiB":                {strings.Repeat("# padding\n", 110_000), "the manifest is 1100000 bytes; DaemonLab reads at most 1048576 (1 MiB)"},
		"alias to an unknown":            {"a: *nowhere\n", "unknown anchor"},
		"small bombs in 2,000 documents": {strings.Repeat(smallBomb, 2000), "yaml: line 37: aliases expand to more than 100000 values"},
		"deep after an escaped quote":    {"a: {b: \"\\\"\"}\nc: " + strings.Repeat("[", 300_000), "yaml: line 2: the document nests deeper than 100 levels"},
		"deep after an apostrophe":       {"note: it's fine\nc: " + strings.Repeat("[", 300_000), "yaml: line 2: the document nests deeper than 100 levels"},
		"deep, closed on one line":       {strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000), "yaml: line 1: the document nests deeper than 100 levels"},
		"a megabyte without a kind":      {"a: " + strings.Repeat("word ", 200_000) + "\n", `Object 'Kind' is missing in '{"a":"word word`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, err := Decode([]byte(tc.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Less(t, len(err.Error()), 2*MaxQuotedBytes, "an error quotes a short prefix at most")
			assert.Less(t, time.Since(start), time.Second)
		})
	}
}

// smallBomb is one document whose aliases expand to some 13,000 values: below the bound alone.
const smallBomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n---\n"

// TestEachLimitNamesItself: values written out are bounded by the size alone, so 100,000 plain
// list items pass; aliases are bounded across the stream (seven small bombs pass, an eighth does not).
func TestEachLimitNamesItself(t *testing.T) {
	docs, err := parseDocuments([]byte("items:\n"+strings.Repeat("- x\n", 100_000)), "manifest", MaxManifestBytes)
	require.NoError(t, err)
	assert.Len(t, docs[0].get("items").vals, 100_000)
	_, err = parseDocuments([]byte(strings.Repeat(smallBomb, 7)), "manifest", MaxManifestBytes)
	assert.NoError(t, err)
	_, err = parseDocuments([]byte(strings.Repeat(smallBomb, 8)), "manifest", MaxManifestBytes)
	assert.EqualError(t, err, "yaml: line 37: aliases expand to more than 100000 values")
}

// TestDecodeSkipsAByteOrderMark: kubectl reads files through unicode.BOMOverride
// (k8s.io/cli-runtime pkg/resource/visitor.go, FileVisitor.Visit), so a UTF-8 byte order mark
// before the first document is not part of it.
func TestDecodeSkipsAByteOrderMark(t *testing.T) {
	ms, err := Decode([]byte("\ufeffapiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"))
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.Equal(t, "p", ms[0].Object.GetObjectMeta().Name)
	assert.Equal(t, 4, ms[0].LineOf("metadata.name"))
}

func deepBlock(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	return b.String()
}

func FuzzDecode(f *testing.F) {
	seed, _ := os.ReadFile("../../lessons/start/fluentd-elasticsearch.yaml")
	f.Add(string(seed))
	f.Add(billionLaughs())
	f.Add(dsWith(validTemplate))
	f.Add("a: [1,2\n")
	f.Add("apiVersion: v1\nkind: Node\nmetadata: {name: n}\nspec: {taints: [{key: k, effect: NoSchedule}]}\n")
	f.Add("x: !!str 5\ny: !!int '7'\nz: |\n  text\n  more\nw: >-\n  folded\n")
	f.Add(strings.Repeat(smallBomb, 3))
	f.Add("\ufeffa: {b: \"\\\"\"}\nnote: it's fine\nc: [[[[]]]]\n")
	f.Add("- key: |\n   [[\n  other: '[[''['\n")
	f.Fuzz(func(t *testing.T, in string) {
		ms, err := Decode([]byte(in))
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		for _, m := range ms {
			Default(m.Object)
			for _, e := range Validate(m.Object) {
				assert.NotEmpty(t, e.Error())
			}
		}
	})
}

// TestSeedManifestsLoadUnchanged: every manifest of the two seed tutorials decodes, defaults and
// validates as a real API server takes it; the QoS examples get their classes.
func TestSeedManifestsLoadUnchanged(t *testing.T) {
	wantQoS := map[string]QOSClass{"my-guaranteed": QOSGuaranteed, "my-burstable": QOSBurstable, "my-besteffort": QOSBestEffort}
	for _, f := range []string{"testdata/seed-fluentd-k8s-master.yaml", "testdata/seed-qos-pods.yaml"} {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		ms, err := Decode(data)
		require.NoError(t, err, f)
		for _, m := range ms {
			m.Object.GetObjectMeta().Namespace = "default"
			Default(m.Object)
			assert.Empty(t, Validate(m.Object), "%s: %s", f, m.Object.GetObjectMeta().Name)
			if pod, ok := m.Object.(*Pod); ok {
				assert.Equal(t, wantQoS[pod.Name], ComputeQOS(&pod.Spec), pod.Name)
			}
		}
	}
}

// nestingCases are inputs on both sides of checkNesting's rules, with the depth limit that
// the first line past it crosses (0: accepted at that limit).
var nestingCases = []struct {
	rule, in string
	limit    int
	line     int
}{
	{"an escaped double quote does not close the scalar", "a: {b: \"\\\"\"}\nc: " + strings.Repeat("[", 20), 5, 2},
	{"two single quotes are an escaped one", "a: 'it''s'\nc: " + strings.Repeat("[", 20), 5, 2},
	{"an apostrophe in a plain scalar is text", "note: it's fine\nc: " + strings.Repeat("[", 20), 5, 2},
	{"a quote inside a plain scalar is text", "note: say \"hi\nc: " + strings.Repeat("[", 20), 5, 2},
	{"a plain scalar's continuation line is plain", "a: foo\n  'bar\nc: " + strings.Repeat("[", 20), 5, 3},
	{"brackets balanced on one line are measured at each", strings.Repeat("[", 20) + strings.Repeat("]", 20) + "\n", 5, 1},
	{"brackets inside a plain scalar still count", "a: x" + strings.Repeat("[", 20) + "\n", 5, 1},
	{"a quoted scalar may span lines", "a: 'x\n" + strings.Repeat("[", 20) + "'\n", 5, 0},
	{"brackets in a double-quoted scalar are text", "a: \"" + strings.Repeat("[", 20) + "\"\n", 5, 0},
	{"a comment is text", "a: 1 # " + strings.Repeat("[", 20) + "\n", 5, 0},
	{"a # inside a plain scalar is text", "a: x#" + strings.Repeat("[", 20) + "\n", 5, 1},
	{"a block scalar's content is text", "a: |\n  " + strings.Repeat("[", 20) + "\n  'x\nb: [1]\n", 5, 0},
	{"a block scalar ends at its node's indentation", "- key: |\n   x\n  other: " + strings.Repeat("[", 20) + "\n", 5, 3},
	{"a block scalar ends below its first line's indentation", "a: >-\n    x\n  " + strings.Repeat("[", 20) + "\n", 5, 3},
	{"a document marker starts anew", "a: [[[\n---\nb: [[[\n", 5, 0},
	{"block indentation counts", deepBlock(10), 5, 5},
	{"entries on one line count", "- - - - - - - x\n", 5, 1},
	{"pairs in flow mappings add no level (compact JSON)", `{"a": {"b": 1, "c": 2, "d": 3, "e": 4, "f": 5, "g": 6}, "h": {"i": [1, 2]}}` + "\n", 5, 0},
	{"a pair in a flow sequence is a mapping of its own", "[a: [b: [c: d]]]\n", 5, 1},
	{"a flow sequence's pair ends at its comma", "[a: 1, b: 2, c: 3, d: 4, e: 5, f: 6]\n", 3, 0},
}

// TestNestingGuardReadsYAMLQuoting pins checkNesting's rules: text is never taken for structure
// nor structure for text, and depth is measured at every bracket.
func TestNestingGuardReadsYAMLQuoting(t *testing.T) {
	for _, tc := range nestingCases {
		t.Run(tc.rule, func(t *testing.T) {
			err := checkNesting([]byte(tc.in), tc.limit)
			if tc.line == 0 {
				assert.NoError(t, err)
				return
			}
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.line, se.Line)
			assert.Equal(t, "the document nests deeper than 5 levels", se.Msg)
		})
	}
}

// TestNestingGuardIsLinear: the guard reads the stream once; ten times the brackets (balanced
// on one line, which a guard measuring at line ends let through) cost at most about ten times
// the memory, and nothing reaches the parser.
func TestNestingGuardIsLinear(t *testing.T) {
	alloc := func(n int) float64 {
		in := []byte("a: it's\nb: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n")
		return testing.AllocsPerRun(1, func() { _ = checkNesting(in, 1<<30) }) + 1
	}
	bytesFor := func(n int) uint64 {
		in := []byte("a: it's\nb: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n")
		_, bytes := measure.Allocations(func() { _ = checkNesting(in, 1<<30) })
		return bytes
	}
	assert.LessOrEqual(t, alloc(200_000), 2*alloc(20_000))
	assert.Less(t, bytesFor(200_000), 12*bytesFor(20_000)+1<<16)
	_, err := Decode([]byte(strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)))
	assert.EqualError(t, err, "yaml: line 1: the document nests deeper than 100 levels")
}

// FuzzNestingGuardNeverUnderestimates: a stream the guard accepts at a depth limit decodes to
// values no deeper than that limit (aliases aside: those are bounded by count).
func FuzzNestingGuardNeverUnderestimates(f *testing.F) {
	for _, tc := range nestingCases {
		f.Add(tc.in)
	}
	f.Add("a: {b: \"\\\"\"}\nc: [[[[[[[[]]]]]]]]\n")
	f.Add("- a: it's\n  b: \"x\\\"\n  c: [[[[[[[[1]]]]]]]]\n")
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Contains(in, "*") || checkNesting([]byte(in), 6) != nil {
			return
		}
		docs, err := parseDocuments([]byte(in), "manifest", MaxManifestBytes)
		if err != nil {
			return
		}
		for _, d := range docs {
			assert.LessOrEqual(t, treeDepth(d), 6, "%q", in)
		}
	})
}

func treeDepth(v *value) int {
	d := 0
	for _, c := range v.vals {
		d = max(d, treeDepth(c))
	}
	if v.kind == kindMap || v.kind == kindList {
		return d + 1
	}
	return d
}

// TestDaemonLabsOwnFilesHaveTheirOwnBound: a scenario or lesson file is read up to MaxFileBytes,
// not a manifest's 1 MiB, and a larger one is refused with its own name.
func TestDaemonLabsOwnFilesHaveTheirOwnBound(t *testing.T) {
	var v struct {
		Name string `json:"name"`
	}
	twoMiB := "name: big\n" + strings.Repeat("# a teacher's long notes\n", 90_000)
	require.Greater(t, len(twoMiB), 2<<20)
	require.NoError(t, DecodeStrict([]byte(twoMiB), &v, "scenario file"))
	assert.Equal(t, "big", v.Name)
	_, err := Decode([]byte(twoMiB))
	assert.ErrorContains(t, err, "the manifest is")
	huge := []byte(strings.Repeat("#", MaxFileBytes+1))
	assert.EqualError(t, DecodeStrict(huge, &v, "lesson file"), "yaml: the lesson file is 16777217 bytes; DaemonLab reads at most 16777216 (16 MiB)")
}

// TestDecodeFlattensLists pins how kubectl's resource builder reads lists
// (k8s.io/cli-runtime pkg/resource/visitor.go FlattenListVisitor.Visit, k8s.io/apimachinery
// unstructured/helpers.go decodeToList, client-go restmapper/discovery.go
// NewDiscoveryRESTMapper): the objects in breadth-first order, the items of a typed list
// without apiVersion and kind taking the list's, and what maps as a list's kind.
func TestDecodeFlattensLists(t *testing.T) {
	pod := func(name string) string {
		return "  - {apiVersion: v1, kind: Pod, metadata: {name: " + name + "}}\n"
	}
	cases := []struct {
		name, in string
		want     []string // kind/name of each object, in order
	}{
		{"a List", "apiVersion: v1\nkind: List\nitems:\n" + pod("a") + pod("b"), []string{"Pod/a", "Pod/b"}},
		{"documents around a List keep their places", pod("a")[4:] + "---\napiVersion: v1\nkind: List\nitems:\n" + pod("b") + "---\n" + pod("c")[4:],
			[]string{"Pod/a", "Pod/b", "Pod/c"}},
		{"a typed list gives its kind to items without one", "apiVersion: apps/v1\nkind: DaemonSetList\nitems:\n- metadata: {name: x}\n- {apiVersion: v1, kind: Pod, metadata: {name: p}}\n",
			[]string{"DaemonSet/x", "Pod/p"}},
		{"a List in another served version", "apiVersion: policy/v1\nkind: List\nitems:\n" + pod("a"), []string{"Pod/a"}},
		{"nested lists come after the list's own items", "apiVersion: v1\nkind: List\nitems:\n" + pod("a") +
			"  - apiVersion: v1\n    kind: List\n    items:\n    - {apiVersion: v1, kind: Pod, metadata: {name: b}}\n    - apiVersion: v1\n      kind: List\n      items:\n      - {apiVersion: v1, kind: Pod, metadata: {name: c}}\n    - {apiVersion: v1, kind: Pod, metadata: {name: d}}\n" + pod("e"),
			[]string{"Pod/a", "Pod/e", "Pod/b", "Pod/d", "Pod/c"}},
		{"empty and null items", "apiVersion: v1\nkind: List\nitems: []\n---\napiVersion: v1\nkind: PodList\nitems: null\n", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := Decode([]byte(tc.in))
			require.NoError(t, err)
			var got []string
			for _, m := range ms {
				got = append(got, m.Kind.Kind+"/"+m.Object.GetObjectMeta().Name)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestDecodeListItemKindIsApplied: the kind and apiVersion a typed list gives an item are part of
// the object kubectl sends, so of its last-applied configuration too (decodeToList sets them on
// the item).
func TestDecodeListItemKindIsApplied(t *testing.T) {
	ms, err := Decode([]byte("apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: p}\n  spec: {containers: [{name: c, image: nginx}]}\n"))
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.Equal(t, `{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"name":"p","namespace":"default"},"spec":{"containers":[{"image":"nginx","name":"c"}]}}`+"\n",
		ms[0].LastAppliedConfiguration("default"))
	assert.Equal(t, 5, ms[0].LineOf("spec.containers"))
}

// TestDecodeListErrors pins kubectl's errors for lists: a list's own kind is mapped as a
// document's; an item kubectl cannot map is reported (mapper.infoForObject) while the list's
// other objects are still read; items that are not objects stop the document; what was read
// before an error is returned with it.
func TestDecodeListErrors(t *testing.T) {
	cases := []struct {
		name, in, want string
		line           int
		read           []string // names of the objects returned with the error
	}{
		{"unknown list kind", "apiVersion: v1\nkind: DaemonSetList\nmetadata: {name: l}\nitems: []\n", `no matches for kind "DaemonSetList" in version "v1"`, 1, nil},
		{"list without a kind", "apiVersion: v1\nitems: []\n", `Object 'Kind' is missing in '{"apiVersion":"v1","items":[]}'`, 1, nil},
		{"item of a List without a kind", "apiVersion: v1\nkind: List\nitems:\n- metadata: {name: x}\n- {apiVersion: v1, kind: Pod, metadata: {name: ok}}\n",
			`unable to get type info from the object "*unstructured.Unstructured": Object 'Kind' is missing in 'object has no kind field '`, 4, []string{"ok"}},
		{"item without an apiVersion", "apiVersion: v1\nkind: List\nitems:\n- {kind: Pod, metadata: {name: x}}\n",
			`unable to get type info from the object "*unstructured.Unstructured": Object 'apiVersion' is missing in 'object has no apiVersion field'`, 4, nil},
		{"item of an unknown kind", "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: a}}\n- {apiVersion: apps/v1, kind: DaemonSett, metadata: {name: x}}\n- {apiVersion: v1, kind: Pod, metadata: {name: b}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: after}\n",
			`unable to recognize no matches for kind "DaemonSett" in version "apps/v1"`, 5, []string{"a", "b"}},
		{"two bad items", "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Podd}\n- {apiVersion: v1}\n",
			"unable to recognize no matches for kind \"Podd\" in version \"v1\"\nunable to get type info from the object \"*unstructured.Unstructured\": Object 'Kind' is missing in 'object has no kind field '", 4, nil},
		{"items not a list", "apiVersion: v1\nkind: List\nitems: pods\n", "json: cannot unmarshal string into Go struct field decodeList.items of type []json.RawMessage", 3, nil},
		{"item not an object", "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: a}}\n- pod\n", "json: cannot unmarshal string into Go value of type map[string]interface {}", 5, nil},
		{"nested item not an object", "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: a}}\n- apiVersion: v1\n  kind: List\n  items: [7]\n",
			"items member is not an object: map[string]interface {}", 7, nil},
		{"documents before a bad one are read", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Podd\nmetadata: {name: b}\n", `no matches for kind "Podd" in version "v1"`, 5, []string{"a"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ms, err := Decode([]byte(tc.in))
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.Equal(t, tc.line, problemLine(err))
			var read []string
			for _, m := range ms {
				read = append(read, m.Object.GetObjectMeta().Name)
			}
			assert.Equal(t, tc.read, read)
		})
	}
}

// TestDecodeObjectDoesNotFlatten: the API server reads one object; a List is no kind it serves.
func TestDecodeObjectDoesNotFlatten(t *testing.T) {
	_, err := DecodeObject([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: Pod, metadata: {name: a}}]\n"))
	assert.EqualError(t, err, `no matches for kind "List" in version "v1"`)
	m, err := DecodeObject([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"))
	require.NoError(t, err)
	assert.Equal(t, "a", m.Object.GetObjectMeta().Name)
}
