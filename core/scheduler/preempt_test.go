package scheduler

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// world is a cluster of 4Gi workers, each pod given as name, node ("" for pending), priority
// class ("" or one of the built-in ones) and memory request.
type podSpec struct {
	name, node, class, memory string
	started                   time.Duration // after the epoch
}

func world(t *testing.T, nodes []string, pods []podSpec) *cluster.Cluster {
	c := cluster.New(1)
	require.NoError(t, apiserver.CreateSystemNamespaces(c))
	require.NoError(t, apiserver.CreateSystemPriorityClasses(c))
	for _, n := range nodes {
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: n, Labels: map[string]string{"kubernetes.io/hostname": n}}}
		list := api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4"), api.ResourceMemory: api.MustParseQuantity("4Gi"), api.ResourcePods: api.MustParseQuantity("110")}
		node.Status.Capacity, node.Status.Allocatable = list, list
		require.NoError(t, create(c, node))
	}
	for _, p := range pods {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: p.name, Namespace: "default"}, Spec: api.PodSpec{NodeName: p.node, PriorityClassName: p.class,
			Containers: []api.Container{{Name: "c", Image: "nginx", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity(p.memory)}}}}}}
		if p.node != "" {
			start := api.NewTime(cluster.Epoch.Add(p.started))
			pod.Status.StartTime = &start
			pod.Status.Phase = api.PodRunning
		}
		require.NoError(t, create(c, pod))
	}
	return c
}

func pod(c *cluster.Cluster, name string) *api.Pod {
	return c.Get("Pod", cluster.Key{Namespace: "default", Name: name}).(*api.Pod)
}

func names(pods []*api.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

// TestPreemptionPicksVictimsAndNodeAsDefaultPreemptionDoes pins SelectVictimsOnNode and
// pickOneNodeForPreemption (pkg/scheduler/framework/plugins/defaultpreemption,
// framework/preemption): only lower-priority pods are victims; the most important are
// reprieved first; the node whose most important victim matters least wins, then the fewest
// victims, then the latest-started ones.
func TestPreemptionPicksVictimsAndNodeAsDefaultPreemptionDoes(t *testing.T) {
	tests := []struct {
		name        string
		nodes       []string
		pods        []podSpec
		wantNode    string
		wantVictims []string
		wantMessage string
	}{
		{
			name:  "the less important of two pods is the victim, the other is reprieved",
			nodes: []string{"n1"},
			pods: []podSpec{
				{name: "low", node: "n1", memory: "2Gi", started: time.Second},
				{name: "cluster", node: "n1", class: "system-cluster-critical", memory: "2Gi"},
				{name: "preemptor", class: "system-node-critical", memory: "2Gi"},
			},
			wantNode: "n1", wantVictims: []string{"low"},
			wantMessage: "preemption: found a potential placement for pod on node n1, preempting 1 victims",
		},
		{
			name:  "the node whose highest victim priority is lowest",
			nodes: []string{"n1", "n2"},
			pods: []podSpec{
				{name: "cluster", node: "n1", class: "system-cluster-critical", memory: "3Gi"},
				{name: "plain", node: "n2", memory: "3Gi"},
				{name: "preemptor", class: "system-node-critical", memory: "2Gi"},
			},
			wantNode: "n2", wantVictims: []string{"plain"},
			wantMessage: "preemption: found a potential placement for pod on node n2, preempting 1 victims",
		},
		{
			name:  "then the fewest victims",
			nodes: []string{"n1", "n2"},
			pods: []podSpec{
				{name: "a", node: "n1", memory: "2Gi"}, {name: "b", node: "n1", memory: "2Gi"},
				{name: "c", node: "n2", memory: "4Gi"},
				{name: "preemptor", class: "system-node-critical", memory: "3Gi"},
			},
			wantNode: "n2", wantVictims: []string{"c"},
			wantMessage: "preemption: found a potential placement for pod on node n2, preempting 1 victims",
		},
		{
			name:  "then the victims that started last",
			nodes: []string{"n1", "n2"},
			pods: []podSpec{
				{name: "old", node: "n1", memory: "4Gi", started: time.Second},
				{name: "new", node: "n2", memory: "4Gi", started: time.Minute},
				{name: "preemptor", class: "system-node-critical", memory: "1Gi"},
			},
			wantNode: "n2", wantVictims: []string{"new"},
			wantMessage: "preemption: found a potential placement for pod on node n2, preempting 1 victims",
		},
		{
			name:  "equal priority is no victim",
			nodes: []string{"n1"},
			pods: []podSpec{
				{name: "full", node: "n1", memory: "4Gi"},
				{name: "preemptor", memory: "1Gi"},
			},
			wantMessage: "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
		},
		{
			name:  "a pod too big even for an empty node",
			nodes: []string{"n1"},
			pods: []podSpec{
				{name: "small", node: "n1", memory: "1Gi"},
				{name: "preemptor", class: "system-node-critical", memory: "5Gi"},
			},
			wantMessage: "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := world(t, tt.nodes, tt.pods)
			d := Schedule(c, pod(c, "preemptor"))
			require.Empty(t, d.Node)
			assert.Equal(t, tt.wantNode, d.preemption.node)
			assert.Equal(t, tt.wantVictims, names(d.preemption.victims))
			assert.Equal(t, tt.wantMessage, d.preemption.message)
		})
	}
}

// TestPreemptionPolicyNeverDoesNotPreempt: a pod whose PriorityClass says preemptionPolicy
// Never gets that policy from the Priority admission plugin, and DefaultPreemption does not let
// it preempt: "not eligible due to preemptionPolicy=Never." (PodEligibleToPreemptOthers); the
// same value with PreemptLowerPriority preempts.
func TestPreemptionPolicyNeverDoesNotPreempt(t *testing.T) {
	for _, tc := range []struct {
		policy      string
		wantVictims []string
		wantMessage string
	}{
		{api.PreemptNever, nil, "preemption: not eligible due to preemptionPolicy=Never."},
		{api.PreemptLowerPriority, []string{"full"}, "preemption: found a potential placement for pod on node n1, preempting 1 victims"},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			c := world(t, []string{"n1"}, []podSpec{{name: "full", node: "n1", memory: "4Gi"}})
			policy := tc.policy
			require.NoError(t, create(c, &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "batch"}, Value: 1000, PreemptionPolicy: &policy}))
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "x", Namespace: "default"}, Spec: api.PodSpec{PriorityClassName: "batch",
				Containers: []api.Container{{Name: "c", Image: "nginx", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("1Gi")}}}}}}
			require.NoError(t, create(c, p))
			require.Equal(t, tc.policy, *pod(c, "x").Spec.PreemptionPolicy, "the class's policy, by admission")
			d := Schedule(c, pod(c, "x"))
			assert.Equal(t, tc.wantMessage, d.preemption.message)
			assert.Equal(t, tc.wantVictims, names(d.preemption.victims))
		})
	}
}

// create creates an object through the API server, as a client does.
func create(c *cluster.Cluster, obj api.Object) error {
	_, err := apiserver.Create(c, obj, apiserver.Options{})
	return err
}

// TestPreemptionShortlistsCandidatesAsDryRunPreemptionDoes pins GetOffsetAndNumCandidates and
// DryRunPreemption (pkg/scheduler/framework/plugins/defaultpreemption, framework/preemption):
// the dry run looks for 10% of the potential nodes as candidates, at least 100, at most all;
// it starts at a random potential node and keeps the first candidates it meets going round. The
// offset is drawn only when it decides something: with no more candidates than that, all
// compete and the random source does not move.
func TestPreemptionShortlistsCandidatesAsDryRunPreemptionDoes(t *testing.T) {
	for _, tc := range []struct{ potential, want int }{{3, 3}, {100, 100}, {150, 100}, {2000, 200}, {5000, 500}} {
		assert.Equal(t, tc.want, numCandidates(tc.potential), "%d potential nodes", tc.potential)
	}
	tests := []struct {
		name       string
		potential  int
		candidates []int // their places among the potential nodes
		wantDraw   bool
	}{
		{"every potential node a candidate, fewer than 100", 40, span(0, 40), false},
		{"100 candidates among 300 potential nodes", 300, span(100, 200), false},
		{"every other of 300 potential nodes a candidate", 300, evens(300), true},
		{"all of 1,500 potential nodes candidates", 1500, span(0, 1500), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 20; seed++ {
				c := cluster.New(seed)
				var cands []candidate
				for _, at := range tc.candidates {
					cands = append(cands, candidate{node: "n" + strconv.Itoa(at), at: at})
				}
				before := c.Writes()
				got := shortlist(c, cands, tc.potential)
				if !tc.wantDraw {
					assert.Equal(t, cands, got, "all compete")
					assert.Equal(t, before, c.Writes(), "nothing drawn")
					continue
				}
				assert.Equal(t, before+1, c.Writes(), "one offset drawn")
				require.Len(t, got, numCandidates(tc.potential))
				first := slices.Index(tc.candidates, got[0].at)
				for i, cand := range got {
					assert.Equal(t, tc.candidates[(first+i)%len(tc.candidates)], cand.at, "seed %d: the candidates met going round from the offset", seed)
				}
			}
		})
	}
}

// span is the places from to to-1.
func span(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// evens is the even places below n.
func evens(n int) []int {
	var out []int
	for i := 0; i < n; i += 2 {
		out = append(out, i)
	}
	return out
}
