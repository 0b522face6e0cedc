package deployment

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// deploymentWith is a Deployment with the progress deadline given (nil: none), paused or not,
// and a Progressing condition of the reason given ("": none), last updated at updated.
func deploymentWith(deadline *int32, paused bool, status api.ConditionStatus, reason string, updated time.Time) *api.Deployment {
	d := &api.Deployment{}
	d.Spec.ProgressDeadlineSeconds, d.Spec.Paused = deadline, paused
	if reason != "" {
		d.Status.Conditions = []api.WorkloadCondition{{Type: "Progressing", Status: status, Reason: reason, LastUpdateTime: api.NewTime(updated)}}
	}
	return d
}

func int32Ptr(n int32) *int32 { return &n }

// TestPausingAndResumingShowInProgressing pins checkPausedConditions
// (k8s.io/kubernetes@v1.37.2 pkg/controller/deployment/sync.go): with a progress deadline, a
// paused Deployment's Progressing condition becomes Unknown DeploymentPaused, and a resumed
// one's Unknown DeploymentResumed; a condition ProgressDeadlineExceeded is never overwritten;
// without a deadline nothing changes.
func TestPausingAndResumingShowInProgressing(t *testing.T) {
	deadline, infinite := int32Ptr(600), int32Ptr(math.MaxInt32)
	cases := []struct {
		name        string
		d           *api.Deployment
		wantReason  string
		wantMessage string
	}{
		{"a paused rollout in progress shows it is paused", deploymentWith(deadline, true, api.ConditionTrue, "ReplicaSetUpdated", cluster.Epoch), reasonPaused, messagePaused},
		{"a paused complete rollout shows it is paused", deploymentWith(deadline, true, api.ConditionTrue, "NewReplicaSetAvailable", cluster.Epoch), reasonPaused, messagePaused},
		{"a Deployment created paused shows it is paused", deploymentWith(deadline, true, "", "", cluster.Epoch), reasonPaused, messagePaused},
		{"a paused Deployment already shown paused changes nothing", deploymentWith(deadline, true, api.ConditionUnknown, reasonPaused, cluster.Epoch), "", ""},
		{"a paused Deployment resumed before shows it is paused again", deploymentWith(deadline, true, api.ConditionUnknown, reasonResumed, cluster.Epoch), reasonPaused, messagePaused},
		{"a resumed Deployment shown paused shows it is resumed", deploymentWith(deadline, false, api.ConditionUnknown, reasonPaused, cluster.Epoch), reasonResumed, messageResumed},
		{"a Deployment never paused changes nothing", deploymentWith(deadline, false, api.ConditionTrue, "ReplicaSetUpdated", cluster.Epoch), "", ""},
		{"a resumed Deployment already shown resumed changes nothing", deploymentWith(deadline, false, api.ConditionUnknown, reasonResumed, cluster.Epoch), "", ""},
		{"a timed out rollout paused stays timed out", deploymentWith(deadline, true, api.ConditionFalse, "ProgressDeadlineExceeded", cluster.Epoch), "", ""},
		{"no progress deadline: a paused Deployment has no condition", deploymentWith(nil, true, "", "", cluster.Epoch), "", ""},
		{"an infinite progress deadline: a paused Deployment has no condition", deploymentWith(infinite, true, "", "", cluster.Epoch), "", ""},
		{"no progress deadline: a resumed Deployment changes nothing", deploymentWith(nil, false, api.ConditionUnknown, reasonPaused, cluster.Epoch), "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reason, message, ok := pausedCondition(tc.d)
			assert.Equal(t, tc.wantReason != "", ok)
			assert.Equal(t, tc.wantReason, reason)
			assert.Equal(t, tc.wantMessage, message)
		})
	}
}

// TestProgressIsCheckedOneSecondAfterTheDeadline pins requeueStuckDeployment
// (k8s.io/kubernetes@v1.37.2 pkg/controller/deployment/progress.go; its cases in
// progress_test.go TestRequeueStuckDeployment): a rollout whose Progressing condition was last
// updated at T with a deadline of D seconds is checked again at T + D + 1s, so that
// DeploymentTimedOut (util/deployment_util.go, a strict Before) finds the deadline passed; a
// complete, timed out, paused or deleted rollout, or one without a deadline or a condition, is
// not checked.
func TestProgressIsCheckedOneSecondAfterTheDeadline(t *testing.T) {
	pds, infinite := int32Ptr(60), int32Ptr(math.MaxInt32)
	updated := cluster.Epoch.Add(49 * time.Minute)
	deleted := deploymentWith(pds, false, api.ConditionTrue, "ReplicaSetUpdated", updated)
	now := api.NewTime(updated)
	deleted.DeletionTimestamp = &now
	cases := []struct {
		name string
		d    *api.Deployment
		want time.Duration // after updated; 0: no check
	}{
		{"nil progressDeadlineSeconds specified", deploymentWith(nil, false, api.ConditionTrue, "ReplicaSetUpdated", updated), 0},
		{"infinite progressDeadlineSeconds specified", deploymentWith(infinite, false, api.ConditionTrue, "ReplicaSetUpdated", updated), 0},
		{"no progressing condition found", deploymentWith(pds, false, "", "", updated), 0},
		{"complete deployment does not need to be requeued", deploymentWith(pds, false, api.ConditionTrue, "NewReplicaSetAvailable", updated), 0},
		{"already failed deployment does not need to be requeued", deploymentWith(pds, false, api.ConditionFalse, "ProgressDeadlineExceeded", updated), 0},
		{"a refused new ReplicaSet fails the sync before its status", deploymentWith(pds, false, api.ConditionFalse, "ReplicaSetCreateError", updated), 0},
		{"a paused deployment is not checked", deploymentWith(pds, true, api.ConditionUnknown, reasonPaused, updated), 0},
		{"a deployment being deleted is not checked", deleted, 0},
		{"stuck deployment", deploymentWith(pds, false, api.ConditionTrue, "ReplicaSetUpdated", updated), 61 * time.Second},
		{"a new ReplicaSet just created", deploymentWith(pds, false, api.ConditionTrue, "NewReplicaSetCreated", updated), 61 * time.Second},
		{"a resumed deployment counts from the resume", deploymentWith(pds, false, api.ConditionUnknown, reasonResumed, updated), 61 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			at, ok := progressCheck(tc.d)
			assert.Equal(t, tc.want != 0, ok)
			if tc.want != 0 {
				assert.Equal(t, updated.Add(tc.want), at)
			}
		})
	}
}
