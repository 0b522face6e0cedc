package kubectl

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

// kubernetesVersion is the version DaemonLab's API server and kubectl report.
const kubernetesVersion = "v1.37.2"

// kustomizeVersion is the kustomize kubectl v1.37.2 is built with.
const kustomizeVersion = "v5.8.1"

var apiResourcesFlags = []FlagSpec{{Name: "api-group"}, {Name: "namespaced"}, {Name: "sort-by"}, {Name: "output", Shorthand: 'o'}, {Name: "no-headers", Boolean: true}, {Name: "verbs"}, {Name: "categories"}, {Name: "cached", Boolean: true}}

// apiResourcesCommand is kubectl api-resources (pkg/cmd/apiresources): the resources the API
// server serves — in DaemonLab, the kinds it models — sorted by group, then by name (or by
// --sort-by name or kind), filtered by --api-group, --namespaced, --verbs and --categories.
func apiResourcesCommand(_ *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("api-resources", args, apiResourcesFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	if len(f.Args) > 0 {
		return Result{Err: fmt.Sprintf("error: unexpected arguments: %v\nSee 'kubectl api-resources -h' for help and examples", f.Args), Code: 1}
	}
	sortBy := f.Get("sort-by")
	if sortBy != "" && sortBy != "name" && sortBy != "kind" {
		return Result{Err: "error: --sort-by accepts only name or kind", Code: 1}
	}
	output := f.Get("output")
	if output != "" && output != "wide" && output != "name" {
		return Result{Err: fmt.Sprintf("error: unable to match a printer suitable for the output format %q, allowed formats are: name,wide", output), Code: 1}
	}
	var namespaced bool
	if f.Has("namespaced") {
		if namespaced, err = strconv.ParseBool(f.Get("namespaced")); err != nil {
			return Result{Err: fmt.Sprintf("error: invalid argument %q for \"--namespaced\" flag: %v\nSee 'kubectl api-resources --help' for usage.", f.Get("namespaced"), err), Code: 1}
		}
	}
	var list []resource
	for _, r := range resources {
		switch {
		case f.Has("api-group") && r.kind.Group != f.Get("api-group"),
			f.Has("namespaced") && r.kind.Namespaced != namespaced,
			!hasAll(r.verbs, f.All("verbs")),
			!hasAll(r.categories, f.All("categories")):
			continue
		}
		list = append(list, r)
	}
	slices.SortStableFunc(list, func(a, b resource) int {
		var x, y string
		switch sortBy {
		case "name":
			x, y = a.kind.Resource, b.kind.Resource
		case "kind":
			x, y = a.kind.Kind, b.kind.Kind
		default:
			x, y = a.kind.Group, b.kind.Group
		}
		if c := strings.Compare(x, y); c != 0 {
			return c
		}
		return strings.Compare(a.kind.Resource, b.kind.Resource)
	})
	var b strings.Builder
	if output == "name" {
		for _, r := range list {
			b.WriteString(r.kind.GroupResource() + "\n")
		}
		return Result{Out: b.String()}
	}
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	if !f.IsTrue("no-headers") {
		header := "NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND"
		if output == "wide" {
			header += "\tVERBS\tCATEGORIES"
		}
		fmt.Fprintln(w, header)
	}
	for _, r := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%v\t%s", r.kind.Resource, r.shortNames, r.kind.APIVersion(), r.kind.Namespaced, r.kind.Kind)
		if output == "wide" {
			fmt.Fprintf(w, "\t%s\t%s", r.verbs, r.categories)
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	return Result{Out: b.String()}
}

// hasAll reports whether the comma-separated set has every wanted value (each flag value may
// itself be a comma-separated list).
func hasAll(set string, wanted []string) bool {
	have := strings.Split(set, ",")
	for _, w := range wanted {
		for _, v := range strings.Split(w, ",") {
			if !slices.Contains(have, v) {
				return false
			}
		}
	}
	return true
}

var versionFlags = []FlagSpec{{Name: "client", Boolean: true}, {Name: "output", Shorthand: 'o'}}

// versionCommand is kubectl version: the client, its kustomize and the server. DaemonLab prints
// the default text only; -o json and yaml would need build details (commit, date) it does not
// have.
func versionCommand(_ *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("version", args, versionFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	if len(f.Args) > 0 {
		return Result{Err: fmt.Sprintf("error: extra arguments: %v", f.Args), Code: 1}
	}
	switch o := f.Get("output"); o {
	case "":
	case "yaml", "json":
		return Result{Err: "error: DaemonLab's kubectl version prints the plain text form only", Code: 1}
	default:
		return Result{Err: "error: --output must be 'yaml' or 'json'", Code: 1}
	}
	out := fmt.Sprintf("Client Version: %s\nKustomize Version: %s\n", kubernetesVersion, kustomizeVersion)
	if !f.IsTrue("client") {
		out += fmt.Sprintf("Server Version: %s\n", kubernetesVersion)
	}
	return Result{Out: out}
}

// clusterInfoCommand is kubectl cluster-info (pkg/cmd/clusterinfo ClusterInfoOptions.Run):
//
//  1. Where the control plane's API server listens: kubeadm's, on the first control-plane
//     node's address, port 6443.
//  2. Then each service of kube-system labelled kubernetes.io/cluster-service=true, in name
//     order, by its kubernetes.io/name label (else its name): at its load balancer's first
//     ingress (http://IP:PORT per port), or else at the API server's proxy path for its first
//     port, "https:NAME:PORT-NAME" when that port is named https or is 443, else
//     "NAME:PORT-NAME" (JoinSchemeNamePort) — kube-dns is "CoreDNS is running at
//     https://…:6443/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy".
func clusterInfoCommand(s *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("cluster-info", args, nil)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	if len(f.Args) > 0 {
		if f.Args[0] == "dump" {
			return Result{Err: "error: DaemonLab's kubectl does not run \"cluster-info dump\" yet", Code: 1}
		}
		return Result{Err: fmt.Sprintf("error: unknown command %q for \"kubectl cluster-info\"", f.Args[0]), Code: 1}
	}
	host := "127.0.0.1"
	for _, n := range s.C.Nodes() {
		if _, ok := n.Labels[api.LabelNodeRoleControlPlane]; ok && nodeAddress(n, "InternalIP") != "<none>" {
			host = nodeAddress(n, "InternalIP")
			break
		}
	}
	server := fmt.Sprintf("https://%s:6443", host)
	var b strings.Builder
	fmt.Fprintf(&b, "Kubernetes control plane is running at %s\n", server)
	for _, svc := range cluster.List[*api.Service](s.C) {
		if svc.Namespace != "kube-system" || svc.Labels["kubernetes.io/cluster-service"] != "true" {
			continue
		}
		var link string
		if ing := svc.Status.LoadBalancer.Ingress; len(ing) > 0 {
			for _, p := range svc.Spec.Ports {
				link += "http://" + firstNonEmpty(ing[0].IP, ing[0].Hostname) + ":" + strconv.Itoa(int(p.Port)) + " "
			}
		} else {
			name := svc.Name
			if len(svc.Spec.Ports) > 0 {
				switch p := svc.Spec.Ports[0]; {
				case p.Name == "https" || p.Port == 443:
					name = "https:" + svc.Name + ":" + p.Name
				case p.Name != "":
					name = svc.Name + ":" + p.Name
				}
			}
			link = server + "/api/v1/namespaces/" + svc.Namespace + "/services/" + name + "/proxy"
		}
		fmt.Fprintf(&b, "%s is running at %s\n", firstNonEmpty(svc.Labels["kubernetes.io/name"], svc.Name), link)
	}
	b.WriteString("\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n")
	return Result{Out: b.String()}
}
