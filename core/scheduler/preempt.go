package scheduler

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// preemption is what DefaultPreemption (the PostFilter of the default profile) decided for a pod
// no node fits: where it would fit once the victims are gone, or why it cannot preempt.
type preemption struct {
	node    string     // "" when nothing is preempted
	victims []*api.Pod // the pods to delete, most important first
	message string     // what follows the filter reasons in FailedScheduling
}

// preempt is DefaultPreemption's PostFilter (pkg/scheduler/framework/preemption):
//
//  1. A pod with preemptionPolicy Never may not preempt ("not eligible due to
//     preemptionPolicy=Never."), nor may one whose nominated node still has a lower-priority
//     pod terminating by preemption ("not eligible due to a terminating pod on the nominated
//     node.").
//  2. Candidates are the nodes that failed only for reasons removing pods can fix (resources);
//     on each, every pod of lower priority is a potential victim. If the pod does not fit even
//     without all of them, the node is no candidate ("No preemption victims found for incoming
//     pod" when there were none).
//  3. The potential victims, most important first (higher priority, then earlier start), are
//     added back one by one; one the pod still fits with is reprieved, the rest are victims.
//  4. Only a shortlist of the candidates competes (see shortlist).
//  5. The node is chosen by, in turn: the lowest highest victim priority, the lowest sum of
//     priorities, the fewest victims, the latest start among the highest-priority victims;
//     kube-scheduler breaks the last tie by map order, DaemonLab with its random source.
func preempt(c *cluster.Cluster, st *cycleState, infos []*nodeInfo, verdicts []verdict, nominated map[string][]*api.Pod) preemption {
	pod := st.pod
	if p := pod.Spec.PreemptionPolicy; p != nil && *p == "Never" {
		return preemption{message: "preemption: not eligible due to preemptionPolicy=Never."}
	}
	if nominated := pod.Status.NominatedNodeName; nominated != "" {
		for i, ni := range infos {
			if ni.node.Name == nominated && verdicts[i].code != unschedulableUnresolvable && terminatingVictim(pod, ni.pods) {
				return preemption{message: "preemption: not eligible due to a terminating pod on the nominated node."}
			}
		}
	}
	var potential []int
	for i := range infos {
		if verdicts[i].code == unschedulable {
			potential = append(potential, i)
		}
	}
	failures := map[string]int{}
	var candidates []candidate
	for at, i := range potential {
		victims, reasons := selectVictims(c, st, infos[i], nominated[infos[i].node.Name])
		if victims == nil {
			for _, r := range reasons {
				failures[r]++
			}
			continue
		}
		candidates = append(candidates, candidate{infos[i].node.Name, victims, at})
	}
	candidates = shortlist(c, candidates, len(potential))
	if len(candidates) == 0 {
		if absent := len(infos) - len(potential); absent > 0 {
			failures["Preemption is not helpful for scheduling"] += absent
		}
		return preemption{message: fmt.Sprintf("preemption: 0/%d nodes are available: %s.", len(infos), histogram(failures))}
	}
	scores := []func(victims []*api.Pod) int64{
		func(v []*api.Pod) int64 { return -int64(priority(v[0])) },
		func(v []*api.Pod) int64 {
			var sum int64
			for _, p := range v {
				sum += int64(priority(p)) + math.MaxInt32 + 1
			}
			return -sum
		},
		func(v []*api.Pod) int64 { return -int64(len(v)) },
		func(v []*api.Pod) int64 { return earliestStart(v).UnixNano() },
	}
	for _, score := range scores {
		best := int64(math.MinInt64)
		var kept []candidate
		for _, cand := range candidates {
			switch s := score(cand.victims); {
			case s > best:
				best, kept = s, []candidate{cand}
			case s == best:
				kept = append(kept, cand)
			}
		}
		candidates = kept
		if len(candidates) == 1 {
			break
		}
	}
	chosen := candidates[0]
	if len(candidates) > 1 {
		chosen = candidates[c.IntN(len(candidates))]
	}
	return preemption{node: chosen.node, victims: chosen.victims,
		message: fmt.Sprintf("preemption: found a potential placement for pod on node %v, preempting %d victims", chosen.node, len(chosen.victims))}
}

// candidate is a node preemption can make room on: its victims, and its place among the
// potential nodes.
type candidate struct {
	node    string
	victims []*api.Pod
	at      int
}

// numCandidates is how many candidates the dry run looks for among n potential nodes
// (DefaultPreemption's calculateNumCandidates with the default minCandidateNodesPercentage 10
// and minCandidateNodesAbsolute 100): 10% of them, at least 100, at most all of them.
func numCandidates(n int) int {
	return min(max(n*10/100, 100), n)
}

// shortlist is the candidates that compete (GetOffsetAndNumCandidates and DryRunPreemption):
//
//  1. kube-scheduler dry-runs the potential nodes from a random offset, going round, and stops
//     once it has numCandidates candidates; those compete.
//  2. DaemonLab dry-runs every potential node in order, and draws the offset only when stopping
//     would leave some candidates out (more than numCandidates): the same shortlist, and an
//     attempt that preempts nothing draws nothing, so a scheduler pass that changed nothing
//     changes nothing when run again, the random source included.
func shortlist(c *cluster.Cluster, candidates []candidate, potential int) []candidate {
	keep := numCandidates(potential)
	if len(candidates) <= keep {
		return candidates
	}
	offset := c.IntN(potential)
	first := sort.Search(len(candidates), func(i int) bool { return candidates[i].at >= offset })
	return slices.Concat(candidates[first:], candidates[:first])[:keep]
}

// selectVictims is SelectVictimsOnNode: the fewest, least important pods of lower priority
// among those on the node (in List order) whose removal lets the pod pass every filter there,
// with the pods nominated to it that it yields to (see runFiltersWithNominated), or nil and
// the reasons it cannot:
//
//  1. Every pod of lower priority is removed; if the pod still does not pass, the node is no
//     candidate, with the reasons of the filter that failed.
//  2. Most important first, each is added back; one the pod still passes with is reprieved.
func selectVictims(c *cluster.Cluster, st *cycleState, ni *nodeInfo, nominated []*api.Pod) ([]*api.Pod, []string) {
	var potential []*api.Pod
	for _, p := range ni.pods {
		if priority(p) < priority(st.pod) {
			potential = append(potential, p)
		}
	}
	if len(potential) == 0 {
		return nil, []string{"No preemption victims found for incoming pod"}
	}
	ni, st = ni.clone(), st.clone()
	for _, p := range potential {
		st.removePod(ni, p)
	}
	if v := runFiltersWithNominated(st, ni, nominated); v.code != fits {
		return nil, v.reasons
	}
	sort.SliceStable(potential, func(i, j int) bool { return moreImportant(potential[i], potential[j], c.Now()) })
	var victims []*api.Pod
	for _, p := range potential {
		st.addPod(ni, p)
		if runFiltersWithNominated(st, ni, nominated).code == fits {
			continue // reprieved
		}
		st.removePod(ni, p)
		victims = append(victims, p)
	}
	return victims, nil
}

// startTime is GetPodStartTime: status.startTime, or now for a pod that has not started.
func startTime(p *api.Pod, now time.Time) time.Time {
	if p.Status.StartTime != nil {
		return p.Status.StartTime.Time
	}
	return now
}

// moreImportant is MoreImportantPod: higher priority, then started earlier.
func moreImportant(a, b *api.Pod, now time.Time) bool {
	if pa, pb := priority(a), priority(b); pa != pb {
		return pa > pb
	}
	return startTime(a, now).Before(startTime(b, now))
}

// earliestStart is the earliest start among the victims of the highest priority.
func earliestStart(victims []*api.Pod) time.Time {
	top := priority(victims[0])
	var earliest time.Time
	for _, p := range victims {
		if priority(p) != top || p.Status.StartTime == nil {
			continue
		}
		if earliest.IsZero() || p.Status.StartTime.Before(earliest) {
			earliest = p.Status.StartTime.Time
		}
	}
	return earliest
}

// terminatingVictim reports whether a pod of lower priority among a node's pods (onNode) is
// terminating because the scheduler preempted it (its DisruptionTarget condition says so).
func terminatingVictim(pod *api.Pod, onNode []*api.Pod) bool {
	return slices.ContainsFunc(onNode, func(p *api.Pod) bool {
		return p.DeletionTimestamp != nil && priority(p) < priority(pod) &&
			slices.ContainsFunc(p.Status.Conditions, func(cond api.PodCondition) bool {
				return cond.Type == "DisruptionTarget" && cond.Status == api.ConditionTrue && cond.Reason == "PreemptionByScheduler"
			})
	})
}

// applyPreemption carries preemption out (the executor): each victim not already going gets
// the DisruptionTarget condition and is deleted gracefully, with the event Preempted about the
// victim as it was, related to the preemptor (preemption/executor.go PreemptPod); pods of
// lower priority nominated to the node lose their nomination; the preemptor is nominated.
func applyPreemption(c *cluster.Cluster, pod *api.Pod, p preemption) *api.Pod {
	for _, v := range p.victims {
		if v.DeletionTimestamp != nil {
			continue
		}
		next := api.DeepCopy(v)
		api.UpdatePodCondition(&next.Status, api.PodCondition{Type: "DisruptionTarget", ObservedGeneration: v.Generation, Status: api.ConditionTrue,
			Reason: "PreemptionByScheduler", Message: "default-scheduler: preempting to accommodate a higher priority pod"}, c.Now())
		if c.Update(next) != nil {
			continue
		}
		c.DeletePod(c.Get("Pod", cluster.Key{Namespace: v.Namespace, Name: v.Name}).(*api.Pod), nil)
		report(c, v, pod, cluster.EventNormal, "Preempted", "Preempting", fmt.Sprintf("Preempted by pod %v on node %v", pod.UID, p.node))
	}
	for other := range c.AllPods() {
		if other.Status.NominatedNodeName == p.node && other.UID != pod.UID && priority(other) < priority(pod) {
			next := api.DeepCopy(other)
			next.Status.NominatedNodeName = ""
			_ = c.Update(next)
		}
	}
	next := api.DeepCopy(pod)
	next.Status.NominatedNodeName = p.node
	return next
}
