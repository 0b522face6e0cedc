package lesson

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const validLesson = `
steps:
  - id: a
    goal: [{run: kubectl get nodes, wantContains: [hd4]}]
    solution: [{run: sim add-node hd4}]
  - id: b
    predict: {choices: 2, answer: 1}
    ran: get pods
    solution: [{run: kubectl get pods}]
  - id: c
    goal: [{run: kubectl get nodes, wantContains: [hd5]}]
    solution: [{run: sim add-node hd5}]
`

const validText = `
title: T
intro: I
steps:
  a: {text: "do a", hints: [h]}
  b: {text: "do b", hints: [h], choices: [x, z], explain: e}
  c: {text: "do c", hints: [h]}
`

// TestParseRefusesMalformedLessons: a lesson file a teacher writes is checked like the built-in
// ones, and each mistake is named with its file and, for YAML errors, its line.
func TestParseRefusesMalformedLessons(t *testing.T) {
	_, err := Parse("01-x", []byte(validLesson), map[string][]byte{"en": []byte(validText), "zh-CN": []byte(validText)}, nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		name, lesson, text, want string
	}{
		{"unknown field", validLesson + "colour: red\n", validText, `lesson.yaml: line 13: unknown field "colour"`},
		{"too few steps", "steps:\n  - id: a\n    ran: x\n    solution: [{run: k}]\n", validText, "lesson.yaml: a lesson has 3 to 6 steps, not 1"},
		{"unknown cluster", "cluster: big\n" + validLesson, validText, `lesson.yaml: cluster "big": use default, empty or kubeadm`},
		{"unknown manifest", "apply: [nginx]\n" + validLesson, validText, `lesson.yaml: apply "nginx": there is no such built-in manifest`},
		{"duplicate id", strings.Replace(validLesson, "id: c", "id: a", 1), validText, `lesson.yaml: step "a": the id is used twice`},
		{"no goal", strings.Replace(validLesson, "    ran: get pods\n", "", 1), validText, `lesson.yaml: step "b": a step needs a goal: checks, ran, or both`},
		{"bad ran", strings.Replace(validLesson, "ran: get pods", "ran: '('", 1), validText, "lesson.yaml: step \"b\": ran: error parsing regexp: missing closing ): `(`"},
		{"answer out of range", strings.Replace(validLesson, "answer: 1", "answer: 3", 1), validText, `lesson.yaml: step "b": predict: 2 choices with answer 3`},
		{"stdin elsewhere", strings.Replace(validLesson, "solution: [{run: kubectl get pods}]", "solution: [{run: kubectl create -f -, stdin: x}]", 1), validText, `lesson.yaml: step "b": solution 1: only kubectl apply -f - reads stdin`},
		{"missing step text", validLesson, strings.Replace(validText, "  c: {text: \"do c\", hints: [h]}\n", "", 1), "en.yaml: 2 steps, but the lesson has 3"},
		{"choices mismatch", validLesson, strings.Replace(validText, "choices: [x, z]", "choices: [x]", 1), `en.yaml: step "b": the prediction needs 2 choices and an explanation`},
		{"no hints", validLesson, strings.Replace(validText, `a: {text: "do a", hints: [h]}`, `a: {text: "do a", hints: []}`, 1), `en.yaml: step "a" needs a text and hints`},
		{"YAML syntax", validLesson, validText + "  d: [\n", "en.yaml: "},
		{"an empty key (once a panic, found by FuzzParse)", "'': 0\n" + validLesson, validText, `lesson.yaml: line 1: unknown field ""`},
		{"the name of an internal field", "manifests: [x]\n" + validLesson, validText, `lesson.yaml: line 1: unknown field "manifests"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("01-x", []byte(tc.lesson), map[string][]byte{"en": []byte(tc.text), "zh-CN": []byte(validText)}, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// FuzzParse: no lesson file, however malformed, makes Parse panic or hang.
func FuzzParse(f *testing.F) {
	f.Add(validLesson, validText)
	f.Add("steps: *a", "title: &a [*a, *a]")
	f.Fuzz(func(t *testing.T, lesson, text string) {
		Parse("01-x", []byte(lesson), map[string][]byte{"en": []byte(text), "zh-CN": []byte(text)}, nil) //nolint:errcheck // only must not panic
	})
}

// TestReaderReadsALessonAtATime: a Reader reads the lesson directories (named NN-slug; other
// files and directories are not lessons) in order, one per Next, and stops at the first that
// does not parse, naming it; Load reads them all at once the same way.
func TestReaderReadsALessonAtATime(t *testing.T) {
	lesson := func(text string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(text)} }
	fsys := fstest.MapFS{
		"01-first/lesson.yaml": lesson(validLesson), "01-first/en.yaml": lesson(validText), "01-first/zh-CN.yaml": lesson(validText),
		"02-second/lesson.yaml": lesson(validLesson), "02-second/en.yaml": lesson(validText), "02-second/zh-CN.yaml": lesson(validText),
		"03-broken/lesson.yaml": lesson("steps: ["), "notes/lesson.yaml": lesson(validLesson), "README.md": lesson("#"),
	}
	r, err := NewReader(fsys, nil)
	require.NoError(t, err)
	require.Equal(t, 3, r.Left())
	for _, id := range []string{"01-first", "02-second"} {
		l, err := r.Next()
		require.NoError(t, err)
		assert.Equal(t, id, l.ID)
	}
	assert.Equal(t, 1, r.Left())
	_, err = r.Next()
	assert.ErrorContains(t, err, "lesson 03-broken: lesson.yaml")
	assert.Zero(t, r.Left(), "a lesson that does not parse stops the reader")
	_, err = Load(fsys, nil)
	assert.ErrorContains(t, err, "lesson 03-broken: lesson.yaml")
	delete(fsys, "03-broken/lesson.yaml")
	all, err := Load(fsys, nil)
	require.NoError(t, err)
	assert.Len(t, all, 2)
}

// TestALessonStartsFromItsCluster: cluster: in lesson.yaml names a sim.Topology (none is the
// default one), and Start builds it — kubeadm's with the kube-proxy DaemonSet in kube-system.
func TestALessonStartsFromItsCluster(t *testing.T) {
	texts := map[string][]byte{"en": []byte(validText), "zh-CN": []byte(validText)}
	for _, tc := range []struct {
		name, cluster string
		daemonSets    int
	}{
		{name: "no cluster is the default one", daemonSets: 0},
		{name: "default", cluster: "default", daemonSets: 0},
		{name: "kubeadm runs kube-proxy", cluster: "kubeadm", daemonSets: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := validLesson
			if tc.cluster != "" {
				file = "cluster: " + tc.cluster + "\n" + file
			}
			l, err := Parse("01-x", []byte(file), texts, nil)
			require.NoError(t, err)
			s, err := l.Start()
			require.NoError(t, err)
			assert.Equal(t, tc.daemonSets, s.C.Count("DaemonSet"))
			assert.Len(t, s.C.Nodes(), 3)
		})
	}
}
