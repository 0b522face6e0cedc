package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/sim"
)

const text = "NAME   STATUS\nhd1    Ready\nhd2    NotReady\nhd3    Ready\nweb-1  Running\nweb-2  Pending\n"

// TestFiltersBehaveAsGNUTools pins the filters a pipeline may end in, on the output of a
// kubectl command: GNU grep's matching (basic and extended expressions, -i, -v, -w, -c, -n,
// context with "--" between groups) and exit codes (1 for no match, 2 for a bad pattern or
// usage), head, tail and wc -l; of files, each line or count after its file's name, head and
// tail's "==> NAME <==" headers, wc's total, and an unreadable file's error (exit 2 for grep).
func TestFiltersBehaveAsGNUTools(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		out  string
		code int
	}{
		{"grep Ready", "hd1    Ready\nhd2    NotReady\nhd3    Ready\n", 0},
		{"grep -w Ready", "hd1    Ready\nhd3    Ready\n", 0},
		{"grep -i ready -c", "3\n", 0},
		{"grep -v Ready", "NAME   STATUS\nweb-1  Running\nweb-2  Pending\n", 0},
		{"grep -E 'hd(1|3)'", "hd1    Ready\nhd3    Ready\n", 0},
		{"grep 'hd(1|3)'", "", 1}, // in a basic expression ( | ) are literal
		{`grep 'hd\(1\|3\)'`, "hd1    Ready\nhd3    Ready\n", 0},
		{"grep -F .", "", 1},
		{"grep -n web", "5:web-1  Running\n6:web-2  Pending\n", 0},
		{"grep -A1 hd1", "hd1    Ready\nhd2    NotReady\n", 0},
		{"grep -A 1 -e hd1 -e web-2", "hd1    Ready\nhd2    NotReady\n--\nweb-2  Pending\n", 0},
		{"grep -B1 -n hd3", "3-hd2    NotReady\n4:hd3    Ready\n", 0},
		{"grep -C1 NotReady", "hd1    Ready\nhd2    NotReady\nhd3    Ready\n", 0},
		{"grep nothing", "", 1},
		{"grep", "", 2},
		{"grep -Z x", "", 2},
		{"grep x file.txt", "", 2},
		{"grep Ready notes.txt", "hd1    Ready\n", 0},
		{"grep -c Ready notes.txt - notes.txt", "notes.txt:1\n(standard input):3\nnotes.txt:1\n", 0},
		{"grep -n -A1 hd1 notes.txt nodes.txt", "notes.txt:1:hd1    Ready\nnotes.txt-2-web-1  Running\nnodes.txt:2:hd1    Ready\nnodes.txt-3-hd2    NotReady\n", 0},
		{"grep Ready notes.txt nope.txt", "notes.txt:hd1    Ready\n", 2},
		{"head -1 notes.txt nodes.txt", "==> notes.txt <==\nhd1    Ready\n\n==> nodes.txt <==\nNAME   STATUS\n", 0},
		{"tail -n1 notes.txt", "web-1  Running\n", 0},
		{"head nope.txt", "", 1},
		{"wc -l notes.txt nodes.txt", "2 notes.txt\n6 nodes.txt\n8 total\n", 0},
		{"wc -l nope.txt", "", 1},
		{"head -2", "NAME   STATUS\nhd1    Ready\n", 0},
		{"head -n 1", "NAME   STATUS\n", 0},
		{"tail -n2", "web-1  Running\nweb-2  Pending\n", 0},
		{"tail -x", "", 1},
		{"wc -l", "6\n", 0},
		{"sort", "", 127},
	} {
		t.Run(tt.cmd, func(t *testing.T) {
			words, err := Split(tt.cmd)
			require.NoError(t, err)
			s, err := sim.New(1, sim.Empty)
			require.NoError(t, err)
			require.NoError(t, s.C.WriteFile("notes.txt", "hd1    Ready\nweb-1  Running\n", false))
			require.NoError(t, s.C.WriteFile("nodes.txt", text, false))
			r := filter(s.C, words, text)
			assert.Equal(t, tt.out, r.Out)
			assert.Equal(t, tt.code, r.Code, r.Err)
			if tt.code > 1 {
				assert.NotEmpty(t, r.Err)
			}
		})
	}
}

// TestPipelineSplitsOnUnquotedBars: a quoted | is part of a word; an empty command around a bar
// is a syntax error.
func TestPipelineSplitsOnUnquotedBars(t *testing.T) {
	cmds, err := Pipeline(`kubectl get pods -o 'jsonpath={.a|b}' | grep "x|y" |wc -l`)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"kubectl", "get", "pods", "-o", "jsonpath={.a|b}"}, {"grep", "x|y"}, {"wc", "-l"}}, cmds)
	s := newSim(t)
	assert.Equal(t, 2, Run(s, "kubectl get nodes |", "").Code)
	r := Run(s, "kubectl get nodes | grep hd2", "")
	assert.Equal(t, "hd2    Ready    <none>          0s    v1.37.2\n", r.Out, "the table is aligned before grep picks a line")
	r = Run(s, "kubectl get pods -n nowhere | grep x", "")
	assert.Equal(t, "No resources found in nowhere namespace.", r.Err, "the first command's errors show")
	assert.Equal(t, 1, r.Code, "the exit code is the last command's")
}

func newSim(t *testing.T) *sim.Sim {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	return s
}
