package kubectl

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

// kubectl describe, in the layout of kubectl's pkg/describe:
//
//  1. `describe TYPE NAME…`, `describe TYPE/NAME`, `describe TYPE` (every object of the type,
//     -l to select) print one description after another, separated by a blank line.
//  2. Events are shown when one object is described; describing several (a selector, a type
//     alone, several names), or a name that was not found, leaves them out, unless --show-events
//     says otherwise either way (pkg/cmd/describe DescribeOptions.Run: "(err != nil ||
//     len(infos) > 1) && !o.ShowEventsExplicitlySet" turns DescriberSettings.ShowEvents off).
//  3. A name that matches nothing describes every object whose name starts with it (without
//     events, as rule 2 says, even when one matches); if none does, it is NotFound.
//  4. Lines are aligned by a tabwriter with padding 2 (tabbedString), and "\x1b" and "\r" are
//     escaped (printers.WriteEscaped).

var describeFlags = []FlagSpec{
	{Name: "namespace", Shorthand: 'n'},
	{Name: "all-namespaces", Shorthand: 'A', Boolean: true},
	{Name: "selector", Shorthand: 'l'},
	{Name: "field-selector"},
	{Name: "show-events", Boolean: true},
}

// describer describes one object of a kind.
type describer func(s *sim.Sim, obj api.Object, events bool) string

var describers = map[string]describer{
	"Pod":                 describePod,
	"Node":                describeNode,
	"DaemonSet":           describeDaemonSet,
	"ReplicaSet":          describeReplicaSet,
	"Deployment":          describeDeployment,
	"Namespace":           describeNamespace,
	"PodDisruptionBudget": describePodDisruptionBudget,
	"ServiceAccount":      describeServiceAccount,
	"Service":             describeService,
	"PriorityClass":       describePriorityClass,
}

func describeCommand(s *sim.Sim, args []string) Result {
	f, err := ParseFlags("describe", args, describeFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	if len(f.Args) == 0 {
		return Result{Err: "You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.\nerror: Required resource not specified.", Code: 1}
	}
	typ, names := typeAndNames(f.Args)
	r, ok := findResource(typ)
	if !ok {
		return Result{Err: fmt.Sprintf("error: the server doesn't have a resource type %q", typ), Code: 1}
	}
	describe, ok := describers[r.kind.Kind]
	if !ok {
		return Result{Err: fmt.Sprintf("error: DaemonLab cannot describe %s yet", r.kind.Resource), Code: 1}
	}
	q := query{namespace: orDefault(f.Get("namespace"), "default"), all: f.IsTrue("all-namespaces") && len(names) == 0, names: names}
	if bad := q.selectors(f, r); bad != nil {
		return *bad
	}
	objs, missing := q.find(s, r)
	events := len(objs) == 1 && len(missing) == 0
	if f.Has("show-events") {
		events = f.IsTrue("show-events")
	}
	if len(missing) > 0 && len(names) == 1 {
		// No object has that name: describe those whose name starts with it, without events.
		var b strings.Builder
		everything, _ := query{namespace: q.namespace, sel: api.Everything()}.find(s, r)
		for _, o := range everything {
			if strings.HasPrefix(o.GetObjectMeta().Name, names[0]) {
				b.WriteString(describe(s, o, f.IsTrue("show-events")) + "\n")
			}
		}
		if b.Len() == 0 {
			return Result{Err: missing[0], Code: 1}
		}
		return Result{Out: b.String()}
	}
	var out []string
	for _, o := range objs {
		out = append(out, describe(s, o, events))
	}
	res := Result{Out: strings.Join(out, "\n\n"), Err: strings.Join(missing, "\n")}
	switch {
	case len(missing) > 0:
		res.Code = 1
	case len(objs) == 0 && q.all:
		res.Err = "No resources found"
	case len(objs) == 0:
		res.Err = fmt.Sprintf("No resources found in %s namespace.", q.namespace)
	}
	return res
}

// describeWriter is kubectl's PrefixWriter: two spaces per level, terminal escapes defused.
// It writes to a tabwriter (tabbed) or, as rollout history's printTemplate does, to a plain
// buffer, where the tabs stay.
type describeWriter struct {
	w io.Writer
}

var terminalEscaper = strings.NewReplacer("\x1b", "^[", "\r", `\r`)

func (d describeWriter) write(level int, format string, a ...any) {
	d.w.Write([]byte(terminalEscaper.Replace(strings.Repeat("  ", level) + fmt.Sprintf(format, a...))))
}

// tabbed runs f with a writer whose output is aligned as kubectl's tabbedString aligns it.
func tabbed(f func(w describeWriter)) string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	f(describeWriter{tw})
	tw.Flush()
	return b.String()
}

// rfc1123z formats an absolute time as describe does.
func rfc1123z(t api.Time) string { return t.Time.Format(time.RFC1123Z) }

func printBool(v bool) string {
	if v {
		return "True"
	}
	return "False"
}

// labelsMultiline prints key=value lines, sorted, or <none>.
func labelsMultiline(w describeWriter, title string, labels map[string]string) {
	w.write(0, "%s:\t", title)
	if len(labels) == 0 {
		w.write(0, "<none>\n")
		return
	}
	for i, k := range slices.Sorted(maps.Keys(labels)) {
		if i > 0 {
			w.write(0, "\t")
		}
		w.write(0, "%s=%s\n", k, labels[k])
	}
}

// maxAnnotationLen is where describe folds and cuts an annotation.
const maxAnnotationLen = 140

// annotationsMultiline prints annotations, sorted, without kubectl's last-applied one; long or
// multi-line values go on lines of their own, each cut at 138 characters.
func annotationsMultiline(w describeWriter, title string, annotations map[string]string) {
	w.write(0, "%s:\t", title)
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		if k != api.LastAppliedAnnotation {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		w.write(0, "<none>\n")
		return
	}
	for i, k := range keys {
		if i > 0 {
			w.write(0, "\t")
		}
		value := strings.TrimSuffix(annotations[k], "\n")
		if len(value)+len(k)+2 > maxAnnotationLen || strings.Contains(value, "\n") {
			w.write(0, "%s:\n", k)
			for _, line := range strings.Split(value, "\n") {
				if len(line) > maxAnnotationLen-2 {
					line = line[:maxAnnotationLen-2] + "..."
				}
				w.write(0, "\t  %s\n", line)
			}
			continue
		}
		w.write(0, "%s: %s\n", k, value)
	}
}

// taintsMultiline prints taints sorted by effect, then key.
func taintsMultiline(w describeWriter, title string, taints []api.Taint) {
	w.write(0, "%s:\t", title)
	if len(taints) == 0 {
		w.write(0, "<none>\n")
		return
	}
	taints = append([]api.Taint(nil), taints...)
	sort.Slice(taints, func(i, j int) bool {
		return string(taints[i].Effect)+","+taints[i].Key < string(taints[j].Effect)+","+taints[j].Key
	})
	for i, t := range taints {
		if i > 0 {
			w.write(0, "\t")
		}
		w.write(0, "%s\n", t.String())
	}
}

// tolerationsMultiline prints tolerations sorted by key: key=value:Effect, " op=Exists" for
// an Exists with a key or an effect ("op=Exists" alone tolerates everything), " for Ns". The
// lines after the first start at the tab, with no indent of the title's: a pod template's
// "  Tolerations:" continues unindented (describe.go printPodTolerationsMultiline).
func tolerationsMultiline(w describeWriter, title string, tolerations []api.Toleration) {
	w.write(0, "%s:\t", title)
	if len(tolerations) == 0 {
		w.write(0, "<none>\n")
		return
	}
	tolerations = append([]api.Toleration(nil), tolerations...)
	sort.Slice(tolerations, func(i, j int) bool { return tolerations[i].Key < tolerations[j].Key })
	for i, t := range tolerations {
		if i > 0 {
			w.write(0, "\t")
		}
		var b strings.Builder
		b.WriteString(t.Key)
		if t.Value != "" {
			b.WriteString("=" + t.Value)
		}
		if t.Effect != "" {
			b.WriteString(":" + string(t.Effect))
		}
		if t.Operator == api.TolerationOpExists && t.Value == "" {
			if t.Key != "" || t.Effect != "" {
				b.WriteString(" op=Exists")
			} else {
				b.WriteString("op=Exists")
			}
		}
		if t.TolerationSeconds != nil {
			fmt.Fprintf(&b, " for %ds", *t.TolerationSeconds)
		}
		w.write(0, "%s\n", b.String())
	}
}

// describeEvents prints the events about an object, oldest last seen first.
func describeEvents(w describeWriter, events []*api.Event, now time.Time) {
	if len(events) == 0 {
		w.write(0, "Events:\t<none>\n")
		return
	}
	if tw, ok := w.w.(*tabwriter.Writer); ok {
		tw.Flush()
	}
	sort.Sort(byLastTimestamp(events))
	w.write(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n")
	w.write(1, "----\t------\t----\t----\t-------\n")
	for _, e := range events {
		interval := age(e.FirstTimestamp, now)
		if !e.EventTime.IsZero() {
			interval = age(api.Time(e.EventTime), now)
		}
		switch {
		case e.Series != nil:
			interval = fmt.Sprintf("%s (x%d over %s)", age(api.Time(e.Series.LastObservedTime), now), e.Series.Count, interval)
		case e.Count > 1:
			interval = fmt.Sprintf("%s (x%d over %s)", age(e.LastTimestamp, now), e.Count, interval)
		}
		source := firstNonEmpty(e.Source.Component, e.ReportingComponent)
		message := strings.TrimSpace(e.Message)
		if e.InvolvedObject.FieldPath != "" {
			message = e.InvolvedObject.FieldPath + ": " + message
		}
		w.write(1, "%v\t%v\t%s\t%v\t%v\n", e.Type, e.Reason, interval, source, message)
	}
}

// byLastTimestamp is describe's SortableEvents (pkg/util/event, sort.Sort): by lastTimestamp
// alone, so events reported through events.k8s.io/v1, which have none, come first.
type byLastTimestamp []*api.Event

func (l byLastTimestamp) Len() int      { return len(l) }
func (l byLastTimestamp) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l byLastTimestamp) Less(i, j int) bool {
	return l[i].LastTimestamp.Before(l[j].LastTimestamp.Time)
}

// eventsAbout lists the events of obj's namespace whose involved object is obj (by kind, name
// and uid, as describe's field selector asks), in the API server's order; alsoByName adds
// those that name the object by its name as uid (kubelets do so for nodes).
func eventsAbout(c *cluster.Cluster, obj api.Object, alsoByName bool) []*api.Event {
	meta, kind := obj.GetObjectMeta(), obj.GetTypeMeta().Kind
	ns := meta.Namespace
	if ns == "" {
		ns = "default"
	}
	var byUID, byName []*api.Event
	for _, e := range cluster.List[*api.Event](c) {
		o := e.InvolvedObject
		if e.Namespace != ns || o.Kind != kind || o.Name != meta.Name || o.Namespace != meta.Namespace {
			continue
		}
		switch o.UID {
		case meta.UID:
			byUID = append(byUID, e)
		case meta.Name:
			if alsoByName {
				byName = append(byName, e)
			}
		}
	}
	return append(byUID, byName...)
}

// ControlledBy is "Kind/name" of an object's controller, as describe's "Controlled By" prints
// it, or "".
func ControlledBy(meta *api.ObjectMeta) string {
	if ref, ok := api.ControllerOf(meta); ok {
		return ref.Kind + "/" + ref.Name
	}
	return ""
}

// podCounts counts the pods a controller owns by phase: Running, Pending, Succeeded, Failed.
func podCounts(c *cluster.Cluster, namespace string, sel api.Selector, uid string) (running, waiting, succeeded, failed int) {
	for _, p := range c.Pods() {
		ref, ok := api.ControllerOf(&p.ObjectMeta)
		if p.Namespace != namespace || !sel.Matches(p.Labels) || !ok || ref.UID != uid {
			continue
		}
		switch p.Status.Phase {
		case api.PodRunning:
			running++
		case api.PodPending:
			waiting++
		case api.PodSucceeded:
			succeeded++
		case api.PodFailed:
			failed++
		}
	}
	return
}
