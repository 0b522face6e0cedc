package kubectl

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

var labelFlags = append([]FlagSpec{{Name: "overwrite", Boolean: true}, {Name: "namespace", Shorthand: 'n'}, {Name: "all", Boolean: true}}, selectorFlags...)

// labelCommand runs `kubectl label TYPE NAME… KEY=VALUE… KEY-…`, printing TYPE/NAME labeled,
// unlabeled, modified or not labeled as kubectl does (k8s.io/kubectl/pkg/cmd/label).
func labelCommand(s *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("label", args, labelFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	var resources, specs []string
	for _, a := range f.Args {
		if strings.Contains(a, "=") || strings.HasSuffix(a, "-") {
			specs = append(specs, a)
		} else {
			resources = append(resources, a)
		}
	}
	if len(resources) < 1 {
		return Result{Err: "error: one or more resources must be specified as <resource> <name> or <resource>/<name>", Code: 1}
	}
	if len(specs) < 1 {
		return Result{Err: "error: at least one label update is required", Code: 1}
	}
	add, remove, err := parseLabels(specs)
	if err != nil {
		return Result{Err: "error: " + err.Error(), Code: 1}
	}
	targets, bad := namedTargets(s, f, resources)
	if bad != nil {
		return *bad
	}
	var out strings.Builder
	for _, t := range targets {
		msg, res := relabel(s.C, t, add, remove, f.IsTrue("overwrite"), &out)
		if res != nil {
			res.Out = out.String()
			return *res
		}
		fmt.Fprintf(&out, "%s/%s %s\n", resourceName(t.kind), t.name, msg)
	}
	return Result{Out: out.String()}
}

// parseLabels is kubectl's parseLabels: KEY=VALUE sets (the value must be a label value), KEY-
// removes, and one command may not both set and remove a key.
func parseLabels(specs []string) (map[string]string, []string, error) {
	add := map[string]string{}
	var remove []string
	for _, spec := range specs {
		switch {
		case strings.Contains(spec, "="):
			parts := strings.Split(spec, "=")
			if len(parts) != 2 {
				return nil, nil, fmt.Errorf("invalid label spec: %v", spec)
			}
			if errs := api.IsLabelValue(parts[1]); len(errs) > 0 {
				return nil, nil, fmt.Errorf("invalid label value: %q: %s", spec, strings.Join(errs, ";"))
			}
			add[parts[0]] = parts[1]
		case strings.HasSuffix(spec, "-"):
			remove = append(remove, strings.TrimSuffix(spec, "-"))
		default:
			return nil, nil, fmt.Errorf("unknown label spec: %v", spec)
		}
	}
	for _, k := range remove {
		if _, ok := add[k]; ok {
			return nil, nil, fmt.Errorf("can not both modify and remove a label in the same command")
		}
	}
	return add, remove, nil
}

// relabel changes one object's labels: without --overwrite a key with another value is an
// error; a key to remove that is missing is reported; the API server validates the result.
func relabel(c *cluster.Cluster, t target, add map[string]string, remove []string, overwrite bool, out *strings.Builder) (string, *Result) {
	cur := t.obj.GetObjectMeta().Labels
	if !overwrite {
		var errs []string
		for _, k := range slices.Sorted(maps.Keys(add)) {
			if v, ok := cur[k]; ok && v != add[k] {
				errs = append(errs, fmt.Sprintf("'%s' already has a value (%s), and --overwrite is false", k, v))
			}
		}
		if len(errs) > 0 {
			return "", &Result{Err: "error: " + aggregate(errs), Code: 1}
		}
	}
	next := api.DeepCopyObject(t.obj)
	m := next.GetObjectMeta()
	if m.Labels == nil {
		m.Labels = map[string]string{}
	}
	added, removed := 0, 0
	for _, k := range remove {
		if _, ok := m.Labels[k]; !ok {
			fmt.Fprintf(out, "label %q not found.\n", k)
			continue
		}
		delete(m.Labels, k)
		removed++
	}
	for _, k := range slices.Sorted(maps.Keys(add)) {
		if v, ok := m.Labels[k]; !ok || v != add[k] {
			m.Labels[k] = add[k]
			added++
		}
	}
	if added+removed > 0 {
		if _, err := apiserver.Update(c, next, apiserver.Options{}); err != nil {
			return "", &Result{Err: ServerError(err), Code: 1}
		}
	}
	switch {
	case added > 0 && removed > 0:
		return "modified", nil
	case added > 0:
		return "labeled", nil
	case removed > 0:
		return "unlabeled", nil
	}
	return "not labeled", nil
}

func aggregate(errs []string) string {
	if len(errs) == 1 {
		return errs[0]
	}
	return "[" + strings.Join(errs, ", ") + "]"
}

// selectorFlags are -l and --field-selector, for commands that pick objects by their labels or
// fields instead of by name.
var selectorFlags = []FlagSpec{{Name: "selector", Shorthand: 'l'}, {Name: "field-selector"}}

// namedTargets resolves TYPE NAME…, TYPE/NAME…, or TYPE with --all, -l or --field-selector, in
// the namespace of -n (default "default"). Selectors match nothing rather than fail; a named
// object that does not exist is kubectl's NotFound.
func namedTargets(s *sim.Sim, f Flags, resources []string) ([]target, *Result) {
	namespace := orDefault(f.Get("namespace"), "default")
	typ, names := typeAndNames(resources)
	r, ok := findResource(typ)
	if !ok {
		return nil, &Result{Err: fmt.Sprintf("error: the server doesn't have a resource type %q", typ), Code: 1}
	}
	if f.IsTrue("all") || f.Has("selector") || f.Has("field-selector") {
		q := query{namespace: namespace, names: names}
		if bad := q.selectors(f, r); bad != nil {
			return nil, bad
		}
		objs, errs := q.find(s, r)
		if len(errs) > 0 {
			return nil, &Result{Err: errs[0], Code: 1}
		}
		var out []target
		for _, o := range objs {
			out = append(out, target{kind: r.kind, name: o.GetObjectMeta().Name, obj: o})
		}
		return out, nil
	}
	if len(names) == 0 {
		return nil, &Result{Err: "error: resource(s) were provided, but no name was specified", Code: 1}
	}
	var out []target
	for _, n := range names {
		key := cluster.Key{Name: n}
		if r.kind.Namespaced {
			key.Namespace = namespace
		}
		o := s.C.Get(r.kind.Kind, key)
		if o == nil {
			return nil, &Result{Err: fmt.Sprintf("Error from server (NotFound): %s %q not found", r.kind.GroupResource(), n), Code: 1}
		}
		out = append(out, target{kind: r.kind, name: n, obj: o})
	}
	return out, nil
}

var scaleFlags = []FlagSpec{{Name: "replicas"}, {Name: "namespace", Shorthand: 'n'}}

// scaleCommand runs `kubectl scale TYPE NAME --replicas=N` for Deployments and ReplicaSets.
func scaleCommand(s *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("scale", args, scaleFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	if !f.Has("replicas") {
		return Result{Err: "error: required flag(s) \"replicas\" not set", Code: 1}
	}
	n, err := strconv.ParseInt(f.Get("replicas"), 10, 32)
	if err != nil {
		return Result{Err: fmt.Sprintf("error: invalid argument %q for \"--replicas\" flag: strconv.ParseInt: parsing %q: invalid syntax", f.Get("replicas"), f.Get("replicas")), Code: 1}
	}
	if n < 0 {
		return Result{Err: "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0", Code: 1}
	}
	if len(f.Args) == 0 {
		return Result{Err: "error: resource(s) were provided, but no name was specified", Code: 1}
	}
	targets, bad := namedTargets(s, f, f.Args)
	if bad != nil {
		return *bad
	}
	var out strings.Builder
	for _, t := range targets {
		replicas := int32(n)
		next := api.DeepCopyObject(t.obj)
		switch o := next.(type) {
		case *api.Deployment:
			o.Spec.Replicas = &replicas
		case *api.ReplicaSet:
			o.Spec.Replicas = &replicas
		default:
			return Result{Out: out.String(), Err: fmt.Sprintf("error: no scaler has been implemented for %s", t.kind.GroupResource()), Code: 1}
		}
		if _, err := apiserver.Update(s.C, next, apiserver.Options{}); err != nil {
			return Result{Out: out.String(), Err: ServerError(err), Code: 1}
		}
		fmt.Fprintf(&out, "%s/%s scaled\n", resourceName(t.kind), t.name)
	}
	return Result{Out: out.String()}
}
