package daemon

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

func newNode(name string, labels map[string]string, taints ...api.Taint) *api.Node {
	n := &api.Node{}
	n.Name = name
	n.Labels = labels
	n.Spec.Taints = taints
	n.Status.Allocatable = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("1Gi"), api.ResourcePods: api.MustParseQuantity("110")}
	return n
}

func newDaemonSet() *api.DaemonSet {
	ds := &api.DaemonSet{}
	ds.Name, ds.Namespace = "foo", "default"
	ds.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"name": "simple-daemon"}}
	ds.Spec.Template.Labels = map[string]string{"name": "simple-daemon"}
	ds.Spec.Template.Spec.Containers = []api.Container{{Name: "foo", Image: "foo/bar"}}
	return ds
}

// TestNodeShouldRunDaemonPod pins the predicates of NodeShouldRunDaemonPod with upstream's
// TestNodeShouldRunDaemonPod table and the taint tests of daemon_controller_test.go, from
// TestNoScheduleTaintedDoesntEvicitRunningIntolerantPod to TestTaintPressureNodeDaemonLaunchesPod.
func TestNodeShouldRunDaemonPod(t *testing.T) {
	cases := []struct {
		name                      string
		node                      *api.Node
		edit                      func(*api.DaemonSet)
		shouldRun, shouldContinue bool
	}{
		{"fits", newNode("n", nil), nil, true, true},
		{"requests more memory than allocatable (resources are ignored)", newNode("n", nil), func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("2Gi")}
		}, true, true},
		{"template names another node", newNode("n", nil), func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeName = "other-node" }, false, false},
		{"template names this node", newNode("n", nil), func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeName = "n" }, true, true},
		{"nodeSelector mismatch", newNode("n", nil), func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeSelector = map[string]string{"a": "b"} }, false, false},
		{"required affinity mismatch", newNode("n", map[string]string{"type": "production"}), requireType("test"), false, false},
		{"required affinity match", newNode("n", map[string]string{"type": "production"}), requireType("production"), true, true},
		{"unschedulable node", func() *api.Node { n := newNode("n", nil); n.Spec.Unschedulable = true; return n }(), nil, true, true},
		{"untolerated NoSchedule keeps the pod", newNode("n", nil, api.Taint{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}), nil, false, true},
		{"untolerated NoExecute evicts", newNode("n", nil, api.Taint{Key: "dedicated", Value: "user1", Effect: "NoExecute"}), nil, false, false},
		{"PreferNoSchedule is ignored", newNode("n", nil, api.Taint{Key: "dedicated", Value: "user1", Effect: "PreferNoSchedule"}), nil, true, true},
		{"tolerated NoSchedule", newNode("n", nil, api.Taint{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}), func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}}
		}, true, true},
		{"not-ready NoExecute is tolerated by default", newNode("n", nil, api.Taint{Key: api.TaintNodeNotReady, Effect: "NoExecute"}), nil, true, true},
		{"unreachable NoExecute is tolerated by default", newNode("n", nil, api.Taint{Key: api.TaintNodeUnreachable, Effect: "NoExecute"}), nil, true, true},
		{"not-ready NoSchedule is not", newNode("n", nil, api.Taint{Key: api.TaintNodeNotReady, Effect: "NoSchedule"}), nil, false, true},
		{"pressure taints are tolerated", newNode("n", nil,
			api.Taint{Key: api.TaintNodeDiskPressure, Effect: "NoSchedule"}, api.Taint{Key: api.TaintNodeMemoryPressure, Effect: "NoSchedule"}, api.Taint{Key: api.TaintNodePIDPressure, Effect: "NoSchedule"}), nil, true, true},
		{"network-unavailable needs hostNetwork", newNode("n", nil, api.Taint{Key: api.TaintNodeNetworkUnavailable, Effect: "NoSchedule"}), nil, false, true},
		{"network-unavailable with hostNetwork", newNode("n", nil, api.Taint{Key: api.TaintNodeNetworkUnavailable, Effect: "NoSchedule"}), func(ds *api.DaemonSet) { ds.Spec.Template.Spec.HostNetwork = true }, true, true},
		{"control plane without toleration", newNode("n", nil, api.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: "NoSchedule"}), nil, false, true},
		{"the old k8s-master key tolerates nothing", newNode("n", nil, api.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: "NoSchedule"}), func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: "node-role.kubernetes.io/k8s-master", Effect: "NoSchedule"}}
		}, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := newDaemonSet()
			if tc.edit != nil {
				tc.edit(ds)
			}
			run, cont := NodeShouldRunDaemonPod(tc.node, ds)
			assert.Equal(t, [2]bool{tc.shouldRun, tc.shouldContinue}, [2]bool{run, cont}, "(shouldRun, shouldContinueRunning)")
		})
	}
}

// TestDecideNamesTheDecidingRule: Decide gives NodeShouldRunDaemonPod's answer with the rule and
// the taint behind it, which the page shows as the reason.
func TestDecideNamesTheDecidingRule(t *testing.T) {
	noExec := api.Taint{Key: "dedicated", Value: "user1", Effect: "NoExecute"}
	noSched := api.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: "NoSchedule"}
	for _, tc := range []struct {
		name string
		node *api.Node
		edit func(*api.DaemonSet)
		want Decision
	}{
		{"fits", newNode("n", nil), nil, Decision{ShouldRun: true, ShouldContinueRunning: true, Rule: RuleTolerated}},
		{"another node", newNode("n", nil), func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeName = "m" }, Decision{Rule: RuleNodeName}},
		{"selector", newNode("n", nil), func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeSelector = map[string]string{"a": "b"} }, Decision{Rule: RuleNodeAffinity}},
		{"NoExecute wins over NoSchedule", newNode("n", nil, noSched, noExec), nil, Decision{Rule: RuleNoExecute, Taint: noExec}},
		{"NoSchedule", newNode("n", nil, noSched), nil, Decision{ShouldContinueRunning: true, Rule: RuleNoSchedule, Taint: noSched}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := newDaemonSet()
			if tc.edit != nil {
				tc.edit(ds)
			}
			assert.Equal(t, tc.want, Decide(tc.node, ds))
		})
	}
}

func requireType(v string) func(*api.DaemonSet) {
	return func(ds *api.DaemonSet) {
		ds.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "type", Operator: "In", Values: []string{v}}}}},
		}}}
	}
}

// TestAddOrUpdateDaemonPodTolerations pins AddOrUpdateDaemonPodTolerations
// (pkg/controller/daemon/util/daemonset_util.go): the order of the defaults, network
// only with hostNetwork, and an equal user toleration replaced (its tolerationSeconds dropped).
func TestAddOrUpdateDaemonPodTolerations(t *testing.T) {
	seconds := int64(300)
	spec := &api.PodSpec{Tolerations: []api.Toleration{
		{Key: "node-role.kubernetes.io/control-plane", Operator: "Exists", Effect: "NoSchedule"},
		{Key: api.TaintNodeNotReady, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &seconds},
	}}
	AddOrUpdateDaemonPodTolerations(spec)
	var got []string
	for _, tol := range spec.Tolerations {
		got = append(got, fmt.Sprintf("%s:%s:%v", tol.Key, tol.Effect, tol.TolerationSeconds != nil))
	}
	assert.Equal(t, []string{
		"node-role.kubernetes.io/control-plane:NoSchedule:false",
		"node.kubernetes.io/not-ready:NoExecute:false",
		"node.kubernetes.io/unreachable:NoExecute:false",
		"node.kubernetes.io/disk-pressure:NoSchedule:false",
		"node.kubernetes.io/memory-pressure:NoSchedule:false",
		"node.kubernetes.io/pid-pressure:NoSchedule:false",
		"node.kubernetes.io/unschedulable:NoSchedule:false",
	}, got)
	hostNet := &api.PodSpec{HostNetwork: true}
	AddOrUpdateDaemonPodTolerations(hostNet)
	assert.Equal(t, api.TaintNodeNetworkUnavailable, hostNet.Tolerations[len(hostNet.Tolerations)-1].Key)
}

// TestReplaceNodeAffinityPinsTheNode pins ReplaceDaemonSetPodNodeNameNodeAffinity
// (pkg/controller/daemon/util/daemonset_util.go): one term with one matchFields
// requirement replaces the required terms; preferred terms stay; GetTargetNodeName reads it back.
func TestReplaceNodeAffinityPinsTheNode(t *testing.T) {
	preferred := []api.PreferredSchedulingTerm{{Weight: 1, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "disk", Operator: "Exists"}}}}}
	ds := newDaemonSet()
	requireType("production")(ds)
	ds.Spec.Template.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = preferred
	a := ReplaceDaemonSetPodNodeNameNodeAffinity(ds.Spec.Template.Spec.Affinity, "node-1")
	req := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	require.Len(t, req.NodeSelectorTerms, 1)
	assert.Empty(t, req.NodeSelectorTerms[0].MatchExpressions)
	assert.Equal(t, []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"node-1"}}}, req.NodeSelectorTerms[0].MatchFields)
	assert.Equal(t, preferred, a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	assert.Equal(t, "type", ds.Spec.Template.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0].Key, "the template is not changed")
	node, err := GetTargetNodeName(&api.Pod{Spec: api.PodSpec{Affinity: a}})
	require.NoError(t, err)
	assert.Equal(t, "node-1", node)
}

// TestNewDaemonPod pins the pod of CreatePodTemplate (pkg/controller/daemon/util/daemonset_util.go)
// and GetPodFromTemplate (pkg/controller/controller_utils.go): the name prefix, the labels, one
// controller reference and the pin, and an empty nodeName.
func TestNewDaemonPod(t *testing.T) {
	c := cluster.New(1)
	require.NoError(t, apiserver.CreateSystemNamespaces(c))
	require.NoError(t, create(c, newNode("node-0", nil)))
	ds := newDaemonSet()
	api.Default(ds)
	require.NoError(t, create(c, ds))
	Sync(c, c.DaemonSets()[0])
	pods := c.Pods()
	require.Len(t, pods, 1)
	p := pods[0]
	assert.Regexp(t, `^foo-[bcdfghjklmnpqrstvwxz2456789]{5}$`, p.Name)
	assert.Empty(t, p.Spec.NodeName)
	assert.Equal(t, "1", p.Labels[api.LabelPodTemplateGeneration])
	assert.Regexp(t, `^[456789bcdf]{8,10}$`, p.Labels[api.LabelControllerRevisionHash])
	require.Len(t, p.OwnerReferences, 1)
	ref := p.OwnerReferences[0]
	assert.Equal(t, [3]string{"apps/v1", "DaemonSet", "foo"}, [3]string{ref.APIVersion, ref.Kind, ref.Name})
	assert.True(t, *ref.Controller && *ref.BlockOwnerDeletion)
	node, err := GetTargetNodeName(p)
	require.NoError(t, err)
	assert.Equal(t, "node-0", node)
	assert.Equal(t, int32(1), c.DaemonSets()[0].Status.DesiredNumberScheduled)
	assert.Equal(t, int32(1), c.DaemonSets()[0].Status.CurrentNumberScheduled)
}

// create creates an object through the API server, as a client does; a deletion the fixture
// gives it is then written to the store as it is, as upstream's fake clientset stores objects
// being deleted (which a client cannot create through the API server).
func create(c *cluster.Cluster, obj api.Object) error {
	m := obj.GetObjectMeta()
	deletion, grace := m.DeletionTimestamp, m.DeletionGracePeriodSeconds
	stored, err := apiserver.Create(c, obj, apiserver.Options{})
	if err != nil || deletion == nil {
		return err
	}
	sm := stored.GetObjectMeta()
	sm.DeletionTimestamp, sm.DeletionGracePeriodSeconds = deletion, grace
	return c.Update(stored)
}
