package api

import "time"

// PodReadySince returns whether the pod's Ready condition is True, and since when (podutil.IsPodReady).
func PodReadySince(p *Pod) (bool, time.Time) {
	for _, c := range p.Status.Conditions {
		if c.Type == PodReady {
			return c.Status == ConditionTrue, c.LastTransitionTime.Time
		}
	}
	return false, time.Time{}
}

// IsPodReady reports whether the pod's Ready condition is True.
func IsPodReady(p *Pod) bool {
	ready, _ := PodReadySince(p)
	return ready
}

// IsPodAvailable reports whether the pod has been Ready for at least minReadySeconds at now
// (podutil.IsPodAvailable: a pod Ready at t with minReadySeconds 10 is available from t+10).
func IsPodAvailable(p *Pod, minReadySeconds int32, now time.Time) bool {
	ready, since := PodReadySince(p)
	return ready && (minReadySeconds == 0 || !since.Add(time.Duration(minReadySeconds)*time.Second).After(now))
}

// IsPodActive reports whether a pod counts for its controller: not finished and not being deleted
// (controller.IsPodActive).
func IsPodActive(p *Pod) bool {
	return !IsPodTerminal(p) && p.DeletionTimestamp == nil
}

// IsPodTerminal reports whether a pod has ended: Failed or Succeeded (podutil.IsPodTerminal).
func IsPodTerminal(p *Pod) bool {
	return p.Status.Phase == PodSucceeded || p.Status.Phase == PodFailed
}

// IsMirrorPod reports whether a pod is the API server's copy of a kubelet's static pod: it has
// the kubernetes.io/config.mirror annotation (kubetypes.IsMirrorPod).
func IsMirrorPod(p *Pod) bool {
	_, ok := p.Annotations[AnnotationConfigMirror]
	return ok
}

// ControllerOf returns the pod's controller reference, if any.
func ControllerOf(m *ObjectMeta) (OwnerReference, bool) {
	for _, ref := range m.OwnerReferences {
		if ref.Controller != nil && *ref.Controller {
			return ref, true
		}
	}
	return OwnerReference{}, false
}

// NewControllerRef returns the reference a controller puts on what it creates
// (metav1.NewControllerRef): controller and blockOwnerDeletion true.
func NewControllerRef(owner Object, apiVersion, kind string) OwnerReference {
	yes, also := true, true
	m := owner.GetObjectMeta()
	return OwnerReference{APIVersion: apiVersion, Kind: kind, Name: m.Name, UID: m.UID, Controller: &yes, BlockOwnerDeletion: &also}
}

// IsRestartableInitContainer reports whether an init container is a sidecar: its own
// restartPolicy is Always (podutil.IsRestartableInitContainer). nil is not one.
func IsRestartableInitContainer(c *Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == RestartPolicyAlways
}

// HostPorts returns the ports a pod takes on its node (schedutil.GetHostPorts): those with a
// hostPort, of its sidecar init containers (the others have exited before the containers
// start) and then of its containers; nil when there are none.
func HostPorts(p *Pod) []ContainerPort {
	var ports []ContainerPort
	take := func(c *Container) {
		for _, port := range c.Ports {
			if port.HostPort > 0 {
				ports = append(ports, port)
			}
		}
	}
	for i := range p.Spec.InitContainers {
		if IsRestartableInitContainer(&p.Spec.InitContainers[i]) {
			take(&p.Spec.InitContainers[i])
		}
	}
	for i := range p.Spec.Containers {
		take(&p.Spec.Containers[i])
	}
	return ports
}
