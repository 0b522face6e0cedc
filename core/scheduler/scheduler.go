// Package scheduler is kube-scheduler for DaemonLab: it binds pending pods to nodes through the
// default filters, in their order (NodeUnschedulable, TaintToleration, NodeAffinity,
// NodeResourcesFit), scores the nodes that pass, and explains a pod it cannot place with
// Kubernetes' FailedScheduling message.
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

// verdict is one node's filter result: the reasons printed in the message.
type verdict struct {
	code    code
	reasons []string
}

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
	var bound boundPods // read at the first nominated pod
	for p := range c.AllPods() {
		if n := p.Status.NominatedNodeName; n != "" {
			if bound == nil {
				bound = readBoundPods(c)
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
//  2. Filter each node, stopping at the first filter that fails (see filter). From 100 nodes on,
//     only enough nodes are filtered to find numFeasibleNodesToFind that pass (see findFeasible).
//  3. A pod nominated to a node (after preempting there) goes there as soon as it fits.
//  4. Otherwise score the nodes that pass (see score) and take the best; ties are broken at
//     random, as kube-scheduler's selectHost does, from the cluster's random source.
//  5. If none passes, the message is FitError's: "0/N nodes are available: <reasons>." with the
//     reason counts sorted as strings, then what preemption did or why it could not (see
//     preempt).
//
// Pods nominated to a node with at least this pod's priority count as running there.
func Schedule(c *cluster.Cluster, pod *api.Pod) Decision {
	return NewCycle(c).Schedule(pod)
}

// Cycle schedules the pending pods of one round, one at a time in queue order, with what
// kube-scheduler keeps in its cache: the resources requested on each node and the nominated
// pods are read once and kept in step with each binding, rather than read again for every pod.
type Cycle struct {
	c         *cluster.Cluster
	nodes     []*api.Node
	byName    map[string]*api.Node
	usage     map[string]requests // what the pods bound to each node request
	alloc     map[string]requests // each node's allocatable
	nominated []*api.Pod
	spreads   map[cluster.Key]*spread // by ReplicaSet, counted when first needed
	nextStart int                     // kube-scheduler's nextStartNodeIndex
	verdicts  []verdict               // findFeasible's buffer, reused pod after pod
	bound     boundPods               // the pods on each node, read when a preemption first needs them
}

// spread counts, per node, the bound pods a ReplicaSet's selector matches in its namespace:
// what the default topology spread constraint scores.
type spread struct {
	namespace string
	selector  api.Selector
	onNode    map[string]int64
}

// NewCycle reads the cluster for a round of scheduling.
func NewCycle(c *cluster.Cluster) *Cycle {
	cy := &Cycle{c: c}
	cy.reload()
	return cy
}

func (cy *Cycle) reload() {
	cy.nodes, cy.usage, cy.nominated, cy.spreads, cy.bound = cy.c.Nodes(), nodeUsage(cy.c), nil, map[cluster.Key]*spread{}, nil
	cy.nextStart, _ = nextStartNodeIndex.Get(cy.c, struct{}{})
	cy.byName = make(map[string]*api.Node, len(cy.nodes))
	cy.alloc = make(map[string]requests, len(cy.nodes))
	for _, n := range cy.nodes {
		cy.byName[n.Name] = n
		cy.alloc[n.Name] = allocatable(n)
	}
	for p := range cy.c.AllPods() {
		if p.Status.NominatedNodeName != "" && p.Spec.NodeName == "" {
			cy.nominated = append(cy.nominated, p)
		}
	}
}

// Apply carries out a decision (see Apply) and keeps the cycle's cache in step: a plain binding
// adds the pod's requests to its node; a preemption or a nomination reads the cluster again.
func (cy *Cycle) Apply(d Decision) bool {
	changed := Apply(cy.c, d)
	if changed && d.processed > 0 {
		cy.nextStart = (cy.nextStart + d.processed) % len(cy.nodes)
		nextStartNodeIndex.Set(cy.c, struct{}{}, cy.nextStart)
	}
	switch {
	case !changed || d.Node == "" && d.preemption.node == "":
		// nothing the cache holds has changed
	case d.Node != "" && d.preemption.node == "" && d.Pod.Status.NominatedNodeName == "":
		u := cy.usage[d.Node]
		u.add(PodRequests(d.Pod))
		cy.usage[d.Node] = u
		for _, sp := range cy.spreads {
			if sp.namespace == d.Pod.Namespace && sp.selector.Matches(d.Pod.Labels) {
				sp.onNode[d.Node]++
			}
		}
		if stored, ok := cy.c.Get("Pod", cluster.KeyOf(d.Pod)).(*api.Pod); ok && cy.bound != nil {
			cy.bound.bind(stored)
		}
	default:
		cy.reload()
	}
	return changed
}

// Schedule decides where pod goes in this cycle (see Schedule).
func (cy *Cycle) Schedule(pod *api.Pod) Decision {
	c, nodes, usage := cy.c, cy.nodes, cy.usage
	overlay := false
	for _, p := range cy.nominated {
		if n := p.Status.NominatedNodeName; p.UID != pod.UID && priority(p) >= priority(pod) {
			if !overlay { // nominated pods count for this pod only: add them to a copy
				usage, overlay = make(map[string]requests, len(cy.usage)), true
				maps.Copy(usage, cy.usage)
			}
			u := usage[n]
			u.add(PodRequests(p))
			usage[n] = u
		}
	}
	pinned, want := pinnedNodes(pod), PodRequests(pod)
	var feasible []*api.Node
	processed := 0
	if pinned != nil { // a pinned (daemon) pod: when one of its nodes fits, no other needs a verdict
		for _, name := range slices.Sorted(maps.Keys(pinned)) {
			n, ok := cy.byName[name]
			if ok && len(nodes) >= minFeasibleNodesToFind {
				processed++ // the nodes PreFilter left are the ones filtered
			}
			if ok && filter(pod, want, n, usage[name], cy.alloc[name]).code == fits {
				feasible = append(feasible, n)
			}
		}
	}
	var verdicts []verdict // they explain a pod that fits nowhere: a fitting pinned pod needs none
	switch {
	case pinned == nil && len(nodes) >= minFeasibleNodesToFind:
		// The nominated node is tried first, and alone when it fits (evaluateNominatedNode).
		if n, ok := cy.byName[pod.Status.NominatedNodeName]; ok && filter(pod, want, n, usage[n.Name], cy.alloc[n.Name]).code == fits {
			return Decision{Pod: pod, Node: n.Name}
		}
		feasible, verdicts, processed = cy.findFeasible(pod, want, usage)
	case pinned == nil || len(feasible) == 0:
		verdicts = make([]verdict, len(nodes))
		for i, n := range nodes {
			if pinned != nil && !pinned[n.Name] {
				verdicts[i] = verdict{unschedulableUnresolvable, []string{"node(s) didn't satisfy plugin(s) [NodeAffinity]"}}
				continue
			}
			verdicts[i] = filter(pod, want, n, usage[n.Name], cy.alloc[n.Name])
			if verdicts[i].code == fits {
				feasible = append(feasible, n)
			}
		}
	}
	if len(feasible) == 0 {
		if cy.bound == nil {
			cy.bound = readBoundPods(c)
		}
		pre := preempt(c, pod, nodes, verdicts, usage, cy.bound)
		return Decision{Pod: pod, Message: filterReasons(len(nodes), verdicts) + " " + pre.message, preemption: pre, processed: processed}
	}
	for _, n := range feasible {
		if n.Name == pod.Status.NominatedNodeName {
			return Decision{Pod: pod, Node: n.Name, processed: processed}
		}
	}
	scores := scoreNodes(pod, feasible, usage, cy.alloc, cy.spreadOf(pod))
	best, bestScore, ties := "", int64(-1), 0
	for i, n := range feasible {
		switch s := scores[i]; {
		case s > bestScore:
			best, bestScore, ties = n.Name, s, 1
		case s == bestScore:
			ties++
			if c.IntN(ties) == 0 {
				best = n.Name
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
func (cy *Cycle) findFeasible(pod *api.Pod, want requests, usage map[string]requests) (feasible []*api.Node, verdicts []verdict, processed int) {
	nodes := cy.nodes
	// The verdicts are read only when no node passes, and then every node has one: the cycle's
	// buffer is reused without clearing.
	if len(cy.verdicts) < len(nodes) {
		cy.verdicts = make([]verdict, len(nodes))
	}
	verdicts = cy.verdicts[:len(nodes)]
	toFind := numFeasibleNodesToFind(len(nodes))
	for ; processed < len(nodes) && len(feasible) < toFind; processed++ {
		i := (cy.nextStart + processed) % len(nodes)
		n := nodes[i]
		if verdicts[i] = filter(pod, want, n, usage[n.Name], cy.alloc[n.Name]); verdicts[i].code == fits {
			feasible = append(feasible, n)
		}
	}
	return feasible, verdicts, processed
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

var unschedulableToleration = api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}

// filter runs the default filters on one node, in order, stopping at the first that fails:
//
//  1. NodeUnschedulable: a cordoned node, unless the pod tolerates
//     node.kubernetes.io/unschedulable:NoSchedule — "node(s) were unschedulable".
//  2. TaintToleration: an untolerated NoSchedule or NoExecute taint — "node(s) had untolerated
//     taint(s)" (v1.35 wording).
//  3. NodeAffinity: nodeSelector and required node affinity — "node(s) didn't match Pod's node
//     affinity/selector".
//  4. NodeResourcesFit: requests against allocatable minus what the node's pods request —
//     "Too many pods", then "Insufficient cpu", "Insufficient memory", …; unresolvable when the
//     request exceeds the node's whole allocatable (v1.34+).
func filter(pod *api.Pod, want requests, n *api.Node, used, alloc requests) verdict {
	unresolvable := func(reason string) verdict { return verdict{unschedulableUnresolvable, []string{reason}} }
	if n.Spec.Unschedulable && !api.TolerationsTolerateTaint(pod.Spec.Tolerations, &unschedulableToleration) {
		return unresolvable("node(s) were unschedulable")
	}
	if _, ok := api.FindMatchingUntoleratedTaint(n.Spec.Taints, pod.Spec.Tolerations, func(t *api.Taint) bool {
		return t.Effect == api.TaintEffectNoSchedule || t.Effect == api.TaintEffectNoExecute
	}); ok {
		return unresolvable("node(s) had untolerated taint(s)")
	}
	if !api.GetRequiredNodeAffinity(&pod.Spec).Match(n) {
		return unresolvable("node(s) didn't match Pod's node affinity/selector")
	}
	return fitResources(want, used, alloc)
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
	var reasons []string
	oversize := false
	if used.pods+1 > alloc.pods {
		reasons = append(reasons, "Too many pods")
	}
	for _, r := range resourceOrder {
		w := want.get(r)
		if w == 0 {
			continue
		}
		if w > alloc.get(r)-used.get(r) {
			reasons = append(reasons, "Insufficient "+string(r))
			oversize = oversize || w > alloc.get(r)
		}
	}
	switch {
	case len(reasons) == 0:
		return verdict{code: fits}
	case oversize:
		return verdict{unschedulableUnresolvable, reasons}
	}
	return verdict{unschedulable, reasons}
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
