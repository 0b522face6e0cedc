package controller

import (
	"encoding/json"
	"sort"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// What the workload controllers and kubectl's rollout commands both read of a workload's
// history, as pkg/controller/deployment/util and the DaemonSet controller's ControllerRevisions
// are read by kubectl's polymorphichelpers too.

// EqualIgnoreHash compares two templates without their pod-template-hash labels.
func EqualIgnoreHash(a, b api.PodTemplateSpec) bool {
	a, b = api.DeepCopy(a), api.DeepCopy(b)
	delete(a.Labels, api.LabelPodTemplateHash)
	delete(b.Labels, api.LabelPodTemplateHash)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// SkipCopyAnnotation reports whether a Deployment annotation is one the Deployment and its
// ReplicaSets keep each for themselves (annotationsToSkip, pkg/controller/deployment/util
// deployment_util.go, and kubectl's rollback.go): the controller does not copy it to the new
// ReplicaSet, and a rollback does not copy it back.
func SkipCopyAnnotation(key string) bool {
	switch key {
	case api.LastAppliedAnnotation, api.AnnotationRevision, api.AnnotationRevisionHistory, api.AnnotationDesiredReplicas, api.AnnotationMaxReplicas, "deprecated.deployment.rollback.to":
		return true
	}
	return false
}

// ReplicaSets returns d's new ReplicaSet (nil if there is none yet) and its old ones, oldest
// first, as kubectl's deployment util finds them without changing anything: the ReplicaSets d
// controls whose labels its selector matches; the new one is the oldest whose template is d's.
func ReplicaSets(c *cluster.Cluster, d *api.Deployment) (*api.ReplicaSet, []*api.ReplicaSet) {
	sel, err := api.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, nil
	}
	var owned []*api.ReplicaSet
	for rs := range cluster.All[*api.ReplicaSet](c) {
		if ref, ok := api.ControllerOf(&rs.ObjectMeta); ok && rs.Namespace == d.Namespace && ref.UID == d.UID && sel.Matches(rs.Labels) {
			owned = append(owned, rs)
		}
	}
	SortByCreation(owned)
	var newRS *api.ReplicaSet
	var old []*api.ReplicaSet
	for _, rs := range owned {
		if newRS == nil && EqualIgnoreHash(rs.Spec.Template, d.Spec.Template) {
			newRS = rs
			continue
		}
		old = append(old, rs)
	}
	return newRS, old
}

// SortByCreation sorts ReplicaSets oldest first, by name within a second (ReplicaSetsByCreationTimestamp).
func SortByCreation(rss []*api.ReplicaSet) {
	sort.SliceStable(rss, func(i, j int) bool {
		if !rss[i].CreationTimestamp.Equal(rss[j].CreationTimestamp.Time) {
			return rss[i].CreationTimestamp.Before(rss[j].CreationTimestamp.Time)
		}
		return rss[i].Name < rss[j].Name
	})
}

// TemplatePatch is the DaemonSet controller's getPatch (pkg/controller/daemon/update.go), which
// kubectl's rollback compares with too: the DaemonSet's template as a strategic-merge patch that replaces
// it, {"spec":{"template":{"$patch":"replace",…}}}, the data of a ControllerRevision.
func TemplatePatch(ds *api.DaemonSet) json.RawMessage {
	var template map[string]any
	data, _ := json.Marshal(ds.Spec.Template) // stored objects always encode
	_ = json.Unmarshal(data, &template)
	template["$patch"] = "replace"
	patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": template}})
	return patch
}
