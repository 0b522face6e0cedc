package kubectl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"daemonlab/core/api"
)

// Container statuses, as upstream's printer tests write them.
var (
	statusNow   = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	runningC    = api.ContainerState{Running: &api.ContainerStateRunning{}}
	waitingC    = api.ContainerState{Waiting: &api.ContainerStateWaiting{}}
	always      = api.RestartPolicyAlways
	sidecarSpec = func(name string) api.Container { return api.Container{Name: name, RestartPolicy: &always} }
)

func waitingFor(reason string) api.ContainerState {
	return api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason}}
}

func exited(reason string, code int32) api.ContainerState {
	return api.ContainerState{Terminated: &api.ContainerStateTerminated{Reason: reason, ExitCode: code}}
}

// exitedAgo is a last state: the container exited this long before statusNow.
func exitedAgo(d time.Duration) api.ContainerState {
	return api.ContainerState{Terminated: &api.ContainerStateTerminated{FinishedAt: api.NewTime(statusNow.Add(-d))}}
}

func condition(typ api.PodConditionType, status api.ConditionStatus, reason string) api.PodCondition {
	return api.PodCondition{Type: typ, Status: status, Reason: reason}
}

// TestPodStatusColumnsArePrintPods pins READY, STATUS and RESTARTS with the cases of upstream's
// TestPrintPod and TestPrintPodWithRestartableInitContainer
// (pkg/printers/internalversion/printers_test.go), numbered as there.
func TestPodStatusColumnsArePrintPods(t *testing.T) {
	deleted := api.NewTime(statusNow.Add(-10 * time.Second))
	two, one, three := make([]api.Container, 2), make([]api.Container, 1), make([]api.Container, 3)
	day := 24 * time.Hour
	for _, tc := range []struct {
		name string
		pod  api.Pod
		want PodSummary
	}{
		{"test1 name, containers, restarts, readiness", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: "podPhase", ContainerStatuses: []api.ContainerStatus{
			{Ready: true, RestartCount: 3, State: runningC}, {RestartCount: 3}}}}, PodSummary{"1/2", "podPhase", "6"}},
		{"test2 a waiting reason overrides the phase", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: "podPhase", ContainerStatuses: []api.ContainerStatus{
			{Ready: true, RestartCount: 3, State: runningC}, {State: waitingFor("ContainerWaitingReason"), RestartCount: 3}}}}, PodSummary{"1/2", "ContainerWaitingReason", "6"}},
		{"test3 the first container's reason wins", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: "podPhase", ContainerStatuses: []api.ContainerStatus{
			{State: waitingFor("ContainerWaitingReason"), RestartCount: 3}, {State: exited("ContainerTerminatedReason", 0), RestartCount: 3}}}}, PodSummary{"0/2", "ContainerWaitingReason", "6"}},
		{"test4 ready is not enough for running", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: "podPhase", ContainerStatuses: []api.ContainerStatus{
			{Ready: true, RestartCount: 3, State: runningC}, {Ready: true, RestartCount: 3}}}}, PodSummary{"1/2", "podPhase", "6"}},
		{"test5 the pod's reason over its phase", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Reason: "podReason", Phase: "podPhase", ContainerStatuses: []api.ContainerStatus{
			{Ready: true, RestartCount: 3, State: runningC}, {Ready: true, RestartCount: 3}}}}, PodSummary{"1/2", "podReason", "6"}},
		{"test6 completed and running without Ready is NotReady", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: "Running", ContainerStatuses: []api.ContainerStatus{
			{Ready: true, RestartCount: 3, State: exited("Completed", 0)}, {Ready: true, RestartCount: 3, State: runningC}}}}, PodSummary{"1/2", "NotReady", "6"}},
		{"test6 completed and running with Ready is Running", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: "Running", ContainerStatuses: []api.ContainerStatus{
			{Ready: true, RestartCount: 3, State: exited("Completed", 0)}, {Ready: true, RestartCount: 3, State: runningC}},
			Conditions: []api.PodCondition{condition(api.PodReady, api.ConditionTrue, "")}}}, PodSummary{"1/2", "Running", "6"}},
		{"test7 an init container restarting", api.Pod{Spec: api.PodSpec{InitContainers: one, Containers: one}, Status: api.PodStatus{Phase: "podPhase",
			InitContainerStatuses: []api.ContainerStatus{{RestartCount: 3, State: runningC, LastState: exitedAgo(10 * time.Second)}},
			ContainerStatuses:     []api.ContainerStatus{{State: waitingC}}}}, PodSummary{"0/1", "Init:0/1", "3 (10s ago)"}},
		{"test8 two init containers, the first restarting", api.Pod{Spec: api.PodSpec{InitContainers: two, Containers: one}, Status: api.PodStatus{Phase: "podPhase",
			InitContainerStatuses: []api.ContainerStatus{{RestartCount: 3, State: runningC, LastState: exitedAgo(10 * time.Second)}, {State: waitingC}},
			ContainerStatuses:     []api.ContainerStatus{{State: waitingC}}}}, PodSummary{"0/1", "Init:0/2", "3 (10s ago)"}},
		{"test9 the first init container done", api.Pod{Spec: api.PodSpec{InitContainers: two, Containers: one}, Status: api.PodStatus{Phase: "podPhase",
			InitContainerStatuses: []api.ContainerStatus{{State: exited("", 0)}, {RestartCount: 3, State: runningC, LastState: exitedAgo(10 * time.Second)}},
			ContainerStatuses:     []api.ContainerStatus{{State: waitingC}}}}, PodSummary{"0/1", "Init:1/2", "3 (10s ago)"}},
		{"test10 init restarts add up", api.Pod{Spec: api.PodSpec{InitContainers: two, Containers: one}, Status: api.PodStatus{Phase: "podPhase",
			InitContainerStatuses: []api.ContainerStatus{{RestartCount: 2, State: exited("", 0), LastState: exitedAgo(2 * time.Minute)}, {RestartCount: 3, State: runningC, LastState: exitedAgo(10 * time.Second)}},
			ContainerStatuses:     []api.ContainerStatus{{State: waitingC}}}}, PodSummary{"0/1", "Init:1/2", "5 (10s ago)"}},
		{"test11 initialized: only the containers' restarts", api.Pod{Spec: api.PodSpec{InitContainers: one, Containers: one}, Status: api.PodStatus{Phase: "Running",
			InitContainerStatuses: []api.ContainerStatus{{RestartCount: 2, State: exited("", 0), LastState: exitedAgo(2 * time.Minute)}},
			ContainerStatuses:     []api.ContainerStatus{{RestartCount: 4, State: runningC, LastState: exitedAgo(20 * time.Second)}}}}, PodSummary{"0/1", "Running", "4 (20s ago)"}},
		{"test12 restarted 5d ago", api.Pod{Spec: api.PodSpec{Containers: one}, Status: api.PodStatus{Phase: "Running", ContainerStatuses: []api.ContainerStatus{
			{Ready: true, RestartCount: 3, State: runningC, LastState: exitedAgo(5 * day)}}}}, PodSummary{"1/1", "Running", "3 (5d ago)"}},
		{"test13 one never restarted, one 10d ago", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: "Running", ContainerStatuses: []api.ContainerStatus{
			{Ready: true, State: runningC}, {Ready: true, RestartCount: 3, State: runningC, LastState: exitedAgo(10 * day)}}}}, PodSummary{"2/2", "Running", "3 (10d ago)"}},
		{"test14 the latest exit counts", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: "Running", ContainerStatuses: []api.ContainerStatus{
			{Ready: true, RestartCount: 6, State: runningC, LastState: exitedAgo(5 * day)}, {Ready: true, RestartCount: 3, State: runningC, LastState: exitedAgo(20 * day)}}}}, PodSummary{"2/2", "Running", "9 (5d ago)"}},
		{"test15 SchedulingGated", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: "podPhase",
			Conditions: []api.PodCondition{condition(api.PodScheduled, api.ConditionFalse, "SchedulingGated")}}}, PodSummary{"0/2", "SchedulingGated", "0"}},
		{"test16 succeeded", api.Pod{Spec: api.PodSpec{Containers: one}, Status: api.PodStatus{Phase: api.PodSucceeded, ContainerStatuses: []api.ContainerStatus{
			{State: exited("Completed", 0)}}}}, PodSummary{"0/1", "Completed", "0"}},
		{"test17 failed", api.Pod{Spec: api.PodSpec{Containers: one}, Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: []api.ContainerStatus{
			{State: exited("Error", 1)}}}}, PodSummary{"0/1", "Error", "0"}},
		{"test18 succeeded and being deleted stays Completed", api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: &deleted}, Spec: api.PodSpec{Containers: one},
			Status: api.PodStatus{Phase: api.PodSucceeded, ContainerStatuses: []api.ContainerStatus{{State: exited("Completed", 0)}}}}, PodSummary{"0/1", "Completed", "0"}},
		{"test19 running and being deleted is Terminating", api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: &deleted}, Spec: api.PodSpec{Containers: one},
			Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{{State: runningC}}}}, PodSummary{"0/1", "Terminating", "0"}},
		{"test20 pending and being deleted is Terminating", api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: &deleted}, Spec: api.PodSpec{Containers: one},
			Status: api.PodStatus{Phase: api.PodPending}}, PodSummary{"0/1", "Terminating", "0"}},
		{"test21 error then running", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: []api.ContainerStatus{
			{State: exited("podCrash", 1)}, {Ready: true, State: runningC}}}}, PodSummary{"1/2", "podCrash", "0"}},
		{"test22 running then error", api.Pod{Spec: api.PodSpec{Containers: two}, Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: []api.ContainerStatus{
			{Ready: true, State: runningC}, {State: exited("podCrash", 1)}}}}, PodSummary{"1/2", "podCrash", "0"}},
		{"test23 running, error, completed", api.Pod{Spec: api.PodSpec{Containers: three}, Status: api.PodStatus{Phase: "Failed", ContainerStatuses: []api.ContainerStatus{
			{Ready: true, State: runningC}, {Ready: true, State: exited("podCrash", 1)}, {Ready: true, State: exited("", 0)}}}}, PodSummary{"1/3", "podCrash", "0"}},
		{"test24 the same, none ready", api.Pod{Spec: api.PodSpec{Containers: three}, Status: api.PodStatus{Phase: "Failed", ContainerStatuses: []api.ContainerStatus{
			{State: runningC}, {State: exited("podCrash", 1)}, {State: exited("", 0)}}}}, PodSummary{"0/3", "podCrash", "0"}},
		{"sidecar test1 a sidecar running but not started", api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{sidecarSpec("s1"), sidecarSpec("s2")}, Containers: one}, Status: api.PodStatus{Phase: "Pending",
			InitContainerStatuses: []api.ContainerStatus{{Name: "s1", RestartCount: 3, State: runningC, Started: new(false), LastState: exitedAgo(10 * time.Second)}, {Name: "s2", State: waitingC, Started: new(false)}},
			ContainerStatuses:     []api.ContainerStatus{{State: waitingC}},
			Conditions:            []api.PodCondition{condition(api.PodInitialized, api.ConditionFalse, "")}}}, PodSummary{"0/3", "Init:0/2", "3 (10s ago)"}},
		{"sidecar test1 the first started, the second not", api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{sidecarSpec("s1"), sidecarSpec("s2")}, Containers: one}, Status: api.PodStatus{Phase: "Pending",
			InitContainerStatuses: []api.ContainerStatus{{Name: "s1", RestartCount: 3, State: runningC, Started: new(true), LastState: exitedAgo(10 * time.Second)}, {Name: "s2", State: runningC, Started: new(false)}},
			ContainerStatuses:     []api.ContainerStatus{{State: waitingC}},
			Conditions:            []api.PodCondition{condition(api.PodInitialized, api.ConditionFalse, "")}}}, PodSummary{"0/3", "Init:1/2", "3 (10s ago)"}},
		{"sidecar test2 both started, the container running", api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{sidecarSpec("s1"), sidecarSpec("s2")}, Containers: one}, Status: api.PodStatus{Phase: "Running",
			InitContainerStatuses: []api.ContainerStatus{{Name: "s1", RestartCount: 3, State: runningC, Started: new(true), LastState: exitedAgo(10 * time.Second)}, {Name: "s2", State: runningC, Started: new(true)}},
			ContainerStatuses:     []api.ContainerStatus{{Ready: true, RestartCount: 4, State: runningC, LastState: exitedAgo(20 * time.Second)}},
			Conditions:            []api.PodCondition{condition(api.PodInitialized, api.ConditionTrue, "")}}}, PodSummary{"1/3", "Running", "7 (10s ago)"}},
		{"sidecar test3 sidecars killed, the container completed", api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{sidecarSpec("s1"), sidecarSpec("s2")}, Containers: one}, Status: api.PodStatus{Phase: "Succeeded",
			InitContainerStatuses: []api.ContainerStatus{{Name: "s1", RestartCount: 3, State: exited("Error", 137), Started: new(false), LastState: exitedAgo(10 * time.Second)}, {Name: "s2", State: exited("Error", 137), Started: new(false)}},
			ContainerStatuses:     []api.ContainerStatus{{RestartCount: 4, State: exited("Completed", 0), LastState: exitedAgo(20 * time.Second)}},
			Conditions:            []api.PodCondition{condition(api.PodInitialized, api.ConditionTrue, "")}}}, PodSummary{"0/3", "Completed", "7 (10s ago)"}},
		{"sidecar test4 statuses of containers that do not exist", api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "init1"}, sidecarSpec("sidecar1")}, Containers: []api.Container{{Name: "container1"}}}, Status: api.PodStatus{Phase: "Running",
			InitContainerStatuses: []api.ContainerStatus{{Name: "initinvalid"}, {Name: "init1"}, {Name: "sidecar1"}},
			ContainerStatuses:     []api.ContainerStatus{{Name: "containerinvalid"}, {Name: "container1"}}}}, PodSummary{"0/2", "Init:0/2", "0"}},
		{"a node lost while being deleted is Unknown", api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: &deleted}, Spec: api.PodSpec{Containers: one},
			Status: api.PodStatus{Phase: api.PodRunning, Reason: "NodeLost", ContainerStatuses: []api.ContainerStatus{{Ready: true, State: runningC}}}}, PodSummary{"1/1", "Unknown", "0"}},
		{"a signal without a reason", api.Pod{Spec: api.PodSpec{Containers: one}, Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: []api.ContainerStatus{
			{State: api.ContainerState{Terminated: &api.ContainerStateTerminated{Signal: 9, ExitCode: 137}}}}}}, PodSummary{"0/1", "Signal:9", "0"}},
		{"an init container that failed", api.Pod{Spec: api.PodSpec{InitContainers: one, Containers: one}, Status: api.PodStatus{Phase: api.PodPending,
			InitContainerStatuses: []api.ContainerStatus{{State: exited("", 2)}}}}, PodSummary{"0/1", "Init:ExitCode:2", "0"}},
		{"an init container waiting for its image", api.Pod{Spec: api.PodSpec{InitContainers: one, Containers: one}, Status: api.PodStatus{Phase: api.PodPending,
			InitContainerStatuses: []api.ContainerStatus{{State: waitingFor("ImagePullBackOff")}}}}, PodSummary{"0/1", "Init:ImagePullBackOff", "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, PodStatus(&tc.pod, statusNow))
		})
	}
}

// TestNodeStatusAndRolesArePrintNodes pins the STATUS and ROLES columns with the cases of
// upstream's TestPrintNodeStatus and TestPrintNodeRole: only the Ready condition counts (a
// missing or unknown type is Unknown), cordoning adds SchedulingDisabled, roles come from
// node-role.kubernetes.io/<role> keys and the kubernetes.io/role value, sorted.
func TestNodeStatusAndRolesArePrintNodes(t *testing.T) {
	ready := []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}
	notReady := []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionFalse}}
	invalid := []api.NodeCondition{{Type: "InvalidValue", Status: api.ConditionTrue}}
	for _, tc := range []struct {
		name          string
		conditions    []api.NodeCondition
		unschedulable bool
		labels        map[string]string
		status, roles string
	}{
		{"foo1", ready, false, nil, "Ready", "<none>"},
		{"foo2", ready, true, nil, "Ready,SchedulingDisabled", "<none>"},
		{"foo3", append(ready, ready...), false, nil, "Ready", "<none>"},
		{"foo4", notReady, false, nil, "NotReady", "<none>"},
		{"foo5", notReady, true, nil, "NotReady,SchedulingDisabled", "<none>"},
		{"foo6", invalid, false, nil, "Unknown", "<none>"},
		{"foo7", []api.NodeCondition{{}}, false, nil, "Unknown", "<none>"},
		{"foo8", invalid, true, nil, "Unknown,SchedulingDisabled", "<none>"},
		{"foo9", []api.NodeCondition{{}}, true, nil, "Unknown,SchedulingDisabled", "<none>"},
		{"foo9 without conditions", nil, false, nil, "Unknown", "<none>"},
		{"foo10", nil, false, map[string]string{"node-role.kubernetes.io/master": "", "node-role.kubernetes.io/control-plane": "", "node-role.kubernetes.io/proxy": "", "kubernetes.io/role": "node"}, "Unknown", "control-plane,master,node,proxy"},
		{"foo11", nil, false, map[string]string{"kubernetes.io/role": "node"}, "Unknown", "node"},
		{"an unknown Ready condition is NotReady", []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionUnknown}}, false, nil, "NotReady", "<none>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := &api.Node{}
			n.Labels, n.Spec.Unschedulable, n.Status.Conditions = tc.labels, tc.unschedulable, tc.conditions
			assert.Equal(t, [2]string{tc.status, tc.roles}, [2]string{NodeStatus(n), NodeRoles(n)})
		})
	}
}

// TestServiceColumnsArePrintServices pins printService's cells with the cases of upstream's
// TestPrintService (pkg/printers/internalversion/printers_test.go), test1 to test7: the first
// cluster IP or <none>, the external IP by type (<none>, <pending>, the ingress then the
// external IPs, the external name), PORT/PROTOCOL or PORT:NODEPORT/PROTOCOL, and -o wide's
// selector.
func TestServiceColumnsArePrintServices(t *testing.T) {
	one, two := []string{"80.11.12.10"}, []string{"80.11.12.10", "80.11.12.11"}
	port := func(p, np int32) []api.ServicePort {
		return []api.ServicePort{{Protocol: "tcp", Port: p, NodePort: np}}
	}
	ingress := func(ips ...string) api.ServiceStatus {
		var s api.ServiceStatus
		for _, ip := range ips {
			s.LoadBalancer.Ingress = append(s.LoadBalancer.Ingress, api.LoadBalancerIngress{IP: ip})
		}
		return s
	}
	for _, tc := range []struct {
		name string
		svc  api.Service
		wide bool
		want []string
	}{
		{"test1 name, cluster ip, port with protocol", api.Service{Spec: api.ServiceSpec{Type: "ClusterIP", Ports: port(2233, 0), ClusterIPs: []string{"10.9.8.7"}, Selector: map[string]string{"foo": "bar"}}}, false,
			[]string{"test1 name, cluster ip, port with protocol", "ClusterIP", "10.9.8.7", "<none>", "2233/tcp"}},
		{"test1 wide adds the selector", api.Service{Spec: api.ServiceSpec{Type: "ClusterIP", Ports: port(2233, 0), ClusterIPs: []string{"10.9.8.7"}, Selector: map[string]string{"foo": "bar"}}}, true,
			[]string{"test1 wide adds the selector", "ClusterIP", "10.9.8.7", "<none>", "2233/tcp", "foo=bar"}},
		{"test2 NodePort", api.Service{Spec: api.ServiceSpec{Type: "NodePort", Ports: port(8888, 9999), ClusterIPs: []string{"10.9.8.7"}}}, false,
			[]string{"test2 NodePort", "NodePort", "10.9.8.7", "<none>", "8888:9999/tcp"}},
		{"test3 LoadBalancer", api.Service{Spec: api.ServiceSpec{Type: "LoadBalancer", Ports: port(8888, 0), ClusterIPs: []string{"10.9.8.7"}}}, false,
			[]string{"test3 LoadBalancer", "LoadBalancer", "10.9.8.7", "<pending>", "8888/tcp"}},
		{"test4 an external IP, no status", api.Service{Spec: api.ServiceSpec{Type: "LoadBalancer", Ports: port(8888, 0), ClusterIPs: []string{"10.9.8.7"}, ExternalIPs: one}}, false,
			[]string{"test4 an external IP, no status", "LoadBalancer", "10.9.8.7", "80.11.12.10", "8888/tcp"}},
		{"test5 an ingress and an external IP", api.Service{Spec: api.ServiceSpec{Type: "LoadBalancer", Ports: port(8888, 0), ClusterIPs: []string{"10.9.8.7"}, ExternalIPs: one}, Status: ingress("3.4.5.6")}, false,
			[]string{"test5 an ingress and an external IP", "LoadBalancer", "10.9.8.7", "3.4.5.6,80.11.12.10", "8888/tcp"}},
		{"test6 ingresses and external IPs", api.Service{Spec: api.ServiceSpec{Type: "LoadBalancer", Ports: port(8888, 0), ClusterIPs: []string{"10.9.8.7"}, ExternalIPs: two}, Status: ingress("2.3.4.5", "3.4.5.6")}, false,
			[]string{"test6 ingresses and external IPs", "LoadBalancer", "10.9.8.7", "2.3.4.5,3.4.5.6,80.11.12.10,80.11.12.11", "8888/tcp"}},
		{"test7 ExternalName", api.Service{Spec: api.ServiceSpec{Type: "ExternalName", ExternalName: "my.database.example.com"}}, false,
			[]string{"test7 ExternalName", "ExternalName", "<none>", "my.database.example.com", "<none>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.svc.Name = tc.name
			var got []string
			for _, col := range serviceColumns {
				if col.header == "AGE" || col.wide && !tc.wide {
					continue
				}
				got = append(got, col.cell(&tc.svc, statusNow))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
