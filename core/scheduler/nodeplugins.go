package scheduler

import (
	"daemonlab/core/api"
)

// nodeUnschedulable is NodeUnschedulable's Filter: a cordoned node takes no pod unless the pod
// tolerates node.kubernetes.io/unschedulable:NoSchedule — "node(s) were unschedulable"
// (pkg/scheduler/framework/plugins/nodeunschedulable).
type nodeUnschedulable struct{}

func (nodeUnschedulable) name() string { return NodeUnschedulable }

var unschedulableToleration = api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}

func (nodeUnschedulable) filter(st *cycleState, ni *nodeInfo) verdict {
	if ni.node.Spec.Unschedulable && !api.TolerationsTolerateTaint(st.pod.Spec.Tolerations, &unschedulableToleration) {
		return unresolvable("node(s) were unschedulable")
	}
	return verdict{code: fits}
}

// taintToleration is TaintToleration (pkg/scheduler/framework/plugins/tainttoleration):
//
//  1. Filter: an untolerated NoSchedule or NoExecute taint rejects the node — "node(s) had
//     untolerated taint(s)" (v1.35 wording).
//  2. Score: the untolerated PreferNoSchedule taints, counting only tolerations whose effect is
//     empty or PreferNoSchedule; normalized reversed, so the fewest score 100.
type taintToleration struct{}

func (taintToleration) name() string  { return TaintToleration }
func (taintToleration) weight() int64 { return 3 }

func (taintToleration) filter(st *cycleState, ni *nodeInfo) verdict {
	if _, ok := api.FindMatchingUntoleratedTaint(ni.node.Spec.Taints, st.pod.Spec.Tolerations, doNotScheduleTaint); ok {
		return unresolvable("node(s) had untolerated taint(s)")
	}
	return verdict{code: fits}
}

// doNotScheduleTaint picks the taints that keep a pod off a node, NoSchedule and NoExecute
// (helper.DoNotScheduleTaintsFilterFunc).
func doNotScheduleTaint(t *api.Taint) bool {
	return t.Effect == api.TaintEffectNoSchedule || t.Effect == api.TaintEffectNoExecute
}

func (taintToleration) score(st *cycleState, feasible []*nodeInfo) []int64 {
	var tolerations []api.Toleration
	for _, t := range st.pod.Spec.Tolerations {
		if t.Effect == "" || t.Effect == api.TaintEffectPreferNoSchedule {
			tolerations = append(tolerations, t)
		}
	}
	scores := make([]int64, len(feasible))
	for i, ni := range feasible {
		for j := range ni.node.Spec.Taints {
			if t := &ni.node.Spec.Taints[j]; t.Effect == api.TaintEffectPreferNoSchedule && !api.TolerationsTolerateTaint(tolerations, t) {
				scores[i]++
			}
		}
	}
	normalize(scores, true)
	return scores
}

// nodeAffinity is NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity):
//
//  1. PreFilter: a pod whose every required term pins metadata.name (as DaemonSet pods are)
//     only considers those nodes (pinnedNodes); the others are not filtered and "didn't
//     satisfy plugin(s) [NodeAffinity]" (runFilters).
//  2. Filter: nodeSelector and required node affinity — "node(s) didn't match Pod's node
//     affinity/selector".
//  3. Score: the sum of the weights of the preferred terms the node matches, normalized so the
//     highest is 100; skipped for a pod without preferred terms.
type nodeAffinity struct{}

func (nodeAffinity) name() string  { return NodeAffinity }
func (nodeAffinity) weight() int64 { return 2 }

func (nodeAffinity) filter(st *cycleState, ni *nodeInfo) verdict {
	if !api.GetRequiredNodeAffinity(&st.pod.Spec).Match(ni.node) {
		return unresolvable("node(s) didn't match Pod's node affinity/selector")
	}
	return verdict{code: fits}
}

func (nodeAffinity) score(st *cycleState, feasible []*nodeInfo) []int64 {
	a := st.pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || len(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) == 0 {
		return nil
	}
	scores := make([]int64, len(feasible))
	for i, ni := range feasible {
		for _, pref := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			spec := &api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{pref.Preference}}}}}
			if api.GetRequiredNodeAffinity(spec).Match(ni.node) {
				scores[i] += int64(pref.Weight)
			}
		}
	}
	normalize(scores, false)
	return scores
}

// pinnedNodes returns the node names NodeAffinity's PreFilter narrows the pod to, or nil.
func pinnedNodes(pod *api.Pod) map[string]bool {
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return nil
	}
	names := map[string]bool{}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		found := false
		for _, f := range term.MatchFields {
			if f.Key == "metadata.name" && f.Operator == api.NodeSelectorOpIn {
				for _, v := range f.Values {
					names[v] = true
				}
				found = true
			}
		}
		if !found {
			return nil
		}
	}
	return names
}

func unresolvable(reason string) verdict {
	return verdict{code: unschedulableUnresolvable, reasons: []string{reason}}
}
