package kubelet

import "daemonlab/core/api"

// OOM score adjustments the kubelet gives containers (pkg/kubelet/qos/policy.go).
const (
	guaranteedOOMScoreAdj  = -997
	besteffortOOMScoreAdj  = 1000
	systemCriticalPriority = 2000000000
)

// OOMScoreAdjust is the oom_score_adj the kubelet sets for a container of a pod on a node
// with memoryCapacity bytes (GetContainerOOMScoreAdjust):
//
//  1. A node-critical pod (priority at least 2000000000 and priorityClassName
//     system-node-critical) gets -997, as does a Guaranteed pod; a BestEffort pod gets 1000.
//  2. A Burstable container gets 1000 - 1000 × its own memory request / the node's memory
//     capacity (not allocatable), in integer arithmetic, kept within [3, 999]: at least 3 so
//     that it stays above Guaranteed, and 999 rather than 1000 without a memory request.
//  3. A restartable (sidecar) init container of a Burstable pod gets no more than the regular
//     container with the smallest memory request, so that it is not killed before them.
//  4. With a pod-level memory request, what it holds beyond the containers' aggregate request
//     is shared equally among all containers and added to each request above.
func OOMScoreAdjust(pod *api.Pod, container *api.Container, memoryCapacity int64) int {
	if pod.Spec.Priority != nil && *pod.Spec.Priority >= systemCriticalPriority && pod.Spec.PriorityClassName == "system-node-critical" {
		return guaranteedOOMScoreAdj
	}
	qos := api.QOSClass(pod.Status.QOSClass)
	if qos == "" {
		qos = api.ComputeQOS(&pod.Spec)
	}
	switch qos {
	case api.QOSGuaranteed:
		return guaranteedOOMScoreAdj
	case api.QOSBestEffort:
		return besteffortOOMScoreAdj
	}
	if memoryCapacity <= 0 {
		return besteffortOOMScoreAdj - 1
	}
	extra := remainingPodMemoryPerContainer(pod)
	adj := 1000 - (1000*(memoryRequest(*container)+extra))/memoryCapacity
	if api.IsRestartableInitContainer(container) && len(pod.Spec.Containers) > 0 {
		smallest := memoryRequest(pod.Spec.Containers[0])
		for i := range pod.Spec.Containers {
			smallest = min(smallest, memoryRequest(pod.Spec.Containers[i]))
		}
		adj = min(adj, 1000-(1000*(smallest+extra))/memoryCapacity)
	}
	switch {
	case adj < besteffortOOMScoreAdj+guaranteedOOMScoreAdj:
		return besteffortOOMScoreAdj + guaranteedOOMScoreAdj
	case adj == besteffortOOMScoreAdj:
		return besteffortOOMScoreAdj - 1
	}
	return int(adj)
}

// remainingPodMemoryPerContainer is the share of a pod-level memory request beyond what the
// containers request together, per container (init containers included).
func remainingPodMemoryPerContainer(pod *api.Pod) int64 {
	r := pod.Spec.Resources
	if r == nil {
		return 0
	}
	podReq, ok := r.Requests[api.ResourceMemory]
	if !ok || podReq.IsZero() {
		return 0
	}
	aggregate := api.PodRequestsList(&api.Pod{Spec: api.PodSpec{Containers: pod.Spec.Containers, InitContainers: pod.Spec.InitContainers}})
	ctr := aggregate[api.ResourceMemory]
	remaining := max(podReq.Value()-ctr.Value(), 0)
	return remaining / int64(len(pod.Spec.Containers)+len(pod.Spec.InitContainers))
}
