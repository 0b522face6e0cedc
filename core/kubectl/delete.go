package kubectl

import (
	"fmt"
	"strconv"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

var deleteFlags = []FlagSpec{
	{Name: "filename", Shorthand: 'f'},
	{Name: "recursive", Shorthand: 'R', Boolean: true},
	{Name: "namespace", Shorthand: 'n'},
	{Name: "selector", Shorthand: 'l'},
	{Name: "field-selector"},
	{Name: "all", Boolean: true},
	{Name: "cascade"},
	{Name: "force", Boolean: true},
	{Name: "grace-period", Check: IsInt},
	{Name: "now", Boolean: true},
	{Name: "ignore-not-found", Boolean: true},
	{Name: "wait", Boolean: true},
	{Name: "dry-run"},
}

// deleteOptions are a delete's settled flags (DeleteOptions.Complete).
type deleteOptions struct {
	policy    cluster.Propagation
	grace     *int64 // nil: the object's own grace period
	namespace string
	notFound  bool // ignore NotFound
	warnings  []string
}

// completeDelete settles the flags as kubectl does: --now is a 1s grace period; a 0 grace period
// without --force becomes 1; --force without a grace period is 0; --cascade takes background,
// foreground, orphan or (deprecated) a boolean.
func completeDelete(f Flags) (deleteOptions, error) {
	o := deleteOptions{policy: cluster.Background, namespace: orDefault(f.Get("namespace"), "default"), notFound: f.IsTrue("ignore-not-found")}
	grace := int64(-1)
	if f.Has("grace-period") {
		grace = f.Int("grace-period")
	}
	if f.IsTrue("now") {
		if grace != -1 {
			return o, fmt.Errorf("--now and --grace-period cannot be specified together")
		}
		grace = 1
	}
	force := f.IsTrue("force")
	switch {
	case grace == 0 && !force:
		grace = 1
	case force && grace < 0:
		grace = 0
	}
	switch {
	case grace == 0 && force:
		o.warnings = append(o.warnings, "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.")
	case grace > 0 && force:
		return o, fmt.Errorf("--force and --grace-period greater than 0 cannot be specified together")
	}
	if grace >= 0 {
		o.grace = &grace
	}
	switch c := f.Get("cascade"); c {
	case "", "background":
	case "foreground":
		o.policy = cluster.Foreground
	case "orphan":
		o.policy = cluster.Orphan
	default:
		b, err := strconv.ParseBool(c)
		if err != nil {
			return o, fmt.Errorf(`invalid cascade value (%v). Must be "background", "foreground", or "orphan"`, c)
		}
		replacement := map[bool]string{true: "background", false: "orphan"}[b]
		o.warnings = append(o.warnings, fmt.Sprintf("warning: --cascade=%v is deprecated (boolean value) and can be replaced with --cascade=%s.", c, replacement))
		if !b {
			o.policy = cluster.Orphan
		}
	}
	return o, nil
}

// target is one object a delete names: found, or the NotFound to report.
type target struct {
	kind api.Kind
	name string
	obj  api.Object
}

// deleteCommand runs `kubectl delete TYPE NAME…`, `TYPE/NAME…`, `-f -`, `-l SELECTOR` or
// `--all`; with --dry-run it prints what it would delete and deletes nothing. kubectl waits until the objects are gone; DaemonLab prints at once, and a deleted pod
// stays Terminating as long as its kubelet takes.
func deleteCommand(s *sim.Sim, args []string, stdin string) Result {
	f, err := ParseFlags("delete", args, deleteFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	o, err := completeDelete(f)
	if err != nil {
		return Result{Err: "error: " + err.Error(), Code: 1}
	}
	dry, bad := parseDryRun(f)
	if bad != nil {
		return *bad
	}
	targets, bad := deleteTargets(s, f, o, stdin)
	if bad != nil && len(targets) == 0 {
		return *bad
	}
	var out strings.Builder
	errs := append([]string(nil), o.warnings...)
	code := 0
	for _, t := range targets {
		if t.obj == nil {
			if !o.notFound {
				errs = append(errs, fmt.Sprintf("Error from server (NotFound): %s %q not found", t.kind.GroupResource(), t.name))
				code = 1
			}
			continue
		}
		if _, err := apiserver.Delete(s.C, t.kind, cluster.KeyOf(t.obj), apiserver.DeleteOptions{Propagation: o.policy, GracePeriodSeconds: o.grace, DryRun: dry != ""}); err != nil {
			errs = append(errs, ServerError(err))
			code = 1
			continue
		}
		verb := "deleted"
		if o.grace != nil && *o.grace == 0 {
			verb = "force deleted"
		}
		if t.kind.Namespaced {
			verb += " from " + t.obj.GetObjectMeta().Namespace + " namespace"
		}
		verb += dry.suffix()
		fmt.Fprintf(&out, "%s %q %s\n", resourceName(t.kind), t.name, verb)
	}
	if bad != nil { // the objects read before an error are deleted, and the error follows
		errs, code = append(errs, bad.Err), 1
	}
	return Result{Out: out.String(), Err: strings.Join(errs, "\n"), Code: code}
}

// deleteTargets resolves what a delete names. With -f, a manifest that does not read is an
// error returned with the objects read before it (kubectl deletes those as it visits them).
func deleteTargets(s *sim.Sim, f Flags, o deleteOptions, stdin string) ([]target, *Result) {
	get := func(k api.Kind, ns, name string) target {
		key := cluster.Key{Name: name}
		if k.Namespaced {
			key.Namespace = ns
		}
		return target{kind: k, name: name, obj: s.C.Get(k.Kind, key)}
	}
	if f.Has("filename") {
		srcs, bad := Sources(s, f, stdin)
		if bad != nil {
			return nil, bad
		}
		var out []target
		for _, src := range srcs {
			manifests, err := api.Decode(src.Data)
			for _, m := range manifests { // a List's good items go, as the builder sends them
				meta := m.Object.GetObjectMeta()
				out = append(out, get(m.Kind, orDefault(meta.Namespace, o.namespace), meta.Name))
			}
			if err != nil {
				r := ClientError(err, src.Name)
				r.Code = 1
				return out, &r
			}
		}
		if len(out) == 0 { // an empty List, or no document at all (delete.go DeleteResult)
			return nil, &Result{Out: "No resources found\n"}
		}
		return out, nil
	}
	if len(f.Args) == 0 {
		return nil, &Result{Err: "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'", Code: 1}
	}
	typ, names := typeAndNames(f.Args)
	r, ok := findResource(typ)
	if !ok {
		return nil, &Result{Err: fmt.Sprintf("error: the server doesn't have a resource type %q", typ), Code: 1}
	}
	if len(names) > 0 {
		var out []target
		for _, n := range names {
			out = append(out, get(r.kind, o.namespace, n))
		}
		return out, nil
	}
	if !f.IsTrue("all") && !f.Has("selector") && !f.Has("field-selector") {
		return nil, &Result{Err: "error: resource(s) were provided, but no name was specified", Code: 1}
	}
	q := query{namespace: o.namespace}
	if bad := q.selectors(f, r); bad != nil {
		return nil, bad
	}
	objs, _ := q.find(s, r)
	var out []target
	for _, obj := range objs {
		out = append(out, target{kind: r.kind, name: obj.GetObjectMeta().Name, obj: obj})
	}
	if len(out) == 0 {
		return nil, &Result{Err: noResources(r, o.namespace, false)}
	}
	return out, nil
}
