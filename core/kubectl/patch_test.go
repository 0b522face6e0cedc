package kubectl

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// TestAPodsSpecIsMostlyImmutable: `kubectl patch pod` of a pod's resources is refused as
// kube-apiserver v1.37 refuses it (pkg/apis/core/validation/validation.go ValidatePodUpdate;
// resources change through the resize subresource): testdata/pod-update/resources.txt is
// what kubectl prints on standard error for the same pod and patch, made by upstream's
// ValidatePodUpdate and worded as checkErr words an Invalid status. The image may change.
func TestAPodsSpecIsMostlyImmutable(t *testing.T) {
	s := newSim(t)
	require.Zero(t, run(s, []string{"run", "cache", "--image=nginx"}, "").Code)
	s.Advance(10 * time.Second)
	want, err := os.ReadFile("testdata/pod-update/resources.txt")
	require.NoError(t, err)
	r := run(s, []string{"patch", "pod", "cache", "-p", `{"spec":{"containers":[{"name":"cache","resources":{"requests":{"memory":"1Gi"}}}]}}`}, "")
	assert.Equal(t, string(want), r.Err)
	assert.Equal(t, 1, r.Code)
	assert.Empty(t, s.C.Get("Pod", cluster.Key{Namespace: "default", Name: "cache"}).(*api.Pod).Spec.Containers[0].Resources.Requests)

	r = run(s, []string{"patch", "pod", "cache", "-p", `{"spec":{"containers":[{"name":"cache","image":"nginx:1.28"}]}}`}, "")
	assert.Equal(t, "pod/cache patched\n", r.Out)
	assert.Zero(t, r.Code)
}
