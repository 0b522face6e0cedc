package kubectl

import (
	"fmt"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/controller"
	"daemonlab/core/sim"
)

// describePodTemplate is kubectl's DescribePodTemplate.
func describePodTemplate(w describeWriter, t *api.PodTemplateSpec) {
	w.write(0, "Pod Template:\n")
	labelsMultiline(w, "  Labels", t.Labels)
	if len(t.Annotations) > 0 {
		annotationsMultiline(w, "  Annotations", t.Annotations)
	}
	if t.Spec.ServiceAccountName != "" {
		w.write(1, "Service Account:\t%s\n", t.Spec.ServiceAccountName)
	}
	if len(t.Spec.InitContainers) > 0 {
		describeContainers(w, "Init Containers", t.Spec.InitContainers, nil, nil, "  ")
	}
	describeContainers(w, "Containers", t.Spec.Containers, nil, nil, "  ")
	describeVolumes(w, t.Spec.Volumes, "  ")
	describeTopologySpread(w, t.Spec.TopologySpreadConstraints, "  ")
	if t.Spec.PriorityClassName != "" {
		w.write(1, "Priority Class Name:\t%s\n", t.Spec.PriorityClassName)
	}
	labelsMultiline(w, "  Node-Selectors", t.Spec.NodeSelector)
	tolerationsMultiline(w, "  Tolerations", t.Spec.Tolerations)
}

// selectorString is the selector as labels.Selector prints it ("" for one that selects all).
func selectorString(ls *api.LabelSelector) string {
	sel, _ := api.LabelSelectorAsSelector(ls) // stored objects have valid selectors
	return sel.String()
}

// describeDaemonSet is kubectl's describeDaemonSet: the status numbers, then the pods the
// DaemonSet controls by phase, the template and the events.
func describeDaemonSet(s *sim.Sim, obj api.Object, events bool) string {
	ds := obj.(*api.DaemonSet)
	sel, _ := api.LabelSelectorAsSelector(ds.Spec.Selector)
	running, waiting, succeeded, failed := podCounts(s.C, ds.Namespace, sel, ds.UID)
	return tabbed(func(w describeWriter) {
		w.write(0, "Name:\t%s\n", ds.Name)
		w.write(0, "Namespace:\t%s\n", ds.Namespace)
		w.write(0, "Selector:\t%s\n", selectorString(ds.Spec.Selector))
		w.write(0, "Node-Selector:\t%s\n", api.FormatLabels(ds.Spec.Template.Spec.NodeSelector))
		labelsMultiline(w, "Labels", ds.Labels)
		annotationsMultiline(w, "Annotations", ds.Annotations)
		st := ds.Status
		w.write(0, "Desired Number of Nodes Scheduled: %d\n", st.DesiredNumberScheduled)
		w.write(0, "Current Number of Nodes Scheduled: %d\n", st.CurrentNumberScheduled)
		w.write(0, "Number of Nodes Scheduled with Up-to-date Pods: %d\n", st.UpdatedNumberScheduled)
		w.write(0, "Number of Nodes Scheduled with Available Pods: %d\n", st.NumberAvailable)
		w.write(0, "Number of Nodes Misscheduled: %d\n", st.NumberMisscheduled)
		w.write(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n", running, waiting, succeeded, failed)
		describePodTemplate(w, &ds.Spec.Template)
		if events {
			describeEvents(w, eventsAbout(s.C, ds, false), s.C.Now())
		}
	})
}

// describeReplicaSet is kubectl's describeReplicaSet.
func describeReplicaSet(s *sim.Sim, obj api.Object, events bool) string {
	rs := obj.(*api.ReplicaSet)
	sel, _ := api.LabelSelectorAsSelector(rs.Spec.Selector)
	running, waiting, succeeded, failed := podCounts(s.C, rs.Namespace, sel, rs.UID)
	return tabbed(func(w describeWriter) {
		w.write(0, "Name:\t%s\n", rs.Name)
		w.write(0, "Namespace:\t%s\n", rs.Namespace)
		w.write(0, "Selector:\t%s\n", api.FormatLabelSelector(rs.Spec.Selector))
		labelsMultiline(w, "Labels", rs.Labels)
		annotationsMultiline(w, "Annotations", rs.Annotations)
		if by := ControlledBy(&rs.ObjectMeta); by != "" {
			w.write(0, "Controlled By:\t%s\n", by)
		}
		w.write(0, "Replicas:\t%d current / %d desired\n", rs.Status.Replicas, wantReplicas(rs.Spec.Replicas))
		w.write(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n", running, waiting, succeeded, failed)
		describePodTemplate(w, &rs.Spec.Template)
		conditions(w, rs.Status.Conditions)
		if events {
			describeEvents(w, eventsAbout(s.C, rs, false), s.C.Now())
		}
	})
}

func conditions(w describeWriter, cs []api.WorkloadCondition) {
	if len(cs) == 0 {
		return
	}
	w.write(0, "Conditions:\n  Type\tStatus\tReason\n")
	w.write(1, "----\t------\t------\n")
	for _, c := range cs {
		w.write(1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
	}
}

// describeDeployment is kubectl's describeDeployment: replicas, strategy, template,
// conditions, the old and the new ReplicaSet, events.
func describeDeployment(s *sim.Sim, obj api.Object, events bool) string {
	d := obj.(*api.Deployment)
	newRS, old := controller.ReplicaSets(s.C, d)
	return tabbed(func(w describeWriter) {
		w.write(0, "Name:\t%s\n", d.Name)
		w.write(0, "Namespace:\t%s\n", d.Namespace)
		w.write(0, "CreationTimestamp:\t%s\n", rfc1123z(d.CreationTimestamp))
		labelsMultiline(w, "Labels", d.Labels)
		annotationsMultiline(w, "Annotations", d.Annotations)
		w.write(0, "Selector:\t%s\n", selectorString(d.Spec.Selector))
		st := d.Status
		w.write(0, "Replicas:\t%d desired | %d updated | %d total | %d available | %d unavailable\n",
			wantReplicas(d.Spec.Replicas), st.UpdatedReplicas, st.Replicas, st.AvailableReplicas, st.UnavailableReplicas)
		w.write(0, "StrategyType:\t%s\n", d.Spec.Strategy.Type)
		w.write(0, "MinReadySeconds:\t%d\n", d.Spec.MinReadySeconds)
		if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
			w.write(0, "RollingUpdateStrategy:\t%s max unavailable, %s max surge\n", intOrStringText(ru.MaxUnavailable), intOrStringText(ru.MaxSurge))
		}
		describePodTemplate(w, &d.Spec.Template)
		conditions(w, st.Conditions)
		if newRS != nil || len(old) > 0 {
			var news []*api.ReplicaSet
			if newRS != nil {
				news = append(news, newRS)
			}
			w.write(0, "OldReplicaSets:\t%s\n", replicaSetsCreated(old))
			w.write(0, "NewReplicaSet:\t%s\n", replicaSetsCreated(news))
		}
		if events {
			describeEvents(w, eventsAbout(s.C, d, false), s.C.Now())
		}
	})
}

// intOrStringText is IntOrString.String() of a possibly missing value ("0").
func intOrStringText(v *api.IntOrString) string {
	if v == nil {
		return "0"
	}
	return v.String()
}

func replicaSetsCreated(rss []*api.ReplicaSet) string {
	var out []string
	for _, rs := range rss {
		out = append(out, fmt.Sprintf("%s (%d/%d replicas created)", rs.Name, rs.Status.Replicas, wantReplicas(rs.Spec.Replicas)))
	}
	if len(out) == 0 {
		return "<none>"
	}
	return strings.Join(out, ", ")
}

// describeNamespace is kubectl's describeNamespace; DaemonLab has no ResourceQuotas or
// LimitRanges, so it says so as kubectl does for a namespace without any.
func describeNamespace(_ *sim.Sim, obj api.Object, _ bool) string {
	ns := obj.(*api.Namespace)
	return tabbed(func(w describeWriter) {
		w.write(0, "Name:\t%s\n", ns.Name)
		labelsMultiline(w, "Labels", ns.Labels)
		annotationsMultiline(w, "Annotations", ns.Annotations)
		w.write(0, "Status:\t%s\n", ns.Status.Phase)
		w.write(0, "\n")
		w.write(0, "No resource quota.\n")
		w.write(0, "\n")
		w.write(0, "No LimitRange resource.\n")
	})
}
