package kubectl

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

// replaceCommand runs `kubectl replace -f FILE…` (kubectl/pkg/cmd/replace, ReplaceOptions.Run):
//
//  1. The manifests come from -f as for apply (see sources); a source that does not parse
//     stops everything before anything is sent.
//  2. Each object replaces the stored one whole (an update, apiserver.Update): what the
//     manifest leaves out is gone, the status stays. An object that does not exist is the
//     server's NotFound, "error when replacing"; the others are still replaced.
//  3. Each object replaced prints "KIND/NAME replaced".
//
// With --force it deletes and re-creates instead (see forceReplace).
func replaceCommand(s *sim.Sim, args []string, stdin string) Result {
	f, err := ParseFlags("replace", args, replaceFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	force := f.IsTrue("force")
	switch {
	case f.Has("grace-period") && f.Int("grace-period") >= 0 && !force:
		return Result{Err: "error: --grace-period must have --force specified", Code: 1}
	case f.Duration("timeout") != 0 && !force:
		return Result{Err: "error: --timeout must have --force specified", Code: 1}
	case !f.Has("filename"):
		return Result{Err: "error: must specify --filename to replace", Code: 1}
	}
	srcs, bad := Sources(s, f, stdin)
	if bad != nil {
		return *bad
	}
	namespace := orDefault(f.Get("namespace"), "default")
	type decoded struct {
		source    string
		manifests []api.Manifest
	}
	var all []decoded
	for _, src := range srcs {
		manifests, err := api.Decode(src.Data)
		if err != nil {
			r := ClientError(err, src.Name)
			r.Code = 1
			return r
		}
		all = append(all, decoded{src.Name, manifests})
	}
	if force {
		var manifests []api.Manifest
		for _, d := range all {
			for _, m := range d.manifests {
				if meta := m.Object.GetObjectMeta(); m.Kind.Namespaced && meta.Namespace == "" {
					meta.Namespace = namespace
				}
				manifests = append(manifests, m)
			}
		}
		return forceReplace(s, f, manifests)
	}
	var out strings.Builder
	var errs []string
	for _, d := range all {
		for _, m := range d.manifests {
			meta := m.Object.GetObjectMeta()
			if m.Kind.Namespaced && meta.Namespace == "" {
				meta.Namespace = namespace
			}
			if _, err := apiserver.Update(s.C, m.Object, apiserver.Options{}); err != nil {
				errs = append(errs, applyError(err, "replacing", d.source))
				continue
			}
			fmt.Fprintf(&out, "%s/%s replaced\n", resourceName(m.Kind), meta.Name)
		}
	}
	r := Result{Out: out.String(), Err: strings.Join(errs, "\n")}
	if len(errs) > 0 {
		r.Code = 1
	}
	return r
}

var replaceFlags = append([]FlagSpec{
	{Name: "force", Boolean: true},
	{Name: "grace-period", Check: IsInt},
	{Name: "timeout", Check: IsDuration},
}, applyFlags...)

// forceReplace is `kubectl replace --force` (ReplaceOptions.Complete and forceReplace):
//
//  1. Each object is deleted, with --grace-period if given (0 becomes 1, to prevent accidental
//     data loss) else its own; one that does not exist is no error. Each deleted prints
//     `KIND "NAME" deleted` as kubectl delete words it.
//  2. kubectl then polls every second until each is gone (a pod is gone once its kubelet has
//     stopped it), for --timeout or else 5 minutes: the simulated clock moves meanwhile. Past
//     the timeout it fails, and nothing is created.
//  3. Each object is then created, printing "KIND/NAME replaced". The object sent has no
//     resourceVersion: the resource helper clears it before a create (cli-runtime
//     pkg/resource/helper.go CreateWithOptions, which forceReplace calls through Create with
//     modify), so a saved `kubectl get -o yaml` is re-created, where the API server would
//     refuse the resourceVersion (see apiserver.Create) after the delete.
//  4. A refusal does not stop the others (the builder's ContinueOnError): the refusals come
//     last, one as checkErr words it, several one a line (see refusals).
func forceReplace(s *sim.Sim, f Flags, manifests []api.Manifest) Result {
	var grace *int64
	if f.Has("grace-period") && f.Int("grace-period") >= 0 {
		g := max(f.Int("grace-period"), 1)
		grace = &g
	}
	timeout := 5 * time.Minute
	if d := f.Duration("timeout"); d > 0 {
		timeout = d
	}
	var out strings.Builder
	var gone []api.Manifest
	for _, m := range manifests {
		key := cluster.KeyOf(m.Object)
		if s.C.Get(m.Kind.Kind, key) == nil {
			continue
		}
		if _, err := apiserver.Delete(s.C, m.Kind, key, apiserver.DeleteOptions{GracePeriodSeconds: grace}); err != nil {
			return Result{Out: out.String(), Err: ServerError(err), Code: 1}
		}
		verb := "deleted"
		if m.Kind.Namespaced {
			verb += " from " + key.Namespace + " namespace"
		}
		fmt.Fprintf(&out, "%s %q %s\n", resourceName(m.Kind), key.Name, verb)
		gone = append(gone, m)
	}
	for _, m := range gone {
		deadline := s.C.Now().Add(timeout)
		for s.C.Get(m.Kind.Kind, cluster.KeyOf(m.Object)) != nil {
			if !s.C.Now().Before(deadline) {
				return Result{Out: out.String(), Err: "error: context deadline exceeded", Code: 1}
			}
			if s.Advance(time.Second); s.Spent() {
				return Result{Out: out.String(), Err: "error: " + sim.Stopped("kubectl replace --force", timeout-deadline.Sub(s.C.Now()), timeout), Code: 1}
			}
		}
	}
	var refused []error
	for _, m := range manifests {
		m.Object.GetObjectMeta().ResourceVersion = ""
		if _, err := apiserver.Create(s.C, m.Object, apiserver.Options{}); err != nil {
			refused = append(refused, err)
			continue
		}
		fmt.Fprintf(&out, "%s/%s replaced\n", resourceName(m.Kind), m.Object.GetObjectMeta().Name)
	}
	if len(refused) > 0 {
		return Result{Out: out.String(), Err: refusals(refused), Code: 1}
	}
	return Result{Out: out.String()}
}

// refusals words the API server's refusals of a command that went on after each, as checkErr
// words the aggregate it gets (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go checkErr): one
// as ServerError does, several one a line as StandardErrorMessage words each (MultipleErrors).
func refusals(errs []error) string {
	if len(errs) == 1 {
		return ServerError(errs[0])
	}
	lines := make([]string, len(errs))
	for i, err := range errs {
		var se *apiserver.StatusError
		if errors.As(err, &se) {
			lines[i] = fromServer(se.Reason, se.Message)
		} else {
			lines[i] = err.Error()
		}
	}
	return strings.Join(lines, "\n")
}
