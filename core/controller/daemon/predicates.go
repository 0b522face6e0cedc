// Package daemon is the DaemonSet controller, shaped like kube-controller-manager's
// pkg/controller/daemon: for every DaemonSet it decides which nodes should run a daemon pod
// (NodeShouldRunDaemonPod), plans the pods to create and delete (Manage and rollingPlan return
// a Plan and change nothing), and applies the plan to the cluster (Apply); Sync is one whole
// sync, history and status included.
package daemon

import (
	"errors"
	"fmt"

	"daemonlab/core/api"
)

// NodeShouldRunDaemonPod decides whether ds wants a pod on node, as upstream's function of the
// same name (pkg/controller/daemon/daemon_controller.go); Decide says why.
func NodeShouldRunDaemonPod(node *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool) {
	d := Decide(node, ds)
	return d.ShouldRun, d.ShouldContinueRunning
}

// Rule names the rule of NodeShouldRunDaemonPod that decided.
type Rule string

// The rules, in the order they are checked.
const (
	RuleNodeName     Rule = "NodeName"     // the template names another node
	RuleNodeAffinity Rule = "NodeAffinity" // nodeSelector or required node affinity do not match
	RuleNoExecute    Rule = "NoExecute"    // an untolerated NoExecute taint
	RuleNoSchedule   Rule = "NoSchedule"   // an untolerated NoSchedule taint
	RuleTolerated    Rule = "Tolerated"    // none of the above: the pod belongs here
)

// Decision is NodeShouldRunDaemonPod's answer and the rule that gave it; Taint is the
// untolerated taint for RuleNoExecute and RuleNoSchedule.
type Decision struct {
	ShouldRun, ShouldContinueRunning bool
	Rule                             Rule
	Taint                            api.Taint
}

// Decide is NodeShouldRunDaemonPod with its reason (see predicates.decide).
func Decide(node *api.Node, ds *api.DaemonSet) Decision {
	return newPredicates(ds).decide(node)
}

// predicates is NodeShouldRunDaemonPod for one DaemonSet: the pod the controller would create
// is the same for every node but for its nodeName, so it is built once and checked against
// each node in turn.
type predicates struct {
	nodeName    string // the template's spec.nodeName
	affinity    api.RequiredNodeAffinity
	tolerations []api.Toleration
}

// newPredicates builds the hypothetical pod's checks: the template's nodeSelector and required
// node affinity, and its tolerations with the defaults every daemon pod gets.
func newPredicates(ds *api.DaemonSet) predicates {
	spec := ds.Spec.Template.Spec
	spec.Tolerations = append([]api.Toleration(nil), spec.Tolerations...)
	AddOrUpdateDaemonPodTolerations(&spec)
	return predicates{nodeName: spec.NodeName, affinity: api.GetRequiredNodeAffinity(&spec), tolerations: spec.Tolerations}
}

// decide is NodeShouldRunDaemonPod with its reason:
//
//  1. A template that names another node (spec.nodeName) wants no pod here: (false, false).
//  2. The checks use the pod the controller would create, default tolerations included
//     (AddOrUpdateDaemonPodTolerations).
//  3. nodeSelector and required node affinity must match, or (false, false).
//  4. An untolerated NoExecute taint gives (false, false): an existing pod is deleted.
//  5. An untolerated NoSchedule taint gives (false, true): no new pod, an existing one stays.
//  6. Otherwise (true, true). PreferNoSchedule taints, resources, host ports and cordoning play
//     no part; the scheduler may still leave the pod Pending.
func (p predicates) decide(node *api.Node) Decision {
	if p.nodeName != "" && p.nodeName != node.Name {
		return Decision{Rule: RuleNodeName}
	}
	if !p.affinity.Match(node) {
		return Decision{Rule: RuleNodeAffinity}
	}
	if t, untolerated := api.FindMatchingUntoleratedTaint(node.Spec.Taints, p.tolerations, func(t *api.Taint) bool {
		return t.Effect == api.TaintEffectNoExecute
	}); untolerated {
		return Decision{Rule: RuleNoExecute, Taint: t}
	}
	if t, untolerated := api.FindMatchingUntoleratedTaint(node.Spec.Taints, p.tolerations, func(t *api.Taint) bool {
		return t.Effect == api.TaintEffectNoSchedule
	}); untolerated {
		return Decision{ShouldContinueRunning: true, Rule: RuleNoSchedule, Taint: t}
	}
	return Decision{ShouldRun: true, ShouldContinueRunning: true, Rule: RuleTolerated}
}

// AddOrUpdateDaemonPodTolerations adds the tolerations every daemon pod gets, as upstream's
// function of the same name (pkg/controller/daemon/util/daemonset_util.go), in this order, all
// with operator Exists and no tolerationSeconds, so the NoExecute ones last forever:
//
//  1. not-ready:NoExecute and unreachable:NoExecute: daemon pods stay on failing nodes.
//  2. disk-pressure, memory-pressure and pid-pressure:NoSchedule: they still start there.
//  3. unschedulable:NoSchedule: cordoning does not stop them.
//  4. network-unavailable:NoSchedule, only with hostNetwork: a network plugin must start on a
//     node whose network is down.
//
// A user toleration equal in key, operator, value and effect is replaced by the default (so a
// tolerationSeconds on it is dropped); otherwise the default is appended.
func AddOrUpdateDaemonPodTolerations(spec *api.PodSpec) {
	exists := func(key string, effect api.TaintEffect) api.Toleration {
		return api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: effect}
	}
	defaults := []api.Toleration{
		exists(api.TaintNodeNotReady, api.TaintEffectNoExecute),
		exists(api.TaintNodeUnreachable, api.TaintEffectNoExecute),
		exists(api.TaintNodeDiskPressure, api.TaintEffectNoSchedule),
		exists(api.TaintNodeMemoryPressure, api.TaintEffectNoSchedule),
		exists(api.TaintNodePIDPressure, api.TaintEffectNoSchedule),
		exists(api.TaintNodeUnschedulable, api.TaintEffectNoSchedule),
	}
	if spec.HostNetwork {
		defaults = append(defaults, exists(api.TaintNodeNetworkUnavailable, api.TaintEffectNoSchedule))
	}
	for _, d := range defaults {
		addOrUpdateToleration(spec, d)
	}
}

func addOrUpdateToleration(spec *api.PodSpec, t api.Toleration) {
	for i := range spec.Tolerations {
		if spec.Tolerations[i].MatchToleration(&t) {
			spec.Tolerations[i] = t
			return
		}
	}
	spec.Tolerations = append(spec.Tolerations, t)
}

// ReplaceDaemonSetPodNodeNameNodeAffinity pins a daemon pod to nodeName with a required
// node-affinity term `matchFields: metadata.name In [nodeName]`, as upstream's function of the
// same name (pkg/controller/daemon/util/daemonset_util.go). The term replaces all
// required terms (the controller has already checked them); preferred terms, pod affinity and
// nodeSelector stay.
func ReplaceDaemonSetPodNodeNameNodeAffinity(affinity *api.Affinity, nodeName string) *api.Affinity {
	pin := &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
		MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{nodeName}}},
	}}}
	if affinity == nil {
		return &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: pin}}
	}
	out := *affinity
	if out.NodeAffinity == nil {
		out.NodeAffinity = &api.NodeAffinity{}
	} else {
		na := *out.NodeAffinity
		out.NodeAffinity = &na
	}
	out.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = pin
	return &out
}

// GetTargetNodeName returns the node a daemon pod belongs to: its nodeName, or else the single
// value of its matchFields metadata.name In pin (util.GetTargetNodeName).
func GetTargetNodeName(pod *api.Pod) (string, error) {
	if pod.Spec.NodeName != "" {
		return pod.Spec.NodeName, nil
	}
	id := pod.Namespace + "/" + pod.Name
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return "", fmt.Errorf("no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod %s", id)
	}
	terms := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) == 0 {
		return "", fmt.Errorf("no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod %s", id)
	}
	for _, term := range terms {
		for _, f := range term.MatchFields {
			if f.Key == "metadata.name" && f.Operator == api.NodeSelectorOpIn {
				if len(f.Values) != 1 {
					return "", fmt.Errorf("the matchFields value of '%s' is not unique for pod %s", f.Key, id)
				}
				return f.Values[0], nil
			}
		}
	}
	return "", errors.New("no node name found for pod " + id)
}
