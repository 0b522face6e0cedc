package kubelet

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/scheduler"
)

// rejection is why a kubelet refuses a pod (lifecycle.PodAdmitResult): the reason, which becomes
// the pod's status.reason and its event's reason, and the message.
type rejection struct{ reason, message string }

// The reasons a kubelet fails a pod it refuses with, besides OutOf<resource> and the names of
// the scheduler's filters it runs (lifecycle/predicate.go).
const (
	reasonOSLabel    = "PodOSSelectorNodeLabelDoesNotMatch"
	reasonOSField    = "PodOSNotSupported"
	reasonUnexpected = "UnexpectedAdmissionError"
	outOf            = "OutOf" // InsufficientResourcePrefix
)

// IsRefusal reports whether reason is one a kubelet fails a pod it refuses with (admission):
// OutOf<resource>, a filter's name, the operating system's, UnexpectedAdmissionError. The
// eviction manager refuses with Evicted, its reason for evictions too.
func IsRefusal(reason string) bool {
	switch reason {
	case reasonOSLabel, reasonOSField, reasonUnexpected, scheduler.NodeAffinity, scheduler.NodeName, scheduler.NodePorts, scheduler.TaintToleration:
		return true
	}
	return strings.HasPrefix(reason, outOf)
}

// rejecting are the pods a kubelet refused and will fail at admissionAt, by UID (a pointer:
// the memo shape the kubelet's mirror pods use already, so no more code is linked).
var rejecting = cluster.NewMemo[string, *rejection]("kubelet/rejecting")

// AdmissionDelay is how long after binding a refused pod is marked Failed: the kubelet's pod
// worker. It keeps a controller that recreates refused pods (a ReplicaSet whose template names
// a full node) from looping within one instant; in a real cluster such pods pile up just as they
// do here, only faster.
const AdmissionDelay = time.Second

// admissionAt returns when the kubelet fails a pod it refused.
func admissionAt(p *api.Pod) time.Time {
	t, ok := boundAt(p)
	if !ok {
		t = p.CreationTimestamp.Time
	}
	return t.Add(AdmissionDelay)
}

// awaitingAdmission reports whether the kubelet has yet to decide on a pod bound to its node:
// Pending, not deleted, without a container status, not refused.
func awaitingAdmission(c *cluster.Cluster, p *api.Pod) bool {
	if len(p.Status.ContainerStatuses) > 0 || p.Status.Phase != api.PodPending || p.DeletionTimestamp != nil {
		return false
	}
	_, refused := rejecting.Get(c, p.UID)
	return !refused
}

// admitNew is the kubelets' HandlePodAdditions for the pods awaiting admission on running
// kubelets' nodes (fresh, see awaitingAdmission):
//
//  1. The pods are taken oldest first (PodsByCreationTime; the store's order breaks ties).
//  2. Each is admitted (ContainerCreating, see admit) or refused (rejecting) against the pods
//     its node admitted before it: those with a container status that have not ended, the ones
//     admitted in this pass included (GetActivePods).
//
// It returns whether anything changed.
func admitNew(c *cluster.Cluster, fresh []*api.Pod) bool {
	if len(fresh) == 0 {
		return false
	}
	slices.SortStableFunc(fresh, func(a, b *api.Pod) int { return a.CreationTimestamp.Compare(b.CreationTimestamp.Time) })
	active := map[string][]*api.Pod{}
	for p := range c.AllPods() {
		if len(p.Status.ContainerStatuses) > 0 && !api.IsPodTerminal(p) {
			active[p.Spec.NodeName] = append(active[p.Spec.NodeName], p)
		}
	}
	nodes := map[string]*scheduler.NodePods{} // made as a node's first new pod needs it
	left := map[string]int{}                  // each node's new pods still to decide on
	for _, p := range fresh {
		left[p.Spec.NodeName]++
	}
	for _, p := range fresh {
		left[p.Spec.NodeName]--
		np := nodes[p.Spec.NodeName]
		if np == nil {
			np = scheduler.NewNodePods(c.Node(p.Spec.NodeName), active[p.Spec.NodeName])
			nodes[p.Spec.NodeName] = np
		}
		r, refused, victims := admission(c, p, np)
		if refused {
			rejecting.Set(c, p.UID, &r)
			continue
		}
		for _, v := range victims {
			preempt(c, v)
			np.Remove(v)
		}
		next := changing(p)
		admit(next, c.Node(p.Spec.NodeName), c.Now())
		if updateStatus(c, next) == nil && left[p.Spec.NodeName] > 0 {
			np.Add(next) // the node's next new pod is checked against this one too
		}
	}
	return true
}

// rejectAdmission is the kubelet's rejectPod for a refused pod (kubelet.go rejectPod, and the
// status manager's updateStatusInternal and mergePodStatus on the status it sets):
//
//  1. The status is replaced: phase Failed, the rejection's reason, "Pod was rejected: " and its
//     message, the QoS class, and a start time (the one the pod had, or now).
//  2. Conditions the kubelet owns go (PodScheduled among them, so a pod the scheduler bound
//     shows none); others stay.
//  3. A Warning event of the reason and message is recorded.
//
// It reports whether it changed the pod.
func rejectAdmission(c *cluster.Cluster, p *api.Pod, r rejection) bool {
	rejecting.Forget(c, p.UID)
	next := *p
	started := p.Status.StartTime
	if started == nil {
		now := api.NewTime(c.Now())
		started = &now
	}
	next.Status = api.PodStatus{Phase: api.PodFailed, Reason: r.reason, Message: rejectedPrefix + r.message,
		QOSClass: string(api.ComputeQOS(&p.Spec)), StartTime: started}
	for _, cond := range p.Status.Conditions {
		if !ownedByKubelet(cond.Type) {
			next.Status.Conditions = append(next.Status.Conditions, cond)
		}
	}
	_ = updateStatus(c, &next)
	c.Record(&next, cluster.EventWarning, r.reason, r.message, "kubelet", p.Spec.NodeName)
	return true
}

// rejectedPrefix begins the message of a pod the kubelet refused (rejectPod).
const rejectedPrefix = "Pod was rejected: "

// Refused returns the admit handler's message of a pod its kubelet refused (without
// rejectPod's "Pod was rejected: "), and whether it was refused.
func Refused(p *api.Pod) (string, bool) {
	msg, ok := strings.CutPrefix(p.Status.Message, rejectedPrefix)
	return msg, ok && p.Status.Phase == api.PodFailed
}

// ownedByKubelet is PodConditionByKubelet: the conditions only the kubelet sets.
func ownedByKubelet(t api.PodConditionType) bool {
	switch t {
	case api.PodScheduled, api.PodReady, api.PodInitialized, api.ContainersReady, "PodReadyToStartContainers", "PodResizeInProgress", "PodResizePending":
		return true
	}
	return false
}

// admission runs the kubelet's admit handlers on a pod for its node, where pods run already
// (allocation_manager canAdmitPod, in NewMainKubelet's order); the first that refuses decides:
//
//  1. The eviction manager refuses pods under node pressure (evictionAdmit).
//  2. The predicate handler (pkg/kubelet/lifecycle/predicate.go Admit) refuses
//     a. a pod labelled kubernetes.io/os other than the node's operating system, linux:
//     PodOSSelectorNodeLabelDoesNotMatch (the label, not the nodeSelector);
//     b. a pod whose spec.os names another operating system: PodOSNotSupported;
//     c. a pod the scheduler's admission check refuses (scheduler.NodePods.AdmissionCheck);
//     d. a pod that is not static and does not tolerate one of the node's NoExecute taints
//     (its NoSchedule and PreferNoSchedule taints do not count: only the scheduler reads them).
//     Of the failures of c and d the first is given: a resource the node lacks as OutOf<name>
//     ("Node didn't have enough resource: cpu, requested: 500, used: 3800, capacity: 4000",
//     milli-cpu, bytes or a count), any other as the filter's name ("Predicate NodePorts
//     failed: node(s) didn't have free ports for the requested pod ports").
//  3. A critical pod is never refused for resources alone: the kubelet preempts pods to make
//     room (preemptionVictims), and returns them; only when no set of pods would do is it
//     refused, with UnexpectedAdmissionError.
func admission(c *cluster.Cluster, p *api.Pod, np *scheduler.NodePods) (r rejection, refused bool, victims []*api.Pod) {
	node := np.Node()
	if r, refused := evictionAdmit(c, p, node.Name); refused {
		return r, true, nil
	}
	if os, ok := p.Labels[api.LabelOSStable]; ok && os != nodeOS {
		return rejection{reasonOSLabel, "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"}, true, nil
	}
	if p.Spec.OS != nil && p.Spec.OS.Name != nodeOS {
		return rejection{reasonOSField, "Failed to admit pod as the OS field doesn't match node OS"}, true, nil
	}
	failures := np.AdmissionCheck(p)
	if _, untolerated := api.FindMatchingUntoleratedTaint(node.Spec.Taints, p.Spec.Tolerations, func(t *api.Taint) bool { return t.Effect == api.TaintEffectNoExecute }); untolerated && !isStatic(p) {
		failures = append(failures, scheduler.AdmissionFailure{Plugin: scheduler.TaintToleration, Reason: "node(s) had taints that the pod didn't tolerate"})
	}
	if len(failures) == 0 {
		return rejection{}, false, nil
	}
	if isCritical(p) {
		var others []scheduler.AdmissionFailure
		var lacking requirements
		for _, f := range failures {
			if r := f.Insufficient; r != nil {
				lacking = append(lacking, requirement{r.Name, r.Requested - (r.Capacity - r.Used)})
			} else {
				others = append(others, f)
			}
		}
		if len(others) == 0 {
			victims, short := preemptionVictims(p, np.Pods(), lacking)
			if len(short) > 0 {
				return rejection{reasonUnexpected, "Unexpected error while attempting to recover from admission failure: " +
					"preemption: error finding a set of pods to preempt: no set of running pods found to reclaim resources: " + short.String()}, true, nil
			}
			return rejection{}, false, victims
		}
		failures = others
	}
	f := failures[0]
	if r := f.Insufficient; r != nil {
		return rejection{outOf + string(r.Name), fmt.Sprintf("Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d", r.Name, r.Requested, r.Used, r.Capacity)}, true, nil
	}
	return rejection{f.Plugin, "Predicate " + f.Plugin + " failed: " + f.Reason}, true, nil
}

// nodeOS is the operating system of every DaemonLab node, the one the kubelet runs on
// (runtime.GOOS in its admission checks).
const nodeOS = "linux"

// isStatic is IsStaticPod: a pod a kubelet read from a file (its config source is not the API
// server), as a static pod's mirror pod says.
func isStatic(p *api.Pod) bool {
	source, ok := p.Annotations[api.AnnotationConfigSource]
	return ok && source != "api"
}

// isCritical is IsCriticalPod: a static pod, a mirror pod, or a priority of 2000000000 or more
// (system-cluster-critical, system-node-critical).
func isCritical(p *api.Pod) bool {
	return isStatic(p) || api.IsMirrorPod(p) || p.Spec.Priority != nil && *p.Spec.Priority >= 2000000000
}

// requirement is an amount of one resource a critical pod still lacks (admissionRequirement).
type requirement struct {
	name     api.ResourceName
	quantity int64
}

type requirements []requirement

// asks are the preemption candidates' requests of memory and cpu (the tie-break's) and of the
// resources lacking, each read once (resource.GetResourceRequest): the choice weighs every
// candidate again in every round.
type asks struct {
	names []api.ResourceName // memory, cpu, then the resources lacking
	of    map[*api.Pod][]int64
}

// get is what pod p requests of the resource.
//
//go:noinline
func (a asks) get(p *api.Pod, name api.ResourceName) int64 {
	return a.of[p][slices.Index(a.names, name)]
}

// String is how the kubelet prints what it could not free: "[(res: cpu, q: 500), ]".
func (rs requirements) String() string {
	s := "["
	for _, r := range rs {
		s += "(res: " + string(r.name) + ", q: " + strconv.FormatInt(r.quantity, 10) + "), "
	}
	return s + "]"
}

// subtract is what is still lacking once the pods, of any of the lists, are preempted.
func (rs requirements) subtract(a asks, lists ...[]*api.Pod) requirements {
	var out requirements
	for _, r := range rs {
		q := r.quantity
		for _, pods := range lists {
			for _, p := range pods {
				q -= a.get(p, r.name)
			}
		}
		if q > 0 {
			out = append(out, requirement{r.name, q})
		}
	}
	return out
}

// distance is how far preempting the pod leaves from freeing what is lacking: the sum over the
// requirements of the squared fraction it leaves unfreed.
func (rs requirements) distance(a asks, p *api.Pod) float64 {
	d := 0.0
	for _, r := range rs {
		if left := float64(r.quantity - a.get(p, r.name)); left > 0 {
			f := left / float64(r.quantity)
			d += f * f // math.Pow(f, 2), which rounds alike
		}
	}
	return d
}

// preemptionVictims is the kubelet's choice of pods to preempt so that a critical pod fits
// (pkg/kubelet/preemption/preemption.go getPodsToPreempt):
//
//  1. What is lacking is, for each resource the node lacks, the request less what is free
//     (InsufficientResourceError.GetInsufficientAmount).
//  2. The candidates are the pods the critical pod may preempt (kubetypes.Preemptable: one
//     that is not critical, or one of lower priority), by QoS class.
//  3. If all of them together cannot free it, none is chosen and the rest is returned.
//  4. Otherwise the Guaranteed pods needed once every BestEffort and Burstable pod is gone are
//     chosen, then the Burstable pods needed once the BestEffort ones and those are gone, then
//     the BestEffort pods needed once those are gone; in each class, one pod at a time, the one
//     closest to what is still lacking (requirements.distance), the smaller request (memory,
//     then cpu) on a tie.
func preemptionVictims(critical *api.Pod, pods []*api.Pod, lacking requirements) ([]*api.Pod, requirements) {
	var bestEffort, burstable, guaranteed []*api.Pod
	a := asks{names: []api.ResourceName{api.ResourceMemory, api.ResourceCPU}, of: map[*api.Pod][]int64{}}
	for _, r := range lacking {
		a.names = append(a.names, r.name)
	}
	for _, p := range pods {
		if !preemptable(critical, p) {
			continue
		}
		a.of[p] = scheduler.PodRequestsOf(p, a.names)
		switch api.ComputeQOS(&p.Spec) {
		case api.QOSBestEffort:
			bestEffort = append(bestEffort, p)
		case api.QOSBurstable:
			burstable = append(burstable, p)
		default:
			guaranteed = append(guaranteed, p)
		}
	}
	if rest := lacking.subtract(a, bestEffort, burstable, guaranteed); len(rest) > 0 {
		return nil, rest
	}
	g := closest(a, guaranteed, lacking.subtract(a, bestEffort, burstable))
	b := closest(a, burstable, lacking.subtract(a, bestEffort, g))
	be := closest(a, bestEffort, lacking.subtract(a, b, g))
	return append(append(be, b...), g...), nil
}

// closest picks pods one at a time until nothing is lacking (getPodsToPreemptByDistance):
// the nearest by distance, the smaller request on a tie, the last seen among equals; a picked
// pod's place is taken by the last. The caller made sure the pods suffice.
func closest(a asks, pods []*api.Pod, lacking requirements) []*api.Pod {
	pods = slices.Clone(pods)
	var out []*api.Pod
	for len(lacking) > 0 && len(pods) > 0 {
		best, bestDist := 0, float64(len(lacking)+1)
		for i, p := range pods {
			if d := lacking.distance(a, p); d < bestDist || d == bestDist && !a.largerRequest(p, pods[best]) {
				best, bestDist = i, d
			}
		}
		lacking = lacking.subtract(a, pods[best:best+1])
		out = append(out, pods[best])
		pods[best] = pods[len(pods)-1]
		pods = pods[:len(pods)-1]
	}
	return out
}

// largerRequest reports whether p requests more than q: more memory, or as much and more cpu
// (the negation of smallerResourceRequest, which holds on equal requests).
func (a asks) largerRequest(p, q *api.Pod) bool {
	for i := range 2 { // memory, then cpu: smallerResourceRequest's order
		if rp, rq := a.of[p][i], a.of[q][i]; rp != rq {
			return rp > rq
		}
	}
	return false
}

// preemptable is kubetypes.Preemptable: a critical pod may preempt one that is not; otherwise a
// pod may preempt one of lower priority, when both have one.
func preemptable(preemptor, p *api.Pod) bool {
	if isCritical(preemptor) && !isCritical(p) {
		return true
	}
	return preemptor.Spec.Priority != nil && p.Spec.Priority != nil && *preemptor.Spec.Priority > *p.Spec.Priority
}

// preempt fails a pod the kubelet preempts for a critical pod: reason Preempting, "Preempted in
// order to admit critical pod", DisruptionTarget ("Pod was preempted by Kubelet to accommodate
// a critical pod."), and the event Preempting.
func preempt(c *cluster.Cluster, p *api.Pod) {
	end(c, p, "Preempting", "Preempted in order to admit critical pod", "Pod was preempted by Kubelet to accommodate a critical pod.")
}

// Admission is what a node's kubelet decides on a pod bound to it while it runs the given pods
// (see admission): the reason and message the pod fails with, "" when it is admitted, and the
// pods the kubelet preempts first to admit it.
func Admission(c *cluster.Cluster, pod *api.Pod, node *api.Node, running []*api.Pod) (reason, message string, preempted []*api.Pod) {
	r, _, victims := admission(c, pod, scheduler.NewNodePods(node, running))
	return r.reason, r.message, victims
}
