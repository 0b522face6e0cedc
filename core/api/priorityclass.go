package api

import (
	"fmt"
	"reflect"
	"strings"
)

// PriorityClass maps a priority class name to the priority its pods get (scheduling.k8s.io/v1).
// It is cluster-scoped: a pod of any namespace may name it in spec.priorityClassName.
type PriorityClass struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	// Value is the priority of the pods that name the class.
	Value int32 `json:"value"`
	// GlobalDefault makes the class the priority of pods that name none; at most one class may
	// be it (see the Priority admission plugin).
	GlobalDefault bool `json:"globalDefault,omitempty"`
	// Description says when the class should be used.
	Description string `json:"description,omitempty"`
	// PreemptionPolicy is PreemptLowerPriority (the default) or Never; its pods get it.
	PreemptionPolicy *string `json:"preemptionPolicy,omitempty"`
}

// The preemption policies of pods and priority classes (core/v1 PreemptionPolicy).
const (
	PreemptLowerPriority = "PreemptLowerPriority"
	PreemptNever         = "Never"
)

// The limits and names of priorities (pkg/apis/scheduling/types.go).
const (
	// HighestUserDefinablePriority is the highest value a class of the user's may have; the
	// values above are kept for the system's classes.
	HighestUserDefinablePriority = int32(1000000000)
	// SystemCriticalPriority is where the system's critical priorities begin.
	SystemCriticalPriority = 2 * HighestUserDefinablePriority
	// SystemPriorityClassPrefix starts every system class's name, and no other's.
	SystemPriorityClassPrefix = "system-"
	// SystemNodeCritical is the class of pods that must not leave their node.
	SystemNodeCritical = SystemPriorityClassPrefix + "node-critical"
	// SystemClusterCritical is the class of pods the cluster needs, which may move.
	SystemClusterCritical = SystemPriorityClassPrefix + "cluster-critical"
)

// SystemPriorityClasses are the classes every cluster has, which the API server creates as it
// starts (pkg/apis/scheduling/v1/helpers.go systemPriorityClasses), in that order: new copies
// each time, their preemption policy not yet defaulted.
func SystemPriorityClasses() []*PriorityClass {
	classes := []*PriorityClass{
		{Value: SystemCriticalPriority + 1000, Description: "Used for system critical pods that must not be moved from their current node."},
		{Value: SystemCriticalPriority, Description: "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."},
	}
	for i, name := range []string{SystemNodeCritical, SystemClusterCritical} {
		classes[i].TypeMeta = TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"}
		classes[i].Name = name
	}
	return classes
}

// IsSystemPriorityClass reports whether name is one of SystemPriorityClasses.
func IsSystemPriorityClass(name string) bool {
	return name == SystemNodeCritical || name == SystemClusterCritical
}

// knownSystemPriorityClass is IsKnownSystemPriorityClass (pkg/apis/scheduling/v1/helpers.go):
// why a class named like a system one is not that one ("" when it is): its name, value and
// globalDefault must all be the system class's.
func knownSystemPriorityClass(name string, value int32, globalDefault bool) string {
	for _, spc := range SystemPriorityClasses() {
		switch {
		case spc.Name != name:
			continue
		case spc.Value != value:
			return fmt.Sprintf("value of %v PriorityClass must be %v", spc.Name, spc.Value)
		case spc.GlobalDefault != globalDefault:
			return fmt.Sprintf("globalDefault of %v PriorityClass must be %v", spc.Name, spc.GlobalDefault)
		}
		return ""
	}
	return fmt.Sprintf("%v is not a known system priority class", name)
}

// defaultPriorityClass is SetDefaults_PriorityClass (pkg/apis/scheduling/v1/defaults.go): the
// preemption policy defaults to PreemptLowerPriority.
func defaultPriorityClass(pc *PriorityClass) {
	if pc.PreemptionPolicy == nil {
		pc.PreemptionPolicy = ptr(PreemptLowerPriority)
	}
}

// validatePriorityClass is ValidatePriorityClass (pkg/apis/scheduling/validation/
// validation.go), in its order:
//
//  1. The metadata: a DNS-1123 subdomain name, no namespace.
//  2. A name starting with "system-" must be a system class exactly (name, value and
//     globalDefault): metadata.name is Forbidden, "priority class names with 'system-' prefix
//     are reserved for system use only. error: …" with IsKnownSystemPriorityClass's reason.
//  3. Otherwise the value may not exceed HighestUserDefinablePriority (1000000000): value is
//     Forbidden.
//  4. A preemption policy is PreemptLowerPriority or Never (ValidatePreemptionPolicy): an
//     empty one is Required, another NotSupported.
func validatePriorityClass(pc *PriorityClass) ErrorList {
	errs := validateObjectMeta(&pc.ObjectMeta, false, IsDNS1123Subdomain)
	if strings.HasPrefix(pc.Name, SystemPriorityClassPrefix) {
		if why := knownSystemPriorityClass(pc.Name, pc.Value, pc.GlobalDefault); why != "" {
			errs = append(errs, Forbidden(NewPath("metadata", "name"), "priority class names with '"+SystemPriorityClassPrefix+"' prefix are reserved for system use only. error: "+why))
		}
	} else if pc.Value > HighestUserDefinablePriority {
		errs = append(errs, Forbidden(NewPath("value"), fmt.Sprintf("maximum allowed value of a user defined priority is %v", HighestUserDefinablePriority)))
	}
	if pc.PreemptionPolicy != nil {
		errs = append(errs, validatePreemptionPolicy(pc.PreemptionPolicy, NewPath("preemptionPolicy"))...)
	}
	return errs
}

// validatePreemptionPolicy is ValidatePreemptionPolicy (pkg/apis/core/validation).
func validatePreemptionPolicy(policy *string, p *Path) ErrorList {
	switch *policy {
	case PreemptLowerPriority, PreemptNever:
		return nil
	case "":
		return ErrorList{Required(p, "")}
	}
	return ErrorList{NotSupported(p, policy, []string{PreemptLowerPriority, PreemptNever})}
}

// ValidatePriorityClassUpdate is ValidatePriorityClassUpdate (pkg/apis/scheduling/validation/
// validation.go), the whole of an update's validation (the create's rules are not run again, so
// a system class's description and globalDefault may change, as upstream lets them):
//
//  1. The metadata (ValidateObjectMetaUpdate): labels and annotations valid.
//  2. value may not change: Forbidden, "may not be changed in an update.".
//  3. preemptionPolicy may not change (ValidateImmutableField): Invalid, "field is immutable".
func ValidatePriorityClassUpdate(pc, old *PriorityClass) ErrorList {
	p := NewPath("metadata")
	errs := validateLabels(pc.Labels, p.Child("labels"))
	errs = append(errs, validateAnnotations(pc.Annotations, p.Child("annotations"))...)
	if pc.Value != old.Value {
		errs = append(errs, Forbidden(NewPath("value"), "may not be changed in an update."))
	}
	if !reflect.DeepEqual(pc.PreemptionPolicy, old.PreemptionPolicy) {
		errs = append(errs, Invalid(NewPath("preemptionPolicy"), pc.PreemptionPolicy, "field is immutable"))
	}
	return errs.Dedupe()
}
