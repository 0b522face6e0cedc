package kubectl

import (
	"fmt"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

// resource is one resource type kubectl knows: its kind, the names it answers to, and what
// API discovery says of it.
type resource struct {
	kind    api.Kind
	aliases []string // short names, singular and plural
	// rows lays objects out as a table, header first.
	rows       func(objs []api.Object, opts tableOptions, now time.Time) [][]string
	shortNames string // as discovery lists them (api-resources' SHORTNAMES)
	verbs      string // api-resources -o wide's VERBS
	categories string // and CATEGORIES
}

// allVerbs are the verbs of every resource DaemonLab serves but namespaces, which have no
// deletecollection.
const allVerbs = "create,delete,deletecollection,get,list,patch,update,watch"

var resources = []resource{
	{kindOf("Pod"), []string{"po", "pod", "pods"}, tableOf(podColumns), "po", allVerbs, "all"},
	{kindOf("Node"), []string{"no", "node", "nodes"}, tableOf(nodeColumns), "no", allVerbs, ""},
	{kindOf("ServiceAccount"), []string{"sa", "serviceaccount", "serviceaccounts"}, tableOf(serviceAccountColumns), "sa", allVerbs, ""},
	{kindOf("Service"), []string{"svc", "service", "services"}, tableOf(serviceColumns), "svc", allVerbs, "all"},
	{kindOf("Namespace"), []string{"ns", "namespace", "namespaces"}, tableOf(namespaceColumns), "ns", "create,delete,get,list,patch,update,watch", ""},
	{kindOf("DaemonSet"), []string{"ds", "daemonset", "daemonsets"}, tableOf(daemonSetColumns), "ds", allVerbs, "all"},
	{kindOf("Deployment"), []string{"deploy", "deployment", "deployments"}, tableOf(deploymentColumns), "deploy", allVerbs, "all"},
	{kindOf("ReplicaSet"), []string{"rs", "replicaset", "replicasets"}, tableOf(replicaSetColumns), "rs", allVerbs, "all"},
	{kindOf("Event"), []string{"ev", "event", "events"}, tableOf(eventColumns), "ev", allVerbs, ""},
	{kindOf("ControllerRevision"), []string{"controllerrevision", "controllerrevisions"}, tableOf(controllerRevisionColumns), "", allVerbs, ""},
	{kindOf("PodDisruptionBudget"), []string{"pdb", "poddisruptionbudget", "poddisruptionbudgets"}, tableOf(pdbColumns), "pdb", allVerbs, ""},
	{kindOf("PriorityClass"), []string{"pc", "priorityclass", "priorityclasses"}, tableOf(priorityClassColumns), "pc", allVerbs, ""},
}

func kindOf(kind string) api.Kind {
	for _, k := range api.Kinds {
		if k.Kind == kind {
			return k
		}
	}
	panic("unknown kind " + kind)
}

func tableOf[T api.Object](cols []column[T]) func([]api.Object, tableOptions, time.Time) [][]string {
	return func(objs []api.Object, opts tableOptions, now time.Time) [][]string {
		typed := make([]T, len(objs))
		for i, o := range objs {
			typed[i] = o.(T)
		}
		return tableRows(typed, cols, opts, now)
	}
}

// findResource resolves what a user typed: an alias, the plural with its group
// ("daemonsets.apps"), case-insensitively.
func findResource(name string) (resource, bool) {
	name = strings.ToLower(name)
	for _, r := range resources {
		if name == r.kind.GroupResource() || name == strings.ToLower(r.kind.Kind)+"."+r.kind.Group {
			return r, true
		}
		for _, a := range r.aliases {
			if name == a {
				return r, true
			}
		}
	}
	return resource{}, false
}

var getFlags = []FlagSpec{
	{Name: "namespace", Shorthand: 'n'},
	{Name: "all-namespaces", Shorthand: 'A', Boolean: true},
	{Name: "output", Shorthand: 'o'},
	{Name: "selector", Shorthand: 'l'},
	{Name: "field-selector"},
	{Name: "show-labels", Boolean: true},
	{Name: "label-columns", Shorthand: 'L'},
	{Name: "sort-by"},
	{Name: "template"},
	{Name: "allow-missing-template-keys", Boolean: true},
	{Name: "watch", Shorthand: 'w', Boolean: true},
	{Name: "watch-only", Boolean: true},
	{Name: "no-headers", Boolean: true},
}

// get runs `kubectl get TYPE[,TYPE…] [NAME…]` and `kubectl get TYPE/NAME…`.
func get(s *sim.Sim, args []string) Result {
	f, err := ParseFlags("get", args, getFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	if len(f.Args) == 0 {
		return Result{Err: "You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples", Code: 1}
	}
	typ, names := typeAndNames(f.Args)
	var rs []resource
	for _, t := range strings.Split(typ, ",") {
		if t == "all" { // the "all" category, in discovery order
			for _, r := range resources {
				if r.categories == "all" {
					rs = append(rs, r)
				}
			}
			continue
		}
		r, ok := findResource(t)
		if !ok {
			return Result{Err: fmt.Sprintf("error: the server doesn't have a resource type %q", t), Code: 1}
		}
		rs = append(rs, r)
	}
	q := query{namespace: orDefault(f.Get("namespace"), "default"), all: f.IsTrue("all-namespaces") && len(names) == 0, names: names}
	out, err := parseOutput(f)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	// kubectl prints a lone object only when the request names exactly one (TYPE NAME or TYPE/NAME).
	single := len(rs) == 1 && len(names) == 1
	if bad := q.selectors(f, rs[0]); bad != nil {
		return *bad
	}
	if f.IsTrue("watch") || f.IsTrue("watch-only") {
		return watch(s, f, q, rs, out)
	}
	var b strings.Builder
	var errs []string
	found := false
	var items []any
	for _, r := range rs {
		objs, missing := q.find(s, r)
		errs = append(errs, missing...)
		if len(objs) == 0 {
			continue
		}
		if out.generic() {
			for _, o := range objs {
				items = append(items, structured(o, r.kind))
			}
			continue
		}
		if f.Has("sort-by") {
			if err := sortItems(f.Get("sort-by"), len(objs), func(i int) map[string]any { return structured(objs[i], r.kind) },
				func(i, j int) { objs[i], objs[j] = objs[j], objs[i] }); err != nil {
				return Result{Out: b.String(), Err: err.Error(), Code: 1}
			}
		}
		opts := tableOptions{wide: out.name == "wide", allNamespaces: q.all && r.kind.Namespaced, showLabels: f.IsTrue("show-labels"), labelColumns: labelColumns(f)}
		if len(rs) > 1 {
			opts.namePrefix = resourceName(r.kind) + "/"
		}
		switch {
		case out.name == "name":
			for _, o := range objs {
				fmt.Fprintf(&b, "%s/%s\n", resourceName(r.kind), o.GetObjectMeta().Name)
			}
		case found && !out.noHeaders: // a blank line before each further table's header
			b.WriteString("\n")
			fallthrough
		default:
			writeTable(&b, shownRows(r.rows(objs, opts, s.C.Now()), out.noHeaders))
		}
		found = true
	}
	if out.generic() && !(single && len(errs) > 0) {
		if err := printGenericAnswer(&b, items, out, single, f); err != nil {
			return Result{Out: b.String(), Err: err.Error(), Code: 1}
		}
	} else if !found && len(names) == 0 {
		return Result{Err: noResources(rs[0], q.namespace, q.all && len(rs) == 1)}
	}
	res := Result{Out: b.String(), Err: strings.Join(errs, "\n")}
	if len(errs) > 0 {
		res.Code = 1
	}
	return res
}

// printGenericAnswer prints what a get found in a generic format: the lone object of a single
// request, otherwise a List of everything, sorted as a whole by --sort-by.
func printGenericAnswer(b *strings.Builder, items []any, out outputFormat, single bool, f Flags) error {
	if single && len(items) == 1 {
		return printGeneric(b, items[0].(map[string]any), out)
	}
	if f.Has("sort-by") {
		if err := sortItems(f.Get("sort-by"), len(items), func(i int) map[string]any { return items[i].(map[string]any) },
			func(i, j int) { items[i], items[j] = items[j], items[i] }); err != nil {
			return err
		}
	}
	return printGeneric(b, listOf(items), out)
}

// labelColumns reads -L, a string slice: comma-separated, repeatable.
func labelColumns(f Flags) []string {
	var keys []string
	for _, v := range f.All("label-columns") {
		keys = append(keys, strings.Split(v, ",")...)
	}
	return keys
}

// typeAndNames splits TYPE NAME… or TYPE/NAME NAME… into the type and the names.
func typeAndNames(args []string) (string, []string) {
	typ, names := args[0], args[1:]
	if t, n, ok := strings.Cut(typ, "/"); ok {
		return t, append([]string{n}, names...)
	}
	return typ, names
}

// query is what a get asks for.
type query struct {
	namespace string
	all       bool
	names     []string
	sel       api.Selector
	fields    api.FieldSelector
}

// selectors reads -l and --field-selector. kubectl sends them to the API server, which parses
// them and refuses a bad one or a field the kind does not offer; names and selectors exclude
// each other.
func (q *query) selectors(f Flags, r resource) *Result {
	q.sel = api.Everything()
	if !f.Has("selector") && !f.Has("field-selector") {
		return nil
	}
	if len(q.names) > 0 {
		return &Result{Err: "error: name cannot be provided when a selector is specified", Code: 1}
	}
	var err error
	if q.sel, err = api.ParseSelector(f.Get("selector")); err == nil {
		if q.fields, err = api.ParseFieldSelector(f.Get("field-selector")); err == nil {
			err = checkFieldSelector(r.kind, q.fields)
		}
	}
	if err != nil {
		return &Result{Err: fmt.Sprintf("Error from server (BadRequest): Unable to find \"%s/%s, Resource=%s\" that match label selector %q, field selector %q: %v",
			r.kind.Group, r.kind.Version, r.kind.Resource, f.Get("selector"), f.Get("field-selector"), err), Code: 1}
	}
	return nil
}

// find returns the objects of one resource type the query selects, and kubectl's NotFound
// errors for named objects that do not exist.
func (q query) find(s *sim.Sim, r resource) ([]api.Object, []string) {
	var objs []api.Object
	var errs []string
	if len(q.names) > 0 {
		for _, name := range q.names {
			key := cluster.Key{Name: name}
			if r.kind.Namespaced {
				key.Namespace = q.namespace
			}
			if o := s.C.Get(r.kind.Kind, key); o != nil {
				objs = append(objs, o)
			} else {
				errs = append(errs, fmt.Sprintf("Error from server (NotFound): %s %q not found", r.kind.GroupResource(), name))
			}
		}
		return objs, errs
	}
	for _, o := range s.C.ListKind(r.kind.Kind) {
		if (q.all || !r.kind.Namespaced || o.GetObjectMeta().Namespace == q.namespace) && q.sel.Matches(o.GetObjectMeta().Labels) && q.fields.Matches(selectableFields(o)) {
			objs = append(objs, o)
		}
	}
	return objs, nil
}

// noResources is what kubectl says when a list is empty (on standard error).
func noResources(r resource, namespace string, all bool) string {
	if r.kind.Namespaced && !all {
		return fmt.Sprintf("No resources found in %s namespace.", namespace)
	}
	return "No resources found"
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}
