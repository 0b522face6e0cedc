package scheduler

import (
	"slices"

	"daemonlab/core/api"
)

// hostPort is one port a pod takes on its node: its host IP (0.0.0.0, every address, when none
// is given), protocol (TCP when none is given) and number (framework.HostPortInfo's key).
type hostPort struct {
	ip, protocol string
	port         int32
}

// bindAll is the host IP that stands for every address of the node (DefaultBindAllHostIP).
const bindAll = "0.0.0.0"

// hostPortsOf is the pod's host ports (api.HostPorts), an empty IP read as 0.0.0.0 and an empty
// protocol as TCP; nil when it takes none.
func hostPortsOf(pod *api.Pod) []hostPort {
	var out []hostPort
	for _, p := range api.HostPorts(pod) {
		hp := hostPort{ip: p.HostIP, protocol: p.Protocol, port: p.HostPort}
		if hp.ip == "" {
			hp.ip = bindAll
		}
		if hp.protocol == "" {
			hp.protocol = "TCP"
		}
		out = append(out, hp)
	}
	return out
}

// conflicts reports whether want cannot be had beside the ports used on a node
// (HostPortInfo.CheckConflict): a port of the same protocol and number on the same IP, or on
// 0.0.0.0 on either side, which takes every address.
func (want hostPort) conflicts(used []hostPort) bool {
	return slices.ContainsFunc(used, func(u hostPort) bool {
		return u.protocol == want.protocol && u.port == want.port && (want.ip == bindAll || u.ip == bindAll || u.ip == want.ip)
	})
}

// addPorts counts ports as used on a node (HostPortInfo.Add): a set, so a port two pods give is
// held once.
func addPorts(used []hostPort, ports []hostPort) []hostPort {
	for _, p := range ports {
		if !slices.Contains(used, p) {
			used = append(used, p)
		}
	}
	return used
}

// removePorts releases ports on a node (HostPortInfo.Remove), on a copy: as upstream's set, a
// port is released even if another pod of the node gave it too.
func removePorts(used []hostPort, ports []hostPort) []hostPort {
	if len(ports) == 0 {
		return used
	}
	return slices.DeleteFunc(slices.Clone(used), func(u hostPort) bool { return slices.Contains(ports, u) })
}

// nodePorts is NodePorts (pkg/scheduler/framework/plugins/nodeports):
//
//  1. PreFilter: the pod's host ports, from its containers and its sidecar init containers
//     (hostPortsOf); a pod without any skips the filter.
//  2. Filter: a node where one of them is taken by a pod bound there (the same protocol and
//     number, on the same host IP or with 0.0.0.0 on either side) fails — "node(s) didn't have
//     free ports for the requested pod ports", Unschedulable: preempting the pod that holds the
//     port could free it.
//
// Its state does not depend on other nodes' pods, so it needs no podUpdater: preemption's dry
// run frees a victim's ports by taking it off its node (nodeInfo.removePod).
type nodePorts struct{}

func (nodePorts) name() string { return NodePorts }

func (nodePorts) filter(st *cycleState, ni *nodeInfo) verdict {
	for _, want := range st.ports {
		if want.conflicts(ni.ports) {
			return verdict{code: unschedulable, reasons: []string{"node(s) didn't have free ports for the requested pod ports"}}
		}
	}
	return verdict{code: fits}
}
