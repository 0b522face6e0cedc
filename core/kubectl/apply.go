// Package kubectl is kubectl v1.37 over DaemonLab's simulated cluster: the same commands, the
// same output and the same error messages. It is a client, as kubectl is: it reads the store,
// writes only through core/apiserver and words the API server's refusals; the controllers
// answer a command after it (the shell settles them), and the commands that watch (rollout
// status, get -w) let simulated time pass only through sim.Wait.
package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
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
	Stream   []Piece // Out and Err in the order written, for a command that interleaves them
}

// Piece is a stretch of a command's output: its standard output, or its standard error.
type Piece struct {
	Text string
	Err  bool
}

// Pieces are what a terminal shows of r, in order: its Stream when standard output and error
// interleave (kubectl drain's tries and retries), else Out, then Err.
func (r Result) Pieces() []Piece {
	if r.Stream != nil {
		return r.Stream
	}
	var ps []Piece
	for _, p := range []Piece{{r.Out, false}, {r.Err, true}} {
		if p.Text != "" {
			ps = append(ps, p)
		}
	}
	return ps
}

// interleaved is a command's standard output and error, kept apart and in the order written:
// each stretch is kept as where it starts and ends in its stream, so that writing n lines costs
// O(n), not a copy of the stretch so far for each line.
type interleaved struct {
	out, err strings.Builder
	pieces   []span
}

type span struct {
	isErr      bool
	start, end int
}

// to is standard output, or standard error if isErr, as a writer.
func (w *interleaved) to(isErr bool) io.Writer { return stream{w, isErr} }

type stream struct {
	w     *interleaved
	isErr bool
}

func (s stream) Write(b []byte) (int, error) {
	w := s.w
	to := &w.out
	if s.isErr {
		to = &w.err
	}
	start := to.Len()
	to.Write(b)
	if n := len(w.pieces); n > 0 && w.pieces[n-1].isErr == s.isErr {
		w.pieces[n-1].end = to.Len()
	} else {
		w.pieces = append(w.pieces, span{s.isErr, start, to.Len()})
	}
	return len(b), nil
}

// result is what was written, as a Result with the exit code.
func (w *interleaved) result(code int) Result {
	out, err := w.out.String(), w.err.String()
	var pieces []Piece
	for _, p := range w.pieces {
		text := out
		if p.isErr {
			text = err
		}
		pieces = append(pieces, Piece{text[p.start:p.end], p.isErr})
	}
	return Result{Out: out, Err: strings.TrimSuffix(err, "\n"), Code: code, Stream: pieces}
}

// Apply runs `kubectl apply -f <source>` with the given manifests, as kubectl does: a stream that
// does not parse stops everything; the objects read before a document that fails to decode, and
// every object of a List but its bad items, are each created or updated on their own, and what
// failed is reported after the others.
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

// apply sends the objects of data one by one, as kubectl apply's Run and create's RunCreate
// do:
//
//  1. An error reading the objects is reported first; the objects read before it are still
//     sent (the builder's Infos with ContinueOnError), unless the batch is atomic.
//  2. Each object is applied (applyOne); a warning is written when it is found, a failure
//     after all the others.
func apply(s *sim.Sim, data []byte, source, namespace string, mode applyMode) Result {
	manifests, err := api.Decode(data)
	var errs []string
	var problems []Problem
	if err != nil {
		r := ClientError(err, source)
		if mode.atomic || len(manifests) == 0 {
			r.Code = 1
			return r
		}
		errs, problems = append(errs, r.Err), r.Problems
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
	var w interleaved
	for _, m := range manifests {
		verb, msg, probs := applyOne(s.C, m, source, namespace, mode.create, w.to(true))
		if msg != "" {
			errs = append(errs, msg)
			problems = append(problems, probs...)
			continue
		}
		fmt.Fprintf(w.to(false), "%s/%s %s\n", resourceName(m.Kind), m.Object.GetObjectMeta().Name, verb)
	}
	if mode.atomic && len(errs) > 0 {
		s.C.Restore(before)
		return Result{Err: strings.Join(errs, "\n"), Code: 1, Problems: problems}
	}
	code := 0
	if len(errs) > 0 {
		fmt.Fprintln(w.to(true), strings.Join(errs, "\n"))
		code = 1
	}
	r := w.result(code)
	r.Problems = problems
	return r
}

// resourceName is how kubectl names a kind in its output: "daemonset.apps", "pod".
func resourceName(k api.Kind) string {
	if k.Group == "" {
		return strings.ToLower(k.Kind)
	}
	return strings.ToLower(k.Kind) + "." + k.Group
}

// ClientError words an error kubectl finds before it talks to the server.
func ClientError(err error, source string) Result {
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
	var items api.ItemErrors
	if errors.As(err, &items) {
		var r Result
		msgs := make([]string, len(items))
		for i, e := range items {
			one := ClientError(e, source)
			msgs[i] = one.Err
			r.Problems = append(r.Problems, one.Problems...)
		}
		r.Err = strings.Join(msgs, "\n")
		return r
	}
	var ie *api.ItemError
	var ue *api.UndecodableError
	switch {
	case errors.As(err, &ie):
		return Result{Err: "error: " + ie.Message, Problems: []Problem{{Line: ie.Line, Message: ie.Message}}}
	case errors.As(err, &ue):
		return Result{Err: fmt.Sprintf("error: unable to decode %q: %s", source, ue.Message), Problems: []Problem{{Line: ue.Line, Message: ue.Message}}}
	}
	var de *api.DecodeError
	if errors.As(err, &de) {
		return Result{Err: fmt.Sprintf("Error from server (BadRequest): error when creating %q: %s", source, de.Error()), Problems: de.Problems}
	}
	return Result{Err: "error: " + err.Error()}
}

// applyOne sends one manifest to the API server as kubectl apply (or create) does, and returns
// the verb kubectl prints, or its error text and the problems behind it:
//
//  1. A namespaced object without a namespace goes to the command's.
//  2. An object that does not exist (or any, for create) is created; apply keeps the manifest
//     in the last-applied annotation (resourceVersion included, as given). The object sent has
//     no resourceVersion: the resource helper clears it before a create (cli-runtime
//     pkg/resource/helper.go CreateWithOptions with modify, as apply and create call it), so a
//     saved `kubectl get -o yaml` creates what is missing, where the API server would refuse
//     the resourceVersion (see apiserver.Create).
//  3. One that exists is patched with apply's three-way strategic merge patch: "configured",
//     or "unchanged" when the patch changed nothing. If it has no last-applied annotation,
//     kubectl's warning goes to warn first (apply.go warningNoLastAppliedConfigAnnotation).
func applyOne(c *cluster.Cluster, m api.Manifest, source, namespace string, create bool, warn io.Writer) (verb, msg string, problems []Problem) {
	obj := m.Object
	meta := obj.GetObjectMeta()
	if m.Kind.Namespaced && meta.Namespace == "" {
		meta.Namespace = namespace
	}
	existing := c.Get(m.Kind.Kind, cluster.KeyOf(obj))
	if !create {
		if meta.Annotations == nil {
			meta.Annotations = map[string]string{}
		}
		meta.Annotations[api.LastAppliedAnnotation] = m.LastAppliedConfiguration(namespace)
	}
	if create || existing == nil {
		meta.ResourceVersion = ""
		if _, err := apiserver.Create(c, obj, apiserver.Options{}); err != nil {
			return "", applyError(err, "creating", source), problemsOf(m, err)
		}
		return "created", "", nil
	}
	if _, ok := existing.GetObjectMeta().Annotations[api.LastAppliedAnnotation]; !ok {
		fmt.Fprintf(warn, "Warning: resource %s/%s is missing the %s annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n", m.Kind.Resource, meta.Name, api.LastAppliedAnnotation)
	}
	p, err := threeWayPatch(m, existing, namespace)
	if err != nil {
		return "", "error: " + err.Error(), nil
	}
	stored, err := apiserver.Patch(c, m.Kind, cluster.KeyOf(obj), apiserver.StrategicMergePatch, p, apiserver.Options{})
	if err != nil {
		// the patcher words the refusal, then apply (cmd/apply/patcher.go Patch, apply.go)
		return "", applyError(withSource(err, "patching", source), patchDoing(p, m.Kind, meta), source), problemsOf(m, err)
	}
	if stored.GetObjectMeta().ResourceVersion == existing.GetObjectMeta().ResourceVersion {
		return "unchanged", "", nil
	}
	return "configured", "", nil
}

// threeWayPatch is the patch kubectl apply sends for an object that exists (client-side
// apply): the strategic merge patch from the configuration applied last time (the
// last-applied annotation) and the manifest to the live object (patch.ThreeWay). Fields the
// manifest never set stay as others made them (a scale, a label); fields the last
// configuration set and this one drops are removed.
func threeWayPatch(m api.Manifest, existing api.Object, namespace string) (map[string]any, error) {
	lastApplied := m.LastAppliedConfiguration(namespace)
	modified, err := api.YAMLToJSON([]byte(lastApplied))
	if err != nil {
		return nil, err
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
	p, err := patch.ThreeWay(original, modifiedMap, structured(existing, m.Kind), openapi.Document(m.Kind), openapi.Root(m.Kind))
	if err != nil {
		return nil, apiserver.BadRequest(err.Error()) // as the server would refuse the patch
	}
	return p, nil
}

// patchDoing is what kubectl apply says it was doing when a patch is refused (apply.go
// applyOneObject): the patch and the object's resource.Info (Info.String).
func patchDoing(p map[string]any, k api.Kind, meta *api.ObjectMeta) string {
	patchJSON, _ := json.Marshal(p) // a patch of JSON values always encodes
	gv := k.Group + "/" + k.Version
	return fmt.Sprintf("applying patch:\n%s\nto:\nResource: %q, GroupVersionKind: %q\nName: %q, Namespace: %q\nfor:",
		patchJSON, gv+", Resource="+k.Resource, gv+", Kind="+k.Kind, meta.Name, meta.Namespace)
}

// withSource is cmdutil.AddSourceToErr for a status error: its message prefixed with what was
// being done to the source. Other errors are left as they are.
func withSource(err error, doing, source string) error {
	var se *apiserver.StatusError
	if !errors.As(err, &se) {
		return err
	}
	wrapped := *se
	wrapped.Message = fmt.Sprintf("error when %s %q: %s", doing, source, se.Message)
	return &wrapped
}

// applyError words a refusal of apply or create as kubectl does: Invalid as checkErr words it,
// anything else as "Error from server (Reason): error when <doing> "<source>": <message>".
func applyError(err error, doing, source string) string {
	var se *apiserver.StatusError
	if errors.As(err, &se) && se.Reason != apiserver.ReasonInvalid {
		return fromServer(se.Reason, withSource(err, doing, source).Error())
	}
	return ServerError(err)
}

// problemsOf are the problems an editor marks for a refusal: each field error at its line, or
// the field the refusal is about.
func problemsOf(m api.Manifest, err error) []Problem {
	var se *apiserver.StatusError
	if !errors.As(err, &se) {
		return nil
	}
	path := map[apiserver.Reason]string{apiserver.ReasonNotFound: "metadata.namespace", apiserver.ReasonAlreadyExists: "metadata.name", apiserver.ReasonForbidden: "spec.priorityClassName"}[se.Reason]
	switch {
	case se.Reason == apiserver.ReasonInvalid:
		out := make([]Problem, len(se.Details.Causes))
		for i, e := range se.Details.Causes {
			out[i] = Problem{Line: m.LineOf(e.Field), Path: e.Field, Message: e.Error()}
		}
		return out
	case se.Reason == apiserver.ReasonForbidden:
		return []Problem{{Line: m.LineOf(path), Path: "spec", Message: se.Message}}
	case path != "":
		return []Problem{{Line: m.LineOf(path), Path: path, Message: se.Message}}
	}
	return nil
}
