package scheduler

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// withPorts is a pod with one container whose ports are given as upstream's tests give them,
// "PROTOCOL/HOSTIP/HOSTPORT" (either of the first two may be empty).
func withPorts(name string, ports ...string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	for _, s := range ports {
		f := strings.Split(s, "/")
		n, _ := strconv.Atoi(f[2])
		p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports, api.ContainerPort{Protocol: f[0], HostIP: f[1], HostPort: int32(n), ContainerPort: 8080})
	}
	return p
}

// TestHostPortConflictsAsHostPortInfo pins when a host port is taken (kube-scheduler
// framework/types_test.go: TestHostPortInfo_Check, HostPortInfo.CheckConflict): the same
// protocol and number on the same IP, or with 0.0.0.0 on either side; an empty IP is 0.0.0.0
// and an empty protocol TCP.
func TestHostPortConflictsAsHostPortInfo(t *testing.T) {
	tests := []struct {
		name  string
		used  []string
		want  string
		taken bool
	}{
		{"an empty IP and protocol are 0.0.0.0 and TCP", []string{"TCP/127.0.0.1/80"}, "//81", false},
		{"an empty IP and protocol are 0.0.0.0 and TCP (taken)", []string{"TCP/127.0.0.1/80"}, "//80", true},
		{"port 0 is no host port", []string{"TCP/127.0.0.1/80"}, "//0", false},
		{"0.0.0.0 checks every IP", []string{"TCP/127.0.0.1/80"}, "TCP/0.0.0.0/80", true},
		{"0.0.0.0 with another protocol", []string{"UDP/127.0.0.1/80"}, "TCP/0.0.0.0/80", false},
		{"0.0.0.0 with other ports", []string{"TCP/127.0.0.1/79", "TCP/127.0.0.1/81", "TCP/127.0.0.1/82"}, "TCP/0.0.0.0/80", false},
		{"an IP checks 0.0.0.0", []string{"TCP/0.0.0.0/80"}, "TCP/127.0.0.1/80", true},
		{"an IP with other ports and protocols on 0.0.0.0", []string{"TCP/0.0.0.0/79", "UDP/0.0.0.0/80", "TCP/0.0.0.0/81", "TCP/0.0.0.0/82"}, "TCP/127.0.0.1/80", false},
		{"an IP with other ports and protocols on it", []string{"TCP/127.0.0.1/79", "UDP/127.0.0.1/80", "TCP/127.0.0.1/81", "TCP/127.0.0.1/82"}, "TCP/127.0.0.1/80", false},
		{"another IP", []string{"TCP/127.0.0.2/8080"}, "TCP/127.0.0.1/8080", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			used := addPorts(nil, hostPortsOf(withPorts("used", tt.used...)))
			taken := false
			for _, want := range hostPortsOf(withPorts("p", tt.want)) {
				taken = taken || want.conflicts(used)
			}
			assert.Equal(t, tt.taken, taken)
		})
	}
}

// TestHostPortsAreASetAsHostPortInfo pins how a node counts its used ports
// (framework/types_test.go: TestHostPortInfo_AddRemove): each (IP, protocol, port) once, an
// empty IP and protocol as 0.0.0.0 and TCP, port 0 or below not at all; releasing a port takes
// it out whichever pod gave it.
func TestHostPortsAreASetAsHostPortInfo(t *testing.T) {
	all := []string{"TCP/127.0.0.1/79", "UDP/127.0.0.1/80", "TCP/127.0.0.1/81", "TCP/127.0.0.1/82", "TCP/0.0.0.0/79", "UDP/0.0.0.0/80", "TCP/0.0.0.0/81", "TCP/0.0.0.0/82"}
	tests := []struct {
		name           string
		added, removed []string
		want           int
	}{
		{"add", append(all, "TCP/0.0.0.0/0", "TCP/0.0.0.0/-1"), nil, 8},
		{"add with empty IPs and protocols", []string{"/127.0.0.1/79", "UDP/127.0.0.1/80", "/127.0.0.1/81", "/127.0.0.1/82", "//79", "UDP//80", "//81", "//82", "//0", "//-1"}, nil, 8},
		{"add the same port twice", []string{"TCP/0.0.0.0/80", "//80"}, nil, 1},
		{"remove", all, all, 0},
		{"remove with empty IPs and protocols", all, []string{"/127.0.0.1/79", "/127.0.0.1/81", "/127.0.0.1/82", "UDP/127.0.0.1/80", "//79", "//81", "//82", "UDP//80"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var used []hostPort
			for _, s := range tt.added {
				used = addPorts(used, hostPortsOf(withPorts("a", s)))
			}
			before := slices.Clone(used)
			after := removePorts(used, hostPortsOf(withPorts("r", tt.removed...)))
			assert.Len(t, after, tt.want)
			assert.Equal(t, before, used, "releasing ports leaves the node it copied from as it was")
		})
	}
}

// TestNodePortsFilter pins NodePorts' PreFilter and Filter
// (pkg/scheduler/framework/plugins/nodeports/node_ports_test.go: TestNodePorts): a pod without
// host ports skips it, a taken port fails the node as Unschedulable with upstream's reason, and
// only sidecar init containers' ports count.
func TestNodePortsFilter(t *testing.T) {
	sidecar := func(always bool) *api.Pod {
		p := withPorts("p")
		init := api.Container{Name: "init", Image: "busybox", Ports: []api.ContainerPort{{ContainerPort: 8001, HostPort: 8001, Protocol: "TCP"}}}
		if always {
			init.RestartPolicy = new(api.RestartPolicyAlways)
		}
		p.Spec.InitContainers = []api.Container{init}
		return p
	}
	tests := []struct {
		name     string
		pod      *api.Pod
		existing *api.Pod
		skip     bool
		taken    bool
	}{
		{"no host ports skips the filter", withPorts("p"), withPorts("e"), true, false},
		{"another port", withPorts("p", "UDP/127.0.0.1/8080"), withPorts("e", "UDP/127.0.0.1/9090"), false, false},
		{"the same UDP port", withPorts("p", "UDP/127.0.0.1/8080"), withPorts("e", "UDP/127.0.0.1/8080"), false, true},
		{"the same TCP port", withPorts("p", "TCP/127.0.0.1/8080"), withPorts("e", "TCP/127.0.0.1/8080"), false, true},
		{"another host IP", withPorts("p", "TCP/127.0.0.1/8080"), withPorts("e", "TCP/127.0.0.2/8080"), false, false},
		{"another protocol", withPorts("p", "UDP/127.0.0.1/8080"), withPorts("e", "TCP/127.0.0.1/8080"), false, false},
		{"the second port taken", withPorts("p", "UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"), withPorts("e", "UDP/127.0.0.1/8080"), false, true},
		{"the first port taken", withPorts("p", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"), withPorts("e", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"), false, true},
		{"0.0.0.0 takes an IP's port", withPorts("p", "TCP/0.0.0.0/8001"), withPorts("e", "TCP/127.0.0.1/8001"), false, true},
		{"one of two ports wants 0.0.0.0", withPorts("p", "TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"), withPorts("e", "TCP/127.0.0.1/8001"), false, true},
		{"an IP's port taken by 0.0.0.0", withPorts("p", "TCP/127.0.0.1/8001"), withPorts("e", "TCP/0.0.0.0/8001"), false, true},
		{"0.0.0.0 of another protocol", withPorts("p", "UDP/127.0.0.1/8001"), withPorts("e", "TCP/0.0.0.0/8001"), false, false},
		{"0.0.0.0 of the same protocol among others", withPorts("p", "UDP/127.0.0.1/8001"), withPorts("e", "TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"), false, true},
		{"an init container's port is not held", sidecar(false), withPorts("e", "TCP/0.0.0.0/8001"), true, false},
		{"a sidecar's port is held", sidecar(true), withPorts("e", "TCP/0.0.0.0/8001"), false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ni := newNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}})
			ni.addPod(tt.existing)
			st := &cycleState{pod: tt.pod, ports: hostPortsOf(tt.pod)}
			assert.Equal(t, tt.skip, st.ports == nil, "PreFilter skips")
			want := verdict{code: fits}
			if tt.taken {
				want = verdict{code: unschedulable, reasons: []string{"node(s) didn't have free ports for the requested pod ports"}}
			}
			assert.Equal(t, want, nodePorts{}.filter(st, ni))
		})
	}
}

// hostPortWorld is a cluster of nodes each running a pod named after its node ("on-n1", …) that
// takes TCP host port 80, and the pending pod p, which wants it too; class is p's priority
// class.
func hostPortWorld(t *testing.T, nodes []string, class string) (*cluster.Cluster, *api.Pod) {
	c := world(t, nodes, nil)
	for _, n := range nodes {
		holder := withPorts("on-"+n, "TCP//80")
		holder.Spec.NodeName = n
		require.NoError(t, create(c, holder))
	}
	p := withPorts("p", "TCP//80")
	p.Spec.PriorityClassName = class
	require.NoError(t, create(c, p))
	return c, pod(c, "p")
}

// TestNodePortsFailedSchedulingMessage pins what a learner reads when every node's port is
// taken (nodeports Filter's ErrReason; schedule_one.go FitError; the NodePorts filter between
// NodeAffinity and NodeResourcesFit in default_plugins.go): the reason counted over the nodes,
// and, its status being Unschedulable, preemption trying the nodes: a pod of the same priority is
// no victim, a lower one is.
func TestNodePortsFailedSchedulingMessage(t *testing.T) {
	c, p := hostPortWorld(t, []string{"n1", "n2", "n3"}, "")
	e := Explain(c, p)
	assert.Equal(t, "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports.", e.Message)
	assert.Equal(t, NodePorts, e.Nodes[0].Verdict.Plugin)
	d := Schedule(c, p)
	assert.Equal(t, "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", d.Message)

	c, p = hostPortWorld(t, []string{"n1"}, "system-cluster-critical")
	d = Schedule(c, p)
	assert.Equal(t, "n1", d.preemption.node)
	assert.Equal(t, []string{"on-n1"}, names(d.preemption.victims), "preempting the holder frees the port")
}

// TestNodePortsRunsBetweenNodeAffinityAndNodeResourcesFit pins the filter's place in the default
// profile (pkg/scheduler/apis/config/v1/default_plugins.go): a node that fails both an earlier
// filter and NodePorts is reported by the earlier one, a node that fails both NodePorts and
// NodeResourcesFit by NodePorts.
func TestNodePortsRunsBetweenNodeAffinityAndNodeResourcesFit(t *testing.T) {
	c, _ := hostPortWorld(t, []string{"n1", "n2"}, "")
	n1 := api.DeepCopy(c.Node("n1"))
	n1.Spec.Taints = []api.Taint{{Key: "gpu", Effect: api.TaintEffectNoSchedule}}
	require.NoError(t, c.Update(n1))
	big := withPorts("big", "TCP//80")
	big.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("5Gi")}
	require.NoError(t, create(c, big))

	e := Explain(c, pod(c, "big"))
	assert.Equal(t, TaintToleration, e.Nodes[0].Verdict.Plugin)
	assert.Equal(t, NodeVerdict{Plugin: NodePorts, Reasons: []string{"node(s) didn't have free ports for the requested pod ports"}}, e.Nodes[1].Verdict)
}
