package deployment

import (
	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/controller"
)

// rolloutRolling is rolloutRolling:
//
//  1. Scale the new ReplicaSet up as far as maxSurge allows (reconcileNewReplicaSet); if it
//     scaled, stop here for this sync.
//  2. Otherwise scale old ReplicaSets down as far as maxUnavailable allows
//     (reconcileOldReplicaSets): first their unavailable pods, then available ones, oldest
//     ReplicaSet first.
//  3. When the rollout is complete, prune old ReplicaSets.
func (s *syncer) rolloutRolling() {
	newRS, old := s.newReplicaSet(true)
	if newRS == nil {
		return
	}
	all := append(append([]*api.ReplicaSet(nil), old...), newRS)
	if s.reconcileNewReplicaSet(all, newRS) || s.reconcileOldReplicaSets(all, active(old), newRS) {
		return
	}
	if s.complete(s.calculateStatus(newRS)) {
		s.cleanup(old)
	}
}

func active(rss []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if replicas(rs.Spec.Replicas) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

func (s *syncer) reconcileNewReplicaSet(all []*api.ReplicaSet, newRS *api.ReplicaSet) bool {
	want := replicas(s.d.Spec.Replicas)
	switch have := replicas(newRS.Spec.Replicas); {
	case have == want:
		return false
	case have > want:
		return s.scale(newRS, want) != newRS
	}
	return s.scale(newRS, s.newRSReplicas(all, newRS)) != newRS
}

// reconcileOldReplicaSets scales old ReplicaSets down while at least replicas − maxUnavailable
// pods stay available, counting the new ReplicaSet's unavailable pods against the budget.
func (s *syncer) reconcileOldReplicaSets(all, old []*api.ReplicaSet, newRS *api.ReplicaSet) bool {
	if specReplicas(old) == 0 {
		return false
	}
	minAvailable := replicas(s.d.Spec.Replicas) - s.maxUnavailable()
	newUnavailable := replicas(newRS.Spec.Replicas) - newRS.Status.AvailableReplicas
	maxScaledDown := specReplicas(all) - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return false
	}
	old, cleaned := s.cleanupUnhealthyReplicas(old, maxScaledDown)
	scaled := s.scaleDownOldForRollingUpdate(append(append([]*api.ReplicaSet(nil), old...), newRS), old)
	return cleaned+scaled > 0
}

// cleanupUnhealthyReplicas scales old ReplicaSets down by their unavailable pods, oldest first,
// up to maxCleanup.
func (s *syncer) cleanupUnhealthyReplicas(old []*api.ReplicaSet, maxCleanup int32) ([]*api.ReplicaSet, int32) {
	controller.SortByCreation(old)
	var total int32
	for i, rs := range old {
		have := replicas(rs.Spec.Replicas)
		if total >= maxCleanup || have == 0 || have == rs.Status.AvailableReplicas {
			continue
		}
		n := min(maxCleanup-total, have-rs.Status.AvailableReplicas)
		old[i] = s.scale(rs, have-n)
		total += n
	}
	return old, total
}

// scaleDownOldForRollingUpdate scales old ReplicaSets down, oldest first, by as many available
// pods as exceed replicas − maxUnavailable.
func (s *syncer) scaleDownOldForRollingUpdate(all, old []*api.ReplicaSet) int32 {
	minAvailable := replicas(s.d.Spec.Replicas) - s.maxUnavailable()
	var available int32
	for _, rs := range all {
		available += rs.Status.AvailableReplicas
	}
	if available <= minAvailable {
		return 0
	}
	controller.SortByCreation(old)
	var total int32
	for _, rs := range old {
		have := replicas(rs.Spec.Replicas)
		if total >= available-minAvailable || have == 0 {
			continue
		}
		n := min(have, available-minAvailable-total)
		s.scale(rs, have-n)
		total += n
	}
	return total
}

// rolloutRecreate is rolloutRecreate: every old ReplicaSet to 0 first, then nothing until their
// pods are gone (terminating ones included), then the new ReplicaSet to the replicas.
func (s *syncer) rolloutRecreate() {
	newRS, old := s.newReplicaSet(false)
	scaled := false
	for _, rs := range active(old) {
		s.scale(rs, 0)
		scaled = true
	}
	if scaled || s.oldPodsRunning(old) {
		return
	}
	if newRS == nil {
		if newRS, old = s.newReplicaSet(true); newRS == nil {
			return
		}
	}
	newRS = s.scale(newRS, replicas(s.d.Spec.Replicas))
	if s.complete(s.calculateStatus(newRS)) {
		s.cleanup(old)
	}
}

// oldPodsRunning reports whether any pod of an old ReplicaSet has not finished.
func (s *syncer) oldPodsRunning(old []*api.ReplicaSet) bool {
	for p := range s.c.AllPods() {
		ref, ok := api.ControllerOf(&p.ObjectMeta)
		if !ok || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		for _, rs := range old {
			if ref.UID == rs.UID {
				return true
			}
		}
	}
	return false
}

// cleanup deletes the oldest revisions of old ReplicaSets that are scaled to 0 and have no pods,
// keeping revisionHistoryLimit of them (cleanupDeployment).
func (s *syncer) cleanup(old []*api.ReplicaSet) {
	limit := s.d.Spec.RevisionHistoryLimit
	if limit == nil {
		return
	}
	var cleanable []*api.ReplicaSet
	for _, rs := range old {
		if rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := len(cleanable) - int(*limit)
	if diff <= 0 {
		return
	}
	sortByRevision(cleanable)
	for _, rs := range cleanable[:diff] {
		if rs.Status.Replicas != 0 || replicas(rs.Spec.Replicas) != 0 || rs.Generation > rs.Status.ObservedGeneration {
			continue
		}
		_, _ = apiserver.Delete(s.c, apiserver.KindOf(rs), cluster.KeyOf(rs), apiserver.DeleteOptions{Propagation: cluster.Background})
	}
}

func sortByRevision(rss []*api.ReplicaSet) {
	controller.SortByCreation(rss)
	for i := 1; i < len(rss); i++ {
		for j := i; j > 0 && revision(rss[j]) < revision(rss[j-1]); j-- {
			rss[j], rss[j-1] = rss[j-1], rss[j]
		}
	}
}
