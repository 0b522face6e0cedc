package kubectl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const twoPods = "apiVersion: v1\nkind: List\nitems:\n" +
	"- {apiVersion: v1, kind: Pod, metadata: {name: a}, spec: {containers: [{name: c, image: nginx}]}}\n" +
	"- {apiVersion: v1, kind: Pod, metadata: {name: b}, spec: {containers: [{name: c, image: nginx}]}}\n"

// TestFilenameReadsLists: apply, create and delete -f take a List's objects one by one, as the
// resource builder's Flatten gives them (k8s.io/cli-runtime pkg/resource/visitor.go
// FlattenListVisitor); a bad item is reported after the others are sent (apply.go Run, the
// builder's ContinueOnError); delete -f of an empty List finds nothing (delete.go
// DeleteResult).
func TestFilenameReadsLists(t *testing.T) {
	badItem := strings.Replace(twoPods, "kind: Pod, metadata: {name: b}", "kind: Podd, metadata: {name: b}", 1)
	cases := []struct {
		name     string
		before   []string // a command run first, with twoPods as its input
		args     []string
		stdin    string
		out, err string
		pods     []string
		exitsOne bool
	}{
		{"apply a List", nil, []string{"apply", "-f", "-"}, twoPods, "pod/a created\npod/b created\n", "", []string{"a", "b"}, false},
		{"create a List", nil, []string{"create", "-f", "-"}, twoPods, "pod/a created\npod/b created\n", "", []string{"a", "b"}, false},
		{"apply a List with a bad item", nil, []string{"apply", "-f", "-"}, badItem, "pod/a created\n",
			`error: unable to recognize no matches for kind "Podd" in version "v1"`, []string{"a"}, true},
		{"delete -f a List", []string{"apply", "-f", "-"}, []string{"delete", "-f", "-", "--grace-period=0", "--force"}, twoPods,
			"pod \"a\" force deleted from default namespace\npod \"b\" force deleted from default namespace\n",
			"Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.", nil, false},
		{"delete -f a List with a bad item", []string{"apply", "-f", "-"}, []string{"delete", "-f", "-", "--grace-period=0", "--force"}, badItem,
			"pod \"a\" force deleted from default namespace\n",
			"Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\nerror: unable to recognize no matches for kind \"Podd\" in version \"v1\"", []string{"b"}, true},
		{"delete -f an empty List", nil, []string{"delete", "-f", "-"}, "apiVersion: v1\nkind: List\nitems: []\n", "No resources found\n", "", nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t)
			if tc.before != nil {
				require.Empty(t, run(s, tc.before, twoPods).Err)
			}
			r := run(s, tc.args, tc.stdin)
			assert.Equal(t, tc.out, r.Out)
			assert.Equal(t, tc.err, r.Err)
			assert.Equal(t, tc.exitsOne, r.Code == 1)
			var pods []string
			for _, p := range s.C.Pods() {
				if p.DeletionTimestamp == nil {
					pods = append(pods, p.Name)
				}
			}
			assert.Equal(t, tc.pods, pods)
		})
	}
}

// TestApplyWarnsWithoutLastApplied: applying to an object kubectl apply did not create prints
// kubectl's warning on standard error before the object's line (apply.go applyOneObject,
// warningNoLastAppliedConfigAnnotation, info.ObjectName()); the annotation is then kept, so the
// next apply does not warn.
func TestApplyWarnsWithoutLastApplied(t *testing.T) {
	const warning = "Warning: resource deployments/web is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically."
	s := newSim(t)
	require.Empty(t, run(s, []string{"create", "deployment", "web", "--image=nginx:1.27"}, "").Err)
	list := run(s, []string{"get", "deploy", "-o", "yaml"}, "")
	require.Contains(t, list.Out, "kind: List")
	r := run(s, []string{"apply", "-f", "-"}, list.Out)
	assert.Equal(t, warning, r.Err)
	assert.Equal(t, "deployment.apps/web configured\n", r.Out)
	assert.Equal(t, []Piece{{warning + "\n", true}, {"deployment.apps/web configured\n", false}}, r.Pieces())
	assert.Zero(t, r.Code)
	again := run(s, []string{"apply", "-f", "-"}, run(s, []string{"get", "deploy", "-o", "yaml"}, "").Out)
	assert.Empty(t, again.Err)
	// the last-applied configuration holds the resourceVersion read, so it changes every time
	// (util.GetModifiedConfiguration keeps the whole object)
	assert.Equal(t, "deployment.apps/web configured\n", again.Out)
}

// TestApplyStaleResourceVersionConflicts: a saved `kubectl get -o yaml` carries the
// resourceVersion read; once the object changed, the patch kubectl computes sets that old
// resourceVersion and the registry's optimistic lock refuses it (generic/registry/store.go
// Update, OptimisticLockErrorMsg), worded by the patcher and then by apply
// (cmd/apply/patcher.go Patch, apply.go applyOneObject: AddSourceToErr twice).
func TestApplyStaleResourceVersionConflicts(t *testing.T) {
	s := newSim(t)
	require.Empty(t, run(s, []string{"apply", "-f", "-"}, twoPods).Err)
	saved := run(s, []string{"get", "pod", "a", "-o", "yaml"}, "").Out
	rv := s.C.Pods()[0].ResourceVersion
	require.Empty(t, run(s, []string{"label", "pod", "a", "tier=web"}, "").Err)
	r := run(s, []string{"apply", "-f", "-"}, saved)
	require.Equal(t, 1, r.Code)
	assert.True(t, strings.HasPrefix(r.Err, "Error from server (Conflict): error when applying patch:\n{"), r.Err)
	assert.Contains(t, r.Err, `"resourceVersion":"`+rv+`"`)
	assert.True(t, strings.HasSuffix(r.Err, "}\nto:\nResource: \"/v1, Resource=pods\", GroupVersionKind: \"/v1, Kind=Pod\"\nName: \"a\", Namespace: \"default\"\n"+
		"for: \"STDIN\": error when patching \"STDIN\": Operation cannot be fulfilled on pods \"a\": the object has been modified; please apply your changes to the latest version and try again"), r.Err)
	assert.Equal(t, "web", s.C.Pods()[0].Labels["tier"], "the refused patch changed nothing")
	fresh := run(s, []string{"get", "pod", "a", "-o", "yaml"}, "").Out
	assert.Equal(t, "pod/a configured\n", run(s, []string{"apply", "-f", "-"}, fresh).Out)
}
