package disruption

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// world is a namespace's workloads for a budget over app=web: a Deployment "web" of some
// replicas and its ReplicaSet "web-1", a ReplicaSet "solo" of 4 that no Deployment controls,
// and a DaemonSet "agent".
type world struct {
	c *cluster.Cluster
}

func newWorld(t *testing.T, replicas int32) world {
	c := cluster.New(1)
	w := world{c}
	d := &api.Deployment{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}}
	d.Name, d.Namespace, d.Spec.Replicas = "web", "default", &replicas
	require.NoError(t, c.Create(d)) // the store gives it its uid
	rs := &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}}
	rs.Name, rs.Namespace = "web-1", "default"
	rs.OwnerReferences = []api.OwnerReference{api.NewControllerRef(d, "apps/v1", "Deployment")}
	four := int32(4)
	solo := &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}}
	solo.Name, solo.Namespace, solo.Spec.Replicas = "solo", "default", &four
	ds := &api.DaemonSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"}}
	ds.Name, ds.Namespace = "agent", "default"
	for _, o := range []api.Object{rs, solo, ds} {
		require.NoError(t, c.Create(o))
	}
	return w
}

// pod adds a pod of app=web that owner (nil: none) controls.
func (w world) pod(t *testing.T, name string, owner api.Object, ready bool) *api.Pod {
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	p.Name, p.Namespace, p.Labels = name, "default", map[string]string{"app": "web"}
	if owner != nil {
		k := owner.GetTypeMeta()
		p.OwnerReferences = []api.OwnerReference{api.NewControllerRef(owner, k.APIVersion, k.Kind)}
	}
	p.Status.Phase = api.PodRunning
	if ready {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
	}
	require.NoError(t, w.c.Create(p))
	return p
}

func (w world) get(kind, name string) api.Object {
	return w.c.Get(kind, cluster.Key{Namespace: "default", Name: name})
}

func intOrString(s string) *api.IntOrString {
	var v api.IntOrString
	if err := v.UnmarshalJSON([]byte(s)); err != nil {
		panic(err)
	}
	return &v
}

// budget is the budget "web" over app=web, with minAvailable and maxUnavailable as JSON ("" for
// unset).
func budget(min, max string) *api.PodDisruptionBudget {
	pdb := &api.PodDisruptionBudget{TypeMeta: api.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"}}
	pdb.Name, pdb.Namespace, pdb.Generation = "web", "default", 1
	pdb.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	if min != "" {
		pdb.Spec.MinAvailable = intOrString(min)
	}
	if max != "" {
		pdb.Spec.MaxUnavailable = intOrString(max)
	}
	return pdb
}

// TestExpectedAndDesiredPods pins getExpectedPodCount and getExpectedScale
// (pkg/controller/disruption/disruption.go): an int minAvailable counts the pods; a percentage,
// and every maxUnavailable, the scale of the pods' controllers, rounded up; a DaemonSet's pods
// fail the sync.
func TestExpectedAndDesiredPods(t *testing.T) {
	tests := []struct {
		name              string
		min, max          string
		owner             string // the pods' controller: "web-1", "solo", "agent", "gone" or "" (none)
		expected, desired int32
		allowed           int32
		syncFailed        string
	}{
		{name: "an int minAvailable counts the pods", min: "2", owner: "web-1", expected: 3, desired: 2, allowed: 1},
		{name: "a percentage minAvailable is of the Deployment's replicas, rounded up", min: `"50%"`, owner: "web-1", expected: 5, desired: 3, allowed: 0},
		{name: "an int maxUnavailable is taken from the replicas", max: "1", owner: "web-1", expected: 5, desired: 4, allowed: 0},
		{name: "a percentage maxUnavailable rounds up", max: `"30%"`, owner: "web-1", expected: 5, desired: 3, allowed: 0},
		{name: "desired healthy is never below 0", max: "7", owner: "web-1", expected: 5, desired: 0, allowed: 3},
		{name: "a ReplicaSet without a Deployment gives its own replicas", max: `"50%"`, owner: "solo", expected: 4, desired: 2, allowed: 1},
		{name: "pods without a controller count nothing", max: "0", owner: "", expected: 0, desired: 0, allowed: 0},
		{name: "an int minAvailable over unmanaged pods works", min: "1", owner: "", expected: 3, desired: 1, allowed: 2},
		{name: "a DaemonSet has no scale", max: "1", owner: "agent", syncFailed: "daemonsets.apps does not implement the scale subresource"},
		{name: "a controller that is gone is no controller", min: `"50%"`, owner: "gone", syncFailed: `found no controllers for pod "web-a"`},
		{name: "an int minAvailable over DaemonSet pods works", min: "1", owner: "agent", expected: 3, desired: 1, allowed: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, 5)
			var owner api.Object
			switch tt.owner {
			case "web-1", "solo":
				owner = w.get("ReplicaSet", tt.owner)
			case "agent":
				owner = w.get("DaemonSet", "agent")
			case "gone":
				gone := &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}}
				gone.Name, gone.UID = "gone", "gone-uid"
				owner = gone
			}
			for _, name := range []string{"web-a", "web-b", "web-c"} {
				w.pod(t, name, owner, true)
			}
			pdb := budget(tt.min, tt.max)
			next, _ := Plan(w.c, pdb)
			require.NotNil(t, next)
			st := next.Status
			require.Len(t, st.Conditions, 1)
			cond := st.Conditions[0]
			if tt.syncFailed != "" {
				assert.Equal(t, api.Condition{Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse, Reason: api.SyncFailedReason,
					Message: tt.syncFailed, LastTransitionTime: api.NewTime(w.c.Now())}, cond)
				assert.Zero(t, st.DisruptionsAllowed)
				assert.Zero(t, st.ObservedGeneration, "a failed sync observes nothing")
				return
			}
			assert.Equal(t, []int32{tt.expected, tt.desired, 3, tt.allowed}, []int32{st.ExpectedPods, st.DesiredHealthy, st.CurrentHealthy, st.DisruptionsAllowed})
			assert.Equal(t, int64(1), st.ObservedGeneration)
			want := api.SufficientPodsReason
			if tt.allowed == 0 {
				want = api.InsufficientPodsReason
			}
			assert.Equal(t, want, cond.Reason)
			assert.Equal(t, tt.allowed > 0, cond.Status == api.ConditionTrue)
		})
	}
}

// TestDisruptedPodsAreNotHealthyForTwoMinutes pins buildDisruptedPodMap and countHealthyPods:
// a pod the Eviction API admitted is not counted healthy until it is being deleted (then it
// leaves the map, still not healthy) or DeletionTimeout has passed (then it counts again); an
// unready pod is never healthy. NextTimer is the timeout.
func TestDisruptedPodsAreNotHealthyForTwoMinutes(t *testing.T) {
	w := newWorld(t, 4)
	rs := w.get("ReplicaSet", "web-1")
	w.pod(t, "web-a", rs, true)
	w.pod(t, "web-b", rs, true)
	w.pod(t, "web-c", rs, false)
	deleting := w.pod(t, "web-d", rs, true)
	w.c.DeleteObject(deleting, cluster.Background, nil)
	pdb := &api.PodDisruptionBudget{TypeMeta: api.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"}}
	pdb.Name, pdb.Namespace, pdb.Generation = "web", "default", 1
	pdb.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	pdb.Spec.MinAvailable = intOrString("1")
	evicted := api.NewTime(w.c.Now())
	pdb.Status.DisruptedPods = map[string]api.Time{"web-a": evicted, "web-d": evicted}
	require.NoError(t, w.c.Create(pdb))

	require.True(t, Sync(w.c))
	st := w.get("PodDisruptionBudget", "web").(*api.PodDisruptionBudget).Status
	assert.Equal(t, map[string]api.Time{"web-a": evicted}, st.DisruptedPods)
	assert.Equal(t, int32(1), st.CurrentHealthy, "only web-b")
	assert.False(t, Sync(w.c), "a second sync changes nothing")
	next, ok := NextTimer(w.c)
	require.True(t, ok)
	assert.Equal(t, cluster.Epoch.Add(DeletionTimeout), next)

	w.c.SetNow(next)
	require.True(t, Sync(w.c))
	st = w.get("PodDisruptionBudget", "web").(*api.PodDisruptionBudget).Status
	assert.Empty(t, st.DisruptedPods)
	assert.Equal(t, int32(2), st.CurrentHealthy, "web-a counts again")
	assert.Equal(t, int32(1), st.DisruptionsAllowed)
	_, ok = NextTimer(w.c)
	assert.False(t, ok)
}

// TestASyncRecordsWhatTrySyncRecords pins trySync's events (pkg/controller/disruption/
// disruption.go): NoPods for a selector that matches nothing, CalculateExpectedPodCountFailed
// when the scale cannot be found, UnmanagedPods when a scaled budget meets pods no controller
// owns — and none for an int minAvailable over such pods, which counts them.
func TestASyncRecordsWhatTrySyncRecords(t *testing.T) {
	for _, tt := range []struct {
		name     string
		min, max string
		owner    string // "", "agent", "web-1", or "none" for no pods at all
		want     []event
	}{
		{"no pods", "1", "", "none", []event{{cluster.EventNormal, "NoPods", "No matching pods found"}}},
		{"no scale", "", "1", "agent", []event{{cluster.EventWarning, "CalculateExpectedPodCountFailed",
			"Failed to calculate the number of expected pods: daemonsets.apps does not implement the scale subresource"}}},
		{"unmanaged pods", "", "1", "", []event{{cluster.EventWarning, "UnmanagedPods",
			"Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. " +
				"As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. " +
				`To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`}}},
		{"an int minAvailable counts unmanaged pods", "1", "", "", nil},
		{"a Deployment's pods", "", "1", "web-1", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, 3)
			if tt.owner != "none" {
				var owner api.Object
				switch tt.owner {
				case "agent":
					owner = w.get("DaemonSet", "agent")
				case "web-1":
					owner = w.get("ReplicaSet", "web-1")
				}
				w.pod(t, "web-a", owner, true)
			}
			pdb := budget(tt.min, tt.max)
			next, events := Plan(w.c, pdb)
			require.NotNil(t, next)
			assert.Equal(t, tt.want, events)
		})
	}
}

// TestSelectorStringIsMetav1s: the selector in UnmanagedPods' message is printed as %v prints
// a *metav1.LabelSelector (its generated String).
func TestSelectorStringIsMetav1s(t *testing.T) {
	for _, sel := range []*api.LabelSelector{
		nil,
		{},
		{MatchLabels: map[string]string{"tier": "db", "app": "web"}},
		{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "In", Values: []string{"web", "api"}}, {Key: "canary", Operator: "DoesNotExist"}}},
		{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []api.LabelSelectorRequirement{{Key: "zone", Operator: "NotIn", Values: []string{"a"}}}},
	} {
		var want *metav1.LabelSelector
		if sel != nil {
			want = &metav1.LabelSelector{MatchLabels: sel.MatchLabels}
			for _, r := range sel.MatchExpressions {
				want.MatchExpressions = append(want.MatchExpressions, metav1.LabelSelectorRequirement{Key: r.Key, Operator: metav1.LabelSelectorOperator(r.Operator), Values: r.Values})
			}
		}
		assert.Equal(t, fmt.Sprintf("%v", want), selectorString(sel))
	}
}
