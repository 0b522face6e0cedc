package kubectl

import (
	"fmt"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/sim"
)

// ParseTaint reads a taint as kubectl taint writes it — key=value:Effect, key:Effect or key —
// with kubectl's checks (k8s.io/kubectl/pkg/cmd/taint parseTaint).
func ParseTaint(st string) (api.Taint, error) {
	var t api.Taint
	parts := strings.Split(st, ":")
	switch len(parts) {
	case 1:
		t.Key = parts[0]
	case 2:
		t.Effect = api.TaintEffect(parts[1])
		switch t.Effect {
		case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		default:
			return api.Taint{}, fmt.Errorf("invalid taint effect: %v, unsupported taint effect", t.Effect)
		}
		kv := strings.Split(parts[0], "=")
		if len(kv) > 2 {
			return api.Taint{}, fmt.Errorf("invalid taint spec: %v", st)
		}
		t.Key = kv[0]
		if len(kv) == 2 {
			t.Value = kv[1]
			if errs := api.IsLabelValue(t.Value); len(errs) > 0 {
				return api.Taint{}, fmt.Errorf("invalid taint spec: %v, %s", st, strings.Join(errs, "; "))
			}
		}
	default:
		return api.Taint{}, fmt.Errorf("invalid taint spec: %v", st)
	}
	if errs := api.IsLabelKey(t.Key); len(errs) > 0 {
		return api.Taint{}, fmt.Errorf("invalid taint spec: %v, %s", st, strings.Join(errs, "; "))
	}
	return t, nil
}

var taintFlags = []FlagSpec{{Name: "overwrite", Boolean: true}, {Name: "all", Boolean: true}}

// taintCommand runs `kubectl taint nodes NAME… KEY[=VALUE]:EFFECT… [KEY[:EFFECT]-]…`, printing
// node/NAME tainted, untainted or modified as kubectl does.
func taintCommand(s *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("taint", args, taintFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	resources, specs, bad := splitTaintArgs(f.Args)
	if bad != nil {
		return *bad
	}
	add, remove, err := parseTaintSpecs(specs)
	if err != nil {
		return Result{Err: fmt.Sprintf("error: %v\nSee 'kubectl taint -h' for help and examples", err), Code: 1}
	}
	nodes, bad := taintTargets(s, resources, f.IsTrue("all"))
	if bad != nil {
		return *bad
	}
	var out strings.Builder
	var errs []string
	for _, n := range nodes {
		op, taints, err := updateTaints(n, add, remove, f.IsTrue("overwrite"))
		if err != nil {
			errs = append(errs, "error: "+err.Error())
			continue
		}
		next := api.DeepCopy(n)
		next.Spec.Taints = taints
		if _, err := apiserver.Update(s.C, next, apiserver.Options{}); err != nil {
			errs = append(errs, ServerError(err))
			continue
		}
		fmt.Fprintf(&out, "node/%s %s\n", n.Name, op)
	}
	r := Result{Out: out.String(), Err: strings.Join(errs, "\n")}
	if len(errs) > 0 {
		r.Code = 1
	}
	return r
}

// splitTaintArgs separates the resources from the taint changes: every argument with = or :, or
// ending in -, is a change, and the changes come last.
func splitTaintArgs(args []string) (resources, specs []string, bad *Result) {
	for _, a := range args {
		isTaint := strings.ContainsAny(a, "=:") || strings.HasSuffix(a, "-")
		switch {
		case isTaint:
			specs = append(specs, a)
		case len(specs) > 0:
			return nil, nil, &Result{Err: "error: all resources must be specified before taint changes: " + a, Code: 1}
		default:
			resources = append(resources, a)
		}
	}
	if len(resources) < 1 {
		return nil, nil, &Result{Err: "error: one or more resources must be specified as <resource> <name>", Code: 1}
	}
	if len(specs) < 1 {
		return nil, nil, &Result{Err: "error: at least one taint update is required", Code: 1}
	}
	return resources, specs, nil
}

func parseTaintSpecs(specs []string) (add, remove []api.Taint, err error) {
	seen := map[string]bool{}
	for _, spec := range specs {
		if rest, ok := strings.CutSuffix(spec, "-"); ok {
			t, err := ParseTaint(rest)
			if err != nil {
				return nil, nil, err
			}
			remove = append(remove, api.Taint{Key: t.Key, Effect: t.Effect})
			continue
		}
		t, err := ParseTaint(spec)
		if err != nil {
			return nil, nil, err
		}
		if t.Effect == "" {
			return nil, nil, fmt.Errorf("invalid taint spec: %v", spec)
		}
		if id := t.Key + ":" + string(t.Effect); seen[id] {
			return nil, nil, fmt.Errorf("duplicated taints with the same key and effect: %v", goTaint(t))
		} else {
			seen[id] = true
		}
		add = append(add, t)
	}
	return add, remove, nil
}

// goTaint prints a taint as Go's %v of a v1.Taint does in kubectl's message.
func goTaint(t api.Taint) string {
	return fmt.Sprintf("{%s %s %s <nil>}", t.Key, t.Value, t.Effect)
}

func taintTargets(s *sim.Sim, resources []string, all bool) ([]*api.Node, *Result) {
	typ, names := typeAndNames(resources)
	if r, ok := findResource(typ); !ok || r.kind.Kind != "Node" {
		return nil, &Result{Err: fmt.Sprintf("error: invalid resource type %s, only node types are supported", typ), Code: 1}
	}
	if all {
		return s.C.Nodes(), nil
	}
	if len(names) == 0 {
		return nil, &Result{Err: "error: at least one resource name must be specified since 'all' parameter is not set", Code: 1}
	}
	var nodes []*api.Node
	for _, name := range names {
		n := s.C.Node(name)
		if n == nil {
			return nil, &Result{Err: fmt.Sprintf("Error from server (NotFound): nodes %q not found", name), Code: 1}
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// updateTaints is kubectl's updateTaints and reorganizeTaints: without --overwrite an existing
// key and effect is an error; the changed taints come first, then the untouched ones; removing a
// taint that is not there is an error; the verb says what happened.
func updateTaints(n *api.Node, add, remove []api.Taint, overwrite bool) (string, []api.Taint, error) {
	if !overwrite {
		var exists []string
		for _, t := range add {
			for _, old := range n.Spec.Taints {
				if t.Key == old.Key && t.Effect == old.Effect {
					exists = append(exists, t.Key)
				}
			}
		}
		if len(exists) > 0 {
			return "", nil, fmt.Errorf("node %s already has %v taint(s) with same effect(s) and --overwrite is false", n.Name, strings.Join(exists, ","))
		}
	}
	taints := append([]api.Taint(nil), add...)
	for _, old := range n.Spec.Taints {
		replaced := false
		for _, t := range add {
			replaced = replaced || t.Key == old.Key && t.Effect == old.Effect
		}
		if !replaced {
			taints = append(taints, old)
		}
	}
	added := len(n.Spec.Taints) != len(taints)
	var errs []string
	removed := false
	for _, r := range remove {
		before := len(taints)
		kept := taints[:0:0]
		for _, t := range taints {
			if t.Key == r.Key && (r.Effect == "" || t.Effect == r.Effect) {
				continue
			}
			kept = append(kept, t)
		}
		taints, removed = kept, len(kept) != before
		if !removed {
			errs = append(errs, fmt.Sprintf("taint %q not found", r.String()))
		}
	}
	if len(errs) > 0 {
		msg := errs[0]
		if len(errs) > 1 {
			msg = "[" + strings.Join(errs, ", ") + "]"
		}
		return "", nil, fmt.Errorf("%s", msg)
	}
	switch {
	case added && removed || overwrite:
		return "modified", taints, nil
	case added:
		return "tainted", taints, nil
	}
	return "untainted", taints, nil
}
