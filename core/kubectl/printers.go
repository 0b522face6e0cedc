package kubectl

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"daemonlab/core/api"
)

// column is one column of a printed table: its header and how to fill it.
type column[T any] struct {
	header string
	wide   bool // only with -o wide
	cell   func(obj T, now time.Time) string
}

// tableOptions are the flags that shape a table.
type tableOptions struct {
	wide, allNamespaces, showLabels bool
	labelColumns                    []string // -L: a column per label key
	namePrefix                      string   // "deployment.apps/" when several types are listed
}

// tableRows lays objects out as kubectl's table printer does, header first: upper-case headers,
// a NAMESPACE column first with --all-namespaces, a column per -L label key (headed by the key's
// last segment, upper-cased), a LABELS column last with --show-labels.
func tableRows[T api.Object](objs []T, cols []column[T], opts tableOptions, now time.Time) [][]string {
	wide, allNamespaces := opts.wide, opts.allNamespaces
	var headers []string
	if allNamespaces {
		headers = append(headers, "NAMESPACE")
	}
	for _, c := range cols {
		if !c.wide || wide {
			headers = append(headers, c.header)
		}
	}
	for _, key := range opts.labelColumns {
		headers = append(headers, strings.ToUpper(key[strings.LastIndex(key, "/")+1:]))
	}
	if opts.showLabels {
		headers = append(headers, "LABELS")
	}
	rows := [][]string{headers}
	for _, o := range objs {
		var cells []string
		if allNamespaces {
			cells = append(cells, o.GetObjectMeta().Namespace)
		}
		for _, c := range cols {
			if c.wide && !wide {
				continue
			}
			cell := c.cell(o, now)
			if c.header == "NAME" {
				cell = opts.namePrefix + cell
			}
			cells = append(cells, cell)
		}
		for _, key := range opts.labelColumns {
			cells = append(cells, o.GetObjectMeta().Labels[key])
		}
		if opts.showLabels {
			cells = append(cells, api.FormatLabels(o.GetObjectMeta().Labels))
		}
		rows = append(rows, cells)
	}
	return rows
}

// shownRows is a table's rows as printed: without the header with --no-headers, which also
// leaves it out of the columns' widths.
func shownRows(rows [][]string, noHeaders bool) [][]string {
	if noHeaders {
		return rows[1:]
	}
	return rows
}

// writeTable aligns rows as kubectl's tabwriter does: minimum width 6, tab width 4, padding 3
// (printers.GetNewTabWriter).
func writeTable(b *strings.Builder, rows [][]string) {
	w := tabwriter.NewWriter(b, 6, 4, 3, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(w, strings.Join(r, "\t"))
	}
	w.Flush()
}

// HumanDuration renders a duration as kubectl's AGE column does (apimachinery
// duration.HumanDuration): seconds up to 2 minutes, then minutes and seconds up to 10 minutes,
// minutes up to 3 hours, hours and minutes up to 8 hours, hours up to 2 days, days and hours up
// to 8 days, days up to 2 years, then years and days up to 8 years, then years.
func HumanDuration(d time.Duration) string {
	if seconds := int(d.Seconds()); seconds < -1 {
		return "<invalid>"
	} else if seconds < 0 {
		return "0s"
	} else if seconds < 60*2 {
		return fmt.Sprintf("%ds", seconds)
	}
	minutes := int(d / time.Minute)
	if minutes < 10 {
		if s := int(d/time.Second) % 60; s != 0 {
			return fmt.Sprintf("%dm%ds", minutes, s)
		}
		return fmt.Sprintf("%dm", minutes)
	} else if minutes < 60*3 {
		return fmt.Sprintf("%dm", minutes)
	}
	hours := int(d / time.Hour)
	switch {
	case hours < 8:
		if m := minutes % 60; m != 0 {
			return fmt.Sprintf("%dh%dm", hours, m)
		}
		return fmt.Sprintf("%dh", hours)
	case hours < 48:
		return fmt.Sprintf("%dh", hours)
	case hours < 24*8:
		if h := hours % 24; h != 0 {
			return fmt.Sprintf("%dd%dh", hours/24, h)
		}
		return fmt.Sprintf("%dd", hours/24)
	case hours < 24*365*2:
		return fmt.Sprintf("%dd", hours/24)
	case hours < 24*365*8:
		if dy := hours / 24 % 365; dy != 0 {
			return fmt.Sprintf("%dy%dd", hours/24/365, dy)
		}
		return fmt.Sprintf("%dy", hours/24/365)
	}
	return fmt.Sprintf("%dy", hours/24/365)
}

func age(t api.Time, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(t.Time))
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

var podColumns = []column[*api.Pod]{
	{header: "NAME", cell: func(p *api.Pod, _ time.Time) string { return p.Name }},
	{header: "READY", cell: func(p *api.Pod, now time.Time) string { return PodStatus(p, now).Ready }},
	{header: "STATUS", cell: func(p *api.Pod, now time.Time) string { return PodStatus(p, now).Status }},
	{header: "RESTARTS", cell: func(p *api.Pod, now time.Time) string { return PodStatus(p, now).Restarts }},
	{header: "AGE", cell: func(p *api.Pod, now time.Time) string { return age(p.CreationTimestamp, now) }},
	{header: "IP", wide: true, cell: func(p *api.Pod, _ time.Time) string {
		if len(p.Status.PodIPs) > 0 {
			return p.Status.PodIPs[0].IP
		}
		return "<none>"
	}},
	{header: "NODE", wide: true, cell: func(p *api.Pod, _ time.Time) string { return orNone(p.Spec.NodeName) }},
	{header: "NOMINATED NODE", wide: true, cell: func(p *api.Pod, _ time.Time) string { return orNone(p.Status.NominatedNodeName) }},
	{header: "READINESS GATES", wide: true, cell: func(*api.Pod, time.Time) string { return "<none>" }},
}

// PodSummary is what the pod table shows of a pod's state: READY, STATUS and RESTARTS.
type PodSummary struct {
	Ready, Status, Restarts string
}

// PodStatus computes the READY, STATUS and RESTARTS columns as printPod does:
//
//  1. STATUS starts as status.reason, else the phase; a PodScheduled condition with reason
//     SchedulingGated makes it SchedulingGated.
//  2. Init containers are walked in order: one that exited 0, or a started sidecar (restartable
//     init container; a ready one counts towards READY), is passed over; the first other one
//     decides: Init:<reason>, Init:Signal:N or Init:ExitCode:N if it failed, Init:<waiting
//     reason> (but not PodInitializing), else Init:<index>/<count>, and the pod is initializing.
//  3. Unless initializing (and not marked Initialized), the containers are walked from the last:
//     a waiting reason, or a terminated reason (Signal:N, ExitCode:N), replaces STATUS; a ready
//     running container counts as ready. "Completed" with a container still running is Running
//     (pod Ready), the error reason of a container that failed, or NotReady.
//  4. A pod being deleted is Unknown when its node was lost (NodeLost), otherwise Terminating
//     unless it has finished.
//  5. READY counts ready containers of all containers and sidecars; RESTARTS is the sum of the
//     containers' and sidecars' restarts (the init containers' while initializing), with
//     "(<age> ago)" of the last exit among them.
func PodStatus(p *api.Pod, now time.Time) PodSummary {
	st := &p.Status
	reason := string(st.Phase)
	if st.Reason != "" {
		reason = st.Reason
	}
	for _, c := range st.Conditions {
		if c.Type == api.PodScheduled && c.Reason == "SchedulingGated" {
			reason = "SchedulingGated"
		}
	}
	total, ready := len(p.Spec.Containers), 0
	initContainers := map[string]*api.Container{}
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		initContainers[c.Name] = c
		if api.IsRestartableInitContainer(c) {
			total++
		}
	}
	var all, sidecars restartCount
	initializing := false
	for i, cs := range st.InitContainerStatuses {
		all.add(cs)
		sidecar := api.IsRestartableInitContainer(initContainers[cs.Name])
		if sidecar {
			sidecars.add(cs)
		}
		t := cs.State.Terminated
		switch {
		case t != nil && t.ExitCode == 0:
			continue
		case sidecar && cs.Started != nil && *cs.Started:
			if cs.Ready {
				ready++
			}
			continue
		case t != nil:
			reason = "Init:" + terminatedReason(t)
		case cs.State.Waiting != nil && cs.State.Waiting.Reason != "" && cs.State.Waiting.Reason != "PodInitializing":
			reason = "Init:" + cs.State.Waiting.Reason
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(p.Spec.InitContainers))
		}
		initializing = true
		break
	}
	counted := all
	if !initializing || hasCondition(st.Conditions, api.PodInitialized) {
		counted = sidecars
		hasRunning, errorReason := false, ""
		for i := len(st.ContainerStatuses) - 1; i >= 0; i-- {
			cs := st.ContainerStatuses[i]
			counted.add(cs)
			switch t := cs.State.Terminated; {
			case cs.State.Waiting != nil && cs.State.Waiting.Reason != "":
				reason = cs.State.Waiting.Reason
			case t != nil:
				reason = terminatedReason(t)
				if t.ExitCode != 0 {
					errorReason = reason
				}
			case cs.Ready && cs.State.Running != nil:
				hasRunning = true
				ready++
			}
		}
		if reason == "Completed" {
			switch {
			case hasRunning && hasCondition(st.Conditions, api.PodReady):
				reason = "Running"
			case errorReason != "":
				reason = errorReason
			case hasRunning:
				reason = "NotReady"
			}
		}
	}
	terminal := st.Phase == api.PodSucceeded || st.Phase == api.PodFailed
	if p.DeletionTimestamp != nil && st.Reason == "NodeLost" {
		reason = "Unknown"
	} else if p.DeletionTimestamp != nil && !terminal {
		reason = "Terminating"
	}
	restarts := strconv.Itoa(counted.n)
	if counted.n != 0 && !counted.last.IsZero() {
		restarts = fmt.Sprintf("%d (%s ago)", counted.n, HumanDuration(now.Sub(counted.last)))
	}
	return PodSummary{Ready: fmt.Sprintf("%d/%d", ready, total), Status: reason, Restarts: restarts}
}

// restartCount sums restarts and remembers the last exit.
type restartCount struct {
	n    int
	last time.Time
}

func (r *restartCount) add(cs api.ContainerStatus) {
	r.n += int(cs.RestartCount)
	if t := cs.LastState.Terminated; t != nil && t.FinishedAt.After(r.last) {
		r.last = t.FinishedAt.Time
	}
}

// terminatedReason is a terminated container's reason, or Signal:N, or ExitCode:N.
func terminatedReason(t *api.ContainerStateTerminated) string {
	switch {
	case t.Reason != "":
		return t.Reason
	case t.Signal != 0:
		return fmt.Sprintf("Signal:%d", t.Signal)
	}
	return fmt.Sprintf("ExitCode:%d", t.ExitCode)
}

// hasCondition reports whether a pod condition of that type is True.
func hasCondition(conds []api.PodCondition, typ api.PodConditionType) bool {
	for _, c := range conds {
		if c.Type == typ {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

var nodeColumns = []column[*api.Node]{
	{header: "NAME", cell: func(n *api.Node, _ time.Time) string { return n.Name }},
	{header: "STATUS", cell: func(n *api.Node, _ time.Time) string { return NodeStatus(n) }},
	{header: "ROLES", cell: func(n *api.Node, _ time.Time) string { return NodeRoles(n) }},
	{header: "AGE", cell: func(n *api.Node, now time.Time) string { return age(n.CreationTimestamp, now) }},
	{header: "VERSION", cell: func(n *api.Node, _ time.Time) string { return n.Status.NodeInfo.KubeletVersion }},
	{header: "INTERNAL-IP", wide: true, cell: func(n *api.Node, _ time.Time) string { return nodeAddress(n, "InternalIP") }},
	{header: "EXTERNAL-IP", wide: true, cell: func(n *api.Node, _ time.Time) string { return nodeAddress(n, "ExternalIP") }},
	{header: "OS-IMAGE", wide: true, cell: func(n *api.Node, _ time.Time) string { return orUnknown(n.Status.NodeInfo.OSImage) }},
	{header: "KERNEL-VERSION", wide: true, cell: func(n *api.Node, _ time.Time) string {
		v := orUnknown(n.Status.NodeInfo.KernelVersion)
		if arch := n.Status.NodeInfo.Architecture; arch != "" {
			v += " (" + arch + ")"
		}
		return v
	}},
	{header: "CONTAINER-RUNTIME", wide: true, cell: func(n *api.Node, _ time.Time) string { return orUnknown(n.Status.NodeInfo.ContainerRuntimeVersion) }},
}

func orUnknown(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}

func nodeAddress(n *api.Node, typ string) string {
	for _, a := range n.Status.Addresses {
		if a.Type == typ {
			return a.Address
		}
	}
	return "<none>"
}

// NodeStatus is the STATUS column of a node: Ready, NotReady or Unknown (no Ready condition),
// then SchedulingDisabled when cordoned.
func NodeStatus(n *api.Node) string {
	status := "Unknown"
	for _, c := range n.Status.Conditions {
		if c.Type == api.NodeReady {
			status = "NotReady"
			if c.Status == api.ConditionTrue {
				status = "Ready"
			}
		}
	}
	if n.Spec.Unschedulable {
		status += ",SchedulingDisabled"
	}
	return status
}

// NodeRoles is the ROLES column: the names after node-role.kubernetes.io/ and the value of
// kubernetes.io/role, sorted, or <none>.
func NodeRoles(n *api.Node) string {
	set := map[string]bool{}
	for k, v := range n.Labels {
		if role, ok := strings.CutPrefix(k, api.LabelNodeRolePrefix); ok && role != "" {
			set[role] = true
		} else if k == api.LabelNodeRoleOld && v != "" {
			set[v] = true
		}
	}
	roles := make([]string, 0, len(set))
	for r := range set {
		roles = append(roles, r)
	}
	sort.Strings(roles)
	return orNone(strings.Join(roles, ","))
}

var daemonSetColumns = []column[*api.DaemonSet]{
	{header: "NAME", cell: func(d *api.DaemonSet, _ time.Time) string { return d.Name }},
	{header: "DESIRED", cell: func(d *api.DaemonSet, _ time.Time) string { return itoa(d.Status.DesiredNumberScheduled) }},
	{header: "CURRENT", cell: func(d *api.DaemonSet, _ time.Time) string { return itoa(d.Status.CurrentNumberScheduled) }},
	{header: "READY", cell: func(d *api.DaemonSet, _ time.Time) string { return itoa(d.Status.NumberReady) }},
	{header: "UP-TO-DATE", cell: func(d *api.DaemonSet, _ time.Time) string { return itoa(d.Status.UpdatedNumberScheduled) }},
	{header: "AVAILABLE", cell: func(d *api.DaemonSet, _ time.Time) string { return itoa(d.Status.NumberAvailable) }},
	{header: "NODE SELECTOR", cell: func(d *api.DaemonSet, _ time.Time) string { return api.FormatLabels(d.Spec.Template.Spec.NodeSelector) }},
	{header: "AGE", cell: func(d *api.DaemonSet, now time.Time) string { return age(d.CreationTimestamp, now) }},
	{header: "CONTAINERS", wide: true, cell: func(d *api.DaemonSet, _ time.Time) string { return containerField(d.Spec.Template.Spec, false) }},
	{header: "IMAGES", wide: true, cell: func(d *api.DaemonSet, _ time.Time) string { return containerField(d.Spec.Template.Spec, true) }},
	{header: "SELECTOR", wide: true, cell: func(d *api.DaemonSet, _ time.Time) string { return api.FormatLabelSelector(d.Spec.Selector) }},
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

func containerField(s api.PodSpec, images bool) string {
	var out []string
	for _, c := range s.Containers {
		if images {
			out = append(out, c.Image)
		} else {
			out = append(out, c.Name)
		}
	}
	return strings.Join(out, ",")
}

var namespaceColumns = []column[*api.Namespace]{
	{header: "NAME", cell: func(n *api.Namespace, _ time.Time) string { return n.Name }},
	{header: "STATUS", cell: func(n *api.Namespace, _ time.Time) string { return n.Status.Phase }},
	{header: "AGE", cell: func(n *api.Namespace, now time.Time) string { return age(n.CreationTimestamp, now) }},
}

func ready(have, want int32) string { return fmt.Sprintf("%d/%d", have, want) }

func wantReplicas(n *int32) int32 {
	if n == nil {
		return 1
	}
	return *n
}

var deploymentColumns = []column[*api.Deployment]{
	{header: "NAME", cell: func(d *api.Deployment, _ time.Time) string { return d.Name }},
	{header: "READY", cell: func(d *api.Deployment, _ time.Time) string {
		return ready(d.Status.ReadyReplicas, wantReplicas(d.Spec.Replicas))
	}},
	{header: "UP-TO-DATE", cell: func(d *api.Deployment, _ time.Time) string { return itoa(d.Status.UpdatedReplicas) }},
	{header: "AVAILABLE", cell: func(d *api.Deployment, _ time.Time) string { return itoa(d.Status.AvailableReplicas) }},
	{header: "AGE", cell: func(d *api.Deployment, now time.Time) string { return age(d.CreationTimestamp, now) }},
	{header: "CONTAINERS", wide: true, cell: func(d *api.Deployment, _ time.Time) string { return containerField(d.Spec.Template.Spec, false) }},
	{header: "IMAGES", wide: true, cell: func(d *api.Deployment, _ time.Time) string { return containerField(d.Spec.Template.Spec, true) }},
	{header: "SELECTOR", wide: true, cell: func(d *api.Deployment, _ time.Time) string { return api.FormatLabelSelector(d.Spec.Selector) }},
}

var replicaSetColumns = []column[*api.ReplicaSet]{
	{header: "NAME", cell: func(r *api.ReplicaSet, _ time.Time) string { return r.Name }},
	{header: "DESIRED", cell: func(r *api.ReplicaSet, _ time.Time) string { return itoa(wantReplicas(r.Spec.Replicas)) }},
	{header: "CURRENT", cell: func(r *api.ReplicaSet, _ time.Time) string { return itoa(r.Status.Replicas) }},
	{header: "READY", cell: func(r *api.ReplicaSet, _ time.Time) string { return itoa(r.Status.ReadyReplicas) }},
	{header: "AGE", cell: func(r *api.ReplicaSet, now time.Time) string { return age(r.CreationTimestamp, now) }},
	{header: "CONTAINERS", wide: true, cell: func(r *api.ReplicaSet, _ time.Time) string { return containerField(r.Spec.Template.Spec, false) }},
	{header: "IMAGES", wide: true, cell: func(r *api.ReplicaSet, _ time.Time) string { return containerField(r.Spec.Template.Spec, true) }},
	{header: "SELECTOR", wide: true, cell: func(r *api.ReplicaSet, _ time.Time) string { return api.FormatLabelSelector(r.Spec.Selector) }},
}

// eventColumns are printEvent's: FIRST SEEN is firstTimestamp, else eventTime (events.k8s.io/v1
// events have only that); LAST SEEN is lastTimestamp, else FIRST SEEN; a series gives LAST SEEN
// and COUNT, and a singleton counts 1; OBJECT is kind/name in lower case; SOURCE is the source's
// "component, host", else the reporting controller's and instance's.
var eventColumns = []column[*api.Event]{
	{header: "LAST SEEN", cell: func(e *api.Event, now time.Time) string {
		switch {
		case e.Series != nil:
			return age(api.Time(e.Series.LastObservedTime), now)
		case e.LastTimestamp.IsZero():
			return eventFirstSeen(e, now)
		}
		return age(e.LastTimestamp, now)
	}},
	{header: "TYPE", cell: func(e *api.Event, _ time.Time) string { return e.Type }},
	{header: "REASON", cell: func(e *api.Event, _ time.Time) string { return e.Reason }},
	{header: "OBJECT", cell: func(e *api.Event, _ time.Time) string {
		kind := strings.ToLower(e.InvolvedObject.Kind)
		if e.InvolvedObject.Name == "" {
			return kind
		}
		return kind + "/" + e.InvolvedObject.Name
	}},
	{header: "SUBOBJECT", wide: true, cell: func(e *api.Event, _ time.Time) string { return e.InvolvedObject.FieldPath }},
	{header: "SOURCE", wide: true, cell: func(e *api.Event, _ time.Time) string {
		component, host := firstNonEmpty(e.Source.Component, e.ReportingComponent), firstNonEmpty(e.Source.Host, e.ReportingInstance)
		if host == "" {
			return component
		}
		return component + ", " + host
	}},
	{header: "MESSAGE", cell: func(e *api.Event, _ time.Time) string { return strings.TrimSpace(e.Message) }},
	{header: "FIRST SEEN", wide: true, cell: eventFirstSeen},
	{header: "COUNT", wide: true, cell: func(e *api.Event, _ time.Time) string {
		switch {
		case e.Series != nil:
			return itoa(e.Series.Count)
		case e.Count == 0:
			return "1"
		}
		return itoa(e.Count)
	}},
	{header: "NAME", wide: true, cell: func(e *api.Event, _ time.Time) string { return e.Name }},
}

// eventFirstSeen is printEvent's FIRST SEEN: firstTimestamp, else eventTime.
func eventFirstSeen(e *api.Event, now time.Time) string {
	if e.FirstTimestamp.IsZero() {
		return age(api.Time(e.EventTime), now)
	}
	return age(e.FirstTimestamp, now)
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// controllerRevisionColumns are printControllerRevision's: CONTROLLER is the controller as
// <kind>.<group>/<name> in lower case, or <none>.
var controllerRevisionColumns = []column[*api.ControllerRevision]{
	{header: "NAME", cell: func(r *api.ControllerRevision, _ time.Time) string { return r.Name }},
	{header: "CONTROLLER", cell: func(r *api.ControllerRevision, _ time.Time) string {
		ref, ok := api.ControllerOf(&r.ObjectMeta)
		if !ok {
			return "<none>"
		}
		group, _, _ := strings.Cut(ref.APIVersion, "/")
		if !strings.Contains(ref.APIVersion, "/") {
			group = ""
		}
		kind := strings.ToLower(ref.Kind)
		if group != "" {
			kind += "." + group
		}
		return kind + "/" + ref.Name
	}},
	{header: "REVISION", cell: func(r *api.ControllerRevision, _ time.Time) string { return strconv.FormatInt(r.Revision, 10) }},
	{header: "AGE", cell: func(r *api.ControllerRevision, now time.Time) string { return age(r.CreationTimestamp, now) }},
}
