package daemon

import (
	"fmt"
	"slices"
	"strconv"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// component is the source of the controller's events.
const component = "daemonset-controller"

// Apply carries out a plan: it deletes the planned pods, creates a pod for every node that
// needs one (in node order, names drawn from the cluster's random source), then writes the
// status if it changed (a DaemonSet being deleted keeps its status). It returns whether
// anything changed.
func Apply(c *cluster.Cluster, plan Plan) bool {
	ds := plan.DaemonSet
	changed := false
	for _, p := range plan.Failed {
		backoffNext(c, backoffKey(ds, p.Spec.NodeName))
		c.Record(ds, cluster.EventWarning, "FailedDaemonPod", fmt.Sprintf("Found failed daemon pod %s/%s on node %s, will try to kill it", p.Namespace, p.Name, p.Spec.NodeName), component, "")
	}
	for _, p := range plan.Succeeded {
		c.Record(ds, cluster.EventNormal, "SucceededDaemonPod", fmt.Sprintf("Found succeeded daemon pod %s/%s on node %s, will try to delete it", p.Namespace, p.Name, p.Spec.NodeName), component, "")
	}
	for _, p := range slices.Concat(plan.Failed, plan.Succeeded, plan.PodsToDelete) {
		c.DeletePod(p, nil)
		c.Record(ds, cluster.EventNormal, "SuccessfulDelete", "Deleted pod: "+p.Name, component, "")
		changed = true
	}
	for _, node := range plan.NodesNeeding {
		pod := NewDaemonPod(ds, node, plan.Hash)
		if err := c.Create(pod); err != nil {
			c.Record(ds, cluster.EventWarning, "FailedCreate", "Error creating: "+err.Error(), component, "")
			continue
		}
		c.Record(ds, cluster.EventNormal, "SuccessfulCreate", "Created pod: "+pod.Name, component, "")
		changed = true
	}
	if ds.DeletionTimestamp != nil {
		return changed
	}
	if status := Status(c, ds); !statusEqual(ds.Status, status) {
		updated := *ds
		updated.Status = status
		if c.Update(&updated) == nil {
			changed = true
		}
	}
	return changed
}

func statusEqual(a, b api.DaemonSetStatus) bool {
	return a.CurrentNumberScheduled == b.CurrentNumberScheduled && a.NumberMisscheduled == b.NumberMisscheduled &&
		a.DesiredNumberScheduled == b.DesiredNumberScheduled && a.NumberReady == b.NumberReady &&
		a.ObservedGeneration == b.ObservedGeneration && a.UpdatedNumberScheduled == b.UpdatedNumberScheduled &&
		a.NumberAvailable == b.NumberAvailable && a.NumberUnavailable == b.NumberUnavailable
}

// NewDaemonPod builds the pod the controller creates for a node (§4, CreatePodTemplate):
//
//  1. generateName "<ds>-", the template's labels plus controller-revision-hash and
//     pod-template-generation, the template's annotations.
//  2. One controller reference to the DaemonSet (apps/v1, controller and blockOwnerDeletion).
//  3. The template's spec with the default tolerations (§2) and the node pin (§3); nodeName
//     stays empty, the scheduler binds the pod.
//
// The API server then defaults and admits it (cluster.Create).
func NewDaemonPod(ds *api.DaemonSet, nodeName, hash string) *api.Pod {
	tmpl := api.DeepCopy(ds.Spec.Template)
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, Spec: tmpl.Spec}
	pod.GenerateName = ds.Name + "-"
	pod.Namespace = ds.Namespace
	pod.Annotations = tmpl.Annotations
	pod.Labels = map[string]string{}
	for k, v := range tmpl.Labels {
		pod.Labels[k] = v
	}
	pod.Labels[ControllerRevisionHashLabel] = hash
	pod.Labels[PodTemplateGenerationLabel] = strconv.FormatInt(ds.TemplateGeneration(), 10)
	pod.OwnerReferences = []api.OwnerReference{api.NewControllerRef(ds, "apps/v1", "DaemonSet")}
	AddOrUpdateDaemonPodTolerations(&pod.Spec)
	pod.Spec.Affinity = ReplaceDaemonSetPodNodeNameNodeAffinity(pod.Spec.Affinity, nodeName)
	return pod
}
