package scheduler

import (
	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// newCycleWithout reads the cluster for Explain. For a pending pod it is NewCycle. A bound pod
// is left out of the cycle and returned as a pending copy (spec.nodeName unset), so that its
// scheduling attempt runs in the cluster as it is now but for the pod itself: its node does
// not count its requests, and no plugin counts it among the pods it looks at.
func newCycleWithout(c *cluster.Cluster, pod *api.Pod) (*Cycle, *api.Pod) {
	cy := &Cycle{c: c}
	if pod.Spec.NodeName != "" {
		cy.without = pod.UID
		pending := *pod
		pending.Spec.NodeName = ""
		pod = &pending
	}
	cy.reload()
	return cy, pod
}

// Placer is who put a bound pod on its node, as far as the API tells.
type Placer int

const (
	// PlacedByScheduler: default-scheduler bound it (its Scheduled event says so).
	PlacedByScheduler Placer = iota
	// PlacedByNodeName: spec.nodeName was set when the pod was created; no scheduler chose.
	PlacedByNodeName
	// PlacedByKubelet: a static pod's mirror; the kubelet runs it from a file on its node.
	PlacedByKubelet
	// PlacedUnknown: the record has expired (see PlacedBy).
	PlacedUnknown
)

// PlacedBy says who put a bound pod on its node, from what the API keeps (no field records
// it: the binding and a pod created with spec.nodeName look alike):
//
//  1. a mirror pod (kubernetes.io/config.mirror) is the kubelet's: PlacedByKubelet;
//  2. a Scheduled event from default-scheduler about the pod: PlacedByScheduler;
//  3. without one, when the pod has no PodScheduled=True condition (the scheduler writes it as
//     it binds; a kubelet adds it to a pod it takes with no condition) or one younger than the
//     events' TTL (an hour, so the event would still be there): PlacedByNodeName;
//  4. else the event may have expired: PlacedUnknown.
func PlacedBy(c *cluster.Cluster, pod *api.Pod) Placer {
	if api.IsMirrorPod(pod) {
		return PlacedByKubelet
	}
	for obj := range c.Each("Event") {
		e := obj.(*api.Event)
		if e.InvolvedObject.UID == pod.UID && e.Reason == "Scheduled" && e.ReportingComponent == reportingController {
			return PlacedByScheduler
		}
	}
	for _, cond := range pod.Status.Conditions {
		if cond.Type == api.PodScheduled && cond.Status == api.ConditionTrue && !c.Now().Before(cond.LastTransitionTime.Add(cluster.EventTTL)) {
			return PlacedUnknown
		}
	}
	return PlacedByNodeName
}
