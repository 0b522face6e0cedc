package apiserver

import (
	"fmt"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// Evict is the pods/eviction subresource (pkg/registry/core/pod/storage/eviction.go Create):
//
//  1. The pod must exist (NotFound).
//  2. A pod that is Pending, Succeeded or Failed, or already being deleted, is deleted without
//     a look at any budget (canIgnorePDB): it is no disruption.
//  3. Otherwise the PodDisruptionBudgets of its namespace whose selector matches its labels
//     decide (a budget whose selector is missing or broken matches nothing): more than one is
//     a 500, "This pod has more than one PodDisruptionBudget, which the eviction subresource
//     does not support."; none lets the eviction through.
//  4. A pod that is not Ready is let through without spending the budget when the budget's
//     unhealthyPodEvictionPolicy is AlwaysAllow, or (IfHealthyBudget, the default) when
//     currentHealthy >= desiredHealthy > 0.
//  5. Otherwise the budget is spent (checkAndDecrement), or the eviction is refused with a 429.
//  6. The pod gets the DisruptionTarget condition ("EvictionByEvictionAPI"), in place of one it
//     had (UpdatePodCondition), and is deleted gracefully, with the grace period given or its
//     own.
func Evict(c *cluster.Cluster, key cluster.Key, grace *int64) error {
	obj := c.Get("Pod", key)
	if obj == nil {
		return NotFound(KindOf(&api.Pod{}), key.Name)
	}
	pod := obj.(*api.Pod)
	if ph := pod.Status.Phase; ph != api.PodPending && ph != api.PodSucceeded && ph != api.PodFailed && pod.DeletionTimestamp == nil {
		if err := spendBudget(c, pod); err != nil {
			return err
		}
	}
	marked := api.DeepCopy(pod)
	api.UpdatePodCondition(&marked.Status, api.PodCondition{Type: "DisruptionTarget", Status: api.ConditionTrue,
		Reason: "EvictionByEvictionAPI", Message: "Eviction API: evicting"}, c.Now())
	_ = c.Update(marked)
	c.DeletePod(marked, grace)
	return nil
}

// spendBudget is rules 3 to 5 of Evict for a running pod.
func spendBudget(c *cluster.Cluster, pod *api.Pod) error {
	var pdbs []*api.PodDisruptionBudget
	for pdb := range cluster.All[*api.PodDisruptionBudget](c) {
		if sel, err := api.LabelSelectorAsSelector(pdb.Spec.Selector); err == nil && pdb.Namespace == pod.Namespace && sel.Matches(pod.Labels) {
			pdbs = append(pdbs, pdb)
		}
	}
	switch {
	case len(pdbs) > 1:
		return &StatusError{Code: 500, Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}
	case len(pdbs) == 0:
		return nil
	}
	pdb := pdbs[0]
	if !api.IsPodReady(pod) {
		if p := pdb.Spec.UnhealthyPodEvictionPolicy; p != nil && *p == api.AlwaysAllow ||
			pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0 {
			return nil
		}
	}
	return checkAndDecrement(c, pod.Name, pdb)
}

// checkAndDecrement spends one disruption of a budget (EvictionREST.checkAndDecrement):
//
//  1. A budget whose status the disruption controller has not caught up with
//     (observedGeneration < generation) refuses: 429, "The disruption budget NAME is still being
//     processed by the server."
//  2. A budget that allows no disruption refuses: 429, with why as the DisruptionBudget cause —
//     its failed sync, "needs N healthy pods and has M currently", or its condition.
//  3. Otherwise disruptionsAllowed goes down by one (the condition turns InsufficientPods at 0)
//     and the pod joins disruptedPods at this instant, so that the controller does not count it
//     healthy until it is gone, or two minutes have passed.
func checkAndDecrement(c *cluster.Cluster, pod string, pdb *api.PodDisruptionBudget) error {
	st := pdb.Status
	if st.ObservedGeneration < pdb.Generation {
		return tooManyRequests(fmt.Sprintf("The disruption budget %s is still being processed by the server.", pdb.Name))
	}
	if st.DisruptionsAllowed == 0 {
		cond := disruptionAllowed(st.Conditions)
		failed := cond != nil && cond.Status == api.ConditionFalse && cond.Message != ""
		var why string
		switch {
		case failed && cond.Reason == api.SyncFailedReason:
			why = fmt.Sprintf("The disruption budget %s does not allow evicting pods currently because it failed sync: %s", pdb.Name, cond.Message)
		case st.CurrentHealthy <= st.DesiredHealthy:
			why = fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", pdb.Name, st.DesiredHealthy, st.CurrentHealthy)
		case failed:
			why = fmt.Sprintf("The disruption budget %s does not allow evicting pods currently (%s): %s", pdb.Name, cond.Reason, cond.Message)
		default:
			why = fmt.Sprintf("The disruption budget %s does not allow evicting pods currently", pdb.Name)
		}
		return tooManyRequests(why)
	}
	next := api.DeepCopy(pdb)
	next.Status.DisruptionsAllowed--
	if next.Status.DisruptionsAllowed == 0 {
		SetDisruptionAllowed(next, c.Now())
	}
	if next.Status.DisruptedPods == nil {
		next.Status.DisruptedPods = map[string]api.Time{}
	}
	next.Status.DisruptedPods[pod] = api.NewTime(c.Now())
	_, err := UpdateStatus(c, next, Options{})
	return err
}

// SetDisruptionAllowed is UpdateDisruptionAllowedCondition
// (k8s.io/component-helpers/apps/poddisruptionbudget): DisruptionAllowed is True for
// SufficientPods while disruptionsAllowed > 0, False for InsufficientPods otherwise, at the
// status' observed generation.
func SetDisruptionAllowed(pdb *api.PodDisruptionBudget, now time.Time) {
	cond := api.Condition{Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse, Reason: api.InsufficientPodsReason,
		ObservedGeneration: pdb.Status.ObservedGeneration, LastTransitionTime: api.NewTime(now)}
	if pdb.Status.DisruptionsAllowed > 0 {
		cond.Status, cond.Reason = api.ConditionTrue, api.SufficientPodsReason
	}
	api.SetCondition(&pdb.Status.Conditions, cond)
}

// disruptionAllowed finds a budget's DisruptionAllowed condition.
func disruptionAllowed(conds []api.Condition) *api.Condition {
	for i := range conds {
		if conds[i].Type == api.DisruptionAllowedCondition {
			return &conds[i]
		}
	}
	return nil
}

// tooManyRequests is the Eviction API's 429 (createTooManyRequestsError), why being its
// DisruptionBudget cause.
func tooManyRequests(why string) *StatusError {
	return newStatus(ReasonTooManyRequests, Details{Budget: why}, "Cannot evict pod as it would violate the pod's disruption budget.")
}
