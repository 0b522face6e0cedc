package kubectl

import (
	"fmt"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/sim"
)

// watch is kubectl get -w (and --watch-only), for one resource type:
//
//  1. The objects are printed as a table (unless --watch-only), then, as simulated time passes,
//     a row for every object that is added, changed or deleted (a deleted one as it was last
//     seen), without the header again (nor at all with --no-headers).
//  2. Rows keep the columns' widths, widening them for a longer cell, as kubectl's tabwriter
//     with RememberWidths does.
//  3. A real watch runs until Ctrl+C; DaemonLab's stops once nothing more is due in the cluster,
//     or after 5 minutes of simulated time, or when it spends the command's work budget
//     (sim.Sim.Spent), which it says.
func watch(s *sim.Sim, f Flags, q query, rs []resource, out outputFormat) Result {
	if len(rs) != 1 {
		return Result{Err: "error: you may only specify a single resource type", Code: 1}
	}
	if out.name != "" && out.name != "wide" && out.name != "name" {
		return Result{Err: fmt.Sprintf("error: DaemonLab's kubectl get -w prints tables and names, not -o %s", out.name), Code: 1}
	}
	r := rs[0]
	opts := tableOptions{wide: out.name == "wide", allNamespaces: q.all && r.kind.Namespaced, showLabels: f.IsTrue("show-labels"), labelColumns: labelColumns(f)}
	objs, errs := q.find(s, r)
	if len(errs) > 0 {
		return Result{Err: strings.Join(errs, "\n"), Code: 1}
	}
	var b strings.Builder
	var seen [][]string // the header and every row printed, for the widths
	// emit prints rows: the initial list as one table with its header, each later change as
	// its own row (kubectl flushes after every event), the header going with the first.
	emit := func(objs []api.Object, initial bool) {
		if out.name == "name" {
			for _, o := range objs {
				fmt.Fprintf(&b, "%s/%s\n", resourceName(r.kind), o.GetObjectMeta().Name)
			}
			return
		}
		rows := r.rows(objs, opts, s.C.Now())
		if initial {
			seen = shownRows(rows, out.noHeaders)
			writeTable(&b, seen)
			return
		}
		for _, row := range rows[1:] {
			if seen == nil {
				seen = shownRows(rows[:1], out.noHeaders)
				if len(seen) > 0 {
					b.WriteString(lastLine(seen))
				}
			}
			seen = append(seen, row)
			b.WriteString(lastLine(seen))
		}
	}
	last := map[string]api.Object{}
	for _, o := range objs {
		last[watchKey(o)] = o
	}
	if !f.IsTrue("watch-only") && len(objs) > 0 {
		emit(objs, true)
	}
	deadline := s.C.Now().Add(defaultWatchLimit)
	for s.Wait(deadline) {
		now, _ := q.find(s, r)
		var changed []api.Object
		present := map[string]bool{}
		for _, o := range now {
			k := watchKey(o)
			present[k] = true
			if prev, ok := last[k]; !ok || prev.GetObjectMeta().ResourceVersion != o.GetObjectMeta().ResourceVersion {
				changed = append(changed, o)
				last[k] = o
			}
		}
		for k, o := range last {
			if !present[k] {
				changed = append(changed, o)
				delete(last, k)
			}
		}
		sortByWatchOrder(changed)
		emit(changed, false)
	}
	if s.Spent() {
		return Result{Out: b.String(), Err: "error: " + sim.Stopped("kubectl get --watch", s.C.Now().Sub(deadline.Add(-defaultWatchLimit)), defaultWatchLimit), Code: 1}
	}
	return Result{Out: b.String()}
}

func watchKey(o api.Object) string {
	m := o.GetObjectMeta()
	return m.Namespace + "/" + m.Name + "/" + m.UID
}

// sortByWatchOrder orders one instant's events as the API server would send them: by the
// resourceVersion of the change (a deleted object's last one standing in for its deletion).
func sortByWatchOrder(objs []api.Object) {
	rv := func(o api.Object) int64 {
		var n int64
		fmt.Sscan(o.GetObjectMeta().ResourceVersion, &n)
		return n
	}
	for i := 1; i < len(objs); i++ {
		for j := i; j > 0 && rv(objs[j]) < rv(objs[j-1]); j-- {
			objs[j], objs[j-1] = objs[j-1], objs[j]
		}
	}
}

// lastLine is the last of rows as kubectl's tabwriter prints it when it remembers the widths of
// every row before (RememberWidths): aligned as the whole table would be.
func lastLine(rows [][]string) string {
	var b strings.Builder
	writeTable(&b, rows)
	text := strings.TrimSuffix(b.String(), "\n")
	return text[strings.LastIndex(text, "\n")+1:] + "\n"
}
