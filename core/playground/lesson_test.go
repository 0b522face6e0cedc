package playground

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/lesson"
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
	m = Update(m, SolutionMsg{})
	v = Render(m).Tutor
	assert.True(t, v.Revealed, "Show solution before a prediction reveals the answer")
	assert.Equal(t, "Revealed by Show solution.", v.Verdict, "never Right")
	assert.Equal(t, 2, v.Answer)
	assert.Equal(t, []SolutionLine{{Text: "kubectl get pods -n kube-system -o wide"}}, v.Solution)
	assert.Equal(t, "kubectl get pods -n kube-system -o wide", m.Terminal.Input, "the solution's command is in the prompt, ready to run")
	assert.False(t, v.Met, "nothing ran")
	m = Update(m, PredictMsg{Choice: 1})
	assert.Zero(t, m.Tutor.Predicted, "a revealed prediction takes no choice")
	m = Update(m, RunMsg{m.Terminal.Input})
	v = Render(m).Tutor
	assert.True(t, v.Met, "the learner ran the solution")
	assert.Nil(t, v.Recap, "the recap waits for the lesson's end")
	assert.Equal(t, "$ kubectl get pods -n kube-system -o wide", Render(m).Terminal[len(Render(m).Terminal)-2].Text)
	assert.Equal(t, 3, m.Progress["01-one-pod-per-node"])

	m = Update(m, NextStepMsg{})
	m = Update(m, PredictMsg{Choice: 3})
	m = Update(m, RunMsg{"kubectl apply -f log-agent.yaml"})
	v = Render(m).Tutor
	assert.True(t, v.Met)
	assert.True(t, v.Last)
	assert.Equal(t, 4, m.Progress["01-one-pod-per-node"])
	require.NotNil(t, v.Recap, "the last step met shows the recap")
	assert.NotEmpty(t, v.Recap.Rules)
	require.NotNil(t, v.Next)
	assert.Equal(t, "02-nodes-come-and-go", v.Next.ID)

	saved, err := Load(lib, Save(m))
	require.NoError(t, err)
	assert.Equal(t, Render(m).Tutor, Render(saved).Tutor, "a reload keeps the place in the lesson")

	m = Update(m, LessonMsg{})
	assert.Nil(t, m.Tutor)
	assert.Equal(t, 4, m.Progress["01-one-pod-per-node"], "progress outlives the lesson")
	assert.Len(t, Render(m).Nodes[1].Pods, 2, "the sandbox's start state again")
}

// TestLessonsAreListedAfterTheFirstPaint: the page opens with an empty lesson picker (reading
// every lesson would be most of its start-up) and lists one more lesson, then challenge, for
// each ShowLessonsMsg, in order, until all are listed.
func TestLessonsAreListedAfterTheFirstPaint(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m.LessonsLater = true
	assert.Empty(t, Render(m).Picker.Lessons)
	all := Render(Model{Sim: m.Sim, Lang: English, lib: lib}).Picker.Lessons
	builtIn, err := lesson.Load(lessons.Files, lessons.BuiltIn)
	require.NoError(t, err)
	challenges, err := lesson.Load(lessons.Challenges, lessons.BuiltIn)
	require.NoError(t, err)
	require.Len(t, all, len(builtIn)+len(challenges))
	for n := 1; n <= len(all); n++ {
		require.True(t, m.LessonsLater, "item %d is still to list", n)
		m = Update(m, ShowLessonsMsg{})
		assert.Equal(t, all[:n], Render(m).Picker.Lessons)
	}
	assert.False(t, m.LessonsLater, "all are listed")
	assert.False(t, all[len(builtIn)-1].Challenge)
	assert.True(t, all[len(builtIn)].Challenge, "the challenges come after the lessons")
	assert.Equal(t, "challenges/01-the-agent-skips-the-control-plane", all[len(builtIn)].ID)
	m = Update(m, ShowLessonsMsg{})
	assert.Len(t, Render(m).Picker.Lessons, len(all))
}

// TestLessonsListAndChineseText: the lesson list in the page's language, with progress.
func TestLessonsListAndChineseText(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, LangMsg{Chinese})
	items := Render(m).Picker.Lessons
	assert.Equal(t, LessonItem{ID: "07-node-failure", Title: "节点故障", Steps: 4, Label: "7. 节点故障（0/4）"}, items[6])
	m = Update(m, LessonMsg{ID: "07-node-failure"})
	assert.Equal(t, "节点故障", Render(m).Tutor.Title)
	m = Update(m, ResetMsg{})
	require.NotNil(t, m.Tutor, "reset restarts the lesson, not the sandbox")
	assert.Equal(t, "07-node-failure", m.Tutor.Lesson.ID)
}

// lessonOneFiles are lesson 1's files, as a teacher would open them from disk.
func lessonOneFiles(t testing.TB) map[string]string {
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
	m = Update(m, ProgressMsg{Data: `{"01-one-pod-per-node": 1, "02-nodes-come-and-go": 4, "07-node-failure": 2, "challenges/01-the-agent-skips-the-control-plane": 3}`})
	assert.Equal(t, map[string]int{"01-one-pod-per-node": 3, "02-nodes-come-and-go": 4, "07-node-failure": 2, "challenges/01-the-agent-skips-the-control-plane": 3}, m.Progress)
	assert.Equal(t, "Your lesson progress was loaded.", Render(m).Notice)
	for data, want := range map[string]string{
		`[1, 2]`:                     "This progress file could not be read: it is not a DaemonLab progress file.",
		`{"99-nope": 1}`:             `This progress file could not be read: it names no step 1 of a lesson "99-nope".`,
		`{"01-one-pod-per-node": 9}`: `This progress file could not be read: it names no step 9 of a lesson "01-one-pod-per-node".`,
		`{"7": 1}`:                   `This progress file could not be read: it names no step 1 of a lesson "7".`,
		`{"challenges/01-the-agent-skips-the-control-plane": 4}`: `This progress file could not be read: it names no step 4 of a lesson "challenges/01-the-agent-skips-the-control-plane".`,
		`{"challenges/99-none": 1}`:                              `This progress file could not be read: it names no step 1 of a lesson "challenges/99-none".`,
		`{"v":1,"steps":[],"pos":0,"editor":""}`:                 "This progress file could not be read: it is a session file: open it with Open session.",
	} {
		refused := Update(m, ProgressMsg{Data: data})
		assert.Equal(t, want, Render(refused).Notice, data)
		assert.Equal(t, m.Progress, refused.Progress)
	}
}

// TestAChallengeIsCheckedNotWatched: a challenge's checks stay hidden and unjudged while the
// learner works; Check judges them all and shows each one's verdict; a pass keeps the time the
// task took since the timer started and the result in the progress (with hints: "solved with
// hints"); giving up shows the solution, ready to run, and keeps "gave up"; a reload keeps it all.
func TestAChallengeIsCheckedNotWatched(t *testing.T) {
	const id = "challenges/01-the-agent-skips-the-control-plane"
	m, err := OpenLink(lib, "challenge=1")
	require.NoError(t, err)
	require.NotNil(t, m.Tutor)
	assert.Equal(t, id, m.Tutor.Lesson.ID)
	v := Render(m).Tutor
	require.NotNil(t, v.Challenge)
	assert.Equal(t, "Challenge 1 · The log agent skips the control plane", v.Heading)
	assert.Empty(t, v.Challenge.Checks, "checks are hidden until Check")
	assert.Empty(t, v.Hints, "hints are locked until asked for")
	assert.Empty(t, v.Solution, "the solution only after giving up")

	m = Update(m, TimerMsg{Now: 1_000})
	m = Update(m, CheckMsg{Now: 2_000})
	v = Render(m).Tutor
	require.Len(t, v.Challenge.Checks, 3)
	assert.False(t, v.Challenge.Checks[0].Passed, "fluentd runs on two nodes of three")
	assert.True(t, v.Challenge.Checks[2].Passed, "hd1 has its taint")
	assert.Equal(t, "The DaemonSet wants a pod on every node, and all of them are ready", v.Challenge.Checks[0].Text)
	assert.False(t, v.Met)

	m = Update(m, HintMsg{})
	m = Update(m, RunMsg{Line: `kubectl patch ds fluentd-elasticsearch -n kube-system --type=json -p '[{"op":"replace","path":"/spec/template/spec/tolerations/0/key","value":"node-role.kubernetes.io/control-plane"}]'`})
	m = Update(m, RunMsg{Line: "sim advance 30s"})
	assert.False(t, Render(m).Tutor.Met, "nothing is judged until Check")
	assert.False(t, Render(m).Tutor.Challenge.Checks[0].Passed, "the verdicts are the last Check's")

	m = Update(m, CheckMsg{Now: 186_000})
	v = Render(m).Tutor
	assert.True(t, v.Met)
	assert.True(t, v.Challenge.Solved)
	assert.Equal(t, "Time taken: 3:05.", TookText(English, v.Challenge.Took))
	assert.Equal(t, challengeWithHints, m.Progress[id])
	assert.Equal(t, "solved with hints", v.Challenge.Result)
	require.NotNil(t, v.Next, "the next challenge")
	assert.Equal(t, "challenges/02-a-manifest-that-will-not-apply", v.Next.ID)

	reloaded, err := Load(lib, Save(m))
	require.NoError(t, err)
	reloaded.Progress = m.Progress // the page keeps the progress apart from the session
	assert.Equal(t, Render(m).Tutor, Render(reloaded).Tutor, "a reload keeps the verdicts, the time and the result")

	fresh := Update(m, LessonMsg{ID: id})
	fresh = Update(fresh, SolutionMsg{})
	v = Render(fresh).Tutor
	assert.True(t, v.Challenge.GaveUp)
	assert.Equal(t, "kubectl patch ds fluentd-elasticsearch -n kube-system --type=json -p '[{\"op\":\"replace\",\"path\":\"/spec/template/spec/tolerations/0/key\",\"value\":\"node-role.kubernetes.io/control-plane\"}]'", fresh.Terminal.Input)
	assert.Len(t, v.Solution, 2)
	assert.Equal(t, challengeWithHints, fresh.Progress[id], "a result only grows")
	assert.Equal(t, "1. The log agent skips the control plane (solved with hints)", Render(fresh).Picker.Lessons[len(Render(fresh).Picker.Lessons)-countChallenges(t)].Label)
}

// countChallenges is the number of built-in challenges.
func countChallenges(t *testing.T) int {
	t.Helper()
	all, err := lesson.Load(lessons.Challenges, lessons.BuiltIn)
	require.NoError(t, err)
	return len(all)
}

// TestTimerTextCountsDownThenOver: a challenge's timer shows the time left of its suggested
// minutes, then how far over them the learner is.
func TestTimerTextCountsDownThenOver(t *testing.T) {
	for _, tc := range []struct {
		now  float64
		want string
	}{
		{0, "5:00 left"}, {1_500, "4:59 left"}, {300_000, "0:00 left"}, {301_000, "0:01 over the suggested time"}, {-5, "5:00 left"},
	} {
		assert.Equal(t, tc.want, TimerText(English, 5, 0, tc.now))
	}
	assert.Equal(t, "剩余 4:00", TimerText(Chinese, 5, 1_000, 61_000))
}

// TestTheReferenceIsEveryLessonsRecap: the reference lists every lesson's recap, in order, each
// with its heading, and opens in the sandbox too (the lesson pane shows it on a phone).
func TestTheReferenceIsEveryLessonsRecap(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	assert.Nil(t, Render(m).Reference)
	m = Update(m, ReferenceMsg{Show: true})
	r := Render(m).Reference
	require.NotNil(t, r)
	builtIn, err := lesson.Load(lessons.Files, lessons.BuiltIn)
	require.NoError(t, err)
	var want []string
	for _, l := range builtIn {
		if l.Recap != nil {
			want = append(want, heading(English, l))
		}
	}
	var got []string
	for _, e := range r.Lessons {
		got = append(got, e.Heading)
		assert.NotEmpty(t, e.Recap.Rules, e.Heading)
	}
	assert.Equal(t, want, got)
	assert.False(t, r.Lessons[0].Done, "lesson 1 is not finished: its recap is folded")
	m.Progress = map[string]int{"01-one-pod-per-node": len(builtIn[0].Steps)}
	assert.True(t, Render(m).Reference.Lessons[0].Done)
	assert.Contains(t, paneViews(m), PaneView{Pane: LessonPane, Label: "Lesson", Selected: true}, "a phone shows the reference in the lesson's pane")
	m = Update(m, ReferenceMsg{})
	assert.Nil(t, Render(m).Reference)
}

// TestAChallengeSaysNoUnaskedWordOnTheCause: while a challenge is under way the cluster shows no
// "not here" placeholder and the editor no lint, which would name the fault; once the learner
// gives up, they are back.
func TestAChallengeSaysNoUnaskedWordOnTheCause(t *testing.T) {
	m, err := OpenLink(lib, "challenge=1")
	require.NoError(t, err)
	m = Update(m, ApplyMsg{Text: lessons.K8sMasterDaemonSet})
	v := Render(m)
	assert.Empty(t, v.Nodes[0].Ghosts, "hd1 would say why it has no fluentd pod")
	assert.Empty(t, v.Lints, "the k8s-master toleration would be named")
	m = Update(m, SolutionMsg{})
	v = Render(m)
	assert.NotEmpty(t, v.Nodes[0].Ghosts)
	assert.NotEmpty(t, v.Lints)
}

// TestAPredictionWaitsWithoutHints: while a lesson step's prediction waits for its answer the
// editor's lints and the cluster's "not here" placeholders, which would give it away (lesson 5's
// editor holds the k8s-master toleration the lint names), say nothing; once it is answered they
// are back.
func TestAPredictionWaitsWithoutHints(t *testing.T) {
	m, err := StartModel(lib, "5")
	require.NoError(t, err)
	require.NotNil(t, m.Tutor.step().Predict)
	assert.Empty(t, Render(m).Lints, "the lint would say hd1 gets no pod")
	m = Update(m, PredictMsg{Choice: 1})
	assert.NotEmpty(t, Render(m).Lints)
}

// TestALessonLeftForAnotherIsTakenUpWhereItWasLeft: picking a lesson the learner left for another
// one opens it as it was left (its session was kept), not from its start; Reset starts it over.
func TestALessonLeftForAnotherIsTakenUpWhereItWasLeft(t *testing.T) {
	m, err := StartModel(lib, "2")
	require.NoError(t, err)
	m = Update(m, PredictMsg{Choice: 2})
	m = Update(m, RunMsg{Line: "sim add-node hd4"})
	m = Update(m, RunMsg{Line: "sim advance 10s"})
	m = Update(m, NextStepMsg{})
	require.Equal(t, 1, m.Tutor.Step)
	m = Update(m, LessonMsg{ID: "3"})
	require.Equal(t, "03-choosing-nodes", m.Tutor.Lesson.ID)
	m = Update(m, LessonMsg{ID: "02-nodes-come-and-go"})
	assert.Equal(t, 1, m.Tutor.Step, "back at step 2")
	assert.Len(t, m.Sim.C.Nodes(), 4, "with hd4, as it was left")
	assert.Equal(t, "You are back in the lesson where you left it; Reset starts it over.", Render(m).Notice)
	m = Update(m, ResetMsg{})
	assert.Zero(t, m.Tutor.Step, "Reset starts it over")
}

// TestAPredictionSaysItComesFirst: while a step's prediction waits, the goal says that what is
// run before it does not count.
func TestAPredictionSaysItComesFirst(t *testing.T) {
	m, err := StartModel(lib, "2")
	require.NoError(t, err)
	assert.True(t, Render(m).Tutor.PredictFirst)
	m = Update(m, PredictMsg{Choice: 1})
	assert.False(t, Render(m).Tutor.PredictFirst)
}

// TestGivingUpStopsTheChallengesClock: a challenge given up has no time to beat: its timer stops
// and does not start again, and solving it then says it was solved with the solution.
func TestGivingUpStopsTheChallengesClock(t *testing.T) {
	m, err := OpenLink(lib, "challenge=1")
	require.NoError(t, err)
	m = Update(m, TimerMsg{Now: 1_000})
	m = Update(m, SolutionMsg{})
	assert.Zero(t, Render(m).Tutor.Challenge.Started)
	m = Update(m, TimerMsg{Now: 2_000})
	assert.Zero(t, Render(m).Tutor.Challenge.Started, "no timer after giving up")
	m = Update(m, RunMsg{Line: m.Terminal.Input})
	m = Update(m, UseSolutionMsg{Line: 1})
	m = Update(m, RunMsg{Line: m.Terminal.Input})
	m = Update(m, CheckMsg{Now: 9_000})
	v := Render(m).Tutor.Challenge
	assert.True(t, v.Solved)
	assert.True(t, v.GaveUp)
	assert.Zero(t, v.Took)
	assert.Equal(t, "gave up", v.Result)
}

// TestASolutionThatWritesAFileOpensItsTab: a solution line that writes a file (`cat > FILE`,
// lesson 21's edited ds.yaml) is shown by the file's name and waits for a click (the file may
// hold the learner's work); clicked, it writes the file and opens it in its tab, where the
// learner reads it before applying it.
func TestASolutionThatWritesAFileOpensItsTab(t *testing.T) {
	m, err := StartModel(lib, "21")
	require.NoError(t, err)
	m.Tutor.Step = slices.IndexFunc(m.Tutor.Lesson.Steps, func(st lesson.Step) bool { return st.ID == "kind" })
	require.Positive(t, m.Tutor.Step)
	m = Update(m, SolutionMsg{})
	v := Render(m).Tutor
	require.NotEmpty(t, v.Solution)
	assert.Equal(t, SolutionLine{Text: "ds.yaml", Editor: true}, v.Solution[0])
	_, err = m.Sim.C.ReadFile("ds.yaml")
	assert.Error(t, err, "nothing is written before the click")
	assert.Empty(t, m.Terminal.Input)
	m = Update(m, UseSolutionMsg{Line: 0})
	assert.Equal(t, "ds.yaml", m.Open, "the file's tab is shown")
	data, err := m.Sim.C.ReadFile("ds.yaml")
	require.NoError(t, err)
	assert.Contains(t, data, "kind: DaemonSet")
	m = Update(m, UseSolutionMsg{Line: 1})
	assert.Equal(t, "kubectl apply -f ds.yaml", m.Terminal.Input)
	assert.Equal(t, TerminalPane, m.Pane)
}

// TestASolutionsManifestIsNamedByItsObjects: a solution line that applies a manifest from the
// editor is shown by its objects' kinds and names, and waits for a click (the editor may hold the
// learner's work).
func TestASolutionsManifestIsNamedByItsObjects(t *testing.T) {
	m, err := StartModel(lib, "6")
	require.NoError(t, err)
	m.Tutor.Step = slices.IndexFunc(m.Tutor.Lesson.Steps, func(st lesson.Step) bool { return st.ID == "pending" })
	require.Positive(t, m.Tutor.Step)
	editor := m.Editor
	m = Update(m, SolutionMsg{})
	v := Render(m).Tutor
	require.NotEmpty(t, v.Solution)
	assert.Equal(t, SolutionLine{Text: "DaemonSet node-exporter", Editor: true}, v.Solution[0])
	assert.Equal(t, editor, m.Editor, "nothing is put over the editor's text unasked")
	m = Update(m, UseSolutionMsg{Line: 0})
	assert.Contains(t, m.Editor, "name: node-exporter")
	assert.Equal(t, YAMLPane, m.Pane)
}
