package shell

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/kubelet"
	"daemonlab/core/sim"
)

// simCommands are the sim subcommands, in the order `sim help` lists them.
var simCommands = []struct {
	name, usage string
	run         func(s *sim.Sim, args []string, stdin string) Result
}{
	{"advance", "sim advance DURATION          move the clock forward (10s, 5m, 1h30m), firing due timers in order", simAdvance},
	{"step", "sim step                      move to the next due timer and fire it", simStep},
	{"add-node", "sim add-node NAME [--label k=v]… [--taint k[=v]:Effect]… [--cpu Q] [--memory Q]   a Ready node joins", simAddNode},
	{"fail", "sim fail NODE KIND             KIND: kubelet-down, not-ready, memory-pressure, disk-pressure, pid-pressure, network-unavailable", simFail},
	{"recover", "sim recover NODE [KIND]       clear one fault, or all of them", simRecover},
	{"usage", "sim usage POD --memory Q [-n NAMESPACE]   the memory a pod's containers use", simUsage},
	{"image", "sim image IMAGE BEHAVIOUR [--start DURATION]   BEHAVIOUR: ok, crash (CrashLoopBackOff), unready", simImage},
	{"oom", "sim oom [NODE]                the oom_score_adj the kubelet gives each running container", simOOM},
	{"import", "sim import -f FILE            replace the cluster with a real one's: the output of kubectl get nodes,daemonsets,deployments,replicasets,pods -A -o yaml (-f - reads standard input)", simImport},
}

// simOOM shows what a learner would read in /proc/<pid>/oom_score_adj on each node: the
// kubelet's OOM score adjustment of every container of the pods bound there that have not
// finished (regular containers and sidecars), by the pod's QoS class.
func simOOM(s *sim.Sim, args []string, _ string) Result {
	if len(args) > 1 {
		return Result{Err: "error: sim oom takes at most one node: sim oom [NODE]", Code: 1}
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	fmt.Fprintln(w, "NODE\tNAMESPACE\tPOD\tCONTAINER\tQOS CLASS\tMEMORY REQUEST\tOOM_SCORE_ADJ")
	found := false
	for _, n := range s.C.Nodes() {
		if len(args) == 1 && n.Name != args[0] {
			continue
		}
		found = true
		capacity := n.Status.Capacity[api.ResourceMemory]
		for _, p := range s.C.Pods() {
			if p.Spec.NodeName != n.Name || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
				continue
			}
			var cs []*api.Container
			for i := range p.Spec.InitContainers {
				if rp := p.Spec.InitContainers[i].RestartPolicy; rp != nil && *rp == api.RestartPolicyAlways {
					cs = append(cs, &p.Spec.InitContainers[i])
				}
			}
			for i := range p.Spec.Containers {
				cs = append(cs, &p.Spec.Containers[i])
			}
			for _, c := range cs {
				req := "<none>"
				if q, ok := c.Resources.Requests[api.ResourceMemory]; ok {
					req = q.String()
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%d\n", n.Name, p.Namespace, p.Name, c.Name, p.Status.QOSClass, req, kubelet.OOMScoreAdjust(p, c, capacity.Value()))
			}
		}
	}
	if len(args) == 1 && !found {
		return Result{Err: fmt.Sprintf("Error from server (NotFound): nodes %q not found", args[0]), Code: 1}
	}
	w.Flush()
	return Result{Out: b.String()}
}

var imageFlags = []kubectl.FlagSpec{{Name: "start"}}

// simImage sets how containers of an image behave from now on: `sim image web:2 crash`.
func simImage(s *sim.Sim, args []string, _ string) Result {
	f, err := kubectl.ParseFlags("image", args, imageFlags)
	if err != nil {
		return Result{Err: strings.Replace(err.Error(), "kubectl image", "sim image", 1), Code: 1}
	}
	if len(f.Args) != 2 {
		return Result{Err: "error: sim image takes an image and a behaviour: sim image IMAGE BEHAVIOUR [--start DURATION]", Code: 1}
	}
	b := kubelet.Behaviour(f.Args[1])
	if !slices.Contains(kubelet.Behaviours, b) {
		return Result{Err: fmt.Sprintf("error: unknown behaviour %q: use ok, crash or unready", f.Args[1]), Code: 1}
	}
	startup := kubelet.StartupDelay
	if f.Has("start") {
		if startup, err = time.ParseDuration(f.Get("start")); err != nil || startup < 0 {
			return Result{Err: fmt.Sprintf("error: --start %q is not a duration such as 3s or 1m", f.Get("start")), Code: 1}
		}
	}
	kubelet.SetImage(s.C, f.Args[0], b, startup)
	s.Settle()
	return Result{Out: fmt.Sprintf("image %s: %s, starting in %s\n", f.Args[0], b, startup)}
}

// machineOf finds the machine behind a node, in kubectl's words when there is none.
func machineOf(s *sim.Sim, name string) (cluster.Machine, *Result) {
	m, ok := s.C.Machine(name)
	if !ok || s.C.Node(name) == nil {
		return m, &Result{Err: fmt.Sprintf("Error from server (NotFound): nodes %q not found", name), Code: 1}
	}
	return m, nil
}

func checkKind(kind string) *Result {
	if !slices.Contains(kubelet.Faults, kind) {
		return &Result{Err: fmt.Sprintf("error: unknown fault %q: use one of %s", kind, strings.Join(kubelet.Faults, ", ")), Code: 1}
	}
	return nil
}

var usageFlags = []kubectl.FlagSpec{{Name: "memory"}, {Name: "namespace", Shorthand: 'n'}}

// simUsage sets the memory a pod uses, which ranks it for memory-pressure eviction:
// `sim usage web --memory 300Mi`.
func simUsage(s *sim.Sim, args []string, _ string) Result {
	f, err := kubectl.ParseFlags("usage", args, usageFlags)
	if err != nil {
		return Result{Err: strings.Replace(err.Error(), "kubectl usage", "sim usage", 1), Code: 1}
	}
	if len(f.Args) != 1 || !f.Has("memory") {
		return Result{Err: "error: sim usage takes a pod and --memory: sim usage POD --memory Q", Code: 1}
	}
	q, err := api.ParseQuantity(f.Get("memory"))
	if err != nil || q.Sign() < 0 {
		return Result{Err: fmt.Sprintf("error: --memory %s: not a memory quantity such as 300Mi", f.Get("memory")), Code: 1}
	}
	ns := f.Get("namespace")
	if ns == "" {
		ns = "default"
	}
	p, ok := s.C.Get("Pod", cluster.Key{Namespace: ns, Name: f.Args[0]}).(*api.Pod)
	if !ok {
		return Result{Err: fmt.Sprintf("Error from server (NotFound): pods %q not found", f.Args[0]), Code: 1}
	}
	kubelet.SetMemoryUsage(s.C, p, q)
	s.Settle()
	return Result{Out: fmt.Sprintf("pod/%s uses %s of memory\n", p.Name, q.String())}
}

// simFail injects a fault: `sim fail hd2 kubelet-down`.
func simFail(s *sim.Sim, args []string, _ string) Result {
	if len(args) != 2 {
		return Result{Err: "error: sim fail takes a node and a fault: sim fail NODE KIND", Code: 1}
	}
	name, kind := args[0], args[1]
	m, bad := machineOf(s, name)
	if bad != nil {
		return *bad
	}
	if bad := checkKind(kind); bad != nil {
		return *bad
	}
	switch {
	case kind == kubelet.FaultKubeletDown && m.KubeletDown, slices.Contains(m.Faults, kind):
		return Result{Err: fmt.Sprintf("error: node %s already has the fault %s", name, kind), Code: 1}
	case kind == kubelet.FaultKubeletDown:
		m.KubeletDown, m.DownAt = true, s.C.Now()
	default:
		m.Faults = append(m.Faults, kind)
	}
	s.C.SetMachine(name, m)
	s.Settle()
	return Result{Out: fmt.Sprintf("node/%s failed: %s\n", name, kind)}
}

// simRecover clears one fault, or all: `sim recover hd2 kubelet-down`, `sim recover hd2`.
func simRecover(s *sim.Sim, args []string, _ string) Result {
	if len(args) < 1 || len(args) > 2 {
		return Result{Err: "error: sim recover takes a node and, optionally, a fault: sim recover NODE [KIND]", Code: 1}
	}
	name := args[0]
	m, bad := machineOf(s, name)
	if bad != nil {
		return *bad
	}
	cleared := kubelet.ActiveFaults(m)
	if len(args) == 2 {
		if bad := checkKind(args[1]); bad != nil {
			return *bad
		}
		if !slices.Contains(cleared, args[1]) {
			return Result{Err: fmt.Sprintf("error: node %s does not have the fault %s", name, args[1]), Code: 1}
		}
		cleared = []string{args[1]}
	}
	if len(cleared) == 0 {
		return Result{Err: fmt.Sprintf("error: node %s has no fault to recover from", name), Code: 1}
	}
	for _, kind := range cleared {
		if kind == kubelet.FaultKubeletDown {
			m.KubeletDown, m.RenewFrom, m.SawUnschedulable = false, s.C.Now(), false // a new kubelet
			continue
		}
		m.Faults = slices.DeleteFunc(m.Faults, func(f string) bool { return f == kind })
	}
	s.C.SetMachine(name, m)
	s.Settle()
	return Result{Out: fmt.Sprintf("node/%s recovered: %s\n", name, strings.Join(cleared, ", "))}
}

func runSim(s *sim.Sim, args []string, stdin string) Result {
	if len(args) > 0 {
		for _, c := range simCommands {
			if c.name == args[0] {
				return c.run(s, args[1:], stdin)
			}
		}
	}
	var b strings.Builder
	if len(args) > 0 && args[0] != "help" {
		fmt.Fprintf(&b, "error: unknown command %q for \"sim\"\n\n", args[0])
	}
	b.WriteString("Usage:\n")
	for _, c := range simCommands {
		b.WriteString("  " + c.usage + "\n")
	}
	if len(args) > 0 && args[0] == "help" {
		return Result{Out: b.String()}
	}
	return Result{Err: strings.TrimRight(b.String(), "\n"), Code: 1}
}

// simAdvance moves the clock: `sim advance 30s`.
func simAdvance(s *sim.Sim, args []string, _ string) Result {
	if len(args) != 1 {
		return Result{Err: "error: sim advance takes one duration, such as 10s, 5m or 1h30m", Code: 1}
	}
	d, err := time.ParseDuration(args[0])
	if err != nil || d < 0 {
		return Result{Err: fmt.Sprintf("error: %q is not a duration: use a number and a unit, such as 10s, 5m or 1h30m", args[0]), Code: 1}
	}
	r := s.Begin(d)
	for !r.Next() {
	}
	return Advanced(r)
}

// Advanced is what `sim advance` says when its run is over: nothing, or, when the command's
// budget stopped it, how far it got (sim.Run.Stopped). The page, which takes the run a piece at
// a time, says it too.
func Advanced(r *sim.Run) Result {
	if msg := r.Stopped("sim advance"); msg != "" {
		return Result{Err: "error: " + msg, Code: 1}
	}
	return Result{}
}

// simStep moves to the next due timer: `sim step`.
func simStep(s *sim.Sim, args []string, _ string) Result {
	if len(args) != 0 {
		return Result{Err: "error: sim step takes no arguments", Code: 1}
	}
	if !s.Step() {
		return Result{Err: "error: nothing is scheduled: the cluster is at rest", Code: 1}
	}
	return Result{}
}

var addNodeFlags = []kubectl.FlagSpec{{Name: "label"}, {Name: "taint"}, {Name: "cpu"}, {Name: "memory"}}

// simAddNode adds a Ready node, as its kubelet joining would: `sim add-node hd4 --label disk=ssd`.
func simAddNode(s *sim.Sim, args []string, _ string) Result {
	f, err := kubectl.ParseFlags("add-node", args, addNodeFlags)
	if err != nil {
		return Result{Err: strings.Replace(err.Error(), "kubectl add-node", "sim add-node", 1), Code: 1}
	}
	if len(f.Args) != 1 {
		return Result{Err: "error: sim add-node takes one node name", Code: 1}
	}
	name := f.Args[0]
	opts := kubelet.NodeOptions{Labels: map[string]string{}, CPU: f.Get("cpu"), Memory: f.Get("memory")}
	for _, l := range f.All("label") {
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			return Result{Err: fmt.Sprintf("error: invalid label %q: use key=value", l), Code: 1}
		}
		opts.Labels[k] = v
	}
	for _, t := range f.All("taint") {
		taint, err := kubectl.ParseTaint(t)
		if err == nil && taint.Effect == "" {
			err = fmt.Errorf("invalid taint spec: %v", t)
		}
		if err != nil {
			return Result{Err: "error: " + err.Error(), Code: 1}
		}
		opts.Taints = append(opts.Taints, taint)
	}
	for _, q := range [][2]string{{"cpu", opts.CPU}, {"memory", opts.Memory}} {
		if _, err := api.ParseQuantity(q[1]); q[1] != "" && err != nil {
			return Result{Err: fmt.Sprintf("error: --%s %s: %v", q[0], q[1], err), Code: 1}
		}
	}
	if s.C.Node(name) != nil {
		return Result{Err: fmt.Sprintf("Error from server (AlreadyExists): nodes %q already exists", name), Code: 1}
	}
	node := kubelet.NewNode(name, kubelet.FreeAddress(s.C), opts, s.C.Now())
	if errs := api.Validate(node); len(errs) > 0 {
		return Result{Err: fmt.Sprintf("The Node %q is invalid: %s", name, errs.Error()), Code: 1}
	}
	if err := kubelet.Join(s.C, node, opts.StaticPods); err != nil {
		return Result{Err: kubectl.ServerError(err), Code: 1}
	}
	s.Settle()
	return Result{Out: "node/" + name + " created\n"}
}
