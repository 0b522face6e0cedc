package api

import "strings"

// PodRequestsList and PodLimitsList are component-helpers' PodRequests and PodLimits, the
// amounts kubectl describe node shows per pod:
//
//  1. The containers' amounts are summed.
//  2. Init containers run one at a time before them: each needs its own amount plus that of
//     the restartable (sidecar) init containers started before it; the pod needs at least
//     the largest of those. Sidecars keep running, so their amounts also add to the sum.
//  3. Pod-level requirements, where set, replace the containers' cpu and memory.
//  4. The pod overhead is added to the requests, and to each limit that is set.

// PodRequestsList is what a pod requests, per resource.
func PodRequestsList(pod *Pod) ResourceList {
	return podRequests(pod, func(c *Container) ResourceList { return c.Resources.Requests })
}

// PodRequestsDefaulting is PodRequestsList with component-helpers' NonMissingContainerRequests:
// a container or init container that requests none of a resource in defaults counts as
// requesting the default amount (what kube-scheduler's scores count, see
// pkg/scheduler/util/pod_resources.go).
func PodRequestsDefaulting(pod *Pod, defaults ResourceList) ResourceList {
	return podRequests(pod, func(c *Container) ResourceList {
		reqs := c.Resources.Requests
		for name, q := range defaults {
			if _, ok := reqs[name]; !ok {
				with := ResourceList{name: q}
				AddResources(with, reqs)
				reqs = with
			}
		}
		return reqs
	})
}

func podRequests(pod *Pod, amounts func(*Container) ResourceList) ResourceList {
	reqs := aggregate(pod, amounts)
	if PodLevelResourcesSet(&pod.Spec) {
		applyPodLevel(reqs, pod.Spec.Resources.Requests)
	}
	AddResources(reqs, pod.Spec.Overhead)
	return reqs
}

// PodLimitsList is a pod's limits, per resource.
func PodLimitsList(pod *Pod) ResourceList {
	limits := aggregate(pod, func(c *Container) ResourceList { return c.Resources.Limits })
	if PodLevelResourcesSet(&pod.Spec) {
		applyPodLevel(limits, pod.Spec.Resources.Limits)
	}
	for name, q := range pod.Spec.Overhead {
		if have, ok := limits[name]; ok && !have.IsZero() {
			limits[name] = have.Add(q)
		}
	}
	return limits
}

func aggregate(pod *Pod, amounts func(*Container) ResourceList) ResourceList {
	total := ResourceList{}
	for i := range pod.Spec.Containers {
		AddResources(total, amounts(&pod.Spec.Containers[i]))
	}
	sidecars, initMax := ResourceList{}, ResourceList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		need := ResourceList{}
		if IsRestartableInitContainer(c) {
			AddResources(total, amounts(c))
			AddResources(sidecars, amounts(c))
			AddResources(need, sidecars)
		} else {
			AddResources(need, amounts(c))
			AddResources(need, sidecars)
		}
		maxList(initMax, need)
	}
	maxList(total, initMax)
	return total
}

// AddResources adds each amount of add to total.
func AddResources(total, add ResourceList) {
	for name, q := range add {
		if have, ok := total[name]; ok {
			total[name] = have.Add(q)
		} else {
			total[name] = q
		}
	}
}

func maxList(total, other ResourceList) {
	for name, q := range other {
		if have, ok := total[name]; !ok || q.Cmp(have) > 0 {
			total[name] = q
		}
	}
}

func applyPodLevel(total, podLevel ResourceList) {
	for _, name := range podLevelResources {
		if q, ok := podLevel[name]; ok {
			total[name] = q
		}
	}
}

// IsScalarResourceName reports whether kube-scheduler accounts name as a scalar resource
// (pkg/scheduler/util: IsScalarResourceName): an extended resource, hugepages, a native
// resource with the kubernetes.io/ prefix, or attachable-volumes-<name>.
func IsScalarResourceName(name ResourceName) bool {
	return IsExtendedResourceName(name) || IsHugePageResourceName(name) ||
		strings.Contains(string(name), "kubernetes.io/") || strings.HasPrefix(string(name), "attachable-volumes-")
}

// The kinds of resource name, as pkg/apis/core/helper tells them apart:
//
//  1. A native resource has no domain ("cpu", "hugepages-2Mi") or one in kubernetes.io
//     (IsNativeResource).
//  2. An extended resource ("example.com/gpu") is any other, unless it starts with a quota's
//     "requests." or "requests.<name>" is not a qualified name (IsExtendedResourceName).
//  3. hugepages-<page size> names huge pages of that size (IsHugePageResourceName).

// IsNativeResource reports whether name is a native resource (rule 1).
func IsNativeResource(name ResourceName) bool {
	return !strings.Contains(string(name), "/") || strings.Contains(string(name), "kubernetes.io/")
}

// IsExtendedResourceName reports whether name is an extended resource (rule 2).
func IsExtendedResourceName(name ResourceName) bool {
	return !IsNativeResource(name) && !strings.HasPrefix(string(name), "requests.") &&
		len(IsLabelKey("requests."+string(name))) == 0
}

// IsHugePageResourceName reports whether name is a hugepages resource (rule 3).
func IsHugePageResourceName(name ResourceName) bool {
	return strings.HasPrefix(string(name), hugePagesPrefix)
}

const hugePagesPrefix = "hugepages-"
