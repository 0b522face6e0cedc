package playground

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/cluster"
)

// podNamed is the chip of the pod whose name begins with prefix, on any node or pending, and
// whether there is one.
func podNamed(v View, prefix string, status string) (PodView, bool) {
	pods := v.Pending
	for _, n := range v.Nodes {
		pods = append(pods, n.Pods...)
	}
	for _, p := range pods {
		if strings.HasPrefix(p.Name, prefix) && (status == "" || p.Status == status) {
			return p, true
		}
	}
	return PodView{}, false
}

// TestDueSaysWhatWaitsOnTheClock: whatever waits on the clock is on its object and, the
// earliest, by the clock with the click that moves time there, from the same timers the
// kubelet and the controllers act on:
//
//  1. a pod bound and ContainerCreating starts StartupDelay (3s) after binding
//     (kubelet.go startAt; upstream the pod worker's start, here the image's start-up time);
//  2. a deleted pod is gone once its containers exit on SIGTERM, within its grace period
//     (kubelet.go goneAt);
//  3. a stopped kubelet's node turns Unknown after node-monitor-grace-period, at a monitor pass
//     (pkg/controller/nodelifecycle/node_lifecycle_controller.go tryUpdateNodeHealth);
//  4. a pod tolerating the unreachable taint for tolerationSeconds is evicted when they run out
//     (pkg/controller/tainteviction/taint_eviction.go processPodOnNode);
//  5. a settled cluster has nothing due: no click, and the clock's state says so.
func TestDueSaysWhatWaitsOnTheClock(t *testing.T) {
	for _, tc := range []struct {
		name     string
		commands []string
		pod      string // the pod whose note is due, by name prefix ("" for a node's)
		status   string
		note     string // the note on its chip
		next     string // the line by the clock
		command  string // what the click runs
	}{
		{"a pod starting", []string{"kubectl scale deploy web --replicas=3"}, "web-", "ContainerCreating", "starts in 3s", "Next: web-", "sim advance 3s"},
		{"a pod terminating", []string{"kubectl scale deploy web --replicas=1"}, "web-", "Terminating", "gone in 1s: its containers exit on SIGTERM, within its grace period", "gone in 1s", "sim advance 1s"},
		{"a node going silent", []string{"sim fail hd2 kubelet-down"}, "", "", "", "Next: hd2 turns Unknown in 55s", "sim advance 55s"},
		{"an eviction countdown", []string{"sim fail hd2 kubelet-down", "sim advance 1m"}, "web-", "Running", "evicted in 4m55s, at t = 6m25s: it tolerates node.kubernetes.io/unreachable:NoExecute only for its tolerationSeconds", "evicted in 4m55s: its tolerationSeconds run out", "sim advance 4m55s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewModel(lib)
			require.NoError(t, err)
			for _, c := range tc.commands {
				m = Update(m, RunMsg{Line: c})
			}
			v := Render(m)
			if tc.pod == "" {
				assert.Equal(t, []string{"turns Unknown in 55s: the node lifecycle controller, checking every 5s (node-monitor-period), finds its kubelet silent for longer than node-monitor-grace-period (50s)"}, v.Nodes[1].Notes, "on the node's card")
			}
			if tc.pod != "" {
				p, ok := podNamed(v, tc.pod, tc.status)
				require.True(t, ok, "a %s pod %s…", tc.status, tc.pod)
				assert.Contains(t, p.Notes, tc.note)
			}
			require.NotEmpty(t, v.Due)
			require.NotNil(t, v.Next)
			assert.Contains(t, v.DueLine, tc.next)
			assert.Equal(t, tc.command, v.Next.Command)
			assert.Equal(t, "❚❚ paused", v.ClockState)
			next, ok := m.Sim.NextTimer()
			require.True(t, ok)
			assert.Equal(t, T(English, "clock.value", humanSince(next.Sub(cluster.Epoch))), v.Due[0].At, "the earliest is what sim step moves to")

			m = Update(m, RunMsg{Line: v.Next.Command})
			assert.Equal(t, next, m.Sim.C.Now(), "the click moves the clock to it")
			assert.Equal(t, "$ "+tc.command, m.Terminal.Lines[len(m.Terminal.Lines)-1].Text, "echoed, as typed")
		})
	}
	t.Run("settled", func(t *testing.T) {
		m, err := NewModel(lib)
		require.NoError(t, err)
		v := Render(m)
		assert.Empty(t, v.Due)
		assert.Nil(t, v.Next)
		assert.Equal(t, "Settled: nothing waits on the clock.", v.DueLine)
		assert.Equal(t, "❚❚ paused: nothing more is due", v.ClockState)
		for _, n := range v.Nodes {
			assert.Empty(t, n.Notes, n.Name)
			for _, p := range n.Pods {
				assert.Empty(t, p.Notes, p.Name)
			}
		}
		zh := Render(Update(m, LangMsg{Lang: Chinese}))
		assert.Equal(t, "已稳定：没有事情在等待时钟。", zh.DueLine)
		assert.Equal(t, "❚❚ 已暂停：没有待发生的事", zh.ClockState)
	})
}

// TestDueInChinese: what is due reads in Chinese, the object's name first.
func TestDueInChinese(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(Update(m, RunMsg{Line: "kubectl scale deploy web --replicas=3"}), LangMsg{Lang: Chinese})
	v := Render(m)
	require.NotNil(t, v.Next)
	assert.Regexp(t, `^下一个：web-\S+ 3s 后启动$`, v.DueLine)
	assert.Equal(t, "前进 3s", v.Next.Label)
	assert.Equal(t, "t = 33s", v.Due[0].At)
	m = Update(m, PlayMsg{On: true})
	assert.Equal(t, "▶ 10×", Render(m).ClockState)
	assert.Equal(t, "正在以 10× 播放", Render(m).ClockSpoken)
}

// TestPlayStopsByItselfWhenNothingMoreIsDue: play runs while something is due and stops at the
// first tick that finds nothing due, recording no step of the clock alone; on a settled
// cluster it does not start.
func TestPlayStopsByItselfWhenNothingMoreIsDue(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, PlayMsg{On: true})
	assert.False(t, m.Playing, "nothing due: play does not start")

	m = Update(m, RunMsg{Line: "kubectl scale deploy web --replicas=3"})
	m = Update(m, SpeedMsg{Index: 3}) // 60×: 15s a tick
	m = Update(m, PlayMsg{On: true})
	require.True(t, m.Playing)
	for i := 0; m.Playing && i < 100; i++ {
		m = tick(m)
	}
	assert.False(t, m.Playing, "play stopped by itself")
	assert.Equal(t, 45*time.Second, m.Sim.C.Now().Sub(cluster.Epoch), "one tick, to the pod's start and past it; none after")
	assert.Equal(t, Step{Run: "sim advance 15s"}, m.History.Steps[len(m.History.Steps)-1])
	v := Render(m)
	assert.Equal(t, "❚❚ paused: nothing more is due", v.ClockState)
	assert.Empty(t, v.Due)
	for _, n := range v.Nodes {
		for _, p := range n.Pods {
			assert.Equal(t, "Running", p.Status, p.Name)
		}
	}
	steps := len(m.History.Steps)
	m = tick(Update(m, PlayMsg{On: true}))
	assert.Len(t, m.History.Steps, steps, "no step of the clock alone")
}

// TestTheEarliestDueIsTheNextTimer: at every stop of a node failure, a rollout and a crash loop,
// the earliest thing due is at sim.NextTimer's instant, the one `sim step` and the click move
// to, and nothing is due exactly when no timer is.
func TestTheEarliestDueIsTheNextTimer(t *testing.T) {
	for _, commands := range [][]string{
		{"sim fail hd2 kubelet-down"},
		{"kubectl set image ds/fluentd-elasticsearch -n kube-system fluentd-elasticsearch=fluentd:v2"},
		{"sim image busybox crash", "kubectl create deploy crash --image=busybox"},
		{"sim fail hd3 memory-pressure", "kubectl run hog --image=nginx"},
	} {
		t.Run(commands[0], func(t *testing.T) {
			m, err := NewModel(lib)
			require.NoError(t, err)
			for _, c := range commands {
				m = Update(m, RunMsg{Line: c})
			}
			for range 40 {
				due := dueOf(m.Sim)
				next, ok := m.Sim.NextTimer()
				require.Equal(t, ok, len(due) > 0, "at %s", Render(m).Clock)
				if !ok {
					return
				}
				assert.Equal(t, next, due[0].At, "at %s", Render(m).Clock)
				m = Update(m, RunMsg{Line: Render(m).Next.Command})
			}
		})
	}
}
