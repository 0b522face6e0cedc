package scenario

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScenarios runs every scenario file in core/testdata/scenarios; each is named after the
// behaviour it pins.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("../testdata/scenarios/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			sc, err := Parse(data)
			require.NoError(t, err)
			assert.NoError(t, sc.Run())
		})
	}
}

// TestParseRejectsBadScenarios: a scenario file with a typo is an error with its line, not a
// scenario that silently checks nothing.
func TestParseRejectsBadScenarios(t *testing.T) {
	cases := map[string]string{
		"name: x\nsteps:\n  - run: kubectl get pods\n    wnat: x\n": `line 4: unknown field "steps[0].wnat"`,
		"steps:\n  - run: kubectl get pods\n":                       "a scenario needs a name",
		"name: x\ncluster: big\nsteps: [{run: sim step}]\n":         `cluster "big": use default, empty or kubeadm`,
		"name: x\nsteps: [{run: '  '}]\n":                           "step 1: run is empty",
		"name: x\nsteps: [{run: sim step, wantMatch: '(('}]\n":      "step 1: wantMatch: error parsing regexp: missing closing ): `((`",
		"name: x\nseed: many\nsteps: [{run: sim step}]\n":           "line 2: json: cannot unmarshal string into Go struct field Scenario.seed of type uint64",
	}
	for in, want := range cases {
		_, err := Parse([]byte(in))
		assert.EqualError(t, err, want, in)
	}
}

// TestFailureNamesTheStep: a failing step is reported with its number, its command, want and got.
func TestFailureNamesTheStep(t *testing.T) {
	sc, err := Parse([]byte("name: x\nsteps:\n  - run: kubectl get nodes -o name\n    want: node/hd9\n"))
	require.NoError(t, err)
	assert.EqualError(t, sc.Run(), "step 1 (kubectl get nodes -o name): want:\nnode/hd9\ngot:\nnode/hd1\nnode/hd2\nnode/hd3")
}

// FuzzParse: no scenario file, however malformed, makes Parse panic or hang; what it accepts has a
// name and steps with command lines.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob("../testdata/scenarios/*.yaml")
	require.NoError(f, err)
	for _, file := range files[:5] {
		data, err := os.ReadFile(file)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte("name: x\nsteps: [{run: '', wantMatch: '('}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse(data)
		if err != nil {
			return
		}
		assert.NotEmpty(t, sc.Name)
		for _, st := range sc.Steps {
			assert.NoError(t, st.Validate())
		}
	})
}
