package deployment

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

func (s *syncer) hasProgressDeadline() bool {
	d := s.d.Spec.ProgressDeadlineSeconds
	return d != nil && *d != math.MaxInt32
}

func findCondition(st api.DeploymentStatus, typ string) *api.WorkloadCondition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == typ {
			return &st.Conditions[i]
		}
	}
	return nil
}

func progressing(st api.DeploymentStatus) *api.WorkloadCondition {
	return findCondition(st, "Progressing")
}

func condition(typ string, status api.ConditionStatus, reason, msg string, c *cluster.Cluster) api.WorkloadCondition {
	now := api.NewTime(c.Now())
	return api.WorkloadCondition{Type: typ, Status: status, LastUpdateTime: now, LastTransitionTime: now, Reason: reason, Message: msg}
}

// setCondition is SetDeploymentCondition: the same status and reason change nothing; the same
// status keeps its transition time; the condition moves to the end of the list.
func setCondition(st *api.DeploymentStatus, cond api.WorkloadCondition) {
	cur := findCondition(*st, cond.Type)
	if cur != nil && cur.Status == cond.Status && cur.Reason == cond.Reason {
		return
	}
	if cur != nil && cur.Status == cond.Status {
		cond.LastTransitionTime = cur.LastTransitionTime
	}
	removeCondition(st, cond.Type)
	st.Conditions = append(st.Conditions, cond)
}

func removeCondition(st *api.DeploymentStatus, typ string) {
	var keep []api.WorkloadCondition
	for _, c := range st.Conditions {
		if c.Type != typ {
			keep = append(keep, c)
		}
	}
	st.Conditions = keep
}

// calculateStatus is calculateStatus: counts over all the Deployment's ReplicaSets, the new
// one's for updatedReplicas, and the Available condition (at least replicas − maxUnavailable
// available).
func (s *syncer) calculateStatus(newRS *api.ReplicaSet) api.DeploymentStatus {
	st := api.DeploymentStatus{ObservedGeneration: s.d.Generation, CollisionCount: s.d.Status.CollisionCount}
	for _, rs := range s.replicaSets() {
		st.Replicas += rs.Status.Replicas
		st.ReadyReplicas += rs.Status.ReadyReplicas
		st.AvailableReplicas += rs.Status.AvailableReplicas
		if newRS != nil && rs.UID == newRS.UID {
			st.UpdatedReplicas = rs.Status.Replicas
		}
		st.UnavailableReplicas += replicas(rs.Spec.Replicas)
	}
	st.UnavailableReplicas = max(0, st.UnavailableReplicas-st.AvailableReplicas)
	st.Conditions = append(st.Conditions, s.d.Status.Conditions...)
	if st.AvailableReplicas >= replicas(s.d.Spec.Replicas)-s.maxUnavailable() {
		setCondition(&st, condition("Available", api.ConditionTrue, "MinimumReplicasAvailable", "Deployment has minimum availability.", s.c))
	} else {
		setCondition(&st, condition("Available", api.ConditionFalse, "MinimumReplicasUnavailable", "Deployment does not have minimum availability.", s.c))
	}
	return st
}

// complete is DeploymentComplete: every replica updated and available, the spec observed.
func (s *syncer) complete(st api.DeploymentStatus) bool {
	n := replicas(s.d.Spec.Replicas)
	return st.UpdatedReplicas == n && st.Replicas == n && st.AvailableReplicas == n && st.ObservedGeneration >= s.d.Generation
}

// progressingNow is DeploymentProgressing: more pods updated, ready or available, or fewer old.
func (s *syncer) progressingNow(st api.DeploymentStatus) bool {
	old := s.d.Status
	return st.UpdatedReplicas > old.UpdatedReplicas || st.Replicas-st.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		st.ReadyReplicas > old.ReadyReplicas || st.AvailableReplicas > old.AvailableReplicas
}

// timedOut is DeploymentTimedOut: the Progressing condition last moved more than
// progressDeadlineSeconds ago.
func (s *syncer) timedOut(st api.DeploymentStatus) bool {
	cond := progressing(st)
	switch {
	case !s.hasProgressDeadline() || cond == nil || cond.Reason == "NewReplicaSetAvailable":
		return false
	case cond.Reason == "ProgressDeadlineExceeded":
		return true
	}
	return cond.LastUpdateTime.Add(time.Duration(*s.d.Spec.ProgressDeadlineSeconds) * time.Second).Before(s.c.Now())
}

// syncRolloutStatus is syncRolloutStatus: the status, and the Progressing condition —
// NewReplicaSetAvailable when complete, ReplicaSetUpdated while progressing,
// ProgressDeadlineExceeded after progressDeadlineSeconds without progress.
func (s *syncer) syncRolloutStatus() {
	newRS, _ := s.split()
	st := s.calculateStatus(newRS)
	if !s.hasProgressDeadline() {
		removeCondition(&st, "Progressing")
	}
	cur := progressing(s.d.Status)
	completed := st.Replicas == st.UpdatedReplicas && cur != nil && cur.Reason == "NewReplicaSetAvailable"
	if s.hasProgressDeadline() && !completed {
		name := func(what string) string {
			if newRS != nil {
				return fmt.Sprintf("ReplicaSet %q %s", newRS.Name, what)
			}
			return fmt.Sprintf("Deployment %q %s", s.d.Name, what)
		}
		switch {
		case s.complete(st):
			setCondition(&st, condition("Progressing", api.ConditionTrue, "NewReplicaSetAvailable", name("has successfully progressed."), s.c))
		case s.progressingNow(st):
			cond := condition("Progressing", api.ConditionTrue, "ReplicaSetUpdated", name("is progressing."), s.c)
			if cur != nil && cur.Status == api.ConditionTrue {
				cond.LastTransitionTime = cur.LastTransitionTime
			}
			removeCondition(&st, "Progressing")
			setCondition(&st, cond)
		case s.timedOut(st):
			setCondition(&st, condition("Progressing", api.ConditionFalse, "ProgressDeadlineExceeded", name("has timed out progressing."), s.c))
		}
	}
	if !statusEqual(st, s.d.Status) {
		s.d.Status = st
		s.write()
	}
}

func statusEqual(a, b api.DeploymentStatus) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// NextTimer returns when a rollout in progress runs past its deadline.
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var next time.Time
	found := false
	for d := range cluster.All[*api.Deployment](c) {
		cond := progressing(d.Status)
		if d.Spec.ProgressDeadlineSeconds == nil || cond == nil || cond.Status != api.ConditionTrue || cond.Reason == "NewReplicaSetAvailable" {
			continue
		}
		// DeploymentTimedOut compares with Before: the deadline has passed one nanosecond after it.
		t := cond.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds)*time.Second + time.Nanosecond)
		if !found || t.Before(next) {
			next, found = t, true
		}
	}
	return next, found
}
