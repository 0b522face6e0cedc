// Package garbagecollector is kube-controller-manager's garbage collector and pod GC: it
// deletes objects whose owners are gone, runs foreground and orphan deletions (this file), and
// force-deletes the pods nothing else will remove (podgc.go).
package garbagecollector

import (
	"slices"

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
// A reference to a Node (a mirror pod's, kubelet.MirrorPod) is not judged: a pass over every
// node at every change of one would make joins cost the square of the nodes, and when a node
// goes pod GC deletes its pods (gcOrphaned), mirror pods with them. Upstream the garbage
// collector deletes them first, so they show Terminating for those 40s; DaemonLab leaves them
// Running until pod GC.
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
			gone := func(r api.OwnerReference) bool { return r.Kind != "Node" && !live[r.UID] }
			if !slices.ContainsFunc(refs, gone) {
				continue
			}
			alive := slices.DeleteFunc(slices.Clone(refs), gone)
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
