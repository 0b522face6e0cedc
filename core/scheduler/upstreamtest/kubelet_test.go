package upstreamtest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/kubelet/lifecycle"
	"k8s.io/kubernetes/pkg/kubelet/preemption"
	schedulerframework "k8s.io/kubernetes/pkg/scheduler/framework"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubelet"
)

// admissionOutcome is what a kubelet decides on a pod bound to its node: the reason and message
// it fails the pod with ("" when it admits it) and the pods it preempts, by namespace/name.
type admissionOutcome struct {
	reason, message string
	preempted       []string
}

func (o admissionOutcome) String() string {
	if o.reason == "" {
		return fmt.Sprintf("admitted, preempting %v", o.preempted)
	}
	return fmt.Sprintf("%s %q", o.reason, o.message)
}

// asKubeletSees varies a case's pending pod in what only the kubelet reads, from a source of
// its own so that the case stays the scheduler test's: a quarter are static pods (critical,
// so short of resources they preempt, and no taint is checked), some carry a kubernetes.io/os
// label or a spec.os.
func asKubeletSees(c *schedulingCase) {
	r := rand.New(rand.NewPCG(c.seed, 0xad317))
	p := c.pod
	if r.IntN(4) == 0 {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations["kubernetes.io/config.source"] = "file"
	}
	if r.IntN(10) == 0 {
		p.Labels[corev1.LabelOSStable] = []string{"linux", "windows"}[r.IntN(2)]
	}
	if r.IntN(20) == 0 {
		p.Spec.OS = &corev1.PodOS{Name: []corev1.OSName{corev1.Linux, corev1.Windows}[r.IntN(2)]}
	}
}

// TestKubeletAdmissionAgreesWithTheKubelet is the differential test of DaemonLab's kubelet
// admission (kubelet.Admission) against kubelet v1.37.2's predicate admit handler with its
// critical pod admission handler (pkg/kubelet/lifecycle/predicate.go Admit,
// pkg/kubelet/preemption/preemption.go HandleAdmissionFailure), run in-process: for every case
// of the scheduler test (see generate, varied by asKubeletSees) and every node, the pending pod
// bound there through spec.nodeName, beside the node's pods that have not ended, must be
// admitted or refused alike, with the same reason and message, and the same pods preempted.
// Cases either API server refuses are the scheduler test's to compare.
func TestKubeletAdmissionAgreesWithTheKubelet(t *testing.T) {
	s := readSettings(t)
	start := time.Now()
	compared, failed, preempting := 0, 0, 0
	reasons := map[string]int{}
	for seed := s.seed; seed < s.seed+uint64(s.cases); seed++ {
		c := generate(seed, s.features)
		asKubeletSees(c)
		up, upErr := store(c)
		cl, _, pending, ourErr := createDaemonLab(c)
		if upErr != nil || ourErr != nil {
			continue
		}
		for _, n := range up.nodes {
			want := admitUpstream(t, up, n)
			got := admitDaemonLab(cl, up, pending, n.Name)
			compared++
			reasons[want.reason]++
			if len(want.preempted) > 0 {
				preempting++
			}
			if want.reason == got.reason && want.message == got.message && slices.Equal(want.preempted, got.preempted) {
				continue
			}
			if failed++; failed <= s.show {
				t.Errorf("seed %d, pending pod on %s (replay: UPSTREAM_SEED=%d UPSTREAM_CASES=1 go test -run Kubelet ./...):\n  kubelet   %s\n  DaemonLab %s\n%s",
					seed, n.Name, seed, want, got, scenario(c))
			}
		}
	}
	var counts []string
	for _, r := range slices.Sorted(maps.Keys(reasons)) {
		name := r
		if name == "" {
			name = "admitted"
		}
		counts = append(counts, fmt.Sprintf("%s %d", name, reasons[r]))
	}
	t.Logf("%d admissions from %d cases in %v: %s; %d admitted by preempting", compared, s.cases, time.Since(start).Round(time.Millisecond), strings.Join(counts, ", "), preempting)
	if failed > 0 {
		t.Errorf("%d of %d admissions disagree", failed, compared)
	}
}

// runningOn are the node's pods that have not ended (the kubelet's GetActivePods), in the order
// DaemonLab lists them, by namespace and name: the order the kubelet's preemption breaks ties
// by (upstream's pod manager gives them in map order).
func runningOn(s *stored, node string) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range s.pods {
		if p.Spec.NodeName == node {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *corev1.Pod) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	return out
}

// admitUpstream runs kubelet v1.37.2's predicate admit handler for the pending pod bound to n,
// the node's running pods its other pods, and records the pods its critical pod admission
// handler kills.
func admitUpstream(t *testing.T, s *stored, n *corev1.Node) admissionOutcome {
	running := runningOn(s, n.Name)
	var out admissionOutcome
	kill := func(p *corev1.Pod, _ bool, _ *int64, _ func(*corev1.PodStatus)) error {
		out.preempted = append(out.preempted, p.Namespace+"/"+p.Name)
		return nil
	}
	critical := preemption.NewCriticalPodAdmissionHandler(func() []*corev1.Pod { return running }, kill, record.NewFakeRecorder(100))
	getNode := func(context.Context, bool) (*corev1.Node, error) { return n.DeepCopy(), nil }
	noPlugins := func(*schedulerframework.NodeInfo, *lifecycle.PodAdmitAttributes) error { return nil }
	pod := s.pod.DeepCopy()
	pod.Spec.NodeName = n.Name
	res := lifecycle.NewPredicateAdmitHandler(getNode, critical, noPlugins).Admit(context.Background(),
		&lifecycle.PodAdmitAttributes{Pod: pod, OtherPods: running, Operation: lifecycle.AddOperation})
	require.Equal(t, res.Admit, res.Reason == "", "an admitted pod has no reason")
	out.reason, out.message = res.Reason, res.Message
	return out
}

// admitDaemonLab asks DaemonLab's kubelet of node the same, with the node's pods as its API
// server stored them.
func admitDaemonLab(cl *cluster.Cluster, s *stored, pending *api.Pod, node string) admissionOutcome {
	var running []*api.Pod
	for _, p := range runningOn(s, node) {
		running = append(running, cl.Get("Pod", cluster.Key{Namespace: p.Namespace, Name: p.Name}).(*api.Pod))
	}
	pod := api.DeepCopy(pending)
	pod.Spec.NodeName = node
	var out admissionOutcome
	var victims []*api.Pod
	out.reason, out.message, victims = kubelet.Admission(cl, pod, cl.Node(node), running)
	for _, v := range victims {
		out.preempted = append(out.preempted, v.Namespace+"/"+v.Name)
	}
	return out
}
