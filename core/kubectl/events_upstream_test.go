//go:build !(js && wasm)

package kubectl_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/cli-runtime/pkg/printers"
	kubectlevents "k8s.io/kubectl/pkg/cmd/events"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
)

// apiServerEvents is the API server's answer to a list of events: those of namespace ("" for
// all), in its order, the storage key <namespace>/<name> compared as bytes (etcd and the watch
// cache), worked out here afresh rather than taken from DaemonLab's listing.
func apiServerEvents(s *sim.Sim, namespace string) []*api.Event {
	var out []*api.Event
	for _, e := range cluster.List[*api.Event](s.C) {
		if namespace == "" || e.Namespace == namespace {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b *api.Event) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	return out
}

// eventsRequest is one kubectl events command line and what it asks the API server for.
type eventsRequest struct {
	args      []string
	namespace string // "" with -A
	forKind   string // the --for object's kind, apiVersion and name (the field selector)
	forAPI    string
	forName   string
	types     []string
	noHeaders bool
}

// eventsRequests are the kubectl events lines tried after a scenario: the default namespace,
// kube-system, all namespaces, --types, --no-headers, and --for each object an event of the
// default namespace is about.
func eventsRequests(s *sim.Sim) []eventsRequest {
	reqs := []eventsRequest{
		{args: nil, namespace: "default"},
		{args: []string{"-n", "kube-system"}, namespace: "kube-system"},
		{args: []string{"-A"}},
		{args: []string{"-A", "--types", "Warning"}, types: []string{"Warning"}},
		{args: []string{"--types=normal,Warning"}, namespace: "default", types: []string{"normal", "Warning"}},
		{args: []string{"-A", "--no-headers"}, noHeaders: true},
	}
	resources := map[string]string{"Pod": "pod", "Node": "node", "DaemonSet": "daemonset", "Deployment": "deploy", "ReplicaSet": "rs", "Namespace": "ns"}
	seen := map[string]bool{}
	for _, e := range apiServerEvents(s, "default") {
		o := e.InvolvedObject
		r, ok := resources[o.Kind]
		if !ok || seen[o.Kind+"/"+o.Name] {
			continue
		}
		seen[o.Kind+"/"+o.Name] = true
		reqs = append(reqs, eventsRequest{args: []string{"--for", r + "/" + o.Name}, namespace: "default", forKind: o.Kind, forAPI: o.APIVersion, forName: o.Name})
	}
	return reqs
}

// upstreamEvents is what kubectl's events command (k8s.io/kubectl/pkg/cmd/events, Run) prints
// for req: the API server's list, filtered by the field selector and the types, sorted by
// sort.Sort(SortableEvents) and written by its EventPrinter; or its message to stderr.
func upstreamEvents(t *testing.T, s *sim.Sim, req eventsRequest) (out, errOut string) {
	both := withinOneSecond(s.C.Now(), func(sh *shifter) [2]string {
		out, errOut := upstreamEventsShifted(t, s, sh, req)
		return [2]string{out, errOut}
	})
	return both[0], both[1]
}

func upstreamEventsShifted(t *testing.T, s *sim.Sim, sh *shifter, req eventsRequest) (out, errOut string) {
	list := &corev1.EventList{}
	for _, e := range apiServerEvents(s, req.namespace) {
		o := e.InvolvedObject
		if req.forName != "" && (o.Kind != req.forKind || o.APIVersion != req.forAPI || o.Name != req.forName) {
			continue
		}
		if len(req.types) > 0 && !slices.ContainsFunc(req.types, func(typ string) bool { return strings.EqualFold(typ, e.Type) }) {
			continue
		}
		list.Items = append(list.Items, *typed(t, sh, e, &corev1.Event{}))
	}
	if len(list.Items) == 0 {
		if req.namespace == "" {
			return "", "No events found."
		}
		return "", fmt.Sprintf("No events found in %s namespace.", req.namespace)
	}
	sort.Sort(kubectlevents.SortableEvents(list.Items))
	var buf bytes.Buffer
	w := printers.GetNewTabWriter(&buf)
	require.NoError(t, kubectlevents.NewEventPrinter(req.noHeaders, req.namespace == "").PrintObj(list, w))
	require.NoError(t, w.Flush())
	return buf.String(), ""
}

// TestKubectlEventsIsKubectls plays every scenario and runs kubectl events (the default
// namespace, kube-system, -A, --types, --no-headers, --for each object) both with DaemonLab and
// with kubectl's own sort and printer over the same events as k8s.io/api types, in the order the
// API server lists them: the same rows in the same order (sort.Sort is not stable, so rows seen
// in the same second must come out as its quicksort leaves them), character for character.
func TestKubectlEventsIsKubectls(t *testing.T) {
	time.Local = time.UTC
	forEachScenario(t, func(t *testing.T, s *sim.Sim) {
		for _, req := range eventsRequests(s) {
			got := kubectl.Run(s, append([]string{"events"}, req.args...), "")
			wantOut, wantErr := upstreamEvents(t, s, req)
			assert.Equal(t, wantErr, got.Err, "%v", req.args)
			assert.Equal(t, wantOut, got.Out, "%v", req.args)
		}
	})
}

// upstreamEvent is e as the k8s.io/api type, field by field.
func upstreamEvent(e *api.Event) *corev1.Event {
	ref := func(r api.ObjectReference) corev1.ObjectReference {
		return corev1.ObjectReference{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: types.UID(r.UID), APIVersion: r.APIVersion,
			ResourceVersion: r.ResourceVersion, FieldPath: r.FieldPath}
	}
	out := &corev1.Event{
		TypeMeta: metav1.TypeMeta{APIVersion: e.APIVersion, Kind: e.Kind},
		ObjectMeta: metav1.ObjectMeta{Name: e.Name, GenerateName: e.GenerateName, Namespace: e.Namespace, UID: types.UID(e.UID), ResourceVersion: e.ResourceVersion,
			CreationTimestamp: metav1.NewTime(e.CreationTimestamp.Time), Labels: e.Labels, Annotations: e.Annotations},
		InvolvedObject:      ref(e.InvolvedObject),
		Reason:              e.Reason,
		Message:             e.Message,
		Source:              corev1.EventSource{Component: e.Source.Component, Host: e.Source.Host},
		FirstTimestamp:      metav1.NewTime(e.FirstTimestamp.Time),
		LastTimestamp:       metav1.NewTime(e.LastTimestamp.Time),
		Count:               e.Count,
		Type:                e.Type,
		EventTime:           metav1.NewMicroTime(e.EventTime.Time),
		Action:              e.Action,
		ReportingController: e.ReportingComponent,
		ReportingInstance:   e.ReportingInstance,
	}
	if e.Series != nil {
		out.Series = &corev1.EventSeries{Count: e.Series.Count, LastObservedTime: metav1.NewMicroTime(e.Series.LastObservedTime.Time)}
	}
	if e.Related != nil {
		related := ref(*e.Related)
		out.Related = &related
	}
	return out
}

// TestEventOutputIsTheAPIServersEncoding plays every scenario and prints each event with -o
// json and -o yaml: the JSON must strictly decode into the same corev1.Event as the one built
// from DaemonLab's event field by field, and both outputs must be, byte for byte, what kubectl's
// JSON and YAML printers make of that object's json.Marshal as the API server sends it (so
// "eventTime: null" for a core/v1 event, "source: {}" and null timestamps for the scheduler's).
func TestEventOutputIsTheAPIServersEncoding(t *testing.T) {
	time.Local = time.UTC
	forEachScenario(t, func(t *testing.T, s *sim.Sim) {
		for _, e := range apiServerEvents(s, "") {
			want := upstreamEvent(e)
			data, err := json.Marshal(want)
			require.NoError(t, err)
			var sent unstructured.Unstructured
			require.NoError(t, sent.UnmarshalJSON(data))
			for format, printer := range map[string]printers.ResourcePrinter{"json": &printers.JSONPrinter{}, "yaml": &printers.YAMLPrinter{}} {
				var upstream bytes.Buffer
				require.NoError(t, printer.PrintObj(&sent, &upstream))
				got := kubectl.Run(s, []string{"get", "event", e.Name, "-n", e.Namespace, "-o", format}, "")
				require.Empty(t, got.Err)
				assert.Equal(t, upstream.String(), got.Out, "%s -o %s", e.Name, format)
				if format == "json" {
					var decoded corev1.Event
					decodeJSON(t, []byte(got.Out), &decoded, true)
					assert.Equal(t, want, &decoded, "%s: the values", e.Name)
				}
			}
		}
	})
}

// eventColumns are printEvent's column definitions (pkg/printers/internalversion/printers.go).
var eventColumns = []metav1.TableColumnDefinition{
	{Name: "Last Seen", Type: "string"}, {Name: "Type", Type: "string"}, {Name: "Reason", Type: "string"}, {Name: "Object", Type: "string"},
	{Name: "Subobject", Type: "string", Priority: 1}, {Name: "Source", Type: "string", Priority: 1}, {Name: "Message", Type: "string"},
	{Name: "First Seen", Type: "string", Priority: 1}, {Name: "Count", Type: "string", Priority: 1}, {Name: "Name", Type: "string", Priority: 1, Format: "name"},
}

// printEvent is the API server's table row for an event, by the rules of printEvent
// (pkg/printers/internalversion/printers.go, which is not a module kubectl's can import):
//
//  1. FIRST SEEN is firstTimestamp, else eventTime; LAST SEEN is lastTimestamp, else FIRST SEEN.
//  2. A series gives LAST SEEN (its last observation) and COUNT; otherwise a count of 0 is 1.
//  3. OBJECT is kind/name, the kind in lower case; the kind alone without a name.
//  4. SOURCE is formatEventSource: the source's component, else the reporting controller, and
//     ", " and the source's host, else the reporting instance, when there is one.
func printEvent(e *corev1.Event) metav1.TableRow {
	since := func(t time.Time) string {
		if t.IsZero() {
			return "<unknown>"
		}
		return duration.HumanDuration(time.Since(t))
	}
	first := since(e.FirstTimestamp.Time)
	if e.FirstTimestamp.IsZero() {
		first = since(e.EventTime.Time)
	}
	last := since(e.LastTimestamp.Time)
	if e.LastTimestamp.IsZero() {
		last = first
	}
	count := e.Count
	if e.Series != nil {
		last, count = since(e.Series.LastObservedTime.Time), e.Series.Count
	} else if count == 0 {
		count = 1
	}
	target := strings.ToLower(e.InvolvedObject.Kind)
	if e.InvolvedObject.Name != "" {
		target += "/" + e.InvolvedObject.Name
	}
	orElse := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	source := orElse(e.Source.Component, e.ReportingController)
	if host := orElse(e.Source.Host, e.ReportingInstance); host != "" {
		source += ", " + host
	}
	return metav1.TableRow{Object: runtime.RawExtension{Object: e},
		Cells: []any{last, e.Type, e.Reason, target, e.InvolvedObject.FieldPath, source, strings.TrimSpace(e.Message), first, int64(count), e.Name}}
}

// TestGetEventsIsPrintEvent plays every scenario and runs kubectl get events (the default
// namespace and -A, each also -o wide) both with DaemonLab and with kubectl's own table printer
// over printEvent's rows for the same events, in the API server's order (no sorting: kubectl
// get prints the list as it comes).
func TestGetEventsIsPrintEvent(t *testing.T) {
	time.Local = time.UTC
	forEachScenario(t, func(t *testing.T, s *sim.Sim) {
		for _, args := range [][]string{nil, {"-o", "wide"}, {"-A"}, {"-A", "-o", "wide"}} {
			all := slices.Contains(args, "-A")
			namespace := "default"
			if all {
				namespace = ""
			}
			table := withinOneSecond(s.C.Now(), func(sh *shifter) *metav1.Table {
				table := &metav1.Table{ColumnDefinitions: eventColumns}
				for _, e := range apiServerEvents(s, namespace) {
					table.Rows = append(table.Rows, printEvent(typed(t, sh, e, &corev1.Event{})))
				}
				return table
			})
			got := kubectl.Run(s, append([]string{"get", "events"}, args...), "")
			if len(table.Rows) == 0 {
				assert.Empty(t, got.Out, "%v", args)
				continue
			}
			var want bytes.Buffer
			w := printers.GetNewTabWriter(&want)
			require.NoError(t, printers.NewTablePrinter(printers.PrintOptions{Wide: slices.Contains(args, "wide"), WithNamespace: all}).PrintObj(table, w))
			require.NoError(t, w.Flush())
			require.Empty(t, got.Err, "%v", args)
			assert.Equal(t, want.String(), got.Out, "%v", args)
		}
	})
}
