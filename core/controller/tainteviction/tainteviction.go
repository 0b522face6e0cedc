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
// not tolerated, else the time its countdown started plus the smallest tolerationSeconds.
func Due(c *cluster.Cluster, p *api.Pod) (at time.Time, scheduled bool) {
	node := c.Node(p.Spec.NodeName)
	if node == nil || p.DeletionTimestamp != nil {
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

// Sync processes every pod on a NoExecute-tainted node (processPodOnNode):
//
//  1. A countdown starts when the controller first sees the pod under a taint it tolerates for a
//     while; the controller does not read the taint's timeAdded.
//  2. A pod whose time has come gets DisruptionTarget=True ("DeletionByTaintManager") and is
//     deleted gracefully, with the event TaintManagerEviction "Marking for deletion Pod ns/name".
//  3. A countdown whose taints are gone, or are now tolerated forever, is cancelled with the
//     event "Cancelling deletion of Pod ns/name".
//
// It returns whether anything changed.
func Sync(c *cluster.Cluster) bool {
	changed := false
	for p := range c.AllPods() {
		at, scheduled := Due(c, p)
		_, counting := countdowns.Get(c, podKey(p))
		switch {
		case scheduled && !at.After(c.Now()):
			evict(c, p)
			changed = true
		case scheduled && !counting:
			countdowns.Set(c, podKey(p), c.Now())
		case !scheduled && counting:
			countdowns.Forget(c, podKey(p))
			if p.DeletionTimestamp == nil && c.Get("Pod", podKey(p)) != nil {
				c.Record(p, cluster.EventNormal, "TaintManagerEviction", "Cancelling deletion of Pod "+p.Namespace+"/"+p.Name, component, "")
			}
		}
	}
	return changed
}

func evict(c *cluster.Cluster, p *api.Pod) {
	countdowns.Forget(c, podKey(p))
	marked := api.DeepCopy(p)
	marked.Status.Conditions = append(marked.Status.Conditions, api.PodCondition{Type: "DisruptionTarget", ObservedGeneration: p.Generation, Status: api.ConditionTrue,
		LastTransitionTime: api.NewTime(c.Now()), Reason: "DeletionByTaintManager", Message: "Taint manager: deleting due to NoExecute taint"})
	_ = c.Update(marked)
	c.Record(marked, cluster.EventNormal, "TaintManagerEviction", "Marking for deletion Pod "+p.Namespace+"/"+p.Name, component, "")
	c.DeletePod(marked, nil)
}
