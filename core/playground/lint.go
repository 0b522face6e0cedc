package playground

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/controller/daemon"
	"daemonlab/core/scheduler"
)

// Lint is a warning on the editor's text before it is applied: what Kubernetes will do with a
// manifest that applies cleanly but will not do what it seems to say. Line is the manifest's
// line it is about (1-based; 0 when unknown).
type Lint struct {
	Line    int
	Message string
}

// retiredKeys are the taint keys control-plane nodes no longer carry, and the one they carry
// instead: kubeadm taints them node-role.kubernetes.io/control-plane alone since v1.25
// (cmd/kubeadm/app/constants: ControlPlaneTaint; the master taint went in v1.25, and
// k8s-master was never one of kubeadm's).
var retiredKeys = map[string]string{
	"node-role.kubernetes.io/master":     api.LabelNodeRoleControlPlane,
	"node-role.kubernetes.io/k8s-master": api.LabelNodeRoleControlPlane,
}

// lints are the warnings on the manifests of text against the cluster c, manifest by
// manifest, for every object with a pod template (or a Pod), each from the rule the
// controllers and the scheduler use:
//
//  1. a toleration that tolerates no taint of any node (api.Toleration.ToleratesTaint) changes
//     nothing; a retired key is named with the current one and the nodes whose taint of that
//     key the pod then does not tolerate. Tolerations of every key (no key) and of the taints
//     Kubernetes puts on failing nodes (node.kubernetes.io/…, node.cloudprovider.kubernetes.io/…)
//     are not flagged: those taints come and go;
//  2. a nodeSelector and required node affinity that match no node
//     (api.RequiredNodeAffinity.Match): no node gets a pod;
//  3. requests that no node's whole allocatable fits (scheduler.Oversize), limits counting as
//     requests where a container names none, as defaulting copies them: the pods stay Pending,
//     and preemption cannot help;
//  4. a selector that matches pods another controller owns (api.ControllerOf): each controller
//     keeps to the pods it owns, but whatever selects by label sees them all;
//  5. a DaemonSet that surges (daemon.AllowsSurge) and whose pods take host ports
//     (api.HostPorts, hostNetwork's defaults included): NodePorts keeps each new pod off its
//     node while the old one holds the port, so the rollout stalls until the old pod is deleted
//     or is not Ready.
//
// Text that does not decode has no lints, nor has a manifest whose pods the API server would
// refuse (api.Validate of createdPod): Apply says what is wrong with them. ms are the manifests
// of text that decodes.
func lints(l Lang, c *cluster.Cluster, ms []api.Manifest) []Lint {
	nodes := slices.Collect(c.AllNodes())
	var out []Lint
	for _, m := range ms {
		spec, prefix, selector := podSpecOf(m.Object)
		if spec == nil {
			continue
		}
		pod := createdPod(spec)
		if len(api.Validate(pod)) > 0 {
			continue
		}
		at := func(path, key string, args ...any) {
			out = append(out, Lint{Line: m.LineOf(prefix + path), Message: T(l, key, args...)})
		}
		if len(nodes) > 0 {
			tolerationLints(spec, nodes, at)
			if aff := api.GetRequiredNodeAffinity(spec); !slices.ContainsFunc(nodes, aff.Match) {
				path := ".affinity"
				if spec.NodeSelector != nil {
					path = ".nodeSelector"
				}
				at(path, "lint.affinity", len(nodes))
			}
			requestLints(pod, spec, nodes, at)
		}
		if selector != nil {
			ns := m.Object.GetObjectMeta().Namespace
			if ns == "" {
				ns = "default"
			}
			self := Ref{m.Kind.Kind, ns, m.Object.GetObjectMeta().Name}
			if owners := overlapping(c, self, selector); len(owners) > 0 {
				out = append(out, Lint{Line: m.LineOf("spec.selector"), Message: T(l, "lint.selector", strings.Join(owners, ", "))})
			}
		}
		if ds, ok := m.Object.(*api.DaemonSet); ok {
			if ports := surgingHostPorts(ds); ports != "" {
				out = append(out, Lint{Line: m.LineOf("spec.updateStrategy.rollingUpdate.maxSurge"), Message: T(l, "lint.surge.hostport", ports)})
			}
		}
	}
	return out
}

// podSpecOf is the pod spec of an object that makes pods, the path to it, and its selector (nil
// for a Pod); nil for other kinds.
func podSpecOf(obj api.Object) (*api.PodSpec, string, *api.LabelSelector) {
	switch o := obj.(type) {
	case *api.Pod:
		return &o.Spec, "spec", nil
	case *api.DaemonSet:
		return &o.Spec.Template.Spec, "spec.template.spec", o.Spec.Selector
	case *api.Deployment:
		return &o.Spec.Template.Spec, "spec.template.spec", o.Spec.Selector
	case *api.ReplicaSet:
		return &o.Spec.Template.Spec, "spec.template.spec", o.Spec.Selector
	}
	return nil, "", nil
}

// tolerationLints is rule 1 of lints.
func tolerationLints(spec *api.PodSpec, nodes []*api.Node, at func(path, key string, args ...any)) {
	for i, t := range spec.Tolerations {
		if t.Key == "" || strings.HasPrefix(t.Key, "node.kubernetes.io/") || strings.HasPrefix(t.Key, "node.cloudprovider.kubernetes.io/") {
			continue
		}
		if slices.ContainsFunc(nodes, func(n *api.Node) bool {
			return slices.ContainsFunc(n.Spec.Taints, func(taint api.Taint) bool { return t.ToleratesTaint(&taint) })
		}) {
			continue
		}
		path := ".tolerations[" + strconv.Itoa(i) + "].key"
		current, retired := retiredKeys[t.Key]
		if !retired {
			at(path, "lint.toleration", t.Key)
			continue
		}
		var untolerated []string
		for _, n := range nodes {
			for _, taint := range n.Spec.Taints {
				if taint.Key == current && (taint.Effect == api.TaintEffectNoSchedule || taint.Effect == api.TaintEffectNoExecute) && !api.TolerationsTolerateTaint(spec.Tolerations, &taint) {
					untolerated = append(untolerated, n.Name+" ("+taint.String()+")")
				}
			}
		}
		if len(untolerated) == 0 {
			at(path, "lint.toleration.retired", t.Key, current)
			continue
		}
		at(path, "lint.toleration.retired.nodes", t.Key, current, strings.Join(untolerated, ", "))
	}
}

// createdPod is the pod spec makes, as the API server stores it when it creates it: defaulted,
// so that a container's limits are also its requests where it names none.
func createdPod(spec *api.PodSpec) *api.Pod {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "lint", Namespace: "default"}, Spec: api.DeepCopy(*spec)}
	api.Default(pod)
	return pod
}

// requestLints is rule 3 of lints, on the created pod; spec is the manifest's, for the line.
func requestLints(pod *api.Pod, spec *api.PodSpec, nodes []*api.Node, at func(path, key string, args ...any)) {
	var reasons []string
	for _, n := range nodes {
		r := scheduler.Oversize(pod, n)
		if len(r) == 0 {
			return
		}
		for _, reason := range r {
			if !slices.Contains(reasons, reason) {
				reasons = append(reasons, reason)
			}
		}
	}
	path := ".containers"
	for i, ct := range spec.Containers {
		if len(ct.Resources.Requests) > 0 {
			path = ".containers[" + strconv.Itoa(i) + "].resources.requests"
			break
		}
		if len(ct.Resources.Limits) > 0 {
			path = ".containers[" + strconv.Itoa(i) + "].resources.limits"
			break
		}
	}
	at(path, "lint.requests", len(nodes), strings.Join(reasons, ", "))
}

// surgingHostPorts is rule 5 of lints: the host ports of a surging DaemonSet's pods as kubectl
// describe writes them ("9100/TCP, …"), as the API server defaults the DaemonSet and then each
// pod; "" when it does not surge or they take none.
func surgingHostPorts(ds *api.DaemonSet) string {
	ds = api.DeepCopy(ds)
	api.Default(ds)
	if !daemon.AllowsSurge(ds) {
		return ""
	}
	pod := &api.Pod{Spec: ds.Spec.Template.Spec}
	api.Default(pod)
	var ports []string
	for _, p := range api.HostPorts(pod) {
		ports = append(ports, fmt.Sprintf("%d/%s", p.HostPort, p.Protocol))
	}
	return strings.Join(ports, ", ")
}

// overlapping is rule 4 of lints: the owners (as the cards name them, see topOwner) of the
// pods in self's namespace that selector matches and that another controller owns.
func overlapping(c *cluster.Cluster, self Ref, selector *api.LabelSelector) []string {
	sel, err := api.LabelSelectorAsSelector(selector)
	if err != nil || sel.Empty() {
		return nil
	}
	selfName := self.Kind + "/" + self.Name
	var owners []string
	for p := range c.AllPods() {
		if p.Namespace != self.Namespace || !sel.Matches(p.Labels) {
			continue
		}
		owner := topOwner(c, p)
		if owner == "" || owner == selfName || slices.Contains(owners, owner) {
			continue
		}
		owners = append(owners, owner)
	}
	slices.Sort(owners)
	return owners
}

// lintsMemo is the lints last worked out and what from: the cluster, the write stamp it had
// then, the text (decoded once) and the language. The lints read the nodes and the pods (with
// their ReplicaSets, for their owners): while none of those is written they stay as they are,
// and a render at play need not decode the editor's text again.
type lintsMemo struct {
	c         *cluster.Cluster
	stamp     uint64
	text      string
	manifests []api.Manifest
	err       error
	lang      Lang
	lints     []Lint
}

var lastLints lintsMemo

// editorLints are the lints of the open tab's text: the manifest's or a YAML file's (none on
// a kubectl edit's tab, whose object is the cluster's already).
func editorLints(m Model, text string) []Lint {
	c := m.Sim.C
	if m.Editing || (m.Open != "" && !strings.HasSuffix(m.Open, ".yaml") && !strings.HasSuffix(m.Open, ".yml")) {
		return nil
	}
	k := &lastLints
	if k.text != text || k.manifests == nil && k.err == nil {
		k.manifests, k.err = api.Decode([]byte(text))
		k.text, k.c = text, nil
	}
	if k.c != c || k.lang != m.Lang || c.ChangedSince(k.stamp, "Node", "Pod", "ReplicaSet") {
		k.lints = nil
		if k.err == nil {
			k.lints = lints(m.Lang, c, k.manifests)
		}
		k.c, k.stamp, k.lang = c, c.Stamp(), m.Lang
	}
	return k.lints
}
