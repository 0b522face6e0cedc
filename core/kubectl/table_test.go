package kubectl

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTableLaysOutAsKubectlsTabWriter: table writes every line exactly as kubectl's tab writer
// (text/tabwriter, minwidth 6, tabwidth 4, padding 3, spaces) writes the whole table, whichever
// lines are asked for — wide, empty and non-ASCII cells included.
func TestTableLaysOutAsKubectlsTabWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	words := []string{"", "a", "Normal", "Warning", "SuccessfulCreate", "Pod/fluentd-elasticsearch-5c9dl", "节点故障", "x (x2 over 5m)", strings.Repeat("w", 40)}
	for n := range 50 {
		cols := 2 + rng.IntN(5)
		var rows [][]string
		var b strings.Builder
		w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
		for range 1 + rng.IntN(8) {
			var row []string
			for range cols {
				row = append(row, words[rng.IntN(len(words))])
			}
			rows = append(rows, row)
			fmt.Fprintln(w, strings.Join(row, "\t"))
		}
		w.Flush()
		tab := table{rows: rows}
		want := strings.SplitAfter(b.String(), "\n")
		want = want[:len(want)-1]
		assert.Equal(t, want, tab.lines(0, len(rows)), "table %d", n)
		from := rng.IntN(len(rows))
		assert.Equal(t, want[from:], tab.lines(from, len(rows)), "table %d from line %d", n, from)
	}
}

// TestEventLinesAreKubectlEventsLines: the page's events list is the header and the last lines
// of `kubectl events -A` (of a type, of the objects a filter keeps), each exactly as kubectl
// prints it in the whole table.
func TestEventLinesAreKubectlEventsLines(t *testing.T) {
	s := newSim(t)
	require.Zero(t, run(s, []string{"create", "deployment", "web", "--image=nginx:1.27", "--replicas=4"}, "").Code)
	require.Zero(t, run(s, []string{"scale", "deployment", "web", "--replicas=1"}, "").Code)
	full := strings.SplitAfter(run(s, []string{"events", "-A"}, "").Out, "\n")
	full = full[:len(full)-1]
	require.Greater(t, len(full), 6)
	all := func(string) bool { return true }
	lines, message := EventLines(s, "", all, 5)
	assert.Empty(t, message)
	assert.Equal(t, append(full[:1:1], full[len(full)-5:]...), lines)

	var kept []string
	for _, l := range full[1:] {
		if strings.Contains(l, "Deployment/web") {
			kept = append(kept, l)
		}
	}
	require.NotEmpty(t, kept)
	lines, _ = EventLines(s, "", func(object string) bool { return object == "Deployment/web" }, 100)
	assert.Equal(t, append(full[:1:1], kept...), lines)

	_, message = EventLines(s, "Warning", all, 5)
	assert.Equal(t, "No events found.", message)
}
