package api

// QOSClass is Guaranteed, Burstable or BestEffort.
type QOSClass string

const (
	QOSGuaranteed QOSClass = "Guaranteed"
	QOSBurstable  QOSClass = "Burstable"
	QOSBestEffort QOSClass = "BestEffort"
)

// ComputeQOS classifies a pod spec as Kubernetes v1.37 does (pkg/apis/core/v1/helper/qos/qos.go
// requirementsQOS), on the spec after defaulting:
//
//  1. Only cpu and memory count; init containers count; a zero quantity counts as absent.
//  2. Per container and resource: a request different from the limit is Burstable; neither is
//     BestEffort-shaped; equal and non-zero is Guaranteed-shaped.
//  3. A container is Burstable if either resource is, or if cpu and memory differ in shape.
//  4. The pod is Burstable if any container is, or if BestEffort- and Guaranteed-shaped
//     containers mix; otherwise it takes the shape all its containers share.
//
// So one container without resources beside a Guaranteed one makes the pod Burstable, not
// BestEffort, whatever some tutorials say.
//
// With pod-level resources naming cpu or memory, they alone decide, by the same rules.
func ComputeQOS(spec *PodSpec) QOSClass {
	if PodLevelResourcesSet(spec) {
		return containerQOS(spec.Resources)
	}
	seen := map[QOSClass]bool{}
	for _, cs := range [][]Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			seen[containerQOS(&cs[i].Resources)] = true
		}
	}
	switch {
	case seen[QOSBurstable], seen[QOSBestEffort] && seen[QOSGuaranteed]:
		return QOSBurstable
	case seen[QOSGuaranteed]:
		return QOSGuaranteed
	}
	return QOSBestEffort
}

func containerQOS(r *ResourceRequirements) QOSClass {
	var shapes [2]QOSClass
	for i, name := range []ResourceName{ResourceCPU, ResourceMemory} {
		req, lim := r.Requests[name], r.Limits[name]
		switch {
		case req.Cmp(lim) != 0:
			return QOSBurstable
		case req.IsZero():
			shapes[i] = QOSBestEffort
		default:
			shapes[i] = QOSGuaranteed
		}
	}
	if shapes[0] != shapes[1] {
		return QOSBurstable
	}
	return shapes[0]
}

// PodLevelResourcesSet reports whether the pod-level requirements name cpu or memory
// (IsPodLevelResourcesSet; an empty spec.resources falls back to the containers).
func PodLevelResourcesSet(spec *PodSpec) bool {
	if spec.Resources == nil {
		return false
	}
	for _, name := range podLevelResources {
		_, req := spec.Resources.Requests[name]
		_, lim := spec.Resources.Limits[name]
		if req || lim {
			return true
		}
	}
	return false
}
