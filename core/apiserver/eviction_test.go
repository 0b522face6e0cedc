package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// budget is a PodDisruptionBudget over app=web whose status the disruption controller wrote.
func budget(name string, st api.PodDisruptionBudgetStatus) *api.PodDisruptionBudget {
	pdb := &api.PodDisruptionBudget{TypeMeta: api.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"}, Status: st}
	pdb.Name, pdb.Namespace, pdb.Generation = name, "default", 1
	pdb.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	return pdb
}

// TestEvictionSpendsOrRefusesTheBudget pins EvictionREST.Create and checkAndDecrement
// (pkg/registry/core/pod/storage/eviction.go): which evictions a budget lets through, the 429
// and its DisruptionBudget cause, the 500 for two budgets, and what an admitted eviction
// leaves in the budget's status.
func TestEvictionSpendsOrRefusesTheBudget(t *testing.T) {
	allowing := func(n int32) api.PodDisruptionBudgetStatus {
		return api.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: n, CurrentHealthy: 2 + n, DesiredHealthy: 2, ExpectedPods: 2 + n,
			Conditions: []api.Condition{{Type: api.DisruptionAllowedCondition, Status: api.ConditionTrue, Reason: api.SufficientPodsReason}}}
	}
	always := api.AlwaysAllow
	tests := []struct {
		name    string
		phase   api.PodPhase
		ready   bool
		budgets []*api.PodDisruptionBudget
		code    int
		cause   string
	}{
		{name: "no budget lets it through", phase: api.PodRunning, ready: true},
		{name: "a budget that allows one lets it through", phase: api.PodRunning, ready: true, budgets: []*api.PodDisruptionBudget{budget("web", allowing(1))}},
		{name: "a pending pod is no disruption", phase: api.PodPending, budgets: []*api.PodDisruptionBudget{budget("web", allowing(0))}},
		{name: "a finished pod is no disruption", phase: api.PodSucceeded, budgets: []*api.PodDisruptionBudget{budget("web", allowing(0))}},
		{name: "a budget that allows none refuses", phase: api.PodRunning, ready: true, budgets: []*api.PodDisruptionBudget{budget("web", allowing(0))},
			code: 429, cause: "The disruption budget web needs 2 healthy pods and has 2 currently"},
		{name: "a budget not yet observed refuses", phase: api.PodRunning, ready: true,
			budgets: []*api.PodDisruptionBudget{budget("web", api.PodDisruptionBudgetStatus{DisruptionsAllowed: 1})},
			code:    429, cause: "The disruption budget web is still being processed by the server."},
		{name: "a budget that failed its sync says why", phase: api.PodRunning, ready: true,
			budgets: []*api.PodDisruptionBudget{budget("web", api.PodDisruptionBudgetStatus{ObservedGeneration: 1, Conditions: []api.Condition{
				{Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse, Reason: api.SyncFailedReason, Message: "daemonsets.apps does not implement the scale subresource"}}})},
			code: 429, cause: "The disruption budget web does not allow evicting pods currently because it failed sync: daemonsets.apps does not implement the scale subresource"},
		{name: "two budgets are not supported", phase: api.PodRunning, ready: true, budgets: []*api.PodDisruptionBudget{budget("a", allowing(1)), budget("b", allowing(1))},
			code: 500},
		{name: "an unready pod goes when the budget is healthy", phase: api.PodRunning, budgets: []*api.PodDisruptionBudget{budget("web", allowing(0))}},
		{name: "an unready pod stays when the budget is not", phase: api.PodRunning,
			budgets: []*api.PodDisruptionBudget{budget("web", api.PodDisruptionBudgetStatus{ObservedGeneration: 1, CurrentHealthy: 1, DesiredHealthy: 2})},
			code:    429, cause: "The disruption budget web needs 2 healthy pods and has 1 currently"},
		{name: "AlwaysAllow lets an unready pod go", phase: api.PodRunning, budgets: func() []*api.PodDisruptionBudget {
			b := budget("web", api.PodDisruptionBudgetStatus{ObservedGeneration: 1, CurrentHealthy: 1, DesiredHealthy: 2})
			b.Spec.UnhealthyPodEvictionPolicy = &always
			return []*api.PodDisruptionBudget{b}
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cluster.New(1)
			pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
			pod.Name, pod.Namespace, pod.Labels = "web-1", "default", map[string]string{"app": "web"}
			pod.Spec.NodeName = "n1"
			pod.Status.Phase = tt.phase
			if tt.ready {
				pod.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
			}
			require.NoError(t, c.Create(pod))
			for _, b := range tt.budgets {
				require.NoError(t, c.Create(b))
			}
			err := Evict(c, cluster.KeyOf(pod), nil)
			stored := c.Get("Pod", cluster.KeyOf(pod))
			if tt.code == 0 {
				require.NoError(t, err)
				assert.True(t, stored == nil || stored.GetObjectMeta().DeletionTimestamp != nil, "the pod is being deleted")
				return
			}
			var se *StatusError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.code, se.Code)
			assert.Equal(t, tt.cause, se.Details.Budget)
			if tt.code == 429 {
				assert.Equal(t, "Cannot evict pod as it would violate the pod's disruption budget.", se.Message)
				assert.Equal(t, ReasonTooManyRequests, se.Reason)
			} else {
				assert.Equal(t, "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", se.Message)
			}
			assert.Nil(t, stored.GetObjectMeta().DeletionTimestamp, "a refused eviction deletes nothing")
		})
	}
}

// TestAnAdmittedEvictionIsRecordedInTheBudget pins the end of checkAndDecrement: one disruption
// fewer, the condition InsufficientPods once none is left, and the pod in disruptedPods at the
// eviction's instant, so that a second eviction at the same instant is refused.
func TestAnAdmittedEvictionIsRecordedInTheBudget(t *testing.T) {
	c := cluster.New(1)
	namespace(c, t)
	b := budget("web", api.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: 1, CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3,
		Conditions: []api.Condition{{Type: api.DisruptionAllowedCondition, Status: api.ConditionTrue, Reason: api.SufficientPodsReason}}})
	require.NoError(t, c.Create(b))
	for _, name := range []string{"web-1", "web-2"} {
		pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
		pod.Name, pod.Namespace, pod.Labels = name, "default", map[string]string{"app": "web"}
		pod.Spec.NodeName = "n1"
		pod.Status.Phase = api.PodRunning
		pod.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
		require.NoError(t, c.Create(pod))
	}
	require.NoError(t, Evict(c, cluster.Key{Namespace: "default", Name: "web-1"}, nil))
	st := c.Get("PodDisruptionBudget", cluster.KeyOf(b)).(*api.PodDisruptionBudget).Status
	assert.Equal(t, int32(0), st.DisruptionsAllowed)
	assert.Equal(t, map[string]api.Time{"web-1": api.NewTime(c.Now())}, st.DisruptedPods)
	require.Len(t, st.Conditions, 1)
	assert.Equal(t, api.InsufficientPodsReason, st.Conditions[0].Reason)
	assert.Equal(t, api.ConditionFalse, st.Conditions[0].Status)

	err := Evict(c, cluster.Key{Namespace: "default", Name: "web-2"}, nil)
	var se *StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 429, se.Code)
}
