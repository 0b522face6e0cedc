package kubectl

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/controller"
	"daemonlab/core/sim"
)

// The flags of rollout's subcommands, besides -n, -l and --field-selector, which all take.
var (
	rolloutCommonFlags  = slices.Concat([]FlagSpec{{Name: "namespace", Shorthand: 'n'}}, selectorFlags)
	rolloutStatusFlags  = []FlagSpec{{Name: "watch", Shorthand: 'w', Boolean: true}, {Name: "revision", Check: IsInt}, {Name: "timeout", Check: IsDuration}}
	rolloutHistoryFlags = []FlagSpec{{Name: "revision", Check: IsInt}}
	rolloutUndoFlags    = []FlagSpec{{Name: "to-revision", Check: IsInt}}
)

// rolloutSubcommands are kubectl rollout's subcommands (pkg/cmd/rollout).
var rolloutSubcommands = map[string]func(s *sim.Sim, args []string) Result{
	"history": rolloutHistory,
	"pause":   rolloutPatch("pause", pauseObject),
	"restart": rolloutPatch("restart", restartObject),
	"resume":  rolloutPatch("resume", resumeObject),
	"status":  rolloutStatus,
	"undo":    rolloutUndo,
}

// rolloutCommand runs `kubectl rollout SUBCOMMAND`.
func rolloutCommand(s *sim.Sim, args []string, _ string) Result {
	if res, done := subcommandMissing("rollout", args); done {
		return res
	}
	sub, ok := rolloutSubcommands[args[0]]
	if !ok {
		return Result{Err: fmt.Sprintf("error: unknown command %q\nSee 'kubectl rollout -h' for help and examples", strings.Join(args, " ")), Code: 1}
	}
	return sub(s, args[1:])
}

// subcommandMissing is cobra's DefaultSubCommandRun for a command that only groups others
// (rollout, set, top): without a subcommand it prints the command's help and fails; rollout
// prints it on standard output, set and top on standard error.
func subcommandMissing(command string, args []string) (Result, bool) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if command == "rollout" {
			return Result{Out: helpText(command), Code: 1}, true
		}
		return Result{Err: strings.TrimSuffix(helpText(command), "\n"), Code: 1}, true
	}
	return Result{}, false
}

// rolloutTargets parses a rollout subcommand's flags and finds the objects it names.
func rolloutTargets(s *sim.Sim, name string, args []string, specs []FlagSpec) (Flags, []target, *Result) {
	f, err := ParseFlags("rollout "+name, args, slices.Concat(rolloutCommonFlags, specs))
	if err != nil {
		return f, nil, &Result{Err: err.Error(), Code: 1}
	}
	if len(f.Args) == 0 {
		return f, nil, &Result{Err: "error: required resource not specified", Code: 1}
	}
	targets, bad := namedTargets(s, f, f.Args)
	if bad == nil && len(targets) == 0 {
		bad = &Result{Err: fmt.Sprintf("No resources found in %s namespace.", orDefault(f.Get("namespace"), "default"))}
	}
	return f, targets, bad
}

// revisionFlag reads --revision of status and history, which may not be negative.
func revisionFlag(f Flags) (int64, *Result) {
	if n := f.Int("revision"); n < 0 {
		return n, &Result{Err: fmt.Sprintf("error: revision must be a positive integer: %d", n), Code: 1}
	}
	return f.Int("revision"), nil
}

// groupKind is how kubectl names a kind in "not implemented" errors (schema.GroupKind.String).
func groupKind(k api.Kind) string {
	if k.Group == "" {
		return k.Kind
	}
	return k.Kind + "." + k.Group
}

// defaultWatchLimit bounds a watch without --timeout: a real kubectl would wait until the
// learner presses Ctrl+C, which a simulated terminal cannot offer.
const defaultWatchLimit = 5 * time.Minute

// rolloutStatus is kubectl rollout status (StatusViewer, rollout_status.go):
//
//  1. Each named object's status is printed as its status viewer words it; a DaemonSet must use
//     RollingUpdate.
//  2. With --watch (the default) kubectl follows the object until the rollout is done; in
//     DaemonLab watching lets simulated time pass, event by event, printing each new message.
//  3. With --timeout the watch ends there: the clock moves on to it and the command fails as
//     kubectl does, "timed out waiting for the condition".
//  4. Without it (or with 0, "zero means never") kubectl waits for as long as it takes, which
//     DaemonLab cannot: it stops when nothing more is due in the cluster, or after
//     defaultWatchLimit (5m) of simulated time, and fails with a note that says which and that
//     kubectl would still be waiting (see stoppedWaiting), never with an error kubectl prints.
//  5. An object deleted while watched ends the watch with "object has been deleted".
//  6. A watch that spends the command's budget (sim.Sim.Spent) ends where it stands and says so.
func rolloutStatus(s *sim.Sim, args []string) Result {
	f, targets, bad := rolloutTargets(s, "status", args, rolloutStatusFlags)
	if bad != nil {
		return *bad
	}
	revision, bad := revisionFlag(f)
	if bad != nil {
		return *bad
	}
	limit, capped := defaultWatchLimit, true
	if d := f.Duration("timeout"); d > 0 {
		limit, capped = d, false
	}
	watch := !f.Has("watch") || f.IsTrue("watch")
	var out strings.Builder
	for _, t := range targets {
		if err := watchRollout(s, &out, t, revision, watch, limit, capped); err != "" {
			return Result{Out: out.String(), Err: err, Code: 1}
		}
	}
	return Result{Out: out.String()}
}

// watchRollout prints one object's rollout status, watching until it is done or limit has
// passed (DaemonLab's own limit when capped, kubectl's --timeout otherwise); it returns kubectl's
// error, or DaemonLab's note, if any.
func watchRollout(s *sim.Sim, out *strings.Builder, t target, revision int64, watch bool, limit time.Duration, capped bool) string {
	key := cluster.Key{Namespace: t.obj.GetObjectMeta().Namespace, Name: t.name}
	deadline := s.C.Now().Add(limit)
	last := ""
	for {
		obj := s.C.Get(t.kind.Kind, key)
		if obj == nil {
			return "error: object has been deleted"
		}
		msg, done, err := rolloutStatusOf(obj, t.kind, revision)
		if err != "" {
			return err
		}
		if msg != last {
			out.WriteString(msg)
			last = msg
		}
		if done || !watch {
			return ""
		}
		if !s.Wait(deadline) {
			if s.Spent() {
				return "error: " + sim.Stopped("kubectl rollout status", s.C.Now().Sub(deadline.Add(-limit)), limit)
			}
			if _, due := s.NextTimer(); capped && !due {
				return stoppedWaiting(0)
			}
			s.Advance(deadline.Sub(s.C.Now())) // kubectl waited out its --timeout, or DaemonLab its limit
			if capped {
				return stoppedWaiting(limit)
			}
			return "error: timed out waiting for the condition"
		}
	}
}

// stoppedWaiting is DaemonLab's note when it stops a rollout status that kubectl, without
// --timeout, would keep watching: after limit of simulated time, or (limit 0) at once when
// nothing more is due in the cluster, so that nothing could change however long it waited.
func stoppedWaiting(limit time.Duration) string {
	const forever = "kubectl rollout status without --timeout waits for as long as it takes."
	if limit == 0 {
		return "DaemonLab stopped waiting: nothing more is due in the simulated cluster, so the rollout cannot go on by itself; " + forever
	}
	return fmt.Sprintf("DaemonLab stopped waiting after %v of simulated time; %s", limit, forever)
}

// rolloutStatusOf is the status viewer of a kind (DaemonSetStatusViewer, DeploymentStatusViewer).
func rolloutStatusOf(obj api.Object, kind api.Kind, revision int64) (msg string, done bool, err string) {
	switch o := obj.(type) {
	case *api.DaemonSet:
		if o.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType {
			return "", true, "error: rollout status is only available for RollingUpdate strategy type"
		}
		st := o.Status
		switch {
		case o.Generation > st.ObservedGeneration:
			return "Waiting for daemon set spec update to be observed...\n", false, ""
		case st.UpdatedNumberScheduled < st.DesiredNumberScheduled:
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d out of %d new pods have been updated...\n", o.Name, st.UpdatedNumberScheduled, st.DesiredNumberScheduled), false, ""
		case st.NumberAvailable < st.DesiredNumberScheduled:
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d of %d updated pods are available...\n", o.Name, st.NumberAvailable, st.DesiredNumberScheduled), false, ""
		}
		return fmt.Sprintf("daemon set %q successfully rolled out\n", o.Name), true, ""
	case *api.Deployment:
		if revision > 0 {
			current, _ := strconv.ParseInt(o.Annotations[api.AnnotationRevision], 10, 64)
			if current != revision {
				return "", false, fmt.Sprintf("error: desired revision (%d) is different from the running revision (%d)", revision, current)
			}
		}
		st := o.Status
		if o.Generation > st.ObservedGeneration {
			return "Waiting for deployment spec update to be observed...\n", false, ""
		}
		for _, c := range st.Conditions {
			if c.Type == "Progressing" && c.Reason == "ProgressDeadlineExceeded" {
				return "", false, fmt.Sprintf("error: deployment %q exceeded its progress deadline", o.Name)
			}
		}
		switch {
		case o.Spec.Replicas != nil && st.UpdatedReplicas < *o.Spec.Replicas:
			return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated...\n", o.Name, st.UpdatedReplicas, *o.Spec.Replicas), false, ""
		case st.Replicas > st.UpdatedReplicas:
			return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d old replicas are pending termination...\n", o.Name, st.Replicas-st.UpdatedReplicas), false, ""
		case st.AvailableReplicas < st.UpdatedReplicas:
			return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available...\n", o.Name, st.AvailableReplicas, st.UpdatedReplicas), false, ""
		}
		return fmt.Sprintf("deployment %q successfully rolled out\n", o.Name), true, ""
	}
	return "", false, fmt.Sprintf("error: no status viewer has been implemented for %s", groupKind(kind))
}

// revision is one entry of an object's rollout history: its number, change cause and template.
type revision struct {
	number      int64
	changeCause string
	template    api.PodTemplateSpec
	revision    *api.ControllerRevision // a DaemonSet's, for rollback
	replicaSet  *api.ReplicaSet         // a Deployment's
}

// history lists an object's revisions as kubectl's history viewers find them
// (polymorphichelpers/history.go), oldest first:
//
//  1. A DaemonSet's are the ControllerRevisions it controls whose labels its selector matches,
//     each with the change cause annotated on the revision itself.
//  2. A Deployment's are its ReplicaSets, old ones first, numbered by their revision
//     annotation: one without the annotation is revision 0, one whose annotation is no number
//     is left out; the change cause is the ReplicaSet's.
//  3. Revisions are kept by number: of two with the same number, the one found later stays.
func history(c *cluster.Cluster, obj api.Object, kind api.Kind) ([]revision, string) {
	var out []revision
	seen := map[int64]int{}
	add := func(r revision) {
		if i, ok := seen[r.number]; ok {
			out[i] = r
			return
		}
		seen[r.number] = len(out)
		out = append(out, r)
	}
	switch o := obj.(type) {
	case *api.DaemonSet:
		sel, _ := api.LabelSelectorAsSelector(o.Spec.Selector)
		for _, cr := range cluster.List[*api.ControllerRevision](c) {
			ref, ok := api.ControllerOf(&cr.ObjectMeta)
			if cr.Namespace != o.Namespace || !ok || ref.UID != o.UID || !sel.Matches(cr.Labels) {
				continue
			}
			add(revision{number: cr.Revision, changeCause: cr.Annotations[api.AnnotationChangeCause], template: revisionTemplate(cr), revision: cr})
		}
	case *api.Deployment:
		newRS, old := controller.ReplicaSets(c, o)
		for _, rs := range append(old, newRS) {
			if rs == nil {
				continue
			}
			var n int64
			if v, ok := rs.Annotations[api.AnnotationRevision]; ok {
				var err error
				if n, err = strconv.ParseInt(v, 10, 64); err != nil {
					continue
				}
			}
			add(revision{number: n, changeCause: rs.Annotations[api.AnnotationChangeCause], template: rs.Spec.Template, replicaSet: rs})
		}
	default:
		return nil, fmt.Sprintf("error: no history viewer has been implemented for %q", groupKind(kind))
	}
	slices.SortStableFunc(out, func(a, b revision) int { return cmp.Compare(a.number, b.number) })
	return out, ""
}

// shownTemplate is the template --revision prints: a DaemonSet revision's as it holds it, a
// Deployment revision's with the ReplicaSet's change cause among its annotations, where
// DeploymentHistoryViewer puts it.
func (r revision) shownTemplate() api.PodTemplateSpec {
	t := api.DeepCopy(r.template)
	if r.replicaSet != nil && r.changeCause != "" {
		t.Annotations = maps.Clone(t.Annotations)
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Annotations[api.AnnotationChangeCause] = r.changeCause
	}
	return t
}

// revisionTemplate decodes the template a ControllerRevision holds ({"spec":{"template":…}}).
func revisionTemplate(cr *api.ControllerRevision) api.PodTemplateSpec {
	var data struct {
		Spec struct {
			Template api.PodTemplateSpec `json:"template"`
		} `json:"spec"`
	}
	_ = json.Unmarshal(cr.Data, &data) // the controller wrote it from a stored template
	return data.Spec.Template
}

// rolloutHistory is kubectl rollout history (HistoryViewer.ViewHistory): REVISION and
// CHANGE-CAUSE of every revision, aligned by a tabwriter, or with --revision=N that revision's
// pod template as describe prints it, but into a plain buffer (printTemplate), so that its
// tabs stay tabs.
func rolloutHistory(s *sim.Sim, args []string) Result {
	f, targets, bad := rolloutTargets(s, "history", args, rolloutHistoryFlags)
	if bad != nil {
		return *bad
	}
	n, bad := revisionFlag(f)
	if bad != nil {
		return *bad
	}
	var out strings.Builder
	for _, t := range targets {
		revs, err := history(s.C, t.obj, t.kind)
		if err != "" {
			return Result{Out: out.String(), Err: err, Code: 1}
		}
		var body string
		switch {
		case len(revs) == 0:
			body = "No rollout history found."
		case n > 0:
			i := slices.IndexFunc(revs, func(r revision) bool { return r.number == n })
			if i < 0 {
				return Result{Out: out.String(), Err: "error: unable to find the specified revision", Code: 1}
			}
			var b strings.Builder
			t := revs[i].shownTemplate()
			describePodTemplate(describeWriter{&b}, &t)
			body = b.String()
		default:
			body = tabbedHistory(revs)
		}
		withRevision := ""
		if n > 0 {
			withRevision = fmt.Sprintf("with revision #%d", n)
		}
		fmt.Fprintf(&out, "%s/%s %s\n%s\n", resourceName(t.kind), t.name, withRevision, body)
	}
	return Result{Out: out.String()}
}

// tabbedHistory is printHistory's table.
func tabbedHistory(revs []revision) string {
	return tabbed(func(w describeWriter) {
		w.write(0, "REVISION\tCHANGE-CAUSE\n")
		for _, r := range revs {
			w.write(0, "%d\t%s\n", r.number, orDefault(r.changeCause, "<none>"))
		}
	})
}

// rolloutUndo is kubectl rollout undo (DaemonSetRollbacker, DeploymentRollbacker):
//
//  1. --to-revision=0 (the default) means the revision before the newest; with one revision
//     there is "no last revision to roll back to" (a Deployment says "no rollout history found").
//  2. A revision that is not in the history is "unable to find specified revision N in history".
//  3. If the object's template already is that revision's, nothing changes: "skipped rollback
//     (current template already matches revision N)", N being the flag's value.
//  4. Otherwise the revision's template replaces the object's (for a Deployment with the
//     ReplicaSet's annotations, its pod-template-hash label dropped): "rolled back". The
//     controller then renumbers the revision as the newest.
//  5. A paused Deployment cannot be rolled back.
func rolloutUndo(s *sim.Sim, args []string) Result {
	f, targets, bad := rolloutTargets(s, "undo", args, rolloutUndoFlags)
	if bad != nil {
		return *bad
	}
	to := f.Int("to-revision")
	var out strings.Builder
	for _, t := range targets {
		verb, err := rollback(s.C, t, to)
		if err != "" {
			return Result{Out: out.String(), Err: err, Code: 1}
		}
		fmt.Fprintf(&out, "%s/%s %s\n", resourceName(t.kind), t.name, verb)
	}
	return Result{Out: out.String()}
}

func rollback(c *cluster.Cluster, t target, to int64) (string, string) {
	notFound := fmt.Sprintf("error: unable to find specified revision %d in history", to)
	if to < 0 {
		return "", notFound
	}
	revs, err := history(c, t.obj, t.kind)
	if err != "" {
		return "", fmt.Sprintf("error: no rollbacker has been implemented for %q", groupKind(t.kind))
	}
	var target *revision
	switch {
	case to > 0:
		if i := slices.IndexFunc(revs, func(r revision) bool { return r.number == to }); i >= 0 {
			target = &revs[i]
		}
	case len(revs) >= 2:
		target = &revs[len(revs)-2]
	}
	next := api.DeepCopyObject(t.obj)
	switch o := next.(type) {
	case *api.DaemonSet:
		if to == 0 && len(revs) <= 1 {
			return "", "error: no last revision to roll back to"
		}
		if target == nil {
			return "", notFound
		}
		if string(controller.TemplatePatch(o)) == string(target.revision.Data) {
			return fmt.Sprintf("skipped rollback (current template already matches revision %d)", to), ""
		}
		o.Spec.Template = target.template
	case *api.Deployment:
		if target == nil && to == 0 {
			return "", fmt.Sprintf("error: no rollout history found for deployment %q", o.Name)
		}
		if target == nil {
			return "", notFound
		}
		if o.Spec.Paused {
			return "", "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again"
		}
		if controller.EqualIgnoreHash(target.template, o.Spec.Template) {
			return fmt.Sprintf("skipped rollback (current template already matches revision %d)", to), ""
		}
		o.Spec.Template = api.DeepCopy(target.template)
		delete(o.Spec.Template.Labels, api.LabelPodTemplateHash)
		o.Annotations = rollbackAnnotations(o.Annotations, target.replicaSet)
	}
	if _, err := apiserver.Update(c, next, apiserver.Options{}); err != nil {
		return "", ServerError(err)
	}
	return "rolled back", ""
}

// rollbackAnnotations are the Deployment's annotations after a rollback
// (SetDeploymentAnnotationsTo): its own of those it keeps for itself
// (controller.SkipCopyAnnotation), the ReplicaSet's others.
func rollbackAnnotations(current map[string]string, rs *api.ReplicaSet) map[string]string {
	out := map[string]string{}
	for k, v := range current {
		if controller.SkipCopyAnnotation(k) {
			out[k] = v
		}
	}
	for k, v := range rs.Annotations {
		if !controller.SkipCopyAnnotation(k) {
			out[k] = v
		}
	}
	return out
}

// rolloutPatch runs restart, pause or resume (RestartOptions, PauseOptions, ResumeOptions):
// each object is changed by mutate and printed with its verb, or its refusal printed as
// "error: <resource> "<name>" <why>". Only a restart can leave an object as it was (restarted
// twice within a second), which kubectl refuses as an empty patch.
func rolloutPatch(name string, mutate func(obj api.Object, now time.Time) (verb, refusal string)) func(*sim.Sim, []string) Result {
	return func(s *sim.Sim, args []string) Result {
		_, targets, bad := rolloutTargets(s, name, args, nil)
		if bad != nil {
			return *bad
		}
		var out strings.Builder
		var errs []string
		for _, t := range targets {
			next := api.DeepCopyObject(t.obj)
			verb, refusal := mutate(next, s.C.Now())
			if refusal != "" {
				errs = append(errs, fmt.Sprintf("error: %s %q %s", t.kind.GroupResource(), t.name, refusal))
				continue
			}
			switch stored, err := apiserver.Update(s.C, next, apiserver.Options{}); {
			case err != nil:
				errs = append(errs, ServerError(err))
			case stored == t.obj: // nothing changed: the stored object comes back
				errs = append(errs, fmt.Sprintf("failed to create patch for %s: if restart has already been triggered within the past second, please wait before attempting to trigger another", t.name))
			default:
				fmt.Fprintf(&out, "%s/%s %s\n", resourceName(t.kind), t.name, verb)
			}
		}
		res := Result{Out: out.String()}
		if len(errs) > 0 {
			res.Err, res.Code = aggregateErrors(errs), 1
		}
		return res
	}
}

// aggregateErrors is how kubectl prints an aggregate of errors: one as itself, several as a
// bracketed list, behind a single "error: ".
func aggregateErrors(errs []string) string {
	msg := aggregate(errs)
	if !strings.HasPrefix(msg, "error: ") {
		msg = "error: " + msg
	}
	return msg
}

// restartObject is the default ObjectRestarter: the template gets the annotation
// kubectl.kubernetes.io/restartedAt with the current time (RFC 3339, whole seconds), which
// makes a new revision; a paused Deployment cannot be restarted.
func restartObject(obj api.Object, now time.Time) (verb, refusal string) {
	var tmpl *api.PodTemplateSpec
	switch o := obj.(type) {
	case *api.DaemonSet:
		tmpl = &o.Spec.Template
	case *api.Deployment:
		if o.Spec.Paused {
			return "", "can't restart paused deployment (run rollout resume first)"
		}
		tmpl = &o.Spec.Template
	default:
		return "", "restarting is not supported"
	}
	tmpl.Annotations = maps.Clone(tmpl.Annotations)
	if tmpl.Annotations == nil {
		tmpl.Annotations = map[string]string{}
	}
	tmpl.Annotations["kubectl.kubernetes.io/restartedAt"] = now.Format(time.RFC3339)
	return "restarted", ""
}

// pauseObject is the default ObjectPauser: only Deployments pause.
func pauseObject(obj api.Object, _ time.Time) (verb, refusal string) {
	d, ok := obj.(*api.Deployment)
	if !ok {
		return "", "pausing is not supported"
	}
	if d.Spec.Paused {
		return "", "is already paused"
	}
	d.Spec.Paused = true
	return "paused", ""
}

// resumeObject is the default ObjectResumer.
func resumeObject(obj api.Object, _ time.Time) (verb, refusal string) {
	d, ok := obj.(*api.Deployment)
	if !ok {
		return "", "resuming is not supported"
	}
	if !d.Spec.Paused {
		return "", "is not paused"
	}
	d.Spec.Paused = false
	return "resumed", ""
}
