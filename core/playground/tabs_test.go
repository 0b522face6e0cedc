package playground

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/cluster"
	"daemonlab/core/shell"
)

func sandbox(t *testing.T) Model {
	m, err := NewModel(lib)
	require.NoError(t, err)
	return m
}

// lastLines are the terminal's last n lines' texts.
func lastLines(m Model, n int) []string {
	var out []string
	for _, l := range m.Terminal.Lines {
		if !l.Note { // the page's explanation (see explain), no part of what commands print
			out = append(out, l.Text)
		}
	}
	return out[max(0, len(out)-n):]
}

// TestVimOpensAFileInATab: `vim FILE` (vi, nano, emacs) typed on the page opens the file in a
// tab showing what the workspace has; typing in it writes the file, so cat shows the tab.
func TestVimOpensAFileInATab(t *testing.T) {
	for _, editor := range []string{"vim", "vi", "nano", "emacs"} {
		m := sandbox(t)
		m = Update(m, RunMsg{Line: editor + " daemonset.yaml"})
		assert.Equal(t, []string{"daemonset.yaml"}, m.Tabs, editor)
		v := Render(m)
		data, err := m.Sim.C.ReadFile("daemonset.yaml")
		require.NoError(t, err)
		assert.Equal(t, data, v.Editor, "the tab shows the file")
		require.Len(t, v.Tabs, 2)
		assert.True(t, v.Tabs[1].Active)
		assert.Equal(t, "daemonset.yaml", v.Tabs[1].Title)
		assert.Equal(t, "$ "+editor+" daemonset.yaml", m.Terminal.Lines[len(m.Terminal.Lines)-1].Text, "echoed, nothing printed")

		changed := strings.Replace(data, "fluentd:v2.5.1", "fluentd:v2.5.2", 1)
		m = Update(m, WriteMsg{File: "daemonset.yaml", Text: changed})
		assert.Equal(t, changed, shell.Run(m.Sim, "cat daemonset.yaml", "").Out, "cat shows what the tab shows")
	}
}

// TestVimOfANewFileCreatesItWhenTyped: a file that does not exist opens empty and is created
// by the first edit; a directory or a path outside the workspace is refused as vim's error.
func TestVimOfANewFileCreatesItWhenTyped(t *testing.T) {
	m := sandbox(t)
	m = Update(m, RunMsg{Line: "vim new.yaml"})
	assert.Equal(t, "", Render(m).Editor)
	_, err := m.Sim.C.ReadFile("new.yaml")
	assert.Error(t, err, "not created until written")
	assert.Equal(t, 0, m.History.Pos)
	m = Update(m, WriteMsg{File: "new.yaml", Text: "a"})
	m = Update(m, WriteMsg{File: "new.yaml", Text: "ab"})
	assert.Equal(t, "ab", shell.Run(m.Sim, "cat new.yaml", "").Out)
	assert.Equal(t, 1, m.History.Pos, "one run of typing is one step")

	m = Update(m, RunMsg{Line: "mkdir d"})
	m = Update(m, RunMsg{Line: "vim d /etc/passwd"})
	assert.Equal(t, []string{
		"vim: d: Is a directory",
		"vim: /etc/passwd: Permission denied (DaemonLab's files live in /root, the directory you are in)",
	}, strings.Split(lastLines(m, 1)[0], "\n"))
	assert.Equal(t, []string{"new.yaml"}, m.Tabs)
}

// TestTabsCloseAndAreBounded: × closes a tab (the one before it opens), and at most maxTabs
// files are open, with a notice.
func TestTabsCloseAndAreBounded(t *testing.T) {
	m := sandbox(t)
	m = Update(m, RunMsg{Line: "vim daemonset.yaml pod-burstable.yaml"})
	assert.Equal(t, "pod-burstable.yaml", m.Open)
	m = Update(m, CloseTabMsg{File: "pod-burstable.yaml"})
	assert.Equal(t, []string{"daemonset.yaml"}, m.Tabs)
	assert.Equal(t, "daemonset.yaml", m.Open)
	m = Update(m, TabMsg{})
	assert.Equal(t, m.Editor, Render(m).Editor, "the manifest's tab")

	for i := range maxTabs + 1 {
		m = Update(m, RunMsg{Line: "vim f" + strings.Repeat("x", i)})
	}
	assert.Len(t, m.Tabs, maxTabs)
	assert.Equal(t, "tabs.full", m.Notice)
	assert.Contains(t, Render(m).Notice, "At most 20 files")
}

// TestApplyOfAFileTabIsKubectlApplyOfTheFile: Apply on a file's tab writes it and runs
// `kubectl apply -f FILE`, echoed and in the history as if typed.
func TestApplyOfAFileTabIsKubectlApplyOfTheFile(t *testing.T) {
	m := sandbox(t)
	m = Update(m, RunMsg{Line: "vim daemonset.yaml"})
	text := Render(m).Editor
	m = Update(m, ApplyMsg{Text: text})
	assert.Equal(t, "kubectl apply -f daemonset.yaml", m.Terminal.History[len(m.Terminal.History)-1])
	lines := lastLines(m, 2)
	assert.Equal(t, "$ kubectl apply -f daemonset.yaml", lines[0])
	assert.Regexp(t, `^daemonset\.apps/fluentd-elasticsearch (created|configured|unchanged)$`, lines[1])
	assert.NotNil(t, m.Sim.C.Get("DaemonSet", cluster.Key{Namespace: "kube-system", Name: "fluentd-elasticsearch"}))
}

// TestUndoAndShareLinksKeepATabsText: a tab's text is the workspace's file, so undo takes a run
// of typing back, redo brings it again, and a share link or a saved session keeps the tabs and
// the text.
func TestUndoAndShareLinksKeepATabsText(t *testing.T) {
	m := sandbox(t)
	m = Update(m, RunMsg{Line: "vim daemonset.yaml"})
	original := Render(m).Editor
	m = Update(m, WriteMsg{File: "daemonset.yaml", Text: original + "# one\n"})
	m = Update(m, WriteMsg{File: "daemonset.yaml", Text: original + "# one\n# two\n"})
	m = Update(m, RunMsg{Line: "sim advance 10s"})
	m = Update(m, WriteMsg{File: "daemonset.yaml", Text: original + "# three\n"})
	assert.Equal(t, 3, m.History.Pos)

	shared, err := LoadShared(lib, ShareFragment(m))
	require.NoError(t, err)
	assert.Equal(t, []string{"daemonset.yaml"}, shared.Tabs)
	assert.Equal(t, original+"# three\n", Render(shared).Editor, "the share link keeps the tab and its text")

	m = Update(m, UndoMsg{})
	assert.Equal(t, original+"# one\n# two\n", Render(m).Editor, "undo: back before the last run of typing")
	m = Update(m, SeekMsg{Pos: 0})
	assert.Equal(t, original, Render(m).Editor)
	m = Update(m, RedoMsg{})
	assert.Equal(t, original+"# one\n# two\n", Render(m).Editor)
}

// TestKubectlEditOnThePage: `kubectl edit` opens the object in the edit's tab; Save applies
// it ("edited", a step of the history that undo takes back and a share link replays), an
// invalid edit reopens with kubectl's errors on top and the learner's text kept, and closing
// the tab cancels (k8s.io/kubectl pkg/cmd/util/editor/editoptions.go EditOptions.Run).
func TestKubectlEditOnThePage(t *testing.T) {
	m := sandbox(t)
	m = Update(m, RunMsg{Line: "vim daemonset.yaml"})
	m = Update(m, ApplyMsg{Text: Render(m).Editor})
	m = Update(m, RunMsg{Line: "kubectl edit ds/fluentd-elasticsearch -n kube-system"})
	require.NotNil(t, m.Edit, lastLines(m, 2))
	v := Render(m)
	assert.True(t, v.Editing)
	assert.Equal(t, "edit: daemonset/fluentd-elasticsearch", v.Tabs[len(v.Tabs)-1].Title)
	assert.True(t, strings.HasPrefix(v.Editor, "# Please edit the object below."))

	// invalid: reopened, the error on top, the text kept
	bad := strings.Replace(v.Editor, "    k8s-app: fluentd-logging\n", "    k8s-app: -bad-\n", 1)
	require.NotEqual(t, v.Editor, bad)
	m = Update(m, EditMsg{Text: bad})
	m = Update(m, SaveMsg{Text: bad})
	require.NotNil(t, m.Edit, "reopened")
	assert.Equal(t, `error: daemonsets.apps "fluentd-elasticsearch" is invalid`, lastLines(m, 1)[0])
	assert.Contains(t, Render(m).Editor, "#\n# daemonsets.apps \"fluentd-elasticsearch\" was not valid:\n# * metadata.labels: Invalid value: \"-bad-\"")
	assert.Contains(t, Render(m).Editor, "k8s-app: -bad-\n")
	pos := m.History.Pos

	// fixed and changed: edited
	good := strings.Replace(strings.Replace(Render(m).Editor, "k8s-app: -bad-", "k8s-app: fluentd-logging", 1), "image: docker.io/library/fluentd:v2.5.1", "image: docker.io/library/fluentd:v2.5.2", 1)
	m = Update(m, SaveMsg{Text: good})
	assert.Nil(t, m.Edit)
	assert.False(t, Render(m).Editing)
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch edited", lastLines(m, 1)[0])
	assert.Equal(t, pos+1, m.History.Pos, "a step")
	image := func(m Model) string {
		return shell.Run(m.Sim, "kubectl get ds fluentd-elasticsearch -n kube-system -o jsonpath={.spec.template.spec.containers[0].image}", "").Out
	}
	assert.Equal(t, "docker.io/library/fluentd:v2.5.2", image(m))

	shared, err := LoadShared(lib, ShareFragment(m))
	require.NoError(t, err)
	assert.Equal(t, "docker.io/library/fluentd:v2.5.2", image(shared), "replayed")
	m = Update(m, UndoMsg{})
	assert.Equal(t, "docker.io/library/fluentd:v2.5.1", image(m), "undone")

	// closed without saving: cancelled
	m = Update(m, RunMsg{Line: "k edit ds fluentd-elasticsearch -n kube-system"})
	require.NotNil(t, m.Edit)
	m = Update(m, CloseTabMsg{Edit: true})
	assert.Nil(t, m.Edit)
	assert.Equal(t, "Edit cancelled, no changes made.", lastLines(m, 1)[0])

	// help is kubectl's
	m = Update(m, RunMsg{Line: "kubectl edit --help"})
	assert.Nil(t, m.Edit)
	assert.True(t, strings.HasPrefix(lastLines(m, 1)[0], "Edit a resource from the default editor."))

	// an edit open in a session is kept by a share link
	m = Update(m, RunMsg{Line: "kubectl edit ds/fluentd-elasticsearch -n kube-system"})
	shared, err = LoadShared(lib, ShareFragment(m))
	require.NoError(t, err)
	require.NotNil(t, shared.Edit)
	assert.Equal(t, Render(m).Editor, Render(shared).Editor)
}
