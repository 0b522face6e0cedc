package daemon

import (
	"encoding/json"
	"maps"
	"sort"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/controller"
)

// History is what constructHistory does to a DaemonSet's ControllerRevisions: each revision
// snapshots a pod template, so that the controller can tell current pods from old ones and a
// rollback can bring a template back.
type History struct {
	Claims    controller.Claims[*api.ControllerRevision]
	Update    []*api.ControllerRevision // labelled with their hash, or renumbered as current
	Create    *api.ControllerRevision   // the snapshot of a template no revision holds yet
	Delete    []*api.ControllerRevision // duplicates of the current one
	Collision bool                      // a revision of that name holds another template
	Hash      string                    // the current revision's hash, which new pods carry
}

// PlanHistory decides History for ds, as upstream's constructHistory does:
//
//  1. The DaemonSet claims the revisions of its namespace its selector matches (adopting
//     orphans, releasing those that no longer match).
//  2. A revision without the controller-revision-hash label gets its name as the label.
//  3. Revisions whose data is the DaemonSet's template patch are current; the others are old.
//  4. With no current revision, a new one named <ds>-<hash> is created with revision
//     max(old)+1, the hash being controller.ComputeHash with the status's collisionCount; if that name is
//     taken by another template, the hash collided and collisionCount goes up instead. Of
//     several current ones the highest revision stays; a current revision below max(old)+1 is
//     renumbered (a rollback to an old template).
//  5. The current revision's label, not a fresh hash, is the hash of the pods (after a rollback
//     it is the old revision's hash again).
func PlanHistory(c *cluster.Cluster, ds *api.DaemonSet) History {
	h := History{Claims: claimRevisions(c, ds)}
	patch := controller.TemplatePatch(ds)
	var current, old []*api.ControllerRevision
	for _, cr := range h.Claims.Owned {
		if _, ok := cr.Labels[api.LabelControllerRevisionHash]; !ok {
			labelled := api.DeepCopy(cr)
			labelled.Labels = maps.Clone(labelled.Labels)
			if labelled.Labels == nil {
				labelled.Labels = map[string]string{}
			}
			labelled.Labels[api.LabelControllerRevisionHash] = labelled.Name
			h.Update = append(h.Update, labelled)
			cr = labelled
		}
		if string(cr.Data) == string(patch) {
			current = append(current, cr)
		} else {
			old = append(old, cr)
		}
	}
	next := maxRevision(old) + 1
	if len(current) == 0 {
		hash := controller.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount)
		name := ds.Name + "-" + hash
		if taken, ok := c.Get("ControllerRevision", cluster.Key{Namespace: ds.Namespace, Name: name}).(*api.ControllerRevision); ok {
			h.Collision = string(taken.Data) != string(patch)
			h.Hash = taken.Labels[api.LabelControllerRevisionHash]
			return h
		}
		h.Create = snapshot(ds, name, hash, patch, next)
		h.Hash = hash
		return h
	}
	sort.SliceStable(current, func(i, j int) bool { return current[i].Revision > current[j].Revision })
	h.Delete = append(h.Delete, current[1:]...)
	if cur := current[0]; cur.Revision < next {
		renumbered := api.DeepCopy(cur)
		renumbered.Revision = next
		h.Update = append(h.Update, renumbered)
	}
	h.Hash = current[0].Labels[api.LabelControllerRevisionHash]
	return h
}

func claimRevisions(c *cluster.Cluster, ds *api.DaemonSet) controller.Claims[*api.ControllerRevision] {
	return controller.Claim(ds, "apps/v1", "DaemonSet", ds.Spec.Selector, cluster.All[*api.ControllerRevision](c))
}

// PlanCleanup is cleanupHistory: the old revisions beyond revisionHistoryLimit (10) go, lowest
// revision first, except those whose hash a pod of the DaemonSet still carries (terminating
// and finished pods included); the current revision does not count.
func PlanCleanup(c *cluster.Cluster, ds *api.DaemonSet) []*api.ControllerRevision {
	patch := controller.TemplatePatch(ds)
	var old []*api.ControllerRevision
	for _, cr := range claimRevisions(c, ds).Owned {
		if string(cr.Data) != string(patch) {
			old = append(old, cr)
		}
	}
	return beyondLimit(c, ds, old)
}

func snapshot(ds *api.DaemonSet, name, hash string, patch json.RawMessage, revision int64) *api.ControllerRevision {
	labels := maps.Clone(ds.Spec.Template.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[api.LabelControllerRevisionHash] = hash
	cr := &api.ControllerRevision{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"}, Data: patch, Revision: revision}
	cr.Name, cr.Namespace, cr.Labels, cr.Annotations = name, ds.Namespace, labels, maps.Clone(ds.Annotations)
	cr.OwnerReferences = []api.OwnerReference{api.NewControllerRef(ds, "apps/v1", "DaemonSet")}
	return cr
}

func maxRevision(crs []*api.ControllerRevision) int64 {
	var m int64
	for _, cr := range crs {
		m = max(m, cr.Revision)
	}
	return m
}

// beyondLimit lists the old revisions cleanupHistory deletes.
func beyondLimit(c *cluster.Cluster, ds *api.DaemonSet, old []*api.ControllerRevision) []*api.ControllerRevision {
	limit := 10
	if ds.Spec.RevisionHistoryLimit != nil {
		limit = int(*ds.Spec.RevisionHistoryLimit)
	}
	toKill := len(old) - limit
	if toKill <= 0 {
		return nil
	}
	live := map[string]bool{}
	for _, p := range ownedPods(c, ds) {
		if h := p.Labels[api.LabelControllerRevisionHash]; h != "" {
			live[h] = true
		}
	}
	old = append([]*api.ControllerRevision(nil), old...)
	sort.SliceStable(old, func(i, j int) bool { return old[i].Revision < old[j].Revision })
	var out []*api.ControllerRevision
	for _, cr := range old {
		if toKill == 0 {
			break
		}
		if live[cr.Labels[api.LabelControllerRevisionHash]] {
			continue
		}
		out = append(out, cr)
		toKill--
	}
	return out
}

// ApplyHistory writes History; it returns whether anything changed.
func ApplyHistory(c *cluster.Cluster, ds *api.DaemonSet, h History) bool {
	changed := h.Claims.Apply(c)
	for _, cr := range h.Update {
		changed = c.Update(cr) == nil || changed
	}
	if h.Create != nil {
		_, err := apiserver.Create(c, h.Create, apiserver.Options{})
		changed = err == nil || changed
	}
	for _, cr := range h.Delete {
		c.Delete(cr)
		changed = true
	}
	if h.Collision {
		next := api.DeepCopy(ds)
		count := int32(1)
		if ds.Status.CollisionCount != nil {
			count = *ds.Status.CollisionCount + 1
		}
		next.Status.CollisionCount = &count
		changed = c.Update(next) == nil || changed
	}
	return changed
}
