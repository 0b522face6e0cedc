package playground

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/lessons"
)

// lib is the page's library, made as wasm's main makes it: one for every test, so that the
// lessons are read once.
var lib = NewLibrary(lessons.Start, lessons.Files, lessons.Challenges, lessons.BuiltIn)

// TestStartStateShowsThreeFluentdPods: the page opens on hd1, hd2 and hd3 with one Running
// fluentd pod each, hd1 showing its control-plane taint, and a web pod on each worker.
func TestStartStateShowsThreeFluentdPods(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	v := Render(m)
	require.Len(t, v.Nodes, 3)
	for i, n := range v.Nodes {
		assert.Equal(t, []string{"hd1", "hd2", "hd3"}[i], n.Name)
		assert.Equal(t, "Ready", n.Status)
		require.Len(t, n.Pods, min(i+1, 2))
		for _, p := range n.Pods {
			assert.Equal(t, "Running", p.Status)
			assert.Equal(t, "1/1", p.Ready)
		}
		assert.Equal(t, "DaemonSet/fluentd-elasticsearch", n.Pods[len(n.Pods)-1].Owner)
		if i > 0 {
			assert.Equal(t, "Deployment/web", n.Pods[0].Owner, "the top owner, not its ReplicaSet")
			assert.Equal(t, "rev 1", n.Pods[0].Revision)
		}
	}
	assert.Equal(t, "control-plane", v.Nodes[0].Roles)
	assert.Equal(t, []string{"node-role.kubernetes.io/control-plane:NoSchedule"}, v.Nodes[0].Taints)
	assert.Equal(t, "t = 30s", v.Clock)
	assert.Equal(t, []Usage{{"cpu", "200m", "4", 5}, {"memory", "264Mi", "8Gi", 3}}, v.Nodes[1].Usage, "fluentd's and web's requests, as describe node adds them")
	assert.Empty(t, v.Nodes[1].Conditions, "a healthy node")
	assert.Empty(t, v.Pending)
}

// TestFailedApplyShowsTheErrorAndKeepsTheCluster: a bad edit shows Kubernetes' message in the
// terminal and its line in the editor, and the cluster keeps its pods.
func TestFailedApplyShowsTheErrorAndKeepsTheCluster(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	before := Render(m).Nodes
	m = Update(m, ApplyMsg{Text: strings.Replace(m.Editor, "effect: NoSchedule", "effect: NoSchedul", 1)})
	v := Render(m)
	assert.Equal(t, []TermLine{
		{Text: "$ kubectl apply -f -", Command: true},
		{Text: `The DaemonSet "fluentd-elasticsearch" is invalid: spec.template.spec.tolerations[0].effect: Unsupported value: "NoSchedul": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`, Err: true},
	}, v.Terminal, "kubectl's error, in the terminal")
	assert.Equal(t, []string{`line 23: spec.template.spec.tolerations[0].effect: Unsupported value: "NoSchedul": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`}, v.Problems)
	assert.Equal(t, before, v.Nodes)
}

// TestTerminalRunsCommandsWithHistoryAndCompletion pins the terminal: a command is echoed and
// its output (or error) follows; ↑ and ↓ walk the history; Tab completes one candidate at once
// and lists several; Ctrl+L clears.
func TestTerminalRunsCommandsWithHistoryAndCompletion(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{Line: "kubectl get ds -A"})
	m = Update(m, RunMsg{Line: "kubectl get dss"})
	v := Render(m)
	require.Len(t, v.Terminal, 4)
	assert.Equal(t, TermLine{Text: "$ kubectl get ds -A", Command: true}, v.Terminal[0])
	assert.Contains(t, v.Terminal[1].Text, "fluentd-elasticsearch   3         3         3")
	assert.Equal(t, TermLine{Text: `error: the server doesn't have a resource type "dss"`, Err: true}, v.Terminal[3])
	m = Update(m, HistoryMsg{Step: -1})
	assert.Equal(t, "kubectl get dss", m.Terminal.Input)
	m = Update(m, HistoryMsg{Step: -1})
	assert.Equal(t, "kubectl get ds -A", m.Terminal.Input)
	m = Update(m, HistoryMsg{Step: +2})
	assert.Equal(t, "", m.Terminal.Input, "past the newest line is a fresh line")
	m = Update(m, CompleteMsg{Line: "kubectl cord"})
	assert.Equal(t, "kubectl cordon ", m.Terminal.Input)
	m = Update(m, CompleteMsg{Line: "kubectl cordon h"})
	assert.Equal(t, "kubectl cordon hd", m.Terminal.Input, "the common prefix of hd1, hd2, hd3")
	assert.Equal(t, "hd1  hd2  hd3", Render(m).Terminal[len(Render(m).Terminal)-1].Text)
	m = Update(m, CompleteMsg{Line: "kubectl explain ds.spec.up"})
	assert.Equal(t, "kubectl explain ds.spec.updateStrategy.", m.Terminal.Input, "no blank after a field path with fields of its own")
	m = Update(m, ClearMsg{})
	assert.Empty(t, Render(m).Terminal)
}

// TestNodeActionsRunTheirCommandsInTheTerminal: the fault menu and the time buttons run the
// sim and kubectl commands a learner could type, echoed in the terminal. It is the page's
// central story: a stopped kubelet leaves the node NotReady after the grace period; 300s after
// the unreachable taint the web pod is evicted (Terminating, as its kubelet cannot confirm) and
// replaced on hd3, while the DaemonSet pod stays, tolerating the taint forever.
func TestNodeActionsRunTheirCommandsInTheTerminal(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	actions := Render(m).Nodes[1].Actions
	require.Equal(t, Action{"Stop the kubelet", "sim fail hd2 kubelet-down"}, actions[0])
	m = Update(m, RunMsg{Line: actions[0].Command})
	m = Update(m, RunMsg{Line: Render(m).Time[3].Command})
	v := Render(m)
	assert.Equal(t, "$ sim advance 5m", v.Terminal[2].Text)
	assert.Equal(t, "NotReady", v.Nodes[1].Status)
	assert.Equal(t, []string{"MemoryPressure=Unknown", "DiskPressure=Unknown", "PIDPressure=Unknown", "Ready=Unknown"}, v.Nodes[1].Conditions, "all Unknown once the kubelet stops reporting")
	assert.Equal(t, []string{"evicted in 55s, at t = 6m25s: it tolerates node.kubernetes.io/unreachable:NoExecute only for its tolerationSeconds"}, v.Nodes[1].Pods[0].Notes)
	m = Update(m, RunMsg{Line: Render(m).Time[3].Command})
	v = Render(m)
	require.Len(t, v.Nodes[1].Pods, 2)
	assert.Equal(t, "Terminating", v.Nodes[1].Pods[0].Status)
	assert.Equal(t, []string{"deleted by the taint eviction controller: its node has a NoExecute taint it does not (or no longer) tolerate",
		"Terminating until the node's kubelet confirms it, the node is deleted, or the node is tainted node.kubernetes.io/out-of-service (pod GC then force-deletes it): the kubelet does not answer."}, v.Nodes[1].Pods[0].Notes)
	ds := v.Nodes[1].Pods[1]
	assert.Equal(t, PodView{Name: ds.Name, Namespace: "kube-system", Owner: "DaemonSet/fluentd-elasticsearch",
		Status: "Running", Ready: "1/1", QoS: "Burstable", Colour: ds.Colour, Revision: "rev 1",
		Notes: []string{"stays: it tolerates node.kubernetes.io/unreachable:NoExecute without tolerationSeconds, so forever"}}, ds)
	assert.Equal(t, []string{"hd2 has the taint node.kubernetes.io/unreachable:NoSchedule; kube-system/fluentd-elasticsearch does not tolerate it, so it creates no pod here; one already running stays until its template changes (a rolling update deletes it and creates none) (NodeShouldRunDaemonPod: shouldRun=false, shouldContinueRunning=true)"}, v.Nodes[1].Daemons,
		"daemon pods tolerate unreachable:NoExecute, not unreachable:NoSchedule: (shouldRun, shouldContinueRunning) = (false, true)")
	require.Len(t, v.Nodes[2].Pods, 3, "the replacement web pod runs on hd3")

	// Non-graceful node shutdown: once the dead node is tainted out-of-service, the note says
	// pod GC will force-delete the pod, and at its next check it is gone.
	m = Update(m, RunMsg{Line: "kubectl taint nodes hd2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute"})
	v = Render(m)
	require.NotEmpty(t, v.Nodes[1].Pods)
	assert.Contains(t, v.Nodes[1].Pods[0].Notes, "Terminating, and pod GC force-deletes it at its next check (every 20s): its node is not Ready and tainted node.kubernetes.io/out-of-service.")
	m = Update(m, RunMsg{Line: "sim advance 20s"})
	assert.Empty(t, Render(m).Nodes[1].Pods, "pod GC force-deleted them; no DaemonSet pod tolerates the taint")
}

// TestOpenKeysReadBack: the page's one click listener reads which object an open button is for
// from its key.
func TestOpenKeysReadBack(t *testing.T) {
	for _, ref := range []Ref{{Kind: "Node", Name: "hd2"}, {Kind: "Pod", Namespace: "kube-system", Name: "fluentd-elasticsearch-x7k2p"}, {Kind: "DaemonSet", Namespace: "default", Name: "a.b"}} {
		got, ok := OpenRef(OpenKey(ref))
		assert.True(t, ok)
		assert.Equal(t, ref, got)
	}
	for _, key := range []string{"lesson next", "choice 1", "open Node", "menu hd2", "open hd2"} {
		_, ok := OpenRef(key)
		assert.False(t, ok, key)
	}
}

// TestAddNodeTakesTheFirstFreeName: "Add a node" names the node hdN for the first N free.
func TestAddNodeTakesTheFirstFreeName(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	assert.Equal(t, "sim add-node hd4", Render(m).AddNode.Command)
	m = Update(m, RunMsg{"kubectl delete node hd2"})
	assert.Equal(t, "sim add-node hd2", Render(m).AddNode.Command)
	for _, name := range []string{"hd02", "hd-1", "hd0", "hd2"} {
		m = Update(m, RunMsg{"sim add-node " + name})
		require.Contains(t, m.Terminal.Lines[len(m.Terminal.Lines)-1].Text, name)
	}
	assert.Equal(t, "sim add-node hd4", Render(m).AddNode.Command, "hd02, hd-1 and hd0 are not hd2 or hd4")
}

// TestEventsListFiltersByTypeAndObject: the events list is `kubectl events -A`, narrowed by type
// (kubectl's --types) and by object, keeping kubectl's header.
func TestEventsListFiltersByTypeAndObject(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"sim fail hd2 kubelet-down"})
	m = Update(m, RunMsg{"sim advance 2m"})
	all := Render(m).Events
	assert.Equal(t, "kubectl events -A", all.Command)
	require.True(t, strings.HasPrefix(all.Text, "NAMESPACE     LAST SEEN   TYPE      REASON"), all.Text)
	assert.Contains(t, all.Text, "Normal    Scheduled")
	m = Update(m, EventsMsg{EventFilter{Type: "Warning"}})
	warnings := Render(m).Events
	assert.Equal(t, "kubectl events -A --types=Warning", warnings.Command)
	assert.NotContains(t, warnings.Text, "Normal ")
	assert.Contains(t, warnings.Text, "NodeNotReady")
	m = Update(m, EventsMsg{EventFilter{Type: "Warning", Object: "POD/fluentd"}})
	lines := strings.Split(Render(m).Events.Text, "\n")
	require.Len(t, lines, 2, "the header and the fluentd pod's NodeNotReady: %q", lines)
	assert.Contains(t, lines[1], "Warning   NodeNotReady   Pod/fluentd-elasticsearch-")
	m = Update(m, EventsMsg{EventFilter{Object: "node/hd2"}})
	lines = strings.Split(Render(m).Events.Text, "\n")
	require.Len(t, lines, 2, "the node controller's event is Normal: %q", lines)
	assert.Contains(t, lines[1], "Normal    NodeNotReady        Node/hd2                          Node hd2 status is now: NodeNotReady")
	m = Update(m, EventsMsg{EventFilter{Type: "Bogus"}})
	assert.Equal(t, EventFilter{Object: "node/hd2"}, m.Events, "an unknown type changes nothing")
}

// TestEventsListIsAlwaysCurrent: the events list is remembered between renders (see
// eventsMemo) but always shows what kubectl would print now: a new event, the clock moving
// (LAST SEEN), a filter, an undone step and another session with the same events each show.
func TestEventsListIsAlwaysCurrent(t *testing.T) {
	fresh := func(m Model) string { return formatEvents(m.Sim, m.Events).Text }
	m, err := NewModel(lib)
	require.NoError(t, err)
	first := Render(m).Events.Text
	assert.Equal(t, fresh(m), first)
	m = Update(m, RunMsg{"kubectl label node hd2 tier=a"})
	assert.Equal(t, first, Render(m).Events.Text, "a label records no event")
	m = Update(m, RunMsg{"sim advance 1m"})
	aged := Render(m).Events.Text
	assert.NotEqual(t, first, aged, "a minute later every event is older")
	assert.Equal(t, fresh(m), aged)
	m = Update(m, RunMsg{"kubectl scale deployment web --replicas=3"})
	scaled := Render(m).Events.Text
	assert.Contains(t, scaled, "Scaled up replica set web-")
	assert.Equal(t, fresh(m), scaled)
	m = Update(m, EventsMsg{EventFilter{Type: "Warning"}})
	assert.Equal(t, fresh(m), Render(m).Events.Text)
	m = Update(m, EventsMsg{})
	m = Update(m, UndoMsg{})
	assert.Equal(t, aged, Render(m).Events.Text, "undone: the scaling's events are gone")
	other, err := NewModel(lib)
	require.NoError(t, err)
	assert.Equal(t, first, Render(other).Events.Text, "another session with the same events")
}

// TestLargeClustersUseTheCompactGrid: past compactNodes nodes the page draws cells without pods,
// and a node's details carry its fault menu.
func TestLargeClustersUseTheCompactGrid(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	require.False(t, Render(m).Compact)
	for i := 4; i <= compactNodes+1; i++ {
		m = Update(m, RunMsg{fmt.Sprintf("sim add-node hd%d", i)})
	}
	m = Update(m, RunMsg{"sim advance 10s"})
	v := Render(m)
	require.True(t, v.Compact)
	require.Len(t, v.Nodes, compactNodes+1)
	for _, n := range v.Nodes {
		assert.Empty(t, n.Pods)
		assert.Empty(t, n.Actions)
		assert.Empty(t, n.Roles, "a cell shows no roles")
	}
	assert.Equal(t, "control-plane", Render(Update(m, TableMsg{On: true})).Nodes[0].Roles, "the table does")
	assert.Equal(t, "sim add-node hd50", v.AddNode.Command)
	counts := map[string]int{}
	for _, n := range v.Nodes {
		counts[n.Name] = n.PodCount
	}
	assert.Equal(t, 2, counts["hd2"], "fluentd and web on hd2")
	assert.Equal(t, 1, counts["hd30"], "fluentd on the new nodes")
	m = Update(m, SelectMsg{Ref{Kind: "Node", Name: "hd7"}})
	d := Render(m).Details
	require.NotNil(t, d)
	assert.Equal(t, "sim fail hd7 kubelet-down", d.Actions[0].Command)
}

// TestDetailsOfAWorkload: a DaemonSet's panel says for every node whether it wants a pod there
// and why, with kubectl's describe and rollout history; a Deployment's has no reasons.
func TestDetailsOfAWorkload(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"kubectl taint node hd3 dedicated=db:NoExecute"})
	m = Update(m, SelectMsg{Ref{Kind: "DaemonSet", Namespace: "kube-system", Name: "fluentd-elasticsearch"}})
	d := Render(m).Details
	require.NotNil(t, d)
	assert.Equal(t, []string{
		"hd1: fluentd-elasticsearch runs a pod on hd1: the node matches its selectors, and it tolerates every NoSchedule and NoExecute taint (with the tolerations every DaemonSet pod gets) (NodeShouldRunDaemonPod: shouldRun=true, shouldContinueRunning=true)",
		"hd2: fluentd-elasticsearch runs a pod on hd2: the node matches its selectors, and it tolerates every NoSchedule and NoExecute taint (with the tolerations every DaemonSet pod gets) (NodeShouldRunDaemonPod: shouldRun=true, shouldContinueRunning=true)",
		"hd3: hd3 has the taint dedicated=db:NoExecute; fluentd-elasticsearch does not tolerate it, so it runs no pod here and deletes the one it has (NodeShouldRunDaemonPod: shouldRun=false, shouldContinueRunning=false)",
	}, d.Why)
	assert.Equal(t, []string{"kubectl describe ds fluentd-elasticsearch -n kube-system", "kubectl rollout history ds/fluentd-elasticsearch -n kube-system"},
		[]string{d.Sections[0].Command, d.Sections[1].Command})
	assert.Contains(t, d.Sections[0].Text, "Desired Number of Nodes Scheduled: 2")
	m = Update(m, SelectMsg{Ref{Kind: "Deployment", Namespace: "default", Name: "web"}})
	d = Render(m).Details
	require.NotNil(t, d)
	assert.Empty(t, d.Why)
	assert.Contains(t, d.Sections[1].Text, "deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>")
	m = Update(m, SelectMsg{Ref{Kind: "Namespace", Name: "default"}})
	assert.Nil(t, Render(m).Details, "kinds the page does not show have no panel")
}

// TestPodNotesSayWhoDisruptedAPod: an evicted or deleted pod says who did it — the kubelet under
// memory pressure (with its message), the taint eviction controller, drain — in the page's
// language.
func TestPodNotesSayWhoDisruptedAPod(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{"kubectl run hog --image=nginx"})
	m = Update(m, RunMsg{"sim advance 5s"})
	node := ""
	for _, n := range Render(m).Nodes {
		for _, p := range n.Pods {
			if p.Name == "hog" {
				node = n.Name
			}
		}
	}
	require.NotEmpty(t, node)
	m = Update(m, RunMsg{"sim fail " + node + " memory-pressure"})
	m = Update(m, RunMsg{"sim advance 10s"})
	m = Update(m, SelectMsg{Ref{Kind: "Pod", Namespace: "default", Name: "hog"}})
	d := Render(m).Details
	require.NotNil(t, d)
	require.NotEmpty(t, d.Why)
	assert.Regexp(t, `^evicted by the kubelet: The node was low on resource: memory\.`, d.Why[0], "the BestEffort pod goes first")
	m = Update(m, LangMsg{Chinese})
	assert.Regexp(t, `^被 kubelet 驱逐：The node was low on resource: memory\.`, Render(m).Details.Why[0], "the kubelet's own message stays English")

	var web string
	for _, p := range Render(m).Nodes[1].Pods {
		if strings.HasPrefix(p.Name, "web-") {
			web = p.Name
		}
	}
	require.NotEmpty(t, web)
	m = Update(m, RunMsg{"kubectl taint node hd2 dedicated=db:NoExecute"})
	m = Update(m, SelectMsg{Ref{Kind: "Pod", Namespace: "default", Name: web}})
	m = Update(m, LangMsg{English})
	assert.Equal(t, []string{"deleted by the taint eviction controller: its node has a NoExecute taint it does not (or no longer) tolerate",
		"gone in 1s: its containers exit on SIGTERM, within its grace period"}, Render(m).Details.Why)
}

// TestPickLangPrefersTheChoiceThenTheBrowser: the page speaks the language the learner chose
// last, else the first of the browser's languages it speaks (any zh variant is Simplified
// Chinese), else English.
func TestPickLangPrefersTheChoiceThenTheBrowser(t *testing.T) {
	for _, tc := range []struct {
		remembered string
		preferred  []string
		want       Lang
	}{
		{"zh-CN", []string{"en-US"}, Chinese},
		{"en", []string{"zh-CN"}, English},
		{"fr", []string{"de", "zh-TW", "en"}, Chinese},
		{"", []string{"EN-gb", "zh"}, English},
		{"", []string{"de", "ja"}, English},
		{"", nil, English},
	} {
		assert.Equal(t, tc.want, PickLang(tc.remembered, tc.preferred), "remembered %q, preferred %q", tc.remembered, tc.preferred)
	}
}
