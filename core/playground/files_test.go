package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/shell"
)

// TestTheSandboxKeepsItsFilesThroughUndoAndShareLinks: the sandbox starts with the tutorials'
// files; a file a command writes is a step, undo takes it away, redo brings it back, and a
// share link (the steps replayed) rebuilds it.
func TestTheSandboxKeepsItsFilesThroughUndoAndShareLinks(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	ls := func(m Model) string { return shell.Run(m.Sim, "ls", "").Out }
	start := "daemonset.yaml\nfluentd-elasticsearch.yaml\npod-besteffort.yaml\npod-burstable.yaml\npod-guaranteed.yaml\n"
	require.Equal(t, start, ls(m))

	m = Update(m, RunMsg{Line: "kubectl get ds -n kube-system fluentd-elasticsearch -o yaml > ds.yaml"})
	require.Equal(t, 1, m.History.Pos, "writing a file is a step")
	written, err := m.Sim.C.ReadFile("ds.yaml")
	require.NoError(t, err)
	assert.Contains(t, written, "kind: DaemonSet")

	shared, err := LoadShared(lib, ShareFragment(m))
	require.NoError(t, err)
	again, err := shared.Sim.C.ReadFile("ds.yaml")
	require.NoError(t, err)
	assert.Equal(t, written, again, "replayed from the share link")

	m = Update(m, UndoMsg{})
	assert.Equal(t, start, ls(m), "undone")
	m = Update(m, RedoMsg{})
	assert.Contains(t, ls(m), "ds.yaml\n", "redone")
}
