package kubectl

import (
	"fmt"
	"strconv"
	"strings"

	"daemonlab/core/explain"
	"daemonlab/core/openapi"
	"daemonlab/core/sim"
)

// WaitingDocs is what kubectl explain says in the page until openapi.json has arrived
// (openapi.Described); the page says it in its own language.
const WaitingDocs = "loading… kubectl explain's documents are still downloading; run it again in a moment"

var explainFlags = []FlagSpec{{Name: "recursive", Boolean: true}, {Name: "max-depth"}, {Name: "api-version"}, {Name: "output", Shorthand: 'o'}}

// explainCommand is kubectl explain (pkg/cmd/explain):
//
//  1. One argument, RESOURCE[.FIELD…]; the resource may be named as get names it, and
//     "daemonsets.apps.spec" is read with its group.
//  2. --recursive lists every field below, --max-depth limits it; --api-version must be the
//     version DaemonLab serves.
//  3. The text is kubectl v1.37's plaintext template over the API server's OpenAPI v3 documents
//     (package explain).
//  4. A valid command whose documents the page has not downloaded yet says so (WaitingDocs)
//     and fails: a learner runs it again, when it prints what it would have printed, in the
//     order they typed it (a command run later by itself would print among later commands).
func explainCommand(_ *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("explain", args, explainFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	depth := 0
	if f.Has("max-depth") {
		if depth, err = strconv.Atoi(f.Get("max-depth")); err != nil {
			return Result{Err: fmt.Sprintf("error: invalid argument %q for \"--max-depth\" flag: strconv.ParseInt: parsing %q: invalid syntax", f.Get("max-depth"), f.Get("max-depth")), Code: 1}
		}
	}
	switch {
	case len(f.Args) == 0:
		return Result{Err: "error: You must specify the type of resource to explain. Use \"kubectl api-resources\" for a complete list of supported resources.\n", Code: 1}
	case len(f.Args) > 1:
		return Result{Err: "error: We accept only this format: explain RESOURCE\n", Code: 1}
	case depth > 0 && !f.IsTrue("recursive"):
		return Result{Err: "error: --max-depth requires --recursive", Code: 1}
	case depth < 0:
		return Result{Err: "error: --max-depth must be non-negative", Code: 1}
	case f.Has("output") && f.Get("output") != "plaintext":
		return Result{Err: fmt.Sprintf("error: DaemonLab's kubectl explain prints the default plaintext output only, not %q", f.Get("output")), Code: 1}
	}
	parts := strings.Split(f.Args[0], ".")
	r, ok := findResource(parts[0])
	if !ok {
		return Result{Err: fmt.Sprintf("error: the server doesn't have a resource type %q", parts[0]), Code: 1}
	}
	path := parts[1:]
	if full := r.kind.GroupResource(); strings.HasPrefix(f.Args[0], full+".") || f.Args[0] == full {
		path = strings.Split(strings.TrimPrefix(strings.TrimPrefix(f.Args[0], full), "."), ".")
		if path[0] == "" {
			path = nil
		}
	}
	for _, field := range path {
		if field == "" || strings.ContainsAny(field, "[]{}*?@") {
			return Result{Err: "error: invalid jsonpath syntax, all nodes must be field nodes", Code: 1}
		}
	}
	if v := f.Get("api-version"); v != "" && v != r.kind.APIVersion() {
		group, version, found := strings.Cut(v, "/")
		if !found {
			group, version = "", v
		}
		return Result{Err: fmt.Sprintf("error: couldn't find resource for \"%s/%s, Resource=%s\"", group, version, r.kind.Resource), Code: 1}
	}
	if !openapi.Described() {
		return Result{Err: WaitingDocs, Code: 1}
	}
	out, err := explain.Explain(r.kind, path, explain.Options{Recursive: f.IsTrue("recursive"), MaxDepth: depth})
	if err != nil {
		return Result{Err: "error: " + err.Error(), Code: 1}
	}
	return Result{Out: out}
}
