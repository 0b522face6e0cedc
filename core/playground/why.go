package playground

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/controller"
	"daemonlab/core/controller/daemon"
	"daemonlab/core/controller/garbagecollector"
)

// The page explains what the controllers decided, in the learner's language, from the same
// functions the controllers decide with: daemon.Decide for a DaemonSet and a node, and for what
// waits on the clock the kubelets' and the controllers' timers (see due.go).

// daemonReasons says, for each DaemonSet, whether it wants a pod on node and why.
func daemonReasons(l Lang, c *cluster.Cluster, node *api.Node) []string {
	var out []string
	for _, ds := range c.DaemonSets() {
		out = append(out, daemonReason(l, ds, node, ds.Namespace+"/"+ds.Name))
	}
	return out
}

// nodeReasons says, for each node, whether ds wants a pod there and why.
func nodeReasons(l Lang, c *cluster.Cluster, ds *api.DaemonSet) []string {
	var out []string
	for n := range c.AllNodes() {
		out = append(out, n.Name+": "+daemonReason(l, ds, n, ds.Name))
	}
	return out
}

// daemonReason says in plain words whether ds (called name) wants a pod on node and why, then
// names the upstream predicate that decided and its answer (see daemonWhy): "hd1 has the taint
// …; fluentd does not tolerate it, … (NodeShouldRunDaemonPod: shouldRun=false,
// shouldContinueRunning=true)".
func daemonReason(l Lang, ds *api.DaemonSet, node *api.Node, name string) string {
	why, predicate := daemonWhy(l, ds, node, name)
	return why + " " + predicate
}

// daemonWhy is daemonReason in its two parts: the plain words, by the rule of daemon.Decide
// that decided, and the predicate with its answer, "(NodeShouldRunDaemonPod: shouldRun=…,
// shouldContinueRunning=…)".
func daemonWhy(l Lang, ds *api.DaemonSet, node *api.Node, name string) (why, predicate string) {
	d := daemon.Decide(node, ds)
	switch d.Rule {
	case daemon.RuleNodeName:
		why = T(l, "why.nodename", node.Name, name, ds.Spec.Template.Spec.NodeName)
	case daemon.RuleNodeAffinity:
		why = T(l, "why.affinity", node.Name, name)
	case daemon.RuleNoExecute:
		why = T(l, "why.noexecute", node.Name, name, d.Taint.String())
	case daemon.RuleNoSchedule:
		why = T(l, "why.noschedule", node.Name, name, d.Taint.String())
	default:
		why = T(l, "why.tolerated", node.Name, name)
	}
	return why, fmt.Sprintf("(NodeShouldRunDaemonPod: shouldRun=%t, shouldContinueRunning=%t)", d.ShouldRun, d.ShouldContinueRunning)
}

// Ghost is the placeholder a node card shows for a DaemonSet that runs no pod there: its owner
// as a pod chip names it ("DaemonSet/fluentd"), its namespace, why in plain words and the
// upstream predicate that decided (daemonWhy).
type Ghost struct {
	Owner, Namespace, Reason, Predicate string
}

// ghosts are node's placeholders: one for each DaemonSet that does not want a pod there
// (daemon.Decide's shouldRun is false) and has none there (pods are the node's chips).
func ghosts(l Lang, c *cluster.Cluster, node *api.Node, pods []PodView) []Ghost {
	var out []Ghost
	for _, ds := range c.DaemonSets() {
		owner := "DaemonSet/" + ds.Name
		if daemon.Decide(node, ds).ShouldRun || slices.ContainsFunc(pods, func(p PodView) bool { return p.Owner == owner && p.Namespace == ds.Namespace }) {
			continue
		}
		why, predicate := daemonWhy(l, ds, node, ds.Name)
		out = append(out, Ghost{Owner: owner, Namespace: ds.Namespace, Reason: why, Predicate: predicate})
	}
	return out
}

// podNotes are what the page says about a pod beyond its status:
//
//  0. a pod that was disrupted says by whom: the kubelet's eviction (with its message), the taint
//     eviction controller, the scheduler's preemption or the Eviction API (drain);
//  1. a deleted pod whose kubelet is down stays Terminating until the kubelet answers;
//  2. a pod under NoExecute taints it tolerates for a while shows its eviction countdown;
//  3. a pod under NoExecute taints it tolerates forever says so (DaemonSet pods on failed nodes);
//  4. a pod the scheduler could not place shows the scheduler's reason;
//  5. a pod its kubelet is due to act on says what and when (podDue): "starts in 3s", "gone in
//     1s", "restarts in 10s".
func podNotes(l Lang, c *cluster.Cluster, p *api.Pod) []string {
	var out []string
	for _, cond := range p.Status.Conditions {
		if cond.Type == "DisruptionTarget" && cond.Status == api.ConditionTrue {
			if key, ok := disruptions[cond.Reason]; ok {
				out = append(out, T(l, key, p.Status.Message))
			}
		}
	}
	node := c.Node(p.Spec.NodeName)
	if m, ok := c.Machine(p.Spec.NodeName); ok && m.KubeletDown && p.DeletionTimestamp != nil {
		key := "why.waiting"
		if garbagecollector.GoesOutOfService(c, p) {
			key = "why.outofservice"
		}
		out = append(out, T(l, key))
	}
	var noExecute []api.Taint
	if node != nil && p.DeletionTimestamp == nil {
		for _, t := range node.Spec.Taints {
			if t.Effect == api.TaintEffectNoExecute {
				noExecute = append(noExecute, t)
			}
		}
	}
	due := podDue(c, p)
	if len(noExecute) > 0 {
		taints := taintList(noExecute)
		note := T(l, "why.forever", taints)
		for _, d := range due {
			if d.Key == "due.evict" {
				note = T(l, "why.evict", countdown(d.At.Sub(c.Now())), humanSince(d.At.Sub(cluster.Epoch)), taints)
			}
		}
		out = append(out, note)
	}
	for _, cond := range p.Status.Conditions {
		if cond.Type == api.PodScheduled && cond.Status == api.ConditionFalse {
			out = append(out, cond.Message)
		}
	}
	for _, d := range due {
		if d.Key != "due.evict" {
			out = append(out, T(l, d.Key, countdown(d.At.Sub(c.Now()))))
		}
	}
	return out
}

// disruptions are the reasons of a DisruptionTarget condition, and what the page says of each.
var disruptions = map[string]string{
	"TerminationByKubelet":   "why.kubelet",
	"DeletionByTaintManager": "why.taint",
	"PreemptionByScheduler":  "why.preempted",
	"EvictionByEvictionAPI":  "why.drained",
}

func taintList(taints []api.Taint) string {
	var s []string
	for _, t := range taints {
		s = append(s, t.String())
	}
	return strings.Join(s, ", ")
}

// countdown prints a duration up to the next whole second (a wait of 250ms is "1s", never
// "0s"), as shortDuration does.
func countdown(d time.Duration) string {
	return shortDuration((d + time.Second - 1).Truncate(time.Second))
}

// shortDuration prints a duration without a trailing zero unit: "4m12s", "45s", "5m",
// "2.25s".
func shortDuration(d time.Duration) string {
	return strings.Replace(d.String(), "m0s", "m", 1)
}

// revisions knows, for the pods of DaemonSets and Deployments, which revision of their
// template they run and whether it is the current one (during a rollout old and new mix). It
// works the revisions out when first asked: a render of a large cluster drawn as cells may
// show no pod at all.
type revisions struct {
	c        *cluster.Cluster
	dsHash   map[string]string // the current revision hash, by DaemonSet namespace/name
	newestRS map[string]bool   // whether a ReplicaSet (namespace/name) is its Deployment's new one
}

// build works out the current revisions.
func (r *revisions) build() {
	c := r.c
	r.dsHash, r.newestRS = map[string]string{}, map[string]bool{}
	for _, ds := range c.DaemonSets() {
		r.dsHash[ds.Namespace+"/"+ds.Name] = daemon.PlanHistory(c, ds).Hash
	}
	for d := range cluster.All[*api.Deployment](c) {
		newRS, old := controller.ReplicaSets(c, d)
		if newRS != nil {
			r.newestRS[newRS.Namespace+"/"+newRS.Name] = true
		}
		for _, rs := range old {
			r.newestRS[rs.Namespace+"/"+rs.Name] = false
		}
	}
}

// of returns the pod's revision ("rev 2") and whether it is an old one.
func (r *revisions) of(p *api.Pod) (rev string, old bool) {
	ref, ok := api.ControllerOf(&p.ObjectMeta)
	if !ok {
		return "", false
	}
	if r.dsHash == nil {
		r.build()
	}
	key := p.Namespace + "/" + ref.Name
	switch ref.Kind {
	case "DaemonSet":
		hash := p.Labels[api.LabelControllerRevisionHash]
		cr, ok := r.c.Get("ControllerRevision", cluster.Key{Namespace: p.Namespace, Name: ref.Name + "-" + hash}).(*api.ControllerRevision)
		if !ok {
			return "", false
		}
		return fmt.Sprintf("rev %d", cr.Revision), hash != r.dsHash[key]
	case "ReplicaSet":
		rs, ok := r.c.Get("ReplicaSet", cluster.Key{Namespace: p.Namespace, Name: ref.Name}).(*api.ReplicaSet)
		newest, owned := r.newestRS[key]
		if !ok || !owned {
			return "", false
		}
		return "rev " + rs.Annotations[api.AnnotationRevision], !newest
	}
	return "", false
}

// ownerColours is how many colours the page has for owners.
const ownerColours = 8

// ownerColour picks an owner's colour (0 to ownerColours-1) from its name, so that it keeps it
// across renders and reloads; pods without an owner get none (-1).
func ownerColour(owner string) int {
	if owner == "" {
		return -1
	}
	h := fnv.New32a()
	h.Write([]byte(owner))
	return int(h.Sum32() % ownerColours)
}
