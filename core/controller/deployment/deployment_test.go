package deployment

import (
	"fmt"
	"strconv"
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

// TestReplicaSetAnnotationsAreTheDeployments pins SetNewReplicaSetAnnotations and
// copyDeploymentAnnotationsToReplicaSet (pkg/controller/deployment/util/deployment_util.go):
// the Deployment's annotations are copied on every sync, except skipCopyAnnotation's; none is
// taken away; a lower revision is raised (the old one kept in revision-history); one that is
// no number stops the sync of the annotations; only a new ReplicaSet gets the replica
// annotations.
func TestReplicaSetAnnotationsAreTheDeployments(t *testing.T) {
	cases := []struct {
		name        string
		deployment  map[string]string
		rs          map[string]string
		rev         int64
		exists      bool
		want        map[string]string
		wantChanged bool
	}{
		{
			name:       "a change cause annotated after the template changed reaches the current ReplicaSet",
			deployment: map[string]string{api.AnnotationChangeCause: "image updated to 1.16.1", api.AnnotationRevision: "2"},
			rs:         map[string]string{api.AnnotationRevision: "2"},
			rev:        2, exists: true,
			want:        map[string]string{api.AnnotationChangeCause: "image updated to 1.16.1", api.AnnotationRevision: "2"},
			wantChanged: true,
		},
		{
			name:       "annotations already the same change nothing",
			deployment: map[string]string{"team": "web", api.AnnotationRevision: "2"},
			rs:         map[string]string{"team": "web", api.AnnotationRevision: "2"},
			rev:        2, exists: true,
			want:        map[string]string{"team": "web", api.AnnotationRevision: "2"},
			wantChanged: false,
		},
		{
			name: "the annotations each keeps for itself are not copied",
			deployment: map[string]string{api.LastAppliedAnnotation: "{}", api.AnnotationRevision: "7", api.AnnotationRevisionHistory: "1",
				api.AnnotationDesiredReplicas: "9", api.AnnotationMaxReplicas: "9", "deprecated.deployment.rollback.to": "1"},
			rs:  map[string]string{api.AnnotationRevision: "2"},
			rev: 2, exists: true,
			want:        map[string]string{api.AnnotationRevision: "2"},
			wantChanged: false,
		},
		{
			name:       "an annotation the Deployment dropped stays on the ReplicaSet",
			deployment: map[string]string{},
			rs:         map[string]string{api.AnnotationChangeCause: "old", api.AnnotationRevision: "2"},
			rev:        2, exists: true,
			want:        map[string]string{api.AnnotationChangeCause: "old", api.AnnotationRevision: "2"},
			wantChanged: false,
		},
		{
			name:       "a rollback raises the revision and keeps the old one in revision-history",
			deployment: map[string]string{api.AnnotationChangeCause: "back"},
			rs:         map[string]string{api.AnnotationRevision: "2", api.AnnotationRevisionHistory: "1"},
			rev:        4, exists: true,
			want:        map[string]string{api.AnnotationChangeCause: "back", api.AnnotationRevision: "4", api.AnnotationRevisionHistory: "1,2"},
			wantChanged: true,
		},
		{
			name:       "a higher revision stays",
			deployment: map[string]string{},
			rs:         map[string]string{api.AnnotationRevision: "5"},
			rev:        3, exists: true,
			want:        map[string]string{api.AnnotationRevision: "5"},
			wantChanged: false,
		},
		{
			name:       "a revision that is no number: the copies count as no change",
			deployment: map[string]string{"team": "web"},
			rs:         map[string]string{api.AnnotationRevision: "x"},
			rev:        3, exists: true,
			want:        map[string]string{"team": "web", api.AnnotationRevision: "x"},
			wantChanged: false,
		},
		{
			name:       "a new ReplicaSet gets the revision and the replica annotations",
			deployment: map[string]string{api.AnnotationChangeCause: "first", api.AnnotationRevision: "1"},
			rev:        1, exists: false,
			want:        map[string]string{api.AnnotationChangeCause: "first", api.AnnotationRevision: "1", api.AnnotationDesiredReplicas: "4", api.AnnotationMaxReplicas: "5"},
			wantChanged: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n, surge, unavailable := int32(4), api.FromString("25%"), api.FromString("25%")
			d := &api.Deployment{}
			d.Annotations, d.Spec.Replicas = tc.deployment, &n
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType, RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}}
			rs := &api.ReplicaSet{}
			rs.Annotations = tc.rs
			got, changed := (&syncer{d: d}).replicaSetAnnotations(rs, tc.rev, tc.exists)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantChanged, changed)
		})
	}
}

// TestRevisionHistoryKeepsItsLimit is TestAnnotationUtils's SetNewReplicaSetAnnotations case
// (pkg/controller/deployment/util/deployment_util_test.go): revisions 11 to 20 with a limit of
// 5 characters keep the last two old ones, "i-1,i".
func TestRevisionHistoryKeepsItsLimit(t *testing.T) {
	history := ""
	for i := 11; i < 20; i++ {
		history = revisionHistory(history, strconv.Itoa(i), 5)
		if i >= 12 {
			assert.Equal(t, fmt.Sprintf("%d,%d", i-1, i), history)
		}
	}
	assert.Equal(t, "8", revisionHistory("1234567", "8", 5), "every old number may go")
	assert.Equal(t, "1", revisionHistory("1", "123456", 5), "what cannot fit is not appended")
}
