package playground

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/lessons"
)

// TestLessonIsTakenStepByStep: a lesson starts from its own state; a step's goal ticks only when
// the cluster meets it (and its prediction is made); hints come one at a time; the next step
// comes when the learner asks; progress is kept; the sandbox is one message away.
func TestLessonIsTakenStepByStep(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, LessonMsg{ID: "1"})
	require.NotNil(t, m.Tutor)
	v := Render(m).Tutor
	require.NotNil(t, v)
	assert.Equal(t, "One pod per node", v.Title)
	assert.Equal(t, 1, v.Step)
	assert.Empty(t, Render(m).Nodes[0].Pods, "lesson 1 starts without the DaemonSet")
	assert.Contains(t, m.Editor, "kind: DaemonSet")
	assert.False(t, v.Met)

	m = Update(m, HintMsg{})
	assert.Len(t, Render(m).Tutor.Hints, 1)
	m = Update(m, ApplyMsg{Text: m.Editor})
	assert.False(t, Render(m).Tutor.Met, "the pods are not Ready yet")
	m = Update(m, RunMsg{"sim advance 30s"})
	require.True(t, Render(m).Tutor.Met)
	assert.Equal(t, 1, m.Progress["01-one-pod-per-node"])

	m = Update(m, NextStepMsg{})
	v = Render(m).Tutor
	assert.Equal(t, 2, v.Step)
	assert.Len(t, v.Choices, 3)
	assert.Empty(t, v.Hints, "hints start hidden on every step")
	m = Update(m, RunMsg{"kubectl get ds -n kube-system"})
	assert.False(t, Render(m).Tutor.Met, "the prediction comes first")
	m = Update(m, PredictMsg{Choice: 1})
	v = Render(m).Tutor
	assert.Equal(t, 1, v.Predicted)
	assert.Equal(t, 2, v.Answer, "the answer shows once a choice is made")
	assert.NotEmpty(t, v.Explain)
	assert.False(t, v.Met, "the command came before the prediction: run it again")
	m = Update(m, RunMsg{"k get daemonsets -A"})
	assert.True(t, Render(m).Tutor.Met)
	m = Update(m, PredictMsg{Choice: 3})
	assert.Equal(t, 1, m.Tutor.Predicted, "a prediction is made once")

	m = Update(m, NextStepMsg{})
	for range 3 {
		m = Update(m, SolutionMsg{})
	}
	v = Render(m).Tutor
	assert.True(t, v.Met, "Show solution answers and runs the step")
	assert.True(t, v.Last)
	assert.Equal(t, "$ kubectl get pods -n kube-system -o wide", Render(m).Terminal[len(Render(m).Terminal)-2].Text)
	assert.Equal(t, 3, m.Progress["01-one-pod-per-node"])

	saved, err := Load(lib, Save(m))
	require.NoError(t, err)
	assert.Equal(t, Render(m).Tutor, Render(saved).Tutor, "a reload keeps the place in the lesson")

	m = Update(m, LessonMsg{})
	assert.Nil(t, m.Tutor)
	assert.Equal(t, 3, m.Progress["01-one-pod-per-node"], "progress outlives the lesson")
	assert.Len(t, Render(m).Nodes[1].Pods, 2, "the sandbox's start state again")
}

// TestLessonsAreListedAfterTheFirstPaint: the page opens with an empty lesson picker (reading
// fifteen lessons would be most of its start-up) and lists one more lesson for each
// ShowLessonsMsg, in order, until all are listed.
func TestLessonsAreListedAfterTheFirstPaint(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m.LessonsLater = true
	assert.Empty(t, Render(m).Picker.Lessons)
	all := Render(Model{Sim: m.Sim, Lang: English, lib: lib}).Picker.Lessons
	require.Len(t, all, 15)
	for n := 1; n <= 15; n++ {
		require.True(t, m.LessonsLater, "lesson %d is still to list", n)
		m = Update(m, ShowLessonsMsg{})
		assert.Equal(t, all[:n], Render(m).Picker.Lessons)
	}
	assert.False(t, m.LessonsLater, "all are listed")
	m = Update(m, ShowLessonsMsg{})
	assert.Len(t, Render(m).Picker.Lessons, 15)
}

// TestLessonsListAndChineseText: the lesson list in the page's language, with progress.
func TestLessonsListAndChineseText(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, LangMsg{Chinese})
	items := Render(m).Picker.Lessons
	require.Len(t, items, 15)
	assert.Equal(t, LessonItem{ID: "07-node-failure", Title: "节点故障", Steps: 4}, items[6])
	m = Update(m, LessonMsg{ID: "07-node-failure"})
	assert.Equal(t, "节点故障", Render(m).Tutor.Title)
	m = Update(m, ResetMsg{})
	require.NotNil(t, m.Tutor, "reset restarts the lesson, not the sandbox")
	assert.Equal(t, "07-node-failure", m.Tutor.Lesson.ID)
}

// lessonOneFiles are lesson 1's files, as a teacher would open them from disk.
func lessonOneFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, name := range lessonFiles {
		data, err := lessons.Files.ReadFile("01-one-pod-per-node/" + name)
		require.NoError(t, err)
		files[name] = string(data)
	}
	return files
}

// TestTeachersOpenLessonsFromDisk: a lesson's three files opened from disk are checked as the
// built-in lessons are and played at once, and survive a reload; a malformed one is refused with
// the parser's message and the session is kept.
func TestTeachersOpenLessonsFromDisk(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"})
	before := Render(m).Nodes

	files := lessonOneFiles(t)
	files["en.yaml"] = strings.Replace(files["en.yaml"], "title: One pod per node", "title: My own lesson", 1)
	bad := maps.Clone(files)
	bad["lesson.yaml"] += "colour: red\n"
	for _, tc := range []struct {
		files map[string]string
		want  string
	}{
		{bad, fmt.Sprintf(`This lesson could not be opened: lesson.yaml: line %d: unknown field "colour".`, strings.Count(files["lesson.yaml"], "\n")+1)},
		{map[string]string{"lesson.yaml": files["lesson.yaml"]}, "This lesson could not be opened: open the three files lesson.yaml, en.yaml and zh-CN.yaml together (en.yaml is missing)."},
	} {
		refused := Update(m, OpenMsg{Files: tc.files})
		assert.Equal(t, tc.want, Render(refused).Notice)
		assert.Nil(t, refused.Tutor)
		assert.Equal(t, before, Render(refused).Nodes, "the session is kept")
	}

	m = Update(m, OpenMsg{Files: files})
	require.NotNil(t, m.Tutor)
	assert.Equal(t, "My own lesson", Render(m).Tutor.Title)
	m = Update(m, ApplyMsg{Text: m.Editor})
	reloaded, err := Load(lib, Save(m))
	require.NoError(t, err)
	assert.Equal(t, Render(m).Tutor, Render(reloaded).Tutor)
	assert.Equal(t, Render(m).Nodes, Render(reloaded).Nodes)
}

// TestProgressFilesAreCheckedAndMerged: a progress file names built-in lessons and steps they
// have; a valid one is merged (the higher count wins), anything else refused with a message.
func TestProgressFilesAreCheckedAndMerged(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m.Progress = map[string]int{"01-one-pod-per-node": 3, "02-nodes-come-and-go": 1}
	m = Update(m, ProgressMsg{Data: `{"01-one-pod-per-node": 1, "02-nodes-come-and-go": 4, "07-node-failure": 2}`})
	assert.Equal(t, map[string]int{"01-one-pod-per-node": 3, "02-nodes-come-and-go": 4, "07-node-failure": 2}, m.Progress)
	assert.Equal(t, "Your lesson progress was loaded.", Render(m).Notice)
	for data, want := range map[string]string{
		`[1, 2]`:                                 "This progress file could not be read: it is not a DaemonLab progress file.",
		`{"99-nope": 1}`:                         `This progress file could not be read: it names no step 1 of a lesson "99-nope".`,
		`{"01-one-pod-per-node": 9}`:             `This progress file could not be read: it names no step 9 of a lesson "01-one-pod-per-node".`,
		`{"7": 1}`:                               `This progress file could not be read: it names no step 1 of a lesson "7".`,
		`{"v":1,"steps":[],"pos":0,"editor":""}`: "This progress file could not be read: it is a session file: open it with Open session.",
	} {
		refused := Update(m, ProgressMsg{Data: data})
		assert.Equal(t, want, Render(refused).Notice, data)
		assert.Equal(t, m.Progress, refused.Progress)
	}
}
