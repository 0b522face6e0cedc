package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLessonIsTakenStepByStep: a lesson starts from its own state; a step's goal ticks only when
// the cluster meets it (and its prediction is made); hints come one at a time; the next step
// comes when the learner asks; progress is kept; the sandbox is one message away.
func TestLessonIsTakenStepByStep(t *testing.T) {
	m, err := NewModel()
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

	saved, err := Load(Save(m))
	require.NoError(t, err)
	assert.Equal(t, Render(m).Tutor, Render(saved).Tutor, "a reload keeps the place in the lesson")

	m = Update(m, LessonMsg{})
	assert.Nil(t, m.Tutor)
	assert.Equal(t, 3, m.Progress["01-one-pod-per-node"], "progress outlives the lesson")
	assert.Len(t, Render(m).Nodes[1].Pods, 2, "the sandbox's start state again")
}

// TestLessonsListAndChineseText: the lesson list in the page's language, with progress.
func TestLessonsListAndChineseText(t *testing.T) {
	m, err := NewModel()
	require.NoError(t, err)
	m = Update(m, LangMsg{Chinese})
	items := Render(m).Lessons
	require.Len(t, items, 15)
	assert.Equal(t, LessonItem{ID: "07-node-failure", Title: "节点故障", Steps: 4}, items[6])
	m = Update(m, LessonMsg{ID: "07-node-failure"})
	assert.Equal(t, "节点故障", Render(m).Tutor.Title)
	m = Update(m, ResetMsg{})
	require.NotNil(t, m.Tutor, "reset restarts the lesson, not the sandbox")
	assert.Equal(t, "07-node-failure", m.Tutor.Lesson.ID)
}
