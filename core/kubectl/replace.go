package kubectl

import (
	"fmt"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
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
func replaceCommand(s *sim.Sim, args []string, stdin string) Result {
	f, err := ParseFlags("replace", args, applyFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	if !f.Has("filename") {
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
