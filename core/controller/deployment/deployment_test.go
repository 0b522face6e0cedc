package deployment

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"daemonlab/core/api"
)

// TestFenceposts pins ResolveFenceposts and MaxUnavailable: surge rounds up, unavailable rounds
// down, both 0 makes unavailable 1, and unavailable never exceeds the replicas.
func TestFenceposts(t *testing.T) {
	cases := []struct {
		replicas            int32
		surge, unavailable  api.IntOrString
		wantSurge, wantUnav int32
	}{
		{4, api.FromString("25%"), api.FromString("25%"), 1, 1},
		{10, api.FromString("25%"), api.FromString("25%"), 3, 2},
		{1, api.FromString("25%"), api.FromString("25%"), 1, 0},
		{3, api.FromInt(0), api.FromString("10%"), 0, 1},
		{2, api.FromInt(0), api.FromInt(5), 0, 2},
	}
	for _, tc := range cases {
		d := &api.Deployment{}
		d.Spec.Replicas = &tc.replicas
		d.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType, RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &tc.surge, MaxUnavailable: &tc.unavailable}}
		s := &syncer{d: d}
		assert.Equal(t, [2]int32{tc.wantSurge, tc.wantUnav}, [2]int32{s.maxSurge(), s.maxUnavailable()}, "%d replicas, %s/%s", tc.replicas, tc.surge.String(), tc.unavailable.String())
	}
}
