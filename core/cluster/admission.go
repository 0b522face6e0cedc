package cluster

import (
	"fmt"
	"maps"
	"reflect"
	"strconv"

	"daemonlab/core/api"
)

// defaultTolerationSeconds is kube-apiserver's --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds.
const defaultTolerationSeconds = 300

// PriorityClasses are the priority classes every cluster has (scheduling.k8s.io/v1, created by
// the API server); DaemonLab has no others and no global default.
var PriorityClasses = map[string]int32{
	"system-node-critical":    2000001000,
	"system-cluster-critical": 2000000000,
}

// preemptLowerPriority is the preemption policy of the built-in classes and of pods without one.
const preemptLowerPriority = "PreemptLowerPriority"

// Admit runs, on a copy, the admission a new object would get, and returns the API server's
// refusal, if any ("pods "x" is forbidden: …").
func Admit(obj api.Object) error {
	return admit(api.DeepCopyObject(obj))
}

// admit does what the API server does to a new object before storing it: defaulting, and for
// pods the admission plugins DaemonLab models and the registry's status. Priority admission:
//
//  1. A pod without priorityClassName gets priority 0 (no global default class).
//  2. A pod naming a class gets its value; an unknown class is Forbidden, and so is a
//     priority in the spec that differs from the class's.
//  3. The preemption policy comes from the class (PreemptLowerPriority for the built-in ones
//     and for none); a different one in the spec is Forbidden.
func admit(obj api.Object) error {
	api.Default(obj)
	if ds, ok := obj.(*api.DaemonSet); ok {
		setTemplateGeneration(ds, ds.TemplateGeneration())
	}
	pod, ok := obj.(*api.Pod)
	if !ok {
		return nil
	}
	forbidden := func(format string, a ...any) error {
		name := pod.Name
		if name == "" {
			name = pod.GenerateName // admission runs before the name is generated
		}
		return fmt.Errorf("pods %q is forbidden: %s", name, fmt.Sprintf(format, a...))
	}
	priority := int32(0)
	if name := pod.Spec.PriorityClassName; name != "" {
		value, ok := PriorityClasses[name]
		if !ok {
			return forbidden("no PriorityClass with name %v was found", name)
		}
		priority = value
	}
	if pod.Spec.Priority != nil && *pod.Spec.Priority != priority {
		return forbidden("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *pod.Spec.Priority, priority)
	}
	pod.Spec.Priority = &priority
	if p := pod.Spec.PreemptionPolicy; p != nil && *p != preemptLowerPriority {
		return forbidden("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *p, preemptLowerPriority)
	}
	policy := preemptLowerPriority
	pod.Spec.PreemptionPolicy = &policy
	addDefaultTolerationSeconds(&pod.Spec)
	if pod.Status.Phase == "" {
		pod.Status.Phase = api.PodPending
	}
	pod.Status.QOSClass = string(api.ComputeQOS(&pod.Spec))
	return nil
}

// addDefaultTolerationSeconds is the DefaultTolerationSeconds admission plugin
// (plugin/pkg/admission/defaulttolerationseconds/admission.go):
//
//  1. A pod already tolerates not-ready if any toleration has key not-ready or "" and effect
//     NoExecute or ""; operator, value and tolerationSeconds do not matter. The same for
//     unreachable.
//  2. For each one it does not tolerate, {key, operator: Exists, effect: NoExecute,
//     tolerationSeconds: 300} is appended, not-ready first.
func addDefaultTolerationSeconds(spec *api.PodSpec) {
	for _, key := range []string{api.TaintNodeNotReady, api.TaintNodeUnreachable} {
		tolerated := false
		for _, t := range spec.Tolerations {
			if (t.Key == key || t.Key == "") && (t.Effect == api.TaintEffectNoExecute || t.Effect == "") {
				tolerated = true
			}
		}
		if !tolerated {
			seconds := int64(defaultTolerationSeconds)
			spec.Tolerations = append(spec.Tolerations, api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &seconds})
		}
	}
}

// setTemplateGeneration writes a DaemonSet's template generation into its annotation, as the
// apps/v1 conversion does from spec.templateGeneration (1 on create, kept on update, one more
// when the template changes: the registry's PrepareForCreate and PrepareForUpdate).
func setTemplateGeneration(ds *api.DaemonSet, generation int64) {
	ds.Annotations = maps.Clone(ds.Annotations) // the caller's map may be a stored object's
	if ds.Annotations == nil {
		ds.Annotations = map[string]string{}
	}
	ds.Annotations[api.DeprecatedTemplateGeneration] = strconv.FormatInt(generation, 10)
}

// templateGenerationOnUpdate is the update half: the stored generation, one more if the
// template changed.
func templateGenerationOnUpdate(ds, old *api.DaemonSet) {
	g := old.TemplateGeneration()
	if !reflect.DeepEqual(api.DeepCopy(ds.Spec.Template), api.DeepCopy(old.Spec.Template)) {
		g++
	}
	setTemplateGeneration(ds, g)
}
