package kubelet

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// crashingPod returns a cluster with a node n1 and a pod on it whose image crashes.
func crashingPod(t *testing.T) (*cluster.Cluster, cluster.Key) {
	c := cluster.New(1)
	require.NoError(t, apiserver.CreateSystemNamespaces(c))
	require.NoError(t, Join(c, NewNode("n1", 0, NodeOptions{}, c.Now()), nil))
	SetImage(c, "crasher", BehaviourCrash, StartupDelay)
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	p.Name, p.Namespace, p.Spec.NodeName = "web", "default", "n1"
	p.Spec.Containers = []api.Container{{Name: "app", Image: "crasher"}}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(c.Now())}}
	_, err := apiserver.Create(c, p, apiserver.Options{})
	require.NoError(t, err)
	return c, cluster.KeyOf(p)
}

// restarts fires the kubelet's timers up to until, as sim advance does, and returns each restart
// count the container reached with when and the back-off its waiting message then gave:
// "13s 2 20s".
func restarts(t *testing.T, c *cluster.Cluster, key cluster.Key, until time.Time) []string {
	var seen []string
	last := int32(0)
	settle := func() {
		for Sync(c, cluster.Since{}) {
		}
		p := c.Get("Pod", key).(*api.Pod)
		if len(p.Status.ContainerStatuses) == 0 || p.Status.ContainerStatuses[0].RestartCount == last {
			return
		}
		cs := p.Status.ContainerStatuses[0]
		require.Equal(t, "CrashLoopBackOff", cs.State.Waiting.Reason)
		last = cs.RestartCount
		wait := strings.Fields(cs.State.Waiting.Message)[1]
		seen = append(seen, fmt.Sprintf("%s %d %s", c.Now().Sub(cluster.Epoch), cs.RestartCount, wait))
	}
	settle()
	for next, ok := NextTimer(c); ok && !next.After(until); next, ok = NextTimer(c) {
		c.SetNow(next)
		settle()
	}
	c.SetNow(until)
	settle()
	return seen
}

// TestCrashLoopBackOffRestartsTheFirstExitAtOnceThenDoubles pins doBackOff
// (pkg/kubelet/kuberuntime/kuberuntime_manager.go) over client-go's Backoff
// (util/flowcontrol/backoff.go) with the kubelet's 10s and 5m (pkg/kubelet/kubelet.go
// newCrashLoopBackOff at v1.37): the first exit has no entry and is restarted at once, Next
// setting 10s; each later restart waits the entry's back-off from the exit and doubles it, up
// to 5m0s.
func TestCrashLoopBackOffRestartsTheFirstExitAtOnceThenDoubles(t *testing.T) {
	c, key := crashingPod(t)
	got := restarts(t, c, key, cluster.Epoch.Add(20*time.Minute))
	assert.Equal(t, []string{
		"3s 1 10s", "13s 2 20s", "33s 3 40s", "1m13s 4 1m20s", "2m33s 5 2m40s",
		"5m13s 6 5m0s", "10m13s 7 5m0s", "15m13s 8 5m0s",
	}, got)
}

// TestACrashLoopBackOffEntryExpiresOrGoesWithTheKubelet: an entry whose last update is more than
// 600s before the container's exit has expired (the kubelet's HasExpiredFunc), and one a
// kubelet made before it restarted went with its process; either way the container is
// restarted at once and its back-off starts over at 10s.
func TestACrashLoopBackOffEntryExpiresOrGoesWithTheKubelet(t *testing.T) {
	for _, tc := range []struct {
		name        string
		lastUpdate  time.Duration // before the exit
		kubeletFrom time.Duration // when the kubelet started, after the exit
		restartAt   bool
	}{
		{"an entry 600s old holds", 600 * time.Second, 0, false},
		{"an entry older than 600s expired", 601 * time.Second, 0, true},
		{"an entry from before the kubelet restarted is gone", 0, time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exit := cluster.Epoch.Add(time.Hour)
			m := cluster.Machine{RenewFrom: exit.Add(tc.kubeletFrom)}
			c := cluster.New(1)
			key := backOffKey{"uid", "app"}
			crashLoopBackOff.Set(c, key, backOffEntry{80 * time.Second, exit.Add(-tc.lastUpdate)})
			if tc.kubeletFrom == 0 {
				m.RenewFrom = cluster.Epoch
			}
			_, ok := backOffOf(c, m, key, exit)
			assert.Equal(t, tc.restartAt, !ok)
		})
	}
}

// TestContainersReportTheirImageNormalised pins what a containerd node reports for a started
// container (containerd's ContainerStatus: the repo tag and repo digest; the kubelet's
// convertToAPIContainerStatuses) by distribution/reference's ParseDockerRef: docker.io and
// library/ for Docker Hub names, :latest without a tag, a digest kept and a tag beside it
// dropped; the imageID is name@sha256:…, the reference's own digest or one that is the same for
// the same image.
func TestContainersReportTheirImageNormalised(t *testing.T) {
	const d = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, tc := range []struct{ image, ref, id string }{
		{"nginx", "docker.io/library/nginx:latest", ""},
		{"nginx:1.27", "docker.io/library/nginx:1.27", ""},
		{"docker.io/nginx:1.27", "docker.io/library/nginx:1.27", ""},
		{"index.docker.io/library/nginx", "docker.io/library/nginx:latest", ""},
		{"example/crasher:1", "docker.io/example/crasher:1", ""},
		{"registry.k8s.io/pause:3.10", "registry.k8s.io/pause:3.10", ""},
		{"localhost/app", "localhost/app:latest", ""},
		{"localhost:5000/team/app", "localhost:5000/team/app:latest", ""},
		{"Example/app", "Example/app:latest", ""},
		{"nginx@" + d, "docker.io/library/nginx@" + d, "docker.io/library/nginx@" + d},
		{"nginx:1.27@" + d, "docker.io/library/nginx@" + d, "docker.io/library/nginx@" + d},
	} {
		ref, id := imageStatus(tc.image)
		assert.Equal(t, tc.ref, ref, tc.image)
		if tc.id != "" {
			assert.Equal(t, tc.id, id, tc.image)
			continue
		}
		name, _ := normalisedImage(tc.image)
		assert.Regexp(t, "^"+strings.ReplaceAll(name, ".", `\.`)+"@sha256:[0-9a-f]{64}$", id, tc.image)
		again, _ := normalisedImage(tc.ref)
		_, sameID := imageStatus(tc.ref)
		assert.Equal(t, name, again, "normalising is idempotent")
		assert.Equal(t, id, sameID, "%s: the same image, the same digest", tc.image)
	}
	_, nginx := imageStatus("nginx")
	_, other := imageStatus("nginx:1.27")
	assert.NotEqual(t, nginx, other, "another image, another digest")
}

// TestTheKubeletStampsTheGenerationItSaw pins PodObservedGenerationTracking (GA since v1.35):
// every status the kubelet writes has status.observedGeneration and, on each condition it owns,
// observedGeneration equal to the pod's metadata.generation (status_manager.go SetPodStatus;
// generateAPIPodStatus); a spec change is seen at once, the pod worker syncing the updated pod.
func TestTheKubeletStampsTheGenerationItSaw(t *testing.T) {
	c, key := crashingPod(t)
	restarts(t, c, key, cluster.Epoch.Add(3*time.Second))
	p := c.Get("Pod", key).(*api.Pod)
	require.Equal(t, int64(1), p.Generation)
	assert.Equal(t, int64(1), p.Status.ObservedGeneration)
	require.Len(t, p.Status.Conditions, 5)
	for _, cond := range p.Status.Conditions {
		assert.Equal(t, int64(1), cond.ObservedGeneration, cond.Type)
	}
	next := api.DeepCopy(p)
	next.Spec.ActiveDeadlineSeconds = new(int64)
	*next.Spec.ActiveDeadlineSeconds = 600
	_, err := apiserver.Update(c, next, apiserver.Options{})
	require.NoError(t, err)
	for Sync(c, cluster.Since{}) {
	}
	p = c.Get("Pod", key).(*api.Pod)
	assert.Equal(t, int64(2), p.Generation)
	assert.Equal(t, int64(2), p.Status.ObservedGeneration)
	assert.Equal(t, int64(2), p.Status.Conditions[0].ObservedGeneration)
	assert.Equal(t, int32(1), p.Status.ContainerStatuses[0].RestartCount, "nothing else changed")
}
