package api

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// updatablePodSpecFields are the fields of a pod's spec an update may change, as the refusal
// lists them (pkg/apis/core/validation/validation.go updatablePodSpecFields).
var updatablePodSpecFields = []string{
	"`spec.containers[*].image`",
	"`spec.initContainers[*].image`",
	"`spec.activeDeadlineSeconds`",
	"`spec.tolerations` (only additions to existing tolerations)",
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
}

// annotationAppArmorPrefix starts the deprecated per-container AppArmor annotations
// (v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix).
const annotationAppArmorPrefix = "container.apparmor.security.beta.kubernetes.io/"

// ValidatePodUpdate adds the rules of a pod's update to those of the pod itself (Validate), as
// ValidatePodUpdate does after validatePodMetadataAndSpec (pkg/apis/core/validation/
// validation.go), in its order. A pod is mostly immutable: its resources change through the
// resize subresource, its status through the status subresource, its node through binding.
//
//  1. Annotations (ValidatePodSpecificAnnotationUpdates): the mirror pod annotation may not be
//     added, removed or changed, nor may the deprecated per-container AppArmor annotations.
//  2. Containers and init containers (ValidateContainerUpdates): none may be added or removed
//     ("pod updates may not add or remove containers"), which ends the checks; each needs an
//     image without leading or trailing whitespace.
//  3. activeDeadlineSeconds may be set, or lowered, never raised ("must be less than or equal
//     to previous value") nor unset; a value outside 0..2147483647 is Invalid. Either ends the
//     checks.
//  4. Tolerations may be added; an existing one may change only its tolerationSeconds
//     ("existing toleration can not be modified except its tolerationSeconds"). (Upstream also
//     validates the new tolerations again here; Validate already has, and the refusal lists
//     each message once.)
//  5. Anything else in the spec is forbidden: with the images, activeDeadlineSeconds and
//     tolerations put back as they were, and terminationGracePeriodSeconds 1 put back when it
//     was negative, the spec must equal the old one semantically (a quantity by its value, an
//     empty list as none). Otherwise spec is Forbidden: "pod updates may not change fields
//     other than" updatablePodSpecFields, then a diff of the old spec and the new (see
//     podSpecDiff).
//
// DaemonLab models no scheduling gates, so their rules (only removals; a gated pod may gain
// node selector and required node affinity terms) never apply.
func ValidatePodUpdate(pod, old *Pod) ErrorList {
	errs := validatePodAnnotationUpdates(pod.Annotations, old.Annotations, NewPath("metadata", "annotations"))
	specPath := NewPath("spec")
	for _, cs := range []struct {
		name     string
		now, was []Container
	}{{"containers", pod.Spec.Containers, old.Spec.Containers}, {"initContainers", pod.Spec.InitContainers, old.Spec.InitContainers}} {
		p := specPath.Child(cs.name)
		if len(cs.now) != len(cs.was) {
			return append(errs, Forbidden(p, "pod updates may not add or remove containers"))
		}
		for i, c := range cs.now {
			if c.Image == "" {
				errs = append(errs, Required(p.Index(i).Child("image"), ""))
			}
			if strings.TrimSpace(c.Image) != c.Image {
				errs = append(errs, Invalid(p.Index(i).Child("image"), c.Image, "must not have leading or trailing whitespace"))
			}
		}
	}
	deadline := specPath.Child("activeDeadlineSeconds")
	switch now, was := pod.Spec.ActiveDeadlineSeconds, old.Spec.ActiveDeadlineSeconds; {
	case now != nil && (*now < 0 || *now > math.MaxInt32):
		return append(errs, Invalid(deadline, *now, "must be between 0 and 2147483647, inclusive"))
	case now != nil && was != nil && *was < *now:
		return append(errs, Invalid(deadline, *now, "must be less than or equal to previous value"))
	case now == nil && was != nil:
		errs = append(errs, Invalid(deadline, nil, "must not update from a positive integer to nil value"))
	}
	if !onlyAddedTolerations(pod.Spec.Tolerations, old.Spec.Tolerations) {
		errs = append(errs, Forbidden(specPath.Child("tolerations"), "existing toleration can not be modified except its tolerationSeconds"))
	}
	munged := DeepCopy(pod.Spec)
	for i := range munged.Containers {
		munged.Containers[i].Image = old.Spec.Containers[i].Image
	}
	for i := range munged.InitContainers {
		munged.InitContainers[i].Image = old.Spec.InitContainers[i].Image
	}
	munged.ActiveDeadlineSeconds = DeepCopy(old.Spec.ActiveDeadlineSeconds)
	munged.Tolerations = DeepCopy(old.Spec.Tolerations)
	if was, now := old.Spec.TerminationGracePeriodSeconds, munged.TerminationGracePeriodSeconds; was != nil && *was < 0 && now != nil && *now == 1 {
		munged.TerminationGracePeriodSeconds = DeepCopy(was)
	}
	if !semanticEqual(reflect.ValueOf(munged), reflect.ValueOf(old.Spec)) {
		errs = append(errs, Forbidden(specPath, fmt.Sprintf("pod updates may not change fields other than %s\n%s", strings.Join(updatablePodSpecFields, ","), podSpecDiff(&old.Spec, &munged))))
	}
	return errs
}

// validatePodAnnotationUpdates is ValidatePodSpecificAnnotationUpdates' rules for what changed,
// keys in sorted order where upstream ranges over the maps: a removed or changed mirror pod or
// AppArmor annotation first, then an added one.
func validatePodAnnotationUpdates(now, was map[string]string, p *Path) ErrorList {
	var errs ErrorList
	for _, k := range slices.Sorted(maps.Keys(was)) {
		if v, ok := now[k]; ok && v == was[k] {
			continue
		}
		if strings.HasPrefix(k, annotationAppArmorPrefix) {
			errs = append(errs, Forbidden(p.Key(k), "may not remove or update AppArmor annotations"))
		}
		if k == AnnotationConfigMirror {
			errs = append(errs, Forbidden(p.Key(k), "may not remove or update mirror pod annotation"))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(now)) {
		if _, ok := was[k]; ok {
			continue
		}
		if strings.HasPrefix(k, annotationAppArmorPrefix) {
			errs = append(errs, Forbidden(p.Key(k), "may not add AppArmor annotations"))
		}
		if k == AnnotationConfigMirror {
			errs = append(errs, Forbidden(p.Key(k), "may not add mirror pod annotation"))
		}
	}
	return errs
}

// validatePodAnnotations is ValidatePodSpecificAnnotations' rule for the mirror pod annotation
// (pkg/apis/core/validation/validation.go): a mirror pod is bound, so the annotation needs
// spec.nodeName. (Its other rules, on the tolerations and seccomp annotations and the pod
// deletion cost, are not modelled.)
func validatePodAnnotations(pod *Pod, p *Path) ErrorList {
	if v, ok := pod.Annotations[AnnotationConfigMirror]; ok && pod.Spec.NodeName == "" {
		return ErrorList{Invalid(p.Key(AnnotationConfigMirror), v, "must set spec.nodeName if mirror pod annotation is set")}
	}
	return nil
}

// onlyAddedTolerations is validateOnlyAddedTolerations' rule: every old toleration is still
// there, equal but for its tolerationSeconds.
func onlyAddedTolerations(now, was []Toleration) bool {
	for _, old := range was {
		if !slices.ContainsFunc(now, func(t Toleration) bool {
			old.TolerationSeconds = t.TolerationSeconds
			return reflect.DeepEqual(old, t)
		}) {
			return false
		}
	}
	return true
}

// podSpecDiff is the diff a refused pod update shows (apimachinery's diff.Diff, staging/src/
// k8s.io/apimachinery/pkg/util/diff/diff.go): a unified diff, with three lines of context and
// no file names, of the two specs' internal JSON (see internalPodSpecJSON), made by the same
// difflib upstream uses.
func podSpecDiff(old, now *PodSpec) string {
	diff, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A:       difflib.SplitLines(internalPodSpecJSON(old)),
		B:       difflib.SplitLines(internalPodSpecJSON(now)),
		Context: 3,
	})
	if err != nil {
		return fmt.Sprintf("error generating diff: %v", err)
	}
	return diff
}

// semanticEqual is apimachinery's equality.Semantic.DeepEqual for the API types: a Quantity
// equals another of the same value whatever its text, an empty slice or map equals a nil one,
// and everything else is compared as reflect.DeepEqual does.
func semanticEqual(a, b reflect.Value) bool {
	if a.Type() == reflect.TypeFor[Quantity]() {
		return a.Interface().(Quantity).Cmp(b.Interface().(Quantity)) == 0
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return semanticEqual(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !semanticEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !semanticEqual(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() && !semanticEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return a.Interface() == b.Interface()
}
