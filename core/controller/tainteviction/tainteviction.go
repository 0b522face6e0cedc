// Package tainteviction is kube-controller-manager's taint-eviction-controller: it deletes the
// pods of a node with NoExecute taints they do not tolerate, at once or when their
// tolerationSeconds run out. Upstream: pkg/controller/tainteviction/taint_eviction.go.
package tainteviction

import (
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

const component = "taint-eviction-controller"

// forever is getMinTolerationTime's "tolerate forever".
const forever = time.Duration(-1)

// MatchingTolerations returns, for each taint, the first toleration in the pod's order that
// tolerates it (GetMatchingTolerations); ok is false when some taint is tolerated by none.
func MatchingTolerations(taints []api.Taint, tols []api.Toleration) (used []api.Toleration, ok bool) {
	for i := range taints {
		found := false
		for j := range tols {
			if tols[j].ToleratesTaint(&taints[i]) {
				used = append(used, tols[j])
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return used, true
}

// MinTolerationTime is getMinTolerationTime:
//
//  1. No tolerations: evict now (0).
//  2. Any tolerationSeconds of 0 or less: evict now.
//  3. Otherwise the smallest tolerationSeconds set; none set means forever (-1).
func MinTolerationTime(used []api.Toleration) time.Duration {
	if len(used) == 0 {
		return 0
	}
	best := forever
	for _, t := range used {
		if t.TolerationSeconds == nil {
			continue
		}
		d := time.Duration(*t.TolerationSeconds) * time.Second
		if d <= 0 {
			return 0
		}
		if best == forever || d < best {
			best = d
		}
	}
	return best
}

func noExecuteTaints(n *api.Node) []api.Taint {
	var out []api.Taint
	for _, t := range n.Spec.Taints {
		if t.Effect == api.TaintEffectNoExecute {
			out = append(out, t)
		}
	}
	return out
}

// countdowns are when each pod's countdown started, by pod.
var countdowns = cluster.NewMemo[cluster.Key, time.Time]("tainteviction/countdown")

func podKey(p *api.Pod) cluster.Key { return cluster.Key{Namespace: p.Namespace, Name: p.Name} }

// Due returns when the pod is to be deleted, if it is: now when a NoExecute taint of its node is
// not tolerated, else the time its countdown started plus the smallest tolerationSeconds. A pod
// already being deleted is due only while a countdown started for it runs (see Sync).
func Due(c *cluster.Cluster, p *api.Pod) (at time.Time, scheduled bool) {
	if _, counting := countdowns.Get(c, podKey(p)); p.DeletionTimestamp != nil && !counting {
		return time.Time{}, false
	}
	return due(c, p)
}

// due is processPodOnNode's decision for a pod, whether or not it is being deleted.
func due(c *cluster.Cluster, p *api.Pod) (at time.Time, scheduled bool) {
	node := c.Node(p.Spec.NodeName)
	if node == nil {
		return time.Time{}, false
	}
	taints := noExecuteTaints(node)
	if len(taints) == 0 {
		return time.Time{}, false
	}
	used, ok := MatchingTolerations(taints, p.Spec.Tolerations)
	if !ok {
		return c.Now(), true
	}
	wait := MinTolerationTime(used)
	if wait == forever {
		return time.Time{}, false
	}
	since, ok := countdowns.Get(c, podKey(p))
	if !ok {
		since = c.Now()
	}
	return since.Add(wait), true
}

// seenTaints are the NoExecute taints the controller last saw on each node (taintedNodes).
var seenTaints = cluster.NewMemo[string, string]("tainteviction/taints")

// retaint records the NoExecute taints of every node and returns the nodes whose taints changed
// since the controller last looked (NodeUpdated compares the old and new NoExecute taints): at
// the instant of the pass that began at since, those of the nodes written after it.
func retaint(c *cluster.Cluster, since cluster.Since) map[string]bool {
	changed := map[string]bool{}
	for n := range c.ChangedNodes(since) {
		var now string
		for _, t := range noExecuteTaints(n) {
			now += t.Key + "=" + t.Value + ":" + string(t.Effect) + "\n"
		}
		if was, _ := seenTaints.Get(c, n.Name); was != now {
			changed[n.Name] = true
			seenTaints.Set(c, n.Name, now)
		}
	}
	return changed
}

// NextTimer returns the earliest scheduled eviction.
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var next time.Time
	found := false
	for p := range c.AllPods() {
		if t, ok := Due(c, p); ok && (!found || t.Before(next)) {
			next, found = t, true
		}
	}
	return next, found
}

// Sync processes the pods on NoExecute-tainted nodes (processPodOnNode):
//
//  1. A countdown starts when the controller first sees the pod under a taint it tolerates for a
//     while; the controller does not read the taint's timeAdded.
//  2. A pod whose time has come gets DisruptionTarget=True ("DeletionByTaintManager") and is
//     deleted gracefully, with the event TaintManagerEviction "Marking for deletion Pod ns/name".
//  3. A countdown whose taints are gone, or are now tolerated forever, is cancelled with the
//     event "Cancelling deletion of Pod ns/name".
//  4. A pod already being deleted is processed only when its node's NoExecute taints change
//     (handleNodeUpdate goes through every pod on the node) and while a countdown started for it
//     runs: deleting it again changes nothing but the event says it is marked again.
//
// It returns whether anything changed.
func Sync(c *cluster.Cluster, since cluster.Since) bool {
	retainted := retaint(c, since)
	changed := false
	for p := range c.AllPods() {
		at, scheduled := Due(c, p)
		if p.DeletionTimestamp != nil && retainted[p.Spec.NodeName] {
			at, scheduled = due(c, p)
		}
		_, counting := countdowns.Get(c, podKey(p))
		switch {
		case scheduled && !at.After(c.Now()):
			evict(c, p)
			changed = true
		case scheduled && !counting:
			countdowns.Set(c, podKey(p), c.Now())
		case !scheduled && counting:
			countdowns.Forget(c, podKey(p))
			c.Record(p, cluster.EventNormal, "TaintManagerEviction", "Cancelling deletion of Pod "+p.Namespace+"/"+p.Name, component, "")
		}
	}
	return changed
}

// evict is deletePodHandler: the event, then addConditionAndDeletePod — the condition written
// if it changes the pod, and the pod deleted with its own grace period.
func evict(c *cluster.Cluster, p *api.Pod) {
	countdowns.Forget(c, podKey(p))
	c.Record(p, cluster.EventNormal, "TaintManagerEviction", "Marking for deletion Pod "+p.Namespace+"/"+p.Name, component, "")
	marked := api.DeepCopy(p)
	if api.UpdatePodCondition(&marked.Status, api.PodCondition{Type: "DisruptionTarget", ObservedGeneration: p.Generation, Status: api.ConditionTrue,
		Reason: "DeletionByTaintManager", Message: "Taint manager: deleting due to NoExecute taint"}, c.Now()) {
		_ = c.Update(marked)
	}
	c.DeletePod(marked, nil)
}
