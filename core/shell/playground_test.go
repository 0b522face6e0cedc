package shell

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"daemonlab/core/sim"
	"daemonlab/lessons"
)

// playground is the page's start state: the default cluster with fluentd and web running.
func playground(t *testing.T) *sim.Sim {
	t.Helper()
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	require.Empty(t, ApplyAll(s, lessons.Start).Err)
	s.Advance(30 * time.Second)
	return s
}
