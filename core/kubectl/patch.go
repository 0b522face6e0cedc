package kubectl

import (
	"fmt"
	"slices"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

var patchFlags = slices.Concat([]FlagSpec{{Name: "patch", Shorthand: 'p'}, {Name: "type"}, {Name: "patch-file"}, {Name: "subresource"}}, dryRunFlags)

// patchCommand is kubectl patch TYPE NAME -p PATCH (pkg/cmd/patch):
//
//  1. The patch is YAML or JSON (kubectl converts it to JSON first); --type is strategic (the
//     default), merge (RFC 7386) or json (RFC 6902).
//  2. The API server applies it (apiserver.Patch); the controllers then act on the result.
//  3. Each object prints "patched", or "patched (no change)" when nothing changed; --dry-run
//     and -o behave as for the other commands.
func patchCommand(s *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("patch", args, patchFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	typ := orDefault(f.Get("type"), "strategic")
	switch {
	case f.Has("patch") && f.Has("patch-file"):
		return Result{Err: "error: cannot specify --patch and --patch-file together", Code: 1}
	case f.Has("subresource"):
		return Result{Err: "error: DaemonLab's kubectl patch does not support --subresource yet", Code: 1}
	case !f.Has("patch") && !f.Has("patch-file"):
		return Result{Err: "error: must specify --patch or --patch-file containing the contents of the patch", Code: 1}
	case typ != "strategic" && typ != "merge" && typ != "json":
		return Result{Err: fmt.Sprintf("error: --type must be one of [json merge strategic], not %q", typ), Code: 1}
	}
	dry, bad := parseDryRun(f)
	if bad != nil {
		return *bad
	}
	text := f.Get("patch")
	if file := f.Get("patch-file"); file != "" {
		data, err := s.C.ReadFile(file)
		if err != nil {
			msg := err.Error() // as Go's os.ReadFile words it
			return Result{Err: fmt.Sprintf("error: unable to read patch file: open %s: %s%s", file, strings.ToLower(msg[:1]), msg[1:]), Code: 1}
		}
		text = data
	}
	p, err := api.YAMLToJSON([]byte(text))
	if err != nil {
		return Result{Err: fmt.Sprintf("error: unable to parse %q: %v", text, err), Code: 1}
	}
	if len(f.Args) == 0 {
		return Result{Err: "error: resource(s) were provided, but no name was specified", Code: 1}
	}
	targets, res := namedTargets(s, f, f.Args)
	if res != nil {
		return *res
	}
	var out strings.Builder
	for _, t := range targets {
		next, err := apiserver.Patch(s.C, t.kind, cluster.KeyOf(t.obj), apiserver.PatchType(typ), p, apiserver.Options{DryRun: dry != ""})
		if err != nil {
			return Result{Out: out.String(), Err: ServerError(err), Code: 1}
		}
		didPatch := next != t.obj // a patch that changes nothing gives back the stored object
		switch f.Get("output") {
		case "yaml", "json":
			if err := printStructured(&out, structured(next, t.kind), f.Get("output")); err != nil {
				return Result{Out: out.String(), Err: err.Error(), Code: 1}
			}
		case "name":
			fmt.Fprintf(&out, "%s/%s\n", resourceName(t.kind), t.name)
		default:
			verb := "patched"
			if !didPatch {
				verb = "patched (no change)"
			}
			fmt.Fprintf(&out, "%s/%s %s%s\n", resourceName(t.kind), t.name, verb, dry.suffix())
		}
	}
	return Result{Out: out.String()}
}
