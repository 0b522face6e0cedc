package scheduler

import (
	"slices"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// Apply carries out a decision: it binds the pod (nodeName, PodScheduled=True, event Scheduled,
// no more nomination) or records why it cannot be placed (PodScheduled=False, reason
// Unschedulable, the FitError message, event FailedScheduling), after preempting its victims.
// It returns whether anything changed.
func Apply(c *cluster.Cluster, d Decision) bool {
	preempted := false
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
	cond.LastTransitionTime = api.NewTime(c.Now())
	setCondition(&pod.Status, cond)
	pod.Spec.NodeName = d.Node
	if d.Node != "" {
		pod.Status.NominatedNodeName = ""
	}
	if err := c.Update(pod); err != nil {
		return preempted
	}
	if d.Node == "" {
		c.Record(pod, cluster.EventWarning, "FailedScheduling", d.Message, "default-scheduler", "")
	} else {
		c.Record(pod, cluster.EventNormal, "Scheduled", "Successfully assigned "+pod.Namespace+"/"+pod.Name+" to "+d.Node, "default-scheduler", "")
	}
	return true
}

func setCondition(s *api.PodStatus, cond api.PodCondition) {
	for i := range s.Conditions {
		if s.Conditions[i].Type == cond.Type {
			s.Conditions[i] = cond
			return
		}
	}
	s.Conditions = append(s.Conditions, cond)
}
