package apiserver

import (
	"fmt"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// CreateSystemPriorityClasses creates the classes every cluster has, api.SystemPriorityClasses,
// as kube-apiserver's post-start hook scheduling/bootstrap-system-priority-classes does
// (pkg/registry/scheduling/rest/storage_scheduling.go AddSystemPriorityClasses): each one that
// does not exist is created through the API (defaulted and validated as any create). Their
// uids come from the store's system source (cluster.CreateSystem), so that the classes leave
// every seed's generated names as they were.
func CreateSystemPriorityClasses(c *cluster.Cluster) error {
	for _, pc := range api.SystemPriorityClasses() {
		if c.Get("PriorityClass", cluster.KeyOf(pc)) != nil {
			continue
		}
		checked, err := Create(c, pc, Options{DryRun: true})
		if err != nil {
			return err
		}
		if err := c.CreateSystem(checked); err != nil {
			return err
		}
	}
	return nil
}

// admitPriority is the Priority admission plugin's admitPod for a new pod
// (plugin/pkg/admission/priority/admission.go, establishPriority):
//
//  1. A pod that names no class gets the global default class's name, value and preemption
//     policy, or, when no class is the global default, priority 0 and PreemptLowerPriority
//     (DefaultPriorityWhenNoDefaultClassExists).
//  2. A pod that names a class gets its value and preemption policy; a class that does not
//     exist is refused: "no PriorityClass with name NAME was found".
//  3. A priority in the spec that differs from the one computed is refused ("the integer value
//     of priority (N) must not be provided in pod spec; priority admission controller computed
//     M from the given PriorityClass name"), and so is a different preemption policy ("the
//     string value of PreemptionPolicy (P) must not be provided in pod spec; …").
func admitPriority(c *cluster.Cluster, obj api.Object, _ Options) string {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return ""
	}
	name, priority, policy := "", int32(0), api.PreemptLowerPriority
	if pc := resolvePriorityClass(c, pod.Spec.PriorityClassName); pc != nil {
		name, priority, policy = pc.Name, pc.Value, *pc.PreemptionPolicy
	} else if pod.Spec.PriorityClassName != "" {
		return fmt.Sprintf("no PriorityClass with name %v was found", pod.Spec.PriorityClassName)
	}
	pod.Spec.PriorityClassName = name
	if pod.Spec.Priority != nil && *pod.Spec.Priority != priority {
		return fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *pod.Spec.Priority, priority)
	}
	pod.Spec.Priority = &priority
	if p := pod.Spec.PreemptionPolicy; p != nil && *p != policy {
		return fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *p, policy)
	}
	pod.Spec.PreemptionPolicy = &policy
	return ""
}

// resolvePriorityClass is the class a pod's priorityClassName resolves to: the class of that
// name, or for no name the global default (defaultPriorityClass); nil when there is none.
func resolvePriorityClass(c *cluster.Cluster, name string) *api.PriorityClass {
	if name == "" {
		return defaultPriorityClass(c)
	}
	pc, _ := c.Get("PriorityClass", cluster.Key{Name: name}).(*api.PriorityClass)
	return pc
}

// defaultPriorityClass is getDefaultPriorityClass: of the classes marked globalDefault (more
// than one only if they were created at once), the one of lowest value, the first by name among
// equals; nil when none is.
func defaultPriorityClass(c *cluster.Cluster) *api.PriorityClass {
	var found *api.PriorityClass
	for _, pc := range cluster.List[*api.PriorityClass](c) {
		if pc.GlobalDefault && (found == nil || pc.Value < found.Value) {
			found = pc
		}
	}
	return found
}

// keepPriority is the Priority plugin's admitPod for an update: the priority and preemption
// policy admission set when the pod was created stay when the update leaves them out (a
// change of either is then refused by ValidatePodUpdate, as every change of the spec is).
func keepPriority(obj, old api.Object) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	was := old.(*api.Pod)
	if pod.Spec.Priority == nil && was.Spec.Priority != nil {
		pod.Spec.Priority = api.DeepCopy(was.Spec.Priority)
	}
	if pod.Spec.PreemptionPolicy == nil && was.Spec.PreemptionPolicy != nil {
		pod.Spec.PreemptionPolicy = api.DeepCopy(was.Spec.PreemptionPolicy)
	}
}

// validatePriorityClass is the Priority plugin's Validate of a PriorityClass being created or
// updated (validatePriorityClass): a class marked globalDefault is refused while another class
// is the global default (defaultPriorityClass) — on a create whatever that class is, on an
// update unless it is the class itself: "PriorityClass NAME is already marked as default. Only
// one default can exist".
func validatePriorityClass(c *cluster.Cluster, obj, old api.Object) string {
	pc, ok := obj.(*api.PriorityClass)
	if !ok || !pc.GlobalDefault {
		return ""
	}
	if dpc := defaultPriorityClass(c); dpc != nil && (old == nil || dpc.Name != pc.Name) {
		return fmt.Sprintf("PriorityClass %v is already marked as default. Only one default can exist", dpc.Name)
	}
	return ""
}

// priorityClassValidateUpdate is priorityClassStrategy.ValidateUpdate
// (pkg/registry/scheduling/priorityclass/strategy.go): see api.ValidatePriorityClassUpdate.
func priorityClassValidateUpdate(obj, old api.Object) api.ErrorList {
	return api.ValidatePriorityClassUpdate(obj.(*api.PriorityClass), old.(*api.PriorityClass))
}

// priorityClassPrepareForCreate is priorityClassStrategy.PrepareForCreate: generation 1, which
// no update moves (the class has no spec).
func priorityClassPrepareForCreate(obj api.Object) {
	obj.GetObjectMeta().Generation = 1
}

// systemPriorityClassDelete is the PriorityClass storage's Delete
// (pkg/registry/scheduling/priorityclass/storage/storage.go): a system class is never deleted,
// "this is a system priority class and cannot be deleted".
func systemPriorityClassDelete(obj api.Object) string {
	if api.IsSystemPriorityClass(obj.GetObjectMeta().Name) {
		return "this is a system priority class and cannot be deleted"
	}
	return ""
}
