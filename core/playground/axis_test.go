package playground

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/cluster"
)

// clock is where the model's clock stands, since cluster.Epoch.
func clock(m Model) time.Duration { return m.Sim.C.Now().Sub(cluster.Epoch) }

// everything is what the cluster holds, as kubectl prints it: objects, events and leases.
func everything(t *testing.T, m Model) string {
	return output(t, m, "kubectl get all,nodes,events,leases,controllerrevisions -A -o yaml")
}

// TestEveryStepHasItsSpan: each step records when it began and ended on the clock, a tick that
// only moved the clock included (the clock is a write of the cluster: Cluster.SetNow), so the
// axis runs from the session's start to the end of the last step, redo-able steps included.
func TestEveryStepHasItsSpan(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"}) // so that something is due and play runs
	m = Update(m, SpeedMsg{Index: 0})
	m = Update(m, PlayMsg{On: true})
	for range 3 {
		m = tick(m)
	}
	m = Update(m, RunMsg{"kubectl cordon hd3"})
	m = Update(m, RunMsg{"sim advance 1m"})
	require.Equal(t, []Step{{Run: "sim fail hd2 kubelet-down"}, {Run: "sim advance 250ms", Times: 3}, {Run: "kubectl cordon hd3"}, {Run: "sim advance 1m"}}, m.History.Steps,
		"ticks of 250ms that changed no object are steps too")
	at := func(d time.Duration) time.Time { return cluster.Epoch.Add(d) }
	assert.Equal(t, []span{{start: at(30 * time.Second), end: at(30 * time.Second)}, {start: at(30 * time.Second), end: at(30750 * time.Millisecond)},
		{start: at(30750 * time.Millisecond), end: at(30750 * time.Millisecond)}, {start: at(30750 * time.Millisecond), end: at(90750 * time.Millisecond)}}, withoutMarks(m.History.spans))
	m = Update(m, UndoMsg{})
	a := Render(m).Axis
	assert.Equal(t, []time.Duration{30 * time.Second, 30750 * time.Millisecond, 90750 * time.Millisecond}, []time.Duration{a.Start, a.Now, a.End})
	m = Update(m, SeekTimeMsg{At: a.Start})
	assert.Equal(t, 0, m.History.Pos, "the axis's start is the session's, before any step")
	m = Update(m, SeekTimeMsg{At: 30750 * time.Millisecond})
	assert.Equal(t, 3, m.History.Pos, "an instant has the steps that ended at it in effect")
}

func withoutMarks(spans []span) []span {
	var out []span
	for _, sp := range spans {
		out = append(out, span{start: sp.start, end: sp.end})
	}
	return out
}

// failing is a session where hd2's kubelet stopped and play at 60× ran until it stopped by
// itself, nothing more being due: 24 ticks of 15s, to 6m30s, past the web pod's eviction at
// 6m25s.
func failing(t *testing.T) Model {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"})
	m = Update(m, SpeedMsg{Index: 3})
	m = Update(m, PlayMsg{On: true})
	for i := 0; m.Playing && i < 100; i++ {
		m = tick(m)
	}
	require.False(t, m.Playing, "play stops by itself")
	require.Equal(t, []Step{{Run: "sim fail hd2 kubelet-down"}, {Run: "sim advance 15s", Times: 24}}, m.History.Steps)
	return m
}

// TestSeekingInsideAStepIsAdvancingThere: seeking the axis to any instant, back and forward,
// leaves the cluster exactly as advancing straight there from the start does: the nearest
// state kept before it, the steps after, and the part of a clock step up to the instant
// (Sim.Advance(a) then Advance(b) is Advance(a+b): a settling at an instant no timer is due
// changes nothing but the clock).
func TestSeekingInsideAStepIsAdvancingThere(t *testing.T) {
	m := failing(t)
	for _, at := range []time.Duration{6*time.Minute + 24*time.Second, 5*time.Minute + 50*time.Second, 30 * time.Second, 6*time.Minute + 30*time.Second, 2 * time.Minute, 90 * time.Second, 4*time.Minute + 7*time.Second} {
		m = Update(m, SeekTimeMsg{At: at})
		require.Equal(t, at, clock(m))
		straight, err := NewModel(lib)
		require.NoError(t, err)
		straight = Update(straight, RunMsg{"sim fail hd2 kubelet-down"})
		straight = Update(straight, RunMsg{"sim advance " + (at - 30*time.Second).String()})
		assert.Equal(t, everything(t, straight), everything(t, m), "at %v", at)
		assert.Equal(t, at, Render(m).Axis.Now)
	}
	m = Update(m, SeekTimeMsg{At: 5*time.Minute + 50400*time.Millisecond})
	assert.Equal(t, 5*time.Minute+50*time.Second, clock(m), "a drag is rounded to the second")
	m = Update(m, SeekTimeMsg{At: time.Hour})
	assert.Equal(t, 6*time.Minute+30*time.Second, clock(m), "and kept within the axis")
}

// TestANewCommandInsideAStepRecordsItsCut: standing inside a step, a command that changes the
// cluster first records the part run so far (the whole ticks, then `sim advance` of the rest),
// then itself, and the rest is dropped, as an undo then a new step drops it; a command that only
// reads records nothing. Undo inside a step goes back to its start.
func TestANewCommandInsideAStepRecordsItsCut(t *testing.T) {
	m := failing(t)
	m = Update(m, SeekTimeMsg{At: 30*time.Second + 4*15*time.Second + 7*time.Second})
	output(t, m, "kubectl get pods")
	require.Len(t, m.History.Steps, 2)
	m = Update(m, RunMsg{"kubectl cordon hd3"})
	assert.Equal(t, []Step{{Run: "sim fail hd2 kubelet-down"}, {Run: "sim advance 15s", Times: 4}, {Run: "sim advance 7s"}, {Run: "kubectl cordon hd3"}}, m.History.Steps)
	assert.Equal(t, 4, m.History.Pos)
	assert.Equal(t, 97*time.Second, Render(m).Axis.End)

	m = Update(m, SeekTimeMsg{At: 50 * time.Second})
	m = Update(m, UndoMsg{})
	assert.Equal(t, 1, m.History.Pos)
	assert.Equal(t, 30*time.Second, clock(m), "undo inside a step goes back to its start")
	m = Update(m, RedoMsg{})
	assert.Equal(t, 90*time.Second, clock(m), "redo stays per command")
}

// TestANodeFailureMarksTheAxis: hd2's kubelet stopping marks the command, the node turning
// Unknown, its unreachable taints (merged: the same text at the same second) and the web pod's eviction 300s later, each at its instant,
// in English and Chinese; the slider says the next mark, or the last one.
func TestANodeFailureMarksTheAxis(t *testing.T) {
	m := failing(t)
	var marks []string
	for _, mk := range m.History.marks() {
		marks = append(marks, humanSince(mk.At.Sub(cluster.Epoch))+" "+mk.Label(English))
	}
	require.Contains(t, marks, "30s $ sim fail hd2 kubelet-down")
	assert.Contains(t, marks, "1m25s hd2 unreachable: Ready Unknown")
	assert.Contains(t, marks, "1m25s hd2 tainted node.kubernetes.io/unreachable:NoSchedule (+1)", "and NoExecute, at the same second")
	assert.Contains(t, strings.Join(marks, "\n"), "6m25s web-78d6ffb4b5-v2mvs evicted")
	assert.Contains(t, marks, "6m25s web-78d6ffb4b5-wcj8h created", "its replacement")

	m = Update(m, SeekTimeMsg{At: 6*time.Minute + 24*time.Second})
	a := Render(m).Axis
	assert.Equal(t, "t = 6m24s, next: 6m25s web-78d6ffb4b5-v2mvs evicted (+1)", a.Text)
	assert.Contains(t, output(t, m, "kubectl get pods -o wide"), "web-78d6ffb4b5-v2mvs ", "the web pod is on hd2 again")
	m = Update(m, LangMsg{Lang: Chinese})
	assert.Equal(t, "t = 6m24s，下一个：6m25s 已驱逐 web-78d6ffb4b5-v2mvs （另有 1 项）", Render(m).Axis.Text)
	m = Update(m, SeekTimeMsg{At: time.Hour})
	assert.Equal(t, "t = 6m30s，上一个：6m25s 已驱逐 web-78d6ffb4b5-v2mvs （另有 1 项）", Render(m).Axis.Text)
}

// TestAKubeletRefusalMarksTheAxis: a pod the kubelet refuses (an OutOf<resource>, a filter's
// name: kubelet.IsRefusal) and a pod it preempts for a critical one (Preempting) mark the axis
// when it happens, in both languages.
func TestAKubeletRefusalMarksTheAxis(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	pod := func(name, namespace, extra, cpu string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: " + namespace + "}\nspec:\n  nodeName: hd3\n" + extra +
			"  containers: [{name: c, image: nginx, resources: {requests: {cpu: \"" + cpu + "\"}}}]\n"
	}
	m = Update(m, ApplyMsg{Text: pod("hog", "default", "", "3500m")})
	m = Update(m, RunMsg{"sim advance 10s"})
	m = Update(m, ApplyMsg{Text: pod("more", "default", "", "1")})
	m = Update(m, RunMsg{"sim advance 10s"})
	m = Update(m, ApplyMsg{Text: pod("agent", "kube-system", "  priorityClassName: system-node-critical\n", "1")})
	m = Update(m, RunMsg{"sim advance 10s"})
	var marks []string
	for _, mk := range m.History.marks() {
		marks = append(marks, mk.Label(English))
	}
	assert.Contains(t, marks, "more refused by its kubelet: OutOfcpu")
	assert.Contains(t, marks, "hog preempted")
	assert.Contains(t, output(t, m, "kubectl get pod agent -n kube-system"), "Running")
	for _, mk := range m.History.marks() {
		if mk.Key == "mark.pod.refused" {
			assert.Equal(t, "more 被 kubelet 拒绝：OutOfcpu", mk.Label(Chinese))
		}
	}
}

// TestTheAxisBoundsItsMarks: however many things happen, the track draws at most maxAxisMarks
// marks, each counting those it stands for; a step keeps at most maxStepMarks.
func TestTheAxisBoundsItsMarks(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	for i := range 60 {
		m = Update(m, RunMsg{"kubectl create deployment d" + strings.Repeat("x", i%3) + time.Duration(i).String() + " --image=nginx --replicas=3"})
		m = Update(m, RunMsg{"sim advance 10s"})
	}
	a := Render(m).Axis
	assert.LessOrEqual(t, len(a.Marks), maxAxisMarks)
	total := 0
	for _, mk := range m.History.marks() {
		total += 1 + mk.More
	}
	shown := 0
	for _, mk := range a.Marks {
		shown++
		if i := strings.LastIndex(mk.Label, "(+"); i >= 0 {
			var n int
			_, err := fmt.Sscan(mk.Label[i+2:], &n)
			require.NoError(t, err)
			shown += n
		}
	}
	assert.Equal(t, total, shown, "every mark is counted in one drawn")
	many := make([]Mark, 3*maxStepMarks)
	for i := range many {
		many[i] = Mark{At: cluster.Epoch.Add(time.Duration(i) * time.Second), Key: "mark.pod.created"}
	}
	assert.Len(t, boundMarks(many), maxStepMarks)
}

// TestTheAxisKeys: arrows move by AxisStep (a hundredth of the axis, rounded up to a round
// duration), Page Up and Down by ten, Home and End to the ends; other keys are the browser's.
func TestTheAxisKeys(t *testing.T) {
	a := Axis{Start: 30 * time.Second, Now: 5 * time.Minute, End: 13*time.Minute + 30*time.Second}
	for key, want := range map[string]time.Duration{"ArrowLeft": 4*time.Minute + 50*time.Second, "ArrowUp": 5*time.Minute + 10*time.Second,
		"PageDown": 3*time.Minute + 20*time.Second, "PageUp": 6*time.Minute + 40*time.Second, "Home": 30 * time.Second, "End": 13*time.Minute + 30*time.Second} {
		msg, ok := AxisKey(a, key)
		require.True(t, ok, key)
		assert.Equal(t, SeekTimeMsg{At: want}, msg, key)
	}
	_, ok := AxisKey(a, "a")
	assert.False(t, ok)
	msg, _ := AxisKey(Axis{Start: 30 * time.Second, Now: 31 * time.Second, End: 40 * time.Second}, "PageDown")
	assert.Equal(t, SeekTimeMsg{At: 30 * time.Second}, msg, "within the axis")
}

// TestSessionsReplayToTheSameInstant: a session saved (or shared) standing inside a step loads
// standing at the same instant, with the same cluster and the same marks.
func TestSessionsReplayToTheSameInstant(t *testing.T) {
	m := failing(t)
	m = Update(m, SeekTimeMsg{At: 5*time.Minute + 50*time.Second})
	for name, load := range map[string]func(Model) (Model, error){
		"saved":  func(m Model) (Model, error) { return Load(lib, Save(m)) },
		"shared": func(m Model) (Model, error) { return LoadShared(lib, ShareFragment(m)) },
	} {
		t.Run(name, func(t *testing.T) {
			got, err := load(m)
			require.NoError(t, err)
			assert.Equal(t, 5*time.Minute+50*time.Second, clock(got))
			assert.Equal(t, m.History.Into, got.History.Into)
			assert.Equal(t, Render(m).Axis, Render(got).Axis)
			assert.Equal(t, everything(t, m), everything(t, got))
		})
	}
	_, err := Load(lib, []byte(`{"v":1,"steps":[],"pos":0,"into":-5,"editor":""}`))
	assert.ErrorIs(t, err, errSaved, "a negative place inside a step")
}
