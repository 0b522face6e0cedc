package api

import (
	"slices"
	"time"
)

// UpdatePodCondition sets a condition as apipod.UpdatePodCondition does (pkg/api/v1/pod/util.go):
// it replaces the condition of its type, or is added; its lastTransitionTime is now unless the
// status stays the same. It reports whether anything changed.
func UpdatePodCondition(s *PodStatus, cond PodCondition, now time.Time) bool {
	cond.LastTransitionTime = NewTime(now)
	i := slices.IndexFunc(s.Conditions, func(pc PodCondition) bool { return pc.Type == cond.Type })
	if i < 0 {
		s.Conditions = append(s.Conditions, cond)
		return true
	}
	old := s.Conditions[i]
	if old.Status == cond.Status {
		cond.LastTransitionTime = old.LastTransitionTime
	}
	s.Conditions[i] = cond
	return old.Status != cond.Status || old.Reason != cond.Reason || old.Message != cond.Message ||
		!old.LastProbeTime.Equal(cond.LastProbeTime.Time) || !old.LastTransitionTime.Equal(cond.LastTransitionTime.Time)
}
