package upstreamtest

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// defaultFeatures are the features `make test` turns on: every one but statefulsets, as
// DaemonLab serves no StatefulSet (UPSTREAM_FEATURES=all turns it on too).
const defaultFeatures = "resources,taints,nodeaffinity,replicasets,zones,services,podaffinity,existingaffinity,spread,hostports,lifecycle,extended"

// settings are the test's knobs, from the environment:
//
//   - UPSTREAM_CASES: how many cases (default 3000);
//   - UPSTREAM_SEED: the first case's seed (default 1); cases take consecutive seeds, so
//     UPSTREAM_SEED=S UPSTREAM_CASES=1 replays the case of seed S;
//   - UPSTREAM_FEATURES: a comma-separated list of features, or all (default defaultFeatures);
//   - UPSTREAM_SHOW: how many failing cases to print, with their YAML (default 3);
//   - UPSTREAM_SHRINK: 0 prints those cases whole, not shrunk (see shrink).
type settings struct {
	cases, show int
	seed        uint64
	features    features
	shrink      bool
}

func readSettings(t *testing.T) settings {
	s := settings{cases: 3000, show: 3, seed: 1, shrink: os.Getenv("UPSTREAM_SHRINK") != "0"}
	var err error
	if v := os.Getenv("UPSTREAM_CASES"); v != "" {
		s.cases, err = strconv.Atoi(v)
		require.NoError(t, err, "UPSTREAM_CASES")
	}
	if v := os.Getenv("UPSTREAM_SHOW"); v != "" {
		s.show, err = strconv.Atoi(v)
		require.NoError(t, err, "UPSTREAM_SHOW")
	}
	if v := os.Getenv("UPSTREAM_SEED"); v != "" {
		s.seed, err = strconv.ParseUint(v, 10, 64)
		require.NoError(t, err, "UPSTREAM_SEED")
	}
	f := defaultFeatures
	if v, ok := os.LookupEnv("UPSTREAM_FEATURES"); ok {
		f = v
	}
	s.features, err = parseFeatures(f)
	require.NoError(t, err, "UPSTREAM_FEATURES")
	return s
}

// TestSchedulerAgreesWithKubeScheduler is the differential test of DaemonLab's scheduler
// against kube-scheduler v1.37.2 run in-process with its default profile
// (pkg/scheduler/schedule_one.go: schedulePod, findNodesThatFitPod, prioritizeNodes): random
// small clusters and pending pods (see generate), the same objects given to both sides, and
// for every case:
//
//  1. both API servers accept the objects, or both refuse the pending pod, and they store
//     alike every pod's fields the scheduler reads (see schedulingFields);
//  2. the same nodes pass the filters;
//  3. every other node fails with the same plugin and the same reasons;
//  4. when none passes, the FitError message is the same;
//  5. the nodes of the highest total score, the ones selectHost draws from, are the same;
//  6. every plugin both sides score gives every feasible node the same weighted score; a
//     plugin only one side scores is a disagreement too, unless it is one DaemonLab does not
//     model and kube-scheduler scores 0 (ImageLocality without images, VolumeBinding and
//     DynamicResources without volumes or claims).
//
// Scores are compared only when the same nodes pass: a plugin normalizes its scores over them.
//
// A failing case prints its seed (replay it with UPSTREAM_SEED=seed UPSTREAM_CASES=1), the
// smallest case it shrinks to that still disagrees, and that case's objects as the YAML
// `kubectl apply -f` takes; a summary counts the failures by category.
func TestSchedulerAgreesWithKubeScheduler(t *testing.T) {
	s := readSettings(t)
	start := time.Now()
	byCategory := map[string][]uint64{} // the seeds failing in each category
	var st stats
	failed := 0
	for seed := s.seed; seed < s.seed+uint64(s.cases); seed++ {
		c := generate(seed, s.features)
		diffs := compare(t, c, &st)
		if len(diffs) == 0 {
			continue
		}
		failed++
		categories := map[string]bool{}
		for _, d := range diffs {
			categories[d.category] = true
		}
		for cat := range categories {
			byCategory[cat] = append(byCategory[cat], seed)
		}
		if failed <= s.show {
			t.Errorf("%s", report(t, c, s, diffs))
		}
	}
	t.Logf("%d cases (seeds %d–%d, features %s) in %v: %s", s.cases, s.seed, s.seed+uint64(s.cases)-1, s.features, time.Since(start).Round(time.Millisecond), &st)
	if failed == 0 {
		return
	}
	var lines []string
	for _, cat := range slices.Sorted(maps.Keys(byCategory)) {
		seeds := byCategory[cat]
		lines = append(lines, fmt.Sprintf("  %-45s %5d cases, first seeds %v", cat, len(seeds), seeds[:min(5, len(seeds))]))
	}
	t.Errorf("%d of %d cases disagree; by category:\n%s", failed, s.cases, strings.Join(lines, "\n"))
}

// mismatch is one way the two sides disagree on a case: its category (for the summary) and
// what each side said.
type mismatch struct {
	category string
	detail   string
}

// stats count what the cases exercised, so that a passing run says what it compared.
type stats struct {
	refused              int            // cases whose objects both API servers refused
	none, one, scored    int            // cases by how many nodes passed upstream: 0, 1, 2 or more
	filteredBy, scoredBy map[string]int // filter verdicts and plugin scores compared, by upstream plugin
}

func (s *stats) String() string {
	count := func(m map[string]int) string {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%d refused by both API servers; %d with no feasible node, %d with one, %d scored; filter verdicts compared: %s; plugin scores compared: %s",
		s.refused, s.none, s.one, s.scored, count(s.filteredBy), count(s.scoredBy))
}

// compare runs a case on both sides and counts what it compared in st.
func compare(t *testing.T, c *schedulingCase, st *stats) []mismatch {
	t.Helper()
	s, upErr := store(c)
	ours, ourErr := explainDaemonLab(c)
	switch {
	case upErr != nil && ourErr != nil:
		st.refused++ // the generator made an invalid pod: nothing to schedule
		return nil
	case upErr != nil:
		return []mismatch{{"api: upstream refuses, DaemonLab accepts", upErr.Error()}}
	case ourErr != nil:
		return []mismatch{{"api: DaemonLab refuses, upstream accepts", ourErr.Error()}}
	}
	up, err := explainUpstream(s)
	require.NoError(t, err, "seed %d: kube-scheduler's framework failed", c.seed)
	st.count(up, ours)
	return diff(up, ours)
}

func (s *stats) count(up, ours *outcome) {
	if s.filteredBy == nil {
		s.filteredBy, s.scoredBy = map[string]int{}, map[string]int{}
	}
	switch len(up.feasible) {
	case 0:
		s.none++
	case 1:
		s.one++
	default:
		s.scored++
	}
	for _, v := range up.verdicts {
		s.filteredBy[v.plugin]++
	}
	for node, scores := range up.scores {
		for plugin := range scores {
			if _, ok := ours.scores[node][plugin]; ok {
				s.scoredBy[plugin]++
			}
		}
	}
}

// diff lists how ours differs from up (see TestSchedulerAgreesWithKubeScheduler).
func diff(up, ours *outcome) []mismatch {
	var out []mismatch
	add := func(category, format string, args ...any) {
		out = append(out, mismatch{category, fmt.Sprintf(format, args...)})
	}
	for i := range min(len(up.pods), len(ours.pods)) {
		if up.pods[i] != ours.pods[i] {
			add("api: pods stored differently", "stored:\n    upstream  %s\n    DaemonLab %s", up.pods[i], ours.pods[i])
		}
	}
	if !slices.Equal(up.feasible, ours.feasible) {
		add("feasible nodes", "feasible: upstream %v, DaemonLab %v", up.feasible, ours.feasible)
	}
	for _, node := range slices.Sorted(maps.Keys(up.verdicts)) {
		u, o := up.verdicts[node], ours.verdicts[node]
		if u.plugin != o.plugin || !slices.Equal(u.reasons, o.reasons) {
			add("filter "+u.plugin, "%s: upstream %s %q, DaemonLab %s %q", node, u.plugin, u.reasons, o.plugin, o.reasons)
		}
	}
	for _, node := range slices.Sorted(maps.Keys(ours.verdicts)) {
		if _, ok := up.verdicts[node]; !ok {
			o := ours.verdicts[node]
			add("filter "+o.plugin+" (upstream passes)", "%s: upstream passes, DaemonLab %s %q", node, o.plugin, o.reasons)
		}
	}
	if up.message != ours.message {
		add("FitError message", "message:\n    upstream  %q\n    DaemonLab %q", up.message, ours.message)
	}
	if !slices.Equal(up.feasible, ours.feasible) {
		return out // the scores are normalized over the feasible nodes: they differ with them
	}
	if !slices.Equal(up.best, ours.best) {
		var totals []string
		for _, node := range slices.Sorted(maps.Keys(up.totals)) {
			totals = append(totals, fmt.Sprintf("%s %d/%d", node, up.totals[node], ours.totals[node]))
		}
		add("top score nodes", "best: upstream %v, DaemonLab %v; totals upstream/DaemonLab: %s", up.best, ours.best, strings.Join(totals, ", "))
	}
	for _, node := range slices.Sorted(maps.Keys(up.scores)) {
		for _, plugin := range slices.Sorted(maps.Keys(up.scores[node])) {
			u := up.scores[node][plugin]
			o, ok := ours.scores[node][plugin]
			switch {
			case !ok && u != 0:
				add("score "+plugin+" (DaemonLab does not score)", "%s %s: upstream %d, DaemonLab none", node, plugin, u)
			case ok && u != o:
				add("score "+plugin, "%s %s: upstream %d, DaemonLab %d (weight %d)", node, plugin, u, o, up.weights[plugin])
			}
		}
	}
	for _, node := range slices.Sorted(maps.Keys(ours.scores)) {
		for _, plugin := range slices.Sorted(maps.Keys(ours.scores[node])) {
			if _, ok := up.scores[node][plugin]; !ok {
				add("score "+plugin+" (upstream skips)", "%s %s: upstream none (PreScore skips it), DaemonLab %d", node, plugin, ours.scores[node][plugin])
			}
		}
	}
	return out
}

// report is a failing case: its seed, how to replay it and what differs; then, unless
// UPSTREAM_SHRINK=0, the smallest case shrink finds that still disagrees in the same way (see
// rootCategory); and that case's objects as a scenario that applies them in DaemonLab.
func report(t *testing.T, c *schedulingCase, s settings, diffs []mismatch) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d disagrees (replay: UPSTREAM_SEED=%d UPSTREAM_CASES=1 UPSTREAM_FEATURES=%s go test ./...):\n", c.seed, c.seed, s.features)
	writeDiffs(&b, diffs)
	if s.shrink {
		category := rootCategory(diffs)
		c = shrink(t, c, category)
		fmt.Fprintf(&b, "shrunk to a case that still disagrees on [%s]:\n", category)
		writeDiffs(&b, compare(t, c, &stats{}))
	}
	b.WriteString(scenario(c))
	return b.String()
}

func writeDiffs(b *strings.Builder, diffs []mismatch) {
	for _, d := range diffs {
		fmt.Fprintf(b, "  [%s] %s\n", d.category, d.detail)
	}
}

// rootCategory is the category of the disagreement the others follow from: the API servers',
// a filter's or a score's before the feasible nodes, the message and the top nodes.
func rootCategory(diffs []mismatch) string {
	for _, d := range diffs {
		if strings.HasPrefix(d.category, "api") || strings.HasPrefix(d.category, "filter") || strings.HasPrefix(d.category, "score") {
			return d.category
		}
	}
	return diffs[0].category
}

// scenario is the case as a DaemonLab scenario file: one kubectl apply -f of its objects on
// an empty cluster, then a delete of each terminating pod. Replayed in the simulator, the
// controllers act on them (a ReplicaSet's pods carry the uid the generator gave it, not the
// one the API server does, so the garbage collector removes them): the YAML is the case, the
// test is its exact replay.
func scenario(c *schedulingCase) string {
	data, err := manifests(c)
	if err != nil {
		return fmt.Sprintf("(no YAML: %v)\n", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "name: upstream-seed-%d\nseed: %d\ncluster: empty\nsteps:\n  - run: kubectl apply -f -\n    stdin: |\n", c.seed, c.seed)
	for _, line := range strings.SplitAfter(strings.TrimRight(string(data), "\n"), "\n") {
		b.WriteString("      " + line)
	}
	b.WriteString("\n")
	for _, i := range c.terminating {
		fmt.Fprintf(&b, "  - run: kubectl delete pod %s -n %s --wait=false\n", c.pods[i].Name, c.pods[i].Namespace)
	}
	fmt.Fprintf(&b, "  - run: kubectl describe pod %s -n %s\n", c.pod.Name, c.pod.Namespace)
	return b.String()
}
