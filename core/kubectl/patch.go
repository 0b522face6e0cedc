package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/openapi"
	"daemonlab/core/patch"
	"daemonlab/core/sim"
)

var patchFlags = slices.Concat([]FlagSpec{{Name: "patch", Shorthand: 'p'}, {Name: "type"}, {Name: "patch-file"}, {Name: "subresource"}}, dryRunFlags)

// patchCommand is kubectl patch TYPE NAME -p PATCH (pkg/cmd/patch):
//
//  1. The patch is YAML or JSON (kubectl converts it to JSON first); --type is strategic (the
//     default), merge (RFC 7386) or json (RFC 6902).
//  2. The API server applies it to the object as JSON, decodes the result strictly, keeps what
//     it owns (status, uid, creation time), validates it as an update and stores it; the
//     controllers then act on it.
//  3. Each object prints "patched", or "patched (no change)" when nothing changed; --dry-run
//     and -o behave as for the other commands.
func patchCommand(s *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("patch", args, patchFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	typ := orDefault(f.Get("type"), "strategic")
	switch {
	case f.Has("patch-file"):
		return Result{Err: "error: DaemonLab has no files: give the patch with -p", Code: 1}
	case f.Has("subresource"):
		return Result{Err: "error: DaemonLab's kubectl patch does not support --subresource yet", Code: 1}
	case !f.Has("patch"):
		return Result{Err: "error: must specify --patch or --patch-file containing the contents of the patch", Code: 1}
	case typ != "strategic" && typ != "merge" && typ != "json":
		return Result{Err: fmt.Sprintf("error: --type must be one of [json merge strategic], not %q", typ), Code: 1}
	}
	dry, bad := parseDryRun(f)
	if bad != nil {
		return *bad
	}
	p, err := api.YAMLToJSON([]byte(f.Get("patch")))
	if err != nil {
		return Result{Err: fmt.Sprintf("error: unable to parse %q: %v", f.Get("patch"), err), Code: 1}
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
		next, msg := applyPatch(t, typ, p)
		if msg != "" {
			return Result{Out: out.String(), Err: msg, Code: 1}
		}
		keepServerFields(next, t.obj)
		if errs := append(api.Validate(next), validateUpdate(next, t.obj)...); len(errs) > 0 {
			return Result{Out: out.String(), Err: invalidMessage(t.kind.Kind, t.name, errs), Code: 1}
		}
		didPatch := changed(next, t.obj)
		if didPatch && dry == "" {
			_ = s.C.Update(next)
			s.Settle()
			next = s.C.Get(t.kind.Kind, keyOf(next, t.kind))
		}
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
			suffix := map[dryRun]string{"client": " (dry run)", "server": " (server dry run)"}[dry]
			fmt.Fprintf(&out, "%s/%s %s%s\n", resourceName(t.kind), t.name, verb, suffix)
		}
	}
	return Result{Out: out.String()}
}

// applyPatch applies a patch of the given type to an object as the API server does, and decodes
// the result; it returns kubectl's error text if the server refuses.
func applyPatch(t target, typ string, p any) (api.Object, string) {
	original := structured(t.obj, t.kind)
	var result any
	switch typ {
	case "strategic":
		pm, ok := p.(map[string]any)
		if !ok {
			return nil, fmt.Sprintf("Error from server (BadRequest): json: cannot unmarshal %s into Go value of type map[string]interface {}", jsonKindOf(p))
		}
		merged, err := patch.Strategic(original, pm, openapi.Document(t.kind), openapi.Root(t.kind))
		if err != nil {
			return nil, "Error from server (BadRequest): " + err.Error()
		}
		result = merged
	case "merge":
		result = patch.Merge(original, p)
	case "json":
		patched, err := patch.JSON(original, p)
		if err != nil {
			return nil, "Error from server (UnprocessableEntity): " + err.Error()
		}
		result = patched
	}
	data, err := json.Marshal(result)
	if err != nil {
		return nil, "Error from server (BadRequest): " + err.Error()
	}
	manifests, err := api.Decode(data)
	var de *api.DecodeError
	switch {
	case errors.As(err, &de):
		return nil, "Error from server (BadRequest): " + de.Error()
	case err != nil:
		return nil, "Error from server (BadRequest): " + err.Error()
	case len(manifests) != 1 || manifests[0].Kind.Kind != t.kind.Kind:
		return nil, fmt.Sprintf("Error from server (BadRequest): the patch changes the object's kind; %s %q stays a %s", t.kind.GroupResource(), t.name, t.kind.Kind)
	}
	obj := manifests[0].Object
	m, om := obj.GetObjectMeta(), t.obj.GetObjectMeta()
	if m.Name != om.Name || m.Namespace != om.Namespace {
		return nil, fmt.Sprintf("Error from server (BadRequest): the name of the object (%s) does not match the name on the URL (%s)", m.Name, om.Name)
	}
	m.UID, m.ResourceVersion, m.CreationTimestamp = om.UID, om.ResourceVersion, om.CreationTimestamp
	return obj, ""
}

// jsonKindOf names a JSON value's type as encoding/json's errors do.
func jsonKindOf(v any) string {
	switch v.(type) {
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	return "number"
}
