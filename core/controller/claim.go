// Package controller holds what the controllers share, as upstream's pkg/controller does: how a controller decides which objects are its own, as upstream's
// pkg/controller/controller_ref_manager.go: by its controller reference and its selector.
package controller

import (
	"iter"
	"slices"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// Claims is what a controller decided about the objects of its namespace.
type Claims[T api.Object] struct {
	Owned   []T // its own, adopted ones included (as they will be once adopted)
	Adopt   []T // orphans, each a copy with the owner's controller reference added
	Release []T // objects it no longer selects, each a copy without the owner's reference
}

// Claim sorts objs as ClaimObject does for an owner with the given selector:
//
//  1. An object in another namespace, or controlled by someone else, is left alone.
//  2. One the owner controls and whose labels the selector matches is owned.
//  3. One the owner controls whose labels no longer match is released (its reference to the
//     owner goes), unless the owner is being deleted.
//  4. An orphan whose labels match is adopted (a controller reference to the owner, with
//     blockOwnerDeletion, is added), unless the owner or the orphan is being deleted.
//
// A selector that cannot be parsed claims nothing. apiVersion and kind name the owner in the
// references it writes.
func Claim[T api.Object](owner api.Object, apiVersion, kind string, selector *api.LabelSelector, objs iter.Seq[T]) Claims[T] {
	var out Claims[T]
	sel, err := api.LabelSelectorAsSelector(selector)
	if err != nil {
		return out
	}
	om := owner.GetObjectMeta()
	ownerDeleting := om.DeletionTimestamp != nil
	for obj := range objs {
		m := obj.GetObjectMeta()
		if m.Namespace != om.Namespace {
			continue
		}
		ref, controlled := api.ControllerOf(m)
		if controlled && ref.UID != om.UID {
			continue
		}
		matches := sel.Matches(m.Labels)
		switch {
		case controlled && ref.UID == om.UID && matches:
			out.Owned = append(out.Owned, obj)
		case controlled && ref.UID == om.UID && !ownerDeleting:
			released := api.DeepCopy(obj)
			rm := released.GetObjectMeta()
			rm.OwnerReferences = slices.DeleteFunc(rm.OwnerReferences, func(r api.OwnerReference) bool { return r.UID == om.UID })
			out.Release = append(out.Release, released)
		case !controlled && matches && !ownerDeleting && m.DeletionTimestamp == nil:
			adopted := api.DeepCopy(obj)
			am := adopted.GetObjectMeta()
			am.OwnerReferences = append(am.OwnerReferences, api.NewControllerRef(owner, apiVersion, kind))
			out.Adopt = append(out.Adopt, adopted)
			out.Owned = append(out.Owned, adopted)
		}
	}
	return out
}

// Apply writes the adoptions and releases; it returns whether anything changed.
func (cl Claims[T]) Apply(c *cluster.Cluster) bool {
	changed := false
	for _, obj := range slices.Concat(cl.Adopt, cl.Release) {
		changed = c.Update(obj) == nil || changed
	}
	return changed
}
