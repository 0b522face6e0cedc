package cluster

import (
	"slices"
	"time"

	"daemonlab/core/api"
)

// DeletePod deletes a pod as the API server does (pod strategy CheckGracefulDelete):
//
//  1. A pod no node has taken, or one that has finished (Succeeded or Failed), is removed at once.
//  2. Otherwise the pod is only marked: deletionTimestamp is now plus the grace period,
//     deletionGracePeriodSeconds the grace period (the pod's terminationGracePeriodSeconds
//     unless grace is given, 0 meaning "immediately": --force --grace-period=0). Its kubelet
//     removes it once the containers have stopped; until then kubectl shows it Terminating.
//
// A pod already being deleted keeps its deadline unless grace shortens it.
func (c *Cluster) DeletePod(p *api.Pod, grace *int64) {
	terminal := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
	seconds := int64(30)
	if p.Spec.TerminationGracePeriodSeconds != nil {
		seconds = *p.Spec.TerminationGracePeriodSeconds
	}
	if grace != nil {
		seconds = *grace
	}
	if p.Spec.NodeName == "" || terminal || seconds == 0 {
		c.Delete(p)
		return
	}
	if p.DeletionGracePeriodSeconds != nil && *p.DeletionGracePeriodSeconds <= seconds {
		return
	}
	marked := api.DeepCopy(p)
	deadline := api.NewTime(c.now.Add(time.Duration(seconds) * time.Second))
	marked.DeletionTimestamp = &deadline
	marked.DeletionGracePeriodSeconds = &seconds
	_ = c.Update(marked)
}

// Propagation is a delete's propagationPolicy: what happens to the objects the deleted one owns.
type Propagation string

const (
	// Background deletes the owner now; the garbage collector then deletes its dependents.
	Background Propagation = "Background"
	// Foreground deletes the dependents first; the owner stays, being deleted, until they are gone.
	Foreground Propagation = "Foreground"
	// Orphan keeps the dependents and removes their owner references.
	Orphan Propagation = "Orphan"
)

// The finalizers the garbage collector acts on.
const (
	FinalizerForeground = "foregroundDeletion"
	FinalizerOrphan     = "orphan"
)

// DeleteObject deletes any object as the API server does: Foreground and Orphan add their
// finalizer and only mark the object (deletionTimestamp); an object with finalizers is only
// marked; anything else is removed at once. Pods go through DeletePod's graceful deletion
// whatever the policy (they own nothing).
func (c *Cluster) DeleteObject(obj api.Object, policy Propagation, grace *int64) {
	if p, ok := obj.(*api.Pod); ok {
		c.DeletePod(p, grace) // pods own nothing; their deletion is the kubelet's
		return
	}
	m := obj.GetObjectMeta()
	finalizer := map[Propagation]string{Foreground: FinalizerForeground, Orphan: FinalizerOrphan}[policy]
	if finalizer == "" && len(m.Finalizers) == 0 {
		c.Delete(obj)
		return
	}
	marked := api.DeepCopyObject(obj)
	mm := marked.GetObjectMeta()
	if finalizer != "" && !slices.Contains(mm.Finalizers, finalizer) {
		mm.Finalizers = append(mm.Finalizers, finalizer)
	}
	if mm.DeletionTimestamp == nil {
		now := api.NewTime(c.now)
		mm.DeletionTimestamp = &now
		zero := int64(0)
		mm.DeletionGracePeriodSeconds = &zero
	}
	_ = c.Update(marked)
}

// RemoveFinalizer removes a finalizer; an object being deleted that has none left is removed.
func (c *Cluster) RemoveFinalizer(obj api.Object, finalizer string) {
	next := api.DeepCopyObject(obj)
	m := next.GetObjectMeta()
	m.Finalizers = slices.DeleteFunc(m.Finalizers, func(f string) bool { return f == finalizer })
	if m.DeletionTimestamp != nil && len(m.Finalizers) == 0 {
		c.Delete(next)
		return
	}
	_ = c.Update(next)
}
