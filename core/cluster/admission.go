package cluster

import (
	"daemonlab/core/api"
)

// defaultTolerationSeconds is kube-apiserver's --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds.
const defaultTolerationSeconds = 300

// admit does what the API server does to a new object before storing it: defaulting, and for
// pods the admission plugins DaemonLab models and the registry's status.
func admit(obj api.Object) {
	api.Default(obj)
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	addDefaultTolerationSeconds(&pod.Spec)
	if pod.Spec.Priority == nil {
		zero := int32(0)
		pod.Spec.Priority = &zero // Priority admission: no PriorityClass, no global default
	}
	if pod.Status.Phase == "" {
		pod.Status.Phase = api.PodPending
	}
	pod.Status.QOSClass = string(api.ComputeQOS(&pod.Spec))
}

// addDefaultTolerationSeconds is the DefaultTolerationSeconds admission plugin (reference taints
// §3.4):
//
//  1. A pod already tolerates not-ready if any toleration has key not-ready or "" and effect
//     NoExecute or ""; operator, value and tolerationSeconds do not matter. The same for
//     unreachable.
//  2. For each one it does not tolerate, {key, operator: Exists, effect: NoExecute,
//     tolerationSeconds: 300} is appended, not-ready first.
func addDefaultTolerationSeconds(spec *api.PodSpec) {
	for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
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
