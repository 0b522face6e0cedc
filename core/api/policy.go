package api

import (
	"fmt"
	"strings"
)

// PodDisruptionBudget bounds the voluntary disruptions (evictions) of the pods it selects
// (policy/v1).
type PodDisruptionBudget struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       PodDisruptionBudgetSpec   `json:"spec,omitempty"`
	Status     PodDisruptionBudgetStatus `json:"status,omitempty"`
}

// PodDisruptionBudgetSpec says how many of the selected pods must stay healthy: at least
// minAvailable, or all but maxUnavailable (an int, or a percentage of the pods' controllers'
// scale).
type PodDisruptionBudgetSpec struct {
	MinAvailable               *IntOrString   `json:"minAvailable,omitempty"`
	Selector                   *LabelSelector `json:"selector,omitempty"`
	MaxUnavailable             *IntOrString   `json:"maxUnavailable,omitempty"`
	UnhealthyPodEvictionPolicy *string        `json:"unhealthyPodEvictionPolicy,omitempty"`
}

// The unhealthy pod eviction policies (UnhealthyPodEvictionPolicyType).
const (
	IfHealthyBudget = "IfHealthyBudget"
	AlwaysAllow     = "AlwaysAllow"
)

// PodDisruptionBudgetStatus is what the disruption controller observed, and the evictions the
// API server admitted that it has not seen through yet (disruptedPods).
type PodDisruptionBudgetStatus struct {
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
	DisruptedPods      map[string]Time `json:"disruptedPods,omitempty"`
	DisruptionsAllowed int32           `json:"disruptionsAllowed"`
	CurrentHealthy     int32           `json:"currentHealthy"`
	DesiredHealthy     int32           `json:"desiredHealthy"`
	ExpectedPods       int32           `json:"expectedPods"`
	Conditions         []Condition     `json:"conditions,omitempty"`
}

// Condition is metav1.Condition, the condition of the newer APIs.
type Condition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
	LastTransitionTime Time            `json:"lastTransitionTime"`
	Reason             string          `json:"reason"`
	Message            string          `json:"message"`
}

// The PodDisruptionBudget's condition and its reasons (k8s.io/api/policy/v1).
const (
	DisruptionAllowedCondition = "DisruptionAllowed"
	SyncFailedReason           = "SyncFailed"
	SufficientPodsReason       = "SufficientPods"
	InsufficientPodsReason     = "InsufficientPods"
)

// SetCondition is meta.SetStatusCondition: a new condition is appended; an existing one takes
// the new status (and, when the status changes, the transition time), reason, message and
// observed generation. It reports whether anything changed.
func SetCondition(conds *[]Condition, c Condition) bool {
	for i := range *conds {
		old := &(*conds)[i]
		if old.Type != c.Type {
			continue
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
		changed := *old != c
		*old = c
		return changed
	}
	*conds = append(*conds, c)
	return true
}

// pdbSpecValue is the internal PodDisruptionBudgetSpec, as its JSON reads in an error's value
// (the internal type has no JSON tags).
type pdbSpecValue struct {
	MinAvailable               *IntOrString
	Selector                   *LabelSelector
	MaxUnavailable             *IntOrString
	UnhealthyPodEvictionPolicy *string
}

// validatePodDisruptionBudget is the PodDisruptionBudget strategy's Validate, then, only when
// it passed, the registry's own check of the metadata (ValidateCreate,
// staging/src/k8s.io/apiserver/pkg/registry/rest/create.go), whose names need only be path
// segments.
func validatePodDisruptionBudget(pdb *PodDisruptionBudget) ErrorList {
	if errs := validatePodDisruptionBudgetSpec(&pdb.Spec, NewPath("spec")); len(errs) > 0 {
		return errs
	}
	return validateObjectMeta(&pdb.ObjectMeta, true, isValidPathSegmentName)
}

// isValidPathSegmentName follows path.IsValidPathSegmentName
// (k8s.io/apimachinery/pkg/api/validation/path/name.go).
func isValidPathSegmentName(name string) []string {
	if name == "." || name == ".." {
		return []string{fmt.Sprintf("may not be '%s'", name)}
	}
	var msgs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			msgs = append(msgs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return msgs
}

// validatePodDisruptionBudgetSpec follows ValidatePodDisruptionBudgetSpec
// (pkg/apis/policy/validation):
//
//  1. minAvailable and maxUnavailable may not both be set.
//  2. Each, when set, is a non-negative int or a percentage of at most 100%.
//  3. The selector is a valid label selector.
//  4. unhealthyPodEvictionPolicy is IfHealthyBudget or AlwaysAllow.
func validatePodDisruptionBudgetSpec(spec *PodDisruptionBudgetSpec, p *Path) ErrorList {
	var errs ErrorList
	if spec.MinAvailable != nil && spec.MaxUnavailable != nil {
		errs = append(errs, Invalid(p, pdbSpecValue(*spec), "minAvailable and maxUnavailable cannot be both set"))
	}
	for _, f := range []struct {
		name string
		v    *IntOrString
	}{{"minAvailable", spec.MinAvailable}, {"maxUnavailable", spec.MaxUnavailable}} {
		if f.v != nil {
			errs = append(errs, validatePositiveIntOrPercent(*f.v, p.Child(f.name))...)
			errs = append(errs, notMoreThan100Percent(*f.v, p.Child(f.name))...)
		}
	}
	errs = append(errs, validateLabelSelector(spec.Selector, p.Child("selector"))...)
	if pol := spec.UnhealthyPodEvictionPolicy; pol != nil && *pol != IfHealthyBudget && *pol != AlwaysAllow {
		errs = append(errs, NotSupported(p.Child("unhealthyPodEvictionPolicy"), *pol, []string{AlwaysAllow, IfHealthyBudget}))
	}
	return errs
}
