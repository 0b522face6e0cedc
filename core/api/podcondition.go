package api

import "time"

// UpdatePodCondition sets a condition as apipod.UpdatePodCondition does (pkg/api/v1/pod/util.go):
// it replaces the condition of its type, or is added; its lastTransitionTime is now unless the
// status stays the same. It reports whether anything changed.
func UpdatePodCondition(s *PodStatus, cond PodCondition, now time.Time) bool {
	cond.LastTransitionTime = NewTime(now)
	for i := range s.Conditions {
		old := &s.Conditions[i]
		if old.Type != cond.Type {
			continue
		}
		if old.Status == cond.Status {
			cond.LastTransitionTime = old.LastTransitionTime // so it changes with the status only
		}
		changed := old.Status != cond.Status || old.Reason != cond.Reason || old.Message != cond.Message || !old.LastProbeTime.Equal(cond.LastProbeTime.Time)
		*old = cond
		return changed
	}
	s.Conditions = append(s.Conditions, cond)
	return true
}
