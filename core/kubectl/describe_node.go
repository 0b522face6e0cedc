package kubectl

import (
	"sort"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

// describeNode is kubectl's describeNode: roles, labels, taints, the kubelet's lease,
// conditions, addresses, capacity, system info, the pods that have not finished with their
// share of the node, and events.
func describeNode(s *sim.Sim, obj api.Object, events bool) string {
	node := obj.(*api.Node)
	now := s.C.Now()
	return tabbed(func(w describeWriter) {
		w.write(0, "Name:\t%s\n", node.Name)
		w.write(0, "Roles:\t%s\n", NodeRoles(node))
		labelsMultiline(w, "Labels", node.Labels)
		annotationsMultiline(w, "Annotations", node.Annotations)
		w.write(0, "CreationTimestamp:\t%s\n", rfc1123z(node.CreationTimestamp))
		taintsMultiline(w, "Taints", node.Spec.Taints)
		w.write(0, "Unschedulable:\t%v\n", node.Spec.Unschedulable)
		describeLease(w, s.C, node.Name)
		if len(node.Status.Conditions) > 0 {
			w.write(0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n")
			w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n")
			for _, c := range node.Status.Conditions {
				w.write(1, "%v \t%v \t%s \t%s \t%v \t%v\n", c.Type, c.Status, rfc1123z(c.LastHeartbeatTime), rfc1123z(c.LastTransitionTime), c.Reason, c.Message)
			}
		}
		w.write(0, "Addresses:\n")
		for _, a := range node.Status.Addresses {
			w.write(1, "%s:\t%s\n", a.Type, a.Address)
		}
		for _, part := range []struct {
			title string
			list  api.ResourceList
		}{{"Capacity", node.Status.Capacity}, {"Allocatable", node.Status.Allocatable}} {
			if len(part.list) == 0 {
				continue
			}
			w.write(0, "%s:\n", part.title)
			for _, name := range sortedResourceNames(part.list) {
				q := part.list[name]
				w.write(0, "  %s:\t%s\n", name, q.String())
			}
		}
		info := node.Status.NodeInfo
		w.write(0, "System Info:\n")
		for _, f := range [][2]string{
			{"Machine ID", info.MachineID}, {"System UUID", info.SystemUUID}, {"Boot ID", info.BootID},
			{"Kernel Version", info.KernelVersion}, {"OS Image", info.OSImage}, {"Operating System", info.OperatingSystem},
			{"Architecture", info.Architecture}, {"Container Runtime Version", info.ContainerRuntimeVersion}, {"Kubelet Version", info.KubeletVersion},
		} {
			w.write(0, "  %s:\t%s\n", f[0], f[1])
		}
		if node.Spec.PodCIDR != "" {
			w.write(0, "PodCIDR:\t%s\n", node.Spec.PodCIDR)
		}
		if len(node.Spec.PodCIDRs) > 0 {
			w.write(0, "PodCIDRs:\t%s\n", strings.Join(node.Spec.PodCIDRs, ","))
		}
		if node.Spec.ProviderID != "" {
			w.write(0, "ProviderID:\t%s\n", node.Spec.ProviderID)
		}
		describeNodeResource(w, nodePods(s.C, node.Name), node, now)
		if events {
			describeEvents(w, eventsAbout(s.C, node, true), now)
		}
	})
}

// describeLease prints the kubelet's node lease (kube-node-lease/<node>): it holds it, took it
// when the node registered and renews it every 10s while it runs.
func describeLease(w describeWriter, c *cluster.Cluster, node string) {
	m, ok := c.Machine(node)
	if !ok {
		w.write(0, "Lease:\tFailed to get lease: leases.coordination.k8s.io %q not found\n", node)
		return
	}
	w.write(0, "Lease:\n")
	w.write(1, "HolderIdentity:\t%s\n", node)
	w.write(1, "AcquireTime:\t<unset>\n")
	w.write(1, "RenewTime:\t%s\n", rfc1123z(api.NewTime(m.LastRenew(c.Now()))))
}

// nodePods lists the pods bound to a node that have neither succeeded nor failed, in the API
// server's order.
func nodePods(c *cluster.Cluster, node string) []*api.Pod {
	var out []*api.Pod
	for _, p := range c.Pods() {
		if p.Spec.NodeName == node && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			out = append(out, p)
		}
	}
	return out
}

// describeNodeResource prints the node's pods with their requests and limits as a share of
// what the node can allocate, then the totals (NodeAllocated).
func describeNodeResource(w describeWriter, pods []*api.Pod, node *api.Node, now time.Time) {
	w.write(0, "Non-terminated Pods:\t(%d in total)\n", len(pods))
	w.write(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n")
	w.write(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n")
	a := NodeAllocated(node, pods)
	for _, p := range pods {
		req, lim := api.PodRequestsList(p), api.PodLimitsList(p)
		cr, cl, mr, ml := req[api.ResourceCPU], lim[api.ResourceCPU], req[api.ResourceMemory], lim[api.ResourceMemory]
		w.write(1, "%s\t%s\t\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s\n", p.Namespace, p.Name,
			cr.String(), a.Share(api.ResourceCPU, cr), cl.String(), a.Share(api.ResourceCPU, cl),
			mr.String(), a.Share(api.ResourceMemory, mr), ml.String(), a.Share(api.ResourceMemory, ml), age(p.CreationTimestamp, now))
	}
	w.write(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
	w.write(1, "Resource\tRequests\tLimits\n")
	w.write(1, "--------\t--------\t------\n")
	for _, r := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage} {
		rq, lm := a.Requests[r], a.Limits[r]
		w.write(1, "%s\t%s (%d%%)\t%s (%d%%)\n", r, rq.String(), a.Share(r, rq), lm.String(), a.Share(r, lm))
	}
	// Then the huge pages, with their shares, and the extended resources, without
	// (describe.go describeNodeResource: IsHugePageResourceName, the "hugepages-" prefix).
	alloc, totalReq, totalLim := a.Allocatable, a.Requests, a.Limits
	var huge, ext []string
	for name := range alloc {
		switch {
		case name == api.ResourceCPU, name == api.ResourceMemory, name == api.ResourceEphemeralStorage, name == api.ResourcePods:
		case strings.HasPrefix(string(name), "hugepages-"):
			huge = append(huge, string(name))
		default:
			ext = append(ext, string(name))
		}
	}
	sort.Strings(huge)
	sort.Strings(ext)
	for _, name := range huge {
		r := api.ResourceName(name)
		rq, lm := totalReq[r], totalLim[r]
		w.write(1, "%s\t%s (%d%%)\t%s (%d%%)\n", name, rq.String(), a.Share(r, rq), lm.String(), a.Share(r, lm))
	}
	for _, name := range ext {
		rq, lm := totalReq[api.ResourceName(name)], totalLim[api.ResourceName(name)]
		w.write(1, "%s\t%s\t%s\n", name, rq.String(), lm.String())
	}
}

// Allocation is describe node's "Allocated resources": the requests and limits of a node's
// pods, summed, and what the node can allocate.
type Allocation struct {
	Requests, Limits api.ResourceList // each pod's as PodRequestsList and PodLimitsList count them
	Allocatable      api.ResourceList // the node's allocatable, or its capacity when it reports none
}

// NodeAllocated sums the requests and limits of pods, the node's pods that have not finished (as
// describe lists them: sidecars and overhead included), against what the node can allocate.
func NodeAllocated(node *api.Node, pods []*api.Pod) Allocation {
	a := Allocation{Requests: api.ResourceList{}, Limits: api.ResourceList{}, Allocatable: node.Status.Capacity}
	if len(node.Status.Allocatable) > 0 {
		a.Allocatable = node.Status.Allocatable
	}
	for _, p := range pods {
		api.AddResources(a.Requests, api.PodRequestsList(p))
		api.AddResources(a.Limits, api.PodLimitsList(p))
	}
	return a
}

// Share is q of resource r as a percent, truncated, of what the node can allocate of it: cpu in
// millicores, the rest in whole units. A share of nothing is 0, as describe guards its totals
// (nodes here always have cpu and memory; ephemeral-storage may be absent).
func (a Allocation) Share(r api.ResourceName, q api.Quantity) int64 {
	of := a.Allocatable[r]
	if r == api.ResourceCPU {
		if of.MilliValue() == 0 {
			return 0
		}
		return int64(float64(q.MilliValue()) / float64(of.MilliValue()) * 100)
	}
	if of.Value() == 0 {
		return 0
	}
	return int64(float64(q.Value()) / float64(of.Value()) * 100)
}
