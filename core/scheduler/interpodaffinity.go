package scheduler

import (
	"math"
	"slices"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// interPodAffinity is InterPodAffinity (pkg/scheduler/framework/plugins/interpodaffinity:
// filtering.go, scoring.go), with the default arguments (hardPodAffinityWeight 1, the existing
// pods' preferred terms counted) and the InterPodAffinityHostnameFastPath gate off, as in
// v1.37. A term selects the pods its labelSelector matches (a missing labelSelector selects
// none) in its namespaces: those listed, the pod's own when neither namespaces nor
// namespaceSelector is given, and those whose labels namespaceSelector matches (`{}`: every
// namespace). The API server has already merged matchLabelKeys and mismatchLabelKeys into the
// labelSelector (see apiserver's podPrepareForCreate): the scheduler reads only labelSelector.
//
//  1. PreFilter counts, per topology pair (a node label's key and value), over every node's
//     bound pods (not the nominated ones):
//     - the existing pods whose required anti-affinity terms select the incoming pod, for each
//     such term, at the term's topologyKey on the existing pod's node; a namespaceSelector of
//     theirs is matched against the labels of the incoming pod's namespace;
//     - the existing pods that match every required affinity term of the incoming pod, at each
//     term's topologyKey;
//     - the existing pods each required anti-affinity term of the incoming pod selects.
//     The incoming pod's namespaceSelector is resolved to the namespaces it selects first.
//     A node without the topologyKey label counts nothing. The plugin is skipped when the
//     incoming pod has no required terms and no existing pod's anti-affinity selects it.
//  2. Filter, in this order:
//     - affinity: the node must carry every term's topologyKey, and each term's pair on the
//     node must count a matching pod — or, when no pod anywhere matches all the terms, the pod
//     must match its own terms (the first pod of a group that wants to be together): "node(s)
//     didn't match pod affinity rules", unresolvable;
//     - the incoming pod's anti-affinity: no term's pair on the node may count a pod: "node(s)
//     didn't match pod anti-affinity rules", unschedulable (removing pods may help);
//     - the existing pods' anti-affinity: no pair among the node's labels may count one:
//     "node(s) didn't satisfy existing pods anti-affinity rules", unschedulable.
//  3. The counts change as preemption's dry run removes and adds back pods (podUpdater), and
//     as the pods nominated to a node are counted there.
//  4. PreScore sums, per topology pair, over the bound pods of every node that has labels: the
//     weight of each preferred affinity term of the incoming pod an existing pod matches, minus
//     that of each preferred anti-affinity term; the weight of each preferred affinity term of
//     an existing pod the incoming pod matches, minus that of its preferred anti-affinity terms,
//     and 1 (hardPodAffinityWeight) for each of its required affinity terms. Only the pods with
//     pod affinity or anti-affinity are read unless the incoming pod has preferred terms. It is
//     skipped when no term matched on a node with the term's topologyKey.
//  5. Score: the sum of the pairs of the node's labels; normalized from the lowest (0) to the
//     highest (100) among the feasible nodes, rounded down; all 0 when they are equal. Weight 2.
type interPodAffinity struct{}

func (interPodAffinity) name() string  { return InterPodAffinity }
func (interPodAffinity) weight() int64 { return 2 }

// The filter's reasons (filtering.go: ErrReason…).
const (
	reasonAffinityRulesNotMatch             = "node(s) didn't match pod affinity rules"
	reasonAntiAffinityRulesNotMatch         = "node(s) didn't match pod anti-affinity rules"
	reasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules"
)

// hardPodAffinityWeight is the weight of an existing pod's required affinity term the incoming
// pod matches, in the score (InterPodAffinityArgs' default).
const hardPodAffinityWeight = 1

// affinityTerm is a PodAffinityTerm as the scheduler reads it (framework.AffinityTerm).
type affinityTerm struct {
	namespaces  []string
	selector    api.Selector
	topologyKey string
	nsSelector  api.Selector // Nothing when the term has none
}

// matches reports whether the term selects p: p's namespace is one of the term's, or its
// labels (nsLabels) match the term's namespaceSelector, and its labels match the selector.
func (t *affinityTerm) matches(p *api.Pod, nsLabels map[string]string) bool {
	return (slices.Contains(t.namespaces, p.Namespace) || t.nsSelector.Matches(nsLabels)) && t.selector.Matches(p.Labels)
}

type weightedTerm struct {
	affinityTerm
	weight int64
}

// podTerms are a pod's pod affinity and anti-affinity terms, parsed (framework.PodInfo).
type podTerms struct {
	pod                              *api.Pod
	affinity, antiAffinity           []affinityTerm // required
	preferredAffinity, preferredAnti []weightedTerm
}

// hasPodAffinity is podWithAffinity: the pod has pod affinity or anti-affinity.
func hasPodAffinity(p *api.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil)
}

// hasRequiredAntiAffinity is podWithRequiredAntiAffinity.
func hasRequiredAntiAffinity(p *api.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && a.PodAntiAffinity != nil && len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) > 0
}

// newPodTerms parses p's terms (framework.NewPodInfo). A list with a term whose selector does
// not parse is dropped whole, as GetAffinityTerms drops it; the API server's validation lets
// no such pod in.
func newPodTerms(p *api.Pod) podTerms {
	pt := podTerms{pod: p}
	a := p.Spec.Affinity
	if a == nil {
		return pt
	}
	if pa := a.PodAffinity; pa != nil {
		pt.affinity = parseTerms(p, pa.RequiredDuringSchedulingIgnoredDuringExecution)
		pt.preferredAffinity = parseWeightedTerms(p, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		pt.antiAffinity = parseTerms(p, pa.RequiredDuringSchedulingIgnoredDuringExecution)
		pt.preferredAnti = parseWeightedTerms(p, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	return pt
}

func parseTerms(p *api.Pod, terms []api.PodAffinityTerm) []affinityTerm {
	var out []affinityTerm
	for i := range terms {
		t, ok := parseTerm(p, &terms[i])
		if !ok {
			return nil
		}
		out = append(out, t)
	}
	return out
}

func parseWeightedTerms(p *api.Pod, terms []api.WeightedPodAffinityTerm) []weightedTerm {
	var out []weightedTerm
	for i := range terms {
		t, ok := parseTerm(p, &terms[i].PodAffinityTerm)
		if !ok {
			return nil
		}
		out = append(out, weightedTerm{t, int64(terms[i].Weight)})
	}
	return out
}

// parseTerm is newAffinityTerm: the term's namespaces are the pod's own when it names none and
// has no namespaceSelector.
func parseTerm(p *api.Pod, term *api.PodAffinityTerm) (affinityTerm, bool) {
	sel, err := api.LabelSelectorAsSelector(term.LabelSelector)
	if err != nil {
		return affinityTerm{}, false
	}
	nsSel, err := api.LabelSelectorAsSelector(term.NamespaceSelector)
	if err != nil {
		return affinityTerm{}, false
	}
	namespaces := term.Namespaces
	if len(namespaces) == 0 && term.NamespaceSelector == nil {
		namespaces = []string{p.Namespace}
	}
	return affinityTerm{namespaces: namespaces, selector: sel, topologyKey: term.TopologyKey, nsSelector: nsSel}, true
}

// mergeNamespaces resolves a namespaceSelector of the incoming pod's term
// (mergeAffinityTermNamespacesIfNotEmpty): a selector other than `{}` becomes the namespaces
// it selects now, so that the existing pods' namespaces need no lookup.
func (cy *Cycle) mergeNamespaces(t *affinityTerm) {
	if t.nsSelector.Empty() {
		return
	}
	t.namespaces = slices.Clone(t.namespaces)
	for ns := range cluster.All[*api.Namespace](cy.c) {
		if t.nsSelector.Matches(ns.Labels) {
			t.namespaces = append(t.namespaces, ns.Name)
		}
	}
	t.nsSelector = api.Nothing()
}

// namespaceLabels are the labels of the namespace ns, none when it does not exist
// (GetNamespaceLabelsSnapshot).
func (cy *Cycle) namespaceLabels(ns string) map[string]string {
	if n, ok := cy.c.Get("Namespace", cluster.Key{Name: ns}).(*api.Namespace); ok {
		return n.Labels
	}
	return nil
}

// matchesAll is podMatchesAllAffinityTerms: p matches every one of terms, and there is one.
func matchesAll(terms []affinityTerm, p *api.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !terms[i].matches(p, nil) {
			return false
		}
	}
	return true
}

// topologyPair is a node label: a topology domain.
type topologyPair struct{ key, value string }

// topologyCounts counts pods per topology domain (topologyToMatchedTermCount).
type topologyCounts map[topologyPair]int64

// update adds n at node's value of key, if it has the label, and forgets a pair down to 0.
func (m topologyCounts) update(node *api.Node, key string, n int64) {
	v, ok := node.Labels[key]
	if !ok {
		return
	}
	pair := topologyPair{key, v}
	if m[pair] += n; m[pair] == 0 {
		delete(m, pair)
	}
}

// updateWithAffinity counts p, on node, at each term's key when it matches them all.
func (m topologyCounts) updateWithAffinity(terms []affinityTerm, p *api.Pod, node *api.Node, n int64) {
	if matchesAll(terms, p) {
		for i := range terms {
			m.update(node, terms[i].topologyKey, n)
		}
	}
}

// updateWithAntiAffinity counts p, on node, at the key of each term that selects it.
func (m topologyCounts) updateWithAntiAffinity(terms []affinityTerm, p *api.Pod, nsLabels map[string]string, node *api.Node, n int64) {
	for i := range terms {
		if terms[i].matches(p, nsLabels) {
			m.update(node, terms[i].topologyKey, n)
		}
	}
}

// affinityState is what PreFilter worked out for the incoming pod (preFilterState).
type affinityState struct {
	terms    podTerms          // the incoming pod's required terms, namespaceSelectors resolved
	nsLabels map[string]string // the labels of its namespace
	// existingAnti counts the existing pods whose anti-affinity selects the incoming pod;
	// affinity those matching all of its affinity terms; antiAffinity those its anti-affinity
	// selects.
	existingAnti, affinity, antiAffinity topologyCounts
}

// interPodAffinityPreFilter is PreFilter (rule 1): nil when the plugin is skipped, without a
// pass over the pods when the pod has no required terms and no bound pod has required
// anti-affinity.
func (cy *Cycle) interPodAffinityPreFilter(pod *api.Pod) *affinityState {
	a := pod.Spec.Affinity
	hasTerms := a != nil && (a.PodAffinity != nil && len(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution) > 0 || hasRequiredAntiAffinity(pod))
	if !hasTerms && cy.requiredAntiAffinityPods == 0 {
		return nil
	}
	s := &affinityState{terms: podTerms{pod: pod}, nsLabels: cy.namespaceLabels(pod.Namespace),
		existingAnti: topologyCounts{}, affinity: topologyCounts{}, antiAffinity: topologyCounts{}}
	if hasTerms {
		all := newPodTerms(pod)
		s.terms.affinity, s.terms.antiAffinity = all.affinity, all.antiAffinity
		for _, terms := range [][]affinityTerm{s.terms.affinity, s.terms.antiAffinity} {
			for i := range terms {
				cy.mergeNamespaces(&terms[i])
			}
		}
	}
	for _, ni := range cy.infos {
		if cy.requiredAntiAffinityPods > 0 {
			for i := range ni.affine {
				s.existingAnti.updateWithAntiAffinity(ni.affine[i].antiAffinity, pod, s.nsLabels, ni.node, 1)
			}
		}
		if len(s.terms.affinity) > 0 || len(s.terms.antiAffinity) > 0 {
			for _, p := range ni.pods {
				s.countIncoming(p, ni.node, 1)
			}
		}
	}
	if len(s.existingAnti) == 0 && len(s.terms.affinity) == 0 && len(s.terms.antiAffinity) == 0 {
		return nil
	}
	return s
}

// countIncoming counts p, on node, against the incoming pod's own terms. Their namespaces are
// resolved, so p's namespace labels are not needed.
func (s *affinityState) countIncoming(p *api.Pod, node *api.Node, n int64) {
	s.affinity.updateWithAffinity(s.terms.affinity, p, node, n)
	s.antiAffinity.updateWithAntiAffinity(s.terms.antiAffinity, p, nil, node, n)
}

// update counts p in or out (n = 1 or -1) on node (updateWithPod).
func (s *affinityState) update(p *api.Pod, node *api.Node, n int64) {
	if hasRequiredAntiAffinity(p) {
		s.existingAnti.updateWithAntiAffinity(newPodTerms(p).antiAffinity, s.terms.pod, s.nsLabels, node, n)
	}
	s.countIncoming(p, node, n)
}

func (s *affinityState) clone() *affinityState {
	if s == nil {
		return nil
	}
	c := *s
	c.existingAnti, c.affinity, c.antiAffinity = cloneCounts(s.existingAnti), cloneCounts(s.affinity), cloneCounts(s.antiAffinity)
	return &c
}

func cloneCounts(m topologyCounts) topologyCounts {
	c := make(topologyCounts, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func (interPodAffinity) addPod(st *cycleState, ni *nodeInfo, p *api.Pod) {
	if st.affinity != nil {
		st.affinity.update(p, ni.node, 1)
	}
}

func (interPodAffinity) removePod(st *cycleState, ni *nodeInfo, p *api.Pod) {
	if st.affinity != nil {
		st.affinity.update(p, ni.node, -1)
	}
}

func (interPodAffinity) filter(st *cycleState, ni *nodeInfo) verdict {
	s := st.affinity
	switch {
	case s == nil:
		return verdict{code: fits}
	case !s.satisfiesAffinity(ni.node):
		return unresolvable(reasonAffinityRulesNotMatch)
	case s.violatesAntiAffinity(ni.node):
		return verdict{code: unschedulable, reasons: []string{reasonAntiAffinityRulesNotMatch}}
	case s.violatesExistingAntiAffinity(ni.node):
		return verdict{code: unschedulable, reasons: []string{reasonExistingAntiAffinityRulesNotMatch}}
	}
	return verdict{code: fits}
}

// satisfiesAffinity is nodeTopologyMatchesAffinity with satisfiesSelfAffinityCheck.
func (s *affinityState) satisfiesAffinity(node *api.Node) bool {
	terms := s.terms.affinity
	if len(terms) == 0 {
		return true
	}
	podsExist := true
	for i := range terms {
		v, ok := node.Labels[terms[i].topologyKey]
		if !ok {
			return false
		}
		if s.affinity[topologyPair{terms[i].topologyKey, v}] <= 0 {
			podsExist = false
		}
	}
	return podsExist || len(s.affinity) == 0 && matchesAll(terms, s.terms.pod)
}

// violatesAntiAffinity is the negation of satisfyPodAntiAffinity.
func (s *affinityState) violatesAntiAffinity(node *api.Node) bool {
	if len(s.antiAffinity) == 0 {
		return false
	}
	for i := range s.terms.antiAffinity {
		key := s.terms.antiAffinity[i].topologyKey
		if v, ok := node.Labels[key]; ok && s.antiAffinity[topologyPair{key, v}] > 0 {
			return true
		}
	}
	return false
}

// violatesExistingAntiAffinity is the negation of satisfyExistingPodsAntiAffinity.
func (s *affinityState) violatesExistingAntiAffinity(node *api.Node) bool {
	if len(s.existingAnti) == 0 {
		return false
	}
	for k, v := range node.Labels {
		if s.existingAnti[topologyPair{k, v}] > 0 {
			return true
		}
	}
	return false
}

// topologyScores are PreScore's sums per topology key and value (scoreMap).
type topologyScores map[string]map[string]int64

// add adds weight at node's value of term's key when term selects p and node has the label.
func (m topologyScores) add(term *affinityTerm, weight int64, p *api.Pod, nsLabels map[string]string, node *api.Node) {
	if !term.matches(p, nsLabels) {
		return
	}
	v, ok := node.Labels[term.topologyKey]
	if !ok {
		return
	}
	if m[term.topologyKey] == nil {
		m[term.topologyKey] = map[string]int64{}
	}
	m[term.topologyKey][v] += weight
}

func (m topologyScores) addAll(terms []weightedTerm, sign int64, p *api.Pod, nsLabels map[string]string, node *api.Node) {
	for i := range terms {
		m.add(&terms[i].affinityTerm, sign*terms[i].weight, p, nsLabels, node)
	}
}

// score is PreScore, Score and NormalizeScore (rules 4 and 5).
func (interPodAffinity) score(st *cycleState, feasible []*nodeInfo) []int64 {
	cy, pod := st.cy, st.pod
	a := pod.Spec.Affinity
	hasPreferred := a != nil && (a.PodAffinity != nil && len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0 ||
		a.PodAntiAffinity != nil && len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0)
	if !hasPreferred && cy.affinePods == 0 {
		return nil
	}
	var incoming podTerms
	if hasPreferred {
		incoming = newPodTerms(pod)
		for _, terms := range [][]weightedTerm{incoming.preferredAffinity, incoming.preferredAnti} {
			for i := range terms {
				cy.mergeNamespaces(&terms[i].affinityTerm)
			}
		}
	}
	nsLabels := cy.namespaceLabels(pod.Namespace)
	sums := topologyScores{}
	for _, ni := range cy.infos {
		if len(ni.node.Labels) == 0 {
			continue
		}
		if hasPreferred {
			for _, p := range ni.pods {
				sums.addAll(incoming.preferredAffinity, 1, p, nil, ni.node)
				sums.addAll(incoming.preferredAnti, -1, p, nil, ni.node)
			}
		}
		for _, existing := range ni.affine {
			for i := range existing.affinity {
				sums.add(&existing.affinity[i], hardPodAffinityWeight, pod, nsLabels, ni.node)
			}
			sums.addAll(existing.preferredAffinity, 1, pod, nsLabels, ni.node)
			sums.addAll(existing.preferredAnti, -1, pod, nsLabels, ni.node)
		}
	}
	if len(sums) == 0 {
		return nil
	}
	scores := make([]int64, len(feasible))
	for i, ni := range feasible {
		for key, values := range sums {
			if v, ok := ni.node.Labels[key]; ok {
				scores[i] += values[v]
			}
		}
	}
	normalizeMinMax(scores)
	return scores
}

// normalizeMinMax is InterPodAffinity's NormalizeScore: the lowest score 0, the highest 100,
// the others in proportion, rounded down; all 0 when they are equal.
func normalizeMinMax(scores []int64) {
	lowest, highest := int64(math.MaxInt64), int64(math.MinInt64)
	for _, s := range scores {
		lowest, highest = min(lowest, s), max(highest, s)
	}
	for i, s := range scores {
		f := float64(0)
		if highest > lowest {
			f = float64(maxNodeScore) * (float64(s-lowest) / float64(highest-lowest))
		}
		scores[i] = int64(f)
	}
}
