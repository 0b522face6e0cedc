package playground

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/lessons"
)

// notes is the page's explanation the last command left in the terminal, and the kubectl
// output just before it; "" for none.
func notes(m Model) (note, before string) {
	lines := m.Terminal.Lines
	if n := len(lines); n >= 1 && lines[n-1].Note {
		note = strings.ReplaceAll(strings.TrimPrefix(lines[n-1].Text, "# "), "\n# ", "\n") // its lines are shell comments
		if n >= 2 {
			before = lines[n-2].Text
		}
	}
	return note, before
}

// withoutExists is the start manifest's DaemonSet with `operator: Exists` removed from its
// toleration, as the tutorial's daemonset.yaml (seed 000) writes it.
var withoutExists = strings.Replace(lessons.FluentdDaemonSet, "        operator: Exists\n", "", 1)

// TestApplyExplainsATemplateChangeItsRevisionAndItsRollout: seed 000's DaemonSet re-applied
// without `operator: Exists` is another template (an unset operator is Equal, and a toleration
// of Equal is another toleration than one of Exists: k8s.io/api core/v1 Toleration, and
// controller.ComputeHash of the template), so the DaemonSet controller makes revision 2
// (constructHistory) and rolls it out under the default RollingUpdate, maxUnavailable 1 and
// maxSurge 0 (pkg/apis/apps/v1 defaults). The explanation follows kubectl's own output, which
// stays as kubectl prints it; from the editor, from a here-document and from a file alike.
func TestApplyExplainsATemplateChangeItsRevisionAndItsRollout(t *testing.T) {
	require.NotEqual(t, lessons.FluentdDaemonSet, withoutExists)
	const diff = "  spec.template.spec.tolerations[0].operator: Exists → (unset)"
	const rollout = "revision 2 (ControllerRevision fluentd-elasticsearch-"
	const budget = ") is rolling out to 3 nodes under RollingUpdate (maxUnavailable=1, maxSurge=0): node by node, each old pod is deleted before its replacement is created"
	for name, apply := range map[string]func(Model) Model{
		"the editor's Apply": func(m Model) Model { return Update(m, ApplyMsg{Text: withoutExists}) },
		"a here-document": func(m Model) Model {
			m = Update(m, RunMsg{Line: "kubectl apply -f - <<EOF"})
			for _, l := range strings.Split(strings.TrimSuffix(withoutExists, "\n"), "\n") {
				m = Update(m, RunMsg{Line: l})
			}
			return Update(m, RunMsg{Line: "EOF"})
		},
		"the tutorial's file": func(m Model) Model { return Update(m, RunMsg{Line: "kubectl apply -f daemonset.yaml"}) },
	} {
		t.Run(name, func(t *testing.T) {
			m := apply(sandbox(t))
			note, before := notes(m)
			require.NotEmpty(t, note, "an explanation")
			lines := strings.Split(note, "\n")
			require.Len(t, lines, 3)
			assert.Equal(t, "DaemonSet kube-system/fluentd-elasticsearch configured: its Pod template changed:", lines[0])
			assert.True(t, strings.HasPrefix(lines[1], diff), lines[1])
			assert.Contains(t, lines[1], "an unset operator is Equal")
			assert.True(t, strings.HasPrefix(lines[2], rollout), lines[2])
			assert.True(t, strings.HasSuffix(lines[2], budget), lines[2])
			if name != "the editor's Apply" {
				assert.Equal(t, "daemonset.apps/fluentd-elasticsearch configured", before, "kubectl's output is kubectl's")
			} else {
				assert.Equal(t, "daemonset.apps/fluentd-elasticsearch configured\n", m.Result.Out, "kubectl's output is kubectl's")
			}
		})
	}
}

// TestEveryWriteToAWorkloadIsExplained: each kind of change says what it does, by the
// controllers' rules (pkg/controller/daemon: constructHistory, rollingUpdate and OnDelete;
// pkg/controller/deployment: getNewReplicaSet, ResolveFenceposts with the 25%/25% defaults,
// Recreate); a command that changes no workload explains nothing.
func TestEveryWriteToAWorkloadIsExplained(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string // the explanation's lines, each a prefix
	}{
		{"the same manifest again is unchanged", []string{"kubectl apply -f -"}, []string{
			"DaemonSet kube-system/fluentd-elasticsearch unchanged: same Pod template, revision 1 (ControllerRevision fluentd-elasticsearch-",
			"Deployment default/web unchanged: same Pod template, revision 1 (ReplicaSet web-",
		}},
		{"a new image of the Deployment rolls out within maxSurge 1 and maxUnavailable 0 of 2 replicas", []string{"kubectl set image deploy/web nginx=nginx:1.28"}, []string{
			"Deployment default/web configured: its Pod template changed:",
			"  spec.template.spec.containers[0].image: nginx:1.27 → nginx:1.28",
			"revision 2 (ReplicaSet web-",
		}},
		{"under Recreate every old pod goes first", []string{`kubectl patch deploy web -p {"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}`, "kubectl set image deploy/web nginx=nginx:1.28"}, []string{
			"Deployment default/web configured: its Pod template changed:",
			"  spec.template.spec.containers[0].image: nginx:1.27 → nginx:1.28",
			"it rolls out under Recreate: every old pod is deleted before the 2 new ones are created",
		}},
		{"under OnDelete nothing rolls out", []string{`kubectl patch ds fluentd-elasticsearch -n kube-system -p {"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}`, "kubectl set image ds/fluentd-elasticsearch -n kube-system fluentd-elasticsearch=fluentd:v2.6"}, []string{
			"DaemonSet kube-system/fluentd-elasticsearch configured: its Pod template changed:",
			"  spec.template.spec.containers[0].image: docker.io/library/fluentd:v2.5.1 → fluentd:v2.6",
			"revision 2 (ControllerRevision fluentd-elasticsearch-",
		}},
		{"a spec change outside the template replaces no pod", []string{"kubectl scale deploy web --replicas=3"}, []string{
			"Deployment default/web configured: its spec changed but not its Pod template, so revision 1 (ReplicaSet web-",
		}},
		{"a deleted DaemonSet's pods are collected", []string{"kubectl delete ds fluentd-elasticsearch -n kube-system"}, []string{
			"DaemonSet kube-system/fluentd-elasticsearch deleted: the garbage collector deletes its pods",
		}},
		{"a new DaemonSet says where it wants pods", []string{"kubectl delete ds fluentd-elasticsearch -n kube-system", "kubectl apply -f -"}, []string{
			"DaemonSet kube-system/fluentd-elasticsearch created: revision 1 (ControllerRevision fluentd-elasticsearch-",
			"Deployment default/web unchanged",
		}},
		{"a command that changes no workload explains nothing", []string{"kubectl label node hd2 disk=ssd"}, nil},
		{"a pipeline into kubectl is explained", []string{"cat daemonset.yaml | kubectl apply -f -"}, []string{
			"DaemonSet kube-system/fluentd-elasticsearch configured: its Pod template changed:",
			"  spec.template.spec.tolerations[0].operator: Exists → (unset)",
			"revision 2 (ControllerRevision fluentd-elasticsearch-",
		}},
		{"a sim command is the world's, not explained", []string{"sim add-node hd4"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sandbox(t)
			for _, l := range tc.lines {
				if l == "kubectl apply -f -" {
					m = Update(m, ApplyMsg{Text: lessons.Start})
					continue
				}
				m = Update(m, RunMsg{Line: l})
			}
			note, _ := notes(m)
			if tc.want == nil {
				assert.Empty(t, note)
				return
			}
			lines := strings.Split(note, "\n")
			require.Len(t, lines, len(tc.want), note)
			for i, w := range tc.want {
				assert.True(t, strings.HasPrefix(lines[i], w), "line %d: %q, want %q…", i, lines[i], w)
			}
		})
	}
	m := Update(sandbox(t), RunMsg{Line: "kubectl set image deploy/web nginx=nginx:1.28"})
	note, _ := notes(m)
	assert.Contains(t, note, ") is rolling out to 2 replicas under RollingUpdate (maxSurge=1, maxUnavailable=0)")
	m = Update(sandbox(t), RunMsg{Line: `kubectl patch deploy web -p {"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}`})
	m = Update(m, RunMsg{Line: "kubectl set image deploy/web nginx=nginx:1.28"})
	note, _ = notes(m)
	m = Update(sandbox(t), RunMsg{Line: `kubectl patch ds fluentd-elasticsearch -n kube-system -p {"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}`})
	m = Update(m, RunMsg{Line: "kubectl set image ds/fluentd-elasticsearch -n kube-system fluentd-elasticsearch=fluentd:v2.6"})
	note, _ = notes(m)
	assert.Contains(t, note, ") is recorded, but under OnDelete nothing rolls out: each pod you delete comes back from it")
	m = Update(sandbox(t), RunMsg{Line: "kubectl delete ds fluentd-elasticsearch -n kube-system"})
	m = Update(m, ApplyMsg{Text: lessons.Start})
	note, _ = notes(m)
	assert.Contains(t, note, "; it wants a pod on 3 of 3 nodes")
}

// TestTheExplanationIsInTheLearnersLanguage: the page's own words are Chinese on a Chinese
// page; paths, values and kinds stay as Kubernetes writes them.
func TestTheExplanationIsInTheLearnersLanguage(t *testing.T) {
	m := Update(sandbox(t), LangMsg{Lang: Chinese})
	m = Update(m, ApplyMsg{Text: withoutExists})
	note, _ := notes(m)
	assert.Contains(t, note, "DaemonSet kube-system/fluentd-elasticsearch 已配置：其 Pod 模板发生了变化：")
	assert.Contains(t, note, "spec.template.spec.tolerations[0].operator: Exists → （未设置）")
	assert.Contains(t, note, "正以 RollingUpdate 策略滚动更新到 3 个节点（maxUnavailable=1，maxSurge=0）")
}

// TestTheEditorWarnsWhatKubernetesWillDo: each lint says, before Apply, what Kubernetes will do
// with a manifest that applies cleanly, at the line it is about, by the rule the controllers
// and the scheduler use (k8s.io/api Toleration.ToleratesTaint; nodeaffinity.GetRequiredNodeAffinity;
// NodeResourcesFit against a node's allocatable, of the pod as created, its limits defaulting its
// requests; the controllers' ownerReferences; NodePorts against a DaemonSet's surge,
// util.AllowsSurge and schedutil.GetHostPorts); a clean manifest has none, nor has one whose
// pods the API server refuses (pkg/apis/core/validation: ValidatePodCreate). The code editor gets them as warnings beside the apply's errors.
func TestTheEditorWarnsWhatKubernetesWillDo(t *testing.T) {
	deploy := func(ns, selector, spec string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\n  namespace: " + ns + "\nspec:\n  selector:\n    matchLabels:\n      " + selector +
			"\n  template:\n    metadata:\n      labels:\n        " + selector + "\n    spec:\n" + spec + "      containers:\n      - name: c\n        image: nginx\n"
	}
	surging := func(strategy, spec, ports string) string {
		return "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: exporter\nspec:\n  selector:\n    matchLabels:\n      app: exporter\n" + strategy +
			"  template:\n    metadata:\n      labels:\n        app: exporter\n    spec:\n" + spec + "      containers:\n      - name: c\n        image: prom/node-exporter\n        ports:\n" + ports
	}
	gpuPod := func(list string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: train\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources:\n      " + list + ":\n        example.com/gpu: 1\n"
	}
	const surge = "  updateStrategy:\n    rollingUpdate:\n      maxSurge: 1\n      maxUnavailable: 0\n"
	for _, tc := range []struct {
		name, text string
		want       []string // "line N: message", each a prefix
	}{
		{"the start manifest is clean", lessons.Start, nil},
		{"the tutorial's DaemonSet is clean", withoutExists, nil},
		{"seed 003's k8s-master toleration", lessons.K8sMasterDaemonSet, []string{
			"line 16: No node has the taint node-role.kubernetes.io/k8s-master: this toleration matches nothing. Control-plane nodes are tainted node-role.kubernetes.io/control-plane since Kubernetes v1.25, so no pod of this manifest runs on hd1 (node-role.kubernetes.io/control-plane:NoSchedule); tolerate that key instead",
		}},
		{"the master key", strings.Replace(lessons.K8sMasterDaemonSet, "k8s-master", "master", 1), []string{
			"line 16: No node has the taint node-role.kubernetes.io/master: this toleration matches nothing. Control-plane nodes are tainted node-role.kubernetes.io/control-plane",
		}},
		{"a toleration of a taint no node has", deploy("default", "app: x", "      tolerations:\n      - key: dedicated\n        operator: Exists\n"), []string{
			"line 16: No node has a taint this toleration matches (key dedicated): it changes nothing",
		}},
		{"a toleration of a taint a failing node gets is not flagged", deploy("default", "app: x", "      tolerations:\n      - key: node.kubernetes.io/unreachable\n        operator: Exists\n"), nil},
		{"a nodeSelector no node matches", deploy("default", "app: x", "      nodeSelector:\n        disktype: ssd\n"), []string{
			"line 15: None of the 3 nodes matches its nodeSelector or required node affinity",
		}},
		{"requests no node can allocate", strings.Replace(lessons.K8sMasterDaemonSet, "cpu: 100m", "cpu: \"16\"", 1), []string{
			"line 16: No node has the taint node-role.kubernetes.io/k8s-master",
			"line 22: Its requests are more than any of the 3 nodes can allocate (Insufficient cpu): its pods stay Pending",
		}},
		{"an extended resource no node offers, by limit alone", gpuPod("limits"), []string{
			"line 10: Its requests are more than any of the 3 nodes can allocate (Insufficient example.com/gpu): its pods stay Pending",
		}},
		{"a pod the API server refuses has none (an extended resource needs a limit)", gpuPod("requests"), nil},
		{"a selector over another controller's pods", deploy("kube-system", "name: fluentd-elasticsearch", ""), []string{
			"line 7: Its selector also matches pods of DaemonSet/fluentd-elasticsearch: Kubernetes lets selectors overlap",
		}},
		{"a DaemonSet that surges with a host port", surging(surge, "", "        - containerPort: 9100\n          hostPort: 9100\n"), []string{
			"line 11: Its pods take host ports (9100/TCP) and it rolls out with maxSurge: on each node the old pod holds them",
		}},
		{"with hostNetwork every container port is a host port", surging(surge, "      hostNetwork: true\n", "        - containerPort: 9100\n        - containerPort: 53\n          protocol: UDP\n"), []string{
			"line 11: Its pods take host ports (9100/TCP, 53/UDP) and it rolls out with maxSurge",
		}},
		{"a DaemonSet that deletes first may take host ports", surging("", "", "        - containerPort: 9100\n          hostPort: 9100\n"), nil},
		{"a maxSurge of 0% does not surge", surging(strings.Replace(surge, "1\n      maxUnavailable: 0", "0%\n      maxUnavailable: 1", 1), "", "        - containerPort: 9100\n          hostPort: 9100\n"), nil},
		{"a DaemonSet that surges without host ports", surging(surge, "", "        - containerPort: 9100\n"), nil},
		{"text that does not decode has none", "kind: [", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Update(sandbox(t), EditMsg{Text: tc.text})
			v := Render(m)
			require.Len(t, v.Lints, len(tc.want), "%q", v.Lints)
			for i, w := range tc.want {
				assert.True(t, strings.HasPrefix(v.Lints[i], w), "lint %d: %q, want %q…", i, v.Lints[i], w)
			}
			var marks []diagnostic
			require.NoError(t, json.Unmarshal([]byte(v.Diagnostics), &marks))
			assert.Len(t, marks, len(tc.want))
			for _, d := range marks {
				assert.Equal(t, "warning", d.Severity)
			}
		})
	}
	v := Render(Update(Update(sandbox(t), LangMsg{Lang: Chinese}), EditMsg{Text: lessons.K8sMasterDaemonSet}))
	require.Len(t, v.Lints, 1)
	assert.Contains(t, v.Lints[0], "第 16 行：没有节点带有污点 node-role.kubernetes.io/k8s-master")
	v = Render(Update(Update(sandbox(t), LangMsg{Lang: Chinese}), EditMsg{Text: surging(surge, "", "        - containerPort: 9100\n          hostPort: 9100\n")}))
	require.Len(t, v.Lints, 1)
	assert.Contains(t, v.Lints[0], "第 11 行：它的 Pod 占用主机端口（9100/TCP），且以 maxSurge 滚动更新")
}

// TestANodeADaemonSetSkipsShowsAGhostWithTheReason: on a node where daemon.Decide says
// shouldRun=false and the DaemonSet has no pod, the card shows a placeholder with the reason in
// plain words first and upstream's predicate second (NodeShouldRunDaemonPod in
// pkg/controller/daemon/daemon_controller.go); a node with the DaemonSet's pod shows none.
func TestANodeADaemonSetSkipsShowsAGhostWithTheReason(t *testing.T) {
	m := Update(sandbox(t), RunMsg{Line: "kubectl delete ds fluentd-elasticsearch -n kube-system"})
	m = Update(m, RunMsg{Line: "sim advance 10s"})
	m = Update(m, ApplyMsg{Text: lessons.K8sMasterDaemonSet})
	m = Update(m, RunMsg{Line: "sim advance 10s"})
	for _, tc := range []struct {
		lang Lang
		want string
	}{
		{English, "hd1 has the taint node-role.kubernetes.io/control-plane:NoSchedule; fluentd-elasticsearch does not tolerate it, so it creates no pod here; one already running stays until its template changes (a rolling update deletes it and creates none)"},
		{Chinese, "hd1 带有污点 node-role.kubernetes.io/control-plane:NoSchedule；fluentd-elasticsearch 不容忍它，因此不会在此创建 Pod；已在运行的 Pod 会保留，直到其模板变化（滚动更新会删除它，且不再创建）"},
	} {
		v := Render(Update(m, LangMsg{Lang: tc.lang}))
		require.Len(t, v.Nodes, 3)
		assert.Equal(t, []Ghost{{Owner: "DaemonSet/fluentd-elasticsearch", Namespace: "kube-system", Reason: tc.want,
			Predicate: "(NodeShouldRunDaemonPod: shouldRun=false, shouldContinueRunning=true)"}}, v.Nodes[0].Ghosts)
		assert.Empty(t, v.Nodes[1].Ghosts, "hd2 runs the pod")
		assert.Empty(t, v.Nodes[2].Ghosts, "hd3 runs the pod")
	}
	assert.Empty(t, Render(sandbox(t)).Nodes[0].Ghosts, "the start's DaemonSet tolerates hd1's taint")
}

// TestARolloutSaysWhereNoNewPodComes: seed 003's DaemonSet over the start's, whose toleration
// matched hd1's control-plane taint, rolls out a new template; the rolling update deletes hd1's
// old pod as it does every old pod, and manage creates none there, as hd1's taint is no longer
// tolerated (pkg/controller/daemon/update.go rollingUpdate; daemon_controller.go manage).
func TestARolloutSaysWhereNoNewPodComes(t *testing.T) {
	m := Update(sandbox(t), ApplyMsg{Text: lessons.K8sMasterDaemonSet})
	note, _ := notes(m)
	assert.Contains(t, note, "is rolling out to 2 nodes under RollingUpdate (maxUnavailable=1, maxSurge=0)")
	assert.Contains(t, note, "; on hd1, which it does not want (the node's card says why), an old pod is deleted and none is created")
	m = Update(m, RunMsg{Line: "sim advance 1m"})
	assert.NotContains(t, output(t, m, "kubectl get pods -n kube-system -o wide"), " hd1 ", "hd1's old pod is gone, and none came")
}
