package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/scheduler"
)

// admissionPod is a pod bound through spec.nodeName to n1 whose one container requests cpu and
// memory ("" for none).
func admissionPod(name, cpu, memory string) *api.Pod {
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	p.Name, p.Namespace, p.UID = name, "default", name
	p.Spec.NodeName = "n1"
	req := api.ResourceList{}
	if cpu != "" {
		req[api.ResourceCPU] = api.MustParseQuantity(cpu)
	}
	if memory != "" {
		req[api.ResourceMemory] = api.MustParseQuantity(memory)
	}
	p.Spec.Containers = []api.Container{{Name: "app", Image: "nginx:1.27", Resources: api.ResourceRequirements{Requests: req}}}
	return p
}

func withPort(p *api.Pod, port int32) *api.Pod {
	p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: port, Protocol: "TCP"}}
	return p
}

func withPriority(p *api.Pod, priority int32) *api.Pod {
	p.Spec.Priority = &priority
	return p
}

// guaranteed gives the pod's container limits equal to its requests.
func guaranteed(p *api.Pod) *api.Pod {
	p.Spec.Containers[0].Resources.Limits = p.Spec.Containers[0].Resources.Requests
	return p
}

// TestKubeletAdmissionRefusesWhatTheNodeCannotRun pins the kubelet's admit handlers on a pod
// that reaches its node without the scheduler (pkg/kubelet/lifecycle/predicate.go Admit and
// generalFilter; pkg/scheduler/eventhandlers.go AdmissionCheck; pkg/kubelet/preemption
// HandleAdmissionFailure): the first failure decides, resources before node affinity before
// host ports before NoExecute taints; the reason is OutOf<resource> or the filter's name.
func TestKubeletAdmissionRefusesWhatTheNodeCannotRun(t *testing.T) {
	critical := func(p *api.Pod) *api.Pod { return withPriority(p, 2000001000) }
	for _, tc := range []struct {
		name    string
		node    func(n *api.Node)
		running []*api.Pod
		pod     *api.Pod
		reason  string // "" when admitted
		message string
		victims []string
	}{
		{name: "fits", running: []*api.Pod{admissionPod("a", "3", "")}, pod: admissionPod("new", "1", "")},
		{name: "cpu short, in milli-cpu", running: []*api.Pod{admissionPod("a", "3", ""), admissionPod("b", "800m", "")}, pod: admissionPod("new", "500m", ""),
			reason: "OutOfcpu", message: "Node didn't have enough resource: cpu, requested: 500, used: 3800, capacity: 4000"},
		{name: "memory short, in bytes", running: []*api.Pod{admissionPod("a", "", "7Gi")}, pod: admissionPod("new", "", "2Gi"),
			reason: "OutOfmemory", message: "Node didn't have enough resource: memory, requested: 2147483648, used: 7516192768, capacity: 8589934592"},
		{name: "pods first, then cpu", node: func(n *api.Node) { n.Status.Allocatable[api.ResourcePods] = api.MustParseQuantity("1") },
			running: []*api.Pod{admissionPod("a", "4", "")}, pod: admissionPod("new", "1", ""),
			reason: "OutOfpods", message: "Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1"},
		{name: "resources before host ports", running: []*api.Pod{withPort(admissionPod("a", "4", ""), 8080)}, pod: withPort(admissionPod("new", "1", ""), 8080),
			reason: "OutOfcpu", message: "Node didn't have enough resource: cpu, requested: 1000, used: 4000, capacity: 4000"},
		{name: "host port taken", running: []*api.Pod{withPort(admissionPod("a", "", ""), 8080)}, pod: withPort(admissionPod("new", "", ""), 8080),
			reason: "NodePorts", message: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports"},
		{name: "another host port is free", running: []*api.Pod{withPort(admissionPod("a", "", ""), 8080)}, pod: withPort(admissionPod("new", "", ""), 8081)},
		{name: "nodeSelector the node does not match", pod: func() *api.Pod {
			p := admissionPod("new", "", "")
			p.Spec.NodeSelector = map[string]string{"disk": "ssd"}
			return p
		}(), reason: "NodeAffinity", message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"},
		{name: "a NoSchedule taint is the scheduler's only", node: func(n *api.Node) {
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
		}, pod: admissionPod("new", "", "")},
		{name: "an untolerated NoExecute taint", node: func(n *api.Node) {
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoExecute}}
		}, pod: admissionPod("new", "", ""), reason: "TaintToleration", message: "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate"},
		{name: "a static pod is not checked for taints", node: func(n *api.Node) {
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoExecute}}
		}, pod: func() *api.Pod {
			p := admissionPod("new", "", "")
			p.Annotations = map[string]string{api.AnnotationConfigSource: "file"}
			return p
		}()},
		{name: "the os label, not the nodeSelector", pod: func() *api.Pod {
			p := admissionPod("new", "", "")
			p.Labels = map[string]string{api.LabelOSStable: "windows"}
			return p
		}(), reason: "PodOSSelectorNodeLabelDoesNotMatch", message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"},
		{name: "spec.os", pod: func() *api.Pod {
			p := admissionPod("new", "", "")
			p.Spec.OS = &api.PodOS{Name: "windows"}
			return p
		}(), reason: "PodOSNotSupported", message: "Failed to admit pod as the OS field doesn't match node OS"},
		{name: "an extended resource the node does not know is the scheduler's", pod: func() *api.Pod {
			p := admissionPod("new", "", "")
			p.Spec.Containers[0].Resources.Requests["example.com/gpu"] = api.MustParseQuantity("1")
			return p
		}()},
		{name: "an extended resource the node has too few of", node: func(n *api.Node) {
			n.Status.Allocatable["example.com/gpu"] = api.MustParseQuantity("1")
		}, running: []*api.Pod{func() *api.Pod {
			p := admissionPod("a", "", "")
			p.Spec.Containers[0].Resources.Requests["example.com/gpu"] = api.MustParseQuantity("1")
			return p
		}()}, pod: func() *api.Pod {
			p := admissionPod("new", "", "")
			p.Spec.Containers[0].Resources.Requests["example.com/gpu"] = api.MustParseQuantity("1")
			return p
		}(), reason: "OutOfexample.com/gpu", message: "Node didn't have enough resource: example.com/gpu, requested: 1, used: 1, capacity: 1"},
		{name: "a critical pod short of resources preempts",
			running: []*api.Pod{guaranteed(admissionPod("g", "2", "1Gi")), admissionPod("b", "1500m", ""), admissionPod("small", "500m", "")},
			pod:     critical(admissionPod("new", "1", "")), victims: []string{"b"}},
		{name: "a critical pod is refused for anything else", running: []*api.Pod{withPort(admissionPod("a", "4", ""), 8080)}, pod: critical(withPort(admissionPod("new", "1", ""), 8080)),
			reason: "NodePorts", message: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports"},
		{name: "a critical pod that no set of pods makes room for", running: []*api.Pod{critical(admissionPod("a", "4", ""))}, pod: critical(admissionPod("new", "1", "")),
			reason: "UnexpectedAdmissionError", message: "Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to " +
				"preempt: no set of running pods found to reclaim resources: [(res: cpu, q: 1000), ]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster.New(1)
			n := NewNode("n1", 0, NodeOptions{}, c.Now())
			if tc.node != nil {
				tc.node(n)
			}
			r, refused, victims := admission(c, tc.pod, scheduler.NewNodePods(n, tc.running))
			assert.Equal(t, tc.reason != "", refused)
			assert.Equal(t, rejection{tc.reason, tc.message}, r)
			var names []string
			for _, v := range victims {
				names = append(names, v.Name)
			}
			assert.Equal(t, tc.victims, names)
		})
	}
}

// TestKubeletPreemptsTheFewestPodsOfTheLowestQOSClass pins the kubelet's choice of pods to
// preempt for a critical pod, with the cases of pkg/kubelet/preemption/preemption_test.go
// TestGetPodsToPreempt: BestEffort before Burstable before Guaranteed, the pod nearest to what
// is lacking, the smaller one when it suffices, and a critical pod only for a more critical
// one.
func TestKubeletPreemptsTheFewestPodsOfTheLowestQOSClass(t *testing.T) {
	pods := map[string]*api.Pod{
		"bestEffort":            admissionPod("bestEffort", "", ""),
		"burstable":             admissionPod("burstable", "100m", "100Mi"),
		"highRequestBurstable":  admissionPod("highRequestBurstable", "300m", "300Mi"),
		"guaranteed":            guaranteed(admissionPod("guaranteed", "100m", "100Mi")),
		"highRequestGuaranteed": guaranteed(admissionPod("highRequestGuaranteed", "300m", "300Mi")),
		"clusterCritical":       withPriority(admissionPod("clusterCritical", "100m", "100Mi"), 2000000000),
		"nodeCritical":          withPriority(admissionPod("nodeCritical", "100m", "100Mi"), 2000001000),
	}
	lacking := func(milliCPU, mebibytes, pods int64) requirements {
		var out requirements
		for _, r := range []requirement{{api.ResourceCPU, milliCPU}, {api.ResourceMemory, mebibytes << 20}, {api.ResourcePods, pods}} {
			if r.quantity > 0 {
				out = append(out, r)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		preemptor string
		pods      []string
		lacking   requirements
		want      []string
		short     requirements
	}{
		{name: "no requirements", preemptor: "clusterCritical"},
		{name: "no pods", preemptor: "clusterCritical", lacking: lacking(0, 0, 1), short: lacking(0, 0, 1)},
		{name: "equal pods and requirements", preemptor: "clusterCritical", pods: []string{"burstable"}, lacking: lacking(100, 100, 1), want: []string{"burstable"}},
		{name: "more than the pods request", preemptor: "clusterCritical", pods: []string{"burstable"}, lacking: lacking(200, 200, 2), short: lacking(100, 100, 1)},
		{name: "bestEffort before burstable", preemptor: "clusterCritical", pods: []string{"burstable", "bestEffort"}, lacking: lacking(0, 0, 1), want: []string{"bestEffort"}},
		{name: "burstable before guaranteed", preemptor: "clusterCritical", pods: []string{"burstable", "guaranteed"}, lacking: lacking(0, 0, 1), want: []string{"burstable"}},
		{name: "the smaller burstable when it suffices", preemptor: "clusterCritical", pods: []string{"bestEffort", "highRequestBurstable", "burstable"},
			lacking: lacking(100, 100, 0), want: []string{"burstable"}},
		{name: "the larger burstable when the smaller does not", preemptor: "clusterCritical", pods: []string{"bestEffort", "burstable", "highRequestBurstable"},
			lacking: lacking(150, 150, 0), want: []string{"highRequestBurstable"}},
		{name: "several pods", preemptor: "clusterCritical", pods: []string{"bestEffort", "burstable", "highRequestBurstable", "guaranteed", "highRequestGuaranteed"},
			lacking: lacking(350, 350, 0), want: []string{"burstable", "highRequestBurstable"}},
		{name: "guaranteed when it must, and no extra burstable", preemptor: "clusterCritical", pods: []string{"bestEffort", "burstable", "highRequestBurstable", "guaranteed", "highRequestGuaranteed"},
			lacking: lacking(0, 550, 0), want: []string{"highRequestBurstable", "highRequestGuaranteed"}},
		{name: "cluster-critical for node-critical", preemptor: "nodeCritical", pods: []string{"clusterCritical"}, lacking: lacking(100, 0, 0), want: []string{"clusterCritical"}},
		{name: "never node-critical for cluster-critical", preemptor: "clusterCritical", pods: []string{"nodeCritical"}, lacking: lacking(100, 0, 0), short: lacking(100, 0, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in []*api.Pod
			for _, name := range tc.pods {
				in = append(in, pods[name])
			}
			victims, short := preemptionVictims(pods[tc.preemptor], in, tc.lacking)
			var names []string
			for _, v := range victims {
				names = append(names, v.Name)
			}
			assert.ElementsMatch(t, tc.want, names)
			assert.Equal(t, tc.short, short)
		})
	}
}

// TestRefusedPodFailsWithTheKubeletsStatusAndEvent: the kubelet decides on pods oldest first
// against those it admitted (kubelet.go HandlePodAdditions), and fails a refused one
// AdmissionDelay after it was bound (rejectPod): its status replaced by phase Failed, the
// reason, "Pod was rejected: " and the message, its QoS class and a start time, no condition
// the kubelet owns; a Warning event of the reason.
func TestRefusedPodFailsWithTheKubeletsStatusAndEvent(t *testing.T) {
	c := cluster.New(1)
	require.NoError(t, apiserver.CreateSystemNamespaces(c))
	require.NoError(t, Join(c, NewNode("n1", 0, NodeOptions{}, c.Now()), nil))
	settle(c)
	create := func(name string) {
		p := admissionPod(name, "3", "")
		p.UID = ""
		_, err := apiserver.Create(c, p, apiserver.Options{})
		require.NoError(t, err)
	}
	create("b-older") // the store lists a-younger first; the kubelet takes b-older first
	c.SetNow(c.Now().Add(time.Second))
	create("a-younger")
	settle(c)
	pod := func(name string) *api.Pod {
		return c.Get("Pod", cluster.Key{Namespace: "default", Name: name}).(*api.Pod)
	}
	require.Len(t, pod("b-older").Status.ContainerStatuses, 1, "admitted")
	require.Equal(t, api.PodPending, pod("a-younger").Status.Phase, "refused, not failed yet")
	c.SetNow(c.Now().Add(AdmissionDelay))
	settle(c)
	refused := pod("a-younger")
	start := api.NewTime(c.Now())
	assert.Equal(t, api.PodStatus{Phase: api.PodFailed, Reason: "OutOfcpu", QOSClass: "Burstable", StartTime: &start, ObservedGeneration: refused.Generation,
		Message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 3000, used: 3000, capacity: 4000"}, refused.Status)
	var events []string
	for _, e := range cluster.List[*api.Event](c) {
		if e.InvolvedObject.Name == "a-younger" {
			events = append(events, e.Type+" "+e.Reason+": "+e.Message)
		}
	}
	assert.Equal(t, []string{"Warning OutOfcpu: Node didn't have enough resource: cpu, requested: 3000, used: 3000, capacity: 4000"}, events)
	_, pending := rejecting.Get(c, refused.UID)
	assert.False(t, pending, "the kubelet forgets a pod it failed")
}
