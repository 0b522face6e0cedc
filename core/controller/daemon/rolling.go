package daemon

import (
	"maps"
	"slices"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// rollingPlan decides what a RollingUpdate does in this sync, given the DaemonSet's pods
// (update.go rollingUpdate): the old pods to delete and the nodes to give a new pod.
//
//  1. Budgets: maxUnavailable and maxSurge scaled against the nodes that should run a pod,
//     percentages rounded up; with both 0, maxUnavailable is 1.
//  2. Per node (kube-controller-manager walks a map; DaemonLab walks node names in order), the
//     pods not being deleted are split into one new (current hash or template generation) and
//     one old; more than one of either is a node in flux.
//  3. Without surge (delete first): a node with no pod, both pods or an unavailable new one is
//     unavailable; an old pod that is not available is replaced at once, outside the budget;
//     available old pods are deleted while fewer than maxUnavailable nodes are unavailable, and
//     manage creates their replacements once they are gone.
//  4. With surge (create first): a node with an unavailable new pod (or in flux) uses surge; an
//     unavailable old pod gets a new pod beside it at once; an available one gets one while
//     surge is left; an old pod goes once the new one beside it is available. Old pods on
//     nodes that should no longer run one go only while more than the desired number of pods
//     are available.
//  5. Every pod that is not being deleted is new: there is nothing to roll (steps 3 and 4 only
//     ever delete an old pod or create beside one), so no node needs a verdict.
func rollingPlan(c *cluster.Cluster, ds *api.DaemonSet, hash string, owned []*api.Pod) Plan {
	remove, create := rollingUpdate(c, ds, hash, owned)
	return Plan{DaemonSet: ds, Hash: hash, NodesNeeding: create, PodsToDelete: remove}
}

func rollingUpdate(c *cluster.Cluster, ds *api.DaemonSet, hash string, owned []*api.Pod) (remove []*api.Pod, create []string) {
	if !slices.ContainsFunc(owned, func(p *api.Pod) bool {
		return p.DeletionTimestamp == nil && !isPodUpdated(p, hash, ds.TemplateGeneration())
	}) {
		return nil, nil
	}
	nodes, nodePods := c.Nodes(), mapByNode(owned)
	desired := 0
	shouldRun := map[string]bool{}
	pred := newPredicates(ds)
	for _, n := range nodes {
		if pred.decide(n).ShouldRun {
			shouldRun[n.Name] = true
			desired++
			if _, ok := nodePods[n.Name]; !ok {
				nodePods[n.Name] = nil
			}
		}
	}
	maxSurge, maxUnavailable := Budgets(ds, desired)
	now := c.Now()
	available := func(p *api.Pod) bool { return api.IsPodAvailable(p, ds.Spec.MinReadySeconds, now) }
	names := slices.Sorted(maps.Keys(nodePods))
	if maxSurge == 0 {
		var unavailable int
		var replace, candidates []*api.Pod
		for _, name := range names {
			newPod, oldPod, ok := splitByTemplate(nodePods[name], hash, ds.TemplateGeneration())
			switch {
			case !ok, newPod == nil && oldPod == nil, newPod != nil && oldPod != nil:
				unavailable++
			case newPod != nil:
				if !available(newPod) {
					unavailable++
				}
			case !available(oldPod):
				replace = append(replace, oldPod)
				unavailable++
			case unavailable < maxUnavailable:
				candidates = append(candidates, oldPod)
			}
		}
		remaining := min(max(maxUnavailable-unavailable, 0), len(candidates))
		return append(replace, candidates[:remaining]...), nil
	}
	var shouldNotRun []*api.Pod
	var allowed, candidates []string
	var surge, numAvailable int
	for _, name := range names {
		newPod, oldPod, ok := splitByTemplate(nodePods[name], hash, ds.TemplateGeneration())
		if !ok {
			surge++
			continue
		}
		switch {
		case oldPod != nil && available(oldPod), oldPod == nil && newPod != nil && available(newPod):
			numAvailable++
		}
		switch {
		case oldPod == nil:
		case newPod == nil && !available(oldPod):
			if !shouldRun[name] {
				remove = append(remove, oldPod)
				continue
			}
			allowed = append(allowed, name)
		case newPod == nil:
			if !shouldRun[name] {
				shouldNotRun = append(shouldNotRun, oldPod)
				continue
			}
			if surge < maxSurge {
				candidates = append(candidates, name)
			}
		case !available(newPod):
			surge++
		default:
			remove = append(remove, oldPod)
		}
	}
	if deletable := min(numAvailable-desired, len(shouldNotRun)); deletable > 0 {
		remove = append(remove, shouldNotRun[:deletable]...)
	}
	remaining := min(max(maxSurge-surge, 0), len(candidates))
	return remove, append(allowed, candidates[:remaining]...)
}

// AllowsSurge reports whether the strategy creates before it deletes (util.AllowsSurge): a
// RollingUpdate whose maxSurge comes to more than 0 for one node.
func AllowsSurge(ds *api.DaemonSet) bool {
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType {
		return false
	}
	surge, _ := Budgets(ds, 1)
	return surge != 0
}

// Budgets returns maxSurge and maxUnavailable for desired nodes (SurgeCount, UnavailableCount):
// each scaled against desired and rounded up; when both come out 0 (and desired is not),
// maxUnavailable is 1.
func Budgets(ds *api.DaemonSet, desired int) (surge, unavailable int) {
	if ru := ds.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		if ru.MaxSurge != nil {
			surge, _ = api.ScaledValue(ru.MaxSurge, desired, true) // validated on the way in
		}
		if ru.MaxUnavailable != nil {
			unavailable, _ = api.ScaledValue(ru.MaxUnavailable, desired, true)
		}
	}
	if desired > 0 && surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return surge, unavailable
}

// splitByTemplate is findUpdatedPodsOnNode: of the pods not being deleted, the one of the
// current template and the one of an older template; ok is false if there are two of either.
func splitByTemplate(pods []*api.Pod, hash string, generation int64) (newPod, oldPod *api.Pod, ok bool) {
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if isPodUpdated(p, hash, generation) {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = p
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = p
		}
	}
	return newPod, oldPod, true
}

// NextTimer returns when a DaemonSet next needs a sync without anything else happening: when a
// ready pod of a DaemonSet with minReadySeconds becomes available, a failed pod's back-off
// ends, or a failed sync is retried.
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var next time.Time
	found := false
	consider := func(at time.Time) {
		if at.After(c.Now()) && (!found || at.Before(next)) {
			next, found = at, true
		}
	}
	for _, ds := range c.DaemonSets() {
		if at, ok := retries.Due(c, ds); ok {
			consider(at)
		}
		for _, p := range ownedPods(c, ds) {
			if ready, since := api.PodReadySince(p); ready && ds.Spec.MinReadySeconds > 0 {
				consider(since.Add(time.Duration(ds.Spec.MinReadySeconds) * time.Second))
			}
			if p.Status.Phase == api.PodFailed {
				if e, ok := backoff(c, failedPodsBackoffKey(ds, p.Spec.NodeName)); ok {
					consider(e.lastUpdate.Add(e.backoff))
				}
			}
		}
	}
	return next, found
}
