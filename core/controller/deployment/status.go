package deployment

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// hasProgressDeadline is HasProgressDeadline: progressDeadlineSeconds set, and not MaxInt32.
func hasProgressDeadline(d *api.Deployment) bool {
	p := d.Spec.ProgressDeadlineSeconds
	return p != nil && *p != math.MaxInt32
}

func (s *syncer) hasProgressDeadline() bool { return hasProgressDeadline(s.d) }

// The reasons and messages of the Progressing condition while a Deployment is paused, and once
// it is resumed (PausedDeployReason, ResumedDeployReason in
// pkg/controller/deployment/util/deployment_util.go; checkPausedConditions).
const (
	reasonPaused   = "DeploymentPaused"
	reasonResumed  = "DeploymentResumed"
	messagePaused  = "Deployment is paused"
	messageResumed = "Deployment is resumed"
)

// pausedCondition decides checkPausedConditions (pkg/controller/deployment/sync.go): the
// reason and message of the Progressing condition d's pause or resume calls for, if any.
//
//  1. Without a progress deadline, none: nothing times out, so nothing needs guarding.
//  2. A Progressing condition ProgressDeadlineExceeded stays: a lack of progress once reported
//     is not overwritten, paused or not.
//  3. A paused Deployment whose condition is not already DeploymentPaused: Progressing Unknown
//     DeploymentPaused "Deployment is paused".
//  4. A Deployment no longer paused whose condition is still DeploymentPaused: Progressing
//     Unknown DeploymentResumed "Deployment is resumed".
//  5. Otherwise none.
func pausedCondition(d *api.Deployment) (reason, message string, ok bool) {
	if !hasProgressDeadline(d) {
		return "", "", false
	}
	cur := progressing(d.Status)
	if cur != nil && cur.Reason == "ProgressDeadlineExceeded" {
		return "", "", false
	}
	pausedShown := cur != nil && cur.Reason == reasonPaused
	switch {
	case d.Spec.Paused && !pausedShown:
		return reasonPaused, messagePaused, true
	case !d.Spec.Paused && pausedShown:
		return reasonResumed, messageResumed, true
	}
	return "", "", false
}

// checkPausedConditions applies pausedCondition: the condition is set (setCondition: from
// DeploymentPaused to DeploymentResumed the status stays Unknown, so the transition time stays
// the pause's) with lastUpdateTime now, and written at once, before the sync goes on. A
// resumed Deployment's progress deadline so counts from the resume (see timedOut), not from
// the last progress before the pause; syncRolloutStatus replaces the condition as soon as the
// rollout progresses or completes.
func (s *syncer) checkPausedConditions() {
	reason, message, ok := pausedCondition(s.d)
	if !ok {
		return
	}
	setCondition(&s.d.Status, condition("Progressing", api.ConditionUnknown, reason, message, s.c))
	s.write()
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
	s.writeStatus(st)
}

// writeStatus writes st unless it is the status the Deployment has (syncDeploymentStatus, and
// the end of syncRolloutStatus). Alone after calculateStatus, it is syncDeploymentStatus: the
// counts and the Available condition, the Progressing condition as it stands.
func (s *syncer) writeStatus(st api.DeploymentStatus) {
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

// deadlineSkew is the second requeueStuckDeployment adds to the wait for a progress check, to
// absorb the workqueue's millisecond skew (pkg/controller/deployment/progress.go).
const deadlineSkew = time.Second

// progressCheck is requeueStuckDeployment (pkg/controller/deployment/progress.go): when d is
// synced again to check whether its rollout ran past its deadline.
//
//  1. Only a rollout syncRolloutStatus checks is: not one being deleted or paused (their syncs
//     never reach syncRolloutStatus), and one with a progress deadline and a Progressing
//     condition.
//  2. Not one complete (NewReplicaSetAvailable) or already timed out (ProgressDeadlineExceeded);
//     nor one whose new ReplicaSet the API server refused (ReplicaSetCreateError: its syncs
//     fail before the status).
//  3. The check comes at the condition's lastUpdateTime + progressDeadlineSeconds + 1s. As
//     DeploymentTimedOut needs the deadline strictly passed (Before), the check finds it
//     passed, and ProgressDeadlineExceeded is stamped one second after the deadline.
//
// Not modelled: a sync less than a second before the deadline requeues the Deployment at once,
// rate-limited, milliseconds apart, until it is past. DaemonLab instead syncs every Deployment
// whenever the cluster settles, so one that settles at another instant between the deadline
// and the check times out there.
func progressCheck(d *api.Deployment) (time.Time, bool) {
	cond := progressing(d.Status)
	switch {
	case d.DeletionTimestamp != nil || d.Spec.Paused || !hasProgressDeadline(d) || cond == nil:
		return time.Time{}, false
	case cond.Reason == "NewReplicaSetAvailable" || cond.Reason == "ProgressDeadlineExceeded" || cond.Reason == "ReplicaSetCreateError":
		return time.Time{}, false
	}
	return cond.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds)*time.Second + deadlineSkew), true
}

// NextTimer returns the first progress check due (see progressCheck).
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var next time.Time
	found := false
	for d := range cluster.All[*api.Deployment](c) {
		if t, ok := progressCheck(d); ok && (!found || t.Before(next)) {
			next, found = t, true
		}
	}
	return next, found
}
