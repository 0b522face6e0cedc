package playground

import (
	"daemonlab/core/api"
	"daemonlab/core/kubectl"
)

// Usage is how much of one resource the pods on a node request, of what it can allocate.
type Usage struct {
	Resource             string // cpu, memory
	Requested, Allocated string // as Quantity prints them
	Percent              int    // truncated, as kubectl describe node's Allocated resources
}

// nodeUsage is kubectl describe node's "Allocated resources" for cpu and memory: the requests
// of pods (the node's pods that have not finished) against its allocatable.
func nodeUsage(n *api.Node, pods []*api.Pod) []Usage {
	a := kubectl.NodeAllocated(n, pods)
	var out []Usage
	for _, r := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
		req, of := a.Requests[r], a.Allocatable[r]
		out = append(out, Usage{Resource: string(r), Requested: req.String(), Allocated: of.String(), Percent: int(a.Share(r, req))})
	}
	return out
}

// nodeConditions are the node's conditions that are not as a healthy node reports them, in the
// node's order: Ready other than True ("Ready=Unknown"), and MemoryPressure, DiskPressure,
// PIDPressure or NetworkUnavailable other than False ("MemoryPressure", or "=Unknown" when the
// node controller no longer knows).
func nodeConditions(n *api.Node) []string {
	var out []string
	for _, c := range n.Status.Conditions {
		switch {
		case c.Type == api.NodeReady && c.Status == api.ConditionTrue, c.Type != api.NodeReady && c.Status == api.ConditionFalse:
		case c.Status == api.ConditionTrue:
			out = append(out, string(c.Type))
		default:
			out = append(out, string(c.Type)+"="+string(c.Status))
		}
	}
	return out
}
