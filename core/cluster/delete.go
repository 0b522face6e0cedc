package cluster

import (
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
