package kubectl

import (
	"fmt"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/sim"
)

var setImageFlags = append([]FlagSpec{{Name: "namespace", Shorthand: 'n'}, {Name: "all", Boolean: true}}, selectorFlags...)

// setCommand runs `kubectl set image`, the one set subcommand DaemonLab has.
func setCommand(s *sim.Sim, args []string, _ string) Result {
	if res, done := subcommandMissing("set", args); done {
		return res
	}
	switch args[0] {
	case "image":
		return setImage(s, args[1:])
	case "env", "resources", "selector", "serviceaccount", "subject":
		return Result{Err: fmt.Sprintf("error: DaemonLab's kubectl does not run \"set %s\" yet; of kubectl set it runs image", args[0]), Code: 1}
	}
	return Result{Err: fmt.Sprintf("error: unknown command %q\nSee 'kubectl set -h' for help and examples", strings.Join(args, " ")), Code: 1}
}

// setImage is kubectl set image (pkg/cmd/set/set_image.go):
//
//  1. Arguments with "=" are CONTAINER=IMAGE pairs ("*" for every container); the others name
//     the objects, as TYPE NAME… or TYPE/NAME….
//  2. Containers and init containers of the pod template (or of a pod) with that name get the
//     image; a name that matches none is "unable to find container named".
//  3. An object whose images do not change is left alone and not printed; a changed one is
//     validated by the API server and printed as "<resource>/<name> image updated".
func setImage(s *sim.Sim, args []string) Result {
	f, err := ParseFlags("set image", args, setImageFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	var resources []string
	var names, images []string
	for _, a := range f.Args {
		if name, image, ok := strings.Cut(a, "="); ok {
			names, images = append(names, name), append(images, image)
			continue
		}
		if len(names) > 0 {
			return Result{Err: fmt.Sprintf("error: all resources must be specified before image changes: %s", a), Code: 1}
		}
		resources = append(resources, a)
	}
	if len(resources) == 0 {
		return Result{Err: "error: one or more resources must be specified as <resource> <name> or <resource>/<name>", Code: 1}
	}
	if len(names) == 0 {
		return Result{Err: "error: at least one image update is required", Code: 1}
	}
	targets, bad := namedTargets(s, f, resources)
	if bad != nil {
		return *bad
	}
	var out strings.Builder
	var errs []string
	for _, t := range targets {
		next := api.DeepCopyObject(t.obj)
		spec := podSpecOf(next)
		if spec == nil {
			errs = append(errs, fmt.Sprintf("error: %s/%s the object has no pod template", resourceName(t.kind), t.name))
			continue
		}
		if _, isPod := next.(*api.Pod); isPod {
			errs = append(errs, "error: DaemonLab cannot change the image of a running pod yet; change its controller's template instead")
			continue
		}
		changed := false
		for i, name := range names {
			found := false
			for _, cs := range [][]api.Container{spec.InitContainers, spec.Containers} {
				for j := range cs {
					if cs[j].Name == name || name == "*" {
						found = true
						changed = changed || cs[j].Image != images[i]
						cs[j].Image = images[i]
					}
				}
			}
			if !found {
				errs = append(errs, fmt.Sprintf("error: unable to find container named %q", name))
			}
		}
		if !changed {
			continue
		}
		if _, err := apiserver.Update(s.C, next, apiserver.Options{}); err != nil {
			// The API server's status message, inside kubectl's.
			errs = append(errs, "error: failed to patch image update to pod template: "+err.Error())
			continue
		}
		fmt.Fprintf(&out, "%s/%s image updated\n", resourceName(t.kind), t.name)
	}
	res := Result{Out: out.String()}
	if len(errs) > 0 {
		res.Err, res.Code = strings.Join(errs, "\n"), 1
	}
	return res
}

// podSpecOf returns the pod spec an object runs: a pod's own, or its template's.
func podSpecOf(obj api.Object) *api.PodSpec {
	switch o := obj.(type) {
	case *api.Pod:
		return &o.Spec
	case *api.Deployment:
		return &o.Spec.Template.Spec
	case *api.DaemonSet:
		return &o.Spec.Template.Spec
	case *api.ReplicaSet:
		return &o.Spec.Template.Spec
	}
	return nil
}
