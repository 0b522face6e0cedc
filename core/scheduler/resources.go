package scheduler

import (
	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// requests is an amount of each resource the scheduler accounts: milli-cpu, bytes and pods.
type requests struct {
	milliCPU, memory, ephemeral, pods int64
}

var resourceOrder = []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage}

func (r requests) get(name api.ResourceName) int64 {
	switch name {
	case api.ResourceCPU:
		return r.milliCPU
	case api.ResourceMemory:
		return r.memory
	case api.ResourceEphemeralStorage:
		return r.ephemeral
	}
	return r.pods
}

func (r *requests) add(o requests) {
	r.milliCPU += o.milliCPU
	r.memory += o.memory
	r.ephemeral += o.ephemeral
	r.pods += o.pods
}

func fromList(l api.ResourceList) requests {
	q := func(name api.ResourceName) api.Quantity { return l[name] }
	cpu := q(api.ResourceCPU)
	return requests{milliCPU: cpu.MilliValue(), memory: q(api.ResourceMemory).Value(), ephemeral: q(api.ResourceEphemeralStorage).Value(), pods: q(api.ResourcePods).Value()}
}

// PodRequests is what a pod asks of a node (resourcehelper.PodRequests, see
// api.PodRequestsList: containers summed, init containers and sidecars as the kubelet runs them,
// the pod overhead), plus the pod itself.
func PodRequests(pod *api.Pod) requests {
	r := fromList(api.PodRequestsList(pod))
	r.pods = 1
	return r
}

// scoringRequests is PodRequests with 100m cpu and 200Mi memory for every container that
// requests none (pkg/scheduler/util/pod_resources.go), used only for scores.
func scoringRequests(pod *api.Pod) requests {
	var sum requests
	for _, c := range pod.Spec.Containers {
		r := fromList(c.Resources.Requests)
		if _, ok := c.Resources.Requests[api.ResourceCPU]; !ok {
			r.milliCPU = 100
		}
		if _, ok := c.Resources.Requests[api.ResourceMemory]; !ok {
			r.memory = 200 << 20
		}
		sum.add(r)
	}
	return sum
}

func allocatable(n *api.Node) requests { return fromList(n.Status.Allocatable) }

// nodeUsage sums the requests of the pods bound to each node that have not finished.
func nodeUsage(c *cluster.Cluster) map[string]requests {
	usage := map[string]requests{}
	for p := range c.AllPods() {
		if p.Spec.NodeName == "" || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		u := usage[p.Spec.NodeName]
		u.add(PodRequests(p))
		usage[p.Spec.NodeName] = u
	}
	return usage
}
