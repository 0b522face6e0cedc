package kubelet

import (
	"slices"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// The faults `sim fail` injects into a machine.
const (
	FaultKubeletDown        = "kubelet-down"
	FaultNotReady           = "not-ready"
	FaultMemoryPressure     = "memory-pressure"
	FaultDiskPressure       = "disk-pressure"
	FaultPIDPressure        = "pid-pressure"
	FaultNetworkUnavailable = "network-unavailable"
)

// Faults lists every fault, in the order `sim help` shows them.
var Faults = []string{FaultKubeletDown, FaultNotReady, FaultMemoryPressure, FaultDiskPressure, FaultPIDPressure, FaultNetworkUnavailable}

// ActiveFaults lists the faults a machine has now, as `sim recover` clears them: kubelet-down
// first when its kubelet is stopped, then the reported conditions in the order they were
// injected.
func ActiveFaults(m cluster.Machine) []string {
	var out []string
	if m.KubeletDown {
		out = append(out, FaultKubeletDown)
	}
	return append(out, m.Faults...)
}

// Join registers a node as its kubelet does on start: the Node object and a running kubelet that
// renews its lease from now on and runs the static pods of its staticPodPath (see
// syncStaticPods).
func Join(c *cluster.Cluster, n *api.Node, staticPods []*api.Pod) error {
	if _, err := apiserver.Create(c, n, apiserver.Options{}); err != nil {
		return err
	}
	c.SetMachine(n.Name, cluster.Machine{RenewFrom: c.Now(), StaticPods: staticPods})
	if len(staticPods) > 0 {
		old, _ := staticNodes.Get(c, struct{}{})
		var names []string
		if old != nil {
			names = slices.Clone(*old)
		}
		if !slices.Contains(names, n.Name) {
			names = append(names, n.Name)
			slices.Sort(names)
		}
		staticNodes.Set(c, struct{}{}, &names)
	}
	return nil
}

// Register matches machines to Node objects (DESIGN: every node joins Ready):
//
//  1. A Node with no machine behind it (one created through the API, as kubectl apply does)
//     gets one, in the order the nodes were created: its kubelet starts and registers as it
//     does when its Node exists already (kubelet_node_status.go tryRegisterWithAPIServer,
//     reconcile): the kubelet's labels join the node's own, which win; a node that has no
//     status gets the healthy kubelet's, with the machine's address (the first free one).
//  2. A machine whose Node is gone (kubectl delete node) leaves the cluster.
//
// Every node left without a machine is one written, or whose machine was written, since the
// last pass began, so a pass at its instant visits only those (cluster.ChangedNodes). It
// reports whether it changed anything.
func Register(c *cluster.Cluster, since cluster.Since) bool {
	var joining []*api.Node
	for n := range c.ChangedNodes(since) {
		if !c.HasMachine(n.Name) {
			joining = append(joining, n)
		}
	}
	changed := false
	if served := c.Count("Node") - len(joining); served < c.MachineCount() { // a machine is left without its node
		for _, name := range c.MachineNames() {
			if c.Node(name) == nil {
				c.RemoveMachine(name)
				changed = true
			}
		}
	}
	if len(joining) == 0 {
		return changed
	}
	slices.SortStableFunc(joining, func(a, b *api.Node) int { return cluster.CreationOrder(a, b) })
	for _, n := range joining {
		joined := NewNode(n.Name, FreeAddress(c), NodeOptions{Labels: n.Labels}, c.Now())
		next := api.DeepCopy(n)
		next.Labels = joined.Labels
		if len(next.Status.Conditions) == 0 && next.Status.Capacity == nil {
			next.Status = joined.Status
			api.Default(next)
		}
		_ = c.Update(next)
		c.SetMachine(n.Name, cluster.Machine{RenewFrom: c.Now()})
	}
	return true
}

// condition is what a kubelet reports for one node condition.
type condition struct {
	typ             api.NodeConditionType
	status          api.ConditionStatus
	reason, message string
}

// reported returns the conditions a running kubelet reports for a machine with these faults,
// MemoryPressure coming from its eviction manager (pkg/kubelet/nodestatus/setters.go wording;
// NetworkUnavailable in the route controller's).
func reported(faults []string, memoryPressure bool) []condition {
	if len(faults) == 0 && !memoryPressure {
		return healthy // most machines, every round: nothing to build
	}
	return conditionsFor(faults, memoryPressure)
}

// healthy is what a machine without faults or memory pressure reports; callers only read it
// (its capacity is its length, so an append copies it).
var healthy = slices.Clip(conditionsFor(nil, false))

// conditionsFor builds what reported returns.
func conditionsFor(faults []string, memoryPressure bool) []condition {
	has := func(f string) bool { return slices.Contains(faults, f) }
	pick := func(bad bool, typ api.NodeConditionType, badReason, badMsg, okReason, okMsg string) condition {
		if bad {
			return condition{typ, api.ConditionTrue, badReason, badMsg}
		}
		return condition{typ, api.ConditionFalse, okReason, okMsg}
	}
	conds := []condition{
		pick(memoryPressure, api.NodeMemoryPressure, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
		pick(has(FaultDiskPressure), api.NodeDiskPressure, "KubeletHasDiskPressure", "kubelet has disk pressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
		pick(has(FaultPIDPressure), api.NodePIDPressure, "KubeletHasInsufficientPID", "kubelet has insufficient PID available", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
	}
	conds = append(conds, readyReported(faults))
	if has(FaultNetworkUnavailable) {
		conds = append(conds, condition{api.NodeNetworkUnavailable, api.ConditionTrue, "NoRouteCreated", "Node created without a route"})
	}
	return conds
}

// readyReported is the Ready condition the kubelet reports for a machine with these faults.
func readyReported(faults []string) condition {
	if slices.Contains(faults, FaultNotReady) {
		return condition{api.NodeReady, api.ConditionFalse, "KubeletNotReady", "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"}
	}
	return condition{api.NodeReady, api.ConditionTrue, "KubeletReady", "kubelet is posting ready status"}
}

// readyDue reports whether the kubelet has a Ready condition to post at its next status update.
func readyDue(n *api.Node, m cluster.Machine) bool {
	return differs(n.Status.Conditions, []condition{readyReported(m.Faults)})
}

// postStatus writes the node's conditions when they differ from what its machine reports: a
// changed status moves lastTransitionTime, every write moves lastHeartbeatTime. A
// NetworkUnavailable condition the machine no longer reports turns False ("RouteCreated").
// Each changed status is also an event about the node ("Node hd2 status is now: NodeReady").
// DaemonLab posts only on change; a real kubelet also re-posts unchanged status every 5m.
//
// The Ready condition changes only at the kubelet's status updates, every 10s from its start
// (see statusTick): a not-ready fault, or its end, shows at the next one, as the runtime's
// state is read when the kubelet syncs its node status (kubelet_node_status.go syncNodeStatus at
// nodeStatusUpdateFrequency; nodestatus/setters.go ReadyCondition).
func postStatus(c *cluster.Cluster, n *api.Node, m cluster.Machine) bool {
	want := reported(m.Faults, memoryPressure(c, n.Name))
	if i := slices.IndexFunc(n.Status.Conditions, func(nc api.NodeCondition) bool { return nc.Type == api.NodeReady }); i >= 0 && !statusTick(m, c.Now()).Equal(c.Now()) {
		posted := n.Status.Conditions[i]
		want = slices.Clone(want)
		want[slices.IndexFunc(want, func(w condition) bool { return w.typ == api.NodeReady })] = condition{api.NodeReady, posted.Status, posted.Reason, posted.Message}
	}
	if !slices.Contains(m.Faults, FaultNetworkUnavailable) && hasCondition(n, api.NodeNetworkUnavailable) {
		want = append(want, condition{api.NodeNetworkUnavailable, api.ConditionFalse, "RouteCreated", "RouteController created a route"})
	}
	if !differs(n.Status.Conditions, want) {
		return false // most rounds: nothing to post
	}
	now := api.NewTime(c.Now())
	// Stored objects are never changed in place, so the copy shares all but the conditions, the
	// only part this writes.
	next := *n
	next.Status.Conditions = slices.Clone(n.Status.Conditions)
	changed := false
	var events []string
	for _, w := range want {
		i := slices.IndexFunc(next.Status.Conditions, func(nc api.NodeCondition) bool { return nc.Type == w.typ })
		if i < 0 {
			next.Status.Conditions = append(next.Status.Conditions, api.NodeCondition{Type: w.typ, Status: w.status, LastHeartbeatTime: now, LastTransitionTime: now, Reason: w.reason, Message: w.message})
			changed = true
			continue
		}
		cur := &next.Status.Conditions[i]
		if cur.Status == w.status && cur.Reason == w.reason {
			continue
		}
		if cur.Status != w.status {
			cur.LastTransitionTime = now
			if e := statusEvents[w.typ][w.status == api.ConditionTrue]; e != "" {
				events = append(events, e)
			}
		}
		cur.Status, cur.Reason, cur.Message, cur.LastHeartbeatTime = w.status, w.reason, w.message, now
		changed = true
	}
	if !changed {
		return false
	}
	for i := range next.Status.Conditions {
		next.Status.Conditions[i].LastHeartbeatTime = now
	}
	if c.Update(&next) != nil {
		return false
	}
	for _, e := range events {
		c.Record(&next, cluster.EventNormal, e, "Node "+n.Name+" status is now: "+e, "kubelet", n.Name)
	}
	return true
}

// noteSchedulable records, as the kubelet does when it next sets its node's status, that the
// node's spec.unschedulable changed since it last looked: a cordon is "Node hd2 status is now:
// NodeNotSchedulable", an uncordon "…: NodeSchedulable" (kubelet_node_status.go,
// recordNodeSchedulableEvent). The kubelet sets its node's status every 10s from its start
// (nodeStatusUpdateFrequency; DaemonLab keeps it in step with the lease renewals, without
// jitter), so the event comes up to 10s after the change. A kubelet starts out having seen a
// schedulable node: one restarted on a cordoned node records NodeNotSchedulable again.
func noteSchedulable(c *cluster.Cluster, n *api.Node, m cluster.Machine) bool {
	if n.Spec.Unschedulable == m.SawUnschedulable || !statusTick(m, c.Now()).Equal(c.Now()) {
		return false
	}
	m.SawUnschedulable = n.Spec.Unschedulable
	c.SetMachine(n.Name, m)
	e := map[bool]string{true: "NodeNotSchedulable", false: "NodeSchedulable"}[n.Spec.Unschedulable]
	c.Record(n, cluster.EventNormal, e, "Node "+n.Name+" status is now: "+e, "kubelet", n.Name)
	return true
}

// statusTick is when a running kubelet next sets its node's status: now, or the next tick of
// its 10s rhythm.
func statusTick(m cluster.Machine, now time.Time) time.Time {
	last := m.LastRenew(now)
	if last.Before(now) {
		return last.Add(cluster.RenewInterval)
	}
	return last
}

// differs reports whether some wanted condition is missing or has another status or reason.
func differs(have []api.NodeCondition, want []condition) bool {
	for _, w := range want {
		i := slices.IndexFunc(have, func(nc api.NodeCondition) bool { return nc.Type == w.typ })
		if i < 0 || have[i].Status != w.status || have[i].Reason != w.reason {
			return true
		}
	}
	return false
}

// statusEvents are the events the kubelet records when it posts a condition whose status
// changed (pkg/kubelet/nodestatus/setters.go), by condition and whether it is now True.
var statusEvents = map[api.NodeConditionType]map[bool]string{
	api.NodeMemoryPressure: {true: "NodeHasInsufficientMemory", false: "NodeHasSufficientMemory"},
	api.NodeDiskPressure:   {true: "NodeHasDiskPressure", false: "NodeHasNoDiskPressure"},
	api.NodePIDPressure:    {true: "NodeHasInsufficientPID", false: "NodeHasSufficientPID"},
	api.NodeReady:          {true: "NodeReady", false: "NodeNotReady"},
}

func hasCondition(n *api.Node, typ api.NodeConditionType) bool {
	return slices.ContainsFunc(n.Status.Conditions, func(c api.NodeCondition) bool { return c.Type == typ })
}
