// Package sim runs DaemonLab's simulated cluster: the object store and the controllers that
// act on it. After every change the controllers run until nothing more changes at the current
// instant; time moves only through Advance, firing every due timer in order.
package sim

import (
	"fmt"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/daemon"
	"daemonlab/core/deployment"
	"daemonlab/core/garbagecollector"
	"daemonlab/core/kubelet"
	"daemonlab/core/nodelifecycle"
	"daemonlab/core/replicaset"
	"daemonlab/core/scheduler"
	"daemonlab/core/tainteviction"
)

// GCPercent is the Go garbage collector's target for a simulation in a browser tab (the page
// sets it at start): the heap may grow 60% past what is live between collections rather than
// the default 100%. A tab's WebAssembly memory never shrinks, so its peak is what counts: with
// 5,000 nodes and 15,000 pods, about 285 MB instead of 406 MB, for about 6% more time.
const GCPercent = 60

// Sim is one simulated cluster.
type Sim struct {
	C *cluster.Cluster
}

// Topology names a starting cluster.
type Topology string

const (
	// Default is the built-in cluster: control plane hd1 (tainted
	// node-role.kubernetes.io/control-plane:NoSchedule) and workers hd2 and hd3.
	Default Topology = "default"
	// Empty has the namespaces kubeadm creates and nothing else.
	Empty Topology = "empty"
)

// New returns a settled cluster of the given topology, its randomness drawn from seed.
func New(seed uint64, topology Topology) (*Sim, error) {
	s := &Sim{C: cluster.New(seed)}
	for _, ns := range []string{"default", "kube-node-lease", "kube-public", "kube-system"} {
		n := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
		n.Name = ns
		if err := s.C.Create(n); err != nil {
			return nil, err
		}
	}
	switch topology {
	case Empty:
	case Default:
		controlPlane := kubelet.NodeOptions{
			Labels: map[string]string{"node-role.kubernetes.io/control-plane": "", "node.kubernetes.io/exclude-from-external-load-balancers": ""},
			Taints: []api.Taint{{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintEffectNoSchedule}},
		}
		for i, name := range []string{"hd1", "hd2", "hd3"} {
			opts := kubelet.NodeOptions{}
			if i == 0 {
				opts = controlPlane
			}
			if err := kubelet.Join(s.C, kubelet.NewNode(name, i, opts, s.C.Now())); err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("unknown cluster %q: use default or empty", topology)
	}
	s.Settle()
	return s, nil
}

// maxRounds bounds one settling; the controllers converge in a handful of rounds, so reaching it
// means a controller fights another, which is a bug worth a clear panic in tests.
const maxRounds = 1000

// Settle runs the controllers until none changes anything at the current instant: the node
// lifecycle controller, the taint eviction controller, the garbage collector and pod GC, the
// Deployment, ReplicaSet and DaemonSet controllers, the scheduler (one pod at a time, in queue
// order) and the kubelets.
func (s *Sim) Settle() {
	var busy []string
	for range maxRounds {
		busy = busy[:0]
		for _, ctl := range controllers {
			if ctl.sync(s.C) {
				busy = append(busy, ctl.name)
			}
		}
		if len(busy) == 0 {
			s.C.ExpireEvents()
			return
		}
	}
	panic(fmt.Sprintf("the controllers did not settle: %s kept changing the cluster", strings.Join(busy, ", ")))
}

// controller is one control loop of the simulation: it syncs everything it manages once and
// reports whether it changed anything.
type controller struct {
	name string
	sync func(*cluster.Cluster) bool
}

// controllers run in this order in every round of Settle.
var controllers = []controller{
	{"node-lifecycle-controller", nodelifecycle.Sync},
	{"taint-eviction-controller", tainteviction.Sync},
	{"garbage-collector", garbagecollector.Sync},
	{"pod-garbage-collector", garbagecollector.SyncPods},
	{"deployment-controller", func(c *cluster.Cluster) bool {
		changed := false
		for _, d := range cluster.List[*api.Deployment](c) {
			changed = deployment.Sync(c, d) || changed
		}
		return changed
	}},
	{"replicaset-controller", func(c *cluster.Cluster) bool {
		changed := false
		for _, rs := range cluster.List[*api.ReplicaSet](c) {
			changed = replicaset.Sync(c, rs) || changed
		}
		return changed
	}},
	{"daemonset-controller", func(c *cluster.Cluster) bool {
		changed := false
		for _, ds := range c.DaemonSets() {
			key := cluster.Key{Namespace: ds.Namespace, Name: ds.Name}
			// A sync that burstReplicas cut short is followed at once by the next, as the
			// controller requeues a DaemonSet as soon as it has seen its own creates and deletes;
			// when creating was all it had left, the next is SyncRest.
			for range maxRounds {
				out := daemon.Sync(c, ds)
				changed = out.Changed || changed
				for out.Rest != nil {
					current, _ := c.Get("DaemonSet", key).(*api.DaemonSet)
					if current == nil {
						break
					}
					out = daemon.SyncRest(c, current, *out.Rest)
					changed = out.Changed || changed
				}
				if ds, _ = c.Get("DaemonSet", key).(*api.DaemonSet); !out.Capped || ds == nil {
					break
				}
			}
		}
		return changed
	}},
	{"default-scheduler", func(c *cluster.Cluster) bool {
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
	}},
	{"kubelet", kubelet.Sync},
}

// timers are the controllers that act when time passes, not only when something changes.
var timers = []func(*cluster.Cluster) (time.Time, bool){kubelet.NextTimer, daemon.NextTimer, nodelifecycle.NextTimer, tainteviction.NextTimer, replicaset.NextTimer, deployment.NextTimer, garbagecollector.NextTimer}

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

// Advance moves the clock forward by d, stopping at every due timer in order and settling there.
func (s *Sim) Advance(d time.Duration) {
	end := s.C.Now().Add(d)
	for {
		next, ok := s.NextTimer()
		if !ok || next.After(end) {
			break
		}
		s.C.SetNow(next)
		s.Settle()
	}
	s.C.SetNow(end)
	s.Settle()
}

// Step moves the clock to the next due timer and settles there; it reports false when nothing
// is scheduled.
func (s *Sim) Step() bool {
	next, ok := s.NextTimer()
	if !ok {
		return false
	}
	s.C.SetNow(next)
	s.Settle()
	return true
}
