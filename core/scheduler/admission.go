package scheduler

import (
	"daemonlab/core/api"
)

// NodeName is the filter that keeps a pod with spec.nodeName to that node; the scheduler never
// runs it on a bound pod, but the kubelet's admission check does.
const NodeName = "NodeName"

// AdmissionFailure is one reason NodePods.AdmissionCheck refuses a pod: the plugin and its reason, and
// for NodeResourcesFit the resource the node lacks.
type AdmissionFailure struct {
	Plugin       string
	Reason       string
	Insufficient *InsufficientResource // set for NodeResourcesFit only
}

// NodePods is a node and the pods it runs, as the kubelet's admission check reads them
// (framework.NodeInfo): what they request and the host ports they hold, kept as pods come and go.
type NodePods struct{ ni *nodeInfo }

// NewNodePods is the node running the pods.
func NewNodePods(node *api.Node, pods []*api.Pod) *NodePods {
	ni := newNodeInfo(node)
	for _, p := range pods {
		ni.addPod(p)
	}
	return &NodePods{ni}
}

// Add counts a pod the node now runs.
func (np *NodePods) Add(p *api.Pod) { np.ni.addPod(p) }

// Remove takes a pod off the node.
func (np *NodePods) Remove(p *api.Pod) { np.ni.removePod(p) }

// Node is the node.
func (np *NodePods) Node() *api.Node { return np.ni.node }

// Pods are the pods the node runs, in List order.
func (np *NodePods) Pods() []*api.Pod { return np.ni.pods }

// AdmissionCheck is the part of the scheduler's filters the kubelet runs before it admits a pod
// to its node (pkg/scheduler/eventhandlers.go AdmissionCheck, every failure), against the pods
// the node runs already:
//
//  1. NodeResourcesFit: each resource the node lacks (insufficient), with its amounts; the
//     kubelet leaves out the extended resources the node does not offer, which the scheduler
//     accounts cluster-wide (pkg/kubelet/lifecycle/predicate.go removeMissingExtendedResources);
//  2. NodeAffinity: the pod's nodeSelector and required node affinity — "node(s) didn't match
//     Pod's node affinity/selector";
//  3. NodeName: a spec.nodeName other than the node — "node(s) didn't match the requested node
//     name";
//  4. NodePorts: a host port one of the pods holds — "node(s) didn't have free ports for the
//     requested pod ports".
func (np *NodePods) AdmissionCheck(pod *api.Pod) []AdmissionFailure {
	ni, node := np.ni, np.ni.node
	var out []AdmissionFailure
	want := PodRequests(pod) // its scalar map is its own
	for name := range want.scalar {
		if _, offered := node.Status.Allocatable[name]; !offered && api.IsExtendedResourceName(name) {
			delete(want.scalar, name)
		}
	}
	for _, r := range insufficient(want, ni.used, ni.alloc) {
		out = append(out, AdmissionFailure{Plugin: NodeResourcesFit, Reason: r.Reason, Insufficient: &r})
	}
	st := &cycleState{pod: pod, ports: hostPortsOf(pod)}
	if v := (nodeAffinity{}).filter(st, ni); v.code != fits {
		out = append(out, AdmissionFailure{Plugin: NodeAffinity, Reason: v.reasons[0]})
	}
	if pod.Spec.NodeName != "" && pod.Spec.NodeName != node.Name {
		out = append(out, AdmissionFailure{Plugin: NodeName, Reason: "node(s) didn't match the requested node name"})
	}
	if v := (nodePorts{}).filter(st, ni); v.code != fits {
		out = append(out, AdmissionFailure{Plugin: NodePorts, Reason: v.reasons[0]})
	}
	return out
}

// PodRequestsOf is what a pod asks of each resource (resource.GetResourceRequest): milli-cpu,
// bytes, units of a scalar resource, and 1 of pods.
func PodRequestsOf(pod *api.Pod, names []api.ResourceName) []int64 {
	r := PodRequests(pod)
	out := make([]int64, len(names))
	for i, name := range names {
		out[i] = r.get(name)
	}
	return out
}
