package scheduler

import (
	"slices"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// The scheduler reports its events through events.k8s.io/v1 (kube-scheduler's
// NewEventBroadcasterAdapterWithContext, cmd/kube-scheduler/app/options/options.go) as its
// profile's scheduler name, from the instance "<name>-<hostname>" (tools/events NewRecorder):
// kubeadm runs it as a static pod on the control-plane node's network, hd1's in DaemonLab.
const (
	reportingController = "default-scheduler"
	reportingInstance   = reportingController + "-hd1"
)

// report records a scheduler event with its action ("Scheduling", "Binding", "Preempting").
func report(c *cluster.Cluster, regarding, related api.Object, eventType, reason, action, note string) {
	c.Report(regarding, related, eventType, reason, action, note, reportingController, reportingInstance)
}

// Apply carries out a decision: it binds the pod (nodeName, PodScheduled=True, event Scheduled,
// no more nomination) or records why it cannot be placed (PodScheduled=False, reason
// Unschedulable, the FitError message, event FailedScheduling), after preempting its victims.
// The events are about the pod as the cycle found it, before this decision's writes
// (schedule_one.go: handleSchedulingFailure, and finishBinding's assumed pod). It returns
// whether anything changed.
func Apply(c *cluster.Cluster, d Decision) bool {
	found, preempted := d.Pod, false
	if d.preemption.node != "" {
		d.Pod = applyPreemption(c, d.Pod, d.preemption)
		preempted = true
	}
	cond := api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue}
	if d.Node == "" {
		cond = api.PodCondition{Type: api.PodScheduled, ObservedGeneration: d.Pod.Generation, Status: api.ConditionFalse, Reason: "Unschedulable", Message: d.Message}
	}
	for _, old := range d.Pod.Status.Conditions {
		if d.Node == "" && old.Type == api.PodScheduled && old.Status == cond.Status && old.Reason == cond.Reason && old.Message == cond.Message {
			return preempted // the same verdict as last time
		}
	}
	// Stored objects are never changed in place: the copy shares all but what binding writes.
	next := *d.Pod
	pod := &next
	pod.Status.Conditions = slices.Clone(pod.Status.Conditions)
	api.UpdatePodCondition(&pod.Status, cond, c.Now())
	pod.Spec.NodeName = d.Node
	if d.Node != "" {
		pod.Status.NominatedNodeName = ""
	}
	if err := c.Update(pod); err != nil {
		return preempted
	}
	if d.Node == "" {
		report(c, found, nil, cluster.EventWarning, "FailedScheduling", "Scheduling", d.Message)
	} else {
		report(c, found, nil, cluster.EventNormal, "Scheduled", "Binding", "Successfully assigned "+pod.Namespace+"/"+pod.Name+" to "+d.Node)
	}
	return true
}
