// Package sim runs DaemonLab's simulated cluster: the object store and the controllers that
// act on it. After every change the controllers run until nothing more changes at the current
// instant; time moves only through Advance, firing every due timer in order.
package sim

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/controller/daemon"
	"daemonlab/core/controller/deployment"
	"daemonlab/core/controller/disruption"
	"daemonlab/core/controller/garbagecollector"
	"daemonlab/core/controller/nodeipam"
	"daemonlab/core/controller/nodelifecycle"
	"daemonlab/core/controller/replicaset"
	"daemonlab/core/controller/serviceaccount"
	"daemonlab/core/controller/tainteviction"
	"daemonlab/core/kubelet"
	"daemonlab/core/scheduler"
)

// GCPercent is the Go garbage collector's target for a simulation in a browser tab (the page
// sets it at start): the heap may grow 60% past what is live between collections rather than
// the default 100%. A tab's WebAssembly memory never shrinks, so its peak is what counts: with
// 5,000 nodes and 15,000 pods, about 285 MB instead of 406 MB, for about 6% more time.
const GCPercent = 60

// Sim is one simulated cluster.
type Sim struct {
	C     *cluster.Cluster
	quiet []quiet         // each controller's last pass, when it changed nothing
	began []cluster.Since // when each controller's last pass began
	work  int64           // the work done so far (see Work)
	limit int64           // the work at which the clock stops moving (see Command)
}

// quiet is a pass that changed nothing: the cluster's stamp and clock when it began.
type quiet struct {
	ok    bool
	stamp uint64
	now   time.Time
}

// CheckSkips runs every pass a controller would skip and panics if it changes anything (the
// tests set it: a pass skipped wrongly means a kind missing from the controller's reads).
var CheckSkips bool

// Topology names a starting cluster.
type Topology string

const (
	// Default is the built-in cluster: control plane hd1 (tainted
	// node-role.kubernetes.io/control-plane:NoSchedule) and workers hd2 and hd3, and the
	// kube-dns service of kubeadm's DNS addon (CreateKubeDNS).
	Default Topology = "default"
	// Empty has the namespaces kubeadm creates, the API server's kubernetes service and its
	// system PriorityClasses (which every topology has) and nothing else.
	Empty Topology = "empty"
	// Kubeadm is the default cluster with what `kubeadm init` v1.37.2 runs in kube-system: the
	// control plane's static pods on hd1 (etcd, kube-apiserver, kube-controller-manager,
	// kube-scheduler, shown as mirror pods), the coredns Deployment and the kube-proxy
	// DaemonSet, with their ServiceAccounts (see kubeadmControlPlane and kubeadmAddons).
	Kubeadm Topology = "kubeadm"
)

// Topologies are the starting clusters, in the order messages list them.
var Topologies = []Topology{Default, Empty, Kubeadm}

// ParseTopology reads a starting cluster's name: "" is Default; an unknown one is an error that
// lists the others ("cluster \"big\": use default, empty or kubeadm").
func ParseTopology(name string) (Topology, error) {
	if name == "" {
		return Default, nil
	}
	if slices.Contains(Topologies, Topology(name)) {
		return Topology(name), nil
	}
	return "", unknownTopology(name)
}

// unknownTopology says which starting clusters there are.
func unknownTopology(name string) error {
	names := make([]string, len(Topologies))
	for i, t := range Topologies {
		names[i] = string(t)
	}
	last := len(names) - 1
	return fmt.Errorf("cluster %q: use %s or %s", name, strings.Join(names[:last], ", "), names[last])
}

// New returns a settled cluster of the given topology, its randomness drawn from seed.
func New(seed uint64, topology Topology) (*Sim, error) {
	s := &Sim{C: cluster.New(seed), quiet: make([]quiet, len(controllers)), began: make([]cluster.Since, len(controllers)), limit: math.MaxInt64}
	if err := apiserver.CreateSystemNamespaces(s.C); err != nil {
		return nil, err
	}
	if !slices.Contains(Topologies, topology) {
		return nil, fmt.Errorf("unknown %w", unknownTopology(string(topology)))
	}
	apiserver.SyncKubernetesService(s.C) // the API server's own, as it starts
	if err := apiserver.CreateSystemPriorityClasses(s.C); err != nil {
		return nil, err
	}
	if topology != Empty {
		if err := s.joinNodes(topology == Kubeadm); err != nil {
			return nil, err
		}
	}
	if topology == Kubeadm {
		if err := kubeadmAddons(s.C); err != nil {
			return nil, err
		}
	}
	if topology != Empty {
		if err := CreateKubeDNS(s.C); err != nil {
			return nil, err
		}
	}
	s.Settle()
	return s, nil
}

// Replace makes fresh's cluster this simulation's, in place (cluster.Replace: the workspace
// stays): the work fresh did counts as this one's, and every controller's next pass is a whole
// one, as after a restore. Both must have the same seed.
func (s *Sim) Replace(fresh *Sim) {
	s.C.Replace(fresh.C)
	s.work += fresh.work
	clear(s.quiet)
	clear(s.began)
}

// joinNodes joins the default cluster's nodes: control plane hd1 (labelled and tainted as
// kubeadm does, running the control plane's static pods when staticPods), then hd2 and hd3.
func (s *Sim) joinNodes(staticPods bool) error {
	for i, name := range []string{"hd1", "hd2", "hd3"} {
		opts := kubelet.NodeOptions{}
		if i == 0 {
			opts = kubelet.NodeOptions{
				Labels: map[string]string{api.LabelNodeRoleControlPlane: "", api.LabelNodeExcludeBalancers: ""},
				Taints: []api.Taint{{Key: api.LabelNodeRoleControlPlane, Effect: api.TaintEffectNoSchedule}},
			}
		}
		n := kubelet.NewNode(name, i, opts, s.C.Now())
		if staticPods && i == 0 {
			pods, err := kubeadmControlPlane(name, kubelet.NodeIP(n))
			if err != nil {
				return err
			}
			opts.StaticPods = pods
		}
		if err := kubelet.Join(s.C, n, opts.StaticPods); err != nil {
			return err
		}
	}
	return nil
}

// maxRounds bounds one settling; the controllers converge in a handful of rounds, so reaching it
// means a controller fights another, which is a bug worth a clear panic in tests.
const maxRounds = 1000

// Settle runs the controllers until none changes anything at the current instant: the kubelets
// registering their nodes, the node IPAM controller, the node lifecycle controller, the taint eviction controller, the garbage collector and pod GC, the
// Deployment, ReplicaSet and DaemonSet controllers, the scheduler (one pod at a time, in queue
// order) and the kubelets.
func (s *Sim) Settle() {
	var st settling
	for !st.next(s) {
	}
}

// settling is a Settle in progress, a piece of a controller's pass at a time:
//  1. every round runs the controllers' passes in order;
//  2. a round in which none changed anything ends the settling, and events past their time to
//     live expire;
//  3. after maxRounds rounds that all changed something, it panics.
type settling struct {
	round, controller int      // the round, and the controller whose pass is under way in it
	rest              piece    // the rest of that pass, once begun
	changed           bool     // that pass changed something
	busy              []string // the controllers that changed something this round
}

// next runs the next piece, counting its writes as work, and reports whether the settling is
// over.
func (st *settling) next(s *Sim) (settled bool) {
	writes := s.C.Writes()
	settled = st.piece(s)
	s.work += writeWeight * (s.C.Writes() - writes)
	return settled
}

// piece runs the next piece and reports whether the settling is over. A controller whose last
// pass changed nothing, and none of whose reads changed since it began, is not run again: the
// pass would change nothing again. A pass is given when the controller's last one began, for
// the controllers that visit only what changed since (see cluster.ChangedNodes).
func (st *settling) piece(s *Sim) (settled bool) {
	c, ctl, q := s.C, controllers[st.controller], &s.quiet[st.controller]
	if st.rest == nil {
		s.work += ctl.weight(c)
		if ctl.reads != nil && q.ok && !c.ChangedSince(q.stamp, ctl.reads...) && c.Now().Equal(q.now) {
			if CheckSkips {
				checkPass(c, ctl, wrongSkip)
			}
			return st.passed(c, false)
		}
		q.stamp, q.now = c.Stamp(), c.Now()
		since := s.began[st.controller]
		s.began[st.controller] = c.Mark()
		st.rest = ctl.begin(c, since)
	}
	changed, rest := st.rest()
	st.changed = st.changed || changed
	if st.rest = rest; rest != nil {
		return false
	}
	if CheckSkips && !st.changed {
		checkPass(c, ctl, wrongVisit)
	}
	q.ok = !st.changed
	return st.passed(c, st.changed)
}

// What checkPass panics with, the controller's reads filled in.
const (
	wrongSkip  = "skipped a pass that changes the cluster: it reads more than %v"
	wrongVisit = "changed nothing where a pass over everything it reads changes the cluster: it visits less than what changed in %v"
)

// checkPass runs a pass over everything the controller reads, as if it had never run, and
// panics if it changes anything: the pass it stands for (one skipped, or one that visited only
// what changed and changed nothing) would have been wrong.
func checkPass(c *cluster.Cluster, ctl controller, wrong string) {
	before := c.Writes()
	changed := false
	for p := ctl.begin(c, cluster.Since{}); p != nil; {
		var ch bool
		ch, p = p()
		changed = changed || ch
	}
	if changed || c.Writes() != before {
		panic(ctl.name + " " + fmt.Sprintf(wrong, ctl.reads))
	}
}

// passed ends a controller's pass in the round.
func (st *settling) passed(c *cluster.Cluster, changed bool) (settled bool) {
	ctl := controllers[st.controller]
	if changed {
		st.busy = append(st.busy, ctl.name)
	}
	st.changed = false
	if st.controller++; st.controller < len(controllers) {
		return false
	}
	if len(st.busy) == 0 {
		c.ExpireEvents()
		return true
	}
	if st.round++; st.round == maxRounds {
		panic(fmt.Sprintf("the controllers did not settle: %s kept changing the cluster", strings.Join(st.busy, ", ")))
	}
	st.controller, st.busy = 0, st.busy[:0]
	return false
}

// controller is one control loop of the simulation. A pass syncs everything it manages once,
// in pieces: begin starts a pass, given when the controller's last one began, and returns its
// first piece. reads are the kinds a pass reads
// ("Machine" and "Memo" for the machines and the controllers' memory; it reads the clock too):
// a controller that lists them may skip a pass (see settling.next); nil means it never does.
type controller struct {
	name  string
	begin func(*cluster.Cluster, cluster.Since) piece
	reads []string
}

// weight is the work a pass counts, run or skipped (see Work).
func (ctl controller) weight(c *cluster.Cluster) int64 { return weigh(c, ctl.reads) }

// weigh is the work of reading the kinds: one, and one for every object of them (every machine
// for "Machine"; the controllers' memory is not counted).
func weigh(c *cluster.Cluster, kinds []string) int64 {
	w := 1
	for _, kind := range kinds {
		switch kind {
		case "Machine":
			w += c.MachineCount()
		case "Memo":
		default:
			w += c.Count(kind)
		}
	}
	return int64(w)
}

// piece is part of a controller's pass: it reports whether it changed anything, and returns the
// next piece, or nil when the pass is over.
type piece func() (changed bool, next piece)

// whole is a controller whose pass is one piece.
func whole(sync func(*cluster.Cluster) bool) func(*cluster.Cluster, cluster.Since) piece {
	return changes(func(c *cluster.Cluster, _ cluster.Since) bool { return sync(c) })
}

// changes is a controller whose pass is one piece, visiting what changed since its last began.
func changes(sync func(*cluster.Cluster, cluster.Since) bool) func(*cluster.Cluster, cluster.Since) piece {
	return func(c *cluster.Cluster, since cluster.Since) piece {
		return func() (bool, piece) { return sync(c, since), nil }
	}
}

// controllers run in this order in every round of Settle.
var controllers = []controller{
	{"kubelet-registration", changes(kubelet.Register), []string{"Node", "Machine"}},
	{"serviceaccount-controller", whole(serviceaccount.Sync), []string{"Namespace", "ServiceAccount"}},
	{"kubernetes-service-controller", whole(apiserver.SyncKubernetesService), []string{"Namespace", "Service"}},
	{"node-ipam-controller", changes(nodeipam.Sync), []string{"Node"}},
	{"node-lifecycle-controller", changes(nodelifecycle.Sync), []string{"Node", "Pod", "Lease", "Machine", "Memo"}},
	{"taint-eviction-controller", changes(tainteviction.Sync), []string{"Node", "Pod", "Memo"}},
	{"garbage-collector", whole(garbagecollector.Sync), []string{"Deployment", "ReplicaSet", "DaemonSet", "Pod", "ControllerRevision"}},
	{"pod-garbage-collector", whole(garbagecollector.SyncPods), []string{"Node", "Pod", "Memo"}},
	{"deployment-controller", whole(func(c *cluster.Cluster) bool {
		changed := false
		for d := range cluster.All[*api.Deployment](c) {
			changed = deployment.Sync(c, d) || changed
		}
		return changed
	}), []string{"Deployment", "ReplicaSet", "Pod", "Namespace"}},
	{"replicaset-controller", func(c *cluster.Cluster, _ cluster.Since) piece {
		return replicaSetPass(c, cluster.List[*api.ReplicaSet](c), 0)
	}, []string{"ReplicaSet", "Pod", "Namespace"}},
	{"daemonset-controller", func(c *cluster.Cluster, _ cluster.Since) piece {
		pass := &daemonSetPass{c: c, sets: c.DaemonSets()}
		if len(pass.sets) > 0 {
			pass.ds = pass.sets[0]
		}
		return pass.next
	}, []string{"DaemonSet", "Node", "Pod", "ControllerRevision", "Namespace", "Memo"}},
	{"disruption-controller", whole(disruption.Sync), []string{"PodDisruptionBudget", "Pod", "ReplicaSet", "Deployment"}},
	{"default-scheduler", whole(func(c *cluster.Cluster) bool {
		pending := scheduler.Pending(c)
		if len(pending) == 0 {
			return false
		}
		changed := false
		cycle := scheduler.NewCycle(c)
		for _, pod := range pending {
			changed = cycle.Apply(cycle.Schedule(pod)) || changed
		}
		return changed
	}), []string{"Pod", "Node", "ReplicaSet", "PriorityClass", "Namespace", "Memo"}},
	{"kubelet", changes(kubelet.Sync), []string{"Node", "Pod", "Machine", "Memo"}},
}

// daemonSetPass is the DaemonSet controller's pass, a sync of one DaemonSet per piece. A sync
// that burstReplicas cut short is followed at once by the next, as the controller requeues a
// DaemonSet as soon as it has seen its own creates and deletes; when creating was all it had
// left, the next is SyncRest. A DaemonSet gets at most maxRounds syncs in a pass.
type daemonSetPass struct {
	c     *cluster.Cluster
	sets  []*api.DaemonSet
	i     int            // sets[i] is being synced
	ds    *api.DaemonSet // its current object
	round int            // its syncs so far in this pass, less one
	rest  *daemon.Plan   // what its last sync left to create, for SyncRest
}

func (p *daemonSetPass) next() (changed bool, next piece) {
	if p.i == len(p.sets) {
		return false, nil
	}
	var out daemon.Outcome
	if p.rest != nil {
		out = daemon.SyncRest(p.c, p.ds, *p.rest)
	} else {
		out = daemon.Sync(p.c, p.ds)
	}
	p.rest = out.Rest
	p.ds, _ = p.c.Get("DaemonSet", cluster.Key{Namespace: p.ds.Namespace, Name: p.ds.Name}).(*api.DaemonSet)
	switch {
	case p.ds != nil && p.rest != nil:
	case p.ds != nil && out.Capped && p.round+1 < maxRounds:
		p.round++
	default:
		if p.i++; p.i == len(p.sets) {
			return out.Changed, nil
		}
		p.ds, p.round, p.rest = p.sets[p.i], 0, nil
	}
	return out.Changed, p.next
}

// replicaSetPass is the ReplicaSet controller's pass from sets[0] on, a sync of one ReplicaSet
// per piece. A sync that burstReplicas cut short is followed at once by the next, as the
// controller requeues a ReplicaSet as soon as it has seen its own creates and deletes; a
// ReplicaSet gets at most maxRounds syncs in a pass (round counts those it had, less one).
func replicaSetPass(c *cluster.Cluster, sets []*api.ReplicaSet, round int) piece {
	return func() (bool, piece) {
		if len(sets) == 0 {
			return false, nil
		}
		changed, again := replicaset.Sync(c, sets[0])
		rs, _ := c.Get("ReplicaSet", cluster.KeyOf(sets[0])).(*api.ReplicaSet)
		switch {
		case rs != nil && again && round+1 < maxRounds:
			sets[0], round = rs, round+1
		case len(sets) == 1:
			return changed, nil
		default:
			sets, round = sets[1:], 0
		}
		return changed, replicaSetPass(c, sets, round)
	}
}

// timers are the controllers that act when time passes, not only when something changes.
var timers = []func(*cluster.Cluster) (time.Time, bool){kubelet.NextTimer, daemon.NextTimer, nodelifecycle.NextTimer, tainteviction.NextTimer, replicaset.NextTimer, deployment.NextTimer, garbagecollector.NextTimer, disruption.NextTimer}

// Work is the work the simulation has done, counted so that the same calls always count the
// same (whatever passes were skipped, whatever the page drew between pieces):
//  1. every controller's pass in every round of every settling, run or skipped, weighs one and
//     one for every object of the kinds it reads;
//  2. every write while settling (an object, a machine, a controller's memory, an event
//     expired) weighs writeWeight more;
//  3. every look for the next due timer (at every stop of a Run, a Step or a Wait) weighs one
//     and one for every node and pod.
//
// Natively a millisecond does 700 to 4,000 units (measured over crash loops, rollouts, idle and
// failing nodes, on clusters of 3 to 5,000 nodes; about 1,100 for the crash loop of a
// Deployment; BenchmarkWorkRate); WebAssembly takes 2 to 3 times as long.
func (s *Sim) Work() int64 { return s.work }

// Budget is the work one command may do (see Command): up to 3 seconds natively, however the
// work is made up (`sim advance 1000h` over a Deployment's crash loop stops after about 400h).
// No lesson or scenario comes near it: their costliest command does a third of it, and a
// DaemonSet converging on 5,000 nodes four fifths.
const Budget = 2_000_000

// Command begins a command: until end, the clock moves no further once the work done since
// reaches Budget (see Spent). shell.Run makes every command line one, as the page makes each
// `sim advance` it takes a piece at a time; outside a command (a test's or a program's own
// calls) the work is not limited.
func (s *Sim) Command() (end func()) {
	s.limit = s.work + Budget
	return func() { s.limit = math.MaxInt64 }
}

// Spent reports whether the command under way has done all the work Budget allows: a Run then
// ends where it stands, the cluster settled there, and a Wait waits no more.
func (s *Sim) Spent() bool { return s.work >= s.limit }

// Stopped is the reason a command gives when its budget stopped it (see Spent): how much
// simulated time of how much it let pass, and the rule.
func Stopped(command string, passed, of time.Duration) string {
	return fmt.Sprintf("%s stopped after %v of %v: one command may do at most %s units of work; the cluster stays as it stands, so run it again to go on", command, passed, of, thousands(Budget))
}

// thousands writes n with a comma every three digits: 2,000,000.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// due is NextTimer, counted as work.
func (s *Sim) due() (time.Time, bool) {
	s.work += weigh(s.C, timerReads)
	return s.NextTimer()
}

// writeWeight is the work of a write, in objects read: a write copies, validates and indexes an
// object, and records an event more often than not.
const writeWeight = 10

// timerReads are the kinds the timers read.
var timerReads = []string{"Node", "Pod"}

// NextTimer returns the earliest instant after now at which a controller has something to do.
func (s *Sim) NextTimer() (time.Time, bool) {
	var next time.Time
	found := false
	for _, timer := range timers {
		if t, ok := timer(s.C); ok && t.After(s.C.Now()) && (!found || t.Before(next)) {
			next, found = t, true
		}
	}
	return next, found
}

// Advance moves the clock forward by d, stopping at every due timer in order and settling there
// (a Run taken whole: it stops short when the command under way spends its budget).
func (s *Sim) Advance(d time.Duration) {
	r := s.Begin(d)
	for !r.Next() {
	}
}

// Run is an Advance taken a piece at a time, so that a page can paint and handle input between
// the pieces of a long one: each piece is one controller's sync (or moving the clock to the next
// due timer). Between pieces the cluster may be in the middle of settling, as a real cluster is
// between two controllers' work; a Run taken to its end leaves exactly what Advance leaves.
type Run struct {
	s        *Sim
	start    time.Time
	end      time.Time
	stopped  bool      // the command's budget was spent before the end
	settling *settling // the settling in progress at a stop, if any
	last     bool      // the settling in progress is the one at the end
}

// Begin starts moving the clock forward by d; nothing happens until the run's first Next.
func (s *Sim) Begin(d time.Duration) *Run {
	return &Run{s: s, start: s.C.Now(), end: s.C.Now().Add(d)}
}

// Next does the run's next piece and reports whether the run is over:
//  1. while settling at a stop, the next controller syncs;
//  2. otherwise, when the command under way has spent its budget, the run is over where it
//     stands (see Stopped);
//  3. otherwise the clock moves to the earliest due timer not after the end and settling there
//     begins;
//  4. with no timer due by the end, the clock moves to the end and the last settling begins.
func (r *Run) Next() (done bool) {
	c := r.s.C
	if r.settling != nil {
		if !r.settling.next(r.s) {
			return false
		}
		r.settling = nil
		return r.last
	}
	if r.s.Spent() {
		r.stopped = true
		return true
	}
	if next, ok := r.s.due(); ok && !next.After(r.end) {
		c.SetNow(next)
	} else {
		c.SetNow(r.end)
		r.last = true
	}
	r.settling = &settling{}
	return false
}

// Stopped is why the run stopped short when the command's budget stopped it (the package's
// Stopped), or "" when it reached its end.
func (r *Run) Stopped(command string) string {
	if !r.stopped {
		return ""
	}
	return Stopped(command, r.s.C.Now().Sub(r.start), r.end.Sub(r.start))
}

// Wait is how a client that watches lets simulated time pass (kubectl rollout status, get -w):
// the clock moves to the next due timer, if one is due by the deadline, and the cluster settles
// there. It reports false, and the clock stays, when nothing is due by then or the command under
// way has spent its budget (see Spent).
func (s *Sim) Wait(deadline time.Time) bool {
	if s.Spent() {
		return false
	}
	if next, ok := s.due(); !ok || next.After(deadline) {
		return false
	}
	return s.Step()
}

// Step moves the clock to the next due timer and settles there; it reports false when nothing
// is scheduled.
func (s *Sim) Step() bool {
	next, ok := s.due()
	if !ok {
		return false
	}
	s.C.SetNow(next)
	s.Settle()
	return true
}
