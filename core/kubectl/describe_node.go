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
// what the node can allocate (truncated to whole percents), then the totals.
func describeNodeResource(w describeWriter, pods []*api.Pod, node *api.Node, now time.Time) {
	w.write(0, "Non-terminated Pods:\t(%d in total)\n", len(pods))
	w.write(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n")
	w.write(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n")
	alloc := node.Status.Capacity
	if len(node.Status.Allocatable) > 0 {
		alloc = node.Status.Allocatable
	}
	cpu, mem, eph := alloc[api.ResourceCPU], alloc[api.ResourceMemory], alloc[api.ResourceEphemeralStorage]
	// A share of nothing is 0, as describe guards its totals (nodes here always have cpu and
	// memory; ephemeral-storage may be absent).
	milliShare := func(q api.Quantity, of api.Quantity) int64 {
		if of.MilliValue() == 0 {
			return 0
		}
		return int64(float64(q.MilliValue()) / float64(of.MilliValue()) * 100)
	}
	share := func(q api.Quantity, of api.Quantity) int64 {
		if of.Value() == 0 {
			return 0
		}
		return int64(float64(q.Value()) / float64(of.Value()) * 100)
	}
	totalReq, totalLim := api.ResourceList{}, api.ResourceList{}
	for _, p := range pods {
		req, lim := api.PodRequestsList(p), api.PodLimitsList(p)
		api.AddResources(totalReq, req)
		api.AddResources(totalLim, lim)
		cr, cl, mr, ml := req[api.ResourceCPU], lim[api.ResourceCPU], req[api.ResourceMemory], lim[api.ResourceMemory]
		w.write(1, "%s\t%s\t\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s\n", p.Namespace, p.Name,
			cr.String(), milliShare(cr, cpu), cl.String(), milliShare(cl, cpu), mr.String(), share(mr, mem), ml.String(), share(ml, mem), age(p.CreationTimestamp, now))
	}
	w.write(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
	w.write(1, "Resource\tRequests\tLimits\n")
	w.write(1, "--------\t--------\t------\n")
	for _, r := range []struct {
		name api.ResourceName
		f    func(api.Quantity, api.Quantity) int64
		of   api.Quantity
	}{{api.ResourceCPU, milliShare, cpu}, {api.ResourceMemory, share, mem}, {api.ResourceEphemeralStorage, share, eph}} {
		rq, lm := totalReq[r.name], totalLim[r.name]
		w.write(1, "%s\t%s (%d%%)\t%s (%d%%)\n", r.name, rq.String(), r.f(rq, r.of), lm.String(), r.f(lm, r.of))
	}
	var ext []string
	for name := range alloc {
		switch name {
		case api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage, api.ResourcePods:
		default:
			ext = append(ext, string(name))
		}
	}
	sort.Strings(ext)
	for _, name := range ext {
		rq, lm := totalReq[api.ResourceName(name)], totalLim[api.ResourceName(name)]
		w.write(1, "%s\t%s\t%s\n", name, rq.String(), lm.String())
	}
}
