package kubectl

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/sim"
)

// Flags of the imperative commands: create deployment, create namespace and run.
var (
	dryRunFlags          = []FlagSpec{{Name: "dry-run"}, {Name: "output", Shorthand: 'o'}, {Name: "namespace", Shorthand: 'n'}}
	createDeploymentFlag = slices.Concat(dryRunFlags, []FlagSpec{{Name: "image"}, {Name: "replicas", Shorthand: 'r'}, {Name: "port"}})
	runFlags             = slices.Concat(dryRunFlags, []FlagSpec{{Name: "image"}, {Name: "labels", Shorthand: 'l'}, {Name: "port"}, {Name: "restart"},
		{Name: "env"}, {Name: "command", Boolean: true}, {Name: "image-pull-policy"}, {Name: "annotations"}, {Name: "privileged", Boolean: true}})
)

// createSubcommands are kubectl create's subcommands DaemonLab runs, those of the kinds it
// models, by their own names (subcommandNames has the names kubectl takes for them).
var createSubcommands = map[string]func(s *sim.Sim, args []string) Result{
	"deployment": createDeployment, "namespace": createNamespace,
	"poddisruptionbudget": createPodDisruptionBudget, "priorityclass": createPriorityClass,
}

// kubectlCreateSubcommands are kubectl's other create subcommands.
var kubectlCreateSubcommands = []string{"clusterrole", "clusterrolebinding", "configmap", "cm", "cronjob", "cj", "ingress", "ing", "job", "quota", "resourcequota", "role", "rolebinding", "secret", "service", "svc", "serviceaccount", "sa", "token"}

// dryRun is --dry-run: none, client or server (a bare --dry-run is refused, as kubectl does).
type dryRun string

// suffix is what kubectl's printers add to the operation of a dry run.
func (d dryRun) suffix() string {
	return map[dryRun]string{"client": " (dry run)", "server": " (server dry run)"}[d]
}

func parseDryRun(f Flags) (dryRun, *Result) {
	switch v := f.Get("dry-run"); v {
	case "", "none":
		return "", nil
	case "client", "server":
		return dryRun(v), nil
	default:
		return "", &Result{Err: fmt.Sprintf("error: Invalid dry-run value (%s). Must be \"none\", \"server\", or \"client\".", v), Code: 1}
	}
}

// createObject is what the imperative commands share (create deployment, create namespace,
// run): a built object (namespaced only if -n said so, as kubectl enforces a namespace only
// then) is printed as it is with --dry-run=client, or created by the API server
// (defaulted, admitted, validated) and printed as created; -o yaml|json|name prints the object
// the server answered with. fail words the API server's refusal as the command does.
func createObject(s *sim.Sim, f Flags, obj api.Object, kind api.Kind, fail func(error) string) Result {
	dry, bad := parseDryRun(f)
	if bad != nil {
		return *bad
	}
	output := f.Get("output")
	if output != "" && output != "yaml" && output != "json" && output != "name" {
		return Result{Err: fmt.Sprintf("error: unable to match a printer suitable for the output format %q, allowed formats are: json,name,yaml", output), Code: 1}
	}
	if dry != "client" {
		if m := obj.GetObjectMeta(); kind.Namespaced && m.Namespace == "" {
			m.Namespace = "default" // kubectl sends it to the current namespace
		}
		stored, err := apiserver.Create(s.C, obj, apiserver.Options{DryRun: dry == "server"})
		if err != nil {
			return Result{Err: fail(err), Code: 1}
		}
		obj = stored
	}
	name := obj.GetObjectMeta().Name
	var b strings.Builder
	switch output {
	case "yaml":
		if err := printStructured(&b, structured(obj, kind), output); err != nil {
			return Result{Err: err.Error(), Code: 1}
		}
	case "json":
		// A typed client's object prints in its fields' order, not sorted as a get's.
		data, err := json.MarshalIndent(obj, "", "    ")
		if err != nil {
			panic(fmt.Sprintf("kubectl: cannot encode a %s: %v", kind.Kind, err)) // built from the API types
		}
		b.Write(data)
		b.WriteByte('\n')
	case "name":
		fmt.Fprintf(&b, "%s/%s\n", resourceName(kind), name)
	default:
		fmt.Fprintf(&b, "%s/%s created%s\n", resourceName(kind), name, dry.suffix())
	}
	return Result{Out: b.String()}
}

// onlyName checks the one NAME an imperative command takes.
func onlyName(f Flags, usage string) (string, *Result) {
	switch {
	case len(f.Args) == 0:
		return "", &Result{Err: "error: exactly one NAME is required, got 0\nSee '" + usage + " -h' for help and examples", Code: 1}
	case len(f.Args) > 1:
		return "", &Result{Err: fmt.Sprintf("error: exactly one NAME is required, got %d\nSee '%s -h' for help and examples", len(f.Args), usage), Code: 1}
	}
	return f.Args[0], nil
}

// createDeployment is kubectl create deployment NAME --image=IMAGE… (create_deployment.go):
// labels and selector app=NAME, one container per image named after the image (without
// registry, tag and digest; one with "_" or "." gets them turned into "-" and a random suffix),
// --replicas (1), --port on the first container, and a command after "--".
func createDeployment(s *sim.Sim, args []string) Result {
	words, command := splitDashDash(args)
	f, err := ParseFlags("create deployment", words, createDeploymentFlag)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	name, bad := onlyName(f, "kubectl create deployment")
	if bad != nil {
		return *bad
	}
	images := splitList(f.All("image"))
	switch {
	case len(images) == 0:
		return Result{Err: "error: required flag(s) \"image\" not set", Code: 1}
	case len(images) > 1 && len(command) > 0:
		return Result{Err: "error: cannot specify multiple --image options and command", Code: 1}
	}
	replicas, bad := int32Flag(f, "replicas", 1)
	if bad != nil {
		return *bad
	}
	port, bad := int32Flag(f, "port", -1)
	if bad != nil {
		return *bad
	}
	labels := map[string]string{"app": name}
	d := &api.Deployment{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}}
	d.Name, d.Namespace, d.Labels = name, f.Get("namespace"), labels
	d.Spec.Replicas = &replicas
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": name}}
	d.Spec.Template.Labels = map[string]string{"app": name}
	d.Spec.Template.Spec.Containers = []api.Container{}
	for _, image := range images {
		cname := image[strings.LastIndex(image, "/")+1:]
		cname, _, _ = strings.Cut(cname, ":")
		cname, _, _ = strings.Cut(cname, "@")
		if strings.ContainsAny(cname, "_.") {
			cname = strings.NewReplacer("_", "-", ".", "-").Replace(cname) + "-" + s.C.RandomString(5)
		}
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, api.Container{Name: cname, Image: image, Command: command})
	}
	if port >= 0 {
		d.Spec.Template.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: port}}
	}
	return createObject(s, f, d, kindOf("Deployment"), func(err error) string { return "error: failed to create deployment: " + err.Error() })
}

// createNamespace is kubectl create namespace NAME.
func createNamespace(s *sim.Sim, args []string) Result {
	f, err := ParseFlags("create namespace", args, dryRunFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	name, bad := onlyName(f, "kubectl create namespace")
	if bad != nil {
		return *bad
	}
	ns := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
	ns.Name = name
	return createObject(s, f, ns, kindOf("Namespace"), ServerError)
}

// runCommand is kubectl run NAME --image=IMAGE (run.go): one pod whose single container is
// named after the pod, labelled run=NAME unless --labels says otherwise, with --env, --port,
// --restart (Always), --image-pull-policy, --annotations, --privileged, and arguments after
// "--" as args (or, with --command, the command). Attaching (-i, -t, --attach, --rm) needs a
// container to talk to, which DaemonLab does not run.
func runCommand(s *sim.Sim, args []string, _ string) Result {
	words, rest := splitDashDash(args)
	f, err := ParseFlags("run", words, runFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	if len(f.Args) == 0 {
		return Result{Err: "error: NAME is required for run\nSee 'kubectl run -h' for help and examples", Code: 1}
	}
	name, extra := f.Args[0], append(f.Args[1:], rest...)
	image := f.Get("image")
	if image == "" {
		return Result{Err: "error: --image is required", Code: 1}
	}
	labels := map[string]string{"run": name}
	if f.Has("labels") {
		if labels, err = parseRunLabels(f.Get("labels")); err != nil {
			return Result{Err: "error: " + err.Error(), Code: 1}
		}
	}
	restart := api.RestartPolicy(orDefault(f.Get("restart"), "Always"))
	if restart != api.RestartPolicyAlways && restart != "OnFailure" && restart != "Never" {
		return Result{Err: fmt.Sprintf("error: invalid restart policy: %s, valid values are: Always, OnFailure, Never", restart), Code: 1}
	}
	pull := f.Get("image-pull-policy")
	if pull != "" && pull != "Always" && pull != "IfNotPresent" && pull != "Never" {
		return Result{Err: fmt.Sprintf("error: invalid image pull policy: %s, valid values are: Always, IfNotPresent, Never", pull), Code: 1}
	}
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	p.Name, p.Namespace, p.Labels = name, f.Get("namespace"), labels
	for _, a := range f.All("annotations") {
		k, v, _ := strings.Cut(a, "=")
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations[k] = v
	}
	c := api.Container{Name: name, Image: image, ImagePullPolicy: pull}
	for _, e := range f.All("env") {
		k, v, ok := strings.Cut(e, "=")
		if !ok || k == "" {
			return Result{Err: fmt.Sprintf("error: invalid env: %v", e), Code: 1}
		}
		c.Env = append(c.Env, api.EnvVar{Name: k, Value: v})
	}
	if f.IsTrue("privileged") {
		yes := true
		c.SecurityContext = &api.SecurityContext{Privileged: &yes}
	}
	if len(extra) > 0 {
		if f.IsTrue("command") {
			c.Command = extra
		} else {
			c.Args = extra
		}
	}
	if port := f.Get("port"); port != "" {
		n, err := strconv.Atoi(port)
		if err != nil {
			return Result{Err: "error: --port must be a number", Code: 1}
		}
		c.Ports = []api.ContainerPort{{ContainerPort: int32(n)}}
	}
	p.Spec.Containers = []api.Container{c}
	p.Spec.DNSPolicy, p.Spec.RestartPolicy = "ClusterFirst", restart
	return createObject(s, f, p, kindOf("Pod"), ServerError)
}

// parseRunLabels reads --labels k=v,k2=v2.
func parseRunLabels(spec string) (map[string]string, error) {
	labels := map[string]string{}
	for _, part := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("unexpected label spec: %s", part)
		}
		if k == "" {
			return nil, fmt.Errorf("unexpected empty label key")
		}
		labels[k] = v
	}
	return labels, nil
}

// splitDashDash separates the words before "--" from those after it.
func splitDashDash(args []string) ([]string, []string) {
	if i := slices.Index(args, "--"); i >= 0 {
		return args[:i], args[i+1:]
	}
	return args, nil
}

// splitList reads a string-slice flag: comma-separated and repeatable.
func splitList(values []string) []string {
	var out []string
	for _, v := range values {
		out = append(out, strings.Split(v, ",")...)
	}
	return out
}

// int32Flag reads an int32 flag as pflag's int32Value does (strconv.ParseInt with base 0, so
// 0x10 is 16; its error says "invalid syntax" or "value out of range"), with def when it is
// absent.
func int32Flag(f Flags, name string, def int32) (int32, *Result) {
	if !f.Has(name) {
		return def, nil
	}
	v, err := strconv.ParseInt(f.Get(name), 0, 32)
	if err != nil {
		return 0, &Result{Err: fmt.Sprintf("error: invalid argument %q for \"--%s\" flag: %v", f.Get(name), name, err), Code: 1}
	}
	return int32(v), nil
}
