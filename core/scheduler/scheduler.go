// Package scheduler is kube-scheduler for DaemonLab: it binds pending pods to nodes through the
// default profile's plugins (framework.go: filters and scorers, in their upstream order), and
// explains a pod it cannot place with Kubernetes' FailedScheduling message, and any attempt
// node by node and plugin by plugin (Explain).
package scheduler

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// code is a filter verdict: whether preemption could ever help on that node.
type code int

const (
	fits                      code = iota
	unschedulable                  // preemption might help (resources)
	unschedulableUnresolvable      // it cannot (taints, affinity, cordon)
)

// Decision is what scheduling one pod decided: the node to bind it to, or why there is none
// and whom to preempt.
type Decision struct {
	Pod        *api.Pod
	Node       string // "" when the pod does not fit anywhere
	Message    string // the FailedScheduling message when Node is ""
	preemption preemption
	processed  int // nodes filtered from nextStartNodeIndex on (see findFeasible); 0 when none were
}

// Pending returns the pods the scheduler must place, in queue order (PrioritySort: higher
// priority first, then older first, then by name). A pod that preempted waits while its victims
// are terminating: the queue retries it only when one is gone (DefaultPreemption's queueing
// hint), so it is not reported unschedulable again meanwhile.
func Pending(c *cluster.Cluster) []*api.Pod {
	var out []*api.Pod
	var bound map[string][]*api.Pod // each node's pods, read at the first nominated pod
	for p := range c.AllPods() {
		if n := p.Status.NominatedNodeName; n != "" {
			if bound == nil {
				bound = map[string][]*api.Pod{}
				for q := range c.AllPods() {
					bound[q.Spec.NodeName] = append(bound[q.Spec.NodeName], q)
				}
			}
			if terminatingVictim(p, bound[n]) {
				continue
			}
		}
		if p.Spec.NodeName == "" && p.DeletionTimestamp == nil && p.Spec.SchedulerName == "default-scheduler" && p.Status.Phase == api.PodPending {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		pi, pj := priority(out[i]), priority(out[j])
		if pi != pj {
			return pi > pj
		}
		return out[i].CreationTimestamp.Before(out[j].CreationTimestamp.Time)
	})
	return out
}

func priority(p *api.Pod) int32 {
	if p.Spec.Priority == nil {
		return 0
	}
	return *p.Spec.Priority
}

// Schedule decides where pod goes (one scheduling cycle):
//
//  1. PreFilter: a pod whose every required term pins metadata.name (as DaemonSet pods are)
//     only considers those nodes; the others "didn't satisfy plugin(s) [NodeAffinity]".
//  2. Filter each node, stopping at the first filter that fails (runFilters). From 100 nodes on,
//     only enough nodes are filtered to find numFeasibleNodesToFind that pass (see findFeasible).
//  3. A pod nominated to a node (after preempting there) goes there as soon as it fits.
//  4. A single node that passes is taken unscored. Otherwise score the nodes that pass
//     (runScores) and take the best; ties are broken at random, as kube-scheduler's
//     selectHost does, from the cluster's random source.
//  5. If none passes, the message is FitError's: "0/N nodes are available: <reasons>." with the
//     reason counts sorted as strings, then what preemption did or why it could not (see
//     preempt).
//
// Pods nominated to a node with at least this pod's priority count as running there while it is
// filtered, and the node must pass without them too (runFiltersWithNominated); the scores count
// the bound pods only.
func Schedule(c *cluster.Cluster, pod *api.Pod) Decision {
	return NewCycle(c).Schedule(pod)
}

// Cycle schedules the pending pods of one round, one at a time in queue order, with what
// kube-scheduler keeps in its cache: each node's pods and what they request, and the nominated
// pods, read once and kept in step with each binding, rather than read again for every pod.
type Cycle struct {
	c         *cluster.Cluster
	infos     []*nodeInfo // in the cluster's node order
	byName    map[string]*nodeInfo
	nominated []*api.Pod
	spread    spreadCache // what PodTopologySpread reads of the cluster in this cycle
	nextStart int         // kube-scheduler's nextStartNodeIndex
	verdicts  []verdict   // findFeasible's buffer, reused pod after pod
	// The bound pods with pod affinity or anti-affinity, and those with required anti-affinity:
	// while there are none, InterPodAffinity skips pods without terms of their own at once.
	affinePods, requiredAntiAffinityPods int
	without                              string // the UID of a bound pod the cycle leaves out (see newCycleWithout), or ""
}

// NewCycle reads the cluster for a round of scheduling.
func NewCycle(c *cluster.Cluster) *Cycle {
	cy := &Cycle{c: c}
	cy.reload()
	return cy
}

// reload reads the nodes and their pods: those bound and not finished (kube-scheduler's pod
// informer leaves Succeeded and Failed pods out), terminating ones included.
func (cy *Cycle) reload() {
	cy.nominated, cy.spread = nil, spreadCache{}
	cy.affinePods, cy.requiredAntiAffinityPods = 0, 0
	cy.nextStart, _ = nextStartNodeIndex.Get(cy.c, struct{}{})
	nodes := cy.c.Nodes()
	cy.infos = make([]*nodeInfo, len(nodes))
	cy.byName = make(map[string]*nodeInfo, len(nodes))
	for i, n := range nodes {
		cy.infos[i] = newNodeInfo(n)
		cy.infos[i].index = i
		cy.byName[n.Name] = cy.infos[i]
	}
	for p := range cy.c.AllPods() {
		switch {
		case p.Spec.NodeName == "" && p.Status.NominatedNodeName != "":
			cy.nominated = append(cy.nominated, p)
		case p.Spec.NodeName == "" || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed || p.UID == cy.without:
		default:
			if ni := cy.byName[p.Spec.NodeName]; ni != nil {
				cy.bind(ni, p)
			}
		}
	}
}

// bind counts a pod bound to a node.
func (cy *Cycle) bind(ni *nodeInfo, p *api.Pod) {
	ni.addPod(p)
	cy.countBound(ni, p)
	if hasPodAffinity(p) {
		cy.affinePods++
	}
	if hasRequiredAntiAffinity(p) {
		cy.requiredAntiAffinityPods++
	}
}

// Apply carries out a decision (see Apply) and keeps the cycle's cache in step: a plain binding
// adds the pod to its node; a preemption or a nomination reads the cluster again.
func (cy *Cycle) Apply(d Decision) bool {
	changed := Apply(cy.c, d)
	if changed && d.processed > 0 {
		cy.nextStart = (cy.nextStart + d.processed) % len(cy.infos)
		nextStartNodeIndex.Set(cy.c, struct{}{}, cy.nextStart)
	}
	switch {
	case !changed || d.Node == "" && d.preemption.node == "":
		// nothing the cache holds has changed
	case d.Node != "" && d.preemption.node == "" && d.Pod.Status.NominatedNodeName == "":
		if stored, ok := cy.c.Get("Pod", cluster.KeyOf(d.Pod)).(*api.Pod); ok && cy.byName[d.Node] != nil {
			cy.bind(cy.byName[d.Node], stored)
		}
	default:
		cy.reload()
	}
	return changed
}

// nominatedFor returns, by node, the pods nominated there that pod must count as if bound: those
// of at least its priority (addGENominatedPods); nil when there are none.
func (cy *Cycle) nominatedFor(pod *api.Pod) map[string][]*api.Pod {
	var out map[string][]*api.Pod
	for _, p := range cy.nominated {
		n := p.Status.NominatedNodeName
		if cy.byName[n] != nil && p.UID != pod.UID && priority(p) >= priority(pod) {
			if out == nil {
				out = map[string][]*api.Pod{}
			}
			out[n] = append(out[n], p)
		}
	}
	return out
}

// Schedule decides where pod goes in this cycle (see Schedule).
func (cy *Cycle) Schedule(pod *api.Pod) Decision {
	st, nominated := cy.newCycleState(pod), cy.nominatedFor(pod)
	filter := func(ni *nodeInfo) verdict { return runFiltersWithNominated(st, ni, nominated[ni.node.Name]) }
	var feasible []*nodeInfo
	processed := 0
	if st.pinned != nil { // a pinned (daemon) pod: when one of its nodes fits, no other needs a verdict
		for _, name := range slices.Sorted(maps.Keys(st.pinned)) {
			ni, ok := cy.byName[name]
			if ok && len(cy.infos) >= minFeasibleNodesToFind {
				processed++ // the nodes PreFilter left are the ones filtered
			}
			if ok && filter(ni).code == fits {
				feasible = append(feasible, ni)
			}
		}
	}
	var verdicts []verdict // they explain a pod that fits nowhere: a fitting pinned pod needs none
	switch {
	case st.pinned == nil && len(cy.infos) >= minFeasibleNodesToFind:
		// The nominated node is tried first, and alone when it fits (evaluateNominatedNode).
		if ni, ok := cy.byName[pod.Status.NominatedNodeName]; ok && filter(ni).code == fits {
			return Decision{Pod: pod, Node: ni.node.Name}
		}
		feasible, verdicts, processed = cy.findFeasible(filter)
	case st.pinned == nil || len(feasible) == 0:
		verdicts = make([]verdict, len(cy.infos))
		for i, ni := range cy.infos {
			if verdicts[i] = filter(ni); verdicts[i].code == fits {
				feasible = append(feasible, ni)
			}
		}
	}
	if len(feasible) == 0 {
		pre := preempt(cy.c, st, cy.infos, verdicts, nominated)
		return Decision{Pod: pod, Message: filterReasons(len(cy.infos), verdicts) + " " + pre.message, preemption: pre, processed: processed}
	}
	for _, ni := range feasible {
		if ni.node.Name == pod.Status.NominatedNodeName {
			return Decision{Pod: pod, Node: ni.node.Name, processed: processed}
		}
	}
	if len(feasible) == 1 {
		return Decision{Pod: pod, Node: feasible[0].node.Name, processed: processed}
	}
	_, scores := runScores(st, feasible)
	best, bestScore, ties := "", int64(-1), 0
	for i, ni := range feasible {
		switch s := scores[i]; {
		case s > bestScore:
			best, bestScore, ties = ni.node.Name, s, 1
		case s == bestScore:
			ties++
			if cy.c.IntN(ties) == 0 {
				best = ni.node.Name
			}
		}
	}
	return Decision{Pod: pod, Node: best, processed: processed}
}

// nextStartNodeIndex is where the scheduler keeps its one nextStartNodeIndex (a field of the
// Scheduler in pkg/scheduler/scheduler.go) in the cluster's memory.
var nextStartNodeIndex = cluster.NewMemo[struct{}, int]("kube-scheduler/nextStartNodeIndex")

// minFeasibleNodesToFind is the cluster size from which the scheduler stops filtering once it
// has found enough nodes.
const minFeasibleNodesToFind = 100

// numFeasibleNodesToFind is how many passing nodes the scheduler looks for before it stops
// filtering (schedule_one.go, percentageOfNodesToScore left at its default 0):
//
//  1. Below 100 nodes, all of them.
//  2. Otherwise a percentage of the nodes: 50% less one point per 125 nodes, at least 5%
//     (5,000 nodes: 10%, so 500), and never fewer than 100 nodes.
func numFeasibleNodesToFind(all int) int {
	if all < minFeasibleNodesToFind {
		return all
	}
	percentage := max(50-all/125, 5)
	return max(all*percentage/100, minFeasibleNodesToFind)
}

// findFeasible filters the nodes as findNodesThatPassFilters does in a cluster of 100 nodes or
// more: starting where the last scheduling attempt stopped (nextStartNodeIndex) and going round,
// until numFeasibleNodesToFind nodes pass or every node was tried, so that every node gets the
// same chance across pods. It returns the passing nodes in that order, the verdicts (complete
// only when none passes, the only time they are read) and how many nodes it filtered, by which
// nextStartNodeIndex moves when the attempt is carried out. With fewer nodes every node is
// filtered and their order only breaks ties between equal scores, which are drawn at random,
// so DaemonLab keeps name order there.
func (cy *Cycle) findFeasible(filter func(*nodeInfo) verdict) (feasible []*nodeInfo, verdicts []verdict, processed int) {
	infos := cy.infos
	// The verdicts are read only when no node passes, and then every node has one: the cycle's
	// buffer is reused without clearing.
	if len(cy.verdicts) < len(infos) {
		cy.verdicts = make([]verdict, len(infos))
	}
	verdicts = cy.verdicts[:len(infos)]
	toFind := numFeasibleNodesToFind(len(infos))
	for ; processed < len(infos) && len(feasible) < toFind; processed++ {
		i := (cy.nextStart + processed) % len(infos)
		if verdicts[i] = filter(infos[i]); verdicts[i].code == fits {
			feasible = append(feasible, infos[i])
		}
	}
	return feasible, verdicts, processed
}

// Oversize is NodeResourcesFit against node's whole allocatable, as if no pod ran there: the
// reasons ("Insufficient cpu", …) for which pod could never fit on node, none when it could.
func Oversize(pod *api.Pod, node *api.Node) []string {
	if v := fitResources(PodRequests(pod), requests{}, allocatable(node)); v.code == unschedulableUnresolvable {
		return v.reasons
	}
	return nil
}

func fitResources(want, used, alloc requests) verdict {
	short := insufficient(want, used, alloc)
	if len(short) == 0 {
		return verdict{code: fits}
	}
	v := verdict{code: unschedulable}
	for _, r := range short {
		v.reasons = append(v.reasons, r.Reason)
		if r.Unresolvable {
			v.code = unschedulableUnresolvable
		}
	}
	return v
}

// InsufficientResource is one resource a node cannot give a pod (noderesources.
// InsufficientResource): what the pod asks, what the node's pods take and what the node
// offers, in milli-cpu, bytes, pods or units of a scalar resource.
type InsufficientResource struct {
	Name                      api.ResourceName
	Reason                    string // "Too many pods", "Insufficient cpu", …
	Requested, Used, Capacity int64
	Unresolvable              bool // the pod asks more than the node's whole allocatable
}

// insufficient is NodeResourcesFit's fitsRequest: each resource the pod wants beyond what is
// left of alloc once used is taken, in its order —
//
//  1. pods: one more than the node allows ("Too many pods", never unresolvable);
//  2. cpu, memory, ephemeral-storage, then the scalar resources by name, each only when the pod
//     asks some ("Insufficient cpu", …; a node without the resource offers none).
func insufficient(want, used, alloc requests) []InsufficientResource {
	var out []InsufficientResource
	if used.pods+1 > alloc.pods {
		out = append(out, InsufficientResource{Name: api.ResourcePods, Reason: "Too many pods", Requested: 1, Used: used.pods, Capacity: alloc.pods})
	}
	for _, r := range slices.Concat(resourceOrder, slices.Sorted(maps.Keys(want.scalar))) {
		w, a, u := want.get(r), alloc.get(r), used.get(r)
		if w > 0 && w > a-u {
			out = append(out, InsufficientResource{Name: r, Reason: "Insufficient " + string(r), Requested: w, Used: u, Capacity: a, Unresolvable: w > a})
		}
	}
	return out
}

// filterReasons is the first sentence of FitError.Error(): the filters' reasons over all nodes.
func filterReasons(numNodes int, verdicts []verdict) string {
	reasons := map[string]int{}
	for _, v := range verdicts {
		for _, r := range v.reasons {
			reasons[r]++
		}
	}
	return fmt.Sprintf("0/%d nodes are available: %s.", numNodes, histogram(reasons))
}

func histogram(counts map[string]int) string {
	entries := make([]string, 0, len(counts))
	for reason, n := range counts {
		entries = append(entries, fmt.Sprintf("%d %s", n, reason))
	}
	sort.Strings(entries)
	return strings.Join(entries, ", ")
}
