package api

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Validate checks an object, already defaulted, as the API server's create validation does
// (pkg/apis/core/validation, pkg/apis/apps/validation, pkg/apis/scheduling/validation, …). The errors come in the order upstream
// produces them: metadata first, then the spec from top to bottom. Where upstream ranges over a
// map, keys are taken in sorted order.
func Validate(obj Object) ErrorList {
	var errs ErrorList
	switch o := obj.(type) {
	case *DaemonSet:
		errs = validateObjectMeta(&o.ObjectMeta, true, IsDNS1123Subdomain)
		errs = append(errs, validateDaemonSetSpec(&o.Spec, NewPath("spec"))...)
	case *Deployment:
		errs = validateObjectMeta(&o.ObjectMeta, true, IsDNS1123Subdomain)
		errs = append(errs, validateDeploymentSpec(&o.Spec, NewPath("spec"))...)
	case *ReplicaSet:
		errs = validateObjectMeta(&o.ObjectMeta, true, IsDNS1123Subdomain)
		errs = append(errs, validateReplicaSetSpec(&o.Spec, NewPath("spec"))...)
	case *Pod:
		errs = validateObjectMeta(&o.ObjectMeta, true, IsDNS1123Subdomain)
		errs = append(errs, validatePodAnnotations(o, NewPath("metadata", "annotations"))...)
		errs = append(errs, validatePodSpec(&o.Spec, NewPath("spec"), true)...)
	case *Node:
		errs = validateObjectMeta(&o.ObjectMeta, false, IsDNS1123Subdomain)
		errs = append(errs, validateNodeTaints(o.Spec.Taints, NewPath("spec", "taints"))...)
	case *Namespace:
		errs = validateObjectMeta(&o.ObjectMeta, false, IsDNS1123Label)
	case *PodDisruptionBudget:
		errs = validatePodDisruptionBudget(o)
	case *ServiceAccount:
		errs = validateServiceAccount(o)
	case *Service:
		errs = validateService(o)
	case *PriorityClass:
		errs = validatePriorityClass(o)
	case *ControllerRevision, *Event:
		errs = validateObjectMeta(obj.GetObjectMeta(), true, IsDNS1123Subdomain)
	}
	return errs.Dedupe()
}

// validateObjectMeta follows ValidateObjectMeta:
//
//  1. name or generateName is required; the name must pass nameFn.
//  2. A namespaced object needs a namespace that is a DNS-1123 label; a cluster-scoped object
//     may not have one.
//  3. Label keys must be qualified names and values label values; annotation keys must be
//     qualified names (lower-cased) and all annotations together at most 256 KiB.
func validateObjectMeta(m *ObjectMeta, namespaced bool, nameFn func(string) []string) ErrorList {
	var errs ErrorList
	p := NewPath("metadata")
	if m.GenerateName != "" {
		for _, msg := range nameFn(strings.TrimSuffix(m.GenerateName, "-")) {
			errs = append(errs, Invalid(p.Child("generateName"), m.GenerateName, msg))
		}
	}
	if m.Name == "" && m.GenerateName == "" {
		errs = append(errs, Required(p.Child("name"), "name or generateName is required"))
	} else if m.Name != "" {
		for _, msg := range nameFn(m.Name) {
			errs = append(errs, Invalid(p.Child("name"), m.Name, msg))
		}
	}
	if namespaced {
		if m.Namespace == "" {
			errs = append(errs, Required(p.Child("namespace"), ""))
		} else {
			for _, msg := range IsDNS1123Label(m.Namespace) {
				errs = append(errs, Invalid(p.Child("namespace"), m.Namespace, msg))
			}
		}
	} else if m.Namespace != "" {
		errs = append(errs, Forbidden(p.Child("namespace"), "not allowed on this type"))
	}
	errs = append(errs, validateLabels(m.Labels, p.Child("labels"))...)
	errs = append(errs, validateAnnotations(m.Annotations, p.Child("annotations"))...)
	return errs
}

// validateLabels follows ValidateLabels: every key a qualified name, every value a label value.
func validateLabels(labels map[string]string, p *Path) ErrorList {
	var errs ErrorList
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		errs = append(errs, validateLabelName(k, p)...)
		for _, msg := range IsLabelValue(labels[k]) {
			errs = append(errs, Invalid(p, labels[k], msg))
		}
	}
	return errs
}

func validateLabelName(name string, p *Path) ErrorList {
	var errs ErrorList
	for _, msg := range IsLabelKey(name) {
		errs = append(errs, Invalid(p, name, msg))
	}
	return errs
}

const totalAnnotationSizeLimit = 256 * 1024

func validateAnnotations(annotations map[string]string, p *Path) ErrorList {
	var errs ErrorList
	size := 0
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		for _, msg := range IsLabelKey(strings.ToLower(k)) {
			errs = append(errs, Invalid(p, k, msg))
		}
		size += len(k) + len(annotations[k])
	}
	if size > totalAnnotationSizeLimit {
		errs = append(errs, &FieldError{ErrorTypeTooLong, p.String(), "", fmt.Sprintf("may not be more than %d bytes", totalAnnotationSizeLimit)})
	}
	return errs
}

// validateLabelSelector follows metav1 ValidateLabelSelector: In and NotIn need values, Exists
// and DoesNotExist take none, other operators are invalid; keys are label names; matchLabels
// are labels.
func validateLabelSelector(ls *LabelSelector, p *Path) ErrorList {
	if ls == nil {
		return nil
	}
	errs := validateLabels(ls.MatchLabels, p.Child("matchLabels"))
	for i, e := range ls.MatchExpressions {
		ep := p.Child("matchExpressions").Index(i)
		switch e.Operator {
		case LabelSelectorOpIn, LabelSelectorOpNotIn:
			if len(e.Values) == 0 {
				errs = append(errs, Required(ep.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case LabelSelectorOpExists, LabelSelectorOpDoesNotExist:
			if len(e.Values) > 0 {
				errs = append(errs, Forbidden(ep.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, Invalid(ep.Child("operator"), string(e.Operator), "not a valid selector operator"))
		}
		errs = append(errs, validateLabelName(e.Key, ep.Child("key"))...)
		for j, v := range e.Values {
			for _, msg := range IsLabelValue(v) {
				errs = append(errs, Invalid(ep.Child("values").Index(j), v, msg))
			}
		}
	}
	return errs
}

func validateNonnegative(v int64, p *Path) ErrorList {
	if v < 0 {
		return ErrorList{Invalid(p, v, "must be greater than or equal to 0")}
	}
	return nil
}

// validateDaemonSetSpec follows ValidateDaemonSetSpec (pkg/apis/apps/validation/validation.go):
//
//  1. The selector must be valid and match the template's labels (a missing selector matches
//     nothing, so it fails this check too); an empty selector is invalid for a DaemonSet.
//  2. The template must be a valid pod template whose restartPolicy is Always and that sets no
//     activeDeadlineSeconds.
//  3. minReadySeconds and revisionHistoryLimit may not be negative.
//  4. The update strategy must be RollingUpdate or OnDelete; for RollingUpdate see
//     validateRollingUpdateDaemonSet.
func validateDaemonSetSpec(spec *DaemonSetSpec, p *Path) ErrorList {
	errs := validateSelectorAndTemplate(spec.Selector, &spec.Template, p)
	if spec.Selector != nil && len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
		errs = append(errs, Invalid(p.Child("selector"), spec.Selector, "empty selector is invalid for daemonset"))
	}
	errs = append(errs, validatePodTemplateSpec(&spec.Template, p.Child("template"))...)
	if spec.Template.Spec.RestartPolicy != RestartPolicyAlways {
		errs = append(errs, NotSupported(p.Child("template", "spec", "restartPolicy"), string(spec.Template.Spec.RestartPolicy), []RestartPolicy{RestartPolicyAlways}))
	}
	if spec.Template.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, Forbidden(p.Child("template", "spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in DaemonSet is not Supported"))
	}
	errs = append(errs, validateNonnegative(int64(spec.MinReadySeconds), p.Child("minReadySeconds"))...)
	errs = append(errs, validateDaemonSetUpdateStrategy(&spec.UpdateStrategy, p.Child("updateStrategy"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, validateNonnegative(int64(*spec.RevisionHistoryLimit), p.Child("revisionHistoryLimit"))...)
	}
	return errs
}

// validateSelectorAndTemplate checks the selector and that it selects the template's labels.
func validateSelectorAndTemplate(selector *LabelSelector, template *PodTemplateSpec, p *Path) ErrorList {
	errs := validateLabelSelector(selector, p.Child("selector"))
	if sel, err := LabelSelectorAsSelector(selector); err == nil && !sel.Matches(template.Labels) {
		errs = append(errs, Invalid(p.Child("template", "metadata", "labels"), nonNilLabels(template.Labels), "`selector` does not match template `labels`"))
	}
	return errs
}

func validateDaemonSetUpdateStrategy(s *DaemonSetUpdateStrategy, p *Path) ErrorList {
	switch s.Type {
	case OnDeleteDaemonSetStrategyType:
		return nil
	case RollingUpdateDaemonSetStrategyType:
		if s.RollingUpdate == nil {
			return ErrorList{Required(p.Child("rollingUpdate"), "")}
		}
		return validateRollingUpdateDaemonSet(s.RollingUpdate, p.Child("rollingUpdate"))
	}
	return ErrorList{NotSupported(p, s, []DaemonSetUpdateStrategyType{RollingUpdateDaemonSetStrategyType, OnDeleteDaemonSetStrategyType})}
}

// validateRollingUpdateDaemonSet follows ValidateRollingUpdateDaemonSet:
//
//  1. maxUnavailable and maxSurge are non-negative ints or valid percents of at most 100%.
//  2. Exactly one of them is non-zero: both non-zero is an error on maxSurge, both zero an error
//     on maxUnavailable.
func validateRollingUpdateDaemonSet(r *RollingUpdateDaemonSet, p *Path) ErrorList {
	unavailable, surge := derefIntOrString(r.MaxUnavailable), derefIntOrString(r.MaxSurge)
	errs := validatePositiveIntOrPercent(unavailable, p.Child("maxUnavailable"))
	errs = append(errs, validatePositiveIntOrPercent(surge, p.Child("maxSurge"))...)
	errs = append(errs, notMoreThan100Percent(unavailable, p.Child("maxUnavailable"))...)
	errs = append(errs, notMoreThan100Percent(surge, p.Child("maxSurge"))...)
	hasUnavailable, hasSurge := intOrPercentValue(unavailable) != 0, intOrPercentValue(surge) != 0
	switch {
	case hasUnavailable && hasSurge:
		errs = append(errs, Invalid(p.Child("maxSurge"), surge, "may not be set when maxUnavailable is non-zero"))
	case !hasUnavailable && !hasSurge:
		errs = append(errs, Required(p.Child("maxUnavailable"), "cannot be 0 when maxSurge is 0"))
	}
	return errs
}

func derefIntOrString(v *IntOrString) IntOrString {
	if v == nil {
		return IntOrString{}
	}
	return *v
}

const percentFmt = "[0-9]+%"

// isValidPercent follows validation.IsValidPercent.
func isValidPercent(s string) []string {
	body, ok := strings.CutSuffix(s, "%")
	if !ok || body == "" || strings.Trim(body, "0123456789") != "" {
		return []string{regexError("a valid percent string must be a numeric string followed by an ending '%'", percentFmt, "1%", "93%")}
	}
	return nil
}

func validatePositiveIntOrPercent(v IntOrString, p *Path) ErrorList {
	if v.IsString {
		var errs ErrorList
		for _, msg := range isValidPercent(v.StrVal) {
			errs = append(errs, Invalid(p, v, msg))
		}
		return errs
	}
	return validateNonnegative(int64(v.IntVal), p)
}

func percentValue(v IntOrString) (int, bool) {
	if !v.IsString || len(isValidPercent(v.StrVal)) > 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	return n, true
}

func intOrPercentValue(v IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	if v.IsString {
		n, _ := strconv.Atoi(v.StrVal)
		return n
	}
	return int(v.IntVal)
}

func notMoreThan100Percent(v IntOrString, p *Path) ErrorList {
	if n, ok := percentValue(v); ok && n > 100 {
		return ErrorList{Invalid(p, v, "must not be greater than 100%")}
	}
	return nil
}

// validateDeploymentSpec follows ValidateDeploymentSpec: replicas non-negative, the selector
// and template as for a ReplicaSet, the strategy RollingUpdate (valid bounds, not both zero) or
// Recreate, minReadySeconds, revisionHistoryLimit and progressDeadlineSeconds non-negative, the
// deadline beyond minReadySeconds.
func validateDeploymentSpec(spec *DeploymentSpec, p *Path) ErrorList {
	var errs ErrorList
	if spec.Replicas != nil {
		errs = append(errs, validateNonnegative(int64(*spec.Replicas), p.Child("replicas"))...)
	}
	errs = append(errs, validateReplicaSelectorAndTemplate(spec.Selector, &spec.Template, p)...)
	errs = append(errs, validateDeploymentStrategy(&spec.Strategy, p.Child("strategy"))...)
	errs = append(errs, validateNonnegative(int64(spec.MinReadySeconds), p.Child("minReadySeconds"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, validateNonnegative(int64(*spec.RevisionHistoryLimit), p.Child("revisionHistoryLimit"))...)
	}
	if d := spec.ProgressDeadlineSeconds; d != nil {
		errs = append(errs, validateNonnegative(int64(*d), p.Child("progressDeadlineSeconds"))...)
		if *d <= spec.MinReadySeconds {
			errs = append(errs, Invalid(p.Child("progressDeadlineSeconds"), *d, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateReplicaSetSpec follows ValidateReplicaSetSpec.
func validateReplicaSetSpec(spec *ReplicaSetSpec, p *Path) ErrorList {
	var errs ErrorList
	if spec.Replicas != nil {
		errs = append(errs, validateNonnegative(int64(*spec.Replicas), p.Child("replicas"))...)
	}
	errs = append(errs, validateNonnegative(int64(spec.MinReadySeconds), p.Child("minReadySeconds"))...)
	return append(errs, validateReplicaSelectorAndTemplate(spec.Selector, &spec.Template, p)...)
}

// validateReplicaSelectorAndTemplate is the part Deployments and ReplicaSets share
// (ValidatePodTemplateSpecForReplicaSet and the selector checks before it):
//
//  1. A selector is required, must be valid and may not be empty ("invalid for deployment",
//     for ReplicaSets too).
//  2. A non-empty selector must match the template's labels.
//  3. The template must be a valid pod template with restartPolicy Always and without
//     activeDeadlineSeconds.
func validateReplicaSelectorAndTemplate(selector *LabelSelector, t *PodTemplateSpec, p *Path) ErrorList {
	var errs ErrorList
	if selector == nil {
		errs = append(errs, Required(p.Child("selector"), ""))
	} else {
		errs = append(errs, validateLabelSelector(selector, p.Child("selector"))...)
		if len(selector.MatchLabels)+len(selector.MatchExpressions) == 0 {
			errs = append(errs, Invalid(p.Child("selector"), selector, "empty selector is invalid for deployment"))
		}
	}
	sel, err := LabelSelectorAsSelector(selector)
	if err != nil {
		return append(errs, Invalid(p.Child("selector"), selector, "invalid label selector"))
	}
	tp := p.Child("template")
	if !sel.Empty() && !sel.Matches(t.Labels) {
		errs = append(errs, Invalid(tp.Child("metadata", "labels"), nonNilLabels(t.Labels), "`selector` does not match template `labels`"))
	}
	errs = append(errs, validatePodTemplateSpec(t, tp)...)
	if t.Spec.RestartPolicy != RestartPolicyAlways {
		errs = append(errs, NotSupported(tp.Child("spec", "restartPolicy"), string(t.Spec.RestartPolicy), []RestartPolicy{RestartPolicyAlways}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, Forbidden(tp.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicaSet is not Supported"))
	}
	return errs
}

// nonNilLabels prints a missing label map as {} rather than null, as the API server does.
func nonNilLabels(labels map[string]string) map[string]string {
	if labels == nil {
		return map[string]string{}
	}
	return labels
}

func validateDeploymentStrategy(s *DeploymentStrategy, p *Path) ErrorList {
	switch s.Type {
	case RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return ErrorList{Forbidden(p.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")}
		}
		return nil
	case RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return ErrorList{Required(p.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		r, rp := s.RollingUpdate, p.Child("rollingUpdate")
		unavailable, surge := derefIntOrString(r.MaxUnavailable), derefIntOrString(r.MaxSurge)
		errs := validatePositiveIntOrPercent(unavailable, rp.Child("maxUnavailable"))
		errs = append(errs, validatePositiveIntOrPercent(surge, rp.Child("maxSurge"))...)
		if intOrPercentValue(unavailable) == 0 && intOrPercentValue(surge) == 0 {
			errs = append(errs, Invalid(rp.Child("maxUnavailable"), unavailable, "may not be 0 when `maxSurge` is 0"))
		}
		return append(errs, notMoreThan100Percent(unavailable, rp.Child("maxUnavailable"))...)
	}
	return ErrorList{NotSupported(p.Child("type"), string(s.Type), []DeploymentStrategyType{RecreateDeploymentStrategyType, RollingUpdateDeploymentStrategyType})}
}

// validatePodTemplateSpec checks the template's labels and annotations, then its pod spec.
func validatePodTemplateSpec(t *PodTemplateSpec, p *Path) ErrorList {
	mp := p.Child("metadata")
	errs := validateLabels(t.Labels, mp.Child("labels"))
	errs = append(errs, validateAnnotations(t.Annotations, mp.Child("annotations"))...)
	return append(errs, validatePodSpec(&t.Spec, p.Child("spec"), false)...)
}
