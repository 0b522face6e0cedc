// Package garbagecollector is kube-controller-manager's garbage collector and pod GC: it
// deletes objects whose owners are gone, runs foreground and orphan deletions, and removes the
// pods of nodes that no longer exist.
package garbagecollector

import (
	"slices"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// dependentKinds are the kinds DaemonLab's controllers create with owner references.
var dependentKinds = []string{"ReplicaSet", "Pod", "ControllerRevision"}

// ownerKinds are the kinds that own something.
var ownerKinds = []string{"Deployment", "ReplicaSet", "DaemonSet"}

// finalizedKinds are the kinds whose deletion can wait on the garbage collector's finalizers:
// owners, and dependents deleted in the foreground (pods are deleted gracefully instead).
var finalizedKinds = append(slices.Clone(ownerKinds), "ControllerRevision")

// dependents returns the objects with an owner reference to uid.
func dependents(c *cluster.Cluster, uid string) []api.Object {
	var out []api.Object
	for _, kind := range dependentKinds {
		for o := range c.Each(kind) {
			if slices.ContainsFunc(o.GetObjectMeta().OwnerReferences, func(r api.OwnerReference) bool { return r.UID == uid }) {
				out = append(out, o)
			}
		}
	}
	return out
}

// Sync runs the garbage collector (attemptToDeleteItem, processDeletingDependentsItem,
// orphanDependents):
//
//  1. An owner being deleted with the orphan finalizer: its dependents lose their references to
//     it, then the finalizer goes (and with it the owner).
//  2. An owner being deleted with the foregroundDeletion finalizer: its dependents are deleted
//     (foreground too, so the deletion walks down); once none is left, the finalizer goes.
//  3. A dependent none of whose owners exists any more is deleted in the background; references
//     to owners that are gone are dropped from dependents that still have one.
//
// It returns whether anything changed.
func Sync(c *cluster.Cluster) bool {
	before := c.Version()
	var all []api.Object
	for _, kind := range finalizedKinds {
		all = append(all, c.ListKind(kind)...)
	}
	for _, o := range all {
		m := o.GetObjectMeta()
		if m.DeletionTimestamp == nil {
			continue
		}
		deps := dependents(c, m.UID)
		switch {
		case slices.Contains(m.Finalizers, cluster.FinalizerOrphan):
			for _, d := range deps {
				orphan(c, d, m.UID)
			}
			c.RemoveFinalizer(o, cluster.FinalizerOrphan)
		case slices.Contains(m.Finalizers, cluster.FinalizerForeground):
			for _, d := range deps {
				if d.GetObjectMeta().DeletionTimestamp == nil {
					c.DeleteObject(d, cluster.Foreground, nil)
				}
			}
			if len(deps) == 0 {
				c.RemoveFinalizer(o, cluster.FinalizerForeground)
			}
		}
	}
	live := map[string]bool{}
	for _, kind := range ownerKinds {
		for o := range c.Each(kind) {
			live[o.GetObjectMeta().UID] = true
		}
	}
	for _, kind := range dependentKinds {
		for d := range c.Each(kind) {
			refs := d.GetObjectMeta().OwnerReferences
			if !slices.ContainsFunc(refs, func(r api.OwnerReference) bool { return !live[r.UID] }) {
				continue
			}
			alive := slices.DeleteFunc(slices.Clone(refs), func(r api.OwnerReference) bool { return !live[r.UID] })
			switch {
			case len(alive) == 0 && d.GetObjectMeta().DeletionTimestamp == nil:
				c.DeleteObject(d, cluster.Background, nil)
			case len(alive) > 0 && len(alive) < len(refs):
				next := api.DeepCopyObject(d)
				next.GetObjectMeta().OwnerReferences = alive
				_ = c.Update(next)
			}
		}
	}
	return c.Version() != before
}

func orphan(c *cluster.Cluster, d api.Object, owner string) {
	next := api.DeepCopyObject(d)
	m := next.GetObjectMeta()
	m.OwnerReferences = slices.DeleteFunc(m.OwnerReferences, func(r api.OwnerReference) bool { return r.UID == owner })
	_ = c.Update(next)
}

// Pod GC's timing (pkg/controller/podgc): it looks every 20s, and deletes a pod bound to a
// missing node once the node has been missing for the 40s quarantine.
const (
	gcCheckPeriod  = 20 * time.Second
	quarantineTime = 40 * time.Second
)

func lastCheck(now time.Time) time.Time {
	return cluster.Epoch.Add(now.Sub(cluster.Epoch) / gcCheckPeriod * gcCheckPeriod)
}

// missingSince is the check at which pod GC first saw each missing node missing, by node.
var missingSince = cluster.NewMemo[string, time.Time]("podgc/missing")

// SyncPods runs pod GC's gcOrphaned at its checks: a pod bound to a node that does not exist is
// marked Failed with DisruptionTarget ("DeletionByPodGC", "PodGC: node no longer exists") and
// deleted at once, 40s after the node was first seen missing.
func SyncPods(c *cluster.Cluster) bool {
	check := lastCheck(c.Now())
	changed := false
	for p := range c.AllPods() {
		if p.Spec.NodeName == "" {
			continue
		}
		if c.Node(p.Spec.NodeName) != nil {
			missingSince.Forget(c, p.Spec.NodeName)
			continue
		}
		seen, ok := missingSince.Get(c, p.Spec.NodeName)
		if !ok {
			if c.Now().Equal(check) { // pod GC only looks at its checks
				missingSince.Set(c, p.Spec.NodeName, check)
			}
			continue
		}
		if check.Before(seen.Add(quarantineTime)) {
			continue
		}
		failed := api.DeepCopy(p)
		if failed.Status.Phase != api.PodSucceeded && failed.Status.Phase != api.PodFailed {
			failed.Status.Phase = api.PodFailed
			failed.Status.Conditions = append(failed.Status.Conditions, api.PodCondition{Type: "DisruptionTarget", Status: api.ConditionTrue,
				LastTransitionTime: api.NewTime(c.Now()), Reason: "DeletionByPodGC", Message: "PodGC: node no longer exists"})
		}
		c.Delete(failed)
		changed = true
	}
	return changed
}

// NextTimer returns the pod GC check that will delete a pod of a missing node.
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var next time.Time
	found := false
	for p := range c.AllPods() {
		if p.Spec.NodeName == "" || c.Node(p.Spec.NodeName) != nil {
			continue
		}
		t := lastCheck(c.Now()).Add(gcCheckPeriod)
		if seen, ok := missingSince.Get(c, p.Spec.NodeName); ok {
			if due := lastCheck(seen.Add(quarantineTime + gcCheckPeriod - time.Nanosecond)); due.After(t) {
				t = due
			}
		}
		if !found || t.Before(next) {
			next, found = t, true
		}
	}
	return next, found
}
