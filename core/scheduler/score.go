package scheduler

import (
	"math"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

const maxNodeScore = 100

// scoreNodes scores the feasible nodes as the default profile's score plugins do, each
// normalized to 0–100 and weighted:
//
//  1. TaintToleration (weight 3): fewer untolerated PreferNoSchedule taints is better.
//  2. NodeAffinity (weight 2): the weights of the matching preferred terms.
//  3. PodTopologySpread (weight 2), with the system default constraint for pods of a
//     ReplicaSet: fewer of the ReplicaSet's pods on the node is better.
//  4. NodeResourcesFit (weight 1), LeastAllocated: more room left after the pod is better.
//  5. NodeResourcesBalancedAllocation (weight 1): cpu and memory used in step is better.
//
// Scoring counts 100m cpu and 200Mi memory for containers that request none. ImageLocality is
// not modelled (DaemonLab has no images to be local).
func scoreNodes(pod *api.Pod, feasible []*api.Node, usage, alloc map[string]requests, sp *spread) []int64 {
	n := len(feasible)
	taints, affinity, total := make([]int64, n), make([]int64, n), make([]int64, n)
	weight := math.Log(float64(n + 2))
	want := scoringRequests(pod)
	for i, node := range feasible {
		taints[i] = intolerablePreferNoSchedule(pod, node)
		affinity[i] = preferredAffinity(pod, node)
		total[i] = leastAllocated(want, usage[node.Name], alloc[node.Name]) + balanced(want, usage[node.Name], alloc[node.Name])
	}
	normalize(taints, true)
	normalize(affinity, false)
	for i := range feasible {
		total[i] += 3*taints[i] + 2*affinity[i]
	}
	if sp != nil {
		spreads := make([]int64, n)
		for i, node := range feasible {
			spreads[i] = int64(math.Round(float64(sp.onNode[node.Name])*weight + float64(3-1)))
		}
		normalizeSpread(spreads)
		for i := range feasible {
			total[i] += 2 * spreads[i]
		}
	}
	return total
}

// normalize is DefaultNormalizeScore: scaled so the highest is 100; reversed, so the lowest is.
func normalize(scores []int64, reverse bool) {
	var highest int64
	for _, s := range scores {
		highest = max(highest, s)
	}
	for n, s := range scores {
		switch {
		case highest == 0 && reverse:
			scores[n] = maxNodeScore
		case highest == 0:
		case reverse:
			scores[n] = maxNodeScore - maxNodeScore*s/highest
		default:
			scores[n] = maxNodeScore * s / highest
		}
	}
}

// normalizeSpread is PodTopologySpread's NormalizeScore: 100 × (max + min − score) / max.
func normalizeSpread(scores []int64) {
	lowest, highest := int64(math.MaxInt64), int64(0)
	for _, s := range scores {
		lowest, highest = min(lowest, s), max(highest, s)
	}
	for n, s := range scores {
		if highest == 0 {
			scores[n] = maxNodeScore
			continue
		}
		scores[n] = maxNodeScore * (highest + lowest - s) / highest
	}
}

func intolerablePreferNoSchedule(pod *api.Pod, n *api.Node) int64 {
	var count int64
	for i := range n.Spec.Taints {
		t := &n.Spec.Taints[i]
		if t.Effect != api.TaintEffectPreferNoSchedule {
			continue
		}
		tolerated := false
		for _, tol := range pod.Spec.Tolerations {
			if (tol.Effect == "" || tol.Effect == api.TaintEffectPreferNoSchedule) && tol.ToleratesTaint(t) {
				tolerated = true
			}
		}
		if !tolerated {
			count++
		}
	}
	return count
}

func preferredAffinity(pod *api.Pod, n *api.Node) int64 {
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil {
		return 0
	}
	var sum int64
	for _, pref := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
		spec := &api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{pref.Preference}}}}}
		if api.GetRequiredNodeAffinity(spec).Match(n) {
			sum += int64(pref.Weight)
		}
	}
	return sum
}

// spreadOf returns the counts of the system default topology spread constraint for pod: the
// bound pods, per node, that the selector of the ReplicaSet controlling it matches (DaemonSet
// pods get none), counted once per cycle and kept in step with its bindings.
func (cy *Cycle) spreadOf(pod *api.Pod) *spread {
	ref, ok := api.ControllerOf(&pod.ObjectMeta)
	if !ok || ref.Kind != "ReplicaSet" {
		return nil
	}
	key := cluster.Key{Namespace: pod.Namespace, Name: ref.Name}
	if sp, ok := cy.spreads[key]; ok {
		return sp
	}
	rs, ok := cy.c.Get("ReplicaSet", key).(*api.ReplicaSet)
	if !ok {
		return nil
	}
	sel, err := api.LabelSelectorAsSelector(rs.Spec.Selector)
	if err != nil {
		return nil
	}
	sp := &spread{namespace: pod.Namespace, selector: sel, onNode: map[string]int64{}}
	for p := range cy.c.AllPods() {
		if p.Namespace == pod.Namespace && p.DeletionTimestamp == nil && p.Spec.NodeName != "" && sel.Matches(p.Labels) {
			sp.onNode[p.Spec.NodeName]++
		}
	}
	cy.spreads[key] = sp
	return sp
}

// leastAllocated is LeastAllocated over cpu and memory: the share left free after the pod,
// averaged.
func leastAllocated(want, used, alloc requests) int64 {
	var sum int64
	for _, r := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
		a, req := alloc.get(r), used.get(r)+want.get(r)
		if a == 0 || req > a {
			continue
		}
		sum += (a - req) * maxNodeScore / a
	}
	return sum / 2
}

// balanced is NodeResourcesBalancedAllocation: how close the cpu and memory fractions are with
// the pod, against how close they were without it.
func balanced(want, used, alloc requests) int64 {
	score := func(r requests) int64 {
		var fractions []float64
		for _, name := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
			if a := alloc.get(name); a > 0 {
				fractions = append(fractions, min(1, float64(r.get(name))/float64(a)))
			}
		}
		std := 0.0
		if len(fractions) == 2 {
			std = math.Abs(fractions[0]-fractions[1]) / 2
		}
		return int64((1 - std) * maxNodeScore)
	}
	with := used
	with.add(want)
	return maxNodeScore/2 + (maxNodeScore/2+score(with)-score(used))/2
}
