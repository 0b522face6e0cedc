package kubelet

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"daemonlab/core/api"
)

func container(req, lim map[api.ResourceName]string) api.Container {
	c := api.Container{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{}, Limits: api.ResourceList{}}}
	for k, v := range req {
		c.Resources.Requests[k] = api.MustParseQuantity(v)
	}
	for k, v := range lim {
		c.Resources.Limits[k] = api.MustParseQuantity(v)
	}
	return c
}

func podWith(cs ...api.Container) *api.Pod {
	p := &api.Pod{Spec: api.PodSpec{Containers: cs}}
	p.Status.QOSClass = string(api.ComputeQOS(&p.Spec))
	return p
}

func memory(request string) map[api.ResourceName]string {
	return map[api.ResourceName]string{api.ResourceMemory: request}
}

// TestOOMScoreAdjustFollowsTheKubeletsPolicy pins GetContainerOOMScoreAdjust
// (pkg/kubelet/qos/policy.go and policy_test.go): the
// worked values for an 8Gi node, the clamps at 3 and 999, Guaranteed and node-critical at
// -997, BestEffort at 1000.
func TestOOMScoreAdjustFollowsTheKubeletsPolicy(t *testing.T) {
	const gi = int64(1) << 30
	critical := func(class string, priority int32) *api.Pod {
		p := podWith(container(nil, nil))
		p.Spec.Priority, p.Spec.PriorityClassName = &priority, class
		return p
	}
	guaranteed := map[api.ResourceName]string{api.ResourceCPU: "1", api.ResourceMemory: "1Gi"}
	tests := []struct {
		name     string
		pod      *api.Pod
		capacity int64
		want     int
	}{
		{"burstable without a memory request", podWith(container(map[api.ResourceName]string{api.ResourceCPU: "100m"}, nil)), 8 * gi, 999},
		{"100Mi of 8Gi", podWith(container(memory("100Mi"), nil)), 8 * gi, 988},
		{"256Mi of 8Gi", podWith(container(memory("256Mi"), nil)), 8 * gi, 969},
		{"512Mi of 8Gi", podWith(container(memory("512Mi"), nil)), 8 * gi, 938},
		{"1Gi of 8Gi", podWith(container(memory("1Gi"), nil)), 8 * gi, 875},
		{"2Gi of 8Gi", podWith(container(memory("2Gi"), nil)), 8 * gi, 750},
		{"4Gi of 8Gi", podWith(container(memory("4Gi"), nil)), 8 * gi, 500},
		{"1Gi of 4Gi", podWith(container(memory("1Gi"), nil)), 4 * gi, 750},
		{"1Gi of 16Gi", podWith(container(memory("1Gi"), nil)), 16 * gi, 938},
		{"capacity minus one byte clamps at 3", podWith(container(memory("8589934591"), nil)), 8 * gi, 3},
		{"guaranteed", podWith(container(guaranteed, guaranteed)), 8 * gi, -997},
		{"best effort", podWith(container(nil, nil)), 8 * gi, 1000},
		{"node critical, even when best effort", critical("system-node-critical", 2000001000), 8 * gi, -997},
		{"cluster critical is not node critical", critical("system-cluster-critical", 2000000000), 8 * gi, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, OOMScoreAdjust(tt.pod, &tt.pod.Spec.Containers[0], tt.capacity))
		})
	}
}

// TestSidecarOOMScoreAdjustIsNoHigherThanItsSmallestContainer: a restartable init container
// with a small request gets the adjustment of the regular container with the smallest one.
func TestSidecarOOMScoreAdjustIsNoHigherThanItsSmallestContainer(t *testing.T) {
	const gi = int64(1) << 30
	always := api.RestartPolicyAlways
	sidecar := container(memory("100Mi"), nil)
	sidecar.RestartPolicy = &always
	p := podWith(container(memory("2Gi"), nil), container(memory("1Gi"), nil))
	p.Spec.InitContainers = []api.Container{sidecar}
	assert.Equal(t, 875, OOMScoreAdjust(p, &p.Spec.InitContainers[0], 8*gi), "min(988, 875 for the 1Gi container)")
	assert.Equal(t, 750, OOMScoreAdjust(p, &p.Spec.Containers[0], 8*gi))
}
