package kubelet

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// The eviction manager's settings (kubelet defaults, Linux, v1.37).
const (
	EvictionPeriod           = 10 * time.Second // evictionMonitoringPeriod: one eviction per loop at most
	PressureTransitionPeriod = 5 * time.Minute  // evictionPressureTransitionPeriod
	hardEvictionGrace        = 1                // immediateEvictionGracePeriodSeconds (v1.31+)
)

var (
	// MemoryThreshold is evictionHard's memory.available<100Mi.
	MemoryThreshold = api.MustParseQuantity("100Mi")
	// pressureAvailable is what `sim fail NODE memory-pressure` leaves free while it lasts.
	pressureAvailable = api.MustParseQuantity("50Mi")
	// defaultUsage is the memory a container uses when `sim usage` has not said otherwise and it
	// requests none.
	defaultUsage = api.MustParseQuantity("50Mi")
)

// usages are the bytes of memory `sim usage` said each pod's containers use together, by pod.
var usages = cluster.NewMemo[cluster.Key, int64]("kubelet/usage")

// SetMemoryUsage records the memory a pod's containers use together (`sim usage`).
func SetMemoryUsage(c *cluster.Cluster, p *api.Pod, q api.Quantity) {
	usages.Set(c, cluster.Key{Namespace: p.Namespace, Name: p.Name}, q.Value())
}

// containerUsage returns each container's working set: the pod's `sim usage` split evenly, or
// each container's memory request (capped by its limit), or 50Mi for a container that requests
// none.
func containerUsage(c *cluster.Cluster, p *api.Pod) []int64 {
	out := make([]int64, len(p.Spec.Containers))
	if total, ok := usages.Get(c, cluster.Key{Namespace: p.Namespace, Name: p.Name}); ok {
		for i := range out {
			out[i] = total / int64(len(out))
		}
		return out
	}
	for i, ctr := range p.Spec.Containers {
		req, ok := ctr.Resources.Requests[api.ResourceMemory]
		switch {
		case ok && !req.IsZero():
			out[i] = req.Value()
		case hasLimit(ctr):
			out[i] = min(defaultUsage.Value(), ctr.Resources.Limits[api.ResourceMemory].Value())
		default:
			out[i] = defaultUsage.Value()
		}
	}
	return out
}

func hasLimit(ctr api.Container) bool {
	q, ok := ctr.Resources.Limits[api.ResourceMemory]
	return ok && !q.IsZero()
}

func memoryRequest(ctr api.Container) int64 {
	q := ctr.Resources.Requests[api.ResourceMemory]
	return q.Value()
}

// underPressure reports whether the node's memory.available is below the threshold now.
func underPressure(m cluster.Machine) bool {
	return !m.KubeletDown && slices.Contains(m.Faults, FaultMemoryPressure)
}

// pressureSeen is the last instant each node's kubelet saw memory pressure, by node.
var pressureSeen = cluster.NewMemo[string, time.Time]("kubelet/memory-pressure-seen")

// memoryPressure reports the MemoryPressure condition the kubelet reports: True while the
// threshold is met and for PressureTransitionPeriod after it was last seen met.
func memoryPressure(c *cluster.Cluster, node string) bool {
	seen, ok := pressureSeen.Get(c, node)
	return ok && c.Now().Before(seen.Add(PressureTransitionPeriod))
}

func lastLoop(now time.Time) time.Time {
	return cluster.Epoch.Add(now.Sub(cluster.Epoch) / EvictionPeriod * EvictionPeriod)
}

// evictionTimer returns when a node's eviction manager next has something to do: its next loop
// while memory is short, or the end of the transition period after it.
func evictionTimer(c *cluster.Cluster, node string, m cluster.Machine) (time.Time, bool) {
	if underPressure(m) {
		return lastLoop(c.Now()).Add(EvictionPeriod), true
	}
	if seen, ok := pressureSeen.Get(c, node); ok && c.Now().Before(seen.Add(PressureTransitionPeriod)) {
		return seen.Add(PressureTransitionPeriod), true
	}
	return time.Time{}, false
}

// evictForMemory is the eviction manager's synchronize loop for memory, run at its 10s loops:
// with memory.available below 100Mi it remembers seeing the pressure, reports
// EvictionThresholdMet, and evicts the first pod in rankMemoryPressure order (critical pods
// never). It returns whether anything changed.
func evictForMemory(c *cluster.Cluster, n *api.Node, m cluster.Machine) bool {
	now := c.Now()
	if !underPressure(m) || !now.Equal(lastLoop(now)) {
		return false
	}
	if seen, ok := pressureSeen.Get(c, n.Name); ok && seen.Equal(now) {
		return false // this loop already ran
	}
	pressureSeen.Set(c, n.Name, now)
	c.Record(n, cluster.EventWarning, "EvictionThresholdMet", "Attempting to reclaim memory", "kubelet", n.Name)
	var candidates []*api.Pod
	for p := range c.AllPods() {
		if p.Spec.NodeName == n.Name && api.IsPodActive(p) && p.Status.Phase == api.PodRunning && !isCritical(p) {
			candidates = append(candidates, p)
		}
	}
	if len(candidates) == 0 {
		return true
	}
	rankMemoryPressure(c, candidates)
	evict(c, candidates[0], evictionMessage(c, candidates[0]))
	return true
}

// rankMemoryPressure orders pods the first to evict first (orderedBy(exceedMemoryRequests,
// priority, memory)):
//
//  1. pods using more memory than they request come first;
//  2. then lower priority first;
//  3. then the larger usage above request first.
//
// QoS is no term of its own: a BestEffort pod requests nothing, so it always exceeds; a
// Guaranteed pod cannot use more than its limit, which is its request.
func rankMemoryPressure(c *cluster.Cluster, pods []*api.Pod) {
	type stat struct{ usage, request int64 }
	stats := map[*api.Pod]stat{}
	for _, p := range pods {
		var s stat
		for i, u := range containerUsage(c, p) {
			s.usage += u
			s.request += memoryRequest(p.Spec.Containers[i])
		}
		stats[p] = s
	}
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := stats[pods[i]], stats[pods[j]]
		if exA, exB := a.usage > a.request, b.usage > b.request; exA != exB {
			return exA
		}
		if pa, pb := priority(pods[i]), priority(pods[j]); pa != pb {
			return pa < pb
		}
		return a.usage-a.request > b.usage-b.request
	})
}

func priority(p *api.Pod) int32 {
	if p.Spec.Priority == nil {
		return 0
	}
	return *p.Spec.Priority
}

// evictionMessage is the eviction manager's message: the resource, the threshold and what was
// available, then every container above its request.
func evictionMessage(c *cluster.Cluster, p *api.Pod) string {
	msg := fmt.Sprintf("The node was low on resource: memory. Threshold quantity: %s, available: %s. ", MemoryThreshold.String(), pressureAvailable.String())
	for i, u := range containerUsage(c, p) {
		ctr := p.Spec.Containers[i]
		if req := memoryRequest(ctr); u > req {
			msg += fmt.Sprintf("Container %s was using %s, request is %s, has larger consumption of memory. ",
				ctr.Name, binary(u), ctr.Resources.Requests[api.ResourceMemory].String())
		}
	}
	return msg
}

// binary renders bytes as the kubelet's stats quantities print (BinarySI).
func binary(bytes int64) string {
	q := api.MustParseQuantity(strconv.FormatInt(bytes, 10))
	q.Format = api.BinarySI
	return q.Canonical()
}

// evict ends a pod as the eviction manager does: reason Evicted, the message as the pod's
// message, its DisruptionTarget's and its event's (see end).
func evict(c *cluster.Cluster, p *api.Pod, msg string) {
	end(c, p, "Evicted", msg, msg)
}

// end fails a pod the kubelet stops on its own (killPodNow with a status function): phase
// Failed, the reason and message, DisruptionTarget ("TerminationByKubelet", disruption),
// containers no longer ready, a Warning event of the reason and message, then the Killing
// event of each running container as the runtime stops it (kuberuntime killContainer). The containers'
// last reported state is kept, so kubectl shows the pod's reason ("Evicted"); on a real node a
// later status sync may replace it with the runtime's view (Error, ContainerStatusUnknown:
// kubernetes/kubernetes#105467).
func end(c *cluster.Cluster, p *api.Pod, reason, msg, disruption string) {
	now := api.NewTime(c.Now())
	next := api.DeepCopy(p)
	next.Status.Phase, next.Status.Reason, next.Status.Message = api.PodFailed, reason, msg
	api.UpdatePodCondition(&next.Status, api.PodCondition{Type: "DisruptionTarget", ObservedGeneration: p.Generation,
		Status: api.ConditionTrue, Reason: "TerminationByKubelet", Message: disruption}, c.Now())
	for i := range next.Status.Conditions {
		if t := next.Status.Conditions[i].Type; t == api.PodReady || t == api.ContainersReady {
			next.Status.Conditions[i] = api.PodCondition{Type: t, Status: api.ConditionFalse, LastTransitionTime: now, Reason: "PodFailed"}
		}
	}
	for i := range next.Status.ContainerStatuses {
		next.Status.ContainerStatuses[i].Ready = false
	}
	_ = updateStatus(c, next)
	c.Record(next, cluster.EventWarning, reason, msg, "kubelet", p.Spec.NodeName)
	recordKilling(c, p)
}

// pressureConditions are the eviction manager's node conditions: the pressures its signals
// (memory, disk, PIDs) report on the node, in its order.
func pressureConditions(c *cluster.Cluster, node string) []string {
	var out []string
	if memoryPressure(c, node) {
		out = append(out, "MemoryPressure")
	}
	if m, ok := c.Machine(node); ok {
		if slices.Contains(m.Faults, FaultDiskPressure) {
			out = append(out, "DiskPressure")
		}
		if slices.Contains(m.Faults, FaultPIDPressure) {
			out = append(out, "PIDPressure")
		}
	}
	return out
}

var memoryPressureTaint = api.Taint{Key: api.TaintNodeMemoryPressure, Effect: api.TaintEffectNoSchedule}

// evictionAdmit is the eviction manager's Admit (pkg/kubelet/eviction/eviction_manager.go):
//
//  1. Without pressure, or for a critical pod, it admits.
//  2. Under memory pressure alone, it admits a pod that is not BestEffort, and a BestEffort
//     pod that tolerates the memory-pressure taint (as DaemonSet pods do).
//  3. Under any other pressure it refuses every other pod: Evicted, "The node had condition:
//     [DiskPressure]. ".
func evictionAdmit(c *cluster.Cluster, p *api.Pod, node string) (rejection, bool) {
	conds := pressureConditions(c, node)
	switch {
	case len(conds) == 0 || isCritical(p):
		return rejection{}, false
	case len(conds) == 1 && conds[0] == "MemoryPressure" &&
		(api.ComputeQOS(&p.Spec) != api.QOSBestEffort || api.TolerationsTolerateTaint(p.Spec.Tolerations, &memoryPressureTaint)):
		return rejection{}, false
	}
	return rejection{"Evicted", "The node had condition: [" + strings.Join(conds, " ") + "]. "}, true
}
