// Package kubelet is the node agent of every simulated node: it registers the node (labels,
// capacity, conditions, pod CIDR) and starts the pods bound to it.
package kubelet

import (
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// StartupDelay is how long a pod takes from binding to Running and Ready (image behaviour ok).
const StartupDelay = 3 * time.Second

// Version is the kubelet version every node reports.
const Version = "v1.37.2"

// NodeOptions are what a joining node may override.
type NodeOptions struct {
	Labels map[string]string
	Taints []api.Taint
	CPU    string // default "4"
	Memory string // default "8Gi"
	Pods   string // default "110"
	// What the machine itself reports, when it is not DaemonLab's usual one (an imported
	// node): Capacity and Allocatable replace CPU, Memory and Pods (Allocatable defaults to
	// Capacity); Addresses replace the index-th InternalIP and the hostname; NodeInfo, if set,
	// is the machine's system info, its kubelet version still Version.
	Capacity, Allocatable api.ResourceList
	Addresses             []api.NodeAddress
	NodeInfo              *api.NodeSystemInfo
	// StaticPods are the manifests in the kubelet's staticPodPath (see Join).
	StaticPods []*api.Pod
}

// NewNode returns the Node a kubelet registers when its machine has the index-th address
// (0-based); the node IPAM controller then gives it a pod CIDR (core/controller/nodeipam):
//
//  1. Labels kubernetes.io/hostname, kubernetes.io/os=linux, kubernetes.io/arch=amd64 and their
//     beta twins, then opts.Labels.
//  2. The index-th address from 192.168.10.11 as its InternalIP.
//  3. Capacity and allocatable 4 CPU, 8Gi memory, 110 pods unless opts say otherwise.
//  4. Conditions MemoryPressure, DiskPressure and PIDPressure False and Ready True, with the
//     kubelet's reasons and messages, heartbeats at now.
//  5. opts.Capacity, Allocatable, Addresses and NodeInfo, when set, are the machine's own (an
//     imported node's): its kubelet still reports Version and no kube-proxy version.
func NewNode(name string, index int, opts NodeOptions, now time.Time) *api.Node {
	labels := map[string]string{
		api.LabelArchBeta:   "amd64",
		api.LabelOSBeta:     "linux",
		api.LabelArchStable: "amd64",
		api.LabelHostname:   name,
		api.LabelOSStable:   "linux",
	}
	for k, v := range opts.Labels {
		labels[k] = v
	}
	capacity := api.ResourceList{
		api.ResourceCPU:    api.MustParseQuantity(orDefault(opts.CPU, "4")),
		api.ResourceMemory: api.MustParseQuantity(orDefault(opts.Memory, "8Gi")),
		api.ResourcePods:   api.MustParseQuantity(orDefault(opts.Pods, "110")),
	}
	n := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}}
	n.Name = name
	n.Labels = labels
	n.Spec = api.NodeSpec{Taints: opts.Taints}
	if opts.Capacity != nil {
		capacity = opts.Capacity
	}
	n.Status = NodeStatus(name, index, capacity, now)
	if opts.Allocatable != nil {
		n.Status.Allocatable = opts.Allocatable
	}
	if opts.Addresses != nil {
		n.Status.Addresses = opts.Addresses
	}
	if info := opts.NodeInfo; info != nil {
		n.Status.NodeInfo = *info
		n.Status.NodeInfo.KubeletVersion, n.Status.NodeInfo.KubeProxyVersion = Version, ""
	}
	return n
}

// FreeAddress returns the smallest address index whose InternalIP no node has, so that a
// joining machine never shares an address with a node that stayed after others left.
func FreeAddress(c *cluster.Cluster) int {
	return addresses.Free(c)
}

// addresses are the address indices the nodes' InternalIPs use; an InternalIP it does not hand
// out takes no index.
var addresses = cluster.NewTally("Node", func(obj api.Object, use func(int)) {
	for _, a := range obj.(*api.Node).Status.Addresses {
		if i, ok := addressIndex(a.Address); ok && a.Type == "InternalIP" {
			use(i)
		}
	}
})

// addressIndex returns the index of the node internalIP gave an address, if it gave it.
func addressIndex(ip string) (int, bool) {
	rest, ok := strings.CutPrefix(ip, "192.168.")
	k, octets := cluster.Octets(rest)
	return (k - internalIPsFrom + 1<<16) % (1 << 16), ok && octets
}

// internalIPsFrom is 192.168.10.11's place in 192.168.0.0/16: InternalIPs count up from it, and
// every address is a valid one for the first 62,965 nodes.
const internalIPsFrom = 10<<8 + 11

// internalIP is the InternalIP of the node with that index.
func internalIP(index int) string {
	k := (internalIPsFrom + index) % (1 << 16)
	return fmt.Sprintf("192.168.%d.%d", k>>8, k&0xff)
}

// NodeStatus is the status a healthy kubelet reports.
func NodeStatus(name string, index int, capacity api.ResourceList, now time.Time) api.NodeStatus {
	t := api.NewTime(now)
	cond := func(typ api.NodeConditionType, status api.ConditionStatus, reason, msg string) api.NodeCondition {
		return api.NodeCondition{Type: typ, Status: status, LastHeartbeatTime: t, LastTransitionTime: t, Reason: reason, Message: msg}
	}
	alloc := api.ResourceList{}
	for k, v := range capacity {
		alloc[k] = v
	}
	return api.NodeStatus{
		Capacity:    capacity,
		Allocatable: alloc,
		Conditions: []api.NodeCondition{
			cond(api.NodeMemoryPressure, api.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
			cond(api.NodeDiskPressure, api.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
			cond(api.NodePIDPressure, api.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
			cond(api.NodeReady, api.ConditionTrue, "KubeletReady", "kubelet is posting ready status"),
		},
		Addresses:       []api.NodeAddress{{Type: "InternalIP", Address: internalIP(index)}, {Type: "Hostname", Address: name}},
		DaemonEndpoints: api.NodeDaemonEndpoints{KubeletEndpoint: api.DaemonEndpoint{Port: 10250}},
		NodeInfo: api.NodeSystemInfo{
			MachineID: machineID(name, "machine-id"), SystemUUID: uuidOf(machineID(name, "system-uuid")), BootID: uuidOf(machineID(name, "boot-id")),
			KernelVersion: "6.8.0-87-generic", OSImage: "Ubuntu 24.04.3 LTS", ContainerRuntimeVersion: "containerd://2.1.4",
			KubeletVersion: Version, OperatingSystem: "linux", Architecture: "amd64",
		},
	}
}

// machineID is a stable 32-hex-digit identity of the machine behind a node name: the same
// name stands for the same machine, and no draw from the cluster's random source is needed.
func machineID(name, what string) string {
	h := fnv.New128a()
	h.Write([]byte(what + "/" + name))
	return hex.EncodeToString(h.Sum(nil))
}

// uuidOf writes 32 hex digits in the 8-4-4-4-12 form of a UUID.
func uuidOf(h string) string {
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// boundAt returns when the scheduler bound the pod (its PodScheduled=True transition).
func boundAt(p *api.Pod) (time.Time, bool) {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodScheduled && c.Status == api.ConditionTrue {
			return c.LastTransitionTime.Time, true
		}
	}
	return time.Time{}, false
}

// startAt returns when a pod bound to a node becomes Running, if it is still waiting to: its
// images' start-up time after binding.
func startAt(c *cluster.Cluster, p *api.Pod) (time.Time, bool) {
	if p.Spec.NodeName == "" || p.Status.Phase != api.PodPending || p.DeletionTimestamp != nil {
		return time.Time{}, false
	}
	t, ok := boundAt(p)
	if !ok {
		t = p.CreationTimestamp.Time // bound directly through spec.nodeName
	}
	return t.Add(podStartup(c, p)), true
}

// StopDelay is how long a deleted pod's containers take to exit on SIGTERM on a healthy node.
const StopDelay = time.Second

// goneAt returns when the kubelet finishes deleting a pod marked for deletion.
func goneAt(p *api.Pod) (time.Time, bool) {
	if p.DeletionTimestamp == nil || p.DeletionGracePeriodSeconds == nil {
		return time.Time{}, false
	}
	marked := p.DeletionTimestamp.Add(-time.Duration(*p.DeletionGracePeriodSeconds) * time.Second)
	return marked.Add(min(StopDelay, time.Duration(*p.DeletionGracePeriodSeconds)*time.Second)), true
}

// running reports whether the kubelet of the pod's node is up.
func running(c *cluster.Cluster, node string) bool {
	m, ok := c.Machine(node)
	return ok && !m.KubeletDown
}

// NextTimer returns the earliest instant a running kubelet has something to do: a pod to start,
// a deleted pod to remove, a crashed container to restart, an eviction loop under memory
// pressure, a cordon or uncordon or a Ready condition to report (NodeTimer and PodTimer).
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var next time.Time
	found := false
	for n := range c.AllNodes() {
		if t, ok := NodeTimer(c, n); ok && (!found || t.At.Before(next)) {
			next, found = t.At, true
		}
	}
	for p := range c.AllPods() {
		if t, ok := PodTimer(c, p); ok && (!found || t.At.Before(next)) {
			next, found = t.At, true
		}
	}
	return next, found
}

// Timer is what a running kubelet will do when the clock reaches At.
type Timer struct {
	Does Action
	At   time.Time
}

// Action is what a kubelet's timer does.
type Action int

// A pod's timers (PodTimer) and a node's (NodeTimer).
const (
	Starts   Action = iota // a pod's containers start: it is Running (StartupDelay, or its images' --start)
	Removes                // a deleted pod's containers have stopped: it is gone (StopDelay, or its shorter grace period)
	Restarts               // a crashed container restarts: its CrashLoopBackOff back-off is over
	Rejects                // a pod the kubelet refused is Failed (AdmissionDelay)
	Evicts                 // the eviction manager's next loop under memory pressure (EvictionPeriod)
	Reports                // the kubelet's next status update reports Ready or its cordon (statusTick)
)

// PodTimer is the earliest thing the pod's kubelet, if it runs, is due to do to the pod:
//
//  1. a bound pod still Pending starts at its images' start-up time after binding;
//  2. a pod marked for deletion is removed once its containers have stopped;
//  3. a crashed container of a Running pod restarts when its back-off is over;
//  4. a pod the kubelet refused (admitNew) is failed AdmissionDelay after binding (once: a
//     rejected pod is Failed, and a pod that has ended is due nothing).
//
// A stopped kubelet is due to do nothing.
func PodTimer(c *cluster.Cluster, p *api.Pod) (Timer, bool) {
	var next Timer
	found := false
	if !running(c, p.Spec.NodeName) {
		return next, false
	}
	rejection := func(p *api.Pod) (time.Time, bool) {
		if _, refused := rejecting.Get(c, p.UID); !refused || p.DeletionTimestamp != nil {
			return time.Time{}, false
		}
		return admissionAt(p), true
	}
	for i, due := range []func(*api.Pod) (time.Time, bool){func(p *api.Pod) (time.Time, bool) { return startAt(c, p) }, goneAt, func(p *api.Pod) (time.Time, bool) { return restartAt(c, p) }, rejection} {
		if t, ok := due(p); ok && (!found || t.Before(next.At)) {
			next, found = Timer{Does: []Action{Starts, Removes, Restarts, Rejects}[i], At: t}, true
		}
	}
	return next, found
}

// NodeTimer is the earliest thing the node's kubelet, if it runs, is due to do for the node:
// the eviction manager's next loop while memory is short (or until the pressure transition
// period is over), or the status update that reports a changed Ready condition or cordon.
func NodeTimer(c *cluster.Cluster, n *api.Node) (Timer, bool) {
	m, ok := c.Machine(n.Name)
	if !ok || m.KubeletDown {
		return Timer{}, false
	}
	next, found := Timer{}, false
	if t, ok := evictionTimer(c, n.Name, m); ok {
		next, found = Timer{Does: Evicts, At: t}, true
	}
	if t := statusTick(m, c.Now()); (n.Spec.Unschedulable != m.SawUnschedulable || readyDue(n, m)) && (!found || t.Before(next.At)) {
		next, found = Timer{Does: Reports, At: t}, true
	}
	return next, found
}

// Sync does what the running kubelets would at the current instant:
//
//  1. Each posts its node's conditions when they differ from what its machine reports (Ready
//     at its next status update, see postStatus), and records it when its node became
//     unschedulable or schedulable again (noteSchedulable).
//  2. Pods the kubelet has not seen yet go through its admission, oldest first (admitNew): an
//     admitted pod gets its start time, its host IP and containers waiting in
//     ContainerCreating (kubectl shows ContainerCreating), not Ready; a refused one is Failed
//     AdmissionDelay after binding, with the admit handler's reason (rejectAdmission).
//  3. A pod whose start-up time has come is Running: containers started as their images
//     behave (running and ready, or in CrashLoopBackOff: see syncContainer), conditions
//     Initialized, Ready and ContainersReady True when all are ready, a pod IP from the node's
//     CIDR. A crashed container is restarted when its back-off is over.
//  4. A running pod someone marked not Ready (the node controller, while the kubelet was away)
//     is Ready again.
//  5. A pod whose spec changed since the kubelet's last status has it observed (updateStatus).
//  6. A pod marked for deletion is removed once its containers have stopped (StopDelay, or its
//     shorter grace period).
//  7. Under memory pressure the eviction manager evicts one pod per loop (see evictForMemory)
//     and refuses new BestEffort pods (evictionAdmit).
//
// A stopped kubelet does nothing: its pods stay as they were, deleted ones Terminating. What a
// kubelet does for its node (step 1, and the eviction manager's loop of step 7) reads only the
// node, its machine, the kubelet's memory of it, its pods and the clock, and is done once an
// instant, so a pass at the instant of the one that began at since visits only the nodes changed
// after it (cluster.ChangedNodes). It returns whether anything changed.
func Sync(c *cluster.Cluster, since cluster.Since) bool {
	changed := false
	for n := range c.ChangedNodes(since) {
		if m, ok := c.Machine(n.Name); ok && !m.KubeletDown {
			changed = evictForMemory(c, n, m) || changed
			changed = postStatus(c, c.Node(n.Name), m) || changed
			changed = noteSchedulable(c, c.Node(n.Name), m) || changed
		}
	}
	changed = syncStaticPods(c) || changed
	ips := &podIPs{}
	var fresh []*api.Pod
	for p := range c.AllPods() {
		node := c.Node(p.Spec.NodeName)
		switch {
		case node == nil || !running(c, node.Name):
		case awaitingAdmission(c, p):
			fresh = append(fresh, p)
		default:
			changed = syncPod(c, p, node, ips) || changed
		}
	}
	return admitNew(c, fresh) || changed
}

// killing are the pods going away whose Killing event the kubelet recorded, by uid.
var killing = cluster.NewMemo[string, struct{}]("kubelet/killing")

// podIPs are the pod IPs in use, read from the pods once per round when first needed and kept
// in step with the IPs handed out in it.
type podIPs struct{ used map[string]bool }

func syncPod(c *cluster.Cluster, p *api.Pod, node *api.Node, ips *podIPs) bool {
	if t, ok := goneAt(p); ok {
		if _, told := killing.Get(c, p.UID); !told {
			killing.Set(c, p.UID, struct{}{})
			recordKilling(c, p)
			return true
		}
		if t.After(c.Now()) {
			return false
		}
		killing.Forget(c, p.UID)
		rejecting.Forget(c, p.UID)
		c.Delete(p)
		return true
	}
	if restartCrashed(c, p) {
		return true
	}
	// Decide on the stored pod; copy it only to change it (most pods need nothing).
	var next *api.Pod
	switch t, ok := startAt(c, p); {
	case ok && len(p.Status.ContainerStatuses) == 0: // refused (admitNew)
		r, refused := rejecting.Get(c, p.UID)
		if !refused || admissionAt(p).After(c.Now()) {
			return false
		}
		return rejectAdmission(c, p, *r)
	case ok && !t.After(c.Now()):
		next = changing(p)
		starts := start(c, next, node, t, ips)
		if updateStatus(c, next) != nil {
			return false
		}
		recordStarts(c, next, starts)
		return true
	case p.Status.Phase == api.PodRunning && !api.IsPodReady(p) && allReady(p):
		next = changing(p)
		markReady(next, c.Now())
	case p.Status.ObservedGeneration != p.Generation && len(p.Status.ContainerStatuses) > 0 && (p.Status.Phase == api.PodPending || p.Status.Phase == api.PodRunning):
		next = changing(p) // a changed spec: the pod worker syncs it, and its status says so
	default:
		return false
	}
	return updateStatus(c, next) == nil
}

// updateStatus writes a pod status the kubelet made, stamped with the generation of the pod
// it saw (PodObservedGenerationTracking, GA since v1.35): status.observedGeneration
// (status_manager.go SetPodStatus) and the observedGeneration of each condition the kubelet
// owns (generateAPIPodStatus; kubetypes.PodConditionByKubelet).
func updateStatus(c *cluster.Cluster, p *api.Pod) error {
	p.Status.ObservedGeneration = p.Generation
	for i, cond := range p.Status.Conditions {
		if ownedByKubelet(cond.Type) {
			p.Status.Conditions[i].ObservedGeneration = p.Generation
		}
	}
	return c.Update(p)
}

// changing copies a stored pod for the kubelet to write its status. Stored objects are never
// changed in place, and start, admit and markReady replace status fields whole (only the
// conditions are changed element by element), so the copy shares everything else.
func changing(p *api.Pod) *api.Pod {
	next := *p
	next.Status.Conditions = slices.Clone(p.Status.Conditions)
	return &next
}

func allReady(p *api.Pod) bool {
	for _, cs := range p.Status.ContainerStatuses {
		if !cs.Ready {
			return false
		}
	}
	return true
}

func markReady(p *api.Pod, now time.Time) {
	for i := range p.Status.Conditions {
		if t := p.Status.Conditions[i].Type; t == api.PodReady || t == api.ContainersReady {
			p.Status.Conditions[i] = api.PodCondition{Type: t, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(now)}
		}
	}
}

// admit is the kubelet taking a pod in: start time, host IP, containers in ContainerCreating.
func admit(p *api.Pod, node *api.Node, now time.Time) {
	t := api.NewTime(now)
	p.Status.StartTime = &t
	p.Status.HostIP = NodeIP(node)
	p.Status.HostIPs = []api.PodIP{{IP: p.Status.HostIP}}
	var names []string
	p.Status.ContainerStatuses = nil
	for _, ctr := range p.Spec.Containers {
		names = append(names, ctr.Name)
		no := false
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, api.ContainerStatus{
			Name: ctr.Name, Image: ctr.Image, Started: &no,
			State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "ContainerCreating"}},
		})
	}
	notReady := "containers with unready status: [" + strings.Join(names, " ") + "]"
	// A pod bound through spec.nodeName (a mirror pod, say) has no PodScheduled condition yet:
	// the status manager adds it now (status_manager.go updateLastTransitionTime).
	scheduled, ok := boundAt(p)
	if !ok {
		scheduled = now
	}
	p.Status.Conditions = []api.PodCondition{
		{Type: "PodReadyToStartContainers", Status: api.ConditionFalse, LastTransitionTime: t},
		{Type: api.PodInitialized, Status: api.ConditionTrue, LastTransitionTime: t},
		{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: t, Reason: "ContainersNotReady", Message: notReady},
		{Type: api.ContainersReady, Status: api.ConditionFalse, LastTransitionTime: t, Reason: "ContainersNotReady", Message: notReady},
		{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(scheduled)},
	}
}

// start runs the pod's containers (see syncContainer) and returns how many times each started.
func start(c *cluster.Cluster, p *api.Pod, node *api.Node, at time.Time, ips *podIPs) []int {
	now := api.NewTime(at)
	p.Status.Phase = api.PodRunning
	p.Status.HostIP = NodeIP(node)
	p.Status.HostIPs = []api.PodIP{{IP: p.Status.HostIP}}
	p.Status.PodIP = p.Status.HostIP // a pod in the host's network has the node's address
	if !p.Spec.HostNetwork {
		p.Status.PodIP = ips.next(c, node)
	}
	p.Status.PodIPs = []api.PodIP{{IP: p.Status.PodIP}}
	scheduled, _ := boundAt(p)
	if p.Status.StartTime == nil {
		p.Status.StartTime = &now
	}
	p.Status.ContainerStatuses = nil
	var unready []string
	starts := make([]int, len(p.Spec.Containers))
	m, _ := c.Machine(node.Name)
	for i, ctr := range p.Spec.Containers {
		cs, restarts := syncContainer(c, m, p, ctr, started(c, ctr, 0, now, api.ContainerState{}), at)
		starts[i] = 1 + restarts
		if !cs.Ready {
			unready = append(unready, ctr.Name)
		}
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, cs)
	}
	ready := api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: now}
	if len(unready) > 0 {
		ready = api.PodCondition{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: now, Reason: "ContainersNotReady",
			Message: "containers with unready status: [" + strings.Join(unready, " ") + "]"}
	}
	containersReady := ready
	containersReady.Type = api.ContainersReady
	p.Status.Conditions = []api.PodCondition{
		{Type: "PodReadyToStartContainers", Status: api.ConditionTrue, LastTransitionTime: now},
		{Type: api.PodInitialized, Status: api.ConditionTrue, LastTransitionTime: now},
		ready,
		containersReady,
		{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(scheduled)},
	}
	return starts
}

// recordKilling records what the kubelet says as it stops a deleted pod's containers that run
// (kuberuntime killContainer): Killing, "Stopping container <name>", on each container.
func recordKilling(c *cluster.Cluster, p *api.Pod) {
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Running != nil {
			c.RecordPart(p, "spec.containers{"+cs.Name+"}", cluster.EventNormal, "Killing", "Stopping container "+cs.Name, "kubelet", p.Spec.NodeName)
		}
	}
}

// recordContainerStart records what a v1.37 kubelet reports as it starts a container whose
// image is already on the node (DaemonLab's nodes have every image; pulls are not modelled):
// Pulled with KubeletEnsureSecretPulledImages' wording (on by default since v1.35), then
// Created and Started, each about the container's field path.
func recordContainerStart(c *cluster.Cluster, p *api.Pod, ctr api.Container) {
	part := "spec.containers{" + ctr.Name + "}"
	c.RecordPart(p, part, cluster.EventNormal, "Pulled", fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", ctr.Image), "kubelet", p.Spec.NodeName)
	c.RecordPart(p, part, cluster.EventNormal, "Created", "Container created", "kubelet", p.Spec.NodeName)
	c.RecordPart(p, part, cluster.EventNormal, "Started", "Container started", "kubelet", p.Spec.NodeName)
}

// NodeIP is the node's InternalIP, or "".
func NodeIP(n *api.Node) string {
	for _, a := range n.Status.Addresses {
		if a.Type == "InternalIP" {
			return a.Address
		}
	}
	return ""
}

// next picks a free address in the node's pod CIDR (hosts .2 to .254) at random.
func (ips *podIPs) next(c *cluster.Cluster, node *api.Node) string {
	if ips.used == nil {
		ips.used = map[string]bool{}
		for p := range c.AllPods() {
			ips.used[p.Status.PodIP] = true
		}
	}
	base, ok := strings.CutSuffix(node.Spec.PodCIDR, "0/24")
	if !ok {
		return ""
	}
	for range 1000 {
		ip := fmt.Sprintf("%s%d", base, 2+c.IntN(253))
		if !ips.used[ip] {
			ips.used[ip] = true
			return ip
		}
	}
	return base + "1"
}
