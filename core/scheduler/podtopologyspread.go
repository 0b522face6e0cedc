package scheduler

import (
	"maps"
	"math"
	"slices"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// The reasons PodTopologySpread's filter gives (ErrReasonConstraintsNotMatch and
// ErrReasonNodeLabelNotMatch in pkg/scheduler/framework/plugins/podtopologyspread/plugin.go).
const (
	errReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints"
	errReasonNodeLabelNotMatch   = errReasonConstraintsNotMatch + " (missing required label)"
)

// podTopologySpread is PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread:
// plugin.go, common.go, filtering.go, scoring.go), with v1.37's feature gates
// (NodeInclusionPolicyInPodTopologySpread, MatchLabelKeysInPodTopologySpread) and the system
// default constraints:
//
//  1. A pod's constraints are its topologySpreadConstraints; a pod without any gets
//     systemDefaultConstraints, whose selector is defaultSelector's, and none when that
//     selector is empty (see Cycle.spreadConstraints).
//  2. A constraint counts, in each domain (a value of its topologyKey), the pods its selector
//     matches in the pod's namespace that are not terminating; an empty selector ({}) counts
//     none. Only the nodes that have every topologyKey of the pod's constraints count, and of
//     them, under nodeAffinityPolicy Honor (the default) only those the pod's nodeSelector and
//     required node affinity accept, and under nodeTaintsPolicy Honor (Ignore is the default)
//     only those whose NoSchedule and NoExecute taints it tolerates.
//  3. Filter, for the DoNotSchedule constraints (PreFilter skips it without any): a node without
//     a constraint's topologyKey is rejected, "node(s) didn't match pod topology spread
//     constraints (missing required label)", unresolvable; otherwise its domain's count, plus 1
//     if the selector matches the pod itself, less the smallest count of any domain (0 when
//     there are fewer domains than minDomains), may not exceed maxSkew, or "node(s) didn't match
//     pod topology spread constraints", which preemption may resolve (see spreadFilter).
//  4. Score, for the ScheduleAnyway constraints (PreScore skips it without any): see score.
type podTopologySpread struct{}

func (podTopologySpread) name() string  { return PodTopologySpread }
func (podTopologySpread) weight() int64 { return 2 }

// spreadConstraint is a topology spread constraint as the plugin reads it
// (topologySpreadConstraint in common.go): the selector parsed, with the pod's matchLabelKeys
// merged, minDomains 1 when unset, and the node inclusion policies.
type spreadConstraint struct {
	maxSkew       int32
	topologyKey   string
	selector      api.Selector
	minDomains    int32
	honorAffinity bool // nodeAffinityPolicy Honor
	honorTaints   bool // nodeTaintsPolicy Honor
}

// systemDefaultConstraints are the constraints a pod without any gets (the default
// PodTopologySpreadArgs, defaultingType System): spread over hosts with maxSkew 3 and over zones
// with maxSkew 5, both ScheduleAnyway.
var systemDefaultConstraints = []api.TopologySpreadConstraint{
	{MaxSkew: 3, TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway},
	{MaxSkew: 5, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway},
}

// spreadConstraints returns pod's constraints whose whenUnsatisfiable is action (getConstraints
// and initPreScoreState):
//
//  1. Its own, when it has any: each selector with its matchLabelKeys merged, as the API server
//     already did when the pod was created (merging again changes nothing then); a selector
//     that does not parse, which validation keeps out, matches nothing.
//  2. Otherwise systemDefaultConstraints with defaultSelector's selector, none when that is
//     empty.
func (cy *Cycle) spreadConstraints(pod *api.Pod, action string) []spreadConstraint {
	own := len(pod.Spec.TopologySpreadConstraints) > 0
	given := pod.Spec.TopologySpreadConstraints
	if !own {
		given = systemDefaultConstraints
	}
	var out []spreadConstraint
	for _, c := range given {
		if c.WhenUnsatisfiable != action {
			continue
		}
		sc := spreadConstraint{maxSkew: c.MaxSkew, topologyKey: c.TopologyKey, minDomains: 1,
			honorAffinity: c.NodeAffinityPolicy == nil || *c.NodeAffinityPolicy == api.NodeInclusionPolicyHonor,
			honorTaints:   c.NodeTaintsPolicy != nil && *c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor}
		if c.MinDomains != nil {
			sc.minDomains = *c.MinDomains
		}
		if own {
			sel, err := api.LabelSelectorAsSelector(api.WithLabelKeys(c.LabelSelector, c.MatchLabelKeys, api.LabelSelectorOpIn, pod.Labels))
			if err != nil {
				sel = api.Nothing()
			}
			sc.selector = sel
		}
		out = append(out, sc)
	}
	if own || len(out) == 0 {
		return out
	}
	sel := cy.defaultSelector(pod)
	if sel.Empty() {
		return nil
	}
	for i := range out {
		out[i].selector = sel
	}
	return out
}

// defaultSelector is helper.DefaultSelector (pkg/scheduler/framework/plugins/helper/spread.go):
// the selectors of the Services in the pod's namespace that select it, merged, and the selector
// of the ReplicaSet (apps/v1) that controls it, if it exists. kube-scheduler also takes those of
// its ReplicationController or StatefulSet, kinds DaemonLab does not have.
func (cy *Cycle) defaultSelector(pod *api.Pod) api.Selector {
	set := map[string]string{}
	for svc := range cluster.All[*api.Service](cy.c) {
		if svc.Namespace == pod.Namespace && api.ServiceSelects(svc, pod.Labels) {
			maps.Copy(set, svc.Spec.Selector)
		}
	}
	sel := api.SelectorFromSet(set)
	ref, ok := api.ControllerOf(&pod.ObjectMeta)
	if !ok || ref.APIVersion != "apps/v1" || ref.Kind != "ReplicaSet" {
		return sel
	}
	if rs, ok := cy.c.Get("ReplicaSet", cluster.Key{Namespace: pod.Namespace, Name: ref.Name}).(*api.ReplicaSet); ok {
		if other, err := api.LabelSelectorAsSelector(rs.Spec.Selector); err == nil {
			sel.Requirements = append(sel.Requirements, other.Requirements...)
		}
	}
	return sel
}

// includes reports whether node counts as a domain of c for pod (matchNodeInclusionPolicies):
// under nodeAffinityPolicy Honor, the pod's nodeSelector and required node affinity must accept
// it; under nodeTaintsPolicy Honor, the pod must tolerate its NoSchedule and NoExecute taints.
func (c *spreadConstraint) includes(pod *api.Pod, node *api.Node, affinity api.RequiredNodeAffinity) bool {
	if c.honorAffinity && !affinity.Match(node) {
		return false
	}
	if c.honorTaints {
		if _, untolerated := api.FindMatchingUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, doNotScheduleTaint); untolerated {
			return false
		}
	}
	return true
}

// hasTopologyKeys reports whether a node's labels have every constraint's topologyKey
// (nodeLabelsMatchSpreadConstraints).
func hasTopologyKeys(labels map[string]string, constraints []spreadConstraint) bool {
	for _, c := range constraints {
		if _, ok := labels[c.topologyKey]; !ok {
			return false
		}
	}
	return true
}

// podCounts is, node by node (in the cycle's order), how many of the pods bound there that are
// not terminating a selector matches in a namespace (countPodsMatchSelector over a node's
// pods): what every spread constraint with that selector counts.
type podCounts struct {
	namespace string
	selector  api.Selector
	onNode    []int
}

// on is the count of a node; nil counts stand for an empty selector, which counts nothing.
func (pc *podCounts) on(ni *nodeInfo) int {
	if pc == nil {
		return 0
	}
	return pc.onNode[ni.index]
}

// matching returns the cycle's counts of the pods sel matches in namespace, counted over every
// node's pods when first asked for and kept in step with each binding (countBound), so that a
// ReplicaSet's pods, scheduled one after another with the same selector, do not count the
// cluster's pods each. An empty selector counts nothing (nil); Nothing, whose string form is
// the same, is counted and stays at zero.
func (cy *Cycle) matching(namespace string, sel api.Selector) *podCounts {
	if sel.Empty() {
		return nil
	}
	key := namespace + "\x00" + sel.String()
	if pc, ok := cy.counted[key]; ok {
		return pc
	}
	pc := &podCounts{namespace: namespace, selector: sel, onNode: make([]int, len(cy.infos))}
	for i, ni := range cy.infos {
		for _, p := range ni.pods {
			if pc.counts(p) {
				pc.onNode[i]++
			}
		}
	}
	cy.counted[key] = pc
	return pc
}

// counts reports whether p is one of the pods pc counts.
func (pc *podCounts) counts(p *api.Pod) bool {
	return p.Namespace == pc.namespace && p.DeletionTimestamp == nil && pc.selector.Matches(p.Labels)
}

// countBound counts a pod the cycle has just bound to ni in every count it matches.
func (cy *Cycle) countBound(ni *nodeInfo, p *api.Pod) {
	for _, pc := range cy.counted {
		if pc.counts(p) {
			pc.onNode[ni.index]++
		}
	}
}

// spreadFilter is the filter's state for one pod (preFilterState): its DoNotSchedule
// constraints and, for each, the matching pods in every domain and the two domains with the
// fewest (criticalPaths), which the filter compares a node's domain with. Preemption's dry run
// and the nominated pods change a copy of it (see update).
type spreadFilter struct {
	constraints []spreadConstraint
	domains     []map[string]int
	paths       []criticalPaths
}

// criticalPaths are two domains of a constraint, the one with the fewest matching pods first
// (criticalPaths in filtering.go): built from every domain they hold the two smallest counts,
// and as pods of one node are added or removed the first stays the smallest count of all, the
// only figure the filter reads. Which domains they name when counts tie is left to the order
// they were met in, and changes nothing.
type criticalPaths [2]struct {
	domain string
	count  int
}

func newCriticalPaths() criticalPaths {
	var p criticalPaths
	p[0].count, p[1].count = math.MaxInt32, math.MaxInt32
	return p
}

// update records that domain now counts n (criticalPaths.update): a domain it holds takes the
// new count, the two swapped if the second now has fewer; another domain takes the first place
// or the second if it has fewer than the one there.
func (p *criticalPaths) update(domain string, n int) {
	switch {
	case domain == p[0].domain || domain == p[1].domain:
		i := 0
		if domain != p[0].domain {
			i = 1
		}
		p[i].count = n
		if p[0].count > p[1].count {
			p[0], p[1] = p[1], p[0]
		}
	case n < p[0].count:
		p[1] = p[0]
		p[0].domain, p[0].count = domain, n
	case n < p[1].count:
		p[1].domain, p[1].count = domain, n
	}
}

// spreadFilterOf is PreFilter (calPreFilterState): nil, skipping the filter, when pod has no
// DoNotSchedule constraint; otherwise every node of the cycle that has all their topologyKeys
// adds its matching pods to its domain of each constraint that includes it.
func (cy *Cycle) spreadFilterOf(pod *api.Pod) *spreadFilter {
	constraints := cy.spreadConstraints(pod, api.DoNotSchedule)
	if len(constraints) == 0 {
		return nil
	}
	f := &spreadFilter{constraints: constraints, domains: make([]map[string]int, len(constraints)), paths: make([]criticalPaths, len(constraints))}
	counts := make([]*podCounts, len(constraints))
	for i, c := range constraints {
		f.domains[i] = map[string]int{}
		counts[i] = cy.matching(pod.Namespace, c.selector)
	}
	affinity := api.GetRequiredNodeAffinity(&pod.Spec)
	for _, ni := range cy.infos {
		if !hasTopologyKeys(ni.node.Labels, constraints) {
			continue
		}
		for i := range constraints {
			if c := &constraints[i]; c.includes(pod, ni.node, affinity) {
				f.domains[i][ni.node.Labels[c.topologyKey]] += counts[i].on(ni)
			}
		}
	}
	for i := range constraints {
		f.paths[i] = newCriticalPaths()
		for domain, n := range f.domains[i] { // any order: see criticalPaths
			f.paths[i].update(domain, n)
		}
	}
	return f
}

// clone is a copy whose counts can change without changing f's (preFilterState.Clone).
func (f *spreadFilter) clone() *spreadFilter {
	if f == nil {
		return nil
	}
	c := &spreadFilter{constraints: f.constraints, domains: make([]map[string]int, len(f.domains)), paths: make([]criticalPaths, len(f.paths))}
	for i := range f.domains {
		c.domains[i] = maps.Clone(f.domains[i])
	}
	copy(c.paths, f.paths)
	return c
}

// update counts p, added to node (delta 1) or removed from it (delta -1), for pod
// (updateWithPod): in each domain whose constraint's selector matches p and that includes
// the node, when p is in the pod's namespace and the node has every topologyKey. As upstream, a
// terminating p counts here too.
func (f *spreadFilter) update(pod *api.Pod, node *api.Node, p *api.Pod, delta int) {
	if f == nil || p.Namespace != pod.Namespace || !hasTopologyKeys(node.Labels, f.constraints) {
		return
	}
	affinity := api.GetRequiredNodeAffinity(&pod.Spec)
	for i := range f.constraints {
		c := &f.constraints[i]
		if !c.selector.Matches(p.Labels) || !c.includes(pod, node, affinity) {
			continue
		}
		domain := node.Labels[c.topologyKey]
		f.domains[i][domain] += delta
		f.paths[i].update(domain, f.domains[i][domain])
	}
}

func (podTopologySpread) addPod(st *cycleState, ni *nodeInfo, p *api.Pod) {
	st.spread.update(st.pod, ni.node, p, 1)
}

func (podTopologySpread) removePod(st *cycleState, ni *nodeInfo, p *api.Pod) {
	st.spread.update(st.pod, ni.node, p, -1)
}

func (podTopologySpread) filter(st *cycleState, ni *nodeInfo) verdict {
	f := st.spread
	if f == nil {
		return verdict{code: fits}
	}
	for i := range f.constraints {
		c := &f.constraints[i]
		domain, ok := ni.node.Labels[c.topologyKey]
		if !ok {
			return unresolvable(errReasonNodeLabelNotMatch)
		}
		fewest := f.paths[i][0].count
		if len(f.domains[i]) < int(c.minDomains) {
			fewest = 0
		}
		self := 0
		if c.selector.Matches(st.pod.Labels) {
			self = 1
		}
		if f.domains[i][domain]+self-fewest > int(c.maxSkew) {
			return verdict{code: unschedulable, reasons: []string{errReasonConstraintsNotMatch}}
		}
	}
	return verdict{code: fits}
}

// score is PreScore, Score and NormalizeScore (scoring.go) for pod's ScheduleAnyway
// constraints, nil (skipped) without any:
//
//  1. A pod with constraints of its own ignores the feasible nodes that lack one of their
//     topologyKeys: they score 0. With the system defaults no node is ignored, so a node
//     without a zone still spreads by host (a zone value it lacks counts as the domain "").
//  2. Each constraint's weight is ln(domains + 2), the domains being the values the other
//     feasible nodes have of its key (for kubernetes.io/hostname, those nodes).
//  3. For kubernetes.io/hostname, a node's count is the matching pods on it; for another key,
//     the matching pods on every node of the cluster in its domain, among the nodes that
//     have every key (with its own constraints) and that the constraint includes.
//  4. A node's raw score is, over the constraints whose key it has, count × weight + maxSkew − 1,
//     rounded; the fewer the better: 100 × (max + min − raw) / max, 100 for all when max is 0.
func (podTopologySpread) score(st *cycleState, feasible []*nodeInfo) []int64 {
	cy, pod := st.cy, st.pod
	constraints := cy.spreadConstraints(pod, api.ScheduleAnyway)
	if len(constraints) == 0 {
		return nil
	}
	requireAll := len(pod.Spec.TopologySpreadConstraints) > 0
	domains := make([]map[string]int, len(constraints)) // per constraint but hostname's: pods per domain
	for j, c := range constraints {
		if c.topologyKey != api.LabelHostname {
			domains[j] = map[string]int{}
		}
	}
	read := make([]bool, len(constraints)) // some scored node reads the constraint's domains
	ignored := make([]bool, len(feasible))
	scored := len(feasible)
	for i, ni := range feasible {
		if ignored[i] = requireAll && !hasTopologyKeys(ni.node.Labels, constraints); ignored[i] {
			scored--
			continue
		}
		for j, c := range constraints {
			if domains[j] == nil {
				continue
			}
			domain, ok := ni.node.Labels[c.topologyKey]
			if !hasDomain(domains[j], domain) {
				domains[j][domain] = 0
			}
			read[j] = read[j] || ok
		}
	}
	counts := make([]*podCounts, len(constraints))
	weights := make([]float64, len(constraints))
	for j, c := range constraints {
		counts[j] = cy.matching(pod.Namespace, c.selector)
		size := len(domains[j])
		if c.topologyKey == api.LabelHostname {
			size = scored
		}
		weights[j] = math.Log(float64(size + 2))
	}
	cy.countDomains(pod, constraints, requireAll, counts, domains, read)
	scores := make([]int64, len(feasible))
	for i, ni := range feasible {
		if ignored[i] {
			continue
		}
		var raw float64
		for j, c := range constraints {
			domain, ok := ni.node.Labels[c.topologyKey]
			if !ok {
				continue
			}
			n := domains[j][domain]
			if c.topologyKey == api.LabelHostname {
				n = counts[j].on(ni)
			}
			raw += float64(n)*weights[j] + float64(c.maxSkew-1)
		}
		scores[i] = int64(math.Round(raw))
	}
	normalizeSpread(scores, ignored)
	return scores
}

// countDomains adds, for each constraint some scored node reads (but hostname's), the matching
// pods of every node of the cycle to the domain it belongs to, if the feasible nodes have that
// domain: the rest of PreScore (processAllNode).
func (cy *Cycle) countDomains(pod *api.Pod, constraints []spreadConstraint, requireAll bool, counts []*podCounts, domains []map[string]int, read []bool) {
	if !slices.Contains(read, true) {
		return
	}
	affinity := api.GetRequiredNodeAffinity(&pod.Spec)
	for _, ni := range cy.infos {
		if requireAll && !hasTopologyKeys(ni.node.Labels, constraints) {
			continue
		}
		for j := range constraints {
			c := &constraints[j]
			if !read[j] || domains[j] == nil || !c.includes(pod, ni.node, affinity) {
				continue
			}
			if domain := ni.node.Labels[c.topologyKey]; hasDomain(domains[j], domain) {
				domains[j][domain] += counts[j].on(ni)
			}
		}
	}
}

func hasDomain(domains map[string]int, domain string) bool {
	_, ok := domains[domain]
	return ok
}

// normalizeSpread is PodTopologySpread's NormalizeScore: an ignored node scores 0; the others
// 100 × (max + min − score) / max over their scores, or 100 when the highest is 0.
func normalizeSpread(scores []int64, ignored []bool) {
	lowest, highest := int64(math.MaxInt64), int64(0)
	for i, s := range scores {
		if !ignored[i] {
			lowest, highest = min(lowest, s), max(highest, s)
		}
	}
	for i, s := range scores {
		switch {
		case ignored[i]:
			scores[i] = 0
		case highest == 0:
			scores[i] = maxNodeScore
		default:
			scores[i] = maxNodeScore * (highest + lowest - s) / highest
		}
	}
}
