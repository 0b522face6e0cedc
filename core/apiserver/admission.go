package apiserver

import (
	"fmt"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// admissionPlugin is an admission plugin: admit may change a new object, or refuse it with the
// reason Forbidden words; admitUpdate may change an object being updated (old is the stored
// one; DaemonLab's plugins never refuse an update); validate may refuse a create (old nil) or
// an update once the object is prepared and validated. Each reads the cluster as the plugin's
// informers do; a dry run (o) must store nothing.
type admissionPlugin struct {
	name        string
	admit       func(c *cluster.Cluster, obj api.Object, o Options) (refusal string)
	admitUpdate func(obj, old api.Object)
	validate    func(c *cluster.Cluster, obj, old api.Object) (refusal string)
}

// admission is kube-apiserver's chain of admission plugins that DaemonLab models, in the order
// of its recommended plugin list (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins):
//
//  1. ServiceAccount: a pod's service account and the projected volume of its token.
//  2. Priority: a pod's priority from its priorityClassName, kept on updates; at most one
//     global default PriorityClass (validating).
//  3. DefaultTolerationSeconds: a pod's 300s tolerations of not-ready and unreachable.
//
// The mutating half of the chain runs on every create before the registry's strategy, and on
// every update after defaulting (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go,
// update.go); the validating half after the strategy validated the object, before the store
// (pkg/registry/generic/registry/store.go createValidation, updateValidation).
// NamespaceLifecycle, the first of the list, is checked by Create itself (see there).
var admission = []admissionPlugin{
	{name: "ServiceAccount", admit: admitServiceAccount},
	{name: "Priority", admit: admitPriority, admitUpdate: keepPriority, validate: validatePriorityClass},
	{name: "DefaultTolerationSeconds", admit: admitDefaultTolerationSeconds},
}

// admit runs the mutating chain on a new object and returns the first refusal.
func admit(c *cluster.Cluster, kind api.Kind, obj api.Object, o Options) *StatusError {
	for _, p := range admission {
		if p.admit == nil {
			continue
		}
		if refusal := p.admit(c, obj, o); refusal != "" {
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

// admitUpdate runs the mutating chain on an object being updated.
func admitUpdate(obj, old api.Object) {
	for _, p := range admission {
		if p.admitUpdate != nil {
			p.admitUpdate(obj, old)
		}
	}
}

// validate runs the validating chain on a new object (old nil) or an update, and returns the
// first refusal.
func validate(c *cluster.Cluster, kind api.Kind, obj, old api.Object) *StatusError {
	for _, p := range admission {
		if p.validate == nil {
			continue
		}
		if refusal := p.validate(c, obj, old); refusal != "" {
			return forbidden(kind, obj.GetObjectMeta().Name, refusal)
		}
	}
	return nil
}

// defaultTolerationSeconds is kube-apiserver's --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds.
const defaultTolerationSeconds = 300

// admitDefaultTolerationSeconds is the DefaultTolerationSeconds admission plugin
// (plugin/pkg/admission/defaulttolerationseconds/admission.go Admit) for pods:
//
//  1. A pod already tolerates not-ready if any toleration has key not-ready or "" and effect
//     NoExecute or ""; operator, value and tolerationSeconds do not matter. The same for
//     unreachable.
//  2. For each one it does not tolerate, {key, operator: Exists, effect: NoExecute,
//     tolerationSeconds: 300} is appended, not-ready first.
func admitDefaultTolerationSeconds(_ *cluster.Cluster, obj api.Object, _ Options) string {
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

// The names and paths of the service account token volume
// (plugin/pkg/admission/serviceaccount/admission.go).
const (
	serviceAccountVolumeName = "kube-api-access"
	// ServiceAccountTokenMountPath is DefaultAPITokenMountPath, where every container finds its
	// token, the cluster's CA certificate and its namespace.
	ServiceAccountTokenMountPath = "/var/run/secrets/kubernetes.io/serviceaccount"
	// warnOnlyBoundTokenExpirationSeconds is the token's lifetime the volume asks for, 1h7s
	// (pkg/serviceaccount WarnOnlyBoundTokenExpirationSeconds).
	warnOnlyBoundTokenExpirationSeconds = 3607
	// projectedVolumeSourceDefaultMode is corev1.ProjectedVolumeSourceDefaultMode, 0644.
	projectedVolumeSourceDefaultMode = 0o644
	// rootCAConfigMap is the ConfigMap the root CA cert publisher keeps in every namespace.
	rootCAConfigMap = "kube-root-ca.crt"
)

// admitServiceAccount is the ServiceAccount admission plugin's Admit for a new pod
// (plugin/pkg/admission/serviceaccount/admission.go):
//
//  1. A pod that names no service account gets "default", in serviceAccountName and in the
//     deprecated serviceAccount.
//  2. The service account must exist in the pod's namespace, else the pod is refused: "error
//     looking up service account NS/NAME: serviceaccount "NAME" not found". Upstream looks the
//     default one up again for about a second, in which the ServiceAccount controller creates it
//     in a namespace just made; DaemonLab's controllers run between commands, so a lookup that
//     misses the default service account of an active namespace creates it as that controller
//     would (a manifest making a namespace and a pod in it at once).
//  3. Unless the pod's automountServiceAccountToken, or else the service account's, is false,
//     the token is mounted (mountServiceAccountToken): the pod's first volume named
//     kube-api-access-* is the token's volume, or else one is named kube-api-access- and five
//     random characters (drawn as a generateName suffix is, before the pod's own name); every
//     init container and container without a mount at ServiceAccountTokenMountPath gets it
//     mounted there read-only; and when some container got it and the pod had no such volume,
//     the projected volume is appended: a token expiring in 3607 s, ca.crt of the
//     kube-root-ca.crt ConfigMap, and the namespace from the downward API, mode 0644.
//  4. A pod without imagePullSecrets gets the service account's.
//
// A mirror pod (a kubelet's copy of its static pod, see api.IsMirrorPod) is left as it is, so
// that it stays its static pod's twin, and is refused when it names a service account ("a mirror
// pod may not reference service accounts"), a secret ("… may not reference secrets") or a token
// projection ("… may not use ServiceAccountToken volume projections"): Admit and Validate.
func admitServiceAccount(c *cluster.Cluster, obj api.Object, o Options) string {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return ""
	}
	if api.IsMirrorPod(pod) {
		return mirrorPodReferences(pod)
	}
	if pod.Spec.ServiceAccountName == "" {
		pod.Spec.ServiceAccountName = api.DefaultServiceAccountName
		pod.Spec.DeprecatedServiceAccount = api.DefaultServiceAccountName
	}
	sa := lookUpServiceAccount(c, pod.Namespace, pod.Spec.ServiceAccountName, o)
	if sa == nil {
		return fmt.Sprintf("error looking up service account %s/%s: serviceaccount %q not found", pod.Namespace, pod.Spec.ServiceAccountName, pod.Spec.ServiceAccountName)
	}
	if shouldAutomount(sa, pod) {
		mountServiceAccountToken(c, pod)
	}
	if len(pod.Spec.ImagePullSecrets) == 0 && len(sa.ImagePullSecrets) > 0 {
		pod.Spec.ImagePullSecrets = make([]api.LocalObjectReference, len(sa.ImagePullSecrets))
		for i, s := range sa.ImagePullSecrets {
			pod.Spec.ImagePullSecrets[i].Name = s.Name
		}
	}
	return ""
}

// mirrorPodReferences is why the ServiceAccount admission plugin refuses a mirror pod, or ""
// (plugin/pkg/admission/serviceaccount/admission.go Validate; the secrets as
// podutil.VisitPodSecretNames finds them: image pull secrets, secret volumes and projections,
// and every container's secretRef and secretKeyRef).
func mirrorPodReferences(pod *api.Pod) string {
	if pod.Spec.ServiceAccountName != "" {
		return "a mirror pod may not reference service accounts"
	}
	secrets := len(pod.Spec.ImagePullSecrets) > 0
	token := false
	for _, v := range pod.Spec.Volumes {
		secrets = secrets || v.Secret != nil
		if v.Projected != nil {
			for _, src := range v.Projected.Sources {
				secrets = secrets || src.Secret != nil
				token = token || src.ServiceAccountToken != nil
			}
		}
	}
	for _, containers := range [][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for _, ctr := range containers {
			for _, e := range ctr.EnvFrom {
				secrets = secrets || e.SecretRef != nil
			}
			for _, e := range ctr.Env {
				secrets = secrets || e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil
			}
		}
	}
	switch {
	case secrets:
		return "a mirror pod may not reference secrets"
	case token:
		return "a mirror pod may not use ServiceAccountToken volume projections"
	}
	return ""
}

// lookUpServiceAccount returns the named service account of a namespace, or nil (see
// admitServiceAccount, rule 2, for the default one of an active namespace).
func lookUpServiceAccount(c *cluster.Cluster, namespace, name string, o Options) *api.ServiceAccount {
	if sa, ok := c.Get("ServiceAccount", cluster.Key{Namespace: namespace, Name: name}).(*api.ServiceAccount); ok {
		return sa
	}
	ns, ok := c.Get("Namespace", cluster.Key{Name: namespace}).(*api.Namespace)
	if name != api.DefaultServiceAccountName || !ok || ns.Status.Phase != "Active" || ns.DeletionTimestamp != nil {
		return nil
	}
	sa := DefaultServiceAccount(namespace)
	if !o.DryRun && c.Create(sa) != nil { // nothing for the API server's Create to change
		return nil
	}
	return sa
}

// DefaultServiceAccount is the service account the ServiceAccount controller creates in a
// namespace (pkg/controller/serviceaccount/serviceaccounts_controller.go syncNamespace): a name
// and nothing else.
func DefaultServiceAccount(namespace string) *api.ServiceAccount {
	sa := &api.ServiceAccount{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"}}
	sa.Name, sa.Namespace = api.DefaultServiceAccountName, namespace
	return sa
}

// shouldAutomount: the pod's automountServiceAccountToken, else the service account's, else
// true.
func shouldAutomount(sa *api.ServiceAccount, pod *api.Pod) bool {
	if pod.Spec.AutomountServiceAccountToken != nil {
		return *pod.Spec.AutomountServiceAccountToken
	}
	if sa.AutomountServiceAccountToken != nil {
		return *sa.AutomountServiceAccountToken
	}
	return true
}

// mountServiceAccountToken is admitServiceAccount's rule 3.
func mountServiceAccountToken(c *cluster.Cluster, pod *api.Pod) {
	name, hasVolume := "", false
	for _, v := range pod.Spec.Volumes {
		if strings.HasPrefix(v.Name, serviceAccountVolumeName+"-") {
			name, hasVolume = v.Name, true
			break
		}
	}
	if name == "" {
		name = generatedName(serviceAccountVolumeName+"-", c.RandomString(5))
	}
	mount := api.VolumeMount{Name: name, ReadOnly: true, MountPath: ServiceAccountTokenMountPath}
	needsVolume := false
	for _, containers := range [][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range containers {
			if !hasMountAt(containers[i].VolumeMounts, ServiceAccountTokenMountPath) {
				containers[i].VolumeMounts = append(containers[i].VolumeMounts, mount)
				needsVolume = true
			}
		}
	}
	if !hasVolume && needsVolume {
		pod.Spec.Volumes = append(pod.Spec.Volumes, api.Volume{Name: name, Projected: tokenVolumeSource()})
	}
}

func hasMountAt(mounts []api.VolumeMount, path string) bool {
	for _, m := range mounts {
		if m.MountPath == path {
			return true
		}
	}
	return false
}

// tokenVolumeSource is TokenVolumeSource: the projected sources of the token's volume.
func tokenVolumeSource() *api.ProjectedVolumeSource {
	mode, expiration := int32(projectedVolumeSourceDefaultMode), int64(warnOnlyBoundTokenExpirationSeconds)
	return &api.ProjectedVolumeSource{
		DefaultMode: &mode,
		Sources: []api.VolumeProjection{
			{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: &expiration}},
			{ConfigMap: &api.ConfigMapProjection{Name: rootCAConfigMap, Items: []api.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &api.DownwardAPIVolumeSource{Items: []api.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}
}
