package scheduler

import (
	"maps"
	"math"
	"strings"

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
	for _, svc := range cy.spread.servicesOf(cy.c) {
		if svc.Namespace == pod.Namespace && api.ServiceSelects(svc, pod.Labels) {
			maps.Copy(set, svc.Spec.Selector)
		}
	}
	sel := api.SelectorFromSet(set)
	ref, ok := api.ControllerOf(&pod.ObjectMeta)
	if !ok || ref.APIVersion != "apps/v1" || ref.Kind != "ReplicaSet" {
		return sel
	}
	sel.Requirements = append(sel.Requirements, cy.spread.replicaSetSelector(cy.c, cluster.Key{Namespace: pod.Namespace, Name: ref.Name})...)
	return sel
}

// spreadCache is what PodTopologySpread reads of the cluster in one cycle, as kube-scheduler
// reads its informers' caches rather than the API server: the Services and ReplicaSets, read
// when first needed (the cycle's bindings change neither), and the counts of each selector's
// pods (see matching).
type spreadCache struct {
	services     []*api.Service
	servicesRead bool
	replicaSets  map[cluster.Key][]api.Requirement // each ReplicaSet's selector; nil for one that does not exist
	counted      map[string]*podCounts             // by namespace and selector
	totals       map[string]*domainTotals          // by counts, key and required keys
	labels       map[string]*labelColumn           // by label key
}

// labelColumn is one label of every node of the cycle, by the node's place (nodeInfo.index):
// what the scores read of each feasible node, pod after pod, without a map lookup each.
type labelColumn struct {
	values []string
	has    []bool
	any    bool // some node has the label (a cluster without zones scores nothing by zone)
}

// labelColumn returns the column of the label key, read off the nodes when first asked for.
func (cy *Cycle) labelColumn(key string) *labelColumn {
	if col, ok := cy.spread.labels[key]; ok {
		return col
	}
	col := &labelColumn{values: make([]string, len(cy.infos)), has: make([]bool, len(cy.infos))}
	for i, ni := range cy.infos {
		col.values[i], col.has[i] = ni.node.Labels[key]
		col.any = col.any || col.has[i]
	}
	if cy.spread.labels == nil {
		cy.spread.labels = map[string]*labelColumn{}
	}
	cy.spread.labels[key] = col
	return col
}

func (sc *spreadCache) servicesOf(c *cluster.Cluster) []*api.Service {
	if !sc.servicesRead {
		sc.services, sc.servicesRead = cluster.List[*api.Service](c), true
	}
	return sc.services
}

// replicaSetSelector returns the requirements of the selector of the ReplicaSet k, none when it
// does not exist or its selector does not parse.
func (sc *spreadCache) replicaSetSelector(c *cluster.Cluster, k cluster.Key) []api.Requirement {
	if reqs, ok := sc.replicaSets[k]; ok {
		return reqs
	}
	var reqs []api.Requirement
	if rs, ok := c.Get("ReplicaSet", k).(*api.ReplicaSet); ok {
		if sel, err := api.LabelSelectorAsSelector(rs.Spec.Selector); err == nil {
			reqs = sel.Requirements
		}
	}
	if sc.replicaSets == nil {
		sc.replicaSets = map[cluster.Key][]api.Requirement{}
	}
	sc.replicaSets[k] = reqs
	return reqs
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

// podCounts is, node by node (in the cycle's order), how many of the pods bound there that are
// not terminating a selector matches in a namespace (countPodsMatchSelector over a node's
// pods): what every spread constraint with that selector counts.
type podCounts struct {
	id        string // its key in the cycle's cache: namespace and selector
	namespace string
	selector  api.Selector
	onNode    []int
	totals    []*domainTotals // the domain totals made of these counts, kept in step with them
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
	if pc, ok := cy.spread.counted[key]; ok {
		return pc
	}
	pc := &podCounts{id: key, namespace: namespace, selector: sel, onNode: make([]int, len(cy.infos))}
	for i, ni := range cy.infos {
		for _, p := range ni.pods {
			if pc.counts(p) {
				pc.onNode[i]++
			}
		}
	}
	if cy.spread.counted == nil {
		cy.spread.counted = map[string]*podCounts{}
	}
	cy.spread.counted[key] = pc
	return pc
}

// counts reports whether p is one of the pods pc counts.
func (pc *podCounts) counts(p *api.Pod) bool {
	return p.Namespace == pc.namespace && p.DeletionTimestamp == nil && pc.selector.Matches(p.Labels)
}

// countBound counts a pod the cycle has just bound to ni in every count it matches, and in
// the domain totals made of them.
func (cy *Cycle) countBound(ni *nodeInfo, p *api.Pod) {
	for _, pc := range cy.spread.counted {
		if !pc.counts(p) {
			continue
		}
		pc.onNode[ni.index]++
		for _, dt := range pc.totals {
			if domain, ok := dt.domainOf(ni.node); ok {
				dt.domains[domain]++
			}
		}
	}
}

// domainTotals is, for one podCounts and one topology key, the pods counted in each domain
// over the nodes of the cycle that have every key of required, a node without the key itself
// (possible only when required is empty) counting in the domain "": what a constraint counts
// when its node inclusion policies leave no node out (see includesEveryNode). Every domain of
// those nodes has an entry, 0 included.
type domainTotals struct {
	key      string
	required []string
	domains  map[string]int
}

// domainOf returns the domain node counts in, if it counts.
func (dt *domainTotals) domainOf(node *api.Node) (string, bool) {
	if !hasKeys(node.Labels, dt.required) {
		return "", false
	}
	return node.Labels[dt.key], true
}

// totalsOf returns the cycle's domain totals of pc's counts by key over the nodes that have
// every key of required, summed over the nodes when first asked for and kept in step with the
// cycle's bindings (countBound): a ReplicaSet's pods spreading over zones do not each pass
// over every node. nil counts (an empty selector) have totals of 0 in every domain.
func (cy *Cycle) totalsOf(pc *podCounts, key string, required []string) *domainTotals {
	id := key + "\x00" + strings.Join(required, "\x00")
	if pc != nil {
		id = pc.id + "\x00" + id
	}
	if dt, ok := cy.spread.totals[id]; ok {
		return dt
	}
	dt := &domainTotals{key: key, required: required, domains: map[string]int{}}
	for _, ni := range cy.infos {
		if domain, ok := dt.domainOf(ni.node); ok {
			dt.domains[domain] += pc.on(ni)
		}
	}
	if pc != nil {
		pc.totals = append(pc.totals, dt)
	}
	if cy.spread.totals == nil {
		cy.spread.totals = map[string]*domainTotals{}
	}
	cy.spread.totals[id] = dt
	return dt
}

// includesEveryNode reports whether c's node inclusion policies leave no node out for pod:
// nodeTaintsPolicy is Ignore, and nodeAffinityPolicy is Ignore or the pod has neither a
// nodeSelector nor required node affinity.
func (c *spreadConstraint) includesEveryNode(pod *api.Pod) bool {
	return !c.honorTaints && (!c.honorAffinity || api.GetRequiredNodeAffinity(&pod.Spec).MatchesEveryNode())
}

// topologyKeys are the constraints' topology keys.
func topologyKeys(constraints []spreadConstraint) []string {
	keys := make([]string, len(constraints))
	for i, c := range constraints {
		keys[i] = c.topologyKey
	}
	return keys
}

// hasKeys reports whether labels have every key of keys.
func hasKeys(labels map[string]string, keys []string) bool {
	for _, k := range keys {
		if _, ok := labels[k]; !ok {
			return false
		}
	}
	return true
}

// spreadFilter is the filter's state for one pod (preFilterState): its DoNotSchedule
// constraints and, for each, the matching pods in every domain and the two domains with the
// fewest (criticalPaths), which the filter compares a node's domain with. Preemption's dry run
// and the nominated pods change a copy of it (see update); the domains of the state itself
// may be the cycle's domain totals, which only the cycle's bindings change.
type spreadFilter struct {
	constraints []spreadConstraint
	keys        []string // their topologyKeys
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
// adds its matching pods to its domain of each constraint that includes it (the cycle's domain
// totals, when the constraint includes every node).
func (cy *Cycle) spreadFilterOf(pod *api.Pod) *spreadFilter {
	constraints := cy.spreadConstraints(pod, api.DoNotSchedule)
	if len(constraints) == 0 {
		return nil
	}
	keys := topologyKeys(constraints)
	f := &spreadFilter{constraints: constraints, keys: keys, domains: make([]map[string]int, len(constraints)), paths: make([]criticalPaths, len(constraints))}
	counts := make([]*podCounts, len(constraints))
	var each []int // the constraints counted node by node
	for i, c := range constraints {
		counts[i] = cy.matching(pod.Namespace, c.selector)
		if c.includesEveryNode(pod) {
			f.domains[i] = cy.totalsOf(counts[i], c.topologyKey, keys).domains
			continue
		}
		f.domains[i] = map[string]int{}
		each = append(each, i)
	}
	if len(each) > 0 {
		affinity := api.GetRequiredNodeAffinity(&pod.Spec)
		for _, ni := range cy.infos {
			if !hasKeys(ni.node.Labels, keys) {
				continue
			}
			for _, i := range each {
				if c := &constraints[i]; c.includes(pod, ni.node, affinity) {
					f.domains[i][ni.node.Labels[c.topologyKey]] += counts[i].on(ni)
				}
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
	c := &spreadFilter{constraints: f.constraints, keys: f.keys, domains: make([]map[string]int, len(f.domains)), paths: make([]criticalPaths, len(f.paths))}
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
	if f == nil || p.Namespace != pod.Namespace || !hasKeys(node.Labels, f.keys) {
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
	s := st.cy.preScoreSpread(st.pod, feasible)
	if s == nil {
		return nil
	}
	scores := make([]int64, len(feasible))
	for i, ni := range feasible {
		if !s.ignored[i] {
			scores[i] = s.raw(ni)
		}
	}
	normalizeSpread(scores, s.ignored)
	return scores
}

// spreadScoring is PreScore's state for one pod (preScoreState): its ScheduleAnyway
// constraints and, for each, the nodes' values of its key, the pods it counts, and (but
// hostname's) the matching pods in each of the feasible nodes' domains; their weights; the
// feasible nodes it ignores.
type spreadScoring struct {
	constraints []spreadConstraint
	labels      []*labelColumn
	counts      []*podCounts
	domains     []map[string]int
	weights     []float64
	ignored     []bool
}

// preScoreSpread is PreScore (initPreScoreState and the count over every node, see score):
// nil, skipping the score, when pod has no ScheduleAnyway constraint.
func (cy *Cycle) preScoreSpread(pod *api.Pod, feasible []*nodeInfo) *spreadScoring {
	constraints := cy.spreadConstraints(pod, api.ScheduleAnyway)
	if len(constraints) == 0 {
		return nil
	}
	n := len(constraints)
	s := &spreadScoring{constraints: constraints, labels: make([]*labelColumn, n), counts: make([]*podCounts, n),
		domains: make([]map[string]int, n), weights: make([]float64, n), ignored: make([]bool, len(feasible))}
	var required []string // the keys a node must have to count
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		required = topologyKeys(constraints)
	}
	for j, c := range constraints {
		s.labels[j], s.counts[j] = cy.labelColumn(c.topologyKey), cy.matching(pod.Namespace, c.selector)
		if s.labels[j].any && c.topologyKey != api.LabelHostname { // without the key anywhere, no node reads the domains
			s.domains[j] = map[string]int{}
		}
	}
	read := make([]bool, n) // some scored node reads the constraint's domains
	scored := len(feasible)
	for i, ni := range feasible {
		if s.ignored[i] = !hasKeys(ni.node.Labels, required); s.ignored[i] {
			scored--
			continue
		}
		for j := range constraints {
			if s.domains[j] != nil {
				s.domains[j][s.labels[j].values[ni.index]] = 0
				read[j] = read[j] || s.labels[j].has[ni.index]
			}
		}
	}
	for j, c := range constraints {
		size := len(s.domains[j])
		if c.topologyKey == api.LabelHostname {
			size = scored
		}
		s.weights[j] = math.Log(float64(size + 2))
	}
	cy.countDomains(pod, constraints, required, s.counts, s.domains, read)
	return s
}

// raw is a node's score before NormalizeScore (Score).
func (s *spreadScoring) raw(ni *nodeInfo) int64 {
	var raw float64
	for j, c := range s.constraints {
		if !s.labels[j].has[ni.index] {
			continue
		}
		n := s.domains[j][s.labels[j].values[ni.index]]
		if c.topologyKey == api.LabelHostname {
			n = s.counts[j].on(ni)
		}
		raw += float64(n)*s.weights[j] + float64(c.maxSkew-1)
	}
	return int64(math.Round(raw))
}

// countDomains fills in, for each constraint some scored node reads (but hostname's), the
// matching pods of every node of the cycle that has the required keys in each of the feasible
// nodes' domains: the rest of PreScore (processAllNode). A constraint that includes every node
// reads the cycle's domain totals; another passes over the nodes.
func (cy *Cycle) countDomains(pod *api.Pod, constraints []spreadConstraint, required []string, counts []*podCounts, domains []map[string]int, read []bool) {
	var each []int // the constraints counted node by node
	for j := range constraints {
		c := &constraints[j]
		switch {
		case !read[j] || domains[j] == nil:
		case c.includesEveryNode(pod):
			totals := cy.totalsOf(counts[j], c.topologyKey, required).domains
			for domain := range domains[j] {
				domains[j][domain] = totals[domain]
			}
		default:
			each = append(each, j)
		}
	}
	if len(each) == 0 {
		return
	}
	affinity := api.GetRequiredNodeAffinity(&pod.Spec)
	for _, ni := range cy.infos {
		if !hasKeys(ni.node.Labels, required) {
			continue
		}
		for _, j := range each {
			c := &constraints[j]
			if domain := ni.node.Labels[c.topologyKey]; hasDomain(domains[j], domain) && c.includes(pod, ni.node, affinity) {
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
