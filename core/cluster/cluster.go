// Package cluster is DaemonLab's object store: every API object of the simulated cluster, the
// simulated clock and the one seeded random source. It plays etcd under the API server
// (core/apiserver, which admits, prepares and validates every write): it assigns uids,
// resourceVersions and creation timestamps, and hands out objects in a stable order. It never reads the wall clock and draws every random choice from
// its own PRNG, so the same seed and the same calls give the same cluster.
//
// Stored objects are immutable: Get and List hand out the stored values, shared with every
// snapshot, so a controller that changes an object builds a changed copy and stores it with
// Update. That is what makes a snapshot a copy of a few maps.
package cluster

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"iter"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"time"

	"daemonlab/core/api"
)

// Epoch is the instant a simulation starts at.
var Epoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// Key identifies a namespaced object; Namespace is "" for cluster-scoped kinds.
type Key struct {
	Namespace, Name string
}

// Cluster is the world: the objects, the machines behind the nodes, the controllers' private
// memory, the learner's files (the workspace, see files.go), the clock and the random source.
type Cluster struct {
	now       time.Time
	seed      uint64
	pcg       *rand.PCG
	rng       *rand.Rand
	version   int64                               // the last resourceVersion handed out
	objects   map[string]map[Key]api.Object       // by kind
	sorted    map[string]*listing                 // each kind's objects in List order, once listed
	machines  map[string]Machine                  // by node name
	memo      map[any]any                         // controllers' private memory, by memoKey (see Memo)
	files     map[string]File                     // the workspace, by CleanPath's name (see files.go)
	shared    sharing                             // which of these maps a snapshot also holds
	writes    int64                               // changes of any kind, for Writes
	events    map[uint64]Key                      // Events by the hash of what makes two equal (see eventIndex); nil until needed
	names     eventNames                          // where to look for a free event name (see nextEventName)
	expiredAt time.Time                           // when ExpireEvents last ran (see there); zero after a restore
	stamps    stamps                              // when each kind was last written, for ChangedSince
	tallies   map[*Tally]*FreeIndex               // the tallies asked for since the last restore (see Tally)
	groups    map[*Groups]map[string]map[Key]bool // the groupings asked for since the last restore (see Groups)
	logs      map[string]*changeLog               // the writes of the kinds asked for since the last restore (see ChangedNodes)
	reads     int64                               // see Reads
	draws     int64                               // the random source's draws, each also a write (see ForgetDraws)
}

// stamps date the cluster's writes by kind ("Machine", "Memo" and "File" for the machines, the
// controllers' memory and the workspace) on a count that, unlike Writes, never goes back: a Restore counts as a
// write of everything.
type stamps struct {
	now      uint64
	kinds    map[string]uint64
	restored uint64
}

func (s *stamps) touch(kind string) {
	s.now++
	if s.kinds == nil {
		s.kinds = map[string]uint64{}
	}
	s.kinds[kind] = s.now
}

// Stamp returns the count of writes ChangedSince compares with.
func (c *Cluster) Stamp() uint64 { return c.stamps.now }

// ChangedSince reports whether any of the kinds was written after the stamp (or the cluster was
// restored since): a controller whose last pass changed nothing need not look again until what
// it reads changed.
func (c *Cluster) ChangedSince(stamp uint64, kinds ...string) bool {
	if c.stamps.restored > stamp {
		return true
	}
	for _, k := range kinds {
		if c.stamps.kinds[k] > stamp {
			return true
		}
	}
	return false
}

// Machine is what the API does not show of a node: the host and its kubelet. Faults are what
// `sim fail` injected.
type Machine struct {
	KubeletDown bool      // the kubelet stopped: no lease renewals, no status, no pod changes
	RenewFrom   time.Time // when the running kubelet started renewing its lease (join or restart)
	DownAt      time.Time // when the kubelet stopped
	Faults      []string  // reported conditions: not-ready, memory-pressure, …
	// SawUnschedulable is the node's spec.unschedulable as the running kubelet last saw it
	// (false when it starts): it records an event when that changes.
	SawUnschedulable bool
	// StaticPods are the pod manifests in the kubelet's staticPodPath, which it runs without
	// the API server and shows there as mirror pods (see kubelet.StaticPod). They are never
	// changed in place.
	StaticPods []*api.Pod
}

// RenewInterval is how often a running kubelet renews its node lease (nodeLeaseDurationSeconds
// 40 × nodeLeaseRenewIntervalFraction 0.25).
const RenewInterval = 10 * time.Second

// LastRenew returns when the node's kubelet last renewed its lease: the last tick of its 10s
// rhythm, counted from when it started, that is not after now (or after it stopped).
func (m Machine) LastRenew(now time.Time) time.Time {
	end := now
	if m.KubeletDown {
		end = m.DownAt
	}
	if end.Before(m.RenewFrom) {
		return m.RenewFrom
	}
	return m.RenewFrom.Add(end.Sub(m.RenewFrom) / RenewInterval * RenewInterval)
}

// Machine returns the machine behind a node, and whether there is one. The copy is the
// caller's: changing it changes nothing until SetMachine.
func (c *Cluster) Machine(node string) (Machine, bool) {
	c.reads++
	m, ok := c.machines[node]
	m.Faults = slices.Clone(m.Faults)
	return m, ok
}

// SetMachine records the machine behind a node.
func (c *Cluster) SetMachine(node string, m Machine) {
	m.Faults = slices.Clone(m.Faults)
	c.ownMachines()[node] = m
	c.logWrite("Machine", node)
	c.writes++
}

// MachineNames returns the names of the nodes that have a machine behind them, sorted.
func (c *Cluster) MachineNames() []string {
	return slices.Sorted(maps.Keys(c.machines))
}

// HasMachine reports whether a machine stands behind the node, without copying it.
func (c *Cluster) HasMachine(node string) bool {
	c.reads++
	_, ok := c.machines[node]
	return ok
}

// MachineCount returns how many machines there are.
func (c *Cluster) MachineCount() int { return len(c.machines) }

// CreationOrder orders objects as they were created: by creationTimestamp, then by the
// resourceVersion their create got (within a second, the order of the writes).
func CreationOrder(a, b api.Object) int {
	am, bm := a.GetObjectMeta(), b.GetObjectMeta()
	if c := am.CreationTimestamp.Compare(bm.CreationTimestamp.Time); c != 0 {
		return c
	}
	av, _ := strconv.ParseInt(am.ResourceVersion, 10, 64)
	bv, _ := strconv.ParseInt(bm.ResourceVersion, 10, 64)
	return cmp.Compare(av, bv)
}

// RemoveMachine forgets the machine behind a deleted node.
func (c *Cluster) RemoveMachine(node string) {
	delete(c.ownMachines(), node)
	c.logWrite("Machine", node)
	c.writes++
}

// New returns an empty cluster (no objects at all) at Epoch, drawing randomness from seed.
func New(seed uint64) *Cluster {
	pcg := rand.NewPCG(seed, 0x6461656d6f6e6c61) // "daemonla"
	return &Cluster{now: Epoch, seed: seed, pcg: pcg, rng: rand.New(pcg), objects: map[string]map[Key]api.Object{},
		sorted: map[string]*listing{}, machines: map[string]Machine{}, memo: map[any]any{}}
}

// Snapshot is a saved state of a cluster: its objects, workspace, clock, resourceVersion and write
// counters and random source. Restoring it brings all of them back, so the same commands then give the same output.
type Snapshot struct {
	writes   int64
	now      time.Time
	version  int64
	pcg      rand.PCG
	objects  map[string]map[Key]api.Object
	machines map[string]Machine
	memo     map[any]any
	files    map[string]File
}

// Snapshot saves the cluster's state. It shares the cluster's maps rather than copying them
// (stored objects are never changed in place): the cluster copies a map only when it first
// writes to it after the snapshot (see sharing), so a snapshot costs a copy of the map of kinds.
func (c *Cluster) Snapshot() Snapshot {
	c.shareAll()
	return Snapshot{writes: c.writes, now: c.now, version: c.version, pcg: *c.pcg, objects: maps.Clone(c.objects), machines: c.machines, memo: c.memo, files: c.files}
}

// Restore brings back a saved state; the snapshot stays valid and may be restored again.
func (c *Cluster) Restore(s Snapshot) {
	c.now, c.version = s.now, s.version
	*c.pcg = s.pcg
	c.objects, c.machines, c.memo, c.files = maps.Clone(s.objects), s.machines, s.memo, s.files
	c.shareAll()
	c.sorted = map[string]*listing{}
	c.events = nil // rebuilt from the restored events when next needed
	c.names, c.expiredAt = eventNames{}, time.Time{}
	c.tallies, c.groups, c.logs = nil, nil, nil
	c.writes = s.writes
	c.stamps.now++
	c.stamps.restored = c.stamps.now
}

// Replace makes the cluster another's, as a new cluster in its place (`sim import`): the
// other's objects, machines, controllers' memory, clock, resourceVersion counter and random
// source, as Restore of its snapshot brings them, but
//
//  1. the workspace stays the cluster's own (the learner's files are not the cluster's);
//  2. the writes count on from the cluster's own, with the other's added and one more, so that
//     a caller comparing Writes sees the change.
//
// Both must have the same seed.
func (c *Cluster) Replace(other *Cluster) {
	if other.seed != c.seed {
		panic("cluster: Replace with a cluster of another seed")
	}
	files, writes := c.files, c.writes
	c.Restore(other.Snapshot())
	c.files = files
	c.writes = writes + other.writes + 1
}

// sharing says which of the cluster's maps a snapshot holds too: the cluster writes only to
// maps of its own, copying a shared one first (copy on write).
type sharing struct {
	kinds                 map[string]bool
	machines, memo, files bool
}

func (c *Cluster) shareAll() {
	c.shared = sharing{kinds: make(map[string]bool, len(c.objects)), machines: true, memo: true, files: true}
	for kind := range c.objects {
		c.shared.kinds[kind] = true
	}
}

// own returns a kind's map for writing: the cluster's own, copied from a snapshot's if shared.
func (c *Cluster) own(kind string) map[Key]api.Object {
	c.stamps.touch(kind)
	objs := c.objects[kind]
	switch {
	case objs == nil:
		objs = map[Key]api.Object{}
	case c.shared.kinds[kind]:
		objs = maps.Clone(objs)
	default:
		return objs
	}
	c.objects[kind] = objs
	delete(c.shared.kinds, kind)
	return objs
}

func (c *Cluster) ownMachines() map[string]Machine {
	c.stamps.touch("Machine")
	if c.shared.machines {
		c.machines, c.shared.machines = maps.Clone(c.machines), false
	}
	return c.machines
}

func (c *Cluster) ownMemo() map[any]any {
	c.stamps.touch("Memo")
	if c.shared.memo {
		c.memo, c.shared.memo = maps.Clone(c.memo), false
	}
	return c.memo
}

// Now returns the simulated time.
func (c *Cluster) Now() time.Time { return c.now }

// SetNow moves the clock; time never moves backwards.
func (c *Cluster) SetNow(t time.Time) {
	if t.After(c.now) {
		c.now = t
		c.writes++
	}
}

// Seed returns the seed the cluster was created with.
func (c *Cluster) Seed() uint64 { return c.seed }

// nameAlphabet is the alphabet of apimachinery's rand.String: no vowels, no 0, 1 or 3.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// RandomString returns n characters from Kubernetes' name-suffix alphabet.
func (c *Cluster) RandomString(n int) string {
	c.drew() // the random source moved on
	b := make([]byte, n)
	for i := range b {
		b[i] = nameAlphabet[c.rng.IntN(len(nameAlphabet))]
	}
	return string(b)
}

// RandomHex returns n random hexadecimal digits (container IDs).
func (c *Cluster) RandomHex(n int) string {
	const digits = "0123456789abcdef"
	c.drew()
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[c.rng.IntN(16)]
	}
	return string(b)
}

// drew counts a draw of the random source: a write, as it changes what comes next.
func (c *Cluster) drew() { c.writes++; c.draws++ }

// RandomMark is where the random source stands (MarkRandom), to go back to when a request that
// drew from it is refused (ForgetDraws).
type RandomMark struct {
	pcg   rand.PCG
	draws int64
}

// MarkRandom returns where the random source stands.
func (c *Cluster) MarkRandom() RandomMark { return RandomMark{*c.pcg, c.draws} }

// ForgetDraws puts the random source back where mark found it, and takes its draws since off
// the writes: a refused request leaves no trace (the API server stores nothing of it).
func (c *Cluster) ForgetDraws(mark RandomMark) {
	c.writes -= c.draws - mark.draws
	c.draws, *c.pcg = mark.draws, mark.pcg
}

// IntN returns a random int in [0, n).
func (c *Cluster) IntN(n int) int {
	c.drew()
	return c.rng.IntN(n)
}

func (c *Cluster) newUID() string {
	c.drew()
	return uidFrom(c.rng)
}

// uidFrom draws a version 4 (random) UUID, as the API server gives every new object.
func uidFrom(rng *rand.Rand) string {
	hi, lo := rng.Uint64(), rng.Uint64()
	hi = hi&^0xf000 | 0x4000     // version 4
	lo = lo&^(0xc<<60) | 0x8<<60 // RFC 4122 variant
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", hi>>32, hi>>16&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

// kindOf names an object's kind, its Go type's name (*api.Pod: "Pod"); it allocates nothing,
// as every List and All asks it.
func kindOf(obj api.Object) string { return reflect.TypeOf(obj).Elem().Name() }

// KeyOf returns an object's key: its namespace ("" for cluster-scoped kinds) and name.
func KeyOf(obj api.Object) Key {
	m := obj.GetObjectMeta()
	return Key{m.Namespace, m.Name}
}

// Get returns the object of the given kind ("Pod", "DaemonSet", …) and key, or nil.
func (c *Cluster) Get(kind string, k Key) api.Object {
	obj := c.objects[kind][k]
	if obj != nil {
		c.reads++
	}
	return obj
}

// Create stores a new object, as etcd3's store does under the API server (which has admitted,
// prepared and validated it: core/apiserver): it may not exist yet, and it gets a uid, a
// resourceVersion and the current time as creationTimestamp.
func (c *Cluster) Create(obj api.Object) error { return c.create(obj, c.newUID) }

// CreateSystem stores one of the objects the API server makes as it starts, as Create does, but
// draws its uid from a source of its own, seeded by the cluster's seed and the object's kind,
// namespace and name (a derived sub-seed, as TigerBeetle's VOPR gives each subsystem one): what
// every cluster holds from the start leaves the random source that every later uid and
// generated name is drawn from where it stood, so adding such an object to every cluster
// changes no seed's names.
func (c *Cluster) CreateSystem(obj api.Object) error {
	m := obj.GetObjectMeta()
	h := fnv.New64a()
	h.Write([]byte(kindOf(obj) + "/" + m.Namespace + "/" + m.Name))
	return c.create(obj, func() string { return uidFrom(rand.New(rand.NewPCG(c.seed, h.Sum64()))) })
}

func (c *Cluster) create(obj api.Object, uid func() string) error {
	m := obj.GetObjectMeta()
	kind := kindOf(obj)
	if _, exists := c.objects[kind][KeyOf(obj)]; exists {
		return fmt.Errorf("%s %q already exists", kind, m.Name)
	}
	m.UID = uid()
	m.CreationTimestamp = api.NewTime(c.now)
	m.ManagedFields = nil
	c.bump(m)
	c.own(kind)[KeyOf(obj)] = obj
	c.logWrite(kind, m.Name)
	c.listCreated(kind, KeyOf(obj), obj)
	c.indexWrite(kind, nil, obj)
	c.indexEvent(obj, nil)
	return nil
}

// Update replaces a stored object, keeping what the store owns (uid, creationTimestamp); the
// caller decides everything else (see core/apiserver for the API server's rules). It fails
// when the object does not exist.
func (c *Cluster) Update(obj api.Object) error {
	kind := kindOf(obj)
	old, ok := c.objects[kind][KeyOf(obj)]
	if !ok {
		return fmt.Errorf("%s %q not found", kind, obj.GetObjectMeta().Name)
	}
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	m.UID, m.CreationTimestamp = om.UID, om.CreationTimestamp
	c.bump(m)
	c.own(kind)[KeyOf(obj)] = obj
	c.logWrite(kind, m.Name)
	c.listUpdated(kind, KeyOf(obj), obj)
	c.indexWrite(kind, old, obj)
	c.indexEvent(obj, old)
	return nil
}

// Delete removes an object at once (pods are deleted gracefully through DeletePod). Like every
// write it moves the resourceVersion counter.
func (c *Cluster) Delete(obj api.Object) {
	kind, k := kindOf(obj), KeyOf(obj)
	old := c.objects[kind][k]
	if old != nil {
		c.indexWrite(kind, old, nil)
	}
	c.indexEvent(nil, old)
	delete(c.own(kind), k)
	c.logWrite(kind, k.Name)
	c.listDeleted(kind, k)
	c.version++
	c.writes++
}

// Version returns the last resourceVersion handed out: it moves with every write, so a
// controller can tell whether it changed anything.
func (c *Cluster) Version() int64 { return c.version }

// Writes counts every change to the cluster — objects, machines, controllers' memory, the clock,
// the random source — so that a caller can tell whether a command changed anything: a command
// that leaves it as it was only read (or undid what it did, restoring a snapshot, which brings
// the count back too).
func (c *Cluster) Writes() int64 { return c.writes }

func (c *Cluster) bump(m *api.ObjectMeta) {
	c.version++
	c.writes++
	m.ResourceVersion = strconv.FormatInt(c.version, 10)
}

// List returns every object of a kind in the API server's order: by namespace, then name (see
// CompareKeys).
func List[T api.Object](c *Cluster) []T {
	var zero T
	l := c.listed(kindOf(zero))
	c.reads += int64(len(l.entries))
	out := make([]T, len(l.entries))
	for i, e := range l.entries {
		out[i] = e.obj.(T)
	}
	return out
}

// Count returns how many objects of a kind are stored.
func (c *Cluster) Count(kind string) int { return len(c.objects[kind]) }

// Nodes returns the nodes sorted by name.
func (c *Cluster) Nodes() []*api.Node { return List[*api.Node](c) }

// Pods returns the pods sorted by namespace and name.
func (c *Cluster) Pods() []*api.Pod { return List[*api.Pod](c) }

// AllNodes iterates over the nodes in name order (see All).
func (c *Cluster) AllNodes() iter.Seq[*api.Node] { return All[*api.Node](c) }

// AllPods iterates over the pods in namespace and name order (see All).
func (c *Cluster) AllPods() iter.Seq[*api.Pod] { return All[*api.Pod](c) }

// DaemonSets returns the DaemonSets sorted by namespace and name.
func (c *Cluster) DaemonSets() []*api.DaemonSet { return List[*api.DaemonSet](c) }

// Node returns the node of that name, or nil.
func (c *Cluster) Node(name string) *api.Node {
	n, _ := c.Get("Node", Key{Name: name}).(*api.Node)
	return n
}
