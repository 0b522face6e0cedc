// Package kubectl is kubectl v1.37 over DaemonLab's simulated cluster: the same commands, the
// same output and the same error messages.
package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubelet"
	"daemonlab/core/openapi"
	"daemonlab/core/patch"
	"daemonlab/core/sim"
)

// Problem is one thing wrong with applied YAML, for an editor to mark.
type Problem = api.Problem

// Result is what a command printed: standard output, standard error, the exit code (kubectl
// exits 1 when anything failed) and, for apply, the problems behind the error with their lines.
type Result struct {
	Out      string
	Err      string
	Code     int
	Problems []Problem
}

// action is one prepared object: what to store, and the verb kubectl prints.
type action struct {
	manifest api.Manifest
	obj      api.Object
	verb     string // created, configured, unchanged
}

// Apply runs `kubectl apply -f <source>` with the given manifests, as kubectl does: documents that
// fail to parse stop everything; otherwise every object is created or updated on its own, the
// ones that fail are reported after the others, and the controllers then settle.
func Apply(s *sim.Sim, data []byte, source, namespace string) Result {
	return apply(s, data, source, namespace, applyMode{})
}

// ApplyAll is Apply for an editor: it applies every object or, if any would fail, none, and says
// so; a failed ApplyAll leaves the cluster exactly as it was.
func ApplyAll(s *sim.Sim, data []byte, source, namespace string) Result {
	return apply(s, data, source, namespace, applyMode{atomic: true})
}

// Create runs `kubectl create -f <source>`: like Apply, but an object that exists already is
// an AlreadyExists error, and no last-applied annotation is kept.
func Create(s *sim.Sim, data []byte, source, namespace string) Result {
	return apply(s, data, source, namespace, applyMode{create: true})
}

// applyMode says how apply treats a batch: all or nothing (atomic), create only (create).
type applyMode struct {
	atomic, create bool
}

func apply(s *sim.Sim, data []byte, source, namespace string, mode applyMode) Result {
	manifests, err := api.Decode(data)
	if err != nil {
		r := clientError(err, source)
		r.Code = 1
		return r
	}
	if len(manifests) == 0 {
		verb := "apply"
		if mode.create {
			verb = "create"
		}
		return Result{Err: "error: no objects passed to " + verb, Code: 1}
	}
	// kubectl sends the objects one by one, so a namespace created early in the file exists for
	// the objects after it; all or nothing undoes the batch when any object fails.
	before := s.C.Snapshot()
	var out strings.Builder
	var errs []string
	var problems []Problem
	var indices *kubelet.Indices // the nodes' indices, read at the first new node
	for _, m := range manifests {
		if _, isNode := m.Object.(*api.Node); isNode && indices == nil {
			indices = kubelet.NewIndices(s.C)
		}
		a, msg, probs := prepare(s.C, m, source, namespace, mode.create, indices)
		if msg != "" {
			errs = append(errs, msg)
			problems = append(problems, probs...)
			continue
		}
		commit(s.C, a)
		if node, isNode := a.obj.(*api.Node); isNode {
			indices.Use(node.Spec.PodCIDR)
		}
		fmt.Fprintf(&out, "%s/%s %s\n", resourceName(a.manifest.Kind), a.obj.GetObjectMeta().Name, a.verb)
	}
	if mode.atomic && len(errs) > 0 {
		s.C.Restore(before)
		return Result{Err: strings.Join(errs, "\n"), Code: 1, Problems: problems}
	}
	s.Settle()
	r := Result{Out: out.String(), Err: strings.Join(errs, "\n"), Problems: problems}
	if len(errs) > 0 {
		r.Code = 1
	}
	return r
}

// resourceName is how kubectl names a kind in its output: "daemonset.apps", "pod".
func resourceName(k api.Kind) string {
	if k.Group == "" {
		return strings.ToLower(k.Kind)
	}
	return strings.ToLower(k.Kind) + "." + k.Group
}

// clientError words an error kubectl finds before it talks to the server.
func clientError(err error, source string) Result {
	var se *api.SyntaxError
	var ce *api.ConversionError
	var mk *api.MissingKindError
	var nk *api.NoKindMatchError
	switch {
	case errors.As(err, &se):
		return Result{Err: fmt.Sprintf("error: error parsing %s: error converting YAML to JSON: %s", source, se.Error()),
			Problems: []Problem{{Line: se.Line, Column: se.Column, Message: se.Msg}}}
	case errors.As(err, &ce):
		return Result{Err: fmt.Sprintf("error: error parsing %s: error converting YAML to JSON: %s", source, ce.Error()),
			Problems: []Problem{{Line: ce.Line, Column: ce.Column, Message: ce.Error()}}}
	case errors.As(err, &mk):
		return Result{Err: fmt.Sprintf("error: unable to decode %q: %s", source, mk.Error()),
			Problems: []Problem{{Line: mk.Line, Message: strings.ToLower(mk.Field[:1]) + mk.Field[1:] + " is not set"}}}
	case errors.As(err, &nk):
		return Result{Err: fmt.Sprintf("error: resource mapping not found for name: %q namespace: %q from %q: %s\nensure CRDs are installed first", nk.Name, nk.Namespace, source, nk.Error()),
			Problems: []Problem{{Line: nk.Line, Path: "kind", Message: nk.Error()}}}
	}
	var de *api.DecodeError
	if errors.As(err, &de) {
		return Result{Err: fmt.Sprintf("Error from server (BadRequest): error when creating %q: %s", source, de.Error()), Problems: de.Problems}
	}
	return Result{Err: "error: " + err.Error()}
}

// prepare readies one manifest as the API server would on create or update, without storing it:
// namespace, defaulting, validation and, for an existing object, the update rules (or, for
// create, AlreadyExists). It returns kubectl's error text and the problems behind it when the
// server would refuse the object.
func prepare(c *cluster.Cluster, m api.Manifest, source, namespace string, create bool, indices *kubelet.Indices) (action, string, []Problem) {
	obj := m.Object
	meta := obj.GetObjectMeta()
	if m.Kind.Namespaced && meta.Namespace == "" {
		meta.Namespace = namespace
	}
	verb := "creating"
	existing := c.Get(m.Kind.Kind, cluster.Key{Namespace: meta.Namespace, Name: meta.Name})
	if existing != nil {
		verb = "patching"
	}
	if m.Kind.Namespaced && meta.Namespace != "" && c.Get("Namespace", cluster.Key{Name: meta.Namespace}) == nil {
		return action{}, fmt.Sprintf("Error from server (NotFound): error when %s %q: namespaces %q not found", verb, source, meta.Namespace),
			[]Problem{{Line: m.LineOf("metadata.namespace"), Path: "metadata.namespace", Message: fmt.Sprintf("namespaces %q not found", meta.Namespace)}}
	}
	if create && existing != nil {
		return action{}, fmt.Sprintf("Error from server (AlreadyExists): error when creating %q: %s %q already exists", source, m.Kind.GroupResource(), meta.Name),
			[]Problem{{Line: m.LineOf("metadata.name"), Path: "metadata.name", Message: fmt.Sprintf("%s %q already exists", m.Kind.GroupResource(), meta.Name)}}
	}
	if !create {
		if meta.Annotations == nil {
			meta.Annotations = map[string]string{}
		}
		meta.Annotations[api.LastAppliedAnnotation] = m.LastAppliedConfiguration(namespace)
	}
	if !create && existing != nil {
		merged, msg := threeWayApply(m, existing, namespace, source)
		if msg != "" {
			return action{}, msg, nil
		}
		obj, meta = merged, merged.GetObjectMeta()
	}
	if node, ok := obj.(*api.Node); ok && existing == nil {
		registerNode(c, node, indices.Free())
	}
	api.Default(obj)
	errs := api.Validate(obj)
	if existing != nil {
		errs = append(errs, validateUpdate(obj, existing)...)
	}
	if len(errs) > 0 {
		return action{}, invalidMessage(m.Kind.Kind, meta.Name, errs), problemsOf(m, errs)
	}
	if existing == nil {
		if err := cluster.Admit(obj); err != nil {
			return action{}, fmt.Sprintf("Error from server (Forbidden): error when creating %q: %v", source, err),
				[]Problem{{Line: m.LineOf("spec.priorityClassName"), Path: "spec", Message: err.Error()}}
		}
	}
	a := action{manifest: m, obj: obj, verb: "created"}
	if ds, ok := obj.(*api.DaemonSet); ok && existing != nil {
		// The template generation is the server's: apply's patch never touches it.
		ds.Annotations[api.DeprecatedTemplateGeneration] = existing.GetObjectMeta().Annotations[api.DeprecatedTemplateGeneration]
	}
	if existing != nil {
		a.verb = "configured"
		if !changed(obj, existing) {
			a.verb = "unchanged"
		}
	}
	return a, "", nil
}

// threeWayApply is what kubectl apply does to an object that exists (client-side apply): the
// strategic merge patch from the configuration applied last time (the last-applied
// annotation) and the manifest to the live object (patch.ThreeWay), applied by the API server.
// Fields the manifest never set stay as others made them (a scale, a label); fields the last
// configuration set and this one drops are removed.
func threeWayApply(m api.Manifest, existing api.Object, namespace, source string) (api.Object, string) {
	lastApplied := m.LastAppliedConfiguration(namespace)
	modified, err := api.YAMLToJSON([]byte(lastApplied))
	if err != nil {
		return nil, "error: " + err.Error()
	}
	modifiedMap := modified.(map[string]any)
	md := modifiedMap["metadata"].(map[string]any)
	md["annotations"].(map[string]any)[api.LastAppliedAnnotation] = lastApplied
	original := map[string]any{}
	if text := existing.GetObjectMeta().Annotations[api.LastAppliedAnnotation]; text != "" {
		if v, err := api.YAMLToJSON([]byte(text)); err == nil {
			original, _ = v.(map[string]any)
		}
	}
	current := structured(existing, m.Kind)
	doc, root := openapi.Document(m.Kind), openapi.Root(m.Kind)
	p, err := patch.ThreeWay(original, modifiedMap, current, doc, root)
	if err == nil {
		var merged map[string]any
		if merged, err = patch.Strategic(current, p, doc, root); err == nil {
			data, _ := json.Marshal(merged) // decoded JSON always encodes
			manifests, derr := api.Decode(data)
			if derr == nil && len(manifests) == 1 {
				return manifests[0].Object, ""
			}
			err = derr
		}
	}
	return nil, fmt.Sprintf("Error from server (BadRequest): error when applying patch to %q: %v", source, err)
}

// registerNode gives a Node applied without a status what its kubelet would report on joining
// as the index-th node: the kubelet labels, a free pod CIDR, capacity and Ready conditions
// (DESIGN: every node joins Ready).
func registerNode(c *cluster.Cluster, n *api.Node, index int) {
	joined := kubelet.NewNode(n.Name, index, kubelet.NodeOptions{Labels: n.Labels, Taints: n.Spec.Taints}, c.Now())
	if n.Spec.PodCIDR == "" {
		n.Spec.PodCIDR, n.Spec.PodCIDRs = joined.Spec.PodCIDR, joined.Spec.PodCIDRs
	}
	n.Labels = joined.Labels
	if len(n.Status.Conditions) == 0 && n.Status.Capacity == nil {
		n.Status = joined.Status
	}
}

// validateUpdate adds the update-only rules: a workload's selector is immutable.
func validateUpdate(obj, old api.Object) api.ErrorList {
	sel := func(o api.Object) *api.LabelSelector {
		switch o := o.(type) {
		case *api.DaemonSet:
			return o.Spec.Selector
		case *api.Deployment:
			return o.Spec.Selector
		case *api.ReplicaSet:
			return o.Spec.Selector
		}
		return nil
	}
	if s := sel(obj); s != nil && !reflect.DeepEqual(api.DeepCopy(s), api.DeepCopy(sel(old))) {
		return api.ErrorList{api.Invalid(api.NewPath("spec", "selector"), s, "field is immutable")}
	}
	return nil
}

// invalidMessage words a 422 as kubectl's checkErr does
// (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go checkErr): one cause on the line, several
// as a list of "* field: message".
func invalidMessage(kind, name string, errs api.ErrorList) string {
	if len(errs) == 1 {
		return fmt.Sprintf("The %s %q is invalid: %s", kind, name, errs[0].Error())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The %s %q is invalid: \n", kind, name)
	for i, e := range errs {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "* %s", e.Error())
	}
	return b.String()
}

func problemsOf(m api.Manifest, errs api.ErrorList) []Problem {
	out := make([]Problem, len(errs))
	for i, e := range errs {
		out[i] = Problem{Line: m.LineOf(e.Field), Path: e.Field, Message: e.Error()}
	}
	return out
}

// changed reports whether applying obj over old changes what the user owns: labels,
// annotations, and everything but status.
func changed(obj, old api.Object) bool {
	strip := func(o api.Object) map[string]any {
		m, _ := toJSONValue(o).(map[string]any)
		delete(m, "status")
		if md, ok := m["metadata"].(map[string]any); ok {
			for _, k := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields"} {
				delete(md, k)
			}
		}
		return m
	}
	return !reflect.DeepEqual(strip(obj), strip(old))
}

// toJSONValue is v as generic JSON values, for comparing objects field by field.
func toJSONValue(v any) any {
	var out any
	b, _ := json.Marshal(v)
	_ = json.Unmarshal(b, &out)
	return out
}

// commit stores a prepared object: created, or updated over the existing one keeping what the
// server owns (status; generation bumped when the spec changed).
func commit(c *cluster.Cluster, a action) {
	if node, ok := a.obj.(*api.Node); ok && a.verb == "created" {
		_ = kubelet.Join(c, node)
		return
	}
	if a.verb == "created" {
		_ = c.Create(a.obj)
		return
	}
	if a.verb == "unchanged" {
		return
	}
	old := c.Get(a.manifest.Kind.Kind, cluster.Key{Namespace: a.obj.GetObjectMeta().Namespace, Name: a.obj.GetObjectMeta().Name})
	keepServerFields(a.obj, old)
	_ = c.Update(a.obj)
}

// keepServerFields copies status and generation from old to obj, bumping generation when the
// spec changed (the registry strategies' PrepareForUpdate).
func keepServerFields(obj, old api.Object) {
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	m.Generation = om.Generation
	specOf := func(o api.Object) any {
		v := reflect.ValueOf(o).Elem().FieldByName("Spec")
		if !v.IsValid() {
			return nil
		}
		return toJSONValue(v.Interface())
	}
	if m.Generation > 0 && !reflect.DeepEqual(specOf(obj), specOf(old)) {
		m.Generation++
	}
	status := reflect.ValueOf(obj).Elem().FieldByName("Status")
	if status.IsValid() {
		status.Set(reflect.ValueOf(old).Elem().FieldByName("Status"))
	}
}
