package kubectl

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

var eventsFlags = []FlagSpec{{Name: "namespace", Shorthand: 'n'}, {Name: "all-namespaces", Shorthand: 'A', Boolean: true},
	{Name: "for"}, {Name: "types"}, {Name: "no-headers", Boolean: true}, {Name: "watch", Shorthand: 'w', Boolean: true}}

// eventsCommand is kubectl events (pkg/cmd/events): the events of a namespace (or all, -A),
// oldest first by when they were last seen, --for TYPE/NAME keeping one object's, --types
// Normal,Warning keeping those types; LAST SEEN reads "<age> (x<count> over <first age>)" for an
// event seen more than once.
func eventsCommand(s *sim.Sim, args []string, _ string) Result {
	f, err := ParseFlags("events", args, eventsFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	switch {
	case len(f.Args) > 0:
		return Result{Err: fmt.Sprintf("error: unexpected args: %v", f.Args), Code: 1}
	case f.IsTrue("watch"):
		return Result{Err: "error: DaemonLab's kubectl events does not support -w yet; kubectl get events -w does", Code: 1}
	}
	types := splitList(f.All("types"))
	for _, t := range types {
		if !strings.EqualFold(t, "Normal") && !strings.EqualFold(t, "Warning") {
			return Result{Err: "error: valid --types are Normal or Warning", Code: 1}
		}
	}
	namespace, all := orDefault(f.Get("namespace"), "default"), f.IsTrue("all-namespaces")
	var forKind api.Kind
	var forName string
	if v := f.Get("for"); v != "" {
		typ, name, ok := strings.Cut(v, "/")
		if !ok {
			return Result{Err: "error: --for must be in resource/name form", Code: 1}
		}
		r, found := findResource(typ)
		if !found {
			return Result{Err: fmt.Sprintf("error: the server doesn't have a resource type %q", typ), Code: 1}
		}
		forKind, forName = r.kind, name
	}
	var events []*api.Event
	for _, e := range cluster.List[*api.Event](s.C) {
		switch {
		case !all && e.Namespace != namespace,
			forName != "" && (e.InvolvedObject.Kind != forKind.Kind || e.InvolvedObject.Name != forName || e.InvolvedObject.APIVersion != forKind.APIVersion()),
			len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return strings.EqualFold(t, e.Type) }):
			continue
		}
		events = append(events, e)
	}
	if len(events) == 0 {
		if all {
			return Result{Err: "No events found."}
		}
		return Result{Err: fmt.Sprintf("No events found in %s namespace.", namespace)}
	}
	slices.SortStableFunc(events, func(a, b *api.Event) int { return eventTime(a).Time.Compare(eventTime(b).Time) })
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	if !f.IsTrue("no-headers") {
		if all {
			fmt.Fprint(w, "NAMESPACE\t")
		}
		fmt.Fprint(w, "LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n")
	}
	now := s.C.Now()
	for _, e := range events {
		if all {
			fmt.Fprintf(w, "%s\t", e.Namespace)
		}
		first := age(e.FirstTimestamp, now)
		if e.FirstTimestamp.IsZero() && e.EventTime != nil {
			first = age(*e.EventTime, now)
		}
		interval := first
		if e.Count > 1 {
			interval = fmt.Sprintf("%s (x%d over %s)", age(e.LastTimestamp, now), e.Count, first)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s/%s\t%s\n", interval, terminalEscaper.Replace(e.Type), terminalEscaper.Replace(e.Reason),
			terminalEscaper.Replace(e.InvolvedObject.Kind), terminalEscaper.Replace(e.InvolvedObject.Name), terminalEscaper.Replace(strings.TrimSpace(e.Message)))
	}
	w.Flush()
	return Result{Out: b.String()}
}

// eventTime is when an event was last seen (lastTimestamp, else eventTime).
func eventTime(e *api.Event) api.Time {
	if !e.LastTimestamp.IsZero() || e.EventTime == nil {
		return e.LastTimestamp
	}
	return *e.EventTime
}
