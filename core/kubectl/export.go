package kubectl

import (
	"slices"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// serverAnnotations are the annotations controllers and kubectl write; Export leaves them out.
var serverAnnotations = []string{
	api.LastAppliedAnnotation,
	api.DeprecatedTemplateGeneration,
	api.AnnotationRevision,
}

// Export writes the cluster's own objects as manifests to `kubectl apply -f` on a real cluster:
//
//  1. the namespaces a learner made (not the API server's four), then the DaemonSets, the Deployments,
//     and the ReplicaSets and pods no controller owns — namespaces first, so that apply creates
//     them before what lives in them; each kind in kubectl's order (namespace, then name);
//  2. each object as `kubectl get -o yaml` prints it, without what the API server and the
//     controllers own: status, uid, resourceVersion, generation, creationTimestamp,
//     managedFields, and the last-applied and revision annotations;
//  3. a pod keeps no spec.nodeName: on another cluster the scheduler picks its node;
//  4. documents are separated by "---"; an empty cluster exports nothing.
//
// Nodes, events and ControllerRevisions are the cluster's, not the learner's, and stay out.
func Export(c *cluster.Cluster) string {
	var docs []string
	for _, kind := range []string{"Namespace", "DaemonSet", "Deployment", "ReplicaSet", "Pod"} {
		for _, obj := range c.ListKind(kind) {
			meta := obj.GetObjectMeta()
			_, owned := api.ControllerOf(meta)
			if owned || kind == "Namespace" && slices.Contains(apiserver.SystemNamespaces, meta.Name) {
				continue
			}
			// Unlike kubectl, which refuses to print a control character it cannot read back
			// (yamlReadable), the export writes it escaped: the learner's work is not lost.
			docs = append(docs, string(jsonToYAML(indentedJSON(manifest(obj, kindOf(kind))))))
		}
	}
	return strings.Join(docs, "---\n")
}

// manifest is obj as kubectl prints it, without what the server and the controllers own.
func manifest(obj api.Object, kind api.Kind) map[string]any {
	m := structured(obj, kind)
	delete(m, "status")
	meta, _ := m["metadata"].(map[string]any)
	for _, field := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields"} {
		delete(meta, field)
	}
	if annotations, ok := meta["annotations"].(map[string]any); ok {
		for _, a := range serverAnnotations {
			delete(annotations, a)
		}
		if len(annotations) == 0 {
			delete(meta, "annotations")
		}
	}
	if spec, ok := m["spec"].(map[string]any); ok && kind.Kind == "Pod" {
		delete(spec, "nodeName")
	}
	return m
}
