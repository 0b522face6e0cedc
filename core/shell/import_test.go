package shell

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

// importNode is a node as a real cluster's dump has it, with server-set fields.
const importNode = `- apiVersion: v1
  kind: Node
  metadata:
    name: n1
    uid: 11111111-1111-4111-8111-111111111111
    resourceVersion: "4242"
    creationTimestamp: "2025-03-01T10:00:00Z"
    selfLink: /api/v1/nodes/n1
    managedFields: [{manager: kubelet, operation: Update}]
    labels: {kubernetes.io/hostname: n1, disktype: ssd}
    annotations: {node.alpha.kubernetes.io/ttl: "0"}
  spec:
    podCIDR: 10.244.7.0/24
    podCIDRs: [10.244.7.0/24]
    taints: [{key: dedicated, value: db, effect: NoSchedule}]
  status:
    capacity: {cpu: "8", memory: 16Gi, pods: "50"}
    allocatable: {cpu: 7500m, memory: 15Gi, pods: "50"}
    addresses: [{type: InternalIP, address: 172.16.0.5}, {type: Hostname, address: n1}]
    conditions: [{type: Ready, status: "False", reason: KubeletNotReady}]
    images: [{names: [busybox], sizeBytes: 1}]
    nodeInfo: {kubeletVersion: v1.30.1, kernelVersion: 5.15.0, osImage: Debian 12, architecture: arm64, operatingSystem: linux}
`

// importSet is a ReplicaSet and its pod, owned as in the dump by the old uids.
const importSet = `- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: web-abc
    namespace: shop
    uid: 22222222-2222-4222-8222-222222222222
    resourceVersion: "7"
    generation: 4
  spec:
    replicas: 1
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: web, image: nginx, resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}]}]
  status: {replicas: 1, readyReplicas: 1}
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-abc-x7k2p
    generateName: web-abc-
    namespace: shop
    uid: 33333333-3333-4333-8333-333333333333
    resourceVersion: "9"
    deletionTimestamp: "2025-03-02T10:00:00Z"
    labels: {app: web}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-abc, uid: 22222222-2222-4222-8222-222222222222, controller: true}]
  spec:
    nodeName: n1
    tolerations: [{key: dedicated, operator: Exists}]
    containers: [{name: web, image: nginx, resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}]}]
  status: {phase: Running, podIP: 10.1.1.1}
`

func list(items ...string) string {
	s := "apiVersion: v1\nkind: List\nitems:\n"
	for _, it := range items {
		s += it
	}
	return s
}

// imported runs sim import of data on a new default cluster and returns the cluster and what it said.
func imported(t *testing.T, data string) (*sim.Sim, Result) {
	t.Helper()
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	return s, Run(s, "sim import -f -", data)
}

// TestImportSetsWhatTheServerSetsAnew: uid, resourceVersion, generation, creationTimestamp,
// managedFields, selfLink, deletionTimestamp and status are a fresh API server's
// (rest/create.go BeforeCreate, the store), the pod's generated name and node stay, and its
// owner reference names the new ReplicaSet.
func TestImportSetsWhatTheServerSetsAnew(t *testing.T) {
	s, r := imported(t, list(importNode, importSet))
	require.Equal(t, 0, r.Code, r.Err)
	rs := s.C.Get("ReplicaSet", cluster.Key{Namespace: "shop", Name: "web-abc"}).(*api.ReplicaSet)
	pod := s.C.Get("Pod", cluster.Key{Namespace: "shop", Name: "web-abc-x7k2p"}).(*api.Pod)
	for _, m := range []*api.ObjectMeta{&rs.ObjectMeta, &pod.ObjectMeta} {
		assert.NotContains(t, []string{"22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"}, m.UID)
		assert.NotContains(t, []string{"7", "9"}, m.ResourceVersion)
		assert.Equal(t, int64(1), m.Generation, "the strategy's first generation")
		assert.Equal(t, s.C.Now(), m.CreationTimestamp.Time)
		assert.Nil(t, m.ManagedFields)
		assert.Nil(t, m.DeletionTimestamp)
	}
	assert.Equal(t, "n1", pod.Spec.NodeName, "bound to its node")
	require.Len(t, pod.OwnerReferences, 1)
	assert.Equal(t, rs.UID, pod.OwnerReferences[0].UID, "owned by the new ReplicaSet")
	assert.Equal(t, int32(1), rs.Status.Replicas, "the controller counts the pod it adopted")
	assert.Len(t, s.C.Pods(), 1, "no pod made in its place")
	assert.NotEqual(t, "10.1.1.1", pod.Status.PodIP, "status is the kubelet's")
}

// TestImportedNodeIsTheMachineWithAHealthyKubelet: the node keeps the file's labels, taints,
// spec, capacity, allocatable, addresses and system info, and reports Ready as DaemonLab's
// v1.37 kubelet, whatever the file's conditions said.
func TestImportedNodeIsTheMachineWithAHealthyKubelet(t *testing.T) {
	s, r := imported(t, list(importNode))
	require.Equal(t, 0, r.Code, r.Err)
	n := s.C.Node("n1")
	require.NotNil(t, n)
	assert.Equal(t, "ssd", n.Labels["disktype"])
	assert.Equal(t, "0", n.Annotations["node.alpha.kubernetes.io/ttl"])
	assert.Equal(t, []api.Taint{{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoSchedule}}, n.Spec.Taints)
	assert.Equal(t, "10.244.7.0/24", n.Spec.PodCIDR)
	cpu := n.Status.Allocatable[api.ResourceCPU]
	assert.Equal(t, "7500m", cpu.String())
	assert.Equal(t, "172.16.0.5", n.Status.Addresses[0].Address)
	assert.Equal(t, "arm64", n.Status.NodeInfo.Architecture)
	assert.Equal(t, "v1.37.2", n.Status.NodeInfo.KubeletVersion, "DaemonLab's kubelet runs it")
	assert.Contains(t, n.Status.Conditions, api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status",
		LastHeartbeatTime: api.NewTime(s.C.Now()), LastTransitionTime: api.NewTime(s.C.Now())})
	assert.Equal(t, []string{"n1"}, s.C.MachineNames(), "hd1, hd2 and hd3 are gone")
	assert.Contains(t, r.Out, "Not Ready in the file, Ready here (their kubelets run): n1; sim fail NODE not-ready (or kubelet-down) makes a node so again.")
}

// TestImportReportsWhatItLeavesOut: every rule of what is left out, in the report's words.
func TestImportReportsWhatItLeavesOut(t *testing.T) {
	cases := []struct {
		name  string
		items []string
		out   []string
		err   string
	}{
		{"kinds DaemonLab does not model, counted by resource", []string{importNode,
			"- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n- {apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: {name: c}}\n- {apiVersion: cert-manager.io/v1, kind: Certificate, metadata: {name: d}}\n"},
			[]string{"Left out: 2 configmaps, 1 ingress.networking.k8s.io, 1 certificate.cert-manager.io (DaemonLab does not model them)."}, ""},
		{"kinds served but not imported", []string{importNode, "- {apiVersion: v1, kind: Event, metadata: {name: e, namespace: default}}\n"},
			[]string{"Left out: 1 event (events are history, not state)."}, ""},
		{"fields, by path and kind, nothing under status", []string{importNode, importSet},
			[]string{"Fields DaemonLab does not model, left out: spec.template.spec.containers[].resizePolicy (1 replicaset), spec.containers[].resizePolicy (1 pod)."}, ""},
		{"namespaces and service accounts the file lacks", []string{importNode, "- {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: team}, spec: {serviceAccountName: robot, nodeName: n1, tolerations: [{operator: Exists}], containers: [{name: c, image: busybox}]}}\n"},
			[]string{"Imported 1 node, 1 pod.", "Created what they need and the file lacks: 1 namespace (team), 1 serviceaccount (team/robot)."}, ""},
		{"an owner not imported is dropped", []string{importNode, "- {apiVersion: v1, kind: Pod, metadata: {name: db-0, namespace: default, ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: 44444444-4444-4444-8444-444444444444}]}, spec: {nodeName: n1, tolerations: [{operator: Exists}], containers: [{name: c, image: busybox}]}}\n"},
			[]string{"Kept without their owner, which is not imported: 1 pod (owner: StatefulSet)."}, ""},
		{"a mirror pod is a plain bound pod", []string{importNode, "- {apiVersion: v1, kind: Pod, metadata: {name: etcd-n1, namespace: kube-system, annotations: {kubernetes.io/config.mirror: abc}, ownerReferences: [{apiVersion: v1, kind: Node, name: n1, uid: 11111111-1111-4111-8111-111111111111}]}, spec: {nodeName: n1, tolerations: [{operator: Exists}], containers: [{name: etcd, image: etcd}]}}\n"},
			[]string{"Mirror pods imported as plain pods bound to their nodes (a dump holds no kubelet's static pod manifests: deleted, they do not come back): kube-system/etcd-n1."}, ""},
		{"what a new cluster has already is its own", []string{importNode, "- {apiVersion: v1, kind: Namespace, metadata: {name: kube-system, uid: 55555555-5555-4555-8555-555555555555}}\n- {apiVersion: v1, kind: ServiceAccount, metadata: {name: default, namespace: kube-system}}\n- {apiVersion: v1, kind: Namespace, metadata: {name: team, labels: {owner: ann}}}\n"},
			[]string{"Imported 1 node, 2 namespaces, 1 serviceaccount."}, ""},
		{"a node without status is no node that was not Ready", []string{"- {apiVersion: v1, kind: Node, metadata: {name: bare}}\n"},
			[]string{"Imported 1 node.\n"}, ""},
		{"finished pods", []string{importNode, "- {apiVersion: v1, kind: Pod, metadata: {name: job-x, namespace: default}, spec: {nodeName: n1, containers: [{name: c, image: busybox}]}, status: {phase: Succeeded}}\n"},
			[]string{"Left out: 1 pod that had finished."}, ""},
		{"refused by admission, with the server's message", []string{importNode, "- {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: default}, spec: {priorityClassName: gold, nodeName: n1, containers: [{name: c, image: busybox}]}}\n"},
			[]string{"Imported 1 node."}, "Refused by the API server:\nError from server (Forbidden): pods \"p\" is forbidden: no PriorityClass with name gold was found"},
		{"refused by validation", []string{importNode, "- {apiVersion: v1, kind: Pod, metadata: {name: Bad_Name, namespace: default}, spec: {nodeName: n1, containers: [{name: c, image: busybox}]}}\n"},
			[]string{"Imported 1 node."}, `The Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"`},
		{"a value of the wrong type", []string{importNode, "- {apiVersion: apps/v1, kind: DaemonSet, metadata: {name: d, namespace: default}, spec: {minReadySeconds: soon}}\n"},
			[]string{"Imported 1 node."}, `Error from server (BadRequest): DaemonSet in version "v1" cannot be handled as a DaemonSet: json: cannot unmarshal string into Go struct field DaemonSetSpec.spec.minReadySeconds of type int32`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, r := imported(t, list(tc.items...))
			for _, want := range tc.out {
				assert.Contains(t, r.Out, want)
			}
			if tc.err == "" {
				assert.Equal(t, 0, r.Code, r.Err)
			} else {
				assert.Equal(t, 1, r.Code)
				assert.Contains(t, r.Err, tc.err)
			}
		})
	}
}

// TestImportOfNothingChangesNothing: a file that is no YAML, holds no object or no node, or
// cannot be read, is an error, and the cluster (and its files) stay as they were.
func TestImportOfNothingChangesNothing(t *testing.T) {
	cases := map[string]struct{ line, stdin, err string }{
		"no node":          {"sim import -f -", list("- {apiVersion: v1, kind: ConfigMap, metadata: {name: x}}\n"), "error: STDIN holds no node"},
		"empty":            {"sim import -f -", "", "error: STDIN holds no object"},
		"empty list":       {"sim import -f -", "apiVersion: v1\nkind: List\nitems: []\n", "error: STDIN holds no object"},
		"not YAML":         {"sim import -f -", "a: [\n", "error: error parsing STDIN"},
		"no kind":          {"sim import -f -", "apiVersion: v1\nitems:\n- {metadata: {name: x}}\n", "Object 'Kind' is missing"},
		"no file":          {"sim import -f nothere.yaml", "", `error: the path "nothere.yaml" does not exist`},
		"no -f":            {"sim import cluster.yaml", "", "error: sim import takes a file"},
		"a URL":            {"sim import -f https://example.com/c.yaml", "", "DaemonLab has no network"},
		"a bad flag":       {"sim import --frobnicate", "", "unknown flag: --frobnicate"},
		"items not a list": {"sim import -f -", "apiVersion: v1\nkind: List\nitems: 3\n", "error"},
		"no node taken":    {"sim import -f -", list("- {apiVersion: v1, kind: Node, metadata: {name: Bad_Node}}\n"), "Refused by the API server:\nThe Node \"Bad_Node\" is invalid: metadata.name: Invalid value: \"Bad_Node\""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := sim.New(1, sim.Default)
			require.NoError(t, err)
			before := s.C.Writes()
			r := Run(s, tc.line, tc.stdin)
			assert.Equal(t, 1, r.Code)
			assert.Contains(t, r.Err, tc.err)
			assert.Equal(t, before, s.C.Writes(), "nothing changed")
			assert.NotNil(t, s.C.Node("hd1"))
		})
	}
}

// TestImportKeepsTheWorkspaceAndTheClock: the files stay, time does not go back, and the seed
// is the session's: the same import gives the same cluster.
func TestImportKeepsTheWorkspaceAndTheClock(t *testing.T) {
	run := func() (*sim.Sim, string) {
		s, err := sim.New(7, sim.Default)
		require.NoError(t, err)
		require.Equal(t, 0, Run(s, "sim advance 1m", "").Code)
		require.Equal(t, 0, Run(s, "cat > c.yaml", list(importNode, importSet)).Code)
		r := Run(s, "sim import -f c.yaml", "")
		require.Equal(t, 0, r.Code, r.Err)
		return s, Run(s, "kubectl get pods -A -o yaml", "").Out
	}
	s, first := run()
	_, again := run()
	assert.Equal(t, first, again, "the same seed and file give the same cluster")
	assert.Equal(t, cluster.Epoch.Add(60e9), s.C.Now())
	data, err := s.C.ReadFile("c.yaml")
	require.NoError(t, err)
	assert.Contains(t, data, "kind: List")
}

// FuzzImport: no input, however malformed, makes sim import panic; one that fails changes
// nothing.
func FuzzImport(f *testing.F) {
	f.Add(list(importNode, importSet))
	f.Add(list("- {apiVersion: v1, kind: Node, metadata: {name: n}, status: {capacity: {cpu: x}}}\n"))
	if data, err := os.ReadFile("../testdata/scenarios/sim-import-makes-a-real-clusters-dump-the-cluster.yaml"); err == nil {
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, data string) {
		s, err := sim.New(1, sim.Empty)
		require.NoError(t, err)
		before := s.C.Writes()
		r := Run(s, "sim import -f -", data)
		if r.Code != 0 && r.Out == "" {
			assert.Equal(t, before, s.C.Writes())
		}
	})
}
