package kubectl

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

// nodeArgs finds the nodes a cordon, uncordon or drain names (at least one); a name that is
// not a node fails the command before it changes anything, as the resource builder does.
func nodeArgs(s *sim.Sim, command string, args []string) ([]*api.Node, *Result) {
	if len(args) == 0 {
		return nil, &Result{Err: fmt.Sprintf("error: USAGE: %s NODE [flags]\nSee 'kubectl %s -h' for help and examples", command, command), Code: 1}
	}
	var nodes []*api.Node
	for _, name := range args {
		n := s.C.Node(name)
		if n == nil {
			return nil, &Result{Err: fmt.Sprintf("Error from server (NotFound): nodes %q not found", name), Code: 1}
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
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
		nodes, bad := nodeArgs(s, name, f.Args)
		if bad != nil {
			return *bad
		}
		var out strings.Builder
		for _, n := range nodes {
			out.WriteString(setUnschedulable(s, n, unschedulable))
		}
		return Result{Out: out.String()}
	}
}

var drainFlags = []FlagSpec{
	{Name: "ignore-daemonsets", Boolean: true},
	{Name: "delete-emptydir-data", Boolean: true},
	{Name: "force", Boolean: true},
	{Name: "grace-period", Check: IsInt},
	{Name: "timeout", Check: IsDuration},
	{Name: "disable-eviction", Boolean: true},
}

// The reasons drain refuses or warns about a pod (k8s.io/kubectl/pkg/drain/filters.go).
const (
	daemonSetFatal    = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	daemonSetWarning  = "ignoring DaemonSet-managed Pods"
	localStorageFatal = "Pods with local storage (use --delete-emptydir-data to override)"
	unmanagedFatal    = "Pods that declare no controller (use --force to override)"
	unmanagedWarning  = "deleting Pods that declare no controller"
)

// verdict is what drain's filters decide for one pod.
type verdict struct {
	evict  bool
	fatal  string // why the pod blocks the drain
	notice string // the warning printed about it
}

// drainVerdict runs drain's filters in their order (daemonSet, mirrorPod, localStorage,
// unreplicated),
// stopping at the first that keeps the pod; the verdict is the last filter's (filterPods), so
// a warning an earlier filter gave is lost when a later one passes the pod:
//
//  1. A DaemonSet's pod blocks the drain without --ignore-daemonsets, and is left alone with it
//     (the DaemonSet would recreate it at once; it tolerates the unschedulable taint). One whose
//     DaemonSet is gone blocks without --force, and with it goes on to the next filters.
//  2. A mirror pod (api.IsMirrorPod) is left alone without a word, finished or not: evicting it
//     would stop nothing, its kubelet runs the static pod whatever the API server holds.
//  3. A pod with an emptyDir volume blocks without --delete-emptydir-data (with it, its warning
//     is lost to the next filter's verdict, as upstream's TODO in localStorageFilter says).
//  4. A pod no controller owns blocks without --force (nothing would recreate it), and is
//     warned about with it.
//
// Finished pods pass every filter; a pod already being deleted goes through them too (drain
// waits for it to be gone). k8s.io/kubectl/pkg/drain/filters.go.
func drainVerdict(c *cluster.Cluster, p *api.Pod, f Flags) verdict {
	mirror := api.IsMirrorPod(p)
	if !mirror && (p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed) {
		return verdict{evict: true}
	}
	ref, owned := api.ControllerOf(&p.ObjectMeta)
	if owned && ref.Kind == "DaemonSet" {
		switch {
		case c.Get("DaemonSet", cluster.Key{Namespace: p.Namespace, Name: ref.Name}) == nil:
			if !f.IsTrue("force") {
				return verdict{fatal: fmt.Sprintf("daemonsets.apps %q not found", ref.Name)}
			}
		case !f.IsTrue("ignore-daemonsets"):
			return verdict{fatal: daemonSetFatal}
		default:
			return verdict{notice: daemonSetWarning}
		}
	}
	if mirror {
		return verdict{}
	}
	if slices.ContainsFunc(p.Spec.Volumes, func(v api.Volume) bool { return v.EmptyDir != nil }) && !f.IsTrue("delete-emptydir-data") {
		return verdict{fatal: localStorageFatal}
	}
	switch {
	case owned:
		return verdict{evict: true}
	case !f.IsTrue("force"):
		return verdict{fatal: unmanagedFatal}
	}
	return verdict{evict: true, notice: unmanagedWarning}
}

// podsForDeletion is GetPodsForDeletion: the node's pods the filters let go, and the reasons
// (in the order met) that some block the drain or are warned about, each with its pods.
type podsForDeletion struct {
	evict                   []*api.Pod
	fatal, notices          map[string][]string
	fatalOrder, noticeOrder []string
}

func listPodsForDeletion(c *cluster.Cluster, node string, f Flags) podsForDeletion {
	l := podsForDeletion{fatal: map[string][]string{}, notices: map[string][]string{}}
	for _, p := range c.Pods() {
		if p.Spec.NodeName != node {
			continue
		}
		v := drainVerdict(c, p, f)
		id := p.Namespace + "/" + p.Name
		if v.fatal != "" {
			l.fatalOrder = appendNew(l.fatalOrder, v.fatal)
			l.fatal[v.fatal] = append(l.fatal[v.fatal], id)
			continue
		}
		if v.notice != "" {
			l.noticeOrder = appendNew(l.noticeOrder, v.notice)
			l.notices[v.notice] = append(l.notices[v.notice], id)
		}
		if v.evict {
			l.evict = append(l.evict, p)
		}
	}
	return l
}

// The drain's timings (k8s.io/kubectl/pkg/drain): an eviction a budget refuses is tried again
// after evictRetryDelay (EvictErrorRetryDelay), and an evicted pod is looked for every
// deletePollInterval until it is gone (waitForDelete).
const (
	evictRetryDelay    = 5 * time.Second
	deletePollInterval = time.Second
)

// drainCommand runs `kubectl drain NODE` (pkg/cmd/drain RunDrain, pkg/drain evictPods):
//
//  1. Cordon every node named, then drain each in turn: list its pods; any the filters refuse
//     stop that node's drain, listed.
//  2. Evict every other pod, all at once, each on its own: "evicting pod NS/NAME" every time it
//     is tried. A budget's 429 prints "error when evicting pods/"NAME" -n "NS" (will retry after
//     5s): …" and the pod is tried again 5s later; a pod already gone is done; any other error
//     is that pod's failure.
//  3. An evicted pod is looked for every second until it is gone: "pod/NAME evicted".
//  4. --timeout bounds it all: a pod whose next try comes after it fails with "global timeout
//     reached: D", one still being waited for with "context deadline exceeded". Then the
//     node's pods still to go are listed and the drain fails; the node stays cordoned.
//  5. Without --timeout kubectl waits for as long as it takes; DaemonLab lets simulated time
//     pass up to defaultWatchLimit (5m), then fails as a --timeout=5m0s would, and says so.
//  6. --disable-eviction deletes the pods instead (deletePods), so no budget is asked: each is
//     deleted at once, silently, then waited for ("pod/NAME deleted"); a wait that outlasts
//     --timeout fails the drain with the one error "context deadline exceeded".
//  7. A drain that spends the command's work budget (sim.Sim.Spent) stops where it stands, the
//     node's pods still to go failing with the reason.
//  8. A node that fails is reported ("…, continuing command...") and the next one drained; the
//     nodes left are listed at the end, then the errors (see drainError).
func drainCommand(s *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("drain", args, drainFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	nodes, bad := nodeArgs(s, "drain", f.Args)
	if bad != nil {
		return *bad
	}
	var grace *int64
	if g := f.Int("grace-period"); f.Has("grace-period") && g >= 0 {
		grace = &g
	}
	timeout, capped := defaultWatchLimit, true
	if d := f.Duration("timeout"); d > 0 {
		timeout, capped = d, false
	}
	var w interleaved
	o, e := w.to(false), w.to(true)
	for _, n := range nodes {
		io.WriteString(o, setUnschedulable(s, n, true))
	}
	d := &drainer{s: s, grace: grace, timeout: timeout, deleting: f.IsTrue("disable-eviction"), o: o, e: e}
	var pending []string
	var fatal []drainError
	for _, n := range nodes {
		de := d.drainNode(n.Name, f)
		if de == nil {
			fmt.Fprintf(o, "node/%s drained\n", n.Name)
			continue
		}
		fmt.Fprintf(e, "error: unable to drain node %q due to error: %s, continuing command...\n", n.Name, de.msg)
		pending, fatal = append(pending, n.Name), append(fatal, *de)
	}
	if len(fatal) == 0 {
		return w.result(0)
	}
	io.WriteString(e, "There are pending nodes to be drained:\n")
	for _, name := range pending {
		fmt.Fprintf(e, " %s\n", name)
	}
	if len(fatal) == 1 {
		io.WriteString(e, fatal[0].final)
	} else {
		for i, de := range fatal {
			if i > 0 {
				io.WriteString(e, "\n")
			}
			io.WriteString(e, de.msg)
		}
	}
	if capped && d.timedOut {
		fmt.Fprintf(e, "\nDaemonLab stopped waiting after %v of simulated time; kubectl drain without --timeout waits for as long as it takes.", timeout)
	}
	return w.result(1)
}

// drainError is why a node could not be drained, as RunDrain prints it (msg) and as checkErr
// prints it when it is the only one (final): an aggregate one error a line, with no "error: "
// before them, a plain error after "error: " (MultipleErrors; k8s.io/kubectl/pkg/cmd/drain/
// drain.go RunDrain, pkg/cmd/util/helpers.go checkErr). Of several nodes' errors checkErr
// prints each one's msg a line.
type drainError struct{ msg, final string }

func aggregateError(errs []string) *drainError {
	return &drainError{aggregate(errs), strings.Join(errs, "\n")}
}

// drainNode is deleteOrEvictPodsSimple for one node, already cordoned: rules 1 to 4, 6 and 7 of
// drainCommand.
func (d *drainer) drainNode(node string, f Flags) *drainError {
	l := listPodsForDeletion(d.s.C, node, f)
	if len(l.fatalOrder) > 0 {
		var errs []string
		for _, msg := range l.fatalOrder {
			errs = append(errs, fmt.Sprintf("cannot delete %s: %s", msg, strings.Join(l.fatal[msg], ", ")))
		}
		return aggregateError(errs)
	}
	var warnings []string
	for _, msg := range l.noticeOrder {
		warnings = append(warnings, fmt.Sprintf("%s: %s", msg, strings.Join(l.notices[msg], ", ")))
	}
	if len(warnings) > 0 {
		io.WriteString(d.e, "Warning: "+strings.Join(warnings, "; ")+"\n")
	}
	failures := d.evictPods(l.evict)
	if len(failures) == 0 {
		return nil
	}
	de := aggregateError(failures)
	if d.deleting { // deletePods waits for them all, and fails once with a plain error
		de = &drainError{failures[0], "error: " + failures[0]}
	}
	if pending := listPodsForDeletion(d.s.C, node, f).evict; len(pending) > 0 {
		fmt.Fprintf(d.e, "There are pending pods in node %q when an error occurred: %s\n", node, de.msg)
		for _, p := range pending {
			fmt.Fprintf(d.e, "pod/%s\n", p.Name)
		}
	}
	return de
}

// drainer is a drain's evictions under way (evictPods), its output and its --timeout.
type drainer struct {
	s        *sim.Sim
	grace    *int64
	timeout  time.Duration
	deadline time.Time
	timedOut bool      // a pod failed for want of time
	deleting bool      // --disable-eviction
	o, e     io.Writer // standard output and error
}

// eviction is one pod's part of a drain: tried again at next, or, once evicted, looked for then.
type eviction struct {
	pod     *api.Pod
	next    time.Time
	evicted bool
}

// evictPods is rules 2 to 4 of drainCommand, simulated time passing between the tries; it
// returns the pods' failures in the order they came.
func (d *drainer) evictPods(pods []*api.Pod) []string {
	d.deadline = d.s.C.Now().Add(d.timeout)
	var failures []string
	todo := make([]*eviction, len(pods))
	for i, p := range pods {
		todo[i] = &eviction{pod: p, next: d.s.C.Now()}
	}
	for len(todo) > 0 {
		now := d.s.C.Now()
		left := todo[:0]
		for _, ev := range todo {
			if done, failure := d.step(ev, now); !done {
				left = append(left, ev)
			} else if failure != "" {
				failures = append(failures, failure)
			}
		}
		if todo = left; len(todo) == 0 {
			break
		}
		next := todo[0].next
		for _, ev := range todo[1:] {
			if ev.next.Before(next) {
				next = ev.next
			}
		}
		d.s.Advance(next.Sub(now))
		if d.s.Spent() {
			return append(failures, sim.Stopped("kubectl drain", d.s.C.Now().Sub(d.deadline.Add(-d.timeout)), d.timeout))
		}
	}
	return failures
}

// step does what is due for one pod at now, and reports whether it is done (and how it failed).
func (d *drainer) step(ev *eviction, now time.Time) (bool, string) {
	p := ev.pod
	if now.Before(ev.next) {
		return false, ""
	}
	if !ev.evicted && d.deleting {
		_, err := apiserver.Delete(d.s.C, apiserver.KindOf(p), cluster.KeyOf(p), apiserver.DeleteOptions{GracePeriodSeconds: d.grace})
		if se := (*apiserver.StatusError)(nil); err != nil && !(errors.As(err, &se) && se.Reason == apiserver.ReasonNotFound) {
			return true, err.Error()
		}
		ev.evicted = true
	}
	if !ev.evicted {
		fmt.Fprintf(d.o, "evicting pod %s/%s\n", p.Namespace, p.Name)
		if !now.Before(d.deadline) {
			d.timedOut = true
			return true, fmt.Sprintf("error when evicting pods/%q -n %q: global timeout reached: %v", p.Name, p.Namespace, d.timeout)
		}
		err := apiserver.Evict(d.s.C, cluster.KeyOf(p), d.grace)
		var se *apiserver.StatusError
		errors.As(err, &se)
		switch {
		case err == nil:
			ev.evicted = true
		case se != nil && se.Reason == apiserver.ReasonNotFound:
			return true, ""
		case se != nil && se.Reason == apiserver.ReasonTooManyRequests:
			fmt.Fprintf(d.e, "error when evicting pods/%q -n %q (will retry after %v): %v\n", p.Name, p.Namespace, evictRetryDelay, err)
			ev.next = now.Add(evictRetryDelay)
			if fresh, ok := d.s.C.Get("Pod", cluster.KeyOf(p)).(*api.Pod); ok {
				ev.pod = fresh
			}
			return false, ""
		default:
			return true, fmt.Sprintf("error when evicting pods/%q -n %q: %v", p.Name, p.Namespace, err)
		}
	}
	if cur := d.s.C.Get("Pod", cluster.KeyOf(p)); cur == nil || cur.GetObjectMeta().UID != p.UID {
		verb := "evicted"
		if d.deleting {
			verb = "deleted"
		}
		fmt.Fprintf(d.o, "pod/%s %s\n", p.Name, verb)
		return true, ""
	}
	if !now.Before(d.deadline) {
		d.timedOut = true
		if d.deleting {
			return true, "context deadline exceeded"
		}
		return true, fmt.Sprintf("error when waiting for pod %q in namespace %q to terminate: context deadline exceeded", p.Name, p.Namespace)
	}
	ev.next = now.Add(deletePollInterval)
	if ev.next.After(d.deadline) {
		ev.next = d.deadline
	}
	return false, ""
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
