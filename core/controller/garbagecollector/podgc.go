package garbagecollector

import (
	"slices"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// Pod GC's timing (pkg/controller/podgc/gc_controller.go).
const (
	gcCheckPeriod  = 20 * time.Second
	quarantineTime = 40 * time.Second
)

// lastCheck returns the check at or before now: pod GC runs at the start and every 20s after.
func lastCheck(now time.Time) time.Time {
	return cluster.Epoch.Add(now.Sub(cluster.Epoch) / gcCheckPeriod * gcCheckPeriod)
}

// ran is the check pod GC last ran at: once per check, whatever happens at that instant after.
var ran = cluster.NewMemo[string, time.Time]("podgc/ran")

// quarantine is gcOrphaned's node queue: when each node found missing comes out of it
// (AddAfter quarantineTime). An entry older than the check has come out at an earlier one.
var quarantine = cluster.NewMemo[string, time.Time]("podgc/quarantine")

// forceDeletion is a pod pod GC deletes, with the condition it writes first (nil for none).
type forceDeletion struct {
	pod       *api.Pod
	condition *api.PodCondition
}

// podGC is what one check decided: the nodes put in quarantine and the ones out of it (named
// once per pod), and the pods to delete, in the order of the rules.
type podGC struct {
	quarantined, released []string
	deletions             []forceDeletion
}

// isNodeReady is nodeutil.IsNodeReady: the Ready condition is True (a node without one is not).
func isNodeReady(n *api.Node) bool {
	i := slices.IndexFunc(n.Status.Conditions, func(c api.NodeCondition) bool { return c.Type == api.NodeReady })
	return i >= 0 && n.Status.Conditions[i].Status == api.ConditionTrue
}

// The rules by which pod GC deletes a pod (see decidePods).
type podRule int

const (
	keep podRule = iota
	terminatingOutOfService
	orphaned
	unscheduledTerminating
)

// GoesOutOfService reports whether pod GC force-deletes a pod at its next check because its
// node is out of service (terminatingOutOfService).
func GoesOutOfService(c *cluster.Cluster, p *api.Pod) bool {
	return ruleFor(c, p) == terminatingOutOfService
}

// ruleFor returns the rule that picks a pod, if one does:
//   - terminatingOutOfService: it is terminating on a node that exists, is not Ready and has a
//     taint of key node.kubernetes.io/out-of-service (any value, any effect);
//   - orphaned: it is bound to a node that does not exist;
//   - unscheduledTerminating: it is terminating and bound to no node.
func ruleFor(c *cluster.Cluster, p *api.Pod) podRule {
	if p.Spec.NodeName == "" {
		if p.DeletionTimestamp != nil {
			return unscheduledTerminating
		}
		return keep
	}
	n := c.Node(p.Spec.NodeName)
	switch {
	case n == nil:
		return orphaned
	case p.DeletionTimestamp != nil && !isNodeReady(n) &&
		slices.ContainsFunc(n.Spec.Taints, func(t api.Taint) bool { return t.Key == api.TaintNodeOutOfService }):
		return terminatingOutOfService
	}
	return keep
}

// orphanedBy is the condition gcOrphaned writes.
var orphanedBy = api.PodCondition{Type: "DisruptionTarget", Status: api.ConditionTrue, Reason: "DeletionByPodGC", Message: "PodGC: node no longer exists"}

// decidePods is pod GC's gc at a check:
//
//  1. gcTerminating: a terminating pod on a node that is not Ready and carries the out-of-service
//     taint goes — non-graceful node shutdown: no kubelet will confirm its end.
//  2. gcOrphaned: a node that pods are bound to and that does not exist is put in quarantine for
//     40s (one already there keeps its time); at the check its quarantine ends, if the node is
//     still missing, its pods go with DisruptionTarget "DeletionByPodGC".
//  3. gcUnscheduledTerminating: a terminating pod bound to no node goes.
//
// Upstream's gcTerminated, which deletes finished pods past the --terminated-pod-gc-threshold
// (12,500 by default, pkg/controller/podgc/config/v1alpha1/defaults.go), is left out: a
// playground never holds that many, and below it finished pods stay, as they do here.
func decidePods(c *cluster.Cluster) podGC {
	var gc podGC
	var by [unscheduledTerminating + 1][]forceDeletion
	for _, p := range c.Pods() {
		rule := ruleFor(c, p)
		if rule == keep {
			continue
		}
		if rule != orphaned {
			by[rule] = append(by[rule], forceDeletion{pod: p})
			continue
		}
		out, queued := quarantine.Get(c, p.Spec.NodeName)
		switch {
		case queued && out.Equal(c.Now()):
			gc.released = append(gc.released, p.Spec.NodeName)
			by[rule] = append(by[rule], forceDeletion{pod: p, condition: &orphanedBy})
		case !queued || out.Before(c.Now()):
			gc.quarantined = append(gc.quarantined, p.Spec.NodeName)
		}
	}
	for _, picked := range by[terminatingOutOfService:] {
		gc.deletions = append(gc.deletions, picked...)
	}
	return gc
}

// apply carries a check's decisions out: each pod goes as markFailed says, deleted with a grace
// period of 0 — gone at once, whatever its kubelet does. Pod GC records no events, only logs.
func (gc podGC) apply(c *cluster.Cluster) {
	for _, node := range gc.quarantined {
		quarantine.Set(c, node, c.Now().Add(quarantineTime))
	}
	for _, node := range gc.released {
		quarantine.Forget(c, node)
	}
	zero := int64(0)
	for _, d := range gc.deletions {
		if failed, ok := d.markFailed(c.Now()); ok {
			if _, err := apiserver.UpdateStatus(c, failed, apiserver.Options{}); err != nil {
				continue
			}
		}
		_, _ = apiserver.Delete(c, apiserver.KindOf(d.pod), cluster.KeyOf(d.pod), apiserver.DeleteOptions{GracePeriodSeconds: &zero})
	}
}

// markFailed is the status markFailedAndDeletePodWithCondition writes before it deletes: a pod
// neither Succeeded nor Failed becomes Failed and observes its generation, with the condition if
// there is one (observing it too, in place of one of its type, keeping its lastTransitionTime
// when the status is the same); ok is false for a pod already finished, deleted as it is.
func (d forceDeletion) markFailed(now time.Time) (failed *api.Pod, ok bool) {
	if d.pod.Status.Phase == api.PodSucceeded || d.pod.Status.Phase == api.PodFailed {
		return nil, false
	}
	failed = api.DeepCopy(d.pod)
	failed.Status.Phase = api.PodFailed
	failed.Status.ObservedGeneration = d.pod.Generation
	if d.condition != nil {
		cond := *d.condition
		cond.ObservedGeneration = d.pod.Generation
		api.UpdatePodCondition(&failed.Status, cond, now)
	}
	return failed, true
}

// SyncPods runs pod GC (PodGCController.gc) once at each of its checks, every 20s: it decides
// (decidePods), then applies. It returns whether it deleted anything.
func SyncPods(c *cluster.Cluster) bool {
	check := lastCheck(c.Now())
	if last, ok := ran.Get(c, ""); !c.Now().Equal(check) || ok && last.Equal(check) {
		return false
	}
	ran.Set(c, "", check)
	gc := decidePods(c)
	gc.apply(c)
	return len(gc.deletions) > 0
}

// NextTimer returns the next check at which pod GC has something to do: a pod that rule 1 or 3
// picks, a pod on a missing node not in quarantine, or the end of a quarantine.
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var due time.Time
	found := false
	for p := range c.AllPods() {
		rule := ruleFor(c, p)
		if rule == keep {
			continue
		}
		t := lastCheck(c.Now()).Add(gcCheckPeriod)
		if out, ok := quarantine.Get(c, p.Spec.NodeName); rule == orphaned && ok && out.After(c.Now()) {
			t = out
		}
		if !found || t.Before(due) {
			due, found = t, true
		}
	}
	return due, found
}
