package daemon

import (
	"encoding/json"
	"maps"
	"sort"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// History is what one sync does to a DaemonSet's ControllerRevisions (constructHistory, then
// cleanupHistory): each revision snapshots a pod template, so that the controller can tell
// current pods from old ones and a rollback can bring a template back.
type History struct {
	Adopt     []*api.ControllerRevision // orphans the selector matches: they get the controller reference
	Release   []*api.ControllerRevision // revisions the selector no longer matches: they lose it
	Update    []*api.ControllerRevision // labelled with their hash, or renumbered as current
	Create    *api.ControllerRevision   // the snapshot of a template no revision holds yet
	Delete    []*api.ControllerRevision // duplicates of the current one, and old ones beyond the limit
	Collision bool                      // a revision of that name holds another template
}

// PlanHistory decides History for ds, as upstream's constructHistory and cleanupHistory do:
//
//  1. The DaemonSet claims the revisions of its namespace its selector matches (adopting
//     orphans, releasing those that no longer match).
//  2. A revision without the controller-revision-hash label gets its name as the label.
//  3. Revisions whose data is the DaemonSet's template patch are current; the others are old.
//  4. With no current revision, a new one named <ds>-<hash> is created with revision
//     max(old)+1; if that name is taken by another template, the hash collided and the
//     status's collisionCount goes up instead. Of several current ones the highest revision
//     stays; a current revision below max(old)+1 is renumbered (a rollback to an old template).
//  5. Old revisions beyond revisionHistoryLimit (10) go, lowest revision first, except those a
//     pod still carries the hash of.
func PlanHistory(c *cluster.Cluster, ds *api.DaemonSet, hash string) History {
	var h History
	if ds.DeletionTimestamp != nil {
		return h
	}
	sel, err := api.LabelSelectorAsSelector(ds.Spec.Selector)
	if err != nil {
		return h
	}
	var owned []*api.ControllerRevision
	for _, cr := range cluster.List[*api.ControllerRevision](c) {
		if cr.Namespace != ds.Namespace {
			continue
		}
		ref, controlled := api.ControllerOf(&cr.ObjectMeta)
		switch matches := sel.Matches(cr.Labels); {
		case controlled && ref.UID == ds.UID && matches:
			owned = append(owned, cr)
		case controlled && ref.UID == ds.UID:
			released := api.DeepCopy(cr)
			released.OwnerReferences = nil
			h.Release = append(h.Release, released)
		case !controlled && matches && cr.DeletionTimestamp == nil:
			adopted := api.DeepCopy(cr)
			adopted.OwnerReferences = append(adopted.OwnerReferences, api.NewControllerRef(ds, "apps/v1", "DaemonSet"))
			h.Adopt = append(h.Adopt, adopted)
			owned = append(owned, adopted)
		}
	}
	patch := templatePatch(ds)
	var current, old []*api.ControllerRevision
	for _, cr := range owned {
		if _, ok := cr.Labels[ControllerRevisionHashLabel]; !ok {
			labelled := api.DeepCopy(cr)
			labelled.Labels = maps.Clone(labelled.Labels)
			if labelled.Labels == nil {
				labelled.Labels = map[string]string{}
			}
			labelled.Labels[ControllerRevisionHashLabel] = labelled.Name
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
	switch {
	case len(current) == 0:
		name := ds.Name + "-" + hash
		if taken, ok := c.Get("ControllerRevision", cluster.Key{Namespace: ds.Namespace, Name: name}).(*api.ControllerRevision); ok {
			h.Collision = string(taken.Data) != string(patch)
			return h
		}
		h.Create = snapshot(ds, name, hash, patch, next)
	default:
		sort.SliceStable(current, func(i, j int) bool { return current[i].Revision > current[j].Revision })
		h.Delete = append(h.Delete, current[1:]...)
		if cur := current[0]; cur.Revision < next {
			renumbered := api.DeepCopy(cur)
			renumbered.Revision = next
			h.Update = append(h.Update, renumbered)
		}
	}
	h.Delete = append(h.Delete, beyondLimit(c, ds, old)...)
	return h
}

// templatePatch is getPatch: the DaemonSet's template as a strategic-merge patch that replaces
// it, {"spec":{"template":{"$patch":"replace",…}}}, the data of a ControllerRevision.
func templatePatch(ds *api.DaemonSet) json.RawMessage {
	var template map[string]any
	data, _ := json.Marshal(ds.Spec.Template) // stored objects always encode
	_ = json.Unmarshal(data, &template)
	template["$patch"] = "replace"
	patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": template}})
	return patch
}

func snapshot(ds *api.DaemonSet, name, hash string, patch json.RawMessage, revision int64) *api.ControllerRevision {
	labels := maps.Clone(ds.Spec.Template.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[ControllerRevisionHashLabel] = hash
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
		if h := p.Labels[ControllerRevisionHashLabel]; h != "" {
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
		if live[cr.Labels[ControllerRevisionHashLabel]] {
			continue
		}
		out = append(out, cr)
		toKill--
	}
	return out
}

// ApplyHistory writes History; it returns whether anything changed.
func ApplyHistory(c *cluster.Cluster, ds *api.DaemonSet, h History) bool {
	changed := false
	for _, cr := range append(append(append([]*api.ControllerRevision(nil), h.Adopt...), h.Release...), h.Update...) {
		changed = c.Update(cr) == nil || changed
	}
	if h.Create != nil {
		changed = c.Create(h.Create) == nil || changed
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

// Sync is one sync of one DaemonSet (syncDaemonSet): its history first, then its pods and
// status. A hash collision stops the sync; the next one hashes with the new collision count.
func Sync(c *cluster.Cluster, ds *api.DaemonSet) bool {
	plan := Reconcile(c, ds)
	h := PlanHistory(c, ds, plan.Hash)
	changed := ApplyHistory(c, ds, h)
	if h.Collision {
		return changed
	}
	return Apply(c, plan) || changed
}
