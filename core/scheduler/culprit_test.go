package scheduler

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

// antiAffine gives p a required anti-affinity term selecting app=value at topologyKey.
func antiAffine(p *api.Pod, value, topologyKey string) *api.Pod {
	p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": value}}, TopologyKey: topologyKey}}}}
	return p
}

// TestCulpritsNameWhatOnTheNodeFailedTheFilter pins what each filter's verdict comes from on
// the node, with the same rules the filters apply:
// pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go: Filter (the first
// untolerated NoSchedule/NoExecute taint), nodeports/node_ports.go: Filter (the port already
// used there), interpodaffinity/filtering.go: satisfyPodAntiAffinity and
// satisfyExistingPodsAntiAffinity (the pods counted in the node's topology domain). A filter
// whose reason names its cause has none.
func TestCulpritsNameWhatOnTheNodeFailedTheFilter(t *testing.T) {
	c := world(t, []string{"n1", "n2", "n3", "n4"}, nil)
	n1 := api.DeepCopy(c.Node("n1"))
	n1.Spec.Taints = []api.Taint{{Key: "soft", Effect: api.TaintEffectPreferNoSchedule}, {Key: "dedicated", Value: "db", Effect: api.TaintEffectNoSchedule}}
	require.NoError(t, c.Update(n1))
	hp := withPorts("hp1", "TCP//8080", "UDP//53")
	hp.Spec.NodeName = "n2"
	require.NoError(t, create(c, hp))
	web := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: map[string]string{"app": "web", "pod-template-hash": "x"}},
		Spec: api.PodSpec{NodeName: "n3", Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	require.NoError(t, create(c, web))
	db := antiAffine(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "db-1", Namespace: "default", Labels: map[string]string{"app": "db"}},
		Spec: api.PodSpec{NodeName: "n4", Containers: []api.Container{{Name: "c", Image: "nginx"}}}}, "web", "kubernetes.io/hostname")
	require.NoError(t, create(c, db))

	incoming := antiAffine(withPorts("new", "TCP//8080"), "web", "kubernetes.io/hostname")
	incoming.Labels = map[string]string{"app": "web"}
	incoming.Spec.SchedulerName = "default-scheduler"
	require.NoError(t, create(c, incoming))
	e := Explain(c, pod(c, "new"))
	require.Equal(t, []string{TaintToleration, NodePorts, InterPodAffinity, InterPodAffinity}, []string{e.Nodes[0].Verdict.Plugin, e.Nodes[1].Verdict.Plugin, e.Nodes[2].Verdict.Plugin, e.Nodes[3].Verdict.Plugin})

	got := Culprits(c, pod(c, "new"), e.Nodes)
	require.Len(t, got["n1"], 1)
	assert.Equal(t, "dedicated=db:NoSchedule", got["n1"][0].Taint.String(), "the NoSchedule taint, not the PreferNoSchedule one")
	require.Len(t, got["n2"], 1)
	assert.Equal(t, "hp1", got["n2"][0].Pod.Name)
	assert.Equal(t, "8080/TCP", got["n2"][0].Port, "the port asked for, not the pod's other ports")
	require.Len(t, got["n3"], 1)
	assert.Equal(t, Culprit{Pod: pod(c, "web-1"), Labels: "app=web"}, got["n3"][0], "the pod's own anti-affinity selects web-1 by app")
	require.Len(t, got["n4"], 1)
	assert.Equal(t, Culprit{Pod: pod(c, "db-1"), Labels: "app=web", Existing: true}, got["n4"][0], "db-1's anti-affinity selects the pod")

	assert.Empty(t, Culprits(c, pod(c, "new"), []NodeResult{{Node: "n1", Verdict: NodeVerdict{Plugin: NodeResourcesFit, Reasons: []string{"Insufficient cpu"}}}}),
		"a reason that names its cause has no culprit")
	assert.Empty(t, Culprits(c, pod(c, "new"), []NodeResult{{Node: "gone", Verdict: NodeVerdict{Plugin: NodePorts}}}), "a node gone is no panic")
}
