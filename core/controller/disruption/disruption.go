// Package disruption is kube-controller-manager's disruption controller
// (pkg/controller/disruption): it keeps each PodDisruptionBudget's status — how many of its
// pods are healthy, how many must be, and so how many evictions it allows now — which the
// Eviction API (apiserver.Evict) spends.
package disruption

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// DeletionTimeout is how long a pod the Eviction API admitted counts as disrupted while it is
// not being deleted; past it the controller counts it again.
const DeletionTimeout = 2 * time.Minute

// Sync brings every budget's status up to date and reports whether it wrote any; a sync that
// writes records what trySync records of it (upstream records at every sync, so its counts
// run higher).
func Sync(c *cluster.Cluster) bool {
	changed := false
	for pdb := range cluster.All[*api.PodDisruptionBudget](c) {
		if next, events := Plan(c, pdb); next != nil {
			_, _ = apiserver.UpdateStatus(c, next, apiserver.Options{}) // the budget exists: it was just listed
			for _, e := range events {
				c.Record(next, e.typ, e.reason, e.message, "controllermanager", "")
			}
			changed = true
		}
	}
	return changed
}

// event is one the controller records about a budget.
type event struct{ typ, reason, message string }

// Plan is one sync of a budget (trySync, and failSafe when it fails); it returns the budget
// with the status it should have, or nil when its status is already that:
//
//  1. Its pods are those of its namespace that its selector matches.
//  2. The expected pods and desired healthy (getExpectedPodCount): for an int minAvailable,
//     all its pods and minAvailable; otherwise the expected pods are the sum of the scale
//     (spec.replicas) of its pods' controllers (see expectedScale), and desired healthy is a
//     percentage minAvailable of them rounded up, or them less maxUnavailable (an int, or a
//     percentage rounded up), at least 0.
//  3. Disrupted pods (buildDisruptedPodMap): the evictions of the status' disruptedPods whose
//     pod is still there, not being deleted, and within DeletionTimeout of its eviction.
//  4. Current healthy (countHealthyPods): its pods that are Ready, not being deleted and not
//     disrupted.
//  5. Disruptions allowed: current less desired healthy, but 0 when that is negative or when
//     no pod is expected; the DisruptionAllowed condition follows it (SufficientPods,
//     InsufficientPods), and the observed generation is the budget's.
//  6. A sync that fails (a pod whose controller has no scale) allows no disruption, and the
//     condition is False with reason SyncFailed and the error as its message; the rest of the
//     status stays.
//
// The events are trySync's: NoPods when the selector matches no pod, then
// CalculateExpectedPodCountFailed when rule 2 fails, or UnmanagedPods when it counted pods that
// no controller owns.
func Plan(c *cluster.Cluster, pdb *api.PodDisruptionBudget) (*api.PodDisruptionBudget, []event) {
	now := c.Now()
	pods := podsOf(c, pdb)
	next := api.DeepCopy(pdb)
	var events []event
	if len(pods) == 0 {
		events = append(events, event{cluster.EventNormal, "NoPods", "No matching pods found"})
	}
	expected, desired, unmanaged, err := expectedPodCount(c, pdb, pods)
	switch {
	case err != nil:
		events = append(events, event{cluster.EventWarning, "CalculateExpectedPodCountFailed", "Failed to calculate the number of expected pods: " + err.Error()})
	case unmanaged > 0:
		events = append(events, event{cluster.EventWarning, "UnmanagedPods", "Pods selected by this PodDisruptionBudget (selector: " + selectorString(pdb.Spec.Selector) +
			") were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. " +
			`To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`})
	}
	if err != nil {
		next.Status.DisruptionsAllowed = 0
		api.SetCondition(&next.Status.Conditions, api.Condition{Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse,
			Reason: api.SyncFailedReason, Message: err.Error(), ObservedGeneration: next.Status.ObservedGeneration, LastTransitionTime: api.NewTime(now)})
	} else {
		disrupted := map[string]api.Time{}
		healthy := int32(0)
		for _, p := range pods {
			if p.DeletionTimestamp != nil {
				continue
			}
			if at, ok := pdb.Status.DisruptedPods[p.Name]; ok && at.Add(DeletionTimeout).After(now) {
				disrupted[p.Name] = at
				continue
			}
			if api.IsPodReady(p) {
				healthy++
			}
		}
		allowed := max(healthy-desired, 0)
		if expected <= 0 {
			allowed = 0
		}
		next.Status = api.PodDisruptionBudgetStatus{ObservedGeneration: pdb.Generation, DisruptedPods: disrupted,
			DisruptionsAllowed: allowed, CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: expected,
			Conditions: next.Status.Conditions}
		apiserver.SetDisruptionAllowed(next, now)
	}
	if reflect.DeepEqual(api.DeepCopy(next.Status), api.DeepCopy(pdb.Status)) {
		return nil, nil
	}
	return next, events
}

// selectorString is how an event's %v prints a label selector (metav1.LabelSelector's
// generated String: match labels in key order, then the expressions).
func selectorString(sel *api.LabelSelector) string {
	if sel == nil {
		return "nil"
	}
	var b strings.Builder
	b.WriteString("&LabelSelector{MatchLabels:map[string]string{")
	for _, k := range slices.Sorted(maps.Keys(sel.MatchLabels)) {
		fmt.Fprintf(&b, "%v: %v,", k, sel.MatchLabels[k])
	}
	b.WriteString("},MatchExpressions:[]LabelSelectorRequirement{")
	for _, r := range sel.MatchExpressions {
		fmt.Fprintf(&b, "LabelSelectorRequirement{Key:%v,Operator:%v,Values:%v,},", r.Key, r.Operator, r.Values)
	}
	b.WriteString("},}")
	return b.String()
}

// podsOf lists the pods of a budget's namespace that its selector matches (none for a missing
// or broken selector).
func podsOf(c *cluster.Cluster, pdb *api.PodDisruptionBudget) []*api.Pod {
	sel, err := api.LabelSelectorAsSelector(pdb.Spec.Selector)
	if err != nil {
		return nil
	}
	var pods []*api.Pod
	for p := range c.AllPods() {
		if p.Namespace == pdb.Namespace && sel.Matches(p.Labels) {
			pods = append(pods, p)
		}
	}
	return pods
}

// expectedPodCount is rule 2 of Plan; unmanaged counts the pods without a controller that
// expectedScale passed over.
func expectedPodCount(c *cluster.Cluster, pdb *api.PodDisruptionBudget, pods []*api.Pod) (expected, desired int32, unmanaged int, err error) {
	spec := pdb.Spec
	switch {
	case spec.MaxUnavailable == nil && spec.MinAvailable == nil:
		return 0, 0, 0, nil
	case spec.MaxUnavailable == nil && !spec.MinAvailable.IsString:
		return int32(len(pods)), spec.MinAvailable.IntVal, 0, nil
	}
	if expected, unmanaged, err = expectedScale(c, pods); err != nil {
		return 0, 0, 0, err
	}
	if spec.MaxUnavailable != nil {
		n, err := api.ScaledValue(spec.MaxUnavailable, int(expected), true)
		return expected, max(expected-int32(n), 0), unmanaged, err
	}
	n, err := api.ScaledValue(spec.MinAvailable, int(expected), true)
	return expected, int32(n), unmanaged, err
}

// expectedScale adds up the scale of the controllers of a budget's pods, each controller once
// (getExpectedScale), asking the finders in upstream's order:
//
//  1. A pod without a controller counts nothing (and is counted as unmanaged: the
//     UnmanagedPods event).
//  2. A ReplicaSet's pod counts its Deployment's replicas when a Deployment controls it, and
//     the ReplicaSet's own otherwise (the generic scale finder, which answers for any kind with a
//     scale subresource).
//  3. A controller of a kind without a scale subresource fails the sync: "daemonsets.apps does
//     not implement the scale subresource"; one that is gone (or another of its name) fails it
//     with "found no controllers for pod …"; a kind the API server does not serve with "no
//     matches for kind …".
func expectedScale(c *cluster.Cluster, pods []*api.Pod) (total int32, unmanaged int, err error) {
	scale := map[string]int32{}
	for _, p := range pods {
		ref, ok := api.ControllerOf(&p.ObjectMeta)
		if !ok {
			unmanaged++
			continue
		}
		if _, seen := scale[ref.UID]; seen {
			continue
		}
		owner, err := scaleOf(c, p.Namespace, ref)
		if err != nil {
			return 0, 0, err
		}
		if owner == nil {
			return 0, 0, fmt.Errorf("found no controllers for pod %q", p.Name)
		}
		if up, ok := api.ControllerOf(owner.GetObjectMeta()); ok && up.Kind == "Deployment" {
			if d, _ := scaleOf(c, p.Namespace, up); d != nil {
				owner = d
			}
		}
		m := owner.GetObjectMeta()
		scale[m.UID] = replicas(owner)
	}
	for n := range maps.Values(scale) {
		total += n
	}
	return total, unmanaged, nil
}

// scaleOf finds the controller a reference names, if it is the one the reference's uid says
// and of a kind with a scale subresource.
func scaleOf(c *cluster.Cluster, ns string, ref api.OwnerReference) (api.Object, error) {
	group, version, found := strings.Cut(ref.APIVersion, "/")
	if !found {
		group, version = "", group
	}
	var kind api.Kind
	for _, k := range api.Kinds {
		if k.Group == group && k.Kind == ref.Kind {
			kind = k
		}
	}
	switch {
	case kind.Kind == "":
		return nil, fmt.Errorf("no matches for kind %q in version %q", ref.Kind, strings.TrimPrefix(group+"/"+version, "/"))
	case kind.Kind != "Deployment" && kind.Kind != "ReplicaSet":
		return nil, fmt.Errorf("%s does not implement the scale subresource", kind.GroupResource())
	}
	obj := c.Get(kind.Kind, cluster.Key{Namespace: ns, Name: ref.Name})
	if obj == nil || obj.GetObjectMeta().UID != ref.UID {
		return nil, nil
	}
	return obj, nil
}

// replicas is a Deployment's or ReplicaSet's spec.replicas.
func replicas(obj api.Object) int32 {
	var r *int32
	switch o := obj.(type) {
	case *api.Deployment:
		r = o.Spec.Replicas
	case *api.ReplicaSet:
		r = o.Spec.Replicas
	}
	if r == nil {
		return 1
	}
	return *r
}

// NextTimer is when the earliest admitted eviction whose pod is still not being deleted times
// out (the recheck trySync enqueues).
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var next time.Time
	found := false
	for pdb := range cluster.All[*api.PodDisruptionBudget](c) {
		for _, at := range pdb.Status.DisruptedPods {
			if t := at.Add(DeletionTimeout); !found || t.Before(next) {
				next, found = t, true
			}
		}
	}
	return next, found
}
