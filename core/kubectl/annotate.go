package kubectl

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/sim"
)

var annotateFlags = append([]FlagSpec{{Name: "overwrite", Boolean: true}, {Name: "namespace", Shorthand: 'n'}, {Name: "all", Boolean: true}, {Name: "list", Boolean: true}}, selectorFlags...)

// annotateCommand is kubectl annotate TYPE NAME… KEY=VALUE… KEY-… (pkg/cmd/annotate):
//
//  1. KEY=VALUE sets, KEY- removes; one command may not both set and remove a key, and anything
//     else is an invalid annotation format.
//  2. Without --overwrite, a key that already has another value is refused, except
//     kubernetes.io/change-cause, which may always be overwritten.
//  3. Every object named is printed "annotated", changed or not; --list prints the annotations
//     instead.
func annotateCommand(s *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("annotate", args, annotateFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	var resources, pairs []string
	for _, a := range f.Args {
		if strings.Contains(a, "=") || strings.HasSuffix(a, "-") {
			pairs = append(pairs, a)
		} else {
			resources = append(resources, a)
		}
	}
	if len(resources) == 0 {
		return Result{Err: "error: one or more resources must be specified as <resource> <name> or <resource>/<name>", Code: 1}
	}
	add, remove, bad := parseAnnotations(pairs)
	if bad != nil {
		return *bad
	}
	if len(add) == 0 && len(remove) == 0 && !f.IsTrue("list") {
		return Result{Err: "error: at least one annotation update is required", Code: 1}
	}
	targets, res := namedTargets(s, f, resources)
	if res != nil {
		return *res
	}
	var out strings.Builder
	for _, t := range targets {
		next := api.DeepCopyObject(t.obj)
		m := next.GetObjectMeta()
		if !f.IsTrue("overwrite") {
			var clashes []string
			for _, k := range slices.Sorted(maps.Keys(add)) {
				if v, ok := m.Annotations[k]; ok && v != add[k] && k != api.AnnotationChangeCause {
					clashes = append(clashes, fmt.Sprintf("'%s' already has a value (%s)", k, v))
				}
			}
			if len(clashes) > 0 {
				return Result{Out: out.String(), Err: "error: --overwrite is false but found the following declared annotation(s): " + strings.Join(clashes, "; "), Code: 1}
			}
		}
		if m.Annotations == nil {
			m.Annotations = map[string]string{}
		}
		maps.Copy(m.Annotations, add)
		for _, k := range remove {
			delete(m.Annotations, k)
		}
		if f.IsTrue("list") {
			for _, k := range slices.Sorted(maps.Keys(m.Annotations)) {
				fmt.Fprintf(&out, "%s=%s\n", k, m.Annotations[k])
			}
			continue
		}
		if _, err := apiserver.Update(s.C, next, apiserver.Options{}); err != nil {
			return Result{Out: out.String(), Err: ServerError(err), Code: 1}
		}
		fmt.Fprintf(&out, "%s/%s annotated\n", resourceName(t.kind), t.name)
	}
	return Result{Out: out.String()}
}

// parseAnnotations is ParsePairs for annotations: KEY=VALUE (the value may hold "="), KEY-.
func parseAnnotations(pairs []string) (map[string]string, []string, *Result) {
	add := map[string]string{}
	var remove, invalid []string
	for _, p := range pairs {
		switch k, v, ok := strings.Cut(p, "="); {
		case ok && k != "":
			add[k] = v
		case strings.HasSuffix(p, "-") && p != "-":
			remove = append(remove, strings.TrimSuffix(p, "-"))
		default:
			invalid = append(invalid, p)
		}
	}
	if len(invalid) > 0 {
		return nil, nil, &Result{Err: "error: invalid annotation format: " + strings.Join(invalid, ", "), Code: 1}
	}
	var both []string
	for _, k := range remove {
		if _, ok := add[k]; ok {
			both = append(both, k)
		}
	}
	if len(both) > 0 {
		return nil, nil, &Result{Err: "error: can not both modify and remove the following annotation(s) in the same command: " + strings.Join(both, ", "), Code: 1}
	}
	return add, remove, nil
}
