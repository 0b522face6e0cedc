package daemon

import (
	"fmt"
	"strconv"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/controller"
)

// component is the source of the controller's events.
const component = "daemonset-controller"

// Apply carries out a plan: adoptions and releases, the events and back-off steps of the failed
// and succeeded pods it found, then the creates and deletes (syncNodes). It changes nothing for
// a DaemonSet being deleted.
func Apply(c *cluster.Cluster, plan Plan) Outcome {
	ds := plan.DaemonSet
	out := Outcome{Changed: plan.Claims.Apply(c)}
	for _, p := range plan.Failed {
		backoffNext(c, failedPodsBackoffKey(ds, p.Spec.NodeName))
		c.Record(ds, cluster.EventWarning, "FailedDaemonPod", fmt.Sprintf("Found failed daemon pod %s/%s on node %s, will try to kill it", p.Namespace, p.Name, p.Spec.NodeName), component, "")
	}
	for _, p := range plan.Succeeded {
		c.Record(ds, cluster.EventNormal, "SucceededDaemonPod", fmt.Sprintf("Found succeeded daemon pod %s/%s on node %s, will try to delete it", p.Namespace, p.Name, p.Spec.NodeName), component, "")
	}
	out.add(syncNodes(c, plan, createPod(c)))
	return out
}

// syncNodes creates and deletes pods as upstream's syncNodes does, create standing for the API
// server's pod creation:
//
//  1. At most burstReplicas (250) creates and 250 deletes per sync; the rest wait for the next
//     (Outcome.Capped), which the controller runs as soon as it has seen these.
//  2. Creates go in slow-start batches (controller.SlowStartBatch).
//  3. Every create records SuccessfulCreate ("Created pod: <name>") or FailedCreate ("Error
//     creating: <error>") on the DaemonSet; every delete SuccessfulDelete ("Deleted pod: <name>").
//  4. Deletes come after the creates.
//  5. A failed create is a failed sync, retried when the rate limiter says (controller.Retries;
//     its event is a change); creates that all worked forget the failures.
//
// createPod creates a pod through the API server, as the controller's pod control does.
func createPod(c *cluster.Cluster) func(api.Object) error {
	return func(pod api.Object) error {
		_, err := apiserver.Create(c, pod, apiserver.Options{})
		return err
	}
}

func syncNodes(c *cluster.Cluster, plan Plan, create func(api.Object) error) Outcome {
	ds := plan.DaemonSet
	var out Outcome
	creates := plan.NodesNeeding[:min(len(plan.NodesNeeding), burstReplicas)]
	failed := controller.SlowStartBatch(len(creates), func(i int) error {
		pod := NewDaemonPod(ds, creates[i], plan.Hash)
		if err := create(pod); err != nil {
			c.Record(ds, cluster.EventWarning, "FailedCreate", "Error creating: "+err.Error(), component, "")
			return err
		}
		c.Record(ds, cluster.EventNormal, "SuccessfulCreate", "Created pod: "+pod.Name, component, "")
		out.Created++
		return nil
	})
	for _, p := range plan.PodsToDelete[:min(len(plan.PodsToDelete), burstReplicas)] {
		c.DeletePod(p, nil)
		c.Record(ds, cluster.EventNormal, "SuccessfulDelete", "Deleted pod: "+p.Name, component, "")
		out.Deleted++
	}
	switch {
	case failed:
		retries.Failed(c, ds)
		out.Changed = true
	case len(creates) > 0:
		retries.Forget(c, ds)
	}
	out.Capped = !failed && len(plan.NodesNeeding) > burstReplicas || len(plan.PodsToDelete) > burstReplicas
	out.Changed = out.Changed || out.Created > 0 || out.Deleted > 0
	return out
}

func statusEqual(a, b api.DaemonSetStatus) bool {
	return a.CurrentNumberScheduled == b.CurrentNumberScheduled && a.NumberMisscheduled == b.NumberMisscheduled &&
		a.DesiredNumberScheduled == b.DesiredNumberScheduled && a.NumberReady == b.NumberReady &&
		a.ObservedGeneration == b.ObservedGeneration && a.UpdatedNumberScheduled == b.UpdatedNumberScheduled &&
		a.NumberAvailable == b.NumberAvailable && a.NumberUnavailable == b.NumberUnavailable
}

// NewDaemonPod builds the pod the controller creates for a node (CreatePodTemplate in
// pkg/controller/daemon/util/daemonset_util.go, GetPodFromTemplate in
// pkg/controller/controller_utils.go):
//
//  1. generateName "<ds>-", the template's labels plus controller-revision-hash and
//     pod-template-generation, the template's annotations.
//  2. One controller reference to the DaemonSet (apps/v1, controller and blockOwnerDeletion).
//  3. The template's spec with the default tolerations (AddOrUpdateDaemonPodTolerations) and the
//     node pin (ReplaceDaemonSetPodNodeNameNodeAffinity); nodeName stays empty, the scheduler
//     binds the pod.
//
// The API server then defaults, admits and validates it (apiserver.Create).
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
	pod.Labels[api.LabelControllerRevisionHash] = hash
	pod.Labels[api.LabelPodTemplateGeneration] = strconv.FormatInt(ds.TemplateGeneration(), 10)
	pod.OwnerReferences = []api.OwnerReference{api.NewControllerRef(ds, "apps/v1", "DaemonSet")}
	AddOrUpdateDaemonPodTolerations(&pod.Spec)
	pod.Spec.Affinity = ReplaceDaemonSetPodNodeNameNodeAffinity(pod.Spec.Affinity, nodeName)
	return pod
}
