package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/openapi"
	"daemonlab/core/patch"
	"daemonlab/core/sim"
)

// Edit is a `kubectl edit` under way: the objects it opened, the text kubectl first wrote to its
// temporary file, and the text the editor shows now. It is plain data, so that a page can keep
// it with a session; BeginEdit starts one and Save finishes it (k8s.io/kubectl
// pkg/cmd/util/editor/editoptions.go, EditOptions.Run's editFn).
type Edit struct {
	Namespace string       `json:"namespace"` // the command's namespace (RequireNamespace)
	Objects   []EditObject `json:"objects"`
	Original  string       `json:"original"`         // the header and the objects, as first shown
	Text      string       `json:"text"`             // what the editor shows: Original, or reopened
	Failed    string       `json:"failed,omitempty"` // the text of the last save that reopened (containsError)
}

// EditObject is one object an edit opened: its resource (as kubectl's mapping names it, to find
// its kind again), namespace, name and uid (edited objects are matched to the originals by uid,
// as visitToPatch matches them).
type EditObject struct {
	Resource  string `json:"resource"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	UID       string `json:"uid"`
}

// Title is how the page names the edit's tab: "edit: daemonset/x", or "edit: 3 daemonsets".
func (e *Edit) Title() string {
	r, _ := findResource(e.Objects[0].Resource)
	kind := strings.ToLower(r.kind.Kind)
	if len(e.Objects) == 1 {
		return "edit: " + kind + "/" + e.Objects[0].Name
	}
	return fmt.Sprintf("edit: %d %ss", len(e.Objects), kind)
}

// editHeader is the comment kubectl writes above the objects (editoptions.go editHeader.writeTo,
// NormalEditMode).
const editHeader = "# Please edit the object below. Lines beginning with a '#' will be ignored,\n" +
	"# and an empty file will abort the edit. If an error occurs while saving this file will be\n" +
	"# reopened with the relevant failures.\n#\n"

var editFlags = append([]FlagSpec{{Name: "namespace", Shorthand: 'n'}, {Name: "output", Shorthand: 'o'}}, selectorFlags...)

// BeginEdit opens `kubectl edit TYPE NAME…` or `TYPE/NAME` (-n, -l; TYPE alone opens every
// object of the type in the namespace) as kubectl does:
//
//  1. The objects are found as kubectl get finds them (NotFound, an unknown type); none found
//     is "edit cancelled, no objects found".
//  2. The text is the header comment, then the object as `kubectl get -o yaml` prints it, or,
//     for several objects, a List of them (apiVersion v1, kind List, metadata {}), as editFn
//     builds it.
//
// -f, --output-patch, --windows-line-endings and --save-config are not modelled; -o yaml is the
// only output (kubectl's default).
func BeginEdit(s *sim.Sim, args []string) (*Edit, *Result) {
	f, err := ParseFlags("edit", args, editFlags)
	if err != nil {
		return nil, &Result{Err: err.Error(), Code: 1}
	}
	if o := f.Get("output"); o != "" && o != "yaml" {
		return nil, &Result{Err: fmt.Sprintf("error: DaemonLab's kubectl edit shows objects as YAML only, not %q", o), Code: 1}
	}
	if len(f.Args) == 0 {
		return nil, &Result{Err: "error: must specify one of -f and -k\n\nerror: you must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'", Code: 1}
	}
	namespace := orDefault(f.Get("namespace"), "default")
	typ, names := typeAndNames(f.Args)
	r, ok := findResource(typ)
	if !ok {
		return nil, &Result{Err: fmt.Sprintf("error: the server doesn't have a resource type %q", typ), Code: 1}
	}
	q := query{namespace: namespace, names: names}
	if bad := q.selectors(f, r); bad != nil {
		return nil, bad
	}
	objs, errs := q.find(s, r)
	if len(errs) > 0 {
		return nil, &Result{Err: strings.Join(errs, "\n"), Code: 1}
	}
	if len(objs) == 0 {
		return nil, &Result{Err: "error: edit cancelled, no objects found", Code: 1}
	}
	e := &Edit{Namespace: namespace}
	var items []any
	for _, o := range objs {
		m := o.GetObjectMeta()
		e.Objects = append(e.Objects, EditObject{Resource: r.kind.GroupResource(), Namespace: m.Namespace, Name: m.Name, UID: m.UID})
		items = append(items, structured(o, r.kind))
	}
	var v any = items[0]
	if len(items) > 1 {
		v = map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{}, "items": items}
	}
	var b strings.Builder
	b.WriteString(editHeader)
	if err := printStructured(&b, v, "yaml"); err != nil {
		return nil, &Result{Err: err.Error(), Code: 1}
	}
	e.Original, e.Text = b.String(), b.String()
	return e, nil
}

// editReason is one reason the file reopens: a head and its causes (editoptions.go editReason).
type editReason struct {
	head  string
	other []string
}

// reopen writes the text the editor reopens with: the header, each reason ("# head:" and
// "# * cause" lines, "#" after each), then the learner's text without its comments
// (editHeader.writeTo, then cmdutil.ManualStrip of the edited file).
func reopen(reasons []editReason, edited string) string {
	var b strings.Builder
	b.WriteString(editHeader)
	for _, r := range reasons {
		colon := ""
		if len(r.other) > 0 {
			colon = ":"
		}
		fmt.Fprintf(&b, "# %s%s\n", hashOnLineBreak(r.head), colon)
		for _, o := range r.other {
			fmt.Fprintf(&b, "# * %s\n", hashOnLineBreak(o))
		}
		b.WriteString("#\n")
	}
	b.WriteString(manualStrip(edited))
	return b.String()
}

// hashOnLineBreak puts "# " after each line break not followed by '#' (editoptions.go
// hashOnLineBreak).
func hashOnLineBreak(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if s[i] == '\n' && i+1 < len(s) && s[i+1] != '#' {
			b.WriteString("# ")
		}
	}
	return b.String()
}

// manualStrip drops the comment lines, those whose first non-blank is '#' but not "#!"
// (cmdutil.ManualStrip).
func manualStrip(text string) string {
	lines := strings.Split(text, "\n")
	var kept []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!") {
			continue
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, "\n")
}

// stripComments is the text compared for "no changes": its JSON when it reads as YAML (comments
// and layout vanish), else its lines without comments (cmdutil.StripComments).
func stripComments(text string) any {
	if v, err := api.YAMLToJSON([]byte(text)); err == nil {
		return v
	}
	return manualStrip(text)
}

// hasLines reports whether a line has something other than blanks or a comment
// (editoptions.go hasLines).
func hasLines(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); t != "" && t[0] != '#' {
			return true
		}
	}
	return false
}

// Save finishes the edit with the editor's text, as one pass of editFn's loop does, in its order
// (done reports whether the edit is over; when it is not, e.Text is what the editor shows next):
//
//  1. After a save that reopened, the same text again (comments aside): "Edit cancelled, no
//     valid changes were saved.", an error.
//  2. Client-side validation is the server's (kubectl v1.37 sends --validate=strict as field
//     validation: a field of the wrong type or unknown is the server's refusal, step 7).
//  3. The text equal to the original (comments aside): "Edit cancelled, no changes made.".
//  4. No line but blanks and comments: "Edit cancelled, saved file was empty.".
//  5. A text that does not parse reopens with "The edited file had a syntax error: …".
//  6. An object whose namespace is not the command's is refused (resource.RequireNamespace).
//  7. Each object (matched to its original by uid) is patched with the two-way strategic merge
//     patch from the original to the edited (strategicpatch.CreateTwoWayMergePatch), through
//     the API server's Patch as kubectl patch sends it: an unchanged object prints "skipped", a
//     patched one "edited"; a patch that would change apiVersion, kind or name is refused
//     ("At least one of apiVersion, kind and name was changed"); an Invalid refusal reopens the
//     file with `<resource> "<name>" was not valid:` and its causes, any other ends the edit
//     (visitToPatch, editResults.addError).
//
// Where kubectl ends the edit with an error and keeps the learner's text in its temporary file
// (steps 6 and 7, "A copy of your changes has been stored to …"), the edit stays open here with
// the text as it was saved, so that nothing is lost; the learner saves again or closes it.
func (e *Edit) Save(s *sim.Sim, edited string) (r Result, done bool) {
	if e.Failed != "" && reflect.DeepEqual(stripComments(e.Failed), stripComments(edited)) {
		return Result{Err: "error: Edit cancelled, no valid changes were saved.", Code: 1}, true
	}
	if reflect.DeepEqual(stripComments(e.Original), stripComments(edited)) {
		return Result{Err: "Edit cancelled, no changes made."}, true
	}
	if !hasLines(edited) {
		return Result{Err: "Edit cancelled, saved file was empty."}, true
	}
	objs, err := editedObjects(edited)
	if err != nil {
		e.Failed, e.Text = edited, reopen([]editReason{{head: "The edited file had a syntax error: " + err.Error()}}, edited)
		return Result{}, false
	}
	var out interleaved
	var reasons []editReason
	for _, o := range objs {
		if msg := e.requireNamespace(o); msg != "" {
			fmt.Fprintln(out.to(true), msg)
			e.Text = edited
			return out.result(1), false
		}
	}
	for _, o := range objs {
		msg, reason, ok := e.patchOne(s, o, out.to(false))
		switch {
		case reason != nil:
			fmt.Fprintln(out.to(true), msg)
			reasons = append(reasons, *reason)
		case !ok:
			fmt.Fprintln(out.to(true), msg)
			e.Text = edited
			return out.result(1), false
		}
	}
	if len(reasons) == 0 {
		return out.result(0), true
	}
	e.Failed, e.Text = edited, reopen(reasons, edited)
	return out.result(1), false
}

// Cancel is the editor closed without saving: the file kubectl reads back is the one it wrote,
// "Edit cancelled, no changes made." (or, after a save that reopened, the text saved then,
// "Edit cancelled, no valid changes were saved.").
func (e *Edit) Cancel() Result {
	if e.Failed != "" {
		return Result{Err: "error: Edit cancelled, no valid changes were saved.", Code: 1}
	}
	return Result{Err: "Edit cancelled, no changes made."}
}

// editedObjects reads the saved text as kubectl's builder reads it (unstructured, "edited-file"):
// one object, or the items of a List.
func editedObjects(text string) ([]map[string]any, error) {
	v, err := api.YAMLToJSON([]byte(text))
	if err != nil {
		r := ClientError(err, "edited-file")
		return nil, errors.New(strings.TrimPrefix(r.Err, "error: "))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("error parsing edited-file: json: cannot unmarshal %s into Go value of type map[string]interface {}", api.JSONKind(v))
	}
	for _, field := range [][2]string{{"kind", "Kind"}, {"apiVersion", "apiVersion"}} {
		if s, _ := m[field[0]].(string); s == "" {
			data, _ := json.Marshal(m) // JSON values always encode
			return nil, fmt.Errorf("unable to decode \"edited-file\": Object '%s' is missing in '%s'", field[1], data)
		}
	}
	if m["kind"] != "List" && !strings.HasSuffix(m["kind"].(string), "List") {
		return []map[string]any{m}, nil
	}
	items, _ := m["items"].([]any)
	var out []map[string]any
	for _, it := range items {
		if im, ok := it.(map[string]any); ok {
			out = append(out, im)
		}
	}
	return out, nil
}

// metaOf is an edited object's metadata field, as a string.
func metaOf(o map[string]any, field string) string {
	md, _ := o["metadata"].(map[string]any)
	s, _ := md[field].(string)
	return s
}

// requireNamespace is resource.RequireNamespace: a namespaced object keeps the command's
// namespace.
func (e *Edit) requireNamespace(o map[string]any) string {
	orig := e.original(o)
	if orig == nil || orig.Namespace == "" {
		return ""
	}
	if ns := metaOf(o, "namespace"); ns != "" && ns != e.Namespace {
		return fmt.Sprintf("error: the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation.", ns, e.Namespace, ns)
	}
	return ""
}

// original is the object an edited one was opened as, by uid.
func (e *Edit) original(o map[string]any) *EditObject {
	uid := metaOf(o, "uid")
	for i := range e.Objects {
		if e.Objects[i].UID == uid {
			return &e.Objects[i]
		}
	}
	return nil
}

// patchOne is visitToPatch for one edited object: it prints "skipped" or "edited" to out, or
// returns the error kubectl prints and, for an Invalid refusal, the reason the file reopens
// with. ok is false when the edit ends.
func (e *Edit) patchOne(s *sim.Sim, o map[string]any, out interface{ Write([]byte) (int, error) }) (msg string, reason *editReason, ok bool) {
	orig := e.original(o)
	if orig == nil {
		return fmt.Sprintf("error: no original object found for %s %q", o["kind"], metaOf(o, "name")), nil, false
	}
	r, _ := findResource(orig.Resource)
	original := e.originalJSON(orig)
	if reflect.DeepEqual(original, o) {
		fmt.Fprintf(out, "%s/%s skipped\n", resourceName(r.kind), orig.Name)
		return "", nil, true
	}
	// a two-way patch is the three-way one whose live object is the original
	p, err := patch.ThreeWay(original, o, original, openapi.Document(r.kind), openapi.Root(r.kind))
	if err != nil {
		return "error: " + err.Error(), nil, false
	}
	md, _ := p["metadata"].(map[string]any)
	_, nameChanged := md["name"]
	_, managedChanged := md["managedFields"]
	if _, ok := p["apiVersion"]; ok || nameChanged || managedChanged || p["kind"] != nil {
		return "error: At least one of apiVersion, kind and name was changed", nil, false
	}
	key := cluster.Key{Namespace: orig.Namespace, Name: orig.Name}
	if _, err := apiserver.Patch(s.C, r.kind, key, apiserver.StrategicMergePatch, p, apiserver.Options{}); err != nil {
		res := r.kind.GroupResource()
		var se *apiserver.StatusError
		switch {
		case errors.As(err, &se) && se.Reason == apiserver.ReasonInvalid:
			reason := &editReason{head: fmt.Sprintf("%s %q was not valid", res, orig.Name)}
			for _, c := range se.Details.Causes {
				reason.other = append(reason.other, c.Error())
			}
			return fmt.Sprintf("error: %s %q is invalid", res, orig.Name), reason, true
		case errors.As(err, &se) && se.Reason == apiserver.ReasonNotFound:
			return fmt.Sprintf("error: %s %q could not be found on the server", res, orig.Name), nil, false
		}
		return fmt.Sprintf("error: %s %q could not be patched: %s", res, orig.Name, err.Error()), nil, false
	}
	fmt.Fprintf(out, "%s/%s edited\n", resourceName(r.kind), orig.Name)
	return "", nil, true
}

// originalJSON is the original object's JSON, read back from the text the edit first showed.
func (e *Edit) originalJSON(orig *EditObject) map[string]any {
	objs, _ := editedObjects(e.Original) // the original always reads: BeginEdit wrote it
	for _, o := range objs {
		if metaOf(o, "uid") == orig.UID {
			return o
		}
	}
	return map[string]any{}
}

// editCommand is `kubectl edit` where there is no editor (the terminal front end, scenarios):
// the objects are found as BeginEdit finds them, and the answer says how to change them
// without one, exit code 1. The page opens the edit in an editor tab instead (BeginEdit).
func editCommand(s *sim.Sim, args []string, _ string) Result {
	e, bad := BeginEdit(s, args)
	if bad != nil {
		return *bad
	}
	o := e.Objects[0]
	r, _ := findResource(o.Resource)
	kind, file := strings.ToLower(r.kind.Kind), o.Name+".yaml"
	ns := ""
	if o.Namespace != "" && o.Namespace != "default" {
		ns = " -n " + o.Namespace
	}
	return Result{Err: fmt.Sprintf("error: DaemonLab's terminal has no text editor for kubectl edit; change the object through a file instead:\n"+
		"  kubectl get %s %s%s -o yaml > %s\n  cat > %s <<EOF   (the changed object)\n  …\n  EOF\n  kubectl apply -f %s\n"+
		"or change fields with kubectl patch; on the playground page, kubectl edit opens the object in an editor tab", kind, o.Name, ns, file, file, file), Code: 1}
}

// Valid reports whether an edit kept with a session can be saved: it opened objects of served
// resources, and its original text reads (a forged session is refused, see package playground).
func (e *Edit) Valid() bool {
	if len(e.Objects) == 0 {
		return false
	}
	for _, o := range e.Objects {
		if _, ok := findResource(o.Resource); !ok {
			return false
		}
	}
	objs, err := editedObjects(e.Original)
	return err == nil && len(objs) == len(e.Objects)
}
