package kubectl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"daemonlab/core/scenario"
	"daemonlab/core/sim"
)

// forEachScenario plays every scenario file and hands the cluster it leaves to check, in a
// subtest named after the file.
func forEachScenario(t *testing.T, check func(t *testing.T, s *sim.Sim)) {
	files, err := filepath.Glob("../testdata/scenarios/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			sc, err := scenario.Parse(data)
			require.NoError(t, err)
			s, err := sc.Play()
			require.NoError(t, err)
			check(t, s)
		})
	}
}
