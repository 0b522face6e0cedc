package scheduler

import (
	"maps"
	"slices"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// The plugins of kube-scheduler's default profile that DaemonLab runs, by their upstream names
// (pkg/scheduler/framework/plugins/names).
const (
	NodeUnschedulable               = "NodeUnschedulable"
	TaintToleration                 = "TaintToleration"
	NodeAffinity                    = "NodeAffinity"
	NodePorts                       = "NodePorts"
	NodeResourcesFit                = "NodeResourcesFit"
	PodTopologySpread               = "PodTopologySpread"
	InterPodAffinity                = "InterPodAffinity"
	NodeResourcesBalancedAllocation = "NodeResourcesBalancedAllocation"
)

// nodeInfo is what kube-scheduler's cache holds of one node (framework.NodeInfo): the node, the
// pods bound to it that have not finished, in List order, what they request, the host ports
// they take, and the terms of those with pod affinity or anti-affinity.
type nodeInfo struct {
	node    *api.Node
	index   int // the node's place in the cycle's nodes (Cycle.infos), which a copy keeps
	pods    []*api.Pod
	ports   []hostPort  // the pods' host ports, each once (UsedPorts)
	used    requests    // the pods' requests, as they are (NodeInfo.Requested)
	nonZero requests    // with 100m cpu and 200Mi memory for a container that requests none (NonZeroRequested)
	alloc   requests    // the node's allocatable
	affine  []*podTerms // the pods with pod affinity or anti-affinity (PodsWithAffinity)
}

func newNodeInfo(n *api.Node) *nodeInfo {
	return &nodeInfo{node: n, alloc: allocatable(n)}
}

// addPod counts a pod bound to the node, keeping the pods in List order.
func (ni *nodeInfo) addPod(p *api.Pod) {
	i, _ := slices.BinarySearchFunc(ni.pods, cluster.KeyOf(p), func(q *api.Pod, k cluster.Key) int { return cluster.CompareKeys(cluster.KeyOf(q), k) })
	ni.pods = slices.Insert(ni.pods, i, p)
	ni.used.add(PodRequests(p))
	ni.nonZero.add(nonZeroRequests(p))
	if ports := hostPortsOf(p); ports != nil {
		ni.ports = addPorts(ni.ports, ports)
	}
	if hasPodAffinity(p) {
		t := newPodTerms(p)
		ni.affine = append(ni.affine, &t)
	}
}

// removePod takes a pod off the node (a preemption victim in a dry run).
func (ni *nodeInfo) removePod(p *api.Pod) {
	i := slices.Index(ni.pods, p)
	if i < 0 {
		return
	}
	ni.pods = slices.Delete(slices.Clone(ni.pods), i, i+1)
	ni.used.sub(PodRequests(p))
	ni.nonZero.sub(nonZeroRequests(p))
	ni.ports = removePorts(ni.ports, hostPortsOf(p))
	if j := slices.IndexFunc(ni.affine, func(t *podTerms) bool { return t.pod == p }); j >= 0 {
		ni.affine = slices.Delete(slices.Clone(ni.affine), j, j+1)
	}
}

// clone is a copy whose pods can change without changing ni's.
func (ni *nodeInfo) clone() *nodeInfo {
	c := *ni
	c.pods, c.ports, c.affine = slices.Clip(ni.pods), slices.Clip(ni.ports), slices.Clip(ni.affine)
	return &c
}

// cycleState is what the plugins work out for one pod in one scheduling attempt
// (framework.CycleState): its requests, the nodes NodeAffinity's PreFilter narrows it to, its
// host ports, and each plugin's own pre-computed state.
type cycleState struct {
	pod      *api.Pod
	cy       *Cycle          // every node, as PreScore lists them from the snapshot
	want     requests        // what NodeResourcesFit's filter counts
	pinned   map[string]bool // nil unless every required node affinity term pins metadata.name
	ports    []hostPort      // NodePorts' PreFilter: nil when the pod takes none
	spread   *spreadFilter   // PodTopologySpread's PreFilter state, nil when its filter is skipped
	affinity *affinityState  // InterPodAffinity's counts, nil when its PreFilter skipped it
}

// verdict is one node's filter result: the plugin that rejected it and the reasons printed in
// the message, or code fits.
type verdict struct {
	code    code
	plugin  string
	reasons []string
}

// filterPlugin is a Filter of the default profile.
type filterPlugin interface {
	name() string
	filter(st *cycleState, ni *nodeInfo) verdict
}

// podUpdater is a filter's PreFilterExtensions: how its state for the pod (in st) changes when
// another pod is added to or removed from a node, as preemption's dry run does with victims.
// A filter whose state reads only the node being filtered needs none.
type podUpdater interface {
	addPod(st *cycleState, ni *nodeInfo, p *api.Pod)
	removePod(st *cycleState, ni *nodeInfo, p *api.Pod)
}

// addPod puts p on the node and tells the filters' states (AddPod).
func (st *cycleState) addPod(ni *nodeInfo, p *api.Pod) {
	ni.addPod(p)
	for _, f := range filters {
		if u, ok := f.(podUpdater); ok {
			u.addPod(st, ni, p)
		}
	}
}

// removePod takes p off the node and tells the filters' states (RemovePod).
func (st *cycleState) removePod(ni *nodeInfo, p *api.Pod) {
	ni.removePod(p)
	for _, f := range filters {
		if u, ok := f.(podUpdater); ok {
			u.removePod(st, ni, p)
		}
	}
}

// clone is a copy of the state a dry run can change (CycleState.Clone): every field a
// podUpdater changes is copied here.
func (st *cycleState) clone() *cycleState {
	c := *st
	c.spread = st.spread.clone()
	c.affinity = st.affinity.clone()
	return &c
}

// scorePlugin is a Score of the default profile with its PreScore and NormalizeScore: the
// scores of the feasible nodes, each from 0 to 100, before the weight; nil when its PreScore
// skips it for this pod (it then scores no node, and no total counts it).
type scorePlugin interface {
	name() string
	weight() int64
	score(st *cycleState, feasible []*nodeInfo) []int64
}

// filters are the default profile's filters in their order (pkg/scheduler/apis/config/v1
// default_plugins.go): a node must pass them all, and the first that fails is its verdict.
// NodeName is left out: a pod that names its node is never queued.
var filters = []filterPlugin{
	nodeUnschedulable{},
	taintToleration{},
	nodeAffinity{},
	nodePorts{},
	nodeResourcesFit{},
	podTopologySpread{},
	interPodAffinity{},
}

// scorers are the default profile's score plugins in their order, with their weights.
// ImageLocality is not modelled: DaemonLab's nodes report no images, and kube-scheduler scores
// every node 0 for it then.
var scorers = []scorePlugin{
	taintToleration{},
	nodeAffinity{},
	nodeResourcesFit{},
	podTopologySpread{},
	interPodAffinity{},
	balancedAllocation{},
}

// newCycleState runs the PreFilters for pod against the cycle's nodes; the PreScores run in
// each score plugin's score, on the nodes that pass.
func (cy *Cycle) newCycleState(pod *api.Pod) *cycleState {
	return &cycleState{pod: pod, cy: cy, want: PodRequests(pod), pinned: pinnedNodes(pod), ports: hostPortsOf(pod), spread: cy.spreadFilterOf(pod),
		affinity: cy.interPodAffinityPreFilter(pod)}
}

// runFilters is RunFilterPlugins: the node passes when every filter passes; otherwise the
// verdict of the first that fails. A node NodeAffinity's PreFilter left out is not filtered.
func runFilters(st *cycleState, ni *nodeInfo) verdict {
	if st.pinned != nil && !st.pinned[ni.node.Name] {
		return verdict{code: unschedulableUnresolvable, plugin: NodeAffinity, reasons: []string{"node(s) didn't satisfy plugin(s) [NodeAffinity]"}}
	}
	for _, f := range filters {
		if v := f.filter(st, ni); v.code != fits {
			v.plugin = f.name()
			return v
		}
	}
	return verdict{code: fits}
}

// runFiltersWithNominated is RunFilterPluginsWithNominatedPods: nominated are the pods
// nominated to the node with at least the pod's priority.
//
//  1. Without such pods, the filters run once.
//  2. Otherwise they run with those pods added to a copy of the node and told to a copy of the
//     state (AddPod), as if they were bound; if the node passes, they run again without them,
//     as the nominated pods may go elsewhere: a pod whose affinity only they satisfy must not
//     pass on their account.
func runFiltersWithNominated(st *cycleState, ni *nodeInfo, nominated []*api.Pod) verdict {
	if len(nominated) > 0 {
		withNominated, niWithNominated := st.clone(), ni.clone()
		for _, p := range nominated {
			withNominated.addPod(niWithNominated, p)
		}
		if v := runFilters(withNominated, niWithNominated); v.code != fits {
			return v
		}
	}
	return runFilters(st, ni)
}

// runScores is RunScorePlugins: each plugin's normalized scores of the feasible nodes, by
// plugin in the profile's order (nil for a plugin skipped), and each node's total of the
// weighted scores.
func runScores(st *cycleState, feasible []*nodeInfo) (byPlugin [][]int64, total []int64) {
	total = make([]int64, len(feasible))
	for _, s := range scorers {
		scores := s.score(st, feasible)
		for i := range scores {
			total[i] += s.weight() * scores[i]
		}
		byPlugin = append(byPlugin, scores)
	}
	return byPlugin, total
}

// NodeVerdict is one node's filter result: the plugin that rejected the node and its reasons,
// or no plugin when the node passes every filter.
type NodeVerdict struct {
	Plugin  string
	Reasons []string
}

// PluginScore is one score plugin's score of a node, normalized to 0–100, and its weight in the
// total.
type PluginScore struct {
	Plugin        string
	Score, Weight int64
}

// NodeResult is what one scheduling attempt found of one node.
type NodeResult struct {
	Node    string
	Verdict NodeVerdict
	Scores  []PluginScore // empty unless the node passed and at least one other did; no plugin PreScore skipped
	Total   int64
}

// Explanation is one scheduling attempt of a pod, node by node: what kube-scheduler-simulator
// shows of it.
type Explanation struct {
	Nodes   []NodeResult // every node, in the cluster's order
	Best    []string     // the passing nodes with the highest total: those the scheduler draws from
	Message string       // FitError's message when no node passes, without preemption's sentence
	Pinned  []string     // the nodes NodeAffinity's PreFilter narrows the pod to (a DaemonSet pod's one node), sorted; nil when it considers every node
}

// Explain runs one scheduling attempt of pod against every node, as Schedule does, and says
// what each filter and score plugin found:
//
//  1. Every node is filtered; a node that fails names the plugin that rejected it (NodeAffinity
//     for a node its PreFilter left out, the others than Pinned).
//  2. When two or more nodes pass, they are scored; with one, kube-scheduler takes it unscored.
//  3. When none passes, the message is FitError's.
//
// Pods nominated to a node are counted there as Schedule counts them. A bound pod is explained
// as if it were pending in the cluster as it is now: taken off its node, it counts neither
// there nor anywhere else (see newCycleWithout).
func Explain(c *cluster.Cluster, pod *api.Pod) Explanation {
	cy, pod := newCycleWithout(c, pod)
	st := cy.newCycleState(pod)
	nominated := cy.nominatedFor(pod)
	var out Explanation
	var feasible []*nodeInfo
	var at []int // each feasible node's index in out.Nodes
	verdicts := make([]verdict, len(cy.infos))
	for i, ni := range cy.infos {
		verdicts[i] = runFiltersWithNominated(st, ni, nominated[ni.node.Name])
		r := NodeResult{Node: ni.node.Name}
		if verdicts[i].code == fits {
			feasible, at = append(feasible, ni), append(at, i)
		} else {
			r.Verdict = NodeVerdict{Plugin: verdicts[i].plugin, Reasons: verdicts[i].reasons}
		}
		out.Nodes = append(out.Nodes, r)
	}
	if st.pinned != nil {
		out.Pinned = slices.Sorted(maps.Keys(st.pinned))
	}
	switch len(feasible) {
	case 0:
		out.Message = filterReasons(len(cy.infos), verdicts)
	case 1:
		out.Best = []string{feasible[0].node.Name}
	default:
		byPlugin, total := runScores(st, feasible)
		best := slices.Max(total)
		for i, ni := range feasible {
			r := &out.Nodes[at[i]]
			for p, s := range scorers {
				if byPlugin[p] == nil {
					continue
				}
				r.Scores = append(r.Scores, PluginScore{Plugin: s.name(), Score: byPlugin[p][i], Weight: s.weight()})
			}
			r.Total = total[i]
			if total[i] == best {
				out.Best = append(out.Best, ni.node.Name)
			}
		}
	}
	return out
}
