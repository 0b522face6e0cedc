package playground

import (
	"fmt"
	"slices"
	"strings"

	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/shell"
)

// The editor's tabs. The first is the manifest (Model.Editor: the page's scratch manifest, or a
// lesson's), applied as `kubectl apply -f -`; after it come the workspace's files the learner
// opened (`vim FILE`, as vi, nano or emacs), and the `kubectl edit` under way, if one is:
//
//  1. A file's tab shows the file as the workspace has it, and typing in it writes the file
//     (a history step; the writes of one typing run, with nothing else in between, are one
//     step), so that `cat FILE` shows what the tab shows, and undo, redo, share links and saved
//     sessions keep the text as they keep the workspace. A file that does not exist opens
//     empty and is created by the first edit, as vim creates it when it writes.
//  2. Apply on a file's tab runs `kubectl apply -f FILE`, echoed in the terminal as if typed.
//  3. The edit's tab shows the text kubectl edit writes (kubectl.BeginEdit); Save finishes it
//     (kubectl.Edit.Save: the terminal shows what kubectl prints, and an invalid edit reopens
//     with its errors on top), closing it is "Edit cancelled, no changes made.".
//  4. At most maxTabs files are open at once; the workspace's own bounds (cluster.MaxFiles,
//     cluster.MaxFileSize) refuse a write past them, in the terminal, as the shell words it.

// maxTabs bounds the files open in tabs.
const maxTabs = 20

// TabMsg shows a tab: a file's (File, its workspace name), the edit's (Edit), or the
// manifest's (neither).
type TabMsg struct {
	File string
	Edit bool
}

// CloseTabMsg closes a file's tab, or the edit's (cancelling the edit).
type CloseTabMsg struct {
	File string
	Edit bool
}

// SaveMsg saves the open tab with the editor's text: the edit's tab finishes the edit; a file's
// writes the file (typing did already, so this is for the learner's habit of Ctrl-S).
type SaveMsg struct{ Text string }

// EditStep is a saved `kubectl edit`: the edit as it stood before the save, and the text
// saved. Replayed at its place in the history it gives the same result (kubectl.Edit.Save is
// a function of the edit, the text and the cluster).
type EditStep struct {
	Edit kubectl.Edit `json:"edit"`
	Text string       `json:"text"`
}

// TabView is one tab as the page draws it.
type TabView struct {
	Title  string
	File   string // the workspace name, for a file's tab
	Edit   bool   // the edit's tab
	Active bool
	Close  string // the close button's label; "" for the manifest, which stays
}

func (TabMsg) during() during { return keepTick }
func (msg TabMsg) update(m Model) Model {
	switch {
	case msg.Edit && m.Edit != nil:
		m.Editing = true
	case msg.File == "" && !msg.Edit:
		m.Editing, m.Open = false, ""
	case slices.Contains(m.Tabs, msg.File):
		m.Editing, m.Open = false, msg.File
	}
	return m
}

func (CloseTabMsg) during() during { return finishTick }
func (msg CloseTabMsg) update(m Model) Model {
	switch {
	case msg.Edit && m.Edit != nil:
		m.Terminal.show(m.Edit.Cancel())
		m.Edit, m.Editing = nil, false
	case slices.Contains(m.Tabs, msg.File):
		i := slices.Index(m.Tabs, msg.File)
		m.Tabs = slices.Delete(slices.Clone(m.Tabs), i, i+1)
		if m.Open == msg.File {
			m.Open = ""
			if len(m.Tabs) > 0 {
				m.Open = m.Tabs[max(0, i-1)]
			}
		}
	}
	return m
}

func (WriteMsg) during() during { return finishTick }
func (msg WriteMsg) update(m Model) Model {
	if slices.Contains(m.Tabs, msg.File) {
		m.writeFile(msg.File, msg.Text)
	}
	return m
}

func (SaveMsg) during() during { return finishTick }
func (msg SaveMsg) update(m Model) Model {
	switch {
	case m.Editing && m.Edit != nil:
		m.saveEdit(msg.Text)
	case m.Open != "":
		m.writeTab(msg.Text)
	default:
		m.Editor = msg.Text
	}
	return m
}

// saveEdit finishes the edit with text (see kubectl.Edit.Save); a save that changed the cluster
// is a step of the history, explained after what kubectl printed (see explain).
func (m *Model) saveEdit(text string) {
	st := Step{Edit: &EditStep{Edit: *m.Edit, Text: text}}
	e := *m.Edit
	before, kept := m.Sim.C.Writes(), workloadsOf(m.Sim.C)
	r, done := shell.SaveEdit(m.Sim, &e, text)
	var notes []string
	if m.Sim.C.Writes() != before {
		m.History.record(m.Sim.C, st, false)
		notes = explain(m.Lang, m.Sim.C, kept, nil)
	}
	m.Terminal.show(r)
	m.Terminal.explain(notes)
	if done {
		m.Edit, m.Editing = nil, false
		return
	}
	m.Edit = &e
}

// writeTab writes the open file's tab (see writeFile).
func (m *Model) writeTab(text string) { m.writeFile(m.Open, text) }

// writeFile writes a file's tab: a step of the history when the text changed, joined to the
// step before when that wrote the same file (see record).
func (m *Model) writeFile(name, text string) {
	if data, err := m.Sim.C.ReadFile(name); err == nil && data == text {
		return
	}
	st := Step{File: name, Text: text}
	before := m.Sim.C.Writes()
	r := st.do(m.Sim)
	if m.Sim.C.Writes() != before {
		m.History.record(m.Sim.C, st, true)
	}
	if r.Err != "" {
		m.Terminal.show(r)
	}
}

// openEditor opens what a command line asks an editor for, if it does (ok): `vim FILE…` (vi,
// nano, emacs) opens each file in a tab, `kubectl edit …` (k edit) the objects in the edit's
// tab. A line that is not one of those, has a pipe, or asks for help, is the shell's.
func (m *Model) openEditor(line string) (ok bool) {
	cmds, err := shell.Pipeline(line)
	if err != nil || len(cmds) != 1 || len(cmds[0]) < 2 {
		return false
	}
	words := cmds[0]
	switch {
	case shell.IsEditor(words[0]):
		m.openFiles(words)
		return true
	case (words[0] == "kubectl" || words[0] == "k") && words[1] == "edit" && !slices.ContainsFunc(words, isHelpFlag):
		if m.Edit != nil {
			m.Terminal.show(kubectl.Result{Err: fmt.Sprintf("error: %q is open in the editor: save it or close its tab first", m.Edit.Title()), Code: 1})
			m.Editing = true
			return true
		}
		e, bad := kubectl.BeginEdit(m.Sim, words[2:])
		if bad != nil {
			m.Terminal.show(*bad)
			return true
		}
		m.Edit, m.Editing = e, true
		return true
	}
	return false
}

// isHelpFlag is -h or --help: `kubectl edit --help` is the shell's, kubectl's help.
func isHelpFlag(w string) bool { return w == "-h" || w == "--help" }

// openFiles opens the files an editor's command line names (options left out), as the editor
// would: a directory or a path outside the workspace is refused, as the workspace words it.
func (m *Model) openFiles(words []string) {
	var errs []string
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+") {
			continue
		}
		name, err := cluster.CleanPath(w)
		if err == nil && name == "" {
			err = cluster.ErrIsDir
		}
		if err == nil {
			if f, serr := m.Sim.C.Stat(w); serr == nil && f.Dir {
				err = cluster.ErrIsDir
			} else if serr != nil && serr != cluster.ErrNotExist {
				err = serr
			}
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %s: %s", words[0], w, err))
			continue
		}
		if !slices.Contains(m.Tabs, name) {
			if len(m.Tabs) >= maxTabs {
				m.Notice, m.NoticeArg = "tabs.full", fmt.Sprint(maxTabs)
				break
			}
			m.Tabs = append(slices.Clone(m.Tabs), name)
		}
		m.Open, m.Editing = name, false
	}
	if len(errs) > 0 {
		m.Terminal.show(kubectl.Result{Err: strings.Join(errs, "\n"), Code: 1})
	}
}

// tabText is the open tab's text.
func (m Model) tabText() string {
	switch {
	case m.Editing && m.Edit != nil:
		return m.Edit.Text
	case m.Open != "":
		data, _ := m.Sim.C.ReadFile(m.Open) // a file not written yet is empty
		return data
	}
	return m.Editor
}

// tabViews are the tabs as the page draws them.
func (m Model) tabViews() []TabView {
	l := m.Lang
	tabs := []TabView{{Title: T(l, "editor.label"), Active: !m.Editing && m.Open == ""}}
	for _, f := range m.Tabs {
		tabs = append(tabs, TabView{Title: f, File: f, Active: !m.Editing && m.Open == f, Close: T(l, "tab.close", f)})
	}
	if m.Edit != nil {
		tabs = append(tabs, TabView{Title: m.Edit.Title(), Edit: true, Active: m.Editing, Close: T(l, "tab.close", m.Edit.Title())})
	}
	return tabs
}
