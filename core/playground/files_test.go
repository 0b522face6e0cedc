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

// TestImportIsAStepThatUndoReturnsFrom: `sim import -f FILE` run from the page replaces the
// cluster; undo brings back the cluster before it, redo the imported one (from the history's
// snapshots), and a share link rebuilds it by replaying the steps, the file being written by a
// step before the import.
func TestImportIsAStepThatUndoReturnsFrom(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	nodes := func(m Model) string { return shell.Run(m.Sim, "kubectl get nodes -o name", "").Out }
	require.Equal(t, "node/hd1\nnode/hd2\nnode/hd3\n", nodes(m))
	dump := "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: cp1, uid: 11111111-1111-4111-8111-111111111111, resourceVersion: \"9\"}}\n"
	m = Update(m, RunMsg{Line: "echo '" + dump + "' > cluster.yaml"})
	m = Update(m, RunMsg{Line: "sim import -f cluster.yaml"})
	require.Equal(t, 2, m.History.Pos, "the import is a step")
	assert.Equal(t, "node/cp1\n", nodes(m))

	shared, err := LoadShared(lib, ShareFragment(m))
	require.NoError(t, err)
	assert.Equal(t, "node/cp1\n", nodes(shared), "replayed from the share link")

	m = Update(m, UndoMsg{})
	assert.Equal(t, "node/hd1\nnode/hd2\nnode/hd3\n", nodes(m), "undone")
	m = Update(m, RedoMsg{})
	assert.Equal(t, "node/cp1\n", nodes(m), "redone")
}
