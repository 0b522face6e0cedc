// Package replicaset is kube-controller-manager's ReplicaSet controller: it keeps the number of
// active pods a ReplicaSet selects equal to its replicas, choosing which pods to delete as
// upstream's pkg/controller/replicaset does, and keeps its status.
package replicaset

import (
	"math"
	"sort"
	"strconv"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/controller"
)

const component = "replicaset-controller"

// burstReplicas caps the pods one sync creates, and those it deletes (kube-controller-manager's
// BurstReplicas for ReplicaSets, pkg/controller/replicaset/replica_set.go).
const burstReplicas = 500

// retries is the controller's rate limiter for syncs whose creates failed.
var retries = controller.NewRetries(component)

// Plan is what one sync of one ReplicaSet decided.
type Plan struct {
	ReplicaSet   *api.ReplicaSet
	Create       int
	PodsToDelete []*api.Pod
	Capped       bool // burstReplicas left creates or deletes for the next sync
}

// Reconcile decides what rs needs (manageReplicas):
//
//  1. Its pods are the active pods (not finished, not being deleted) it controls (Sync claims
//     orphans first).
//  2. Too few: create the difference. Too many: delete the difference, the pods that matter
//     least first (see deletionOrder).
//  3. Either is at most burstReplicas (500); the rest wait for the next sync (Plan.Capped),
//     which the controller runs as soon as it has seen these.
//  4. After a sync whose create failed, creates wait for the rate-limited retry
//     (controller.Retries).
//
// A ReplicaSet being deleted gets nothing.
func Reconcile(c *cluster.Cluster, rs *api.ReplicaSet) Plan {
	plan := Plan{ReplicaSet: rs}
	if rs.DeletionTimestamp != nil {
		return plan
	}
	active := activePods(c, rs)
	want := 1
	if rs.Spec.Replicas != nil {
		want = int(*rs.Spec.Replicas)
	}
	switch diff := len(active) - want; {
	case diff < 0 && !retries.Waiting(c, rs):
		plan.Create, plan.Capped = min(-diff, burstReplicas), -diff > burstReplicas
	case diff > 0:
		sortForDeletion(active, relatedOnNode(c, rs), c.Now())
		plan.PodsToDelete, plan.Capped = active[:min(diff, burstReplicas)], diff > burstReplicas
	}
	return plan
}

// ownedPods returns the pods rs controls whose labels its selector still matches.
func ownedPods(c *cluster.Cluster, rs *api.ReplicaSet) []*api.Pod {
	sel, err := api.LabelSelectorAsSelector(rs.Spec.Selector)
	if err != nil {
		return nil
	}
	var out []*api.Pod
	for p := range c.AllPods() {
		if ref, ok := api.ControllerOf(&p.ObjectMeta); ok && ref.UID == rs.UID && p.Namespace == rs.Namespace && sel.Matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

// claimPods is ClaimPods over the active pods of rs's namespace (controller.Claim): an
// orphan whose labels rs's selector matches is adopted; a pod rs controls whose labels no longer
// match is released. It returns whether anything changed.
func claimPods(c *cluster.Cluster, rs *api.ReplicaSet) bool {
	active := func(yield func(*api.Pod) bool) {
		for p := range c.AllPods() {
			if api.IsPodActive(p) && !yield(p) {
				return
			}
		}
	}
	return controller.Claim(rs, "apps/v1", "ReplicaSet", rs.Spec.Selector, active).Apply(c)
}

func activePods(c *cluster.Cluster, rs *api.ReplicaSet) []*api.Pod {
	var out []*api.Pod
	for _, p := range ownedPods(c, rs) {
		if api.IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// relatedOnNode counts, per node, the active pods of rs and of the ReplicaSets owned by the same
// Deployment (getPodsRankedByRelatedPodsOnSameNode's related pods).
func relatedOnNode(c *cluster.Cluster, rs *api.ReplicaSet) map[string]int {
	owner, owned := api.ControllerOf(&rs.ObjectMeta)
	counts := map[string]int{}
	for other := range cluster.All[*api.ReplicaSet](c) {
		ref, ok := api.ControllerOf(&other.ObjectMeta)
		if other.UID != rs.UID && !(owned && ok && ref.UID == owner.UID && other.Namespace == rs.Namespace) {
			continue
		}
		for _, p := range activePods(c, other) {
			counts[p.Spec.NodeName]++
		}
	}
	return counts
}

var phaseOrder = map[api.PodPhase]int{api.PodPending: 0, "Unknown": 1, api.PodRunning: 2}

// sortForDeletion orders pods the way ActivePodsWithRanks does, the first to delete first:
//
//  1. not yet scheduled before scheduled;
//  2. Pending before Unknown before Running;
//  3. not Ready before Ready;
//  4. lower controller.kubernetes.io/pod-deletion-cost first;
//  5. more related pods on the same node first;
//  6. Ready for less time first (compared in powers of two of the time since);
//  7. more container restarts first;
//  8. newer first (again in powers of two of the age), then by uid.
func sortForDeletion(pods []*api.Pod, onNode map[string]int, now time.Time) {
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := pods[i], pods[j]
		if (a.Spec.NodeName == "") != (b.Spec.NodeName == "") {
			return a.Spec.NodeName == ""
		}
		if phaseOrder[a.Status.Phase] != phaseOrder[b.Status.Phase] {
			return phaseOrder[a.Status.Phase] < phaseOrder[b.Status.Phase]
		}
		readyA, sinceA := api.PodReadySince(a)
		readyB, sinceB := api.PodReadySince(b)
		if readyA != readyB {
			return !readyA
		}
		if ca, cb := deletionCost(a), deletionCost(b); ca != cb {
			return ca < cb
		}
		if ra, rb := onNode[a.Spec.NodeName], onNode[b.Spec.NodeName]; ra != rb {
			return ra > rb
		}
		if readyA && readyB && !sinceA.Equal(sinceB) {
			if d := logRankDiff(sinceA, sinceB, now); d != 0 {
				return d < 0
			}
			return a.UID < b.UID
		}
		if ra, rb := maxRestarts(a), maxRestarts(b); ra != rb {
			return ra > rb
		}
		if !a.CreationTimestamp.Equal(b.CreationTimestamp.Time) {
			if d := logRankDiff(a.CreationTimestamp.Time, b.CreationTimestamp.Time, now); d != 0 {
				return d < 0
			}
			return a.UID < b.UID
		}
		return false
	})
}

func deletionCost(p *api.Pod) int64 {
	n, _ := strconv.ParseInt(p.Annotations["controller.kubernetes.io/pod-deletion-cost"], 10, 32)
	return n
}

func maxRestarts(p *api.Pod) int32 {
	var m int32
	for _, cs := range p.Status.ContainerStatuses {
		m = max(m, cs.RestartCount)
	}
	return m
}

// logRankDiff compares how long ago two instants were, in whole powers of two of nanoseconds
// (logarithmicRankDiff).
func logRankDiff(t1, t2, now time.Time) int64 {
	rank := func(t time.Time) int64 {
		if d := now.Sub(t); d > 0 {
			return int64(math.Log2(float64(d)))
		}
		return -1
	}
	return rank(t1) - rank(t2)
}

// Apply carries out the plan (pod creations named <rs>-xxxxx in slow-start batches, see
// controller.SlowStartBatch; graceful deletions; each with its event) and writes the status if
// it changed. A failed create is a failed sync, retried when the rate limiter says (its event is
// a change); creates that all worked forget the failures. It returns whether anything changed,
// and whether the controller syncs rs again at once: the plan was capped and no create failed.
func Apply(c *cluster.Cluster, plan Plan) (changed, again bool) {
	rs := plan.ReplicaSet
	failed := controller.SlowStartBatch(plan.Create, func(int) error {
		pod := newPod(rs)
		if _, err := apiserver.Create(c, pod, apiserver.Options{}); err != nil {
			c.Record(rs, cluster.EventWarning, "FailedCreate", "Error creating: "+err.Error(), component, "")
			return err
		}
		c.Record(rs, cluster.EventNormal, "SuccessfulCreate", "Created pod: "+pod.Name, component, "")
		changed = true
		return nil
	})
	switch {
	case failed:
		retries.Failed(c, rs)
		changed = true
	case plan.Create > 0:
		retries.Forget(c, rs)
	}
	again = plan.Capped && !failed
	for _, p := range plan.PodsToDelete {
		c.DeletePod(p, nil)
		c.Record(rs, cluster.EventNormal, "SuccessfulDelete", "Deleted pod: "+p.Name, component, "")
		changed = true
	}
	if rs.DeletionTimestamp != nil {
		return changed, again
	}
	if s := Status(c, rs); !statusEqual(s, rs.Status) {
		next := *rs
		next.Status = s
		changed = c.Update(&next) == nil || changed
	}
	return changed, again
}

func newPod(rs *api.ReplicaSet) *api.Pod {
	tmpl := api.DeepCopy(rs.Spec.Template)
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, Spec: tmpl.Spec}
	pod.GenerateName = rs.Name + "-"
	pod.Namespace = rs.Namespace
	pod.Labels, pod.Annotations = tmpl.Labels, tmpl.Annotations
	pod.OwnerReferences = []api.OwnerReference{api.NewControllerRef(rs, "apps/v1", "ReplicaSet")}
	return pod
}

// Status computes a ReplicaSet's status (calculateStatus): its active pods, those whose labels
// match the template's, the Ready ones and those available for minReadySeconds.
func Status(c *cluster.Cluster, rs *api.ReplicaSet) api.ReplicaSetStatus {
	s := api.ReplicaSetStatus{ObservedGeneration: rs.Generation}
	tmpl := api.SelectorFromSet(rs.Spec.Template.Labels)
	for _, p := range activePods(c, rs) {
		s.Replicas++
		if tmpl.Matches(p.Labels) {
			s.FullyLabeledReplicas++
		}
		if api.IsPodReady(p) {
			s.ReadyReplicas++
			if api.IsPodAvailable(p, rs.Spec.MinReadySeconds, c.Now()) {
				s.AvailableReplicas++
			}
		}
	}
	return s
}

func statusEqual(a, b api.ReplicaSetStatus) bool {
	return a.Replicas == b.Replicas && a.FullyLabeledReplicas == b.FullyLabeledReplicas && a.ReadyReplicas == b.ReadyReplicas &&
		a.AvailableReplicas == b.AvailableReplicas && a.ObservedGeneration == b.ObservedGeneration
}

// NextTimer returns when a Ready pod becomes available (minReadySeconds), which changes the
// status, or when a failed sync is retried.
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var next time.Time
	found := false
	for rs := range cluster.All[*api.ReplicaSet](c) {
		if t, ok := retries.Due(c, rs); ok && (!found || t.Before(next)) {
			next, found = t, true
		}
		if rs.Spec.MinReadySeconds == 0 {
			continue
		}
		for _, p := range activePods(c, rs) {
			if ready, since := api.PodReadySince(p); ready {
				t := since.Add(time.Duration(rs.Spec.MinReadySeconds) * time.Second)
				if t.After(c.Now()) && (!found || t.Before(next)) {
					next, found = t, true
				}
			}
		}
	}
	return next, found
}

// Sync runs one sync of rs: claim pods, decide, apply. It returns whether anything changed, and
// whether burstReplicas left work for a sync at once (see Apply).
func Sync(c *cluster.Cluster, rs *api.ReplicaSet) (changed, again bool) {
	claimed := claimPods(c, rs)
	changed, again = Apply(c, Reconcile(c, rs))
	return changed || claimed, again
}
