package daemon

import (
	"maps"
	"slices"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// rollingUpdate decides which old pods a RollingUpdate deletes in this sync (update.go
// rollingUpdate, the maxSurge = 0 branch: delete first, then manage creates the new pod):
//
//  1. Budgets: maxUnavailable and maxSurge scaled against the nodes that should run a pod,
//     percentages rounded up; with both 0, maxUnavailable is 1.
//  2. Per node (kube-controller-manager walks a map; DaemonLab walks node names in order), the
//     pods not being deleted are split into one new (current hash or template generation) and
//     one old; more than one of either counts as unavailable. A node with no pod, or both a
//     new and an old one, counts as unavailable; a new pod counts when not yet available.
//  3. An old pod that is not available is replaced at once, outside the budget; an available
//     one is a candidate while fewer than maxUnavailable nodes are unavailable.
//  4. Candidates are deleted up to maxUnavailable minus the unavailable count.
//
// With maxSurge above 0 (create first) it decides nothing yet: DaemonLab does not model surge.
func rollingUpdate(c *cluster.Cluster, ds *api.DaemonSet, nodes []*api.Node, byNode map[string][]*api.Pod, hash string) []*api.Pod {
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType || ds.DeletionTimestamp != nil {
		return nil
	}
	nodePods := maps.Clone(byNode)
	desired := 0
	for _, n := range nodes {
		if shouldRun, _ := NodeShouldRunDaemonPod(n, ds); shouldRun {
			desired++
			if _, ok := nodePods[n.Name]; !ok {
				nodePods[n.Name] = nil
			}
		}
	}
	maxSurge, maxUnavailable := budgets(ds, desired)
	if maxSurge > 0 {
		return nil
	}
	now := c.Now()
	available := func(p *api.Pod) bool { return api.IsPodAvailable(p, ds.Spec.MinReadySeconds, now) }
	var unavailable int
	var replace, candidates []*api.Pod
	for _, name := range slices.Sorted(maps.Keys(nodePods)) {
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
	return append(replace, candidates[:remaining]...)
}

// budgets returns maxSurge and maxUnavailable for desired nodes (SurgeCount, UnavailableCount).
func budgets(ds *api.DaemonSet, desired int) (surge, unavailable int) {
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
// ready pod of a DaemonSet with minReadySeconds becomes available.
func NextTimer(c *cluster.Cluster) (time.Time, bool) {
	var next time.Time
	found := false
	for _, ds := range c.DaemonSets() {
		if ds.Spec.MinReadySeconds == 0 {
			continue
		}
		for _, p := range ownedPods(c, ds) {
			ready, since := api.PodReadySince(p)
			at := since.Add(time.Duration(ds.Spec.MinReadySeconds) * time.Second)
			if ready && at.After(c.Now()) && (!found || at.Before(next)) {
				next, found = at, true
			}
		}
	}
	return next, found
}
