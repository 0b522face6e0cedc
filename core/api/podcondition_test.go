package api

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestUpdatePodConditionReplacesByTypeAndKeepsTheTransitionTime pins apipod.UpdatePodCondition
// (pkg/api/v1/pod/util.go; cases after TestUpdatePodCondition in util_test.go): a new type is
// added; an existing one is replaced, its lastTransitionTime kept while the status stays; only
// a change is reported.
func TestUpdatePodConditionReplacesByTypeAndKeepsTheTransitionTime(t *testing.T) {
	then, now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
	had := PodCondition{Type: "DisruptionTarget", Status: ConditionTrue, LastTransitionTime: NewTime(then), Reason: "DeletionByTaintManager"}
	cases := []struct {
		name    string
		cond    PodCondition
		want    PodCondition
		changed bool
	}{
		{"the same: no change", PodCondition{Type: "DisruptionTarget", Status: ConditionTrue, Reason: "DeletionByTaintManager"}, had, false},
		{"another reason: replaced, the time kept", PodCondition{Type: "DisruptionTarget", Status: ConditionTrue, Reason: "DeletionByPodGC"},
			PodCondition{Type: "DisruptionTarget", Status: ConditionTrue, LastTransitionTime: NewTime(then), Reason: "DeletionByPodGC"}, true},
		{"another status: a new time", PodCondition{Type: "DisruptionTarget", Status: ConditionFalse},
			PodCondition{Type: "DisruptionTarget", Status: ConditionFalse, LastTransitionTime: NewTime(now)}, true},
	}
	for _, tc := range cases {
		s := PodStatus{Conditions: []PodCondition{{Type: PodReady, Status: ConditionTrue}, had}}
		assert.Equal(t, tc.changed, UpdatePodCondition(&s, tc.cond, now), tc.name)
		assert.Equal(t, []PodCondition{{Type: PodReady, Status: ConditionTrue}, tc.want}, s.Conditions, tc.name)
	}
	s := PodStatus{}
	assert.True(t, UpdatePodCondition(&s, PodCondition{Type: PodReady, Status: ConditionTrue}, now))
	assert.Equal(t, []PodCondition{{Type: PodReady, Status: ConditionTrue, LastTransitionTime: NewTime(now)}}, s.Conditions, "a new type is added")
}
