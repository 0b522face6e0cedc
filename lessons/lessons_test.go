package lessons

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/lesson"
	"daemonlab/core/scenario"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// TestStartStateRunsOneFluentdPodPerNode: the playground's start manifest, applied to the default
// cluster, runs exactly one Running fluentd pod on each of hd1 (the control plane, whose taint
// it tolerates), hd2 and hd3, and the web Deployment's two pods on the workers, one each (the
// scheduler spreads them; neither tolerates the control-plane taint).
func TestStartStateRunsOneFluentdPodPerNode(t *testing.T) {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	r := shell.ApplyAll(s, Start)
	require.Empty(t, r.Err)
	s.Advance(30 * time.Second)
	byNode := map[string][]string{}
	for _, p := range s.C.Pods() {
		assert.Equal(t, api.PodRunning, p.Status.Phase)
		byNode[p.Spec.NodeName] = append(byNode[p.Spec.NodeName], p.Namespace)
	}
	assert.Equal(t, map[string][]string{"hd1": {"kube-system"}, "hd2": {"default", "kube-system"}, "hd3": {"default", "kube-system"}}, byNode)
}

// TestCurriculum pins the list of lessons, in the order the lessons issue gives.
func TestCurriculum(t *testing.T) {
	all, err := lesson.Load(Files, BuiltIn)
	require.NoError(t, err, "every lesson parses strictly")
	var ids []string
	for _, l := range all {
		ids = append(ids, l.ID)
	}
	assert.Equal(t, curriculum, ids)
}

// TestEverySolutionMeetsEveryGoal plays each lesson as a learner would: from its start state, no
// step's goal holds before its solution runs, and every step's goal holds right after it; goal
// checks only read (they change nothing). Applies in a solution go through the editor, all or
// nothing, as the page runs them.
func TestEverySolutionMeetsEveryGoal(t *testing.T) {
	all, err := lesson.Load(Files, BuiltIn)
	require.NoError(t, err)
	for _, l := range all {
		t.Run(l.ID, func(t *testing.T) {
			s, err := l.Start()
			require.NoError(t, err)
			for _, st := range l.Steps {
				before := s.C.Writes()
				assert.False(t, st.Met(s, nil), "step %q: the goal holds before the learner does anything", st.ID)
				require.Equal(t, before, s.C.Writes(), "step %q: checking the goal changed the cluster", st.ID)
				var typed []string
				for _, line := range st.Solution {
					r := lesson.RunSolution(s, line)
					require.Empty(t, scenario.Check(line, r), "step %q: %s", st.ID, line.Run)
					typed = append(typed, line.Run)
				}
				for _, g := range st.Goal {
					assert.Empty(t, scenario.Check(g, shell.Run(s, g.Run, g.Stdin)), "step %q: goal %s", st.ID, g.Run)
				}
				assert.True(t, st.Met(s, typed), "step %q: the solution does not meet the goal", st.ID)
			}
		})
	}
}

// TestBothLanguagesTellTheSameLessons: every lesson has the same steps in English and Chinese
// (Parse checks ids, hints and choices); a Chinese text keeps commands and YAML as they are.
func TestBothLanguagesTellTheSameLessons(t *testing.T) {
	all, err := lesson.Load(Files, BuiltIn)
	require.NoError(t, err)
	code := regexp.MustCompile("`[^`]*`")
	for _, l := range all {
		en, zh := l.Text["en"], l.Text["zh-CN"]
		for _, st := range l.Steps {
			assert.ElementsMatch(t, code.FindAllString(en.Steps[st.ID].Text, -1), code.FindAllString(zh.Steps[st.ID].Text, -1),
				"%s/%s: the same commands and names in code in both languages", l.ID, st.ID)
		}
	}
}

// zhAvoid are renderings the zh-cn glossary rules out, with the form DaemonLab uses instead
// (where kubernetes.io/zh-cn, kubernetes/website content/zh-cn/docs, uses more than one form,
// DaemonLab uses one; the zh-cn style guide contribute/localization_zh.md breaks ties).
var zhAvoid = map[string]string{
	"守护进程集": "DaemonSet", "容器组": "Pod", "副本集": "ReplicaSet", "命名空间": "名字空间",
	"选择器": "选择算符", "排空": "腾空", "清空": "腾空", "控制面": "控制平面", "调度程序": "调度器",
	"待处理": "悬决", "协调": "调和", "调谐": "调和", "条件": "状况", "注释": "注解", "污染": "污点",
	"容忍性": "容忍度", "逐出": "驱逐", "节点失效": "节点故障",
}

// TestChineseUsesTheGlossarysTerms: every Chinese text uses kubernetes.io/zh-cn's terms as the
// glossary picks them, never the alternatives.
func TestChineseUsesTheGlossarysTerms(t *testing.T) {
	all, err := lesson.Load(Files, BuiltIn)
	require.NoError(t, err)
	for _, l := range all {
		zh := l.Text["zh-CN"]
		texts := []string{zh.Title, zh.Intro}
		for _, st := range zh.Steps {
			texts = append(texts, st.Text, st.Explain)
			texts = append(texts, st.Hints...)
			texts = append(texts, st.Choices...)
		}
		for _, text := range texts {
			for avoid, use := range zhAvoid {
				assert.NotContains(t, text, avoid, "%s: write %s, not %s", l.ID, use, avoid)
			}
			assert.NotContains(t, strings.ToLower(text), "守护进程 set")
		}
	}
}

// curriculum is the lessons issue's list, in its order.
var curriculum = []string{
	"01-one-pod-per-node",
	"02-nodes-come-and-go",
	"03-choosing-nodes",
	"04-taints-and-tolerations",
	"05-the-control-plane",
	"06-how-daemon-pods-are-scheduled",
	"07-node-failure",
	"08-the-automatic-taints",
	"09-rolling-update",
	"10-max-surge",
	"11-a-bad-rollout",
	"12-on-delete",
	"13-qos-classes",
	"14-eviction-under-memory-pressure",
	"15-daemonset-or-deployment",
}
