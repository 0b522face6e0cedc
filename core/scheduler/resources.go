package scheduler

import (
	"maps"
	"math"

	"daemonlab/core/api"
)

// requests is an amount of each resource the scheduler accounts: milli-cpu, bytes, pods, and
// the scalar resources (extended resources, hugepages) by name.
type requests struct {
	milliCPU, memory, ephemeral, pods int64
	scalar                            map[api.ResourceName]int64 // nil when none; never changed in place, as requests are copied
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
	case api.ResourcePods:
		return r.pods
	}
	return r.scalar[name]
}

func (r *requests) add(o requests) { r.plus(o, 1) }

func (r *requests) sub(o requests) { r.plus(o, -1) }

// plus adds sign × o to r; the scalar amounts go to a new map.
func (r *requests) plus(o requests, sign int64) {
	r.milliCPU += sign * o.milliCPU
	r.memory += sign * o.memory
	r.ephemeral += sign * o.ephemeral
	r.pods += sign * o.pods
	if len(o.scalar) == 0 {
		return
	}
	scalar := make(map[api.ResourceName]int64, len(r.scalar)+len(o.scalar))
	maps.Copy(scalar, r.scalar)
	for name, v := range o.scalar {
		scalar[name] += sign * v
	}
	r.scalar = scalar
}

func fromList(l api.ResourceList) requests {
	q := func(name api.ResourceName) api.Quantity { return l[name] }
	cpu := q(api.ResourceCPU)
	r := requests{milliCPU: cpu.MilliValue(), memory: q(api.ResourceMemory).Value(), ephemeral: q(api.ResourceEphemeralStorage).Value(), pods: q(api.ResourcePods).Value()}
	for name, amount := range l {
		if api.IsScalarResourceName(name) {
			if r.scalar == nil {
				r.scalar = map[api.ResourceName]int64{}
			}
			r.scalar[name] = amount.Value()
		}
	}
	return r
}

// PodRequests is what a pod asks of a node (resourcehelper.PodRequests, see
// api.PodRequestsList: containers summed, init containers and sidecars as the kubelet runs them,
// the pod overhead), plus the pod itself.
func PodRequests(pod *api.Pod) requests {
	r := fromList(api.PodRequestsList(pod))
	r.pods = 1
	return r
}

// nonZeroRequests is PodRequests with 100m cpu and 200Mi memory for every container that
// requests none (pkg/scheduler/util/pod_resources.go: GetNonzeroRequests), what LeastAllocated
// counts of the pod and of the pods on the node.
func nonZeroRequests(pod *api.Pod) requests {
	r := fromList(api.PodRequestsDefaulting(pod, nonZeroDefaults))
	r.pods = 1
	return r
}

var nonZeroDefaults = api.ResourceList{api.ResourceCPU: api.MustParseQuantity("100m"), api.ResourceMemory: api.MustParseQuantity("200Mi")}

func allocatable(n *api.Node) requests { return fromList(n.Status.Allocatable) }

// nodeResourcesFit is NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go):
//
//  1. Filter: the pod's requests against the node's allocatable minus what its pods request —
//     "Too many pods", then "Insufficient cpu", "Insufficient memory", "Insufficient
//     ephemeral-storage" and each scalar resource ("Insufficient example.com/gpu", a node
//     without it having none); unresolvable when the request exceeds the node's whole
//     allocatable (v1.34+).
//  2. Score, LeastAllocated over cpu and memory (weight 1 each): the share of the node left free
//     once the pod is on it, where the pod and the node's pods count 100m cpu and 200Mi memory
//     for a container that requests none; a resource asked beyond allocatable scores 0.
type nodeResourcesFit struct{}

func (nodeResourcesFit) name() string  { return NodeResourcesFit }
func (nodeResourcesFit) weight() int64 { return 1 }

func (nodeResourcesFit) filter(st *cycleState, ni *nodeInfo) verdict {
	return fitResources(st.want, ni.used, ni.alloc)
}

func (nodeResourcesFit) score(st *cycleState, feasible []*nodeInfo) []int64 {
	want := nonZeroRequests(st.pod)
	scores := make([]int64, len(feasible))
	for i, ni := range feasible {
		var sum, weights int64
		for _, r := range scoredResources {
			a, req := ni.alloc.get(r), ni.nonZero.get(r)+want.get(r)
			if a == 0 {
				continue
			}
			weights++
			if req <= a {
				sum += (a - req) * maxNodeScore / a
			}
		}
		if weights > 0 {
			scores[i] = sum / weights
		}
	}
	return scores
}

// scoredResources are the resources the default profile's resource scores weigh, 1 each.
var scoredResources = []api.ResourceName{api.ResourceCPU, api.ResourceMemory}

// balancedAllocation is NodeResourcesBalancedAllocation
// (pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go):
//
//  1. PreScore: a pod that requests neither cpu nor memory is skipped. The pod's and the node's
//     pods' requests count as they are, without defaults.
//  2. For the node with the pod and without it: the fractions of allocatable cpu and memory
//     requested (at most 1), and 100 × (1 − half their difference).
//  3. The score is 50 + (50 + with − without) / 2: a node the pod brings closer to balance
//     scores more.
type balancedAllocation struct{}

func (balancedAllocation) name() string  { return NodeResourcesBalancedAllocation }
func (balancedAllocation) weight() int64 { return 1 }

func (balancedAllocation) score(st *cycleState, feasible []*nodeInfo) []int64 {
	want := st.want
	if want.milliCPU == 0 && want.memory == 0 {
		return nil
	}
	balance := func(used, alloc requests) int64 {
		var fractions []float64
		for _, name := range scoredResources {
			if a := alloc.get(name); a > 0 {
				fractions = append(fractions, min(1, float64(used.get(name))/float64(a)))
			}
		}
		std := 0.0
		if len(fractions) == 2 {
			std = math.Abs(fractions[0]-fractions[1]) / 2
		}
		return int64((1 - std) * maxNodeScore)
	}
	scores := make([]int64, len(feasible))
	for i, ni := range feasible {
		with := ni.used
		with.add(want)
		scores[i] = maxNodeScore/2 + (maxNodeScore/2+balance(with, ni.alloc)-balance(ni.used, ni.alloc))/2
	}
	return scores
}
