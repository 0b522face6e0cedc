package playground

import (
	"strings"
	"testing"
	"time"

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

// TestTheTerminalReadsHereDocuments: a line with a here-document makes the prompt read its
// lines (">") up to the marker, as bash does, and the command then runs with them as its
// standard input; the command is one step, replayed with its input from a share link. A
// pasted block is typed a line at a time; Ctrl+C drops the document under way.
func TestTheTerminalReadsHereDocuments(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	manifest := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx\n"

	typed := Update(m, RunMsg{Line: "cat > web.yaml <<EOF"})
	require.NotNil(t, typed.Terminal.Here)
	assert.Equal(t, ">", Render(typed).Prompt)
	for _, l := range strings.Split(strings.TrimSuffix(manifest, "\n"), "\n") {
		typed = Update(typed, RunMsg{Line: l})
	}
	require.Equal(t, 0, typed.History.Pos, "nothing runs before the marker")
	typed = Update(typed, RunMsg{Line: "EOF"})
	assert.Nil(t, typed.Terminal.Here)
	assert.Equal(t, "$", Render(typed).Prompt)
	got, err := typed.Sim.C.ReadFile("web.yaml")
	require.NoError(t, err)
	assert.Equal(t, manifest, got, "the lines keep their indentation")
	assert.Equal(t, 1, typed.History.Pos, "the command is one step")
	assert.Equal(t, "> EOF", typed.Terminal.Lines[len(typed.Terminal.Lines)-1].Text)

	shared, err := LoadShared(lib, ShareFragment(typed))
	require.NoError(t, err)
	again, err := shared.Sim.C.ReadFile("web.yaml")
	require.NoError(t, err)
	assert.Equal(t, manifest, again, "replayed with its standard input")

	pasted := Update(m, PasteMsg{Line: "kubectl apply -f - ", Text: "<<EOF\r\n" + manifest + "EOF\nkubectl get po"})
	assert.Nil(t, pasted.Terminal.Here)
	assert.Equal(t, "kubectl get po", pasted.Terminal.Input, "what follows the last newline stays at the prompt")
	assert.Contains(t, pasted.Terminal.Lines[len(pasted.Terminal.Lines)-1].Text, "pod/web created")

	chunked := m
	chunked.Chunk = true // as on the page: `sim advance` is a Tick, carried on between messages
	before := chunked.Sim.C.Now()
	chunked = Update(chunked, PasteMsg{Text: "sim advance 1m\nkubectl get pods -o name\n"})
	assert.Nil(t, chunked.Tick, "the pasted advance is over before the next line runs")
	assert.Equal(t, time.Minute, chunked.Sim.C.Now().Sub(before))

	cut := Update(Update(m, RunMsg{Line: "cat > x.yaml <<EOF"}), RunMsg{Line: "a: b"})
	cut = Update(cut, InterruptMsg{Line: "c: d"})
	assert.Nil(t, cut.Terminal.Here)
	assert.Equal(t, "> c: d^C", cut.Terminal.Lines[len(cut.Terminal.Lines)-1].Text)
	_, err = cut.Sim.C.ReadFile("x.yaml")
	assert.Error(t, err, "an interrupted here-document runs nothing")
	msg, ok := TerminalKey("c", true, false, "kubectl get po")
	require.True(t, ok)
	assert.Equal(t, InterruptMsg{Line: "kubectl get po"}, msg)
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

// TestTheSandboxStartsOnTheClusterPicked: the page's menu of starting clusters (Clusters)
// starts the sandbox afresh on kubeadm's, the session before kept; Reset, a saved session and
// a share link start on it again; a saved session naming another cluster, or one with a lesson,
// is refused.
func TestTheSandboxStartsOnTheClusterPicked(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	require.Equal(t, "default", Render(m).Cluster)
	proxies := func(m Model) string {
		return shell.Run(m.Sim, "kubectl get ds -n kube-system -o name", "").Out
	}
	require.Equal(t, "daemonset.apps/fluentd-elasticsearch\n", proxies(m))

	m = Update(m, RunMsg{Line: "kubectl cordon hd2"})
	k := Update(m, ClusterMsg{Cluster: "kubeadm"})
	assert.Equal(t, "kubeadm", Render(k).Cluster)
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch\ndaemonset.apps/kube-proxy\n", proxies(k))
	assert.Equal(t, "kept.cluster", k.Notice)
	require.Len(t, k.Kept, 1, "the session before is one click away")
	require.NotEmpty(t, Render(k).NoticeActions)
	assert.Equal(t, BackMsg{I: 0}, Render(k).NoticeActions[0].Msg, "Back to the previous session")
	assert.Contains(t, shell.Run(k.Sim, "kubectl get pods -n kube-system", "").Out, "etcd-hd1")

	k = Update(k, RunMsg{Line: "kubectl label node hd3 a=b"})
	shared, err := LoadShared(lib, ShareFragment(k))
	require.NoError(t, err)
	assert.Equal(t, "kubeadm", Render(shared).Cluster, "a share link starts on it")
	assert.Equal(t, proxies(k), proxies(shared))
	loaded, err := Load(lib, Save(k))
	require.NoError(t, err)
	assert.Equal(t, "kubeadm", Render(loaded).Cluster, "so does a saved session")
	reset := Update(k, ResetMsg{})
	assert.Equal(t, "kubeadm", Render(reset).Cluster, "reset starts on it again")
	assert.Zero(t, reset.History.Pos)

	assert.Equal(t, Save(m), Save(Update(m, ClusterMsg{Cluster: "big"})), "a cluster not offered changes nothing")
	for _, bad := range []string{`"cluster":"big"`, `"cluster":"empty"`} {
		data := strings.Replace(string(Save(m)), `"v":1`, `"v":1,`+bad, 1)
		_, err := Load(lib, []byte(data))
		assert.ErrorContains(t, err, "a cluster DaemonLab does not offer", bad)
	}
}

// TestImportingAClusterFromAFileIsTwoStepsUndone: Import cluster writes the picked file to
// the workspace and runs `sim import -f NAME` as if typed; undo takes the import back, then the
// file; a share link replays both. A name the workspace cannot take is cluster.yaml; a file
// past the workspace's bounds is its error in the terminal, and changes nothing.
func TestImportingAClusterFromAFileIsTwoStepsUndone(t *testing.T) {
	fresh := func() Model { // a model shares its Sim: each case starts from its own
		m, err := NewModel(lib)
		require.NoError(t, err)
		return m
	}
	dump := "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n  status: {capacity: {cpu: \"8\", memory: 16Gi, pods: \"50\"}}\n"
	nodes := func(m Model) string { return shell.Run(m.Sim, "kubectl get nodes -o name", "").Out }

	in := Update(fresh(), ClusterFileMsg{Name: "my cluster.yaml", Data: dump})
	assert.Equal(t, "node/n1\n", nodes(in))
	lines := in.Terminal.Lines
	require.GreaterOrEqual(t, len(lines), 2)
	assert.Equal(t, "$ sim import -f 'my cluster.yaml'", lines[len(lines)-2].Text)
	assert.Contains(t, lines[len(lines)-1].Text, "Imported 1 node.")
	assert.Equal(t, 2, in.History.Pos, "the file, then the import")

	shared, err := LoadShared(lib, ShareFragment(in))
	require.NoError(t, err)
	assert.Equal(t, "node/n1\n", nodes(shared))
	back := Update(in, UndoMsg{})
	assert.Equal(t, "node/hd1\nnode/hd2\nnode/hd3\n", nodes(back))
	got, err := back.Sim.C.ReadFile("my cluster.yaml")
	require.NoError(t, err)
	assert.Equal(t, dump, got)

	odd := Update(fresh(), ClusterFileMsg{Name: "../../etc/.hidden", Data: dump})
	_, err = odd.Sim.C.ReadFile("cluster.yaml")
	assert.NoError(t, err, "a name the workspace cannot take")

	notADump := Update(fresh(), ClusterFileMsg{Name: "notes.txt", Data: "just some notes\n"})
	assert.Equal(t, "node/hd1\nnode/hd2\nnode/hd3\n", nodes(notADump), "a file that is no dump leaves the cluster")
	last := notADump.Terminal.Lines[len(notADump.Terminal.Lines)-1]
	assert.True(t, last.Err, "and says why: %s", last.Text)
	assert.Equal(t, 1, notADump.History.Pos, "the file is in the workspace, to mend and import again")

	big := Update(fresh(), ClusterFileMsg{Name: "big.yaml", Data: strings.Repeat("#", 2<<20)})
	assert.Zero(t, big.History.Pos, "nothing changed")
	assert.Contains(t, big.Terminal.Lines[len(big.Terminal.Lines)-1].Text, "File too large")
}
