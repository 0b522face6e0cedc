package scheduler

import (
	"math"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

const maxNodeScore = 100

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

// podTopologySpread is PodTopologySpread's Score with the system default constraint for pods of a
// ReplicaSet (pkg/scheduler/framework/plugins/podtopologyspread/scoring.go): fewer of the
// ReplicaSet's pods on the node is better, normalized by normalizeSpread; skipped for other pods.
type podTopologySpread struct{}

func (podTopologySpread) name() string  { return PodTopologySpread }
func (podTopologySpread) weight() int64 { return 2 }

func (podTopologySpread) score(st *cycleState, feasible []*nodeInfo) []int64 {
	sp := st.spread
	if sp == nil {
		return nil
	}
	weight := math.Log(float64(len(feasible) + 2))
	scores := make([]int64, len(feasible))
	for i, ni := range feasible {
		scores[i] = int64(math.Round(float64(sp.onNode[ni.node.Name])*weight + float64(3-1)))
	}
	normalizeSpread(scores)
	return scores
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
		if p.Namespace == pod.Namespace && p.DeletionTimestamp == nil && p.Spec.NodeName != "" && p.UID != cy.without && sel.Matches(p.Labels) {
			sp.onNode[p.Spec.NodeName]++
		}
	}
	cy.spreads[key] = sp
	return sp
}
