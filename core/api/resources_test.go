package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	resourcehelper "k8s.io/component-helpers/resource"
)

// TestPodRequestsAndLimitsAreComponentHelpers compares PodRequestsList and PodLimitsList with
// k8s.io/component-helpers/resource PodRequests and PodLimits on pods with init containers,
// sidecars (restartable init containers) and overhead.
func TestPodRequestsAndLimitsAreComponentHelpers(t *testing.T) {
	always := RestartPolicyAlways
	res := func(cpu, mem string) ResourceRequirements {
		r := ResourceRequirements{Requests: ResourceList{}, Limits: ResourceList{}}
		if cpu != "" {
			r.Requests[ResourceCPU], r.Limits[ResourceCPU] = MustParseQuantity(cpu), MustParseQuantity(cpu)
		}
		if mem != "" {
			r.Requests[ResourceMemory], r.Limits[ResourceMemory] = MustParseQuantity(mem), MustParseQuantity(mem)
		}
		return r
	}
	ctr := func(name, cpu, mem string, sidecar bool) Container {
		c := Container{Name: name, Image: "x", Resources: res(cpu, mem)}
		if sidecar {
			c.RestartPolicy = &always
		}
		return c
	}
	tests := []struct {
		name string
		spec PodSpec
	}{
		{"containers add up", PodSpec{Containers: []Container{ctr("a", "100m", "100Mi", false), ctr("b", "200m", "", false)}}},
		{"a big init container sets the floor", PodSpec{InitContainers: []Container{ctr("i", "2", "1Gi", false)}, Containers: []Container{ctr("a", "100m", "100Mi", false)}}},
		{"sidecars add to the containers and to later init containers", PodSpec{
			InitContainers: []Container{ctr("s1", "100m", "50Mi", true), ctr("i", "500m", "1Gi", false), ctr("s2", "200m", "60Mi", true)},
			Containers:     []Container{ctr("a", "100m", "100Mi", false)}}},
		{"overhead", PodSpec{Containers: []Container{ctr("a", "100m", "", false)}, Overhead: ResourceList{ResourceCPU: MustParseQuantity("250m"), ResourceMemory: MustParseQuantity("120Mi")}}},
		{"nothing", PodSpec{Containers: []Container{{Name: "a", Image: "x"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &Pod{Spec: tt.spec}
			data, err := json.Marshal(pod)
			require.NoError(t, err)
			var up corev1.Pod
			require.NoError(t, json.Unmarshal(data, &up))
			same := func(want corev1.ResourceList, got ResourceList) {
				require.Len(t, got, len(want))
				for name, q := range want {
					g := got[ResourceName(name)]
					assert.Equal(t, q.String(), g.String(), string(name))
				}
			}
			same(resourcehelper.PodRequests(&up, resourcehelper.PodResourcesOptions{}), PodRequestsList(pod))
			same(resourcehelper.PodLimits(&up, resourcehelper.PodResourcesOptions{}), PodLimitsList(pod))
		})
	}
}
