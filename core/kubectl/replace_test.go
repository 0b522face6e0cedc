package kubectl

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/cluster"
)

// TestForceReplaceRecreatesWhatGetSaved pins `kubectl replace --force -f FILE` of a saved
// `kubectl get -o yaml`: the object is deleted, waited for, then created again. The saved file
// carries the stored resourceVersion, which the API server refuses on a create; kubectl clears
// it first (k8s.io/kubectl pkg/cmd/replace/replace.go forceReplace creates through cli-runtime
// pkg/resource/helper.go Helper.Create with modify, and CreateWithOptions then sets the
// resourceVersion to ""), so the object comes back, with a new uid, instead of being lost.
func TestForceReplaceRecreatesWhatGetSaved(t *testing.T) {
	const service = "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n"
	for _, tc := range []struct {
		name   string
		create []string // the command that makes the object, or apply of stdin
		stdin  string
		kind   string
		object string
		want   string
	}{
		{"a running pod", []string{"run", "cache", "--image=nginx"}, "", "Pod", "pod/cache",
			"pod \"cache\" deleted from default namespace\npod/cache replaced\n"},
		{"a deployment", []string{"create", "deployment", "web", "--image=nginx"}, "", "Deployment", "deployment/web",
			"deployment.apps \"web\" deleted from default namespace\ndeployment.apps/web replaced\n"},
		{"a service, its cluster IP free again once it is deleted", []string{"apply", "-f", "-"}, service, "Service", "service/web",
			"service \"web\" deleted from default namespace\nservice/web replaced\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t)
			require.Zero(t, run(s, tc.create, tc.stdin).Code)
			s.Advance(10 * time.Second)
			saved := run(s, []string{"get", tc.object, "-o", "yaml"}, "")
			require.Zero(t, saved.Code)
			require.Contains(t, saved.Out, "\n  resourceVersion: ")
			key := cluster.Key{Namespace: "default", Name: strings.Split(tc.object, "/")[1]}
			uid := s.C.Get(tc.kind, key).GetObjectMeta().UID

			r := run(s, []string{"replace", "--force", "-f", "-"}, saved.Out)
			assert.Equal(t, tc.want, r.Out)
			assert.Empty(t, r.Err)
			assert.Zero(t, r.Code)
			again := s.C.Get(tc.kind, key)
			require.NotNil(t, again, "the object is not lost")
			assert.NotEqual(t, uid, again.GetObjectMeta().UID)
		})
	}
}

// TestForceReplaceGoesOnAfterARefusal: the builder of forceReplace continues on error
// (k8s.io/kubectl pkg/cmd/replace/replace.go, ContinueOnError), so a refused create does not
// keep the objects after it from being created again; the refusals are printed as checkErr
// prints an aggregate, one a line (pkg/cmd/util/helpers.go MultipleErrors).
func TestForceReplaceGoesOnAfterARefusal(t *testing.T) {
	pod := func(name, restartPolicy string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec:\n  restartPolicy: " + restartPolicy + "\n  containers: [{name: c, image: nginx}]\n"
	}
	const unsupported = `spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`
	for _, tc := range []struct {
		name     string
		manifest string
		wantOut  string
		wantErr  string
	}{
		{"one refused", pod("a", "Never") + "---\n" + pod("b", "Sometimes"),
			"pod \"a\" deleted from default namespace\npod \"b\" deleted from default namespace\npod/a replaced\n",
			`The Pod "b" is invalid: ` + unsupported},
		{"several refused", pod("b", "Never") + "---\n" + pod("a", "Sometimes") + "---\n" + pod("c", "Sometimes"),
			"pod \"b\" deleted from default namespace\npod \"a\" deleted from default namespace\npod \"c\" deleted from default namespace\npod/b replaced\n",
			`Error from server (Invalid): Pod "a" is invalid: ` + unsupported + "\n" +
				`Error from server (Invalid): Pod "c" is invalid: ` + unsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t)
			for _, name := range []string{"a", "b", "c"} {
				require.Zero(t, run(s, []string{"run", name, "--image=nginx"}, "").Code)
			}
			r := run(s, []string{"replace", "--force", "-f", "-"}, tc.manifest)
			assert.Equal(t, tc.wantOut, r.Out)
			assert.Equal(t, tc.wantErr, r.Err)
			assert.Equal(t, 1, r.Code)
		})
	}
}
