package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

func namespace(c *cluster.Cluster, t *testing.T) {
	ns := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
	ns.Name = "default"
	_, err := Create(c, ns, Options{})
	require.NoError(t, err)
}

func daemonSet(name string) *api.DaemonSet {
	ds := &api.DaemonSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"}}
	ds.Name, ds.Namespace = name, "default"
	labels := map[string]string{"app": name}
	ds.Spec.Selector = &api.LabelSelector{MatchLabels: labels}
	ds.Spec.Template.Labels = labels
	ds.Spec.Template.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
	return ds
}

// TestCreateFillsWhatTheServerOwns pins BeforeCreate (pkg/registry/rest/create.go): generateName's
// suffix, generation 1 and template generation 1 for a DaemonSet, its status cleared, and a pod
// admitted (priority 0, the 300s tolerations) and Pending with its QoS class.
func TestCreateFillsWhatTheServerOwns(t *testing.T) {
	c := cluster.New(1)
	namespace(c, t)
	ds := daemonSet("")
	ds.GenerateName = "agent-"
	ds.Status.NumberReady = 3
	stored, err := Create(c, ds, Options{})
	require.NoError(t, err)
	m := stored.GetObjectMeta()
	assert.Regexp(t, `^agent-[bcdfghjklmnpqrstvwxz2456789]{5}$`, m.Name)
	assert.Equal(t, int64(1), m.Generation)
	assert.Equal(t, "1", m.Annotations[api.DeprecatedTemplateGeneration])
	assert.Zero(t, stored.(*api.DaemonSet).Status.NumberReady)

	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	pod.Name, pod.Namespace = "web", "default"
	pod.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
	stored, err = Create(c, pod, Options{})
	require.NoError(t, err)
	p := stored.(*api.Pod)
	assert.Equal(t, int32(0), *p.Spec.Priority)
	assert.Len(t, p.Spec.Tolerations, 2)
	assert.Equal(t, api.PodPending, p.Status.Phase)
	assert.Equal(t, "BestEffort", p.Status.QOSClass)
}

// TestCreateRefusesInUpstreamsOrder: NamespaceLifecycle first, then admission (Forbidden),
// then validation (Invalid), then the store (AlreadyExists); a dry run stores nothing.
func TestCreateRefusesInUpstreamsOrder(t *testing.T) {
	c := cluster.New(1)
	pod := func(ns, class string, valid bool) *api.Pod {
		p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
		p.Name, p.Namespace = "web", ns
		p.Spec.PriorityClassName = class
		if valid {
			p.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
		}
		return p
	}
	_, err := Create(c, pod("default", "", true), Options{})
	assert.EqualError(t, err, `namespaces "default" not found`)
	namespace(c, t)
	_, err = Create(c, pod("default", "gold", false), Options{})
	assert.EqualError(t, err, `pods "web" is forbidden: no PriorityClass with name gold was found`)
	var se *StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, ReasonForbidden, se.Reason)
	assert.Equal(t, 403, se.Code)
	_, err = Create(c, pod("default", "", false), Options{})
	require.ErrorAs(t, err, &se)
	assert.Equal(t, ReasonInvalid, se.Reason)
	assert.Equal(t, "Pod", se.Details.Kind)
	assert.NotEmpty(t, se.Details.Causes)
	_, err = Create(c, pod("default", "", true), Options{DryRun: true})
	require.NoError(t, err)
	assert.Nil(t, c.Get("Pod", cluster.Key{Namespace: "default", Name: "web"}), "a dry run stores nothing")
	_, err = Create(c, pod("default", "", true), Options{})
	require.NoError(t, err)
	_, err = Create(c, pod("default", "", true), Options{})
	assert.EqualError(t, err, `pods "web" already exists`)
}

// TestUpdateBumpsTheGenerationOnlyWhenTheSpecChanges pins the workloads' PrepareForUpdate: the
// status stays the stored one, the generation counts spec changes only, the template
// generation counts template changes, and a write that changes nothing is not written.
func TestUpdateBumpsTheGenerationOnlyWhenTheSpecChanges(t *testing.T) {
	c := cluster.New(1)
	namespace(c, t)
	_, err := Create(c, daemonSet("agent"), Options{})
	require.NoError(t, err)
	get := func() *api.DaemonSet {
		return c.Get("DaemonSet", cluster.Key{Namespace: "default", Name: "agent"}).(*api.DaemonSet)
	}
	labelled := api.DeepCopy(get())
	labelled.Labels = map[string]string{"tier": "node"}
	labelled.Status.NumberReady = 7
	stored, err := Update(c, labelled, Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(1), stored.GetObjectMeta().Generation, "metadata is no spec")
	assert.Zero(t, get().Status.NumberReady, "a write of the object keeps the stored status")

	same := api.DeepCopy(get())
	stored, err = Update(c, same, Options{})
	require.NoError(t, err)
	assert.Same(t, get(), stored, "nothing changed: the stored object comes back")

	rolled := api.DeepCopy(get())
	rolled.Spec.Template.Spec.Containers[0].Image = "nginx:2"
	stored, err = Update(c, rolled, Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(2), stored.GetObjectMeta().Generation)
	assert.Equal(t, "2", stored.GetObjectMeta().Annotations[api.DeprecatedTemplateGeneration])

	status := api.DeepCopy(get())
	status.Status.NumberReady = 3
	status.Spec.Template.Spec.Containers[0].Image = "ignored"
	stored, err = UpdateStatus(c, status, Options{})
	require.NoError(t, err)
	assert.Equal(t, int32(3), stored.(*api.DaemonSet).Status.NumberReady)
	assert.Equal(t, "nginx:2", get().Spec.Template.Spec.Containers[0].Image, "a write of the status keeps the stored spec")

	moved := api.DeepCopy(get())
	moved.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
	_, err = Update(c, moved, Options{})
	var se *StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, ReasonInvalid, se.Reason)
	assert.Contains(t, se.Message, "field is immutable")
}

// TestAPodsGenerationCountsItsSpecChanges pins podStrategy (pkg/registry/core/pod/strategy.go):
// PrepareForCreate sets generation 1 whatever the client sent, and PrepareForUpdate
// (updatePodGeneration) adds one when the spec changed, none for metadata or status.
func TestAPodsGenerationCountsItsSpecChanges(t *testing.T) {
	c := cluster.New(1)
	namespace(c, t)
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	pod.Name, pod.Namespace, pod.Generation = "web", "default", 5
	pod.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
	stored, err := Create(c, pod, Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(1), stored.GetObjectMeta().Generation)
	get := func() *api.Pod { return c.Get("Pod", cluster.Key{Namespace: "default", Name: "web"}).(*api.Pod) }
	for _, tc := range []struct {
		name   string
		change func(*api.Pod)
		want   int64
	}{
		{"labels are no spec", func(p *api.Pod) { p.Labels = map[string]string{"app": "web"} }, 1},
		{"a write of the pod keeps the stored status", func(p *api.Pod) { p.Status.ObservedGeneration = 9 }, 1},
		{"a client's generation is not taken", func(p *api.Pod) { p.Generation = 7 }, 1},
		{"a new image is a spec change", func(p *api.Pod) { p.Spec.Containers[0].Image = "nginx:2" }, 2},
	} {
		next := api.DeepCopy(get())
		tc.change(next)
		stored, err := Update(c, next, Options{})
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, stored.GetObjectMeta().Generation, tc.name)
		assert.Zero(t, get().Status.ObservedGeneration, tc.name)
	}
}

// storedAgent is a cluster holding the DaemonSet "agent", its key and its kind.
func storedAgent(t *testing.T) (*cluster.Cluster, cluster.Key, api.Kind) {
	c := cluster.New(1)
	namespace(c, t)
	_, err := Create(c, daemonSet("agent"), Options{})
	require.NoError(t, err)
	return c, cluster.Key{Namespace: "default", Name: "agent"}, KindOf(&api.DaemonSet{})
}

// TestPatchIsAppliedToTheStoredObject: a strategic merge patch merges, a JSON patch that cannot
// apply is a 422 Invalid with its error as the cause, and a patch may not rename the object.
func TestPatchIsAppliedToTheStoredObject(t *testing.T) {
	c, key, kind := storedAgent(t)
	stored, err := Patch(c, kind, key, StrategicMergePatch, map[string]any{"metadata": map[string]any{"labels": map[string]any{"tier": "node"}}}, Options{})
	require.NoError(t, err)
	assert.Equal(t, "node", stored.GetObjectMeta().Labels["tier"])
	_, err = Patch(c, kind, key, JSONPatch, []any{map[string]any{"op": "remove", "path": "/spec/nothing"}}, Options{})
	var se *StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, ReasonInvalid, se.Reason)
	assert.Equal(t, 422, se.Code)
	assert.NotEmpty(t, se.Details.Unexpected)
	_, err = Patch(c, kind, key, MergePatch, map[string]any{"metadata": map[string]any{"name": "other"}}, Options{})
	require.ErrorAs(t, err, &se)
	assert.Equal(t, ReasonBadRequest, se.Reason)
	_, err = Patch(c, kind, cluster.Key{Namespace: "default", Name: "none"}, MergePatch, map[string]any{}, Options{})
	assert.EqualError(t, err, `daemonsets.apps "none" not found`)
}

// TestAnUpdateKeepsADeletionUnderWay pins BeforeUpdate and ShouldDeleteDuringUpdate: an update
// cannot take a deletionTimestamp away, and one that leaves an object being deleted without
// finalizers deletes it; a create drops a deletion the manifest carried.
func TestAnUpdateKeepsADeletionUnderWay(t *testing.T) {
	c := cluster.New(1)
	namespace(c, t)
	ds := daemonSet("agent")
	ds.DeletionTimestamp = &api.Time{}
	_, err := Create(c, ds, Options{})
	require.NoError(t, err)
	key := cluster.Key{Namespace: "default", Name: "agent"}
	assert.Nil(t, c.Get("DaemonSet", key).GetObjectMeta().DeletionTimestamp, "a client does not create a deletion")
	c.DeleteObject(c.Get("DaemonSet", key), cluster.Foreground, nil)
	require.NotNil(t, c.Get("DaemonSet", key).GetObjectMeta().DeletionTimestamp)

	kept := api.DeepCopy(c.Get("DaemonSet", key).(*api.DaemonSet))
	kept.DeletionTimestamp, kept.Labels = nil, map[string]string{"a": "b"}
	_, err = Update(c, kept, Options{})
	require.NoError(t, err)
	assert.NotNil(t, c.Get("DaemonSet", key).GetObjectMeta().DeletionTimestamp)

	done := api.DeepCopy(c.Get("DaemonSet", key).(*api.DaemonSet))
	done.Finalizers = nil
	_, err = Update(c, done, Options{})
	require.NoError(t, err)
	assert.Nil(t, c.Get("DaemonSet", key), "no finalizer left: the update deletes it")
}

// TestADeploymentsAnnotationsBumpItsGeneration pins deploymentStrategy.PrepareForUpdate: its
// annotations are copied to its ReplicaSets, so changing them is a new generation; its labels
// are not.
func TestADeploymentsAnnotationsBumpItsGeneration(t *testing.T) {
	c := cluster.New(1)
	namespace(c, t)
	d := &api.Deployment{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}}
	d.Name, d.Namespace = "web", "default"
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	d.Spec.Template.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
	stored, err := Create(c, d, Options{})
	require.NoError(t, err)
	labelled := api.DeepCopy(stored.(*api.Deployment))
	labelled.Labels = map[string]string{"tier": "web"}
	stored, err = Update(c, labelled, Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(1), stored.GetObjectMeta().Generation)
	annotated := api.DeepCopy(stored.(*api.Deployment))
	annotated.Annotations = map[string]string{"note": "x"}
	stored, err = Update(c, annotated, Options{})
	require.NoError(t, err)
	assert.Equal(t, int64(2), stored.GetObjectMeta().Generation)
}

// TestAJSONPatchHoldsAtMostTenThousandOperations pins the patch handler's maxJSONPatchOperations
// (k8s.io/apiserver pkg/endpoints/handlers/patch.go applyJSPatch): a longer patch is a 413
// RequestEntityTooLarge and nothing is written.
func TestAJSONPatchHoldsAtMostTenThousandOperations(t *testing.T) {
	c, key, kind := storedAgent(t)
	before := c.Get("DaemonSet", key)
	for _, tc := range []struct {
		ops     int
		wantErr string
	}{
		{MaxJSONPatchOperations, ""},
		{MaxJSONPatchOperations + 1, "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"},
	} {
		ops := make([]any, tc.ops)
		for i := range ops {
			ops[i] = map[string]any{"op": "test", "path": "/metadata/name", "value": "agent"}
		}
		_, err := Patch(c, kind, key, JSONPatch, ops, Options{})
		if tc.wantErr == "" {
			assert.NoError(t, err)
			continue
		}
		var se *StatusError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, ReasonRequestEntityTooLarge, se.Reason)
		assert.Equal(t, 413, se.Code)
		assert.Equal(t, tc.wantErr, se.Message)
		assert.Same(t, before, c.Get("DaemonSet", key), "nothing is written")
	}
}

// TestCreateRefusesAResourceVersion: the storage refuses a create that sets
// metadata.resourceVersion, before it looks for the name (etcd3/store.go Create,
// storage.ErrResourceVersionSetOnCreate), as a 500 without a reason (ErrorToAPIStatus); a dry
// run's storage does not (registry/dryrun.go), and nothing is stored.
func TestCreateRefusesAResourceVersion(t *testing.T) {
	c := cluster.New(1)
	namespace(c, t)
	ds := daemonSet("agent")
	ds.ResourceVersion = "42"
	_, err := Create(c, api.DeepCopy(ds), Options{DryRun: true})
	require.NoError(t, err)
	_, err = Create(c, ds, Options{})
	var se *StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "resourceVersion should not be set on objects to be created", se.Message)
	assert.Equal(t, ReasonUnknown, se.Reason)
	assert.Equal(t, 500, se.Code)
	assert.Nil(t, c.Get("DaemonSet", cluster.Key{Namespace: "default", Name: "agent"}))
}
