package apiserver

import (
	"fmt"

	"daemonlab/core/api"
)

// admissionPlugin is a mutating admission plugin: it may change a new object, or refuse it
// with the reason Forbidden words.
type admissionPlugin struct {
	name  string
	admit func(obj api.Object) (refusal string)
}

// admission is kube-apiserver's chain of mutating admission plugins that DaemonLab models, in
// the order of its recommended plugin list (pkg/kubeapiserver/options/plugins.go
// AllOrderedPlugins), run on every create before the registry's strategy:
//
//  1. Priority: a pod's priority from its priorityClassName.
//  2. DefaultTolerationSeconds: a pod's 300s tolerations of not-ready and unreachable.
//
// NamespaceLifecycle, the first of the list, is checked by Create itself (see there).
var admission = []admissionPlugin{
	{"Priority", admitPriority},
	{"DefaultTolerationSeconds", admitDefaultTolerationSeconds},
}

// admit runs the chain on a new object and returns the first refusal.
func admit(kind api.Kind, obj api.Object) *StatusError {
	for _, p := range admission {
		if refusal := p.admit(obj); refusal != "" {
			m := obj.GetObjectMeta()
			name := m.Name
			if name == "" {
				name = m.GenerateName // admission runs before the name is generated
			}
			return forbidden(kind, name, refusal)
		}
	}
	return nil
}

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

// admitPriority is the Priority admission plugin (plugin/pkg/admission/priority/admission.go
// admitPod) for pods:
//
//  1. A pod without priorityClassName gets priority 0 (no global default class).
//  2. A pod naming a class gets its value; an unknown class is refused, and so is a priority in
//     the spec that differs from the class's.
//  3. The preemption policy comes from the class (PreemptLowerPriority for the built-in ones
//     and for none); a different one in the spec is refused.
func admitPriority(obj api.Object) string {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return ""
	}
	priority := int32(0)
	if name := pod.Spec.PriorityClassName; name != "" {
		value, ok := PriorityClasses[name]
		if !ok {
			return fmt.Sprintf("no PriorityClass with name %v was found", name)
		}
		priority = value
	}
	if pod.Spec.Priority != nil && *pod.Spec.Priority != priority {
		return fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *pod.Spec.Priority, priority)
	}
	pod.Spec.Priority = &priority
	if p := pod.Spec.PreemptionPolicy; p != nil && *p != preemptLowerPriority {
		return fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *p, preemptLowerPriority)
	}
	policy := preemptLowerPriority
	pod.Spec.PreemptionPolicy = &policy
	return ""
}

// admitDefaultTolerationSeconds is the DefaultTolerationSeconds admission plugin
// (plugin/pkg/admission/defaulttolerationseconds/admission.go Admit) for pods:
//
//  1. A pod already tolerates not-ready if any toleration has key not-ready or "" and effect
//     NoExecute or ""; operator, value and tolerationSeconds do not matter. The same for
//     unreachable.
//  2. For each one it does not tolerate, {key, operator: Exists, effect: NoExecute,
//     tolerationSeconds: 300} is appended, not-ready first.
func admitDefaultTolerationSeconds(obj api.Object) string {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return ""
	}
	spec := &pod.Spec
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
	return ""
}
