package scheduler

import (
	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// Apply carries out a decision: it binds the pod (nodeName, PodScheduled=True) or records why it
// cannot be placed (PodScheduled=False, reason Unschedulable, the FitError message). It returns
// whether the pod changed.
func Apply(c *cluster.Cluster, d Decision) bool {
	cond := api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue}
	if d.Node == "" {
		cond = api.PodCondition{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: "Unschedulable", Message: d.Message}
	}
	for _, old := range d.Pod.Status.Conditions {
		if d.Node == "" && old.Type == api.PodScheduled && old.Status == cond.Status && old.Reason == cond.Reason && old.Message == cond.Message {
			return false // the same verdict as last time
		}
	}
	pod := api.DeepCopy(d.Pod)
	cond.LastTransitionTime = api.NewTime(c.Now())
	setCondition(&pod.Status, cond)
	pod.Spec.NodeName = d.Node
	return c.Update(pod) == nil
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
