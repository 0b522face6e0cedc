package kubectl

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

var eventsFlags = []FlagSpec{{Name: "namespace", Shorthand: 'n'}, {Name: "all-namespaces", Shorthand: 'A', Boolean: true},
	{Name: "for"}, {Name: "types"}, {Name: "no-headers", Boolean: true}, {Name: "watch", Shorthand: 'w', Boolean: true}}

// eventsCommand is kubectl events (pkg/cmd/events): the events of a namespace (or all, -A),
// oldest first by when they were last seen, --for TYPE/NAME keeping one object's, --types
// Normal,Warning keeping those types; LAST SEEN reads "<age> (x<count> over <first age>)" for an
// event seen more than once (its series', or its count), the first age from eventTime when there
// is one (getInterval in event_printer.go).
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
	events := selectEvents(s.C, all, namespace, forKind, forName, types)
	if len(events) == 0 {
		if all {
			return Result{Err: "No events found."}
		}
		return Result{Err: fmt.Sprintf("No events found in %s namespace.", namespace)}
	}
	t := eventsTable(events, all, s.C.Now())
	if f.IsTrue("no-headers") {
		t.rows = t.rows[1:]
	}
	return Result{Out: strings.Join(t.lines(0, len(t.rows)), "")}
}

// selectEvents returns the events kubectl events shows, in its order: the API server's list
// (by namespace, then name: cluster.List), filtered, then sort.Sort by when each was last seen
// (SortableEvents in pkg/cmd/events/events.go). sort.Sort is not stable, so events seen in the
// same second come out in the order its pattern-defeating quicksort leaves them, which the same
// input order and the same comparison reproduce.
func selectEvents(c *cluster.Cluster, all bool, namespace string, forKind api.Kind, forName string, types []string) []*api.Event {
	var selected byLastSeen
	for _, e := range cluster.List[*api.Event](c) {
		switch {
		case !all && e.Namespace != namespace,
			forName != "" && (e.InvolvedObject.Kind != forKind.Kind || e.InvolvedObject.Name != forName || e.InvolvedObject.APIVersion != forKind.APIVersion()),
			len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return strings.EqualFold(t, e.Type) }):
			continue
		}
		selected = append(selected, e)
	}
	sort.Sort(selected)
	return selected
}

// byLastSeen is kubectl events' SortableEvents: by Event.LastSeen.
type byLastSeen []*api.Event

func (l byLastSeen) Len() int           { return len(l) }
func (l byLastSeen) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }
func (l byLastSeen) Less(i, j int) bool { return l[i].LastSeen().Before(l[j].LastSeen()) }

// eventsTable is kubectl events' table: the header, then a row per event, oldest first.
func eventsTable(events []*api.Event, all bool, now time.Time) table {
	t := eventsTableWithout(events, all, now)
	for i, e := range events {
		t.rows[i+1][len(t.rows[i+1])-1] = eventMessage(e)
	}
	return t
}

// eventsTableWithout is eventsTable with the MESSAGE cells left empty (the last column's width
// counts for nothing): the page's events list writes a few of its lines and fills in only
// their messages. Ages are worked out once per instant, as most events share theirs.
func eventsTableWithout(events []*api.Event, all bool, now time.Time) table {
	header := []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"}
	if all {
		header = append([]string{"NAMESPACE"}, header...)
	}
	ages := map[time.Time]string{}
	ageOf := func(t time.Time) string {
		a, ok := ages[t]
		if !ok {
			a = age(api.NewTime(t), now)
			ages[t] = a
		}
		return a
	}
	t := table{rows: make([][]string, 0, len(events)+1)}
	t.rows = append(t.rows, header)
	for _, e := range events {
		first := ageOf(e.FirstTimestamp.Time)
		if !e.EventTime.IsZero() {
			first = ageOf(e.EventTime.Time)
		}
		interval := first
		switch {
		case e.Series != nil:
			interval = fmt.Sprintf("%s (x%d over %s)", ageOf(e.Series.LastObservedTime.Time), e.Series.Count, first)
		case e.Count > 1:
			interval = fmt.Sprintf("%s (x%d over %s)", ageOf(e.LastTimestamp.Time), e.Count, first)
		}
		row := make([]string, 0, len(header))
		if all {
			row = append(row, e.Namespace)
		}
		row = append(row, interval, terminalEscaper.Replace(e.Type), terminalEscaper.Replace(e.Reason),
			terminalEscaper.Replace(e.InvolvedObject.Kind)+"/"+terminalEscaper.Replace(e.InvolvedObject.Name), "")
		t.rows = append(t.rows, row)
	}
	return t
}

// eventMessage is an event's MESSAGE cell.
func eventMessage(e *api.Event) string {
	return terminalEscaper.Replace(strings.TrimSpace(e.Message))
}

// EventLines is `kubectl events -A` (of one type, when typ is Normal or Warning) as the page's
// events list shows it: the header, then the last limit of the lines whose OBJECT column keep
// accepts. Each is exactly the line kubectl prints (the columns are as wide as the whole
// table's), but only those lines are written. It returns kubectl's message when there are no
// events.
func EventLines(s *sim.Sim, typ string, keep func(object string) bool, limit int) (lines []string, message string) {
	var types []string
	if typ != "" {
		types = []string{typ}
	}
	events := selectEvents(s.C, true, "", api.Kind{}, "", types)
	if len(events) == 0 {
		return nil, "No events found."
	}
	t := eventsTableWithout(events, true, s.C.Now())
	const object, messageCell = 4, 5 // NAMESPACE, LAST SEEN, TYPE, REASON, OBJECT, MESSAGE
	var shown []int
	for i := len(t.rows) - 1; i > 0 && len(shown) < limit; i-- {
		if keep(t.rows[i][object]) {
			shown = append(shown, i)
			t.rows[i][messageCell] = eventMessage(events[i-1])
		}
	}
	lines = t.lines(0, 1)
	for _, i := range slices.Backward(shown) {
		lines = append(lines, t.lines(i, i+1)...)
	}
	return lines, ""
}
