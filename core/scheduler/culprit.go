package scheduler

import (
	"slices"
	"strconv"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// Culprit is what on a node made a filter reject a pod: a taint the pod does not tolerate, a
// pod that holds one of its host ports, or a pod that an anti-affinity term keeps it apart from.
type Culprit struct {
	Taint *api.Taint // TaintToleration: the taint
	Pod   *api.Pod   // NodePorts, InterPodAffinity: the pod bound on the node, or in its topology domain
	Port  string     // NodePorts: the port Pod holds, "8080/TCP" ("127.0.0.1:8080/TCP" on one host IP)
	// InterPodAffinity: the labels the anti-affinity term selects by, of the pod it selects
	// ("app=web"); Existing when the term is Pod's own and selects the incoming pod, rather than
	// the incoming pod's selecting Pod.
	Labels   string
	Existing bool
}

// Culprits says what on each rejected node of an explanation made its filter fail, for the
// nodes named (the rows a page shows of the one pod it explains; Explain itself spends nothing
// on it). It reads the cluster as Explain does: a bound pod is left out, and only bound pods
// count (not the nominated ones).
//
//  1. TaintToleration: the first NoSchedule or NoExecute taint of the node the pod does not
//     tolerate (the one the filter stops at).
//  2. NodePorts: each pod on the node that holds a host port the pod asks for, with the port
//     (the same protocol and number, on the same host IP or with 0.0.0.0 on either side).
//  3. InterPodAffinity, "didn't match pod anti-affinity rules": for each of the pod's required
//     anti-affinity terms, the pods it selects in the node's domain of its topologyKey.
//  4. InterPodAffinity, "didn't satisfy existing pods anti-affinity rules": the pods whose own
//     required anti-affinity term selects the pod, where the term's topologyKey has the same
//     value on their node as on this one.
//  5. Any other filter or reason: none; its reason names the cause (the resource, the node's
//     labels, the cordon), or it is an absence (pod affinity that no pod satisfies).
func Culprits(c *cluster.Cluster, pod *api.Pod, rejected []NodeResult) map[string][]Culprit {
	out := map[string][]Culprit{}
	var st *cycleState // made at the first node that needs it
	for _, r := range rejected {
		if r.Verdict.Plugin != TaintToleration && r.Verdict.Plugin != NodePorts && r.Verdict.Plugin != InterPodAffinity {
			continue
		}
		if st == nil {
			cy, p := newCycleWithout(c, pod)
			st = cy.newCycleState(p)
		}
		ni := st.cy.byName[r.Node]
		if ni == nil {
			continue
		}
		var found []Culprit
		switch {
		case r.Verdict.Plugin == TaintToleration:
			if t, ok := api.FindMatchingUntoleratedTaint(ni.node.Spec.Taints, st.pod.Spec.Tolerations, doNotScheduleTaint); ok {
				found = []Culprit{{Taint: &t}}
			}
		case r.Verdict.Plugin == NodePorts:
			found = portHolders(st.ports, ni)
		case st.affinity == nil:
		case slices.Contains(r.Verdict.Reasons, reasonAntiAffinityRulesNotMatch):
			found = st.cy.antiAffinitySelected(st.affinity, ni.node)
		case slices.Contains(r.Verdict.Reasons, reasonExistingAntiAffinityRulesNotMatch):
			found = st.cy.existingAntiAffinitySelecting(st.affinity, ni.node)
		}
		if len(found) > 0 {
			out[r.Node] = found
		}
	}
	return out
}

// portHolders are the pods on the node holding a port of want (rule 2), with the port. A pod
// gives a port once (the API server refuses duplicates), so each pod and port is listed once.
func portHolders(want []hostPort, ni *nodeInfo) []Culprit {
	var out []Culprit
	for _, p := range ni.pods {
		for _, held := range hostPortsOf(p) {
			for _, w := range want {
				if w.conflicts([]hostPort{held}) {
					out = append(out, Culprit{Pod: p, Port: held.String()})
					break
				}
			}
		}
	}
	return out
}

// String is the port as the page writes it: "8080/TCP", or "127.0.0.1:8080/TCP" on one host IP.
func (h hostPort) String() string {
	s := strconv.Itoa(int(h.port)) + "/" + h.protocol
	if h.ip != bindAll {
		s = h.ip + ":" + s
	}
	return s
}

// inDomain reports whether node n shares node's value of key (a node without the label is in
// no domain).
func inDomain(n, node *api.Node, key string) bool {
	v, ok := node.Labels[key]
	w, has := n.Labels[key]
	return ok && has && v == w
}

// antiAffinitySelected are the pods the incoming pod's required anti-affinity terms select in
// node's domains (rule 3), each once, with the labels of the first term that selects it.
func (cy *Cycle) antiAffinitySelected(s *affinityState, node *api.Node) []Culprit {
	var out []Culprit
	for _, ni := range cy.infos {
		for _, p := range ni.pods {
			for i := range s.terms.antiAffinity {
				if t := &s.terms.antiAffinity[i]; inDomain(ni.node, node, t.topologyKey) && t.matches(p, nil) {
					out = append(out, Culprit{Pod: p, Labels: selectedLabels(t, p)})
					break
				}
			}
		}
	}
	return out
}

// existingAntiAffinitySelecting are the pods whose required anti-affinity selects the incoming
// pod from node's domains (rule 4).
func (cy *Cycle) existingAntiAffinitySelecting(s *affinityState, node *api.Node) []Culprit {
	var out []Culprit
	for _, ni := range cy.infos {
		for _, existing := range ni.affine {
			for i := range existing.antiAffinity {
				t := &existing.antiAffinity[i]
				if inDomain(ni.node, node, t.topologyKey) && t.matches(s.terms.pod, s.nsLabels) {
					out = append(out, Culprit{Pod: existing.pod, Labels: selectedLabels(t, s.terms.pod), Existing: true})
					break
				}
			}
		}
	}
	return out
}

// selectedLabels are p's labels that the term's selector names, as key=value in the selector's
// order (a key it names twice is listed once).
func selectedLabels(t *affinityTerm, p *api.Pod) string {
	var kv []string
	for i, r := range t.selector.Requirements {
		if v, ok := p.Labels[r.Key]; ok && (i == 0 || t.selector.Requirements[i-1].Key != r.Key) {
			kv = append(kv, r.Key+"="+v)
		}
	}
	return strings.Join(kv, ",")
}
