//go:build !(js && wasm)

// kubectl's describers need a terminal package that does not build for js/wasm; this test,
// which compares with them, runs natively only.

package deployment_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/kubectl/pkg/describe"
	"k8s.io/kubectl/pkg/polymorphichelpers"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

const web3 = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web3}
spec:
  replicas: 3
  progressDeadlineSeconds: %d
  selector: {matchLabels: {app: web3}}
  template:
    metadata: {labels: {app: web3}}
    spec:
      containers: [{name: c, image: nginx:1.26}]
`

// progressing is a Progressing condition as a step wants it: its times as offsets from the
// simulation's start.
type progressing struct {
	status             api.ConditionStatus
	reason, message    string
	updated, condition time.Duration // lastUpdateTime, lastTransitionTime
}

// TestPauseResumeAndTheDeadlineShowInProgressing plays rollouts through pauses, resumes and
// progress deadlines and checks the Progressing condition after every command:
//
//   - checkPausedConditions (k8s.io/kubernetes@v1.37.2 pkg/controller/deployment/sync.go,
//     called by syncDeployment in deployment_controller.go): Unknown DeploymentPaused while
//     paused, whatever the rollout does meanwhile (sync and syncStatusOnly only count the
//     status); Unknown DeploymentResumed on resume, which restarts the deadline;
//   - requeueStuckDeployment and DeploymentTimedOut (progress.go, util/deployment_util.go):
//     ProgressDeadlineExceeded is stamped one second after lastUpdateTime + the deadline.
//
// After every command `kubectl rollout status --watch=false` must print what kubectl's
// DeploymentStatusViewer (k8s.io/kubectl@v0.37.2 pkg/polymorphichelpers/rollout_status.go)
// prints, and `kubectl describe deploy` what its DeploymentDescriber (pkg/describe) prints.
func TestPauseResumeAndTheDeadlineShowInProgressing(t *testing.T) {
	const rs1, rs2 = `ReplicaSet "web3-5455cf999c"`, `ReplicaSet "web3-5fc77cbf9b"`
	type step struct {
		run  string
		want progressing
	}
	cases := []struct {
		name     string
		deadline int32
		steps    []step
	}{
		{
			name: "a rollout paused past its deadline counts it again from the resume", deadline: 600,
			steps: []step{
				{"sim advance 30s", progressing{api.ConditionTrue, "NewReplicaSetAvailable", rs1 + " has successfully progressed.", 3 * time.Second, 0}},
				{"sim image nginx:1.27 unready", progressing{api.ConditionTrue, "NewReplicaSetAvailable", rs1 + " has successfully progressed.", 3 * time.Second, 0}},
				{"kubectl set image deploy/web3 c=nginx:1.27", progressing{api.ConditionTrue, "ReplicaSetUpdated", rs2 + " is progressing.", 30 * time.Second, 0}},
				{"sim advance 1m", progressing{api.ConditionTrue, "ReplicaSetUpdated", rs2 + " is progressing.", 30 * time.Second, 0}},
				{"kubectl rollout pause deploy/web3", progressing{api.ConditionUnknown, "DeploymentPaused", "Deployment is paused", 90 * time.Second, 90 * time.Second}},
				{"sim advance 15m", progressing{api.ConditionUnknown, "DeploymentPaused", "Deployment is paused", 90 * time.Second, 90 * time.Second}},
				{"kubectl rollout resume deploy/web3", progressing{api.ConditionUnknown, "DeploymentResumed", "Deployment is resumed", 990 * time.Second, 90 * time.Second}},
				{"sim advance 600s", progressing{api.ConditionUnknown, "DeploymentResumed", "Deployment is resumed", 990 * time.Second, 90 * time.Second}},
				{"sim advance 1s", progressing{api.ConditionFalse, "ProgressDeadlineExceeded", rs2 + " has timed out progressing.", 1591 * time.Second, 1591 * time.Second}},
			},
		},
		{
			name: "a complete rollout paused and resumed is complete again", deadline: 600,
			steps: []step{
				{"sim advance 30s", progressing{api.ConditionTrue, "NewReplicaSetAvailable", rs1 + " has successfully progressed.", 3 * time.Second, 0}},
				{"kubectl rollout pause deploy/web3", progressing{api.ConditionUnknown, "DeploymentPaused", "Deployment is paused", 30 * time.Second, 30 * time.Second}},
				{"kubectl set image deploy/web3 c=nginx:1.27", progressing{api.ConditionUnknown, "DeploymentPaused", "Deployment is paused", 30 * time.Second, 30 * time.Second}},
				{"sim advance 20m", progressing{api.ConditionUnknown, "DeploymentPaused", "Deployment is paused", 30 * time.Second, 30 * time.Second}},
				{"kubectl rollout resume deploy/web3", progressing{api.ConditionTrue, "ReplicaSetUpdated", rs2 + " is progressing.", 1230 * time.Second, 1230 * time.Second}},
				{"sim advance 30s", progressing{api.ConditionTrue, "NewReplicaSetAvailable", rs2 + " has successfully progressed.", 1239 * time.Second, 1230 * time.Second}},
			},
		},
		{
			name: "a stuck rollout times out one second after its deadline", deadline: 60,
			steps: []step{
				{"sim advance 30s", progressing{api.ConditionTrue, "NewReplicaSetAvailable", rs1 + " has successfully progressed.", 3 * time.Second, 0}},
				{"sim image nginx:1.27 unready", progressing{api.ConditionTrue, "NewReplicaSetAvailable", rs1 + " has successfully progressed.", 3 * time.Second, 0}},
				{"kubectl set image deploy/web3 c=nginx:1.27", progressing{api.ConditionTrue, "ReplicaSetUpdated", rs2 + " is progressing.", 30 * time.Second, 0}},
				{"sim advance 60s", progressing{api.ConditionTrue, "ReplicaSetUpdated", rs2 + " is progressing.", 30 * time.Second, 0}},
				{"sim advance 1s", progressing{api.ConditionFalse, "ProgressDeadlineExceeded", rs2 + " has timed out progressing.", 91 * time.Second, 91 * time.Second}},
				{"kubectl rollout pause deploy/web3", progressing{api.ConditionFalse, "ProgressDeadlineExceeded", rs2 + " has timed out progressing.", 91 * time.Second, 91 * time.Second}},
				{"kubectl rollout resume deploy/web3", progressing{api.ConditionFalse, "ProgressDeadlineExceeded", rs2 + " has timed out progressing.", 91 * time.Second, 91 * time.Second}},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := sim.New(1, sim.Default)
			require.NoError(t, err)
			r := shell.Run(s, "kubectl apply -f -", fmt.Sprintf(web3, tc.deadline))
			require.Empty(t, r.Err)
			for _, st := range tc.steps {
				r := shell.Run(s, st.run, "")
				require.Empty(t, r.Err, st.run)
				d := s.C.Get("Deployment", cluster.Key{Namespace: "default", Name: "web3"}).(*api.Deployment)
				var got *api.WorkloadCondition
				for i := range d.Status.Conditions {
					if d.Status.Conditions[i].Type == "Progressing" {
						got = &d.Status.Conditions[i]
					}
				}
				require.NotNil(t, got, st.run)
				w := st.want
				want := progressing{got.Status, got.Reason, got.Message, got.LastUpdateTime.Sub(cluster.Epoch), got.LastTransitionTime.Sub(cluster.Epoch)}
				assert.Equal(t, w, want, "after %s", st.run)
				assertRolloutStatusIsKubectls(t, s, d, st.run)
				assertDescribeIsKubectls(t, s, d, st.run)
			}
		})
	}
}

// typed converts a DaemonLab object to its k8s.io/api type through JSON (the field names are
// the same).
func typed[T any](t *testing.T, obj any, out *T) *T {
	data, err := json.Marshal(obj)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, out))
	return out
}

// assertRolloutStatusIsKubectls compares `kubectl rollout status --watch=false` with
// kubectl's DeploymentStatusViewer: its message, or its error after "error: "
// (k8s.io/kubectl@v0.37.2 pkg/cmd/rollout/rollout_status.go).
func assertRolloutStatusIsKubectls(t *testing.T, s *sim.Sim, d *api.Deployment, after string) {
	var m map[string]any
	typed(t, d, &m)
	msg, _, err := (&polymorphichelpers.DeploymentStatusViewer{}).Status(&unstructured.Unstructured{Object: m}, 0)
	want := shell.Result{Out: msg}
	if err != nil {
		want = shell.Result{Err: "error: " + err.Error(), Code: 1}
	}
	got := shell.Run(s, "kubectl rollout status deploy/web3 --watch=false", "")
	assert.Equal(t, [3]any{want.Out, want.Err, want.Code}, [3]any{got.Out, got.Err, got.Code}, "rollout status after %s", after)
}

// assertDescribeIsKubectls compares `kubectl describe deploy` (without events) with kubectl's
// DeploymentDescriber (k8s.io/kubectl@v0.37.2 pkg/describe/describe.go). Its client is
// unexported, so it is made as kubectl makes it (DescriberFor) for an API server that holds
// the Deployment and every ReplicaSet, the two things it asks for.
func assertDescribeIsKubectls(t *testing.T, s *sim.Sim, d *api.Deployment, after string) {
	rsList := &appsv1.ReplicaSetList{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSetList"}}
	for _, rs := range cluster.List[*api.ReplicaSet](s.C) {
		rsList.Items = append(rsList.Items, *typed(t, rs, &appsv1.ReplicaSet{}))
	}
	answers := map[string]any{
		"/apis/apps/v1/namespaces/default/deployments/web3": d,
		"/apis/apps/v1/namespaces/default/replicasets":      rsList,
	}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answer, ok := answers[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		assert.NoError(t, json.NewEncoder(w).Encode(answer))
	}))
	defer server.Close()
	describer, ok := describe.DescriberFor(schema.GroupKind{Group: "apps", Kind: "Deployment"}, &rest.Config{Host: server.URL})
	require.True(t, ok)
	want, err := describer.Describe(d.Namespace, d.Name, describe.DescriberSettings{ChunkSize: 500})
	require.NoError(t, err)
	got := shell.Run(s, "kubectl describe deploy web3 --show-events=false", "")
	require.Empty(t, got.Err)
	assert.Equal(t, want, got.Out, "describe after %s", after)
}
