package lessons

import (
	"cmp"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
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

// TestEveryChallengeStartsBrokenAndIsSolved: every challenge's start state fails at least one
// of its checks (there is something to do), its solution passes them all, and checking changes
// nothing.
func TestEveryChallengeStartsBrokenAndIsSolved(t *testing.T) {
	all, err := lesson.Load(Challenges, BuiltIn)
	require.NoError(t, err, "every challenge parses strictly")
	require.GreaterOrEqual(t, len(all), 10, "the lessons issue asks for at least ten challenges")
	for _, c := range all {
		t.Run(c.ID, func(t *testing.T) {
			require.NotNil(t, c.Challenge, "a challenge says so")
			s, err := c.Start()
			require.NoError(t, err)
			task := c.Steps[0]
			before := s.C.Writes()
			assert.NotEmpty(t, task.Failing(s), "the start state already passes every check")
			require.Equal(t, before, s.C.Writes(), "checking changed the cluster")
			for _, line := range task.Solution {
				require.Empty(t, scenario.Check(line, lesson.RunSolution(s, line)), line.Run)
			}
			assert.Empty(t, task.Failing(s), "the solution fails checks")
		})
	}
}

// everything is every lesson and challenge, for the checks that hold for both.
func everything(t *testing.T) []*lesson.Lesson {
	t.Helper()
	lessons, err := lesson.Load(Files, BuiltIn)
	require.NoError(t, err)
	challenges, err := lesson.Load(Challenges, BuiltIn)
	require.NoError(t, err)
	return append(lessons, challenges...)
}

// TestBothLanguagesTellTheSameLessons: every lesson has the same steps in English and Chinese
// (Parse checks ids, hints and choices); a Chinese text keeps commands and YAML as they are.
func TestBothLanguagesTellTheSameLessons(t *testing.T) {
	code := regexp.MustCompile("`[^`]*`")
	for _, l := range everything(t) {
		en, zh := l.Text["en"], l.Text["zh-CN"]
		for _, st := range l.Steps {
			assert.ElementsMatch(t, code.FindAllString(en.Steps[st.ID].Text, -1), code.FindAllString(zh.Steps[st.ID].Text, -1),
				"%s/%s: the same commands and names in code in both languages", l.ID, st.ID)
			assert.Equal(t, len(en.Steps[st.ID].Hints), len(zh.Steps[st.ID].Hints), "%s/%s: as many hints in both languages", l.ID, st.ID)
		}
	}
}

// TestNoChoiceReadsLikeItsIndex: a prediction's choice never starts with a bare number, which
// a learner would read as the choice's number ("2: only the workers" as choice 1).
func TestNoChoiceReadsLikeItsIndex(t *testing.T) {
	number := regexp.MustCompile(`^[0-9]+\b`)
	for _, l := range everything(t) {
		for lang, text := range l.Text {
			for id, st := range text.Steps {
				for _, c := range st.Choices {
					assert.False(t, number.MatchString(strings.TrimSpace(c)), "%s/%s (%s): choice %q starts with a number", l.ID, id, lang, c)
				}
			}
		}
	}
}

// commandsOf are the command lines a step's solution types (not what it applies from the editor,
// and not the clock's sim advance, which a text may name).
func commandsOf(st lesson.Step) []string {
	var lines []string
	for _, s := range st.Solution {
		if s.Stdin == "" && !strings.HasPrefix(s.Run, "sim advance") {
			lines = append(lines, s.Run)
		}
	}
	return lines
}

// TestHintsTeachAndTextsDoNotDictate: from lesson 2 on, a step's text never holds the command
// it asks for; its hints go from the concept (no command in the first) to the command (only the
// last may hold a solution's command line); a step has at least two hints.
func TestHintsTeachAndTextsDoNotDictate(t *testing.T) {
	for _, l := range everything(t) {
		for lang, text := range l.Text {
			for _, st := range l.Steps {
				prose := text.Steps[st.ID]
				where := fmt.Sprintf("%s/%s (%s)", l.ID, st.ID, lang)
				if !assert.GreaterOrEqual(t, len(prose.Hints), 2, "%s: a hint on the idea before the command", where) {
					continue
				}
				assert.NotRegexp(t, "`(kubectl|k|sim) ", prose.Hints[0], "%s: the first hint is the concept, not a command", where)
				for _, cmd := range commandsOf(st) {
					if l.ID != "01-one-pod-per-node" {
						assert.NotContains(t, prose.Text, cmd, "%s: the text gives the command away", where)
					}
					for _, h := range prose.Hints[:len(prose.Hints)-1] {
						assert.NotContains(t, h, cmd, "%s: only the last hint gives the command", where)
					}
				}
			}
		}
	}
}

// TestEveryRanGoalIsTriedWithItsSpellings: a ran goal lists at least three other spellings it
// accepts and one near miss it refuses (Parse checks that it does).
func TestEveryRanGoalIsTriedWithItsSpellings(t *testing.T) {
	for _, l := range everything(t) {
		for _, st := range l.Steps {
			if len(st.Ran) > 0 {
				assert.GreaterOrEqual(t, len(st.Accepts), 3, "%s/%s: three spellings a learner may type", l.ID, st.ID)
				assert.NotEmpty(t, st.Refuses, "%s/%s: a near miss", l.ID, st.ID)
			}
		}
	}
}

// TestEveryLessonEndsWithARecap: every lesson (not a challenge) has a recap: the commands it
// used, and the rules it taught in both languages.
func TestEveryLessonEndsWithARecap(t *testing.T) {
	all, err := lesson.Load(Files, BuiltIn)
	require.NoError(t, err)
	for _, l := range all {
		assert.NotNil(t, l.Recap, "%s: a recap", l.ID)
	}
}

// TestTheSeedsClaimsTableIsTheRecaps: lessons/README.md's table of the seed tutorials' claims
// is the recaps' claims, in the tutorials' order: one source for both. DAEMONLAB_UPDATE=1
// rewrites the table.
func TestTheSeedsClaimsTableIsTheRecaps(t *testing.T) {
	all, err := lesson.Load(Files, BuiltIn)
	require.NoError(t, err)
	readmeHolds(t, "claims", "TestTheSeedsClaimsTableIsTheRecaps", claimsTable(all))
}

// TestTheLessonsTablesAreTheLessons: lessons/README.md lists every lesson with its steps and
// every challenge with its time, as the files have them. DAEMONLAB_UPDATE=1 rewrites the tables.
func TestTheLessonsTablesAreTheLessons(t *testing.T) {
	all, err := lesson.Load(Files, BuiltIn)
	require.NoError(t, err)
	challenges, err := lesson.Load(Challenges, BuiltIn)
	require.NoError(t, err)
	var b strings.Builder
	b.WriteString("| # | Lesson | Steps |\n|---|---|---|\n")
	for i, l := range all {
		var ids []string
		for _, st := range l.Steps {
			ids = append(ids, st.ID)
		}
		fmt.Fprintf(&b, "| %d | %s | %s |\n", i+1, l.Text["en"].Title, strings.Join(ids, ", "))
	}
	b.WriteString("\n| # | Challenge | Minutes |\n|---|---|---|\n")
	for i, c := range challenges {
		fmt.Fprintf(&b, "| %d | %s | %d |\n", i+1, c.Text["en"].Title, c.Challenge.Minutes)
	}
	readmeHolds(t, "lessons", "TestTheLessonsTablesAreTheLessons", b.String())
}

// readmeHolds checks that lessons/README.md holds text between its markers for name, and
// rewrites it there with DAEMONLAB_UPDATE=1.
func readmeHolds(t *testing.T, name, test, text string) {
	t.Helper()
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	begin, end := "<!-- "+name+": made by "+test+" -->\n", "<!-- /"+name+" -->"
	before, rest, ok := strings.Cut(string(readme), begin)
	require.True(t, ok, "README.md marks where the %s table goes", name)
	_, after, ok := strings.Cut(rest, end)
	require.True(t, ok)
	want := before + begin + text + end + after
	if os.Getenv("DAEMONLAB_UPDATE") != "" {
		require.NoError(t, os.WriteFile("README.md", []byte(want), 0o644))
	}
	assert.Equal(t, want, string(readme), "run DAEMONLAB_UPDATE=1 go test ./lessons -run Table")
}

// zhAvoid are renderings the zh-cn glossary rules out, with the form DaemonLab uses instead
// (where kubernetes.io/zh-cn, kubernetes/website content/zh-cn/docs, uses more than one form,
// DaemonLab uses one; the zh-cn style guide contribute/localization_zh.md breaks ties), and
// calques a review found.
var zhAvoid = map[string]string{
	"守护进程集": "DaemonSet", "容器组": "Pod", "副本集": "ReplicaSet", "命名空间": "名字空间",
	"选择器": "选择算符", "排空": "腾空", "清空": "腾空", "控制面": "控制平面", "调度程序": "调度器",
	"待处理": "悬决", "协调": "调和", "调谐": "调和", "条件": "状况", "注释": "注解", "污染": "污点",
	"容忍性": "容忍度", "逐出": "驱逐", "节点失效": "节点故障",
	"孤儿": "孤立的 Pod / 被遗弃的 Pod", "先扩容": "超出期望副本数 / 最大峰值（maxSurge）",
	"让一分钟过去": "让模拟时间前进一分钟", "预算用完了": "不可用名额已用完",
	"容忍度让它仍然可以进入": "容忍度允许它被调度到带有匹配污点的节点上",
	"撤销":          "撤消", "部署状态": "上线状态", "待定": "悬决",
}

// TestChineseUsesTheGlossarysTerms: every Chinese text uses kubernetes.io/zh-cn's terms as the
// glossary picks them, never the alternatives.
func TestChineseUsesTheGlossarysTerms(t *testing.T) {
	for _, l := range everything(t) {
		zh := l.Text["zh-CN"]
		texts := []string{zh.Title, zh.Intro}
		texts = append(texts, zh.Recap.Rules...)
		texts = append(texts, zh.Recap.Claims...)
		for _, st := range zh.Steps {
			texts = append(texts, st.Text, st.Explain, st.Question)
			texts = append(texts, st.Hints...)
			texts = append(texts, st.Choices...)
			texts = append(texts, st.Checks...)
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
	"16-a-toleration-is-not-an-invitation",
	"17-maintenance-done-right",
	"18-failover-and-lost-pods",
	"19-where-qos-really-bites",
	"20-rollouts-side-by-side",
	"21-at-exam-speed",
}

// claimsTable is the table of the seed tutorials' claims that lessons/README.md shows: every
// claim a lesson's recap lists, by tutorial and section (in the tutorial's order), with its
// verdict and the step that tests it, in English.
func claimsTable(all []*lesson.Lesson) string {
	type row struct {
		claim lesson.Claim
		text  string
		where string
	}
	var rows []row
	for _, l := range all {
		if l.Recap == nil {
			continue
		}
		number, _ := strconv.Atoi(strings.SplitN(l.ID, "-", 2)[0])
		for i, c := range l.Recap.Claims {
			rows = append(rows, row{c, l.Text["en"].Recap.Claims[i], fmt.Sprintf("%d/%s", number, c.Step)})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.claim.Seed, b.claim.Seed), compareSections(a.claim.Section, b.claim.Section))
	})
	var b strings.Builder
	b.WriteString("| Tutorial | Section | Claim | In v1.37 | Tested in |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.claim.Seed, r.claim.Section, strings.ReplaceAll(strings.TrimSpace(r.text), "|", `\|`), r.claim.Verdict, r.where)
	}
	return b.String()
}

// compareSections orders section numbers as a tutorial does: 1.2 before 1.10 before 2.
func compareSections(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		if c := cmp.Compare(na, nb); ea == nil && eb == nil && c != 0 {
			return c
		}
		if c := cmp.Compare(pa[i], pb[i]); (ea != nil || eb != nil) && c != 0 {
			return c
		}
	}
	return cmp.Compare(len(pa), len(pb))
}
