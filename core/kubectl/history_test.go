//go:build !(js && wasm)

// kubectl's history viewers import its describers, which need a terminal package that does
// not build for js/wasm; this differential test runs natively only.

package kubectl_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubectl/pkg/polymorphichelpers"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
)

// upstreamViewer is kubectl's history viewer for a Deployment or DaemonSet
// (polymorphichelpers.HistoryViewerFor) on a fake API server holding the object, every
// ReplicaSet and every ControllerRevision, with the object as kubectl fetched it.
func upstreamViewer(t *testing.T, s *sim.Sim, obj api.Object) (polymorphichelpers.HistoryViewer, runtime.Object) {
	zero := &shifter{back: map[string]string{}}
	var objs []runtime.Object
	for _, rs := range cluster.List[*api.ReplicaSet](s.C) {
		objs = append(objs, typed(t, zero, rs, &appsv1.ReplicaSet{}))
	}
	for _, cr := range cluster.List[*api.ControllerRevision](s.C) {
		objs = append(objs, typed(t, zero, cr, &appsv1.ControllerRevision{}))
	}
	var fetched runtime.Object
	gk := schema.GroupKind{Group: "apps", Kind: "DaemonSet"}
	if _, ok := obj.(*api.Deployment); ok {
		gk.Kind, fetched = "Deployment", typed(t, zero, obj, &appsv1.Deployment{})
	} else {
		fetched = typed(t, zero, obj, &appsv1.DaemonSet{})
	}
	fetched.GetObjectKind().SetGroupVersionKind(gk.WithVersion("v1"))
	viewer, err := polymorphichelpers.HistoryViewerFor(gk, fake.NewClientset(append(objs, fetched)...))
	require.NoError(t, err)
	return viewer, fetched
}

// upstreamHistory is what kubectl rollout history prints (RolloutHistoryOptions.Run,
// pkg/cmd/rollout/rollout_history.go): the viewer's text behind the object's name, printed
// with "with revision #N" or nothing; or the viewer's error.
func upstreamHistory(t *testing.T, viewer polymorphichelpers.HistoryViewer, fetched runtime.Object, revision int64) (string, error) {
	meta := fetched.(interface {
		GetNamespace() string
		GetName() string
	})
	text, err := viewer.ViewHistory(meta.GetNamespace(), meta.GetName(), revision)
	if err != nil {
		return "", err
	}
	withRevision := ""
	if revision > 0 {
		withRevision = fmt.Sprintf("with revision #%d", revision)
	}
	var out strings.Builder
	require.NoError(t, (&printers.NamePrinter{Operation: fmt.Sprintf("%s\n%s", withRevision, text)}).PrintObj(fetched, &out))
	return out.String(), nil
}

// TestRolloutHistoryIsKubectlsHistoryViewer plays every scenario and, for every Deployment
// and DaemonSet it leaves, compares `kubectl rollout history` with kubectl's own history
// viewers (k8s.io/kubectl/pkg/polymorphichelpers/history.go: DeploymentHistoryViewer,
// DaemonSetHistoryViewer, printTemplate, tabbedString), on a fake API server holding the same
// objects: the listing, each revision's --revision=N, and a revision that is not there.
func TestRolloutHistoryIsKubectlsHistoryViewer(t *testing.T) {
	forEachScenario(t, func(t *testing.T, s *sim.Sim) {
		var objs []api.Object
		for _, d := range cluster.List[*api.Deployment](s.C) {
			objs = append(objs, d)
		}
		for _, ds := range cluster.List[*api.DaemonSet](s.C) {
			objs = append(objs, ds)
		}
		for _, obj := range objs {
			meta := obj.GetObjectMeta()
			viewer, fetched := upstreamViewer(t, s, obj)
			ref := strings.ToLower(fetched.GetObjectKind().GroupVersionKind().Kind) + "/" + meta.Name
			history, err := viewer.GetHistory(meta.Namespace, meta.Name)
			require.NoError(t, err)
			var revisions []int64
			for n := range history {
				revisions = append(revisions, n)
			}
			slices.Sort(revisions)
			next := int64(1)
			if len(revisions) > 0 {
				next = revisions[len(revisions)-1] + 1
			}
			for _, n := range append([]int64{0, next}, revisions...) {
				if n == 0 && len(revisions) > 0 && revisions[0] == 0 {
					continue // revision 0 is the listing
				}
				args := []string{"rollout", "history", ref, "-n", meta.Namespace, fmt.Sprintf("--revision=%d", n)}
				got := kubectl.Run(s, args, "")
				want, err := upstreamHistory(t, viewer, fetched, n)
				if err != nil {
					assert.Equal(t, "error: "+err.Error(), got.Err, "%v", args)
					continue
				}
				require.Empty(t, got.Err, "%v", args)
				assert.Equal(t, want, got.Out, "%v", args)
			}
		}
	})
}
