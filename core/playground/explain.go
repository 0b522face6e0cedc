package playground

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/controller"
	"daemonlab/core/controller/daemon"
	"daemonlab/core/controller/deployment"
)

// The page explains every change a step makes to a workload, in the terminal after what
// kubectl printed: which fields of the pod template changed, the revision that makes and the
// rollout it starts. It compares the workloads before the step with the cluster after it (the
// stored objects are never changed in place, so keeping them is keeping the state before), and
// asks the controllers' own functions for the revision and the budget.

// workloads are a cluster's DaemonSets and Deployments, by Ref: what explain compares.
type workloads map[Ref]api.Object

// workloadsOf keeps the workloads of c as they are now.
func workloadsOf(c *cluster.Cluster) workloads {
	w := workloads{}
	for _, ds := range c.DaemonSets() {
		w[Ref{"DaemonSet", ds.Namespace, ds.Name}] = ds
	}
	for d := range cluster.All[*api.Deployment](c) {
		w[Ref{"Deployment", d.Namespace, d.Name}] = d
	}
	return w
}

// explain says what a step did to the workloads, a line each (none when it changed none),
// workload by workload in the cluster's order:
//
//  1. a workload that is new was created: its first revision, and for a DaemonSet on how many
//     nodes it wants a pod;
//  2. one whose pod template changed was configured: the fields that changed (templateDiff),
//     the revision that makes and the rollout it starts, under its strategy and budget;
//  3. one whose spec changed (a new generation) but not its template: no revision, no pod
//     replaced;
//  4. one the step applied (applied) that is as it was: unchanged, nothing rolls out;
//  5. one that is gone was deleted: the garbage collector deletes its pods.
func explain(l Lang, c *cluster.Cluster, before workloads, applied []Ref) []string {
	after := workloadsOf(c)
	var out []string
	for _, ref := range workloadOrder(after) {
		now, was := after[ref], before[ref]
		switch {
		case was == nil:
			out = append(out, T(l, "explain.created", ref.String(), revisionOf(c, now))+createdScope(l, c, now))
		case was == now: // stored objects are never changed in place: the same one is unwritten
			if slices.Contains(applied, ref) {
				out = append(out, T(l, "explain.unchanged", ref.String(), revisionOf(c, now)))
			}
		case !sameJSON(templateOf(was), templateOf(now)):
			out = append(out, T(l, "explain.template", ref.String()))
			out = append(out, diffLines(l, templateDiff(templateOf(was), templateOf(now)))...)
			out = append(out, rolloutOf(l, c, now))
		case generationOf(was) != generationOf(now):
			out = append(out, T(l, "explain.spec", ref.String(), revisionOf(c, now)))
		case !sameJSON(labelsOf(was), labelsOf(now)):
			out = append(out, T(l, "explain.meta", ref.String(), revisionOf(c, now)))
		case slices.Contains(applied, ref):
			out = append(out, T(l, "explain.unchanged", ref.String(), revisionOf(c, now)))
		}
	}
	for _, ref := range workloadOrder(before) {
		if after[ref] == nil {
			out = append(out, T(l, "explain.deleted", ref.String()))
		}
	}
	return out
}

// workloadOrder is the workloads' refs in a fixed order: DaemonSets, then Deployments, each
// by namespace and name.
func workloadOrder(w workloads) []Ref {
	refs := make([]Ref, 0, len(w))
	for ref := range w {
		refs = append(refs, ref)
	}
	sort.Slice(refs, func(i, j int) bool {
		a, b := refs[i], refs[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return refs
}

func templateOf(obj api.Object) *api.PodTemplateSpec {
	switch o := obj.(type) {
	case *api.DaemonSet:
		return &o.Spec.Template
	case *api.Deployment:
		return &o.Spec.Template
	}
	return nil
}

func generationOf(obj api.Object) int64 { return obj.GetObjectMeta().Generation }

// labelsOf is what a write of metadata alone changes: the labels and annotations (apply's
// last-applied-configuration among them), which move no generation.
func labelsOf(obj api.Object) [2]map[string]string {
	meta := obj.GetObjectMeta()
	return [2]map[string]string{meta.Labels, meta.Annotations}
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a) // API objects always marshal
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// revisionOf is the workload's current revision as its controller keeps it: a DaemonSet's
// ControllerRevision (daemon.PlanHistory's hash names it), a Deployment's new ReplicaSet
// (controller.ReplicaSets) with its revision annotation. "" when there is none yet.
func revisionOf(c *cluster.Cluster, obj api.Object) string {
	switch o := obj.(type) {
	case *api.DaemonSet:
		name := o.Name + "-" + daemon.PlanHistory(c, o).Hash
		if cr, ok := c.Get("ControllerRevision", cluster.Key{Namespace: o.Namespace, Name: name}).(*api.ControllerRevision); ok {
			return fmt.Sprintf("%d (ControllerRevision %s)", cr.Revision, cr.Name)
		}
	case *api.Deployment:
		if rs, _ := controller.ReplicaSets(c, o); rs != nil {
			return fmt.Sprintf("%s (ReplicaSet %s)", rs.Annotations[api.AnnotationRevision], rs.Name)
		}
	}
	return "?"
}

// createdScope is what a workload created sets out to run: for a DaemonSet the nodes where
// daemon.Decide wants a pod, for a Deployment its replicas.
func createdScope(l Lang, c *cluster.Cluster, obj api.Object) string {
	switch o := obj.(type) {
	case *api.DaemonSet:
		want, all := 0, 0
		for n := range c.AllNodes() {
			all++
			if daemon.Decide(n, o).ShouldRun {
				want++
			}
		}
		return T(l, "explain.created.ds", want, all)
	case *api.Deployment:
		return T(l, "explain.created.deploy", replicasOf(o))
	}
	return ""
}

func replicasOf(d *api.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// rolloutOf is the rollout a new template starts, by the workload's strategy:
//
//  1. a DaemonSet under RollingUpdate replaces its pods node by node within maxUnavailable
//     and maxSurge, scaled against the nodes it wants a pod on (daemon.Budgets): without
//     surge each old pod is deleted before its replacement is created;
//  2. a DaemonSet under OnDelete replaces nothing: a pod the learner deletes comes back new;
//  3. a Deployment under RollingUpdate scales its new ReplicaSet up and the old ones down
//     within maxSurge and maxUnavailable (deployment.Fenceposts);
//  4. a Deployment under Recreate deletes every old pod before it creates the new ones (in a new
//     ReplicaSet, the next revision, made only then).
func rolloutOf(l Lang, c *cluster.Cluster, obj api.Object) string {
	rev := revisionOf(c, obj)
	switch o := obj.(type) {
	case *api.DaemonSet:
		if o.Spec.UpdateStrategy.Type == api.OnDeleteDaemonSetStrategyType {
			return T(l, "explain.ondelete", rev)
		}
		desired := int(o.Status.DesiredNumberScheduled)
		surge, unavailable := daemon.Budgets(o, desired)
		key := "explain.ds.rolling"
		if surge > 0 {
			key = "explain.ds.surge"
		}
		return T(l, key, rev, desired, unavailable, surge) + skippedBy(l, c, o)
	case *api.Deployment:
		if o.Spec.Strategy.Type == api.RecreateDeploymentStrategyType || o.Spec.Strategy.RollingUpdate == nil {
			return T(l, "explain.recreate", replicasOf(o)) // its new ReplicaSet waits for the old pods to go
		}
		surge, unavailable := deployment.Fenceposts(o)
		return T(l, "explain.deploy.rolling", rev, replicasOf(o), surge, unavailable)
	}
	return ""
}

// skippedBy says which nodes the DaemonSet does not want a pod on (daemon.Decide: shouldRun is
// false), where a rolling update deletes an old pod and the controller creates none (the
// rolling update replaces old pods on every node; manage creates only where it should run).
func skippedBy(l Lang, c *cluster.Cluster, ds *api.DaemonSet) string {
	var skipped []string
	for n := range c.AllNodes() {
		if !daemon.Decide(n, ds).ShouldRun {
			skipped = append(skipped, n.Name)
		}
	}
	if len(skipped) == 0 {
		return ""
	}
	return T(l, "explain.ds.skipped", strings.Join(skipped, ", "))
}

// fieldChange is one field of a pod template that changed: its path from the workload
// (spec.template.spec.tolerations[0].operator) and its values before and after, as YAML
// would show a scalar, JSON for anything larger, "" for unset.
type fieldChange struct {
	Path, Old, New string
	unset          [2]bool // the field was unset before / is unset after
}

// maxDiffLines bounds the changes listed; the rest are counted.
const maxDiffLines = 8

// templateDiff lists the fields in which two pod templates differ, in the order of their
// paths:
//
//  1. the templates are compared as the API server stores them (defaults filled in), as JSON;
//  2. objects are compared key by key, lists item by item (an item added or removed is one
//     change, the whole item);
//  3. a scalar, or a value on one side only, that differs is one change.
func templateDiff(a, b *api.PodTemplateSpec) []fieldChange {
	var x, y any
	for _, p := range []struct {
		t *api.PodTemplateSpec
		v *any
	}{{a, &x}, {b, &y}} {
		data, _ := json.Marshal(p.t)
		_ = json.Unmarshal(data, p.v) // its own JSON always reads back
	}
	var out []fieldChange
	diffValue("spec.template", x, y, &out)
	return out
}

func diffValue(path string, a, b any, out *[]fieldChange) {
	switch x := a.(type) {
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			keys := make([]string, 0, len(x)+len(y))
			for k := range x {
				keys = append(keys, k)
			}
			for k := range y {
				if _, ok := x[k]; !ok {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			for _, k := range keys {
				diffValue(path+"."+k, x[k], y[k], out)
			}
			return
		}
	case []any:
		if y, ok := b.([]any); ok {
			for i := range max(len(x), len(y)) {
				var xi, yi any
				if i < len(x) {
					xi = x[i]
				}
				if i < len(y) {
					yi = y[i]
				}
				diffValue(path+"["+strconv.Itoa(i)+"]", xi, yi, out)
			}
			return
		}
	}
	if sameJSON(a, b) {
		return
	}
	*out = append(*out, fieldChange{Path: path, Old: scalar(a), New: scalar(b), unset: [2]bool{a == nil, b == nil}})
}

// scalar prints a value as the diff shows it: a string as it is, anything else as JSON.
func scalar(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	data, _ := json.Marshal(v)
	return string(data)
}

// diffLines are the changes as the terminal shows them, "  path: old → new", at most
// maxDiffLines of them, with what an unset toleration operator means (it is Equal: with no
// value it matches the same taint as Exists, but it is another toleration, so another
// template).
func diffLines(l Lang, changes []fieldChange) []string {
	var out []string
	for i, ch := range changes {
		if i == maxDiffLines {
			out = append(out, T(l, "explain.more", len(changes)-i))
			break
		}
		old, new := ch.Old, ch.New
		if ch.unset[0] {
			old = T(l, "explain.unset")
		}
		if ch.unset[1] {
			new = T(l, "explain.unset")
		}
		line := "  " + ch.Path + ": " + old + " → " + new
		if strings.Contains(ch.Path, ".tolerations[") && strings.HasSuffix(ch.Path, ".operator") && (ch.unset[0] || ch.unset[1]) {
			line += "  " + T(l, "explain.operator")
		}
		out = append(out, line)
	}
	return out
}

// appliedRefs are the workloads a step applies, by the manifests it sends (the editor's text,
// a here-document or a workspace file given to `kubectl apply -f`); none for other steps or
// manifests that do not decode (kubectl has said why).
func appliedRefs(c *cluster.Cluster, st Step) []Ref {
	text := st.Apply
	if f := strings.Fields(st.Run); len(f) >= 4 && (f[0] == "kubectl" || f[0] == "k") && f[1] == "apply" {
		for i := 2; i+1 < len(f); i++ {
			switch {
			case f[i] != "-f" && f[i] != "--filename":
			case f[i+1] == "-":
				text = st.Stdin
			default:
				text, _ = c.ReadFile(f[i+1])
			}
		}
	}
	if text == "" {
		return nil
	}
	ms, _ := api.Decode([]byte(text))
	var refs []Ref
	for _, m := range ms {
		om := m.Object.GetObjectMeta()
		ns := om.Namespace
		if ns == "" {
			ns = "default"
		}
		refs = append(refs, Ref{m.Kind.Kind, ns, om.Name})
	}
	return refs
}

// explained reports whether the page explains a step: the learner's writes through the API
// (the editor's text applied, a command line with kubectl in it: `kubectl …`, `k …`, `cat f |
// kubectl apply -f -`). A line with a sim command moves the world instead (time, machines, a
// cluster imported), and a file's tab only writes the workspace.
func explained(st Step) bool {
	if st.Apply != "" {
		return true
	}
	kubectl := false
	for _, part := range strings.FieldsFunc(st.Run, func(r rune) bool { return r == '|' || r == ';' || r == '&' }) {
		switch f := strings.Fields(part); {
		case len(f) == 0:
		case f[0] == "sim":
			return false
		case f[0] == "kubectl" || f[0] == "k":
			kubectl = true
		}
	}
	return kubectl
}
