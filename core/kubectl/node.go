package kubectl

import (
	"fmt"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

// nodeArg finds the one node a cordon, uncordon or drain names.
func nodeArg(s *sim.Sim, command string, args []string) (*api.Node, *Result) {
	if len(args) != 1 {
		return nil, &Result{Err: fmt.Sprintf("error: USAGE: %s NODE [flags]\nSee 'kubectl %s -h' for help and examples", command, command), Code: 1}
	}
	n := s.C.Node(args[0])
	if n == nil {
		return nil, &Result{Err: fmt.Sprintf("Error from server (NotFound): nodes %q not found", args[0]), Code: 1}
	}
	return n, nil
}

// setUnschedulable cordons or uncordons a node, printing kubectl's "node/x cordoned" or
// "node/x already cordoned".
func setUnschedulable(s *sim.Sim, n *api.Node, unschedulable bool) string {
	verb := "cordoned"
	if !unschedulable {
		verb = "uncordoned"
	}
	if n.Spec.Unschedulable == unschedulable {
		return fmt.Sprintf("node/%s already %s\n", n.Name, verb)
	}
	next := api.DeepCopy(n)
	next.Spec.Unschedulable = unschedulable
	_, _ = apiserver.Update(s.C, next, apiserver.Options{}) // a node that exists takes the change
	return fmt.Sprintf("node/%s %s\n", n.Name, verb)
}

func cordonCommand(unschedulable bool) func(*sim.Sim, []string, string) Result {
	name := "cordon"
	if !unschedulable {
		name = "uncordon"
	}
	return func(s *sim.Sim, args []string, _ string) Result {
		f, err := ParseFlags(name, args, nil)
		if err != nil {
			return Result{Err: err.Error(), Code: 1}
		}
		n, bad := nodeArg(s, name, f.Args)
		if bad != nil {
			return *bad
		}
		return Result{Out: setUnschedulable(s, n, unschedulable)}
	}
}

var drainFlags = []FlagSpec{
	{Name: "ignore-daemonsets", Boolean: true},
	{Name: "delete-emptydir-data", Boolean: true},
	{Name: "force", Boolean: true},
	{Name: "grace-period"},
}

// The reasons drain refuses or warns about a pod (k8s.io/kubectl/pkg/drain/filters.go).
const (
	daemonSetFatal      = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	daemonSetWarning    = "ignoring DaemonSet-managed Pods"
	localStorageFatal   = "Pods with local storage (use --delete-emptydir-data to override)"
	localStorageWarning = "deleting Pods with local storage"
	unmanagedFatal      = "Pods that declare no controller (use --force to override)"
	unmanagedWarning    = "deleting Pods that declare no controller"
)

// verdict is what drain's filters decide for one pod.
type verdict struct {
	evict  bool
	fatal  string // why the pod blocks the drain
	notice string // the warning printed about it
}

// drainVerdict runs drain's filters in their order (daemonSet, localStorage, unreplicated),
// stopping at the first that keeps the pod:
//
//  1. A pod already being deleted is skipped.
//  2. A DaemonSet's pod blocks the drain without --ignore-daemonsets, and is left alone with it
//     (the DaemonSet would recreate it at once; it tolerates the unschedulable taint).
//  3. A pod with an emptyDir volume blocks without --delete-emptydir-data.
//  4. A pod no controller owns blocks without --force (nothing would recreate it).
//
// Finished pods pass every filter.
func drainVerdict(c *cluster.Cluster, p *api.Pod, f Flags) verdict {
	if p.DeletionTimestamp != nil {
		return verdict{}
	}
	finished := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
	ref, owned := api.ControllerOf(&p.ObjectMeta)
	if owned && ref.Kind == "DaemonSet" && !finished {
		if c.Get("DaemonSet", cluster.Key{Namespace: p.Namespace, Name: ref.Name}) == nil && !f.IsTrue("force") {
			return verdict{fatal: fmt.Sprintf("daemonsets.apps %q not found", ref.Name)}
		}
		if !f.IsTrue("ignore-daemonsets") {
			return verdict{fatal: daemonSetFatal}
		}
		return verdict{notice: daemonSetWarning}
	}
	v := verdict{evict: true}
	for _, vol := range p.Spec.Volumes {
		if vol.EmptyDir != nil && !finished {
			if !f.IsTrue("delete-emptydir-data") {
				return verdict{fatal: localStorageFatal}
			}
			v.notice = localStorageWarning
		}
	}
	if !owned && !finished {
		if !f.IsTrue("force") {
			return verdict{fatal: unmanagedFatal}
		}
		v.notice = unmanagedWarning
	}
	return v
}

// drainCommand runs `kubectl drain NODE`: cordon the node, then evict every pod drain's filters
// let go, or refuse and list the pods that stop it. kubectl waits until the evicted pods are
// gone; DaemonLab prints at once, and the pods stay Terminating for as long as their kubelet
// takes (see kubectl get pods).
func drainCommand(s *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("drain", args, drainFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	n, bad := nodeArg(s, "drain", f.Args)
	if bad != nil {
		return *bad
	}
	var grace *int64
	if f.Has("grace-period") {
		var g int64
		if _, err := fmt.Sscan(f.Get("grace-period"), &g); err != nil {
			return Result{Err: fmt.Sprintf("error: invalid argument %q for \"--grace-period\" flag: strconv.ParseInt: parsing %q: invalid syntax", f.Get("grace-period"), f.Get("grace-period")), Code: 1}
		}
		if g >= 0 {
			grace = &g
		}
	}
	out := setUnschedulable(s, n, true)
	var evict []*api.Pod
	fatal, notices := map[string][]string{}, map[string][]string{}
	var fatalOrder, noticeOrder []string
	for _, p := range s.C.Pods() {
		if p.Spec.NodeName != n.Name {
			continue
		}
		v := drainVerdict(s.C, p, f)
		id := p.Namespace + "/" + p.Name
		if v.fatal != "" {
			fatalOrder = appendNew(fatalOrder, v.fatal)
			fatal[v.fatal] = append(fatal[v.fatal], id)
			continue
		}
		if v.notice != "" {
			noticeOrder = appendNew(noticeOrder, v.notice)
			notices[v.notice] = append(notices[v.notice], id)
		}
		if v.evict {
			evict = append(evict, p)
		}
	}
	if len(fatalOrder) > 0 {
		var errs []string
		for _, msg := range fatalOrder {
			errs = append(errs, fmt.Sprintf("cannot delete %s: %s", msg, strings.Join(fatal[msg], ", ")))
		}
		agg := errs[0]
		if len(errs) > 1 {
			agg = "[" + strings.Join(errs, ", ") + "]"
		}
		return Result{Out: out, Code: 1, Err: fmt.Sprintf("error: unable to drain node %q due to error: %s, continuing command...\nThere are pending nodes to be drained:\n %s\nerror: %s", n.Name, agg, n.Name, agg)}
	}
	var warnings []string
	for _, msg := range noticeOrder {
		warnings = append(warnings, fmt.Sprintf("%s: %s", msg, strings.Join(notices[msg], ", ")))
	}
	var errOut string
	if len(warnings) > 0 {
		errOut = "Warning: " + strings.Join(warnings, "; ")
	}
	var b strings.Builder
	b.WriteString(out)
	for _, p := range evict {
		fmt.Fprintf(&b, "evicting pod %s/%s\n", p.Namespace, p.Name)
	}
	for _, p := range evict {
		if err := apiserver.Evict(s.C, cluster.KeyOf(p), grace); err != nil {
			return Result{Out: b.String(), Err: serverError(err), Code: 1}
		}
		fmt.Fprintf(&b, "pod/%s evicted\n", p.Name)
	}
	fmt.Fprintf(&b, "node/%s drained\n", n.Name)
	return Result{Out: b.String(), Err: errOut}
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
