// Package nodelifecycle is kube-controller-manager's node lifecycle controller: it watches node
// heartbeats, marks a silent node's conditions Unknown, turns node conditions into taints, and
// marks the pods of a node that stops being Ready as not Ready. Upstream:
// pkg/controller/nodelifecycle/node_lifecycle_controller.go.
package nodelifecycle

import (
	"slices"
	"sort"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// The controller's timing (kube-controller-manager defaults, v1.37).
const (
	MonitorPeriod    = 5 * time.Second  // --node-monitor-period
	GracePeriod      = 50 * time.Second // --node-monitor-grace-period (40s before v1.32)
	EvictionInterval = 10 * time.Second // --node-eviction-rate 0.1 nodes/s per zone, burst 1
	component        = "node-controller"
)

// lastTick returns the latest monitor pass at or before now (passes run every MonitorPeriod from
// the start of the simulation).
func lastTick(now time.Time) time.Time {
	return cluster.Epoch.Add(now.Sub(cluster.Epoch) / MonitorPeriod * MonitorPeriod)
}

// nextTickAfter returns the first monitor pass strictly after t.
func nextTickAfter(t time.Time) time.Time {
	return lastTick(t).Add(MonitorPeriod)
}

func readyCondition(n *api.Node) (api.NodeCondition, bool) {
	for _, c := range n.Status.Conditions {
		if c.Type == api.NodeReady {
			return c, true
		}
	}
	return api.NodeCondition{}, false
}

// probe returns when the controller last heard from the node: its lease renewal or its Ready
// condition's heartbeat, whichever is later (tryUpdateNodeHealth's probeTimestamp).
func probe(c *cluster.Cluster, n *api.Node) time.Time {
	t := n.CreationTimestamp.Time
	if m, ok := c.Machine(n.Name); ok {
		t = m.LastRenew(c.Now())
	}
	if r, ok := readyCondition(n); ok && r.LastHeartbeatTime.After(t) {
		t = r.LastHeartbeatTime.Time
	}
	return t
}

// NextTimer returns the earliest instant the controller has something to do: a monitor pass that
// will find a silent node past its grace period, a pass that clears a recovered node's NoExecute
// taint, or the rate limiter letting the next NoExecute taint through.
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var next time.Time
	found := false
	consider := func(t time.Time) {
		if !found || t.Before(next) {
			next, found = t, true
		}
	}
	for n := range c.AllNodes() {
		if t, ok := UnknownAt(c, n); ok {
			consider(t)
		}
		r, _ := readyCondition(n)
		if r.Status == api.ConditionTrue && hasNoExecuteHealthTaint(n) {
			consider(lastTick(r.LastTransitionTime.Time.Add(MonitorPeriod - time.Nanosecond)))
		}
	}
	for _, zone := range waitingZones(c) {
		if t, ok := lastTaint.Get(c, zone); ok {
			consider(t.Add(EvictionInterval))
		}
	}
	return next, found
}

// UnknownAt is when the controller marks a silent node's conditions Unknown (step 1 of Sync):
// at the first monitor pass past the grace period after it last heard from the node, whose
// kubelet is stopped and whose Ready condition is not Unknown already.
func UnknownAt(c *cluster.Cluster, n *api.Node) (time.Time, bool) {
	r, _ := readyCondition(n)
	if m, ok := c.Machine(n.Name); !ok || !m.KubeletDown || r.Status == api.ConditionUnknown {
		return time.Time{}, false
	}
	return nextTickAfter(probe(c, n).Add(GracePeriod)), true
}

// Sync runs the controller at the current instant:
//
//  1. Health (monitorNodeHealth, at each monitor pass): a node not heard from for longer than
//     the grace period gets Ready, MemoryPressure, DiskPressure and PIDPressure Unknown
//     ("NodeStatusUnknown", "Kubelet stopped posting node status.").
//  2. A Ready node that stops being Ready gets the event NodeNotReady, and its pods Ready=False
//     with the pod event NodeNotReady. (NodeReady, when it is Ready again, is the kubelet's.)
//  3. NoSchedule taints follow the conditions at once (doNoScheduleTaintingPass).
//  4. NoExecute taints follow Ready through the rate limiter (doNoExecuteTaintingPass): not-ready
//     for False, unreachable for Unknown, swapped at once; cleared at the monitor pass after the
//     node is Ready again.
//
// Steps 1 to 3 read only the node, its machine, the controller's memory of it and the clock, so
// a pass at the instant of the one that began at since visits only the nodes changed after it
// (cluster.ChangedNodes), as upstream's informer hands a new node to its handlers rather than
// monitoring every node again. It returns whether anything changed.
func Sync(c *cluster.Cluster, since cluster.Since) bool {
	changed := false
	for n := range c.ChangedNodes(since) {
		changed = markUnknown(c, n) || changed
	}
	for n := range c.ChangedNodes(since) {
		changed = noticeReadyChange(c, n) || changed
	}
	for n := range c.ChangedNodes(since) {
		changed = setTaints(c, n, noScheduleTaints(n), isNoScheduleHealthTaint) || changed
	}
	changed = noExecuteTaintingPass(c) || changed
	return changed
}

// markUnknown is step 1.
func markUnknown(c *cluster.Cluster, n *api.Node) bool {
	tick := lastTick(c.Now())
	r, ok := readyCondition(n)
	if ok && r.Status == api.ConditionUnknown || !tick.After(probe(c, n).Add(GracePeriod)) {
		return false
	}
	next := api.DeepCopy(n)
	at := api.NewTime(tick)
	for _, typ := range []api.NodeConditionType{api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure, api.NodeReady} {
		i := slices.IndexFunc(next.Status.Conditions, func(c api.NodeCondition) bool { return c.Type == typ })
		if i < 0 {
			next.Status.Conditions = append(next.Status.Conditions, api.NodeCondition{Type: typ, Status: api.ConditionUnknown,
				LastTransitionTime: at, Reason: "NodeStatusNeverUpdated", Message: "Kubelet never posted node status."})
			continue
		}
		cur := &next.Status.Conditions[i]
		if cur.Status != api.ConditionUnknown {
			cur.LastTransitionTime = at
		}
		cur.Status, cur.Reason, cur.Message = api.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status."
	}
	return c.Update(next) == nil
}

// readySeen is the Ready status the controller last saw on each node, by node.
var readySeen = cluster.NewMemo[string, api.ConditionStatus]("nodelifecycle/ready")

// noticeReadyChange is step 2; the Ready status last seen is the controller's memory.
func noticeReadyChange(c *cluster.Cluster, n *api.Node) bool {
	r, _ := readyCondition(n)
	seen, _ := readySeen.Get(c, n.Name)
	if seen == r.Status {
		return false
	}
	readySeen.Set(c, n.Name, r.Status)
	if seen == api.ConditionTrue && r.Status != api.ConditionTrue {
		c.Record(n, cluster.EventNormal, "NodeNotReady", "Node "+n.Name+" status is now: NodeNotReady", component, "")
		markPodsNotReady(c, n.Name)
	}
	return true
}

// markPodsNotReady sets Ready=False on every pod of the node, the condition otherwise as it was
// (MarkPodsNotReady, pkg/controller/util/node/controller_utils.go: its observedGeneration too).
func markPodsNotReady(c *cluster.Cluster, node string) {
	for p := range c.AllPods() {
		if p.Spec.NodeName != node {
			continue
		}
		next := api.DeepCopy(p)
		for i := range next.Status.Conditions {
			if next.Status.Conditions[i].Type == api.PodReady && next.Status.Conditions[i].Status != api.ConditionFalse {
				next.Status.Conditions[i].Status, next.Status.Conditions[i].LastTransitionTime = api.ConditionFalse, api.NewTime(c.Now())
			}
		}
		_ = c.Update(next)
		c.Record(next, cluster.EventWarning, "NodeNotReady", "Node is not ready", component, "")
	}
}

// noScheduleTaints maps conditions to taints (nodeConditionToTaintKeyStatusMap, and cordon).
func noScheduleTaints(n *api.Node) []string {
	var keys []string
	for _, cond := range n.Status.Conditions {
		switch {
		case cond.Type == api.NodeReady && cond.Status == api.ConditionFalse:
			keys = append(keys, api.TaintNodeNotReady)
		case cond.Type == api.NodeReady && cond.Status == api.ConditionUnknown:
			keys = append(keys, api.TaintNodeUnreachable)
		case cond.Type == api.NodeMemoryPressure && cond.Status == api.ConditionTrue:
			keys = append(keys, api.TaintNodeMemoryPressure)
		case cond.Type == api.NodeDiskPressure && cond.Status == api.ConditionTrue:
			keys = append(keys, api.TaintNodeDiskPressure)
		case cond.Type == api.NodePIDPressure && cond.Status == api.ConditionTrue:
			keys = append(keys, api.TaintNodePIDPressure)
		case cond.Type == api.NodeNetworkUnavailable && cond.Status == api.ConditionTrue:
			keys = append(keys, api.TaintNodeNetworkUnavailable)
		}
	}
	if n.Spec.Unschedulable {
		keys = append(keys, api.TaintNodeUnschedulable)
	}
	return keys
}

var noScheduleKeys = []string{api.TaintNodeNotReady, api.TaintNodeUnreachable, api.TaintNodeUnschedulable, api.TaintNodeMemoryPressure, api.TaintNodeDiskPressure, api.TaintNodePIDPressure, api.TaintNodeNetworkUnavailable}

func isNoScheduleHealthTaint(t api.Taint) bool {
	return t.Effect == api.TaintEffectNoSchedule && slices.Contains(noScheduleKeys, t.Key)
}

func isNoExecuteHealthTaint(t api.Taint) bool {
	return t.Effect == api.TaintEffectNoExecute && (t.Key == api.TaintNodeNotReady || t.Key == api.TaintNodeUnreachable)
}

func hasNoExecuteHealthTaint(n *api.Node) bool {
	return slices.ContainsFunc(n.Spec.Taints, isNoExecuteHealthTaint)
}

// setTaints makes the node's taints that owned says are the controller's exactly the keys given
// (with owned's effect), keeping the others; added taints carry timeAdded = now
// (SwapNodeControllerTaint).
func setTaints(c *cluster.Cluster, n *api.Node, keys []string, owned func(api.Taint) bool) bool {
	effect := api.TaintEffectNoSchedule
	if owned(api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}) {
		effect = api.TaintEffectNoExecute
	}
	var taints []api.Taint
	have := map[string]bool{}
	for _, t := range n.Spec.Taints {
		if owned(t) && !slices.Contains(keys, t.Key) {
			continue
		}
		have[t.Key+":"+string(t.Effect)] = true
		taints = append(taints, t)
	}
	for _, k := range keys {
		if !have[k+":"+string(effect)] {
			now := api.NewTime(c.Now())
			taints = append(taints, api.Taint{Key: k, Effect: effect, TimeAdded: &now})
		}
	}
	if len(taints) == len(n.Spec.Taints) && slices.EqualFunc(taints, n.Spec.Taints, func(a, b api.Taint) bool { return a.Key == b.Key && a.Effect == b.Effect }) {
		return false
	}
	next := api.DeepCopy(n)
	next.Spec.Taints = taints
	return c.Update(next) == nil
}

// zoneOf returns a node's zone key (region and zone labels; "" when unlabelled).
func zoneOf(n *api.Node) string {
	return n.Labels["topology.kubernetes.io/region"] + "\x00" + n.Labels["topology.kubernetes.io/zone"]
}

// lastTaint is when each zone's rate limiter last let a NoExecute taint through, by zone key.
var lastTaint = cluster.NewMemo[string, time.Time]("nodelifecycle/zone/last-taint")

type zoneState int

const (
	zoneNormal zoneState = iota
	zonePartialDisruption
	zoneFullDisruption
)

// zones group the nodes by zone, readyZones the Ready ones.
var (
	zones      = cluster.NewGroups("Node", func(obj api.Object) (string, bool) { return zoneOf(obj.(*api.Node)), true })
	readyZones = cluster.NewGroups("Node", func(obj api.Object) (string, bool) {
		r, _ := readyCondition(obj.(*api.Node))
		return zoneOf(obj.(*api.Node)), r.Status == api.ConditionTrue
	})
)

// zoneStates classifies every zone by its nodes' Ready conditions (ComputeZoneState): no Ready
// node and some not Ready is a full disruption; more than 2 not Ready making up at least 55% is
// a partial one. It returns the states and the zones' sizes.
func zoneStates(c *cluster.Cluster) (map[string]zoneState, map[string]int) {
	sizes, ready := zones.Sizes(c), readyZones.Sizes(c)
	states := make(map[string]zoneState, len(sizes))
	for z, size := range sizes {
		notReady := size - ready[z]
		switch {
		case ready[z] == 0 && notReady > 0:
			states[z] = zoneFullDisruption
		case notReady > 2 && float64(notReady)/float64(size) >= 0.55:
			states[z] = zonePartialDisruption
		default:
			states[z] = zoneNormal
		}
	}
	return states, sizes
}

// wantNoExecute returns the NoExecute health taint the node's Ready condition calls for, or "".
func wantNoExecute(n *api.Node) string {
	switch r, _ := readyCondition(n); r.Status {
	case api.ConditionFalse:
		return api.TaintNodeNotReady
	case api.ConditionUnknown:
		return api.TaintNodeUnreachable
	}
	return ""
}

// tainting groups (under "") the nodes step 4 has something to decide about: those whose Ready
// condition wants a NoExecute taint, and those that have one. For any other node no rule of
// noExecuteTaintingPass does anything, whatever its zone's state.
var tainting = cluster.NewGroups("Node", func(obj api.Object) (string, bool) {
	n := obj.(*api.Node)
	return "", wantNoExecute(n) != "" || hasNoExecuteHealthTaint(n)
})

// waitingZones returns the zones with a node whose NoExecute taint waits for the rate limiter.
func waitingZones(c *cluster.Cluster) []string {
	var waiting []string
	for _, k := range tainting.Members(c, "") {
		n := c.Node(k.Name)
		if !hasNoExecuteHealthTaint(n) && !slices.Contains(waiting, zoneOf(n)) {
			waiting = append(waiting, zoneOf(n))
		}
	}
	sort.Strings(waiting)
	return waiting
}

// noExecuteTaintingPass is step 4, with the zone rules of upstream's handleDisruption and
// ComputeZoneState:
//
//  1. A node that already has the opposite NoExecute taint is swapped at once.
//  2. Otherwise a new NoExecute taint waits for the zone's rate limiter: the first at once, then
//     one node every EvictionInterval.
//  3. A partially disrupted zone of at most 50 nodes gets no new NoExecute taints.
//  4. When every zone is fully disrupted, no node keeps a NoExecute health taint.
//  5. A node Ready again loses its NoExecute taint at the next monitor pass.
//
// It visits the tainting nodes only, in name order.
func noExecuteTaintingPass(c *cluster.Cluster) bool {
	states, sizes := zoneStates(c)
	allDisrupted := len(states) > 0
	for _, s := range states {
		allDisrupted = allDisrupted && s == zoneFullDisruption
	}
	changed := false
	for _, k := range tainting.Members(c, "") {
		n := c.Node(k.Name)
		want, zone := wantNoExecute(n), zoneOf(n)
		switch {
		case allDisrupted || want == "" && readySincePass(c, n):
			changed = setTaints(c, n, nil, isNoExecuteHealthTaint) || changed
		case want == "":
		case hasNoExecuteHealthTaint(n):
			changed = setTaints(c, n, []string{want}, isNoExecuteHealthTaint) || changed
		case states[zone] == zonePartialDisruption && sizes[zone] <= 50:
		case rateAllows(c, zone):
			lastTaint.Set(c, zone, c.Now())
			changed = setTaints(c, n, []string{want}, isNoExecuteHealthTaint) || changed
		}
	}
	return changed
}

// readySincePass reports whether a monitor pass has seen the node Ready.
func readySincePass(c *cluster.Cluster, n *api.Node) bool {
	r, _ := readyCondition(n)
	return r.Status == api.ConditionTrue && !lastTick(c.Now()).Before(r.LastTransitionTime.Time)
}

func rateAllows(c *cluster.Cluster, zone string) bool {
	last, ok := lastTaint.Get(c, zone)
	return !ok || !c.Now().Before(last.Add(EvictionInterval))
}
