package kubelet

import (
	"encoding/hex"
	"encoding/json"
	"hash/fnv"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// StaticPodPath is the kubelet's staticPodPath as kubeadm configures it, the directory its
// static pod manifests are read from (kubeadm constants KubernetesDir + ManifestsSubDirName).
const StaticPodPath = "/etc/kubernetes/manifests"

// StaticPod is the pod a kubelet makes of a manifest in its staticPodPath (a pod named name.yaml
// there), for its node, when it starts at seen (pkg/kubelet/config/common.go applyDefaults;
// config.go, which stamps the source and the first sight):
//
//  1. its name is the manifest's, a dash and the node's name in lower case; its namespace the
//     manifest's, or default;
//  2. it is bound to the node (spec.nodeName);
//  3. its UID, and its kubernetes.io/config.hash annotation, is a hash of the manifest, the node
//     and the file (upstream hashes the decoded object with DeepHashObject, DaemonLab the
//     manifest's JSON: the same rule, another 32 hex digits);
//  4. it tolerates every NoExecute taint (operator Exists, effect NoExecute), so that node
//     problems never evict it;
//  5. kubernetes.io/config.source is "file" and kubernetes.io/config.seen the instant the
//     kubelet first saw it, with nanoseconds (kubetypes.NewTimestamp().GetString()).
func StaticPod(manifest *api.Pod, node string, seen api.Time) *api.Pod {
	p := api.DeepCopy(manifest)
	data, _ := json.Marshal(manifest) // a pod always marshals
	h := fnv.New128a()
	h.Write(data)
	h.Write([]byte("host:" + node + "file:" + StaticPodPath + "/" + manifest.Name + ".yaml"))
	p.UID = hex.EncodeToString(h.Sum(nil))
	p.Name = manifest.Name + "-" + strings.ToLower(node)
	if p.Namespace == "" {
		p.Namespace = "default"
	}
	p.Spec.NodeName = node
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[api.AnnotationConfigHash] = p.UID
	p.Annotations[api.AnnotationConfigSource] = "file"
	p.Annotations[api.AnnotationConfigSeen] = seen.UTC().Format("2006-01-02T15:04:05.999999999Z07:00")
	noExecute := api.Toleration{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}
	if !containsToleration(p.Spec.Tolerations, noExecute) {
		p.Spec.Tolerations = append(p.Spec.Tolerations, noExecute)
	}
	return p
}

// containsToleration reports whether one of the tolerations is t (helper.AddOrUpdateTolerationInPod
// adds a toleration only once).
func containsToleration(tolerations []api.Toleration, t api.Toleration) bool {
	for _, have := range tolerations {
		if have.Key == t.Key && have.Operator == t.Operator && have.Value == t.Value && have.Effect == t.Effect {
			return true
		}
	}
	return false
}

// MirrorPod is what a kubelet creates in the API server for a static pod
// (pkg/kubelet/pod/mirror_client.go CreateMirrorPod): the static pod with the
// kubernetes.io/config.mirror annotation set to its hash and one owner reference, to the node,
// as its controller (the MirrorPodNodeRestriction rule); the API server gives it its own UID.
func MirrorPod(static *api.Pod, node *api.Node) *api.Pod {
	p := api.DeepCopy(static)
	p.UID = ""
	p.Annotations[api.AnnotationConfigMirror] = static.Annotations[api.AnnotationConfigHash]
	yes := true
	p.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID, Controller: &yes}}
	p.Status = api.PodStatus{}
	return p
}

// mirrored is the last mirror pod the kubelet saw of each static pod, by the static pod's UID:
// the status manager's cache of a static pod's status, which a new mirror pod gets.
var mirrored = cluster.NewMemo[string, *api.Pod]("kubelet/mirrored")

// staticNodes are the names of the nodes whose kubelets joined with static pods, sorted, so
// that syncStaticPods visits those only.
var staticNodes = cluster.NewMemo[struct{}, *[]string]("kubelet/static-nodes")

// syncStaticPods keeps a mirror pod of every static pod of the running kubelets' nodes
// (kubelet.go SyncPod, mirror pod part; the status manager):
//
//  1. A static pod without a mirror pod gets one. A mirror pod whose static pod runs already (it
//     was deleted, even forced) comes back with a new UID and the static pod's status as the
//     status manager has it: the containers never stopped, so it is Running at once, with its
//     restarts and start time.
//  2. A mirror pod marked for deletion, or the mirror of an older manifest, is deleted at once
//     (DeleteMirrorPod, grace period 0, no containers stopped) and created again (rule 1).
//  3. A pod of the mirror pod's name that is no mirror pod is left alone: creating the mirror
//     fails as the name is taken.
//
// Static pods run whether or not their mirror pods exist; DaemonLab shows them through their
// mirror pods only. It returns whether anything changed.
func syncStaticPods(c *cluster.Cluster) bool {
	names, _ := staticNodes.Get(c, struct{}{})
	if names == nil {
		return false
	}
	changed := false
	for _, name := range *names {
		n, m, ok := c.Node(name), cluster.Machine{}, false
		if n != nil {
			m, ok = c.Machine(name)
		}
		if !ok || m.KubeletDown || len(m.StaticPods) == 0 {
			continue
		}
		for _, manifest := range m.StaticPods {
			changed = syncStaticPod(c, StaticPod(manifest, n.Name, api.NewTime(m.RenewFrom)), n) || changed
		}
	}
	return changed
}

func syncStaticPod(c *cluster.Cluster, static *api.Pod, node *api.Node) bool {
	mirror, _ := c.Get("Pod", cluster.KeyOf(static)).(*api.Pod)
	switch {
	case mirror == nil:
	case !api.IsMirrorPod(mirror):
		return false
	case mirror.DeletionTimestamp != nil || mirror.Annotations[api.AnnotationConfigMirror] != static.UID:
		c.Delete(mirror)
	default:
		if last, _ := mirrored.Get(c, static.UID); last != mirror {
			mirrored.Set(c, static.UID, mirror)
			return true
		}
		return false
	}
	stored, err := apiserver.Create(c, MirrorPod(static, node), apiserver.Options{})
	if err != nil {
		return mirror != nil
	}
	if last, ok := mirrored.Get(c, static.UID); ok && len(last.Status.ContainerStatuses) > 0 {
		next := api.DeepCopy(stored.(*api.Pod))
		next.Status = api.DeepCopy(last).Status
		_ = updateStatus(c, next)
	}
	return true
}
