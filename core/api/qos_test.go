package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	kubectlqos "k8s.io/kubectl/pkg/util/qos"
)

// req parses "cpu=100m,memory=100Mi" (or "-" for none) into a ResourceList.
func req(s string) ResourceList {
	if s == "-" {
		return nil
	}
	l := ResourceList{}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		l[ResourceName(k)] = MustParseQuantity(v)
	}
	return l
}

// TestQOSClassFollowsTheV137Rules is upstream's TestComputePodQOS table
// (pkg/apis/core/v1/helper/qos/qos_test.go) with further cases: containers and init containers
// given as "requests;limits", optional pod-level resources, on the spec after defaulting; each
// row is also checked against kubectl's own ComputePodQOS.
func TestQOSClassFollowsTheV137Rules(t *testing.T) {
	tests := []struct {
		name       string
		containers []string // "requests;limits"
		inits      []string
		podLevel   string // "" for none
		want       QOSClass
	}{
		{"1 equal cpu and memory", []string{"cpu=100m,memory=100Mi;cpu=100m,memory=100Mi"}, nil, "", QOSGuaranteed},
		{"2 two equal containers", []string{"cpu=100m,memory=100Mi;cpu=100m,memory=100Mi", "cpu=100m,memory=100Mi;cpu=100m,memory=100Mi"}, nil, "", QOSGuaranteed},
		{"3 two empty containers", []string{"-;-", "-;-"}, nil, "", QOSBestEffort},
		{"5 empty and cpu-only", []string{"-;-", "cpu=1;cpu=2"}, nil, "", QOSBurstable},
		{"6 empty beside guaranteed", []string{"-;-", "cpu=10m,memory=100Mi;cpu=10m,memory=100Mi"}, nil, "", QOSBurstable},
		{"7 memory only", []string{"memory=100Mi;memory=100Mi"}, nil, "", QOSBurstable},
		{"8 requests only", []string{"cpu=100m,memory=100Mi;-"}, nil, "", QOSBurstable},
		{"11 requests below limits", []string{"cpu=10m,memory=100Mi;cpu=100m,memory=200Mi"}, nil, "", QOSBurstable},
		{"12 zero requests, limits set", []string{"cpu=0,memory=0;cpu=100m,memory=200Mi"}, nil, "", QOSBurstable},
		{"14 a Burstable init container", []string{"-;-"}, []string{"cpu=10m,memory=100Mi;cpu=100m,memory=200Mi"}, "", QOSBurstable},
		{"15 pod-level guaranteed, containers empty", []string{"-;-"}, nil, "cpu=10m,memory=100Mi;cpu=10m,memory=100Mi", QOSGuaranteed},
		{"16 pod-level decides over containers", []string{"cpu=3m,memory=10Mi;cpu=5m,memory=20Mi"}, nil, "cpu=10m,memory=100Mi;cpu=10m,memory=100Mi", QOSGuaranteed},
		{"17 pod-level burstable", []string{"-;-"}, nil, "cpu=10m,memory=10Mi;cpu=20m,memory=50Mi", QOSBurstable},
		{"19 pod-level requests only", []string{"cpu=5m,memory=10Mi;-"}, nil, "cpu=10m,memory=10Mi;-", QOSBurstable},
		{"22 limits only, defaulted into requests", []string{"-;cpu=500m,memory=256Mi"}, nil, "", QOSGuaranteed},
		{"24 cpu limit only", []string{"-;cpu=500m"}, nil, "", QOSBurstable},
		{"25 equal in different notation", []string{"cpu=1,memory=1Gi;cpu=1000m,memory=1024Mi"}, nil, "", QOSGuaranteed},
		{"26 explicit zeros", []string{"cpu=0,memory=0;cpu=0,memory=0"}, nil, "", QOSBestEffort},
		{"27 ephemeral storage only", []string{"ephemeral-storage=1Gi;-"}, nil, "", QOSBestEffort},
		{"28 ephemeral storage ignored", []string{"cpu=1,memory=1Gi,ephemeral-storage=1Gi;cpu=1,memory=1Gi,ephemeral-storage=2Gi"}, nil, "", QOSGuaranteed},
		{"30 guaranteed init and main", []string{"cpu=1,memory=1Gi;cpu=1,memory=1Gi"}, []string{"cpu=2,memory=2Gi;cpu=2,memory=2Gi"}, "", QOSGuaranteed},
		{"31 empty init container", []string{"cpu=1,memory=1Gi;cpu=1,memory=1Gi"}, []string{"-;-"}, "", QOSBurstable},
		{"32 a zero cpu limit counts as none", []string{"memory=1Gi;cpu=0,memory=1Gi"}, nil, "", QOSBurstable},
		{"34 pod-level cpu only", []string{"-;-"}, nil, "cpu=1;cpu=1", QOSBurstable},
		{"pod-level limits default the requests", []string{"-;-"}, nil, "-;cpu=10m,memory=100Mi", QOSGuaranteed},
	}
	ctrs := func(specs []string, prefix string) []Container {
		var out []Container
		for i, s := range specs {
			r, l, _ := strings.Cut(s, ";")
			out = append(out, Container{Name: prefix + string(rune('a'+i)), Image: "x", Resources: ResourceRequirements{Requests: req(r), Limits: req(l)}})
		}
		return out
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &Pod{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"}, Spec: PodSpec{Containers: ctrs(tt.containers, "c"), InitContainers: ctrs(tt.inits, "i")}}
			if tt.podLevel != "" {
				r, l, _ := strings.Cut(tt.podLevel, ";")
				pod.Spec.Resources = &ResourceRequirements{Requests: req(r), Limits: req(l)}
			}
			Default(pod)
			assert.Equal(t, tt.want, ComputeQOS(&pod.Spec))
			data, err := json.Marshal(pod)
			require.NoError(t, err)
			var up corev1.Pod
			require.NoError(t, json.Unmarshal(data, &up))
			assert.Equal(t, string(tt.want), string(kubectlqos.GetPodQOS(&up)), "kubectl's GetPodQOS")
		})
	}
}
