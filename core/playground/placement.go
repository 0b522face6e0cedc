package playground

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubelet"
	"daemonlab/core/scheduler"
)

// Placement is the details panel's account of where kube-scheduler puts a pod, node by node
// and plugin by plugin (scheduler.Explain), as kube-scheduler-simulator shows it. Its words are
// the page's language's, but for the plugins' names and kube-scheduler's reasons, which stay as
// upstream prints them (glossed in Chinese).
type Placement struct {
	Title   string         // the panel's heading of it
	Lines   []string       // what is explained, a sentence each
	Terms   []string       // how to read the table: what a filter, a score and the total are
	Plugins []PlacementCol // the score plugins that scored the nodes, in the profile's order
	Rows    []PlacementRow // the nodes considered, in the cluster's order; none when no scheduler chose
	Outcome string         // what the attempt comes to: no node passes, one is taken unscored, a tie is drawn
	More    string         // how many nodes the rows leave out (a large cluster), or ""
	Scores  string         // the heading of what each plugin's score measures (PlacementCol.Help)
	// The table's words: its column heads and the marks of a row.
	Node, Filter, Total, Passes string
}

// PlacementCol is a score plugin's column: its name, its weight ("×3") and what it scores.
type PlacementCol struct {
	Plugin, Weight, Help string
}

// PlacementRow is one node: the filter that rejected it and kube-scheduler's reasons, or that
// it passed with each plugin's score (in the columns' order, "" where none) and the weighted
// total; whether it is among the best, and whether the pod is bound to it.
type PlacementRow struct {
	Node            string
	Plugin, Reasons string   // the filter that failed, "" when the node passes
	Gloss           string   // the reasons in Chinese, "" in English or when one is not known
	Causes          []string // what on the node made the filter fail (scheduler.Culprits), in words
	Scores          []string
	Total           string
	Best, Here      bool
	Marks           string // "best", "runs here", in words
}

// maxPlacementRows is how many nodes the table lists; a larger cluster's table keeps the best
// and the pod's own node and counts the rest.
const maxPlacementRows = 20

// placement explains how the scheduler places pod:
//
//  1. a pending pod of another scheduler: default-scheduler leaves it alone, and nothing else
//     schedules in DaemonLab; one being deleted is not scheduled at all (no panel);
//  2. a bound pod no scheduler chose: a static pod's mirror (the kubelet's), or one created with
//     spec.nodeName (scheduler.PlacedBy) — said in words, without a table; a pod its kubelet
//     refused says so first, with the kubelet's reason and message;
//  3. otherwise its scheduling attempt (scheduler.Explain: a pending pod's next one, a bound
//     pod's in the cluster as it is now, without it): each node's filter verdict, and for the
//     nodes that pass each plugin's score and the total, the best marked. A pod pinned to its
//     node (a DaemonSet's, by required node affinity on metadata.name) lists only that node.
func placement(l Lang, c *cluster.Cluster, pod *api.Pod) *Placement {
	key := placementKey{c, c.Stamp(), c.Now(), pod, l}
	if lastPlacement.key == key {
		return lastPlacement.placement
	}
	p := explainPlacement(l, c, pod)
	lastPlacement = placementMemo{key, p}
	return p
}

// placementKey is what a placement is made from: the cluster as it is (its stamp moves with
// every write and restore) at its time (PlacedBy reads the clock), the pod (stored objects are
// never changed in place: the same pointer is the same pod) and the language.
type placementKey struct {
	c     *cluster.Cluster
	stamp uint64
	now   time.Time
	pod   *api.Pod
	lang  Lang
}

// placementMemo is the placement last made. A scheduling attempt of a 1,000-node cluster costs
// about 7 ms natively, and most renders with a pod's panel open change nothing it is made from
// (a keystroke, a menu opened, a pane switched).
type placementMemo struct {
	key       placementKey
	placement *Placement
}

// lastPlacement is the one memo (the page renders one model at a time).
var lastPlacement placementMemo

// explainPlacement is placement, made afresh.
func explainPlacement(l Lang, c *cluster.Cluster, pod *api.Pod) *Placement {
	p := &Placement{Title: T(l, "place.title")}
	bound := pod.Spec.NodeName != ""
	switch {
	case !bound && pod.DeletionTimestamp != nil:
		return nil
	case !bound && pod.Spec.SchedulerName != "default-scheduler":
		p.Lines = []string{T(l, "place.other", pod.Spec.SchedulerName)}
		return p
	}
	placer := scheduler.PlacedByScheduler
	if bound {
		placer = scheduler.PlacedBy(c, pod)
	}
	if msg, refused := kubelet.Refused(pod); refused {
		p.Lines = []string{T(l, "place.refused", pod.Spec.NodeName, pod.Status.Reason, msg)}
	}
	switch placer {
	case scheduler.PlacedByKubelet:
		p.Title = T(l, "place.title.node")
		p.Lines = append(p.Lines, T(l, "place.static", pod.Spec.NodeName))
		return p
	case scheduler.PlacedByNodeName:
		p.Title = T(l, "place.title.node")
		p.Lines = append(p.Lines, T(l, "place.nodename", pod.Spec.NodeName))
		return p
	case scheduler.PlacedUnknown:
		p.Lines = append(p.Lines, T(l, "place.unknown"))
	}
	e := scheduler.Explain(c, pod)
	p.Lines = append(p.Lines, leadOf(l, pod, e)...)
	p.Node, p.Filter, p.Total, p.Passes = T(l, "col.node"), T(l, "col.filter"), T(l, "col.total"), T(l, "place.passes")
	var results []scheduler.NodeResult
	for _, r := range e.Nodes {
		if e.Pinned == nil || slices.Contains(e.Pinned, r.Node) {
			results = append(results, r)
		}
	}
	for _, r := range results { // every node scored has the same plugins, in the profile's order
		if len(r.Scores) > 0 {
			for _, s := range r.Scores {
				p.Plugins = append(p.Plugins, PlacementCol{s.Plugin, "×" + strconv.FormatInt(s.Weight, 10), scoreHelp(l, pod, s.Plugin)})
			}
			break
		}
	}
	p.Terms = []string{T(l, "place.filter")}
	if len(p.Plugins) > 0 {
		p.Terms = append(p.Terms, T(l, "place.score"), T(l, "place.total"))
		p.Scores = T(l, "place.scores")
	}
	shown := rowsShown(results, e.Best, pod.Spec.NodeName)
	var rejected []scheduler.NodeResult
	for i, r := range results {
		if shown[i] && r.Verdict.Plugin != "" {
			rejected = append(rejected, r)
		}
	}
	culprits := scheduler.Culprits(c, pod, rejected)
	for i, r := range results {
		if shown[i] {
			best := len(p.Plugins) > 0 && slices.Contains(e.Best, r.Node) // a node taken unscored is not "best"
			row := placementRow(l, r, best, r.Node == pod.Spec.NodeName)
			row.Causes = causesOf(l, culprits[r.Node])
			p.Rows = append(p.Rows, row)
		}
	}
	if left := len(results) - len(p.Rows); left > 0 {
		p.More = T(l, "more", left)
	}
	switch {
	case len(e.Best) == 0 && bound:
		p.Outcome = T(l, "place.none.bound")
	case len(e.Best) == 0:
		p.Outcome = T(l, "place.none")
	case len(p.Plugins) == 0 && e.Pinned == nil && bound:
		p.Outcome = T(l, "place.one.bound", e.Best[0])
	case len(p.Plugins) == 0 && e.Pinned == nil:
		p.Outcome = T(l, "place.one", e.Best[0])
	case len(e.Best) > 1 && bound:
		p.Outcome = T(l, "place.tie.bound", strings.Join(e.Best, ", "))
	case len(e.Best) > 1:
		p.Outcome = T(l, "place.tie", strings.Join(e.Best, ", "))
	}
	return p
}

// leadOf says what the table explains: a pending pod's next attempt, or why a bound pod's
// node, or that the pod is pinned to its node(s) (by its DaemonSet, or its own affinity),
// checked now when it is bound.
func leadOf(l Lang, pod *api.Pod, e scheduler.Explanation) []string {
	bound := pod.Spec.NodeName != ""
	switch {
	case e.Pinned == nil && bound:
		return []string{T(l, "place.bound", pod.Spec.NodeName)}
	case e.Pinned == nil:
		return []string{T(l, "place.pending")}
	}
	key := "place.pinned"
	if ref, ok := api.ControllerOf(&pod.ObjectMeta); ok && ref.Kind == "DaemonSet" {
		key = "place.daemon"
	}
	lines := []string{T(l, key, strings.Join(e.Pinned, ", "))}
	if bound {
		lines = append(lines, T(l, "place.now"))
	}
	return lines
}

// rowsShown picks the nodes the table lists, at most maxPlacementRows: the best and the pod's
// own node first, then the others in the cluster's order.
func rowsShown(results []scheduler.NodeResult, best []string, here string) []bool {
	shown := make([]bool, len(results))
	n := 0
	for i, r := range results {
		if n < maxPlacementRows && (slices.Contains(best, r.Node) || r.Node == here) {
			shown[i], n = true, n+1
		}
	}
	for i := range results {
		if n < maxPlacementRows && !shown[i] {
			shown[i], n = true, n+1
		}
	}
	return shown
}

// placementRow is one node's row of the table.
func placementRow(l Lang, r scheduler.NodeResult, best, here bool) PlacementRow {
	row := PlacementRow{Node: r.Node, Plugin: r.Verdict.Plugin, Reasons: strings.Join(r.Verdict.Reasons, "; "), Gloss: glossOf(l, r.Verdict.Reasons), Best: best, Here: here}
	for _, s := range r.Scores {
		row.Scores = append(row.Scores, strconv.FormatInt(s.Score, 10))
	}
	if len(r.Scores) > 0 {
		row.Total = strconv.FormatInt(r.Total, 10)
	}
	var marks []string
	if best {
		marks = append(marks, T(l, "place.best"))
	}
	if here {
		marks = append(marks, T(l, "place.here"))
	}
	row.Marks = strings.Join(marks, " · ")
	return row
}

// glossOf is kube-scheduler's reasons in Chinese (reasonGlosses), "" in English or when one of
// them has no gloss.
func glossOf(l Lang, reasons []string) string {
	if l != Chinese || len(reasons) == 0 {
		return ""
	}
	var out []string
	for _, r := range reasons {
		g, ok := reasonGlosses[r]
		if resource, insufficient := strings.CutPrefix(r, "Insufficient "); !ok && insufficient {
			g, ok = resource+insufficientGloss, true
		}
		if !ok {
			return ""
		}
		out = append(out, g)
	}
	return strings.Join(out, "；")
}

// causesOf says what on a node failed its filter: the taint, the pod holding a port, the pod
// an anti-affinity term keeps the pod apart from (with the labels it selects by) and its node.
func causesOf(l Lang, culprits []scheduler.Culprit) []string {
	var out []string
	for _, c := range culprits {
		key, args := "cause.anti", make([]any, 3) // the pod's name, its node, the labels selected
		switch {
		case c.Taint != nil:
			key, args = "cause.taint", []any{c.Taint.String()}
		case c.Port != "":
			key, args = "cause.port", []any{c.Pod.Name, c.Port}
		default:
			if c.Existing {
				key = "cause.existing"
			}
			args[0], args[1], args[2] = c.Pod.Name, c.Pod.Spec.NodeName, ""
			if c.Labels != "" {
				args[2] = T(l, "cause.labels", c.Labels)
			}
		}
		out = append(out, T(l, key, args...))
	}
	return out
}

// scoreHelp is what a score plugin measures, in words ("" for one not known); PodTopologySpread says whether the
// constraints are the pod's or kube-scheduler's defaults (a pod without any).
func scoreHelp(l Lang, pod *api.Pod, plugin string) string {
	key := "score." + plugin
	if plugin == scheduler.PodTopologySpread && len(pod.Spec.TopologySpreadConstraints) == 0 {
		key += ".default"
	}
	if _, ok := texts[key]; !ok {
		return "" // a plugin DaemonLab does not run
	}
	return T(l, key)
}
