package playground

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// last is the terminal's last block.
func last(t *testing.T, m Model) TermLine {
	t.Helper()
	require.NotEmpty(t, m.Terminal.Lines)
	return m.Terminal.Lines[len(m.Terminal.Lines)-1]
}

// TestApplyIsEchoedInTheTerminal: the editor's Apply prints `$ kubectl apply -f -` and
// kubectl's output in the terminal, as a file's tab prints `$ kubectl apply -f FILE`; on a
// phone the YAML pane gives way to the terminal, unless the problems are marked in the editor.
func TestApplyIsEchoedInTheTerminal(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, PaneMsg{Pane: YAMLPane})
	m = Update(m, ApplyMsg{Text: strings.Replace(m.Editor, "k8s-app: fluentd-logging", "k8s-app: fluentd-logging\n    tier: node", 1)})
	assert.Equal(t, []TermLine{
		{Text: "$ kubectl apply -f -", Command: true},
		{Text: "daemonset.apps/fluentd-elasticsearch configured\ndeployment.apps/web unchanged"},
		{Text: "# DaemonSet kube-system/fluentd-elasticsearch configured: only its labels or annotations changed, not its spec, so revision 1 (ControllerRevision fluentd-elasticsearch-bdd8d9778) stays and no pod is replaced\n" +
			"# Deployment default/web unchanged: same Pod template, revision 1 (ReplicaSet web-78d6ffb4b5), nothing to roll out", Note: true},
	}, m.Terminal.Lines, "kubectl's output, then the page's explanation")
	assert.Equal(t, TerminalPane, m.Pane, "the phone shows the output")
	assert.NotContains(t, m.Terminal.History, "kubectl apply -f -", "↑ recalls no apply without its manifest")

	m = Update(m, PaneMsg{Pane: YAMLPane})
	m = Update(m, ApplyMsg{Text: strings.Replace(m.Editor, "effect: NoSchedule", "effect: NoSchedul", 1)})
	assert.True(t, last(t, m).Err)
	assert.Equal(t, YAMLPane, m.Pane, "the problems are marked in the editor: it stays")

	m = Update(m, RunMsg{Line: "vim ds.yaml"})
	m = Update(m, ApplyMsg{Text: "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n"})
	n := len(m.Terminal.Lines)
	assert.Equal(t, []TermLine{{Text: "$ kubectl apply -f ds.yaml", Command: true}, {Text: "namespace/team created"}}, m.Terminal.Lines[n-2:])
}

// TestButtonsAreEchoedInTheTerminal: every button's action shows in the terminal: a button
// that runs a command (a node's menu, the timeline's, Add node) as that command, echoed with
// its output; one that runs none (Reset, another starting cluster, a lesson begun, Undo, Redo,
// Play and Pause) as a note, a shell comment, in the page's language.
func TestButtonsAreEchoedInTheTerminal(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	v := Render(m)
	tests := []struct {
		name string
		msg  Msg
		want []TermLine // the terminal's last blocks
	}{
		{"a node's menu", RunMsg{Line: v.Nodes[1].Actions[0].Command}, []TermLine{{Text: "$ sim fail hd2 kubelet-down", Command: true}, {Text: "node/hd2 failed: kubelet-down"}}},
		{"+10s", RunMsg{Line: v.Time[1].Command}, []TermLine{{Text: "$ sim advance 10s", Command: true}}},
		{"Add node", RunMsg{Line: v.AddNode.Command}, []TermLine{{Text: "$ sim add-node hd4", Command: true}, {Text: "node/hd4 created"}}},
		{"Undo", UndoMsg{}, []TermLine{{Text: "# Undo: back to step 2 of 3", Note: true}}},
		{"Redo", RedoMsg{}, []TermLine{{Text: "# Redo: on to step 3 of 3", Note: true}}},
		{"Redo at the end", RedoMsg{}, []TermLine{{Text: "# Redo: on to step 3 of 3", Note: true}}},
		{"Play", PlayMsg{On: true}, []TermLine{{Text: "# ▶ Play at 10×: sim advance 2.5s, four times a second", Note: true}}},
		{"Pause", PlayMsg{On: false}, []TermLine{{Text: "# ❚❚ Pause at t = 40s", Note: true}}},
		{"another starting cluster", ClusterMsg{Cluster: "kubeadm"}, []TermLine{{Text: "# Starting cluster: 3 nodes + kubeadm's add-ons", Note: true}}},
		{"Reset", ResetMsg{}, []TermLine{{Text: "# Reset: the cluster is back at its start", Note: true}}},
		{"a lesson", LessonMsg{ID: "1"}, []TermLine{{Text: "# " + heading(English, mustLesson(t, "1").Tutor.Lesson) + ": the cluster is now the lesson's starting cluster", Note: true}}},
		{"in Chinese", LangMsg{Lang: Chinese}, []TermLine{}},
		{"Reset, in Chinese", ResetMsg{}, []TermLine{{Text: "# 重置：集群已回到初始状态", Note: true}}},
	}
	for _, tt := range tests {
		before := len(m.Terminal.Lines)
		m = Update(m, tt.msg)
		got := m.Terminal.Lines[max(before, len(m.Terminal.Lines)-len(tt.want)):]
		if tt.name == "Redo at the end" {
			assert.Len(t, m.Terminal.Lines, before, "%s: nothing to redo, nothing noted", tt.name)
			continue
		}
		assert.Equal(t, tt.want, got, tt.name)
	}
	assert.Contains(t, m.Terminal.Lines, TermLine{Text: "$ sim fail hd2 kubelet-down", Command: true}, "a reset keeps the transcript, as a shell keeps it")
}

// mustLesson is a lesson's start state.
func mustLesson(t *testing.T, id string) Model {
	t.Helper()
	m, err := StartModel(lib, id)
	require.NoError(t, err)
	return m
}

// TestTheTranscriptTravelsWithTheSession: the terminal's lines are saved with the session and
// come back with a reload (Keeper) and in a share link; a session saved before transcripts were
// kept loads with an empty terminal; a forged transcript past the bounds is refused.
func TestTheTranscriptTravelsWithTheSession(t *testing.T) {
	m := worked(t, "sim fail hd2 kubelet-down")
	m = Update(m, RunMsg{Line: "kubectl get nodez"})
	m = Update(m, ResetMsg{})
	want := m.Terminal.Lines
	require.Len(t, want, 5, "two commands, one error, one output and the reset's note")

	store := newStore(5 << 20)
	keeper := NewKeeper(store, lib)
	require.Nil(t, keeper.Save(m))
	reloaded, err := NewKeeper(store, lib).Restore("")
	require.NoError(t, err)
	assert.Equal(t, want, reloaded.Terminal.Lines, "a reload")

	shared, err := LoadShared(lib, ShareFragment(m))
	require.NoError(t, err)
	assert.Equal(t, want, shared.Terminal.Lines, "a share link")
	assert.Equal(t, want, Render(shared).Terminal)

	var old map[string]any
	require.NoError(t, json.Unmarshal(Save(worked(t, "sim fail hd2 kubelet-down")), &old))
	delete(old, "terminal")
	data, err := json.Marshal(old)
	require.NoError(t, err)
	before, err := Load(lib, data)
	require.NoError(t, err, "a session saved before transcripts were kept")
	assert.Empty(t, before.Terminal.Lines)
	assert.Contains(t, Render(before).Nodes[1].Status, "Ready", "and its steps replayed")

	old["terminal"] = []TermLine{{Text: strings.Repeat("x\n", maxSavedLines)}}
	data, err = json.Marshal(old)
	require.NoError(t, err)
	_, err = Load(lib, data)
	assert.ErrorContains(t, err, "its terminal has more than 200 lines or 16 KB")
}

// TestTheTranscriptDropsTheOldestFirst pins the transcript's bounds (200 lines of text, 16 KB):
// the newest blocks are kept whole, the block that crosses a bound keeps its last lines, and
// nothing older is kept.
func TestTheTranscriptDropsTheOldestFirst(t *testing.T) {
	cmd := func(i int) TermLine { return TermLine{Text: fmt.Sprintf("$ kubectl get pods # %d", i), Command: true} }
	rows := func(n, width int) string {
		var lines []string
		for i := range n {
			lines = append(lines, fmt.Sprintf("%0*d", width, i))
		}
		return strings.Join(lines, "\n")
	}
	many := func(n int) []TermLine {
		var out []TermLine
		for i := range n {
			out = append(out, cmd(i))
		}
		return out
	}
	tests := []struct {
		name  string
		lines []TermLine
		want  []TermLine
	}{
		{"nothing", nil, []TermLine{}},
		{"within the bounds", many(200), many(200)},
		{"a line too many: the oldest goes", many(201), many(201)[1:]},
		{"a long output crosses the line bound", []TermLine{cmd(0), {Text: rows(300, 3)}}, []TermLine{{Text: rows(300, 3)[4*100:]}}},
		{"a long output within it", []TermLine{cmd(0), {Text: rows(199, 3)}}, []TermLine{cmd(0), {Text: rows(199, 3)}}},
		{"wide output crosses the byte bound", []TermLine{cmd(0), {Text: rows(100, 199)}, cmd(1)}, []TermLine{{Text: rows(100, 199)[200*19:]}, cmd(1)}},
		{"a line wider than the bound", []TermLine{cmd(0), {Text: strings.Repeat("x", 20_000)}}, []TermLine{}},
	}
	for _, tt := range tests {
		got := transcript(tt.lines)
		assert.Equal(t, tt.want, got, tt.name)
		assert.True(t, transcriptFits(got), tt.name)
	}
}

// TestAFullTranscriptKeepsShareLinksShort: a session whose transcript is full (kubectl's tables,
// over and over) makes a share link of at most 8 KB.
func TestAFullTranscriptKeepsShareLinksShort(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	for range 40 {
		m = Update(m, RunMsg{Line: "kubectl get pods -A -o wide"})
	}
	saved := transcript(m.Terminal.Lines)
	require.False(t, transcriptFits(m.Terminal.Lines), "the terminal holds more than a session keeps")
	assert.Less(t, len(ShareFragment(m)), 8<<10, "%d lines saved", len(saved))
}

// TestThePaneSwitcherIsATablist: a phone's tabs are Cluster, YAML and Terminal, and Lesson in a
// lesson, which a lesson opens on; arrows, Home and End move between them, wrapping round; a
// pane not offered is refused.
func TestThePaneSwitcherIsATablist(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	shown := func(m Model) (labels []string, selected Pane) {
		for _, p := range Render(m).Panes {
			labels = append(labels, p.Label)
			if p.Selected {
				selected = p.Pane
			}
		}
		return labels, selected
	}
	labels, selected := shown(m)
	assert.Equal(t, []string{"Cluster", "YAML", "Terminal"}, labels)
	assert.Equal(t, ClusterPane, selected, "the sandbox opens on its cluster")
	assert.Empty(t, Update(m, PaneMsg{Pane: LessonPane}).Pane, "no lesson outside one")

	keys := []struct {
		key  string
		want Pane
	}{
		{"ArrowRight", YAMLPane}, {"ArrowRight", TerminalPane}, {"ArrowRight", ClusterPane}, {"ArrowLeft", TerminalPane},
		{"Home", ClusterPane}, {"End", TerminalPane},
	}
	for _, k := range keys {
		msg, ok := PaneKey(k.key, Render(m).Panes)
		require.True(t, ok, k.key)
		m = Update(m, msg)
		_, selected = shown(m)
		assert.Equal(t, k.want, selected, k.key)
	}
	_, ok := PaneKey("Tab", Render(m).Panes)
	assert.False(t, ok, "Tab leaves the tablist")

	m = Update(m, LessonMsg{ID: "7"})
	labels, selected = shown(m)
	assert.Equal(t, []string{"Cluster", "YAML", "Terminal", "Lesson"}, labels)
	assert.Equal(t, LessonPane, selected, "a lesson opens on its text")
	m = Update(m, PaneMsg{Pane: ClusterPane})
	_, selected = shown(m)
	assert.Equal(t, ClusterPane, selected)
	labels, _ = shown(Update(m, LangMsg{Lang: Chinese}))
	assert.Equal(t, []string{"集群", "YAML", "终端", "课程"}, labels)
}

// TestTheDrawerIsASplitter: the drawer's handle takes the keys of a window splitter, its height
// kept between 15% and 70% of the window; the drawer is stored as text that reads back, anything
// else being the default; it outlives a reset.
func TestTheDrawerIsASplitter(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	assert.Equal(t, DrawerView{Height: 35, Value: "35% of the window", Fold: "Fold"}, Render(m).Drawer, "the default")
	keys := []struct {
		key  string
		want Drawer
	}{
		{"ArrowUp", Drawer{Height: 40}}, {"ArrowDown", Drawer{Height: 35}}, {"End", Drawer{Height: 70}}, {"ArrowUp", Drawer{Height: 70}},
		{"Home", Drawer{Height: 15}}, {"ArrowDown", Drawer{Height: 15}}, {"Enter", Drawer{Height: 15, Folded: true}},
		{"Enter", Drawer{Height: 15}}, {"Enter", Drawer{Height: 15, Folded: true}}, {"ArrowUp", Drawer{Height: 20}},
	}
	for _, k := range keys {
		msg, ok := HandleKey(k.key, m.Drawer)
		require.True(t, ok, k.key)
		m = Update(m, msg)
		assert.Equal(t, k.want, m.Drawer, k.key)
	}
	_, ok := HandleKey("a", m.Drawer)
	assert.False(t, ok)

	assert.Equal(t, Drawer{Height: 70}, Update(m, DrawerMsg{Drawer: Drawer{Height: 95}}).Drawer, "a drag past the top")
	folded := Update(m, DrawerMsg{Drawer: Drawer{Height: 20, Folded: true}})
	assert.Equal(t, DrawerView{Height: 20, Folded: true, Value: "folded", Fold: "Unfold"}, Render(folded).Drawer)
	for _, d := range []Drawer{{Height: 20}, {Height: 45, Folded: true}} {
		assert.Equal(t, d, ReadDrawer(d.String()), d.String())
	}
	for _, bad := range []string{"", "x", "5", "90", "40 open", "40folded"} {
		assert.Equal(t, Drawer{}, ReadDrawer(bad), bad)
	}
	assert.Equal(t, Drawer{Height: 20, Folded: true}, Update(folded, ResetMsg{}).Drawer, "a setting of the device, not of the session")
}
