package kubectl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/sim"
)

const editDaemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  namespace: kube-system
  labels: {app: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: "agent:1"}]
`

// editing opens `kubectl edit ds/agent -n kube-system` on a cluster running the DaemonSet.
func editing(t *testing.T) (*sim.Sim, *Edit) {
	s := newSim(t)
	require.Zero(t, applied(s, []byte(editDaemonSet), "STDIN", "default").Code)
	e, bad := BeginEdit(s, []string{"ds/agent", "-n", "kube-system"})
	require.Nil(t, bad)
	return s, e
}

// TestEditShowsTheHeaderAndTheObjectAsGetPrintsIt pins the file kubectl edit writes
// (editoptions.go EditOptions.Run: editHeader.writeTo, then the object as -o yaml prints it).
func TestEditShowsTheHeaderAndTheObjectAsGetPrintsIt(t *testing.T) {
	s, e := editing(t)
	got := Run(s, []string{"get", "ds", "agent", "-n", "kube-system", "-o", "yaml"}, "")
	require.Zero(t, got.Code)
	assert.Equal(t, "# Please edit the object below. Lines beginning with a '#' will be ignored,\n"+
		"# and an empty file will abort the edit. If an error occurs while saving this file will be\n"+
		"# reopened with the relevant failures.\n#\n"+got.Out, e.Text)
	assert.Equal(t, e.Original, e.Text)
	assert.Equal(t, "edit: daemonset/agent", e.Title())
}

// TestEditOfSeveralObjectsIsAList pins editFn's List of every object opened (kind List,
// apiVersion v1, metadata {}).
func TestEditOfSeveralObjectsIsAList(t *testing.T) {
	s, _ := editing(t)
	require.Zero(t, applied(s, []byte(strings.ReplaceAll(editDaemonSet, "name: agent\n", "name: other\n")), "STDIN", "default").Code)
	e, bad := BeginEdit(s, []string{"ds", "-n", "kube-system"})
	require.Nil(t, bad)
	assert.Len(t, e.Objects, 2)
	assert.Contains(t, e.Text, "\nkind: List\nmetadata: {}\n")
	assert.Equal(t, "edit: 2 daemonsets", e.Title())

	// one object changed: the other is "skipped" (visitToPatch)
	edited := strings.Replace(e.Text, "image: agent:1", "image: agent:2", 1)
	r, done := e.Save(s, edited)
	assert.True(t, done)
	assert.Equal(t, "daemonset.apps/agent edited\ndaemonset.apps/other skipped\n", r.Out)
}

// TestEditRefusesWhatItCannotOpen pins the errors before the editor opens.
func TestEditRefusesWhatItCannotOpen(t *testing.T) {
	s := newSim(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ds/nope"}, `Error from server (NotFound): daemonsets.apps "nope" not found`},
		{[]string{"ds"}, "error: edit cancelled, no objects found"}, // editoptions.go Run, NormalEditMode
		{[]string{"frobs", "x"}, `error: the server doesn't have a resource type "frobs"`},
	} {
		_, bad := BeginEdit(s, tc.args)
		require.NotNil(t, bad, tc.args)
		assert.Equal(t, tc.want, bad.Err, tc.args)
		assert.Equal(t, 1, bad.Code)
	}
}

// TestEditSaveOutcomes pins each way a save ends (editoptions.go EditOptions.Run's loop,
// visitToPatch, editResults.addError, editHeader.writeTo).
func TestEditSaveOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(text string) string
		done   bool
		out    string
		err    string
		reopen string // the comment block the text reopens with, after the header
	}{
		{name: "unchanged", edit: func(s string) string { return s }, done: true, err: "Edit cancelled, no changes made."},
		{name: "only comments changed", edit: func(s string) string { return "# mine\n" + strings.Replace(s, "# and an empty", "#", 1) }, done: true, err: "Edit cancelled, no changes made."},
		{name: "empty", edit: func(string) string { return "# nothing\n\n  \n" }, done: true, err: "Edit cancelled, saved file was empty."},
		{name: "edited", edit: func(s string) string { return strings.Replace(s, "image: agent:1", "image: agent:2", 1) }, done: true, out: "daemonset.apps/agent edited\n"},
		{name: "syntax error", edit: func(s string) string { return strings.Replace(s, "  name: agent\n", "  name: agent\n  bad: [\n", 1) },
			reopen: "# The edited file had a syntax error: error parsing edited-file: error converting YAML to JSON: "},
		{name: "invalid", edit: func(s string) string {
			return strings.Replace(s, "    app: agent\n  name", "    app: -bad-\n  name", 1)
		},
			err:    `error: daemonsets.apps "agent" is invalid`,
			reopen: "# daemonsets.apps \"agent\" was not valid:\n# * metadata.labels: Invalid value: \"-bad-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\n#\n"},
		{name: "name changed", edit: func(s string) string { return strings.Replace(s, "  name: agent\n", "  name: agent2\n", 1) },
			err: "error: At least one of apiVersion, kind and name was changed"},
		{name: "kind changed", edit: func(s string) string { return strings.Replace(s, "kind: DaemonSet", "kind: Deployment", 1) },
			err: "error: At least one of apiVersion, kind and name was changed"},
		{name: "namespace changed", edit: func(s string) string { return strings.Replace(s, "namespace: kube-system", "namespace: default", 1) },
			err: `error: the namespace from the provided object "default" does not match the namespace "kube-system". You must pass '--namespace=default' to perform this operation.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, e := editing(t)
			edited := tc.edit(e.Text)
			r, done := e.Save(s, edited)
			assert.Equal(t, tc.done, done)
			assert.Equal(t, tc.out, r.Out)
			if tc.reopen == "" {
				assert.Equal(t, tc.err, r.Err)
			}
			image := s.C.DaemonSets()[0].Spec.Template.Spec.Containers[0].Image
			if tc.name == "edited" {
				assert.Equal(t, "agent:2", image)
			} else {
				assert.Equal(t, "agent:1", image, "nothing changed")
			}
			switch {
			case tc.reopen != "":
				require.False(t, done)
				assert.Equal(t, 1-boolInt(tc.err == ""), r.Code)
				assert.Equal(t, tc.err, r.Err)
				head, body, ok := strings.Cut(e.Text, editHeader)
				require.True(t, ok)
				assert.Empty(t, head)
				assert.True(t, strings.HasPrefix(body, tc.reopen), body)
				assert.Contains(t, e.Text, manualStrip(edited), "the learner's text is kept below")
			case !done:
				assert.Equal(t, edited, e.Text, "the text stays as saved")
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestEditSavingTheSameInvalidTextAgainCancels pins "Edit cancelled, no valid changes were
// saved." (editoptions.go Run: containsError and no change since), and the retry that fixes it.
func TestEditSavingTheSameInvalidTextAgainCancels(t *testing.T) {
	s, e := editing(t)
	bad := strings.Replace(e.Text, "    app: agent\n  name", "    app: -bad-\n  name", 1)
	_, done := e.Save(s, bad)
	require.False(t, done)
	r, done := e.Save(s, e.Text)
	assert.True(t, done)
	assert.Equal(t, "error: Edit cancelled, no valid changes were saved.", r.Err)

	s, e = editing(t)
	_, done = e.Save(s, bad)
	require.False(t, done)
	fixed := strings.Replace(strings.Replace(e.Text, "app: -bad-", "app: good", 1), "image: agent:1", "image: agent:3", 1)
	r, done = e.Save(s, fixed)
	assert.True(t, done)
	assert.Equal(t, "daemonset.apps/agent edited\n", r.Out)
	assert.Equal(t, "good", s.C.DaemonSets()[0].Labels["app"])
}

// TestEditCancel pins the editor closed without saving: the file read back is the one written.
func TestEditCancel(t *testing.T) {
	_, e := editing(t)
	assert.Equal(t, "Edit cancelled, no changes made.", e.Cancel().Err)
}

// TestEditWithoutAnEditorSaysWhatToDoInstead pins the terminal front end's answer.
func TestEditWithoutAnEditorSaysWhatToDoInstead(t *testing.T) {
	s, _ := editing(t)
	r := Run(s, []string{"edit", "ds", "agent", "-n", "kube-system"}, "")
	assert.Equal(t, 1, r.Code)
	assert.Contains(t, r.Err, "kubectl get daemonset agent -n kube-system -o yaml > agent.yaml\n")
	assert.Contains(t, r.Err, "kubectl apply -f agent.yaml\n")
	assert.Equal(t, `Error from server (NotFound): daemonsets.apps "nope" not found`, Run(s, []string{"edit", "ds/nope"}, "").Err)
}
