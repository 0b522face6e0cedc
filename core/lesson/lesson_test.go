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
    ran: [kubectl get pods]
    accepts: [kubectl get po, k get pods -o wide, kubectl get pod/web]
    refuses: [kubectl get pods -n kube-system]
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
  b: {text: "do b", hints: [h], question: "q?", choices: [x, z], explain: e}
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
		{"unknown field", validLesson + "colour: red\n", validText, `lesson.yaml: line 15: unknown field "colour"`},
		{"too few steps", "steps:\n  - id: a\n    ran: [kubectl get pods]\n    solution: [{run: k}]\n", validText, "lesson.yaml: a lesson has 3 to 6 steps, not 1"},
		{"unknown cluster", "cluster: big\n" + validLesson, validText, `lesson.yaml: cluster "big": use default, empty or kubeadm`},
		{"unknown manifest", "apply: [nginx]\n" + validLesson, validText, `lesson.yaml: apply "nginx": there is no such built-in manifest`},
		{"duplicate id", strings.Replace(validLesson, "id: c", "id: a", 1), validText, `lesson.yaml: step "a": the id is used twice`},
		{"no goal", strings.Replace(validLesson, "    ran: [kubectl get pods]\n", "", 1), validText, `lesson.yaml: step "b": a step needs a goal: checks, ran, or both`},
		{"ran not kubectl", strings.Replace(validLesson, "ran: [kubectl get pods]", "ran: [get pods]", 1), validText, `lesson.yaml: step "b": ran "get pods": a ran line starts with kubectl`},
		{"a spelling ran refuses", strings.Replace(validLesson, "k get pods -o wide", "kubectl get nodes", 1), validText, `lesson.yaml: step "b": ran does not accept "kubectl get nodes", which accepts lists`},
		{"a near miss ran accepts", strings.Replace(validLesson, "kubectl get pods -n kube-system]", "kubectl get pods -n default]", 1), validText, `lesson.yaml: step "b": ran accepts "kubectl get pods -n default", which refuses lists`},
		{"no question", validLesson, strings.Replace(validText, `question: "q?", `, "", 1), `en.yaml: step "b": the prediction needs a question, 2 choices and an explanation`},
		{"a question without a prediction", validLesson, strings.Replace(validText, `a: {text: "do a",`, `a: {text: "do a", question: "q?",`, 1), `en.yaml: step "a" has a question or choices but no prediction`},
		{"recap without commands", validLesson + "recap: {commands: []}\n", validText, "lesson.yaml: recap: a recap lists the commands the lesson used"},
		{"claim of an unknown step", validLesson + "recap: {commands: [kubectl get pods], claims: [{seed: '000', section: '1.1', verdict: 'true', step: z}]}\n", validText, `lesson.yaml: recap: claim 1: there is no step "z"`},
		{"claim without a verdict", validLesson + "recap: {commands: [kubectl get pods], claims: [{seed: '000', section: '1.1', verdict: maybe, step: a}]}\n", validText, `lesson.yaml: recap: claim 1: verdict is true, false or outdated, not "maybe"`},
		{"recap without rules", validLesson + "recap: {commands: [kubectl get pods]}\n", validText, "en.yaml: the recap needs the rules the lesson taught"},
		{"a recap text without a recap", validLesson, validText + "recap: {rules: [r]}\n", "en.yaml: a recap, but lesson.yaml has none"},
		{"claims unworded", validLesson + "recap: {commands: [kubectl get pods], claims: [{seed: '003', section: '四', verdict: 'true', step: a}]}\n", validText + "recap: {rules: [r]}\n", "en.yaml: the recap words 0 claims, but lesson.yaml lists 1"},
		{"answer out of range", strings.Replace(validLesson, "answer: 1", "answer: 3", 1), validText, `lesson.yaml: step "b": predict: 2 choices with answer 3`},
		{"stdin elsewhere", strings.Replace(validLesson, "solution: [{run: kubectl get pods}]", "solution: [{run: kubectl create -f -, stdin: x}]", 1), validText, `lesson.yaml: step "b": solution 1: only kubectl apply -f - and cat > FILE read stdin`},
		{"missing step text", validLesson, strings.Replace(validText, "  c: {text: \"do c\", hints: [h]}\n", "", 1), "en.yaml: 2 steps, but the lesson has 3"},
		{"choices mismatch", validLesson, strings.Replace(validText, "choices: [x, z]", "choices: [x]", 1), `en.yaml: step "b": the prediction needs a question, 2 choices and an explanation`},
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

const validChallenge = `
challenge: {minutes: 5}
steps:
  - id: task
    goal: [{run: kubectl get nodes, wantContains: [hd4]}, {run: kubectl get nodes, wantContains: [hd1]}]
    solution: [{run: sim add-node hd4}]
`

const validChallengeText = `
title: C
intro: I
steps:
  task: {text: "add hd4", hints: [h], checks: [hd4 is a node, hd1 still is]}
`

// TestParseReadsChallenges: a challenge is a lesson with one step, its task, whose goal's checks
// each say in words what they verify (the page shows them after Check), and a time to take.
func TestParseReadsChallenges(t *testing.T) {
	texts := map[string][]byte{"en": []byte(validChallengeText), "zh-CN": []byte(validChallengeText)}
	l, err := Parse("01-c", []byte(validChallenge), texts, nil)
	require.NoError(t, err)
	assert.Equal(t, int32(5), l.Challenge.Minutes)
	s, err := l.Start()
	require.NoError(t, err)
	assert.Equal(t, []int{0}, l.Steps[0].Failing(s), "hd4 is not there yet; hd1 is")

	for _, tc := range []struct{ name, lesson, text, want string }{
		{"two tasks", validChallenge + "  - {id: more, goal: [{run: kubectl get nodes}], solution: [{run: kubectl get nodes}]}\n", validChallengeText, "lesson.yaml: a challenge has one step, its task, not 2"},
		{"no time", strings.Replace(validChallenge, "minutes: 5", "minutes: 0", 1), validChallengeText, "lesson.yaml: challenge: minutes is 1 to 60, not 0"},
		{"a prediction", strings.Replace(validChallenge, "  - id: task\n", "  - id: task\n    predict: {choices: 2, answer: 1}\n", 1), validChallengeText, "a challenge's task has checks in its goal, and no prediction or ran"},
		{"a check unworded", validChallenge, strings.Replace(validChallengeText, ", hd1 still is", "", 1), `en.yaml: step "task": a challenge says what each of its 2 checks verifies, not 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("01-c", []byte(tc.lesson), map[string][]byte{"en": []byte(tc.text), "zh-CN": []byte(validChallengeText)}, nil)
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, err = Parse("01-x", []byte(validLesson), map[string][]byte{"en": []byte(strings.Replace(validText, `a: {text: "do a",`, `a: {text: "do a", checks: [x],`, 1)), "zh-CN": []byte(validText)}, nil)
	assert.ErrorContains(t, err, `en.yaml: step "a": only a challenge's task has checks`)
}
