package sim

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/controller/daemon"
	"daemonlab/core/kubelet"
)

func fluentd() *api.DaemonSet {
	ds := &api.DaemonSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"}}
	ds.Name, ds.Namespace = "fluentd", "kube-system"
	ds.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"name": "fluentd"}}
	ds.Spec.Template.Labels = map[string]string{"name": "fluentd"}
	ds.Spec.Template.Spec.Containers = []api.Container{{Name: "fluentd", Image: "fluentd:v2.5.1"}}
	return ds
}

func dump(t *testing.T, s *Sim) string {
	b, err := json.Marshal(struct {
		Nodes []*api.Node
		Pods  []*api.Pod
		DS    []*api.DaemonSet
	}{s.C.Nodes(), s.C.Pods(), s.C.DaemonSets()})
	require.NoError(t, err)
	return string(b)
}

// TestSameSeedSameWorld: the same seed and the same calls give byte-identical clusters (names,
// uids, IPs); another seed gives other names.
func TestSameSeedSameWorld(t *testing.T) {
	run := func(seed uint64) string {
		s, err := New(seed, Default)
		require.NoError(t, err)
		require.NoError(t, create(s.C, fluentd()))
		s.Settle()
		s.Advance(time.Minute)
		return dump(t, s)
	}
	assert.Equal(t, run(7), run(7))
	assert.NotEqual(t, run(7), run(8))
}

// TestARunTakenInPiecesIsAdvance: a Run taken a piece at a time, with the cluster read between
// pieces (as the page renders), ends exactly where Advance ends, events included; its pieces
// are the controllers' passes at every stop, so there are many.
func TestARunTakenInPiecesIsAdvance(t *testing.T) {
	start := func() *Sim {
		s, err := New(1, Default)
		require.NoError(t, err)
		require.NoError(t, create(s.C, fluentd()))
		s.Settle()
		m, ok := s.C.Machine("hd2")
		require.True(t, ok)
		m.KubeletDown, m.DownAt = true, s.C.Now()
		s.C.SetMachine("hd2", m)
		s.Settle()
		return s
	}
	whole, pieces := start(), start()
	whole.Advance(7 * time.Minute)

	r := pieces.Begin(7 * time.Minute)
	n := 0
	for !r.Next() {
		n++
		dump(t, pieces)
		cluster.List[*api.Event](pieces.C)
	}
	assert.Equal(t, dump(t, whole), dump(t, pieces))
	assert.Equal(t, cluster.List[*api.Event](whole.C), cluster.List[*api.Event](pieces.C))
	assert.Equal(t, whole.C.Now(), pieces.C.Now())
	assert.Greater(t, n, 5*len(controllers), "a stop at each due timer, a pass of each controller at each")
}

// TestDefaultCluster pins the built-in cluster of DESIGN.md: hd1 (control plane, tainted), hd2,
// hd3, Ready, 4 CPU / 8Gi / 110 pods, pod CIDRs 10.244.N.0/24, the kubeadm namespaces.
func TestDefaultCluster(t *testing.T) {
	s, err := New(1, Default)
	require.NoError(t, err)
	nodes := s.C.Nodes()
	require.Len(t, nodes, 3)
	for i, n := range nodes {
		assert.Equal(t, []string{"hd1", "hd2", "hd3"}[i], n.Name)
		assert.Equal(t, n.Name, n.Labels["kubernetes.io/hostname"])
		assert.Equal(t, "linux", n.Labels["kubernetes.io/os"])
		assert.Equal(t, []string{"10.244.0.0/24", "10.244.1.0/24", "10.244.2.0/24"}[i], n.Spec.PodCIDR)
		assert.Equal(t, "4", n.Status.Allocatable[api.ResourceCPU].String())
		assert.Equal(t, "8Gi", n.Status.Allocatable[api.ResourceMemory].String())
		assert.Equal(t, "110", n.Status.Allocatable[api.ResourcePods].String())
		assert.Equal(t, "v1.37.2", n.Status.NodeInfo.KubeletVersion)
	}
	assert.Equal(t, []api.Taint{{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintEffectNoSchedule}}, nodes[0].Spec.Taints)
	var names []string
	for _, ns := range cluster.List[*api.Namespace](s.C) {
		names = append(names, ns.Name)
	}
	assert.Equal(t, []string{"default", "kube-node-lease", "kube-public", "kube-system"}, names)
	empty, err := New(1, Empty)
	require.NoError(t, err)
	assert.Empty(t, empty.C.Nodes())
	_, err = New(1, "large")
	assert.EqualError(t, err, `unknown cluster "large": use default, empty or kubeadm`)
}

// TestParseTopologyNamesTheStartingClusters: "" is the default cluster; an unknown name is
// an error listing them all (scenario files and lessons read their cluster: with it).
func TestParseTopologyNamesTheStartingClusters(t *testing.T) {
	cases := []struct{ name, in, want, err string }{
		{name: "nothing is the default cluster", in: "", want: "default"},
		{name: "default", in: "default", want: "default"},
		{name: "empty", in: "empty", want: "empty"},
		{name: "kubeadm", in: "kubeadm", want: "kubeadm"},
		{name: "an unknown one lists the others", in: "big", err: `cluster "big": use default, empty or kubeadm`},
		{name: "names are case-sensitive", in: "Kubeadm", err: `cluster "Kubeadm": use default, empty or kubeadm`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTopology(tc.in)
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, Topology(tc.want), got)
		})
	}
}

// TestKubeadmStartsWhatKubeadmInitRuns pins what `kubeadm init` v1.37.2 leaves in kube-system
// (cmd/kubeadm/app/phases/addons/proxy/manifests.go KubeProxyDaemonSet19,
// addons/dns/manifests.go CoreDNSDeployment, controlplane/manifests.go GetStaticPodSpecs,
// etcd/local.go GetEtcdPodSpec, constants.go's versions) on the default cluster's nodes.
func TestKubeadmStartsWhatKubeadmInitRuns(t *testing.T) {
	s, err := New(1, Kubeadm)
	require.NoError(t, err)
	s.Advance(30 * time.Second)
	key := func(name string) cluster.Key { return cluster.Key{Namespace: "kube-system", Name: name} }
	for _, sa := range []string{"kube-proxy", "coredns"} {
		assert.NotNil(t, s.C.Get("ServiceAccount", key(sa)), sa)
	}
	ds, ok := s.C.Get("DaemonSet", key("kube-proxy")).(*api.DaemonSet)
	require.True(t, ok)
	assert.Equal(t, int32(3), ds.Status.NumberReady)
	pod := ds.Spec.Template.Spec
	assert.Equal(t, "registry.k8s.io/kube-proxy:v1.37.2", pod.Containers[0].Image)
	assert.Equal(t, []string{"/usr/local/bin/kube-proxy", "--config=/var/lib/kube-proxy/config.conf", "--hostname-override=$(NODE_NAME)"}, pod.Containers[0].Command)
	assert.Equal(t, []string{"system-node-critical", "kube-proxy"}, []string{pod.PriorityClassName, pod.ServiceAccountName})
	assert.True(t, pod.HostNetwork)
	assert.Equal(t, []api.Toleration{{Operator: api.TolerationOpExists}}, pod.Tolerations)
	assert.Equal(t, map[string]string{"kubernetes.io/os": "linux"}, pod.NodeSelector)
	dns, ok := s.C.Get("Deployment", key("coredns")).(*api.Deployment)
	require.True(t, ok)
	assert.Equal(t, int32(2), dns.Status.AvailableReplicas)
	ctr := dns.Spec.Template.Spec.Containers[0]
	assert.Equal(t, "registry.k8s.io/coredns/coredns:v1.14.6", ctr.Image)
	assert.Equal(t, "100m 70Mi 170Mi", ctr.Resources.Requests[api.ResourceCPU].String()+" "+ctr.Resources.Requests[api.ResourceMemory].String()+" "+ctr.Resources.Limits[api.ResourceMemory].String())
	assert.Equal(t, "system-cluster-critical", dns.Spec.Template.Spec.PriorityClassName)
	statics := []struct{ name, image, cpu string }{
		{"etcd-hd1", "registry.k8s.io/etcd:3.7.0-0", "100m"},
		{"kube-apiserver-hd1", "registry.k8s.io/kube-apiserver:v1.37.2", "250m"},
		{"kube-controller-manager-hd1", "registry.k8s.io/kube-controller-manager:v1.37.2", "200m"},
		{"kube-scheduler-hd1", "registry.k8s.io/kube-scheduler:v1.37.2", "100m"},
	}
	for _, want := range statics {
		p, ok := s.C.Get("Pod", key(want.name)).(*api.Pod)
		require.True(t, ok, want.name)
		assert.True(t, api.IsMirrorPod(p), want.name)
		assert.Equal(t, "control-plane", p.Labels["tier"], want.name)
		assert.Equal(t, want.image, p.Spec.Containers[0].Image)
		assert.Equal(t, want.cpu, p.Spec.Containers[0].Resources.Requests[api.ResourceCPU].String(), want.name)
		assert.Equal(t, int32(2000001000), *p.Spec.Priority, want.name)
		assert.Equal(t, "hd1", p.Spec.NodeName, want.name)
		assert.Equal(t, "192.168.10.11", p.Status.PodIP, want.name)
		assert.Equal(t, api.PodRunning, p.Status.Phase, want.name)
	}
}

// TestPodsStartThreeSecondsAfterBinding pins DESIGN.md's timing: a pod on a healthy node is
// Running and Ready 3s after it is bound, not earlier.
func TestPodsStartThreeSecondsAfterBinding(t *testing.T) {
	s, err := New(1, Default)
	require.NoError(t, err)
	ds := fluentd()
	ds.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: "node-role.kubernetes.io/control-plane", Operator: "Exists", Effect: "NoSchedule"}}
	require.NoError(t, create(s.C, ds))
	s.Settle()
	pods := s.C.Pods()
	require.Len(t, pods, 3)
	for _, p := range pods {
		assert.NotEmpty(t, p.Spec.NodeName, "bound at once")
		assert.Equal(t, api.PodPending, p.Status.Phase)
	}
	s.Advance(2 * time.Second)
	assert.Equal(t, api.PodPending, s.C.Pods()[0].Status.Phase)
	s.Advance(time.Second)
	for _, p := range s.C.Pods() {
		assert.Equal(t, api.PodRunning, p.Status.Phase)
		assert.Regexp(t, `^10\.244\.[0-2]\.\d+$`, p.Status.PodIP)
	}
	assert.Equal(t, int32(3), s.C.DaemonSets()[0].Status.NumberReady)
}

// TestUnschedulablePodExplainsWhy: a pod that fits nowhere stays Pending with the scheduler's
// FitError message (pkg/scheduler/framework/types.go FitError.Error, v1.35+ wording).
func TestUnschedulablePodExplainsWhy(t *testing.T) {
	s, err := New(1, Default)
	require.NoError(t, err)
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	pod.Name, pod.Namespace = "big", "default"
	pod.Spec.Containers = []api.Container{{Name: "c", Image: "nginx", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("9Gi")}}}}
	require.NoError(t, create(s.C, pod))
	s.Settle()
	got := s.C.Pods()[0]
	assert.Empty(t, got.Spec.NodeName)
	var msg string
	for _, c := range got.Status.Conditions {
		if c.Type == api.PodScheduled {
			msg = c.Message
		}
	}
	assert.Equal(t, "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient memory. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.", msg)
}

// TestDaemonPodPendingForResourcesNamesNodeAffinity pins what the scheduler says of a DaemonSet
// pod: one that does not fit its node is Pending, the other nodes "didn't satisfy plugin(s)
// [NodeAffinity]" (pkg/scheduler/schedule_one.go findNodesThatFitPod, v1.32+).
func TestDaemonPodPendingForResourcesNamesNodeAffinity(t *testing.T) {
	s, err := New(1, Default)
	require.NoError(t, err)
	filler := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	filler.Name, filler.Namespace = "filler", "default"
	filler.Spec.NodeName = "hd2"
	filler.Spec.Containers = []api.Container{{Name: "c", Image: "nginx", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("7Gi")}}}}
	require.NoError(t, create(s.C, filler))
	ds := fluentd()
	ds.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("2Gi")}
	require.NoError(t, create(s.C, ds))
	s.Settle()
	for _, p := range s.C.Pods() {
		node, _ := daemon.GetTargetNodeName(p)
		if node != "hd2" || p.Name == "filler" {
			continue
		}
		assert.Empty(t, p.Spec.NodeName)
		assert.Equal(t, "0/3 nodes are available: 1 Insufficient memory, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.", p.Status.Conditions[0].Message)
	}
}

// TestControllersRecordEvents: the DaemonSet controller and the scheduler report what they did,
// with kubectl's reasons and messages, and a repeated event is counted, not duplicated.
func TestControllersRecordEvents(t *testing.T) {
	s, err := New(1, Default)
	require.NoError(t, err)
	require.NoError(t, create(s.C, fluentd()))
	s.Settle()
	var got []string
	for _, e := range cluster.List[*api.Event](s.C) {
		got = append(got, e.InvolvedObject.Kind+" "+e.Type+" "+e.Reason+" "+e.ReportingComponent)
		assert.Contains(t, []int32{0, 1}, e.Count, "seen once (the scheduler's events.k8s.io/v1 events have no count)")
		assert.Nil(t, e.Series)
	}
	assert.ElementsMatch(t, []string{
		"DaemonSet Normal SuccessfulCreate daemonset-controller", "DaemonSet Normal SuccessfulCreate daemonset-controller",
		"Pod Normal Scheduled default-scheduler", "Pod Normal Scheduled default-scheduler",
	}, got, "two workers get pods; hd1's taint is not tolerated")
	s.Advance(kubelet.StartupDelay)
	assert.Len(t, cluster.List[*api.Event](s.C), 4+2*3, "each kubelet reports Pulled, Created and Started")
	s.Advance(cluster.EventTTL)
	assert.Empty(t, cluster.List[*api.Event](s.C), "events expire an hour after they last happened")

	s.C.Record(s.C.Nodes()[0], cluster.EventNormal, "NodeReady", "Node hd1 status is now: NodeReady", "node-controller", "")
	s.C.Record(s.C.Nodes()[0], cluster.EventNormal, "NodeReady", "Node hd1 status is now: NodeReady", "node-controller", "")
	events := cluster.List[*api.Event](s.C)
	require.Len(t, events, 1)
	assert.Equal(t, int32(2), events[0].Count)
	assert.Equal(t, "default", events[0].Namespace, "events about cluster-scoped objects live in default")
}

// TestAQuietControllerSkipsPassesUntilWhatItReadsChanges: a controller whose pass changed
// nothing is not run again while nothing it reads changed at the same instant (labelling a
// node leaves the Deployment controller alone); a pod written, or the clock moved, runs it again.
// (CheckSkips, on in the tests, runs every skipped pass to prove it would change nothing.)
func TestAQuietControllerSkipsPassesUntilWhatItReadsChanges(t *testing.T) {
	s, err := New(1, Default)
	require.NoError(t, err)
	i := slices.IndexFunc(controllers, func(c controller) bool { return c.name == "deployment-controller" })
	require.True(t, s.quiet[i].ok, "a settled cluster's Deployment controller changed nothing")
	began := s.quiet[i].stamp

	node := api.DeepCopy(s.C.Node("hd2"))
	node.Labels["disk"] = "ssd"
	require.NoError(t, s.C.Update(node))
	s.Settle()
	assert.Equal(t, began, s.quiet[i].stamp, "skipped: a node is nothing it reads")

	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	pod.Name, pod.Namespace = "lone", "default"
	pod.Spec.Containers = []api.Container{{Name: "c", Image: "busybox"}}
	require.NoError(t, create(s.C, pod))
	s.Settle()
	assert.Greater(t, s.quiet[i].stamp, began, "run again: it reads pods")

	s.Advance(time.Second)
	assert.Equal(t, s.C.Now(), s.quiet[i].now, "run again: the clock moved")
}

// create creates an object through the API server, as a client does.
func create(c *cluster.Cluster, obj api.Object) error {
	_, err := apiserver.Create(c, obj, apiserver.Options{})
	return err
}

// TestASkippedPassChangesNothing: a pass a controller skips would have changed nothing, the
// random source included (checkSkip runs it to prove so). A pod no node has room for is
// retried by every scheduler pass that runs; kube-scheduler's preemption dry run draws a random
// start node (DefaultPreemption's GetOffsetAndNumCandidates), and drawing it for an attempt
// that preempts nothing made the scheduler's quiet pass move the random source: 500 replicas
// on the default cluster (about 250 left Pending, "Too many pods") panicked checkSkip. Pods
// asking for more than a worker has left, or more than any node has, are the same rule.
func TestASkippedPassChangesNothing(t *testing.T) {
	tests := []struct {
		name     string
		replicas int32
		cpu      string // each pod's request, "" for none
		reason   string // what the pending pods' message says
	}{
		{"more pods than the workers hold", 500, "", "2 Too many pods. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."},
		{"more CPU than a worker has left", 10, "1", "2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."},
		{"more CPU than any node has", 250, "64", "2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."},
	}
	scheduler := slices.IndexFunc(controllers, func(c controller) bool { return c.name == "default-scheduler" })
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(1, Default)
			require.NoError(t, err)
			d := &api.Deployment{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}}
			d.Name, d.Namespace, d.Spec.Replicas = "web", "default", &tc.replicas
			d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
			d.Spec.Template.Labels = map[string]string{"app": "web"}
			d.Spec.Template.Spec.Containers = []api.Container{{Name: "c", Image: "nginx:1.27"}}
			if tc.cpu != "" {
				d.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: api.MustParseQuantity(tc.cpu)}
			}
			require.NoError(t, create(s.C, d))
			require.NotPanics(t, func() { s.Settle(); s.Advance(time.Second) })

			pending := 0
			for _, p := range s.C.Pods() {
				if p.Spec.NodeName == "" {
					pending++
					require.NotEmpty(t, p.Status.Conditions, p.Name)
					assert.Contains(t, p.Status.Conditions[0].Message, tc.reason, p.Name)
				}
			}
			require.Positive(t, pending, "some pods find no room")
			require.True(t, s.quiet[scheduler].ok, "the scheduler's last pass changed nothing: the next is skipped")
			before := s.C.Writes()
			assert.NotPanics(t, func() { checkPass(s.C, controllers[scheduler], wrongSkip) })
			assert.Equal(t, before, s.C.Writes(), "running the skipped pass changes nothing")
		})
	}
}
