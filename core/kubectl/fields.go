package kubectl

import (
	"fmt"
	"strconv"

	"daemonlab/core/api"
)

// selectableFields are the fields the API server lets a field selector use, per kind, with
// their values for obj (each kind's field label conversion and ToSelectableFields):
//
//  1. every kind: metadata.name, and metadata.namespace for namespaced kinds;
//  2. pods: spec.nodeName, spec.restartPolicy, spec.schedulerName, spec.serviceAccountName,
//     spec.hostNetwork, status.phase, status.podIP, status.nominatedNodeName;
//  3. nodes: spec.unschedulable; namespaces: status.phase;
//  4. events: involvedObject.kind, .namespace, .name, .uid, .apiVersion, .resourceVersion,
//     .fieldPath, reason, reportingComponent, source (the source's component, else the reporting
//     component), type.
func selectableFields(obj api.Object) map[string]string {
	meta := obj.GetObjectMeta()
	f := map[string]string{"metadata.name": meta.Name}
	switch o := obj.(type) {
	case *api.Node:
		f["spec.unschedulable"] = strconv.FormatBool(o.Spec.Unschedulable)
		return f
	case *api.Namespace:
		f["status.phase"] = o.Status.Phase
		return f
	case *api.Pod:
		f["spec.nodeName"] = o.Spec.NodeName
		f["spec.restartPolicy"] = string(o.Spec.RestartPolicy)
		f["spec.schedulerName"] = o.Spec.SchedulerName
		f["spec.serviceAccountName"] = o.Spec.ServiceAccountName
		f["spec.hostNetwork"] = strconv.FormatBool(o.Spec.HostNetwork)
		f["status.phase"] = string(o.Status.Phase)
		f["status.podIP"] = o.Status.PodIP
		f["status.nominatedNodeName"] = o.Status.NominatedNodeName
	case *api.Event:
		io := o.InvolvedObject
		f["involvedObject.kind"] = io.Kind
		f["involvedObject.namespace"] = io.Namespace
		f["involvedObject.name"] = io.Name
		f["involvedObject.uid"] = io.UID
		f["involvedObject.apiVersion"] = io.APIVersion
		f["involvedObject.resourceVersion"] = io.ResourceVersion
		f["involvedObject.fieldPath"] = io.FieldPath
		f["reason"] = o.Reason
		f["reportingComponent"] = o.ReportingComponent
		f["source"] = firstNonEmpty(o.Source.Component, o.ReportingComponent)
		f["type"] = o.Type
	}
	f["metadata.namespace"] = meta.Namespace
	return f
}

// checkFieldSelector refuses a field the kind does not offer, as the API server does.
func checkFieldSelector(kind api.Kind, sel api.FieldSelector) error {
	sample := selectableFields(kind.New())
	for _, t := range sel {
		if _, ok := sample[t.Field]; !ok {
			return fmt.Errorf("field label not supported: %s", t.Field)
		}
	}
	return nil
}
