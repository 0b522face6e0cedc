package playground

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

// podOf is the pod of the model whose name starts with prefix, in namespace.
func podOf(t *testing.T, m Model, namespace, prefix string) *api.Pod {
	t.Helper()
	for p := range m.Sim.C.AllPods() {
		if p.Namespace == namespace && strings.HasPrefix(p.Name, prefix) {
			return p
		}
	}
	t.Fatalf("no pod %s/%s…", namespace, prefix)
	return nil
}

// placementOf is the details panel's placement of the pod.
func placementOf(t *testing.T, m Model, p *api.Pod) *Placement {
	t.Helper()
	d := Render(Update(m, SelectMsg{Ref{Kind: "Pod", Namespace: p.Namespace, Name: p.Name}})).Details
	require.NotNil(t, d)
	require.NotNil(t, d.Placement)
	return d.Placement
}

// assertTotals checks that each passing row's total is its scores times the columns' weights,
// summed (framework's RunScorePlugins).
func assertTotals(t *testing.T, p *Placement) {
	t.Helper()
	for _, r := range p.Rows {
		if r.Total == "" {
			continue
		}
		sum := 0
		for i, s := range r.Scores {
			score, err := strconv.Atoi(s)
			require.NoError(t, err, "%s: every plugin scores a passing node", r.Node)
			weight, err := strconv.Atoi(strings.TrimPrefix(p.Plugins[i].Weight, "×"))
			require.NoError(t, err)
			sum += score * weight
		}
		assert.Equal(t, strconv.Itoa(sum), r.Total, "%s's total", r.Node)
	}
}

// heads are the score columns' heads: each plugin and its weight.
func heads(p *Placement) []string {
	var out []string
	for _, c := range p.Plugins {
		out = append(out, c.Plugin+" "+c.Weight)
	}
	return out
}

// TestPlacementOfAPendingPodFiltersThenScores: a pending pod's next attempt
// (pkg/scheduler/schedule_one.go: schedulePod): the control-plane node hd1 is filtered out by
// TaintToleration with kube-scheduler's reason, the two workers pass and are scored by the
// plugins that score this pod (a pod requesting nothing skips BalancedAllocation, one without
// preferred terms NodeAffinity, one without a ReplicaSet the spread), each with its weight;
// equal workers tie, and the tie is drawn. The plugins' names and reasons stay English in
// Chinese.
func TestPlacementOfAPendingPodFiltersThenScores(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "new", Namespace: "default", UID: "new"},
		Spec: api.PodSpec{SchedulerName: "default-scheduler", Containers: []api.Container{{Name: "c", Image: "nginx"}}}}

	p := placement(English, m.Sim.C, pod)
	require.NotNil(t, p)
	assert.Equal(t, []string{"The scheduler's next attempt to place this pod, node by node."}, p.Lines)
	assert.Equal(t, []string{
		"Filter: can the pod go on this node at all? Each filter plugin checks one rule, and the first that fails rules the node out.",
		"Score: where is it best? Each score plugin rates every node that passed, from 0 to 100.",
		"Total: each score times its plugin's weight (×), summed; the highest total wins, and a tie is drawn at random.",
	}, p.Terms)
	assert.Equal(t, []string{"TaintToleration ×3", "NodeResourcesFit ×1"}, heads(p))
	require.Len(t, p.Rows, 3)
	assert.Equal(t, PlacementRow{Node: "hd1", Plugin: "TaintToleration", Reasons: "node(s) had untolerated taint(s)",
		Causes: []string{"its taint node-role.kubernetes.io/control-plane:NoSchedule, which the pod does not tolerate"}}, p.Rows[0])
	for _, r := range p.Rows[1:] {
		assert.Empty(t, r.Plugin, "%s passes", r.Node)
		assert.Equal(t, "100", r.Scores[0], "%s has no PreferNoSchedule taint", r.Node)
		assert.True(t, r.Best, r.Node)
		assert.Equal(t, "★ best", r.Marks)
	}
	assert.Equal(t, p.Rows[1].Total, p.Rows[2].Total, "the workers are alike")
	assertTotals(t, p)
	assert.Equal(t, "hd2, hd3 tie for the highest total: the scheduler draws one of them at random.", p.Outcome)

	zh := placement(Chinese, m.Sim.C, pod)
	assert.Equal(t, "调度器下一次尝试放置此 Pod 的过程，逐个节点列出。", zh.Lines[0])
	assert.Equal(t, "调度器如何放置它", zh.Title)
	assert.Equal(t, []string{"节点", "过滤", "总分", "✓ 通过"}, []string{zh.Node, zh.Filter, zh.Total, zh.Passes})
	assert.Equal(t, heads(p), heads(zh))
	assert.Equal(t, "node(s) had untolerated taint(s)", zh.Rows[0].Reasons, "kube-scheduler's reason as it prints it")
	assert.Equal(t, "节点有 Pod 不容忍的污点", zh.Rows[0].Gloss, "and what it means")
}

// TestPlacementOfAPodThatFitsNowhere: a pod the scheduler left Pending is explained by its next
// attempt, each node with the filter that failed it (noderesources/fit.go: Filter) and no score;
// it stays Pending.
func TestPlacementOfAPodThatFitsNowhere(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, ApplyMsg{Text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: huge\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources:\n      requests:\n        memory: 100Gi\n"})
	pod := podOf(t, m, "default", "huge")
	require.Empty(t, pod.Spec.NodeName, "the scheduler leaves it Pending")

	p := placementOf(t, m, pod)
	assert.Empty(t, p.Plugins)
	assert.Equal(t, []string{"TaintToleration", "NodeResourcesFit", "NodeResourcesFit"}, []string{p.Rows[0].Plugin, p.Rows[1].Plugin, p.Rows[2].Plugin})
	assert.Equal(t, "Insufficient memory", p.Rows[1].Reasons)
	assert.Equal(t, "No node passes every filter: the pod stays Pending.", p.Outcome)
	assert.Len(t, p.Terms, 1, "what a filter is; nothing was scored")
}

// TestPlacementOfADaemonSetPodIsItsOneNode: a DaemonSet's pod is pinned to its node by the
// controller (pkg/controller/daemon/util/daemonset_util.go: ReplaceDaemonSetPodNodeNameNodeAffinity),
// so NodeAffinity's PreFilter leaves the scheduler no other node: the panel says so and shows
// that node's verdict alone, checked now, without a table of the nodes it never considered.
func TestPlacementOfADaemonSetPodIsItsOneNode(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	var pod *api.Pod
	for q := range m.Sim.C.AllPods() {
		if q.Namespace == "kube-system" && q.Spec.NodeName == "hd2" {
			pod = q
		}
	}
	require.NotNil(t, pod)

	p := placementOf(t, m, pod)
	assert.Equal(t, []string{
		"Its DaemonSet pins it to hd2 (required node affinity on metadata.name): the scheduler chooses among no other node, and only checks that this one passes the filters.",
		"Checked against the cluster as it is now.",
	}, p.Lines)
	assert.Equal(t, []string{"Filter: can the pod go on this node at all? Each filter plugin checks one rule, and the first that fails rules the node out."}, p.Terms)
	assert.Equal(t, []PlacementRow{{Node: "hd2", Here: true, Marks: "runs here"}}, p.Rows)
	assert.Empty(t, p.Outcome)

	m = Update(m, RunMsg{"kubectl cordon hd2"})
	p = placementOf(t, m, podOf(t, m, "kube-system", pod.Name))
	assert.Equal(t, []PlacementRow{{Node: "hd2", Here: true, Marks: "runs here"}}, p.Rows, "a DaemonSet pod tolerates node.kubernetes.io/unschedulable")
	m = Update(m, RunMsg{"kubectl taint node hd2 dedicated=db:NoSchedule"})
	p = placementOf(t, m, podOf(t, m, "kube-system", pod.Name))
	assert.Equal(t, []PlacementRow{{Node: "hd2", Plugin: "TaintToleration", Reasons: "node(s) had untolerated taint(s)", Here: true, Marks: "runs here",
		Causes: []string{"its taint dedicated=db:NoSchedule, which the pod does not tolerate"}}}, p.Rows)
	assert.Equal(t, "No node would pass every filter now; the pod keeps running where it is, as filters are checked only when a pod is scheduled.", p.Outcome)
}

// TestPlacementOfABoundPodIsWhyItsNode: a pod the scheduler bound is explained as its attempt
// would go now, without itself (its requests and its place in its ReplicaSet's spread), its node
// marked; once its Scheduled event has expired the panel says that the record is gone, and a pod
// created with spec.nodeName was chosen by no scheduler, and is refused by its kubelet if it
// cannot run there.
func TestPlacementOfABoundPodIsWhyItsNode(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	pod := podOf(t, m, "default", "web-")
	node := pod.Spec.NodeName
	require.NotEmpty(t, node)

	p := placementOf(t, m, pod)
	assert.Equal(t, "Why "+node+": the scheduler's choice, computed against the cluster as it is now (without this pod), so it may differ from when the pod was bound.", p.Lines[0])
	assert.Equal(t, []string{"TaintToleration ×3", "NodeResourcesFit ×1", "PodTopologySpread ×2", "NodeResourcesBalancedAllocation ×1"}, heads(p))
	require.Len(t, p.Rows, 3)
	for _, r := range p.Rows[1:] {
		assert.Equal(t, r.Node == node, r.Here, r.Node)
		assert.Equal(t, r.Node == node, r.Best, "%s: the node without the other web pod spreads it best", r.Node)
	}
	assertTotals(t, p)
	assert.Empty(t, p.Outcome, "one best node")

	m = Update(m, RunMsg{"sim advance 1h"})
	p = placementOf(t, m, podOf(t, m, "default", pod.Name))
	assert.Equal(t, "Its Scheduled event has expired (events last an hour), so whether the scheduler chose its node or spec.nodeName was set when it was created is no longer on record.", p.Lines[0])
	assert.Len(t, p.Rows, 3, "what the scheduler would choose now")

	m = Update(m, ApplyMsg{Text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: named\nspec:\n  nodeName: hd3\n  containers:\n  - name: c\n    image: nginx\n"})
	m = Update(m, RunMsg{"sim advance 10s"})
	p = placementOf(t, m, podOf(t, m, "default", "named"))
	named := "Its spec.nodeName named hd3 when it was created: no scheduler chose among the nodes. The kubelet on hd3 still checks that it can run the pod " +
		"(resources, host ports, nodeSelector and node affinity, NoExecute taints; NoSchedule taints are only the scheduler's) and fails it at once if not."
	assert.Equal(t, []string{named}, p.Lines)
	assert.Equal(t, "How it came to its node", p.Title, "no scheduler placed it")
	assert.Empty(t, p.Rows)

	m = Update(m, ApplyMsg{Text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ssd\nspec:\n  nodeName: hd3\n  nodeSelector: {disk: ssd}\n  containers:\n  - name: c\n    image: nginx\n"})
	m = Update(m, RunMsg{"sim advance 10s"})
	p = placementOf(t, m, podOf(t, m, "default", "ssd"))
	assert.Equal(t, []string{"The kubelet on hd3 refused it: NodeAffinity — Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector. " +
		"A refused pod is not retried: it stays Failed, and its controller, if it has one, makes a new pod.", named}, p.Lines)
}

// TestPlacementOfAnotherSchedulersPod: a pending pod whose schedulerName is not
// default-scheduler is left alone by it (pkg/scheduler/profile: a profile schedules only pods
// of its schedulerName), and DaemonLab has no other.
func TestPlacementOfAnotherSchedulersPod(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, ApplyMsg{Text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: mine\nspec:\n  schedulerName: my-scheduler\n  containers:\n  - name: c\n    image: nginx\n"})
	p := placementOf(t, m, podOf(t, m, "default", "mine"))
	assert.Equal(t, []string{"Its schedulerName is my-scheduler, not default-scheduler: the default scheduler leaves it alone, and DaemonLab runs no other scheduler, so it stays Pending."}, p.Lines)
	assert.Empty(t, p.Rows)
}

// TestPlacementOfALargeClusterKeepsTheBestRows: of a cluster larger than the table, the rows
// are the best nodes first, then the others in order, and the rest are counted.
func TestPlacementOfALargeClusterKeepsTheBestRows(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	for i := 4; i <= maxPlacementRows+5; i++ {
		m = Update(m, RunMsg{"sim add-node hd" + strconv.Itoa(i)})
	}
	m = Update(m, RunMsg{"sim advance 10s"})
	m = Update(m, RunMsg{"kubectl label node hd9 disk=ssd"})
	m = Update(m, ApplyMsg{Text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ssd\nspec:\n  nodeSelector:\n    disk: ssd\n  containers:\n  - name: c\n    image: nginx\n"})
	pod := podOf(t, m, "default", "ssd")
	require.Equal(t, "hd9", pod.Spec.NodeName, "the last node in name order")

	p := placementOf(t, m, pod)
	require.Len(t, p.Rows, maxPlacementRows)
	assert.Equal(t, "hd1", p.Rows[0].Node)
	assert.Equal(t, "hd9", p.Rows[maxPlacementRows-1].Node, "its node, beyond the first rows, is kept")
	assert.Equal(t, "and 5 more", p.More)
	assert.Equal(t, "NodeAffinity", p.Rows[1].Plugin)
	assert.Equal(t, "node(s) didn't match Pod's node affinity/selector", p.Rows[1].Reasons)
	assert.Equal(t, "Now only hd9 would pass: the scheduler would take it without scoring.", p.Outcome, "the pod is bound: said as now, not as its history")
}

// TestPlacementIsMadeAgainOnlyWhenItsInputsChange: renders that change neither the cluster, its
// clock, the pod nor the language reuse the placement made last; a write to the cluster or
// another language makes it again.
func TestPlacementIsMadeAgainOnlyWhenItsInputsChange(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	pod := podOf(t, m, "default", "web-")
	m = Update(m, SelectMsg{Ref{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name}})
	first := Render(m).Details.Placement
	assert.Same(t, first, Render(Update(m, EditMsg{Text: "kind: Pod"})).Details.Placement, "an edit in the editor changes nothing it is made from")

	zh := Render(Update(m, LangMsg{Chinese})).Details.Placement
	assert.NotSame(t, first, zh)
	m = Update(m, RunMsg{"kubectl taint node hd2 dedicated=db:NoSchedule"})
	tainted := Render(m).Details.Placement
	assert.NotSame(t, first, tainted)
	assert.NotEqual(t, first.Rows, tainted.Rows, "hd2 now fails TaintToleration")
}

// TestPlacementTakesAnyPlugin: the table's columns are the plugins that scored, whatever their
// names: a pod that prefers not to share a node with web's pods is scored by InterPodAffinity
// (pkg/scheduler/framework/plugins/interpodaffinity/scoring.go: Score; weight 2 in the default
// profile), which puts the new node hd4, where no web pod runs, ahead.
func TestPlacementTakesAnyPlugin(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim add-node hd4"})
	m = Update(m, RunMsg{"sim advance 10s"})
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "apart", Namespace: "default", UID: "apart"}, Spec: api.PodSpec{SchedulerName: "default-scheduler",
		Containers: []api.Container{{Name: "c", Image: "nginx"}},
		Affinity: &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 100,
			PodAffinityTerm: api.PodAffinityTerm{TopologyKey: "kubernetes.io/hostname", LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}}}}}}

	p := placement(English, m.Sim.C, pod)
	require.Contains(t, heads(p), "InterPodAffinity ×2")
	require.Len(t, p.Rows, 4)
	assert.Equal(t, "hd4", p.Rows[3].Node)
	assert.True(t, p.Rows[3].Best, "no web pod runs on hd4")
	assert.False(t, p.Rows[1].Best || p.Rows[2].Best)
	assertTotals(t, p)
}

// TestPlacementNamesWhatFailedEachNode: under kube-scheduler's reason (kept verbatim, glossed
// in Chinese), a rejected node says what on it caused the verdict, by the filters' own rules
// (scheduler.Culprits): the untolerated taint (tainttoleration: Filter), the pod holding the
// host port (nodeports: Filter), the pod the required anti-affinity selects in the node's
// domain (interpodaffinity/filtering.go: satisfyPodAntiAffinity).
func TestPlacementNamesWhatFailedEachNode(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, ApplyMsg{Text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: hp1\nspec:\n  nodeSelector:\n    kubernetes.io/hostname: hd2\n  containers:\n  - name: c\n    image: nginx\n    ports:\n    - containerPort: 80\n      hostPort: 8080\n"})
	m = Update(m, RunMsg{"sim advance 10s"})
	require.Equal(t, "hd2", podOf(t, m, "default", "hp1").Spec.NodeName)
	var web *api.Pod
	for p := range m.Sim.C.AllPods() {
		if p.Labels["app"] == "web" && p.Spec.NodeName == "hd3" {
			web = p
		}
	}
	require.NotNil(t, web, "a web pod runs on hd3")
	probe := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "probe", Namespace: "default", UID: "probe"}, Spec: api.PodSpec{SchedulerName: "default-scheduler",
		Containers: []api.Container{{Name: "c", Image: "nginx", Ports: []api.ContainerPort{{ContainerPort: 80, HostPort: 8080}}}},
		Affinity: &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			TopologyKey: "kubernetes.io/hostname", LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}}}}}

	p := placement(English, m.Sim.C, probe)
	require.Len(t, p.Rows, 3)
	assert.Equal(t, [][]string{
		{"its taint node-role.kubernetes.io/control-plane:NoSchedule, which the pod does not tolerate"},
		{"hp1 holds 8080/TCP"},
		{web.Name + " (app=web) runs on hd3"},
	}, [][]string{p.Rows[0].Causes, p.Rows[1].Causes, p.Rows[2].Causes})
	assert.Equal(t, "node(s) didn't match pod anti-affinity rules", p.Rows[2].Reasons)
	assert.Empty(t, p.Rows[2].Gloss, "English needs no gloss")

	zh := placement(Chinese, m.Sim.C, probe)
	assert.Equal(t, "node(s) didn't have free ports for the requested pod ports", zh.Rows[1].Reasons)
	assert.Equal(t, []string{"节点有 Pod 不容忍的污点", "节点上没有 Pod 所请求的空闲主机端口", "节点不满足 Pod 反亲和性规则"}, []string{zh.Rows[0].Gloss, zh.Rows[1].Gloss, zh.Rows[2].Gloss})
	assert.Equal(t, []string{"hp1 占用了 8080/TCP"}, zh.Rows[1].Causes)
	assert.Equal(t, []string{"hd3 上运行着 " + web.Name + "（app=web）"}, zh.Rows[2].Causes)
}

// TestPlacementGlossesTheReasonsItKnows: every reason kube-scheduler's filters give has a
// Chinese gloss, "Insufficient <resource>" by its resource; a reason not known stays English
// only, and English has none.
func TestPlacementGlossesTheReasonsItKnows(t *testing.T) {
	tests := []struct {
		reasons []string
		want    string
	}{
		{[]string{"Insufficient cpu", "Insufficient example.com/gpu"}, "cpu 不足；example.com/gpu 不足"},
		{[]string{"Too many pods"}, "节点上的 Pod 数已达上限"},
		{[]string{"node(s) didn't match pod topology spread constraints (missing required label)"}, "节点不满足 Pod 拓扑分布约束（缺少所需的标签）"},
		{[]string{"node(s) were unschedulable"}, "节点被标记为不可调度"},
		{[]string{"Insufficient cpu", "something new"}, ""},
		{nil, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, glossOf(Chinese, tt.reasons), "%q", tt.reasons)
		assert.Empty(t, glossOf(English, tt.reasons))
	}
}

// TestPlacementSaysWhatEachScoreMeasures: each column's plugin has a line on what it scores, in
// both languages; PodTopologySpread says when the constraints are kube-scheduler's defaults
// (podtopologyspread/plugin.go: the system default constraints, from the pod's Service or
// ReplicaSet), and BalancedAllocation that an unchanged balance scores 75
// (noderesources/balanced_allocation.go: balancedResourceScorer).
func TestPlacementSaysWhatEachScoreMeasures(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	pod := podOf(t, m, "default", "web-")
	for _, l := range Langs {
		p := placementOf(t, Update(m, LangMsg{l}), pod)
		require.Len(t, p.Plugins, 4)
		for _, c := range p.Plugins {
			assert.NotEmpty(t, c.Help, "%s %s", l, c.Plugin)
			assert.NotContains(t, c.Help, "score.", "%s %s has its own words", l, c.Plugin)
		}
		assert.NotEmpty(t, p.Scores)
	}
	p := placementOf(t, m, pod)
	assert.Contains(t, p.Plugins[2].Help, "kube-scheduler's default ones", "web's pods have no constraints of their own")
	assert.Contains(t, p.Plugins[3].Help, "75 when the pod leaves the balance as it was")
	assert.Empty(t, scoreHelp(English, pod, "ImageLocality"), "a plugin DaemonLab does not run has none")
}
