package daemon

import (
	"encoding/json"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/controller"
)

// The fixtures of upstream's pkg/controller/daemon tests (daemon_controller_test.go and
// update_test.go): a DaemonSet "foo" selecting name=simple-daemon,type=production, "label2" pods
// that it does not select, and labelled nodes color=blue,speed=fast.
var (
	simpleDaemonSetLabel  = map[string]string{"name": "simple-daemon", "type": "production"}
	simpleDaemonSetLabel2 = map[string]string{"name": "simple-daemon", "type": "test"}
	simpleNodeLabel       = map[string]string{"color": "blue", "speed": "fast"}
	noScheduleTaint       = api.Taint{Key: "dedicated", Value: "user1", Effect: api.TaintEffectNoSchedule}
	noExecuteTaint        = api.Taint{Key: "dedicated", Value: "user1", Effect: api.TaintEffectNoExecute}
)

// fixture is a cluster in which only the DaemonSet controller runs, as in upstream's unit
// tests: no scheduler, no kubelet; pods are made ready by the test.
type fixture struct {
	t *testing.T
	c *cluster.Cluster
}

func onDelete() api.DaemonSetUpdateStrategy {
	return api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}
}

func unavailable(v api.IntOrString) api.DaemonSetUpdateStrategy {
	return api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType, RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: &v}}
}

func surge(v api.IntOrString) api.DaemonSetUpdateStrategy {
	zero := api.FromInt(0)
	return api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType, RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: &zero, MaxSurge: &v}}
}

// strategies are updateStrategies(): most cases hold for OnDelete and RollingUpdate alike.
var strategies = map[string]api.DaemonSetUpdateStrategy{"OnDelete": onDelete(), "RollingUpdate": unavailable(api.FromInt(1))}

func forStrategies(t *testing.T, test func(t *testing.T, strategy api.DaemonSetUpdateStrategy)) {
	for name, s := range strategies {
		t.Run(name, func(t *testing.T) { test(t, s) })
	}
}

func newFixture(t *testing.T, strategy api.DaemonSetUpdateStrategy, edit ...func(*api.DaemonSet)) *fixture {
	ds := &api.DaemonSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"}}
	ds.Name, ds.Namespace = "foo", "default"
	two := int32(2)
	ds.Spec.RevisionHistoryLimit = &two
	ds.Spec.UpdateStrategy = strategy
	ds.Spec.Selector = &api.LabelSelector{MatchLabels: maps.Clone(simpleDaemonSetLabel)}
	ds.Spec.Template.Labels = maps.Clone(simpleDaemonSetLabel)
	ds.Spec.Template.Spec.Containers = []api.Container{{Name: "foo", Image: "foo/bar"}}
	for _, e := range edit {
		e(ds)
	}
	c := cluster.New(1)
	require.NoError(t, apiserver.CreateSystemNamespaces(c))
	require.NoError(t, create(c, ds))
	return &fixture{t: t, c: c}
}

func (f *fixture) ds() *api.DaemonSet { return f.c.DaemonSets()[0] }

// hash is the hash of the DaemonSet's current template, as upstream's newPod computes it.
func (f *fixture) hash() string {
	ds := f.ds()
	return controller.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount)
}

// addNodes is addNodes: n nodes named node-<start>… with the labels and taints.
func (f *fixture) addNodes(start, n int, labels map[string]string, taints ...api.Taint) {
	for i := start; i < start+n; i++ {
		require.NoError(f.t, create(f.c, newNode(fmt.Sprintf("node-%d", i), maps.Clone(labels), taints...)))
	}
}

// podOption shapes a pod added by the test.
type podOption func(*api.Pod)

func createdAt(sec int64) podOption {
	return func(p *api.Pod) {
		p.CreationTimestamp = api.NewTime(cluster.Epoch.Add(time.Duration(sec) * time.Second))
	}
}

func readySince(ready bool, sec int64) podOption {
	return func(p *api.Pod) {
		status := api.ConditionFalse
		if ready {
			status = api.ConditionTrue
		}
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: status, LastTransitionTime: api.NewTime(cluster.Epoch.Add(time.Duration(sec) * time.Second))}}
	}
}

func ready(p *api.Pod) { readySince(true, 0)(p) }

// oldTemplate drops the hash label, as upstream's tests make a pod of an older template.
func oldTemplate(p *api.Pod) { delete(p.Labels, api.LabelControllerRevisionHash) }

func failed(p *api.Pod) { p.Status.Phase = api.PodFailed }

func deleting(p *api.Pod) {
	at := api.NewTime(cluster.Epoch.Add(31 * time.Second))
	thirty := int64(30)
	p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &at, &thirty
}

func orphan(p *api.Pod) { p.OwnerReferences = nil }

// addPods is addPods: n pods bound to node with the labels, controlled by the DaemonSet and
// carrying its current hash, unless the options say otherwise.
func (f *fixture) addPods(node string, labels map[string]string, n int, opts ...podOption) []*api.Pod {
	var out []*api.Pod
	ds := f.ds()
	for range n {
		p := NewDaemonPod(ds, node, f.hash())
		p.Labels = maps.Clone(labels)
		p.Labels[api.LabelControllerRevisionHash] = f.hash()
		p.Spec.NodeName = node
		for _, o := range opts {
			o(p)
		}
		created := p.CreationTimestamp
		require.NoError(f.t, create(f.c, p))
		if !created.IsZero() {
			p.CreationTimestamp = created // the store hands out its own object: the test may age it
		}
		out = append(out, p)
	}
	return out
}

// controllerEvents counts the events the controller itself records (upstream's fake recorder
// sees these; creates and deletes go through the fake pod control, which records none).
func (f *fixture) controllerEvents() int {
	n := 0
	for _, e := range cluster.List[*api.Event](f.c) {
		switch e.Reason {
		case "FailedDaemonPod", "SucceededDaemonPod", "SelectingAll":
			n += int(e.Count)
		}
	}
	return n
}

// sync is expectSyncDaemonSets: one sync, and its creates, deletes and controller events.
func (f *fixture) sync() [3]int {
	before := f.controllerEvents()
	out := Sync(f.c, f.ds())
	return [3]int{out.Created, out.Deleted, f.controllerEvents() - before}
}

// expect runs one sync per expectation and checks each.
func (f *fixture) expect(want ...[3]int) {
	f.t.Helper()
	for i, w := range want {
		assert.Equal(f.t, w, f.sync(), "sync %d: (creates, deletes, events)", i+1)
	}
}

// update changes the DaemonSet's spec as an apply would.
func (f *fixture) update(edit func(*api.DaemonSet)) {
	ds := api.DeepCopy(f.ds())
	edit(ds)
	_, err := apiserver.Update(f.c, ds, apiserver.Options{})
	require.NoError(f.t, err)
}

// setReadiness is setPodReadiness: up to count live pods that match get the readiness, since now.
func (f *fixture) setReadiness(isReady bool, count int, match func(*api.Pod) bool) {
	for _, p := range f.c.Pods() {
		if count == 0 {
			return
		}
		if p.DeletionTimestamp != nil || api.IsPodReady(p) == isReady || !match(p) {
			continue
		}
		next := api.DeepCopy(p)
		readySince(isReady, int64(f.c.Now().Sub(cluster.Epoch)/time.Second))(next)
		require.NoError(f.t, f.c.Update(next))
		count--
	}
}

func all(*api.Pod) bool { return true }

// markPodsReady is markPodsReady: every pod is Ready from now on.
func (f *fixture) markPodsReady() { f.setReadiness(true, -1, all) }

func (f *fixture) at(sec int64) { f.c.SetNow(cluster.Epoch.Add(time.Duration(sec) * time.Second)) }

func (f *fixture) liveHashes() map[string]int {
	m := map[string]int{}
	for _, p := range f.c.Pods() {
		if p.DeletionTimestamp == nil {
			m[p.Labels[api.LabelControllerRevisionHash]]++
		}
	}
	return m
}

func withNodeSelector(ds *api.DaemonSet) {
	ds.Spec.Template.Spec.NodeSelector = maps.Clone(simpleNodeLabel)
}

func withToleration(tols ...api.Toleration) func(*api.DaemonSet) {
	return func(ds *api.DaemonSet) { ds.Spec.Template.Spec.Tolerations = tols }
}

// Upstream daemon_controller_test.go (pkg/controller/daemon), one subtest per upstream test.
func TestUpstreamDaemonControllerCases(t *testing.T) {
	t.Run("TestSimpleDaemonSetLaunchesPods", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			f.addNodes(0, 5, nil)
			f.expect([3]int{5, 0, 0})
		})
	})
	t.Run("TestSimpleDaemonSetScheduleDaemonSetPodsLaunchesPods", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			f.addNodes(0, 5, nil)
			f.expect([3]int{5, 0, 0})
			targets := map[string]bool{}
			for _, p := range f.c.Pods() {
				assert.Empty(t, p.Spec.NodeName, "the scheduler binds daemon pods")
				terms := p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
				require.Len(t, terms, 1)
				require.Len(t, terms[0].MatchFields, 1)
				req := terms[0].MatchFields[0]
				assert.Equal(t, "metadata.name", req.Key)
				assert.Equal(t, api.NodeSelectorOperator("In"), req.Operator)
				require.Len(t, req.Values, 1)
				targets[req.Values[0]] = true
			}
			assert.Len(t, targets, 5, "one pod per node")
		})
	})
	t.Run("TestSimpleDaemonSetPodCreateErrors", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			f.addNodes(0, 100, nil)
			h := PlanHistory(f.c, f.ds())
			ApplyHistory(f.c, f.ds(), h)
			calls, limit := 0, 10
			limited := func(obj api.Object) error {
				calls++
				if calls > limit {
					return fmt.Errorf("fake limit reached")
				}
				return create(f.c, obj)
			}
			out := syncNodes(f.c, Manage(f.c, f.ds(), h.Hash), limited)
			assert.Equal(t, 10, out.Created)
			assert.LessOrEqual(t, calls, 1+2+4+8, "slow start: batches of 1, 2, 4, 8 stop after the failing one")
			status := Status(f.c, f.ds(), h.Hash)
			assert.Equal(t, [3]int32{100, 10, 10}, [3]int32{status.DesiredNumberScheduled, status.CurrentNumberScheduled, status.UpdatedNumberScheduled})
		})
	})
	t.Run("TestSimpleDaemonSetUpdatesStatusAfterLaunchingPods", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			f.addNodes(0, 5, nil)
			f.expect([3]int{5, 0, 0})
			assert.Equal(t, int32(5), f.ds().Status.CurrentNumberScheduled)
		})
	})
	t.Run("TestNoNodesDoesNothing", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			newFixture(t, s).expect([3]int{0, 0, 0})
		})
	})
	t.Run("TestOneNodeDaemonLaunchesPod", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			f.addNodes(0, 1, nil)
			f.expect([3]int{1, 0, 0})
		})
	})
	t.Run("TestNotReadyNodeDaemonDoesLaunchPod", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			n := newNode("not-ready", nil)
			n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionFalse}}
			require.NoError(t, create(f.c, n))
			f.expect([3]int{1, 0, 0})
		})
	})
	t.Run("TestInsufficientCapacityNodeDaemonDoesNotUnscheduleRunningPod", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s, func(ds *api.DaemonSet) {
				ds.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("75M")}
			})
			n := newNode("too-much-mem", nil)
			n.Status.Allocatable[api.ResourceMemory] = api.MustParseQuantity("100M")
			require.NoError(t, create(f.c, n))
			hog := &api.Pod{Spec: api.PodSpec{NodeName: "too-much-mem", Containers: []api.Container{{Name: "hog", Image: "hog", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("75M")}}}}}}
			hog.Name, hog.Namespace = "hog", "default"
			require.NoError(t, create(f.c, hog))
			f.expect([3]int{1, 0, 0})
		})
	})
	t.Run("TestInsufficientCapacityNodeSufficientCapacityWithNodeLabelDaemonLaunchPod", func(t *testing.T) {
		f := newFixture(t, onDelete(), func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeSelector = map[string]string{"key": "value"} })
		require.NoError(t, create(f.c, newNode("node-0", nil)))
		require.NoError(t, create(f.c, newNode("node-1", map[string]string{"key": "value"})))
		f.expect([3]int{1, 0, 0})
	})
	t.Run("TestNetworkUnavailableNodeDaemonLaunchesPod", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			n := newNode("network-unavailable", nil)
			n.Status.Conditions = []api.NodeCondition{{Type: api.NodeNetworkUnavailable, Status: api.ConditionTrue}}
			require.NoError(t, create(f.c, n))
			f.expect([3]int{1, 0, 0})
		})
	})
	t.Run("TestDontDoAnythingIfBeingDeleted", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s, func(ds *api.DaemonSet) {
				now := api.NewTime(cluster.Epoch)
				ds.DeletionTimestamp = &now
			})
			f.addNodes(0, 5, nil)
			f.expect([3]int{0, 0, 0})
		})
	})
	t.Run("TestDontDoAnythingIfBeingDeletedRace", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s, func(ds *api.DaemonSet) {
				now := api.NewTime(cluster.Epoch)
				ds.DeletionTimestamp = &now
			})
			f.addNodes(0, 5, nil)
			stray := f.addPods("node-0", simpleDaemonSetLabel, 1, orphan)[0]
			f.expect([3]int{0, 0, 0})
			p := f.c.Get("Pod", cluster.Key{Namespace: "default", Name: stray.Name}).(*api.Pod)
			assert.Empty(t, p.OwnerReferences, "a DaemonSet being deleted adopts nothing")
		})
	})
	t.Run("TestPortConflictWithSameDaemonPodDoesNotDeletePod", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s, func(ds *api.DaemonSet) {
				ds.Spec.Template.Spec.Containers[0].Ports = []api.ContainerPort{{HostPort: 666, ContainerPort: 666}}
			})
			f.addNodes(0, 1, nil)
			f.addPods("node-0", simpleDaemonSetLabel, 1)
			f.expect([3]int{0, 0, 0})
		})
	})
	t.Run("TestNoPortConflictNodeDaemonLaunchesPod", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s, func(ds *api.DaemonSet) {
				ds.Spec.Template.Spec.Containers[0].Ports = []api.ContainerPort{{HostPort: 6662, ContainerPort: 6662}}
			})
			f.addNodes(0, 1, nil)
			other := &api.Pod{Spec: api.PodSpec{NodeName: "node-0", Containers: []api.Container{{Name: "c", Image: "i", Ports: []api.ContainerPort{{HostPort: 6661, ContainerPort: 6661}}}}}}
			other.Name, other.Namespace = "other", "default"
			require.NoError(t, create(f.c, other))
			f.expect([3]int{1, 0, 0})
		})
	})
	t.Run("TestPodIsNotDeletedByDaemonsetWithEmptyLabelSelector", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			empty := api.DeepCopy(f.ds())
			empty.Spec.Selector = &api.LabelSelector{}
			require.NoError(t, f.c.Update(empty), "stored past validation, as upstream's fake clientset stores it")
			f.addNodes(0, 1, nil)
			foreign := &api.Pod{Spec: api.PodSpec{NodeName: "node-0", Containers: []api.Container{{Name: "c", Image: "i"}}}}
			foreign.Name, foreign.Namespace, foreign.Labels = "pod1", "default", map[string]string{"bang": "boom"}
			require.NoError(t, create(f.c, foreign))
			f.expect([3]int{0, 0, 1})
			assert.Len(t, f.c.Pods(), 1)
		})
	})
	t.Run("TestSelectorDaemonLaunchesPods", func(t *testing.T) {
		f := newFixture(t, onDelete(), withNodeSelector)
		f.addNodes(0, 4, nil)
		f.addNodes(4, 3, simpleNodeLabel)
		f.expect([3]int{3, 0, 0})
	})
	// Nodes holding pods already: duplicates (the oldest stays), pods the selector no longer
	// matches (released, so not counted), pods on nodes the DaemonSet should not run on.
	type podsOn struct {
		node   string
		labels map[string]string
		n      int
	}
	for _, tc := range []struct {
		name             string
		surge, selector  bool
		plain, labelled  int
		pods             []podsOn
		creates, deletes int
	}{
		{"TestDealsWithExistingPods", false, false, 5, 0, []podsOn{{"node-1", simpleDaemonSetLabel, 1}, {"node-2", simpleDaemonSetLabel, 2}, {"node-3", simpleDaemonSetLabel, 5}, {"node-4", simpleDaemonSetLabel2, 2}}, 2, 5},
		{"TestSurgeDealsWithExistingPods", true, false, 5, 0, []podsOn{{"node-1", simpleDaemonSetLabel, 1}, {"node-2", simpleDaemonSetLabel, 2}, {"node-3", simpleDaemonSetLabel, 5}, {"node-4", simpleDaemonSetLabel2, 2}}, 2, 5},
		{"TestSelectorDaemonDeletesUnselectedPods", false, true, 5, 5, []podsOn{{"node-0", simpleDaemonSetLabel2, 2}, {"node-1", simpleDaemonSetLabel, 3}, {"node-1", simpleDaemonSetLabel2, 1}, {"node-4", simpleDaemonSetLabel, 1}}, 5, 4},
		{"TestSelectorDaemonDealsWithExistingPods", false, true, 5, 5, []podsOn{
			{"node-0", simpleDaemonSetLabel, 1}, {"node-1", simpleDaemonSetLabel, 3}, {"node-1", simpleDaemonSetLabel2, 2}, {"node-2", simpleDaemonSetLabel, 4},
			{"node-6", simpleDaemonSetLabel, 13}, {"node-7", simpleDaemonSetLabel2, 4}, {"node-9", simpleDaemonSetLabel, 1}, {"node-9", simpleDaemonSetLabel2, 1},
		}, 3, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test := func(t *testing.T, s api.DaemonSetUpdateStrategy) {
				var edits []func(*api.DaemonSet)
				if tc.selector {
					edits = append(edits, withNodeSelector)
				}
				f := newFixture(t, s, edits...)
				f.addNodes(0, tc.plain, nil)
				f.addNodes(tc.plain, tc.labelled, simpleNodeLabel)
				for _, p := range tc.pods {
					f.addPods(p.node, p.labels, p.n)
				}
				f.expect([3]int{tc.creates, tc.deletes, 0})
			}
			if tc.surge {
				test(t, surge(api.FromInt(1)))
				return
			}
			forStrategies(t, test)
		})
	}
	t.Run("TestBadSelectorDaemonDoesNothing", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s, func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeSelector = map[string]string{"color": "red"} })
			f.addNodes(0, 4, nil)
			f.addNodes(4, 3, simpleNodeLabel)
			f.expect([3]int{0, 0, 0})
		})
	})
	nodeName := func(name string) func(*api.DaemonSet) {
		return func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeName = name }
	}
	for _, tc := range []struct {
		name  string
		edits []func(*api.DaemonSet)
		want  int
	}{
		{"TestNameDaemonSetLaunchesPods", []func(*api.DaemonSet){nodeName("node-0")}, 1},
		{"TestBadNameDaemonSetDoesNothing", []func(*api.DaemonSet){nodeName("node-10")}, 0},
		{"TestNameAndSelectorDaemonSetLaunchesPods", []func(*api.DaemonSet){nodeName("node-6"), withNodeSelector}, 1},
		{"TestInconsistentNameSelectorDaemonSetDoesNothing", []func(*api.DaemonSet){nodeName("node-0"), withNodeSelector}, 0},
		{"TestNodeAffinityDaemonLaunchesPods", []func(*api.DaemonSet){func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "color", Operator: "In", Values: []string{"blue"}}}}},
			}}}
		}}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
				f := newFixture(t, s, tc.edits...)
				f.addNodes(0, 4, nil)
				f.addNodes(4, 3, simpleNodeLabel)
				f.expect([3]int{tc.want, 0, 0})
			})
		})
	}
	t.Run("TestNumberReadyStatus", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			f.addNodes(0, 2, simpleNodeLabel)
			f.addPods("node-0", simpleDaemonSetLabel, 1)
			f.addPods("node-1", simpleDaemonSetLabel, 1)
			f.expect([3]int{0, 0, 0})
			assert.Equal(t, int32(0), f.ds().Status.NumberReady)
			f.markPodsReady()
			f.expect([3]int{0, 0, 0})
			assert.Equal(t, int32(2), f.ds().Status.NumberReady)
		})
	})
	t.Run("TestObservedGeneration", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			f.addNodes(0, 1, simpleNodeLabel)
			f.addPods("node-0", simpleDaemonSetLabel, 1)
			f.expect([3]int{0, 0, 0})
			assert.Equal(t, f.ds().Generation, f.ds().Status.ObservedGeneration)
		})
	})
	t.Run("TestDaemonKillFailedPods", func(t *testing.T) {
		for _, tc := range []struct {
			name                   string
			failed, normal         int
			creates, deletes, evts int
		}{
			{"normal (do nothing)", 0, 1, 0, 0, 0},
			{"no pods (create 1)", 0, 0, 1, 0, 0},
			{"1 failed pod (kill 1), 0 normal pod (create 0; will create in the next sync)", 1, 0, 0, 1, 1},
			{"1 failed pod (kill 1), 3 normal pods (kill 2)", 1, 3, 0, 3, 1},
		} {
			t.Run(tc.name, func(t *testing.T) {
				forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
					f := newFixture(t, s)
					f.addNodes(0, 1, nil)
					f.addPods("node-0", simpleDaemonSetLabel, tc.failed, failed)
					f.addPods("node-0", simpleDaemonSetLabel, tc.normal)
					f.expect([3]int{tc.creates, tc.deletes, tc.evts})
				})
			})
		}
	})
	t.Run("TestDaemonKillFailedPodsBackoff", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			f.addNodes(0, 1, nil)
			// A first sync observes the DaemonSet's generation, which keys the back-off (upstream's
			// fake client never writes the status back, so its key never changes).
			p := f.addPods("node-0", simpleDaemonSetLabel, 1)[0]
			f.expect([3]int{0, 0, 0})
			p = api.DeepCopy(f.c.Get("Pod", cluster.Key{Namespace: "default", Name: p.Name}).(*api.Pod))
			failed(p)
			require.NoError(t, f.c.Update(p))
			f.expect([3]int{0, 1, 1})
			key := failedPodsBackoffKey(f.ds(), "node-0")
			entry, ok := backoff(f.c, key)
			require.True(t, ok)
			delay := entry.backoff
			assert.Equal(t, time.Second, delay)
			// The failed pod is recreated as failed: the back-off holds it for its delay.
			f.addPods("node-0", simpleDaemonSetLabel, 1, failed)
			f.expect([3]int{0, 0, 0})
			again, _ := backoff(f.c, key)
			assert.Equal(t, delay, again.backoff, "a sync in back-off does not move it")
			f.c.SetNow(f.c.Now().Add(delay - time.Nanosecond))
			assert.True(t, inBackoff(f.c, key), "still backing off just before the delay ends")
			f.c.SetNow(f.c.Now().Add(time.Nanosecond))
			assert.False(t, inBackoff(f.c, key), "no longer at the delay")
			f.expect([3]int{0, 1, 1})
		})
	})
	for _, tc := range []struct {
		name      string
		taints    []api.Taint
		edit      func(*api.DaemonSet)
		existing  bool
		want      [3]int
		condition api.ConditionStatus
	}{
		{"TestNoScheduleTaintedDoesntEvicitRunningIntolerantPod", []api.Taint{noScheduleTaint}, nil, true, [3]int{0, 0, 0}, ""},
		{"TestNoExecuteTaintedDoesEvicitRunningIntolerantPod", []api.Taint{noExecuteTaint}, nil, true, [3]int{0, 1, 0}, ""},
		{"TestTaintedNodeDaemonDoesNotLaunchIntolerantPod", []api.Taint{noScheduleTaint}, nil, false, [3]int{0, 0, 0}, ""},
		{"TestTaintedNodeDaemonLaunchesToleratePod", []api.Taint{noScheduleTaint}, withToleration(api.Toleration{Key: "dedicated", Operator: "Equal", Value: "user1", Effect: api.TaintEffectNoSchedule}), false, [3]int{1, 0, 0}, ""},
		{"TestNotReadyNodeDaemonLaunchesPod", []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}}, nil, false, [3]int{1, 0, 0}, api.ConditionFalse},
		{"TestUnreachableNodeDaemonLaunchesPod", []api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}}, nil, false, [3]int{1, 0, 0}, api.ConditionUnknown},
		{"TestNodeDaemonLaunchesToleratePod", nil, withToleration(api.Toleration{Key: "dedicated", Operator: "Equal", Value: "user1", Effect: api.TaintEffectNoSchedule}), false, [3]int{1, 0, 0}, ""},
		{"TestTaintPressureNodeDaemonLaunchesPod", []api.Taint{{Key: api.TaintNodeDiskPressure, Effect: api.TaintEffectNoSchedule}, {Key: api.TaintNodeMemoryPressure, Effect: api.TaintEffectNoSchedule}, {Key: api.TaintNodePIDPressure, Effect: api.TaintEffectNoSchedule}}, nil, false, [3]int{1, 0, 0}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
				var edits []func(*api.DaemonSet)
				if tc.edit != nil {
					edits = append(edits, tc.edit)
				}
				f := newFixture(t, s, edits...)
				n := newNode("tainted", nil, tc.taints...)
				if tc.condition != "" {
					n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: tc.condition}}
				}
				require.NoError(t, create(f.c, n))
				if tc.existing {
					f.addPods("tainted", simpleDaemonSetLabel, 1)
				}
				f.expect(tc.want)
			})
		})
	}
	t.Run("TestDaemonSetRespectsTermination", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			f.addNodes(0, 1, simpleNodeLabel)
			f.addPods("node-0", simpleDaemonSetLabel, 1, deleting)
			f.expect([3]int{0, 0, 0})
		})
	})
	t.Run("TestDeleteUnscheduledPodForNotExistingNode", func(t *testing.T) {
		forStrategies(t, func(t *testing.T, s api.DaemonSetUpdateStrategy) {
			f := newFixture(t, s)
			f.addNodes(0, 1, nil)
			f.addPods("node-0", simpleDaemonSetLabel, 1)
			f.addPods("node-1", simpleDaemonSetLabel, 1)
			unscheduled := NewDaemonPod(f.ds(), "node-2", f.hash())
			unscheduled.Labels = maps.Clone(simpleDaemonSetLabel)
			require.NoError(t, create(f.c, unscheduled))
			f.expect([3]int{0, 1, 0})
			assert.Nil(t, f.c.Get("Pod", cluster.Key{Namespace: "default", Name: unscheduled.Name}), "only the unscheduled pod of the missing node-2 goes")
		})
	})
	t.Run("TestGetNodesToDaemonPods", func(t *testing.T) {
		f := newFixture(t, onDelete())
		f.addNodes(0, 2, nil)
		want := map[string]bool{}
		for _, p := range f.addPods("node-0", simpleDaemonSetLabel, 1) {
			want[p.Name] = true
		}
		for _, p := range f.addPods("node-1", simpleDaemonSetLabel, 1, orphan) {
			want[p.Name] = true
		}
		for _, p := range f.addPods("node-0", simpleDaemonSetLabel, 1, failed) {
			want[p.Name] = true
		}
		for _, p := range f.addPods("node-1", simpleDaemonSetLabel, 1, func(p *api.Pod) { p.Status.Phase = api.PodSucceeded }) {
			want[p.Name] = true
		}
		f.addPods("node-0", simpleDaemonSetLabel2, 1, orphan)
		f.addPods("node-1", simpleDaemonSetLabel, 1, func(p *api.Pod) {
			p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "other", UID: "other-uid", Controller: new(true)}}
		})
		f.addPods("node-0", simpleDaemonSetLabel, 1, failed, deleting)
		got := map[string]bool{}
		for _, pods := range mapByNode(Manage(f.c, f.ds(), f.hash()).Claims.Owned) {
			for _, p := range pods {
				got[p.Name] = true
			}
		}
		assert.Equal(t, want, got, "own pods and adoptable orphans, finished ones too unless being deleted")
	})
	t.Run("TestSurgePreservesReadyOldPods", func(t *testing.T) {
		f := newFixture(t, surge(api.FromInt(1)))
		f.addNodes(0, 5, nil)
		f.addPods("node-1", simpleDaemonSetLabel, 1, createdAt(100))
		f.addPods("node-1", simpleDaemonSetLabel, 1, oldTemplate, createdAt(50), ready)
		doomed := f.addPods("node-1", simpleDaemonSetLabel, 1, oldTemplate, createdAt(60), ready)[0]
		f.addPods("node-2", simpleDaemonSetLabel, 1)
		f.expect([3]int{3, 1, 0})
		assert.NotNil(t, f.c.Get("Pod", cluster.Key{Namespace: "default", Name: doomed.Name}).(*api.Pod).DeletionTimestamp, "the younger old pod is the one deleted")
	})
	t.Run("TestSurgeCreatesNewPodWhenAtMaxSurgeAndOldPodDeleted", func(t *testing.T) {
		f := newFixture(t, surge(api.FromInt(1)))
		f.addNodes(0, 5, nil)
		f.addPods("node-0", simpleDaemonSetLabel, 1, createdAt(100), readySince(false, 0))
		f.addPods("node-0", simpleDaemonSetLabel, 1, oldTemplate, createdAt(50), ready)
		for i := 1; i < 5; i++ {
			opts := []podOption{oldTemplate, createdAt(1), ready}
			if i == 4 {
				opts = append(opts, deleting)
			}
			f.addPods(fmt.Sprintf("node-%d", i), simpleDaemonSetLabel, 1, opts...)
		}
		f.expect([3]int{1, 0, 0})
	})
	t.Run("TestSurgeDeletesUnreadyOldPods", func(t *testing.T) {
		f := newFixture(t, surge(api.FromInt(1)))
		f.addNodes(0, 5, nil)
		f.addPods("node-1", simpleDaemonSetLabel, 1, createdAt(100))
		f.addPods("node-1", simpleDaemonSetLabel, 1, oldTemplate, createdAt(50))
		f.addPods("node-1", simpleDaemonSetLabel, 1, oldTemplate, createdAt(60), ready)
		f.addPods("node-2", simpleDaemonSetLabel, 1)
		f.expect([3]int{3, 2, 0})
	})
	for _, tc := range []struct {
		name    string
		now     int64
		deletes int
	}{
		{"TestSurgePreservesOldReadyWithUnsatisfiedMinReady", 60, 1},
		{"TestSurgeDeletesOldReadyWithUnsatisfiedMinReady", 70, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, surge(api.FromInt(1)), func(ds *api.DaemonSet) { ds.Spec.MinReadySeconds = 15 })
			f.addNodes(0, 5, nil)
			f.at(tc.now)
			f.addPods("node-1", simpleDaemonSetLabel, 1, createdAt(100), readySince(true, 50))
			f.addPods("node-1", simpleDaemonSetLabel, 1, oldTemplate, createdAt(50), ready)
			f.addPods("node-1", simpleDaemonSetLabel, 1, oldTemplate, createdAt(60), ready)
			f.addPods("node-2", simpleDaemonSetLabel, 1)
			f.expect([3]int{3, tc.deletes, 0})
		})
	}
}

func image(name string) func(*api.DaemonSet) {
	return func(ds *api.DaemonSet) { ds.Spec.Template.Spec.Containers[0].Image = name }
}

func strategy(s api.DaemonSetUpdateStrategy) func(*api.DaemonSet) {
	return func(ds *api.DaemonSet) { ds.Spec.UpdateStrategy = s }
}

// Upstream update_test.go (pkg/controller/daemon): 5 nodes unless stated, all pods made ready
// where upstream calls markPodsReady.
func TestUpstreamUpdateCases(t *testing.T) {
	t.Run("TestDaemonSetUpdatesPods", func(t *testing.T) {
		f := newFixture(t, onDelete())
		f.addNodes(0, 5, nil)
		f.expect([3]int{5, 0, 0})
		f.markPodsReady()
		f.update(func(ds *api.DaemonSet) { image("foo2/bar2")(ds); strategy(unavailable(api.FromInt(2)))(ds) })
		f.expect([3]int{0, 2, 0}, [3]int{2, 0, 0})
		f.markPodsReady()
		f.expect([3]int{0, 2, 0}, [3]int{2, 0, 0})
		f.markPodsReady()
		f.expect([3]int{0, 1, 0}, [3]int{1, 0, 0})
		f.markPodsReady()
		f.expect([3]int{0, 0, 0})
	})
	t.Run("TestDaemonSetUpdatesPodsWithMaxSurge", func(t *testing.T) {
		f := newFixture(t, onDelete())
		f.addNodes(0, 5, nil)
		f.expect([3]int{5, 0, 0})
		f.markPodsReady()
		f.update(func(ds *api.DaemonSet) { image("foo2/bar2")(ds); strategy(surge(api.FromInt(2)))(ds) })
		f.expect([3]int{2, 0, 0}, [3]int{0, 0, 0})
		f.markPodsReady()
		f.expect([3]int{2, 2, 0}, [3]int{0, 0, 0})
		f.markPodsReady()
		f.expect([3]int{1, 2, 0}, [3]int{0, 0, 0})
		f.markPodsReady()
		f.expect([3]int{0, 1, 0}, [3]int{0, 0, 0})
	})
	t.Run("TestDaemonSetUpdatesPodsNotMatchTainstWithMaxSurge", func(t *testing.T) {
		controlPlane := api.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintEffectNoSchedule}
		f := newFixture(t, surge(api.FromInt(1)), withToleration(api.Toleration{Key: controlPlane.Key, Operator: "Exists"}))
		f.addNodes(1, 4, nil)
		require.NoError(t, create(f.c, newNode("node-0", nil, controlPlane)))
		f.expect([3]int{5, 0, 0})
		f.markPodsReady()
		f.update(withToleration())
		f.expect([3]int{1, 1, 0}, [3]int{0, 0, 0})
		for range 3 {
			f.markPodsReady()
			f.expect([3]int{1, 1, 0}, [3]int{0, 0, 0})
		}
		f.markPodsReady()
		f.expect([3]int{0, 1, 0}, [3]int{0, 0, 0})
	})
	t.Run("TestDaemonSetUpdatesWhenNewPodIsNotReady", func(t *testing.T) {
		f := newFixture(t, onDelete())
		f.addNodes(0, 5, nil)
		f.expect([3]int{5, 0, 0})
		f.markPodsReady()
		f.update(func(ds *api.DaemonSet) { image("foo2/bar2")(ds); strategy(unavailable(api.FromInt(3)))(ds) })
		f.expect([3]int{0, 3, 0}, [3]int{3, 0, 0}, [3]int{0, 0, 0})
	})
	t.Run("TestDaemonSetUpdatesSomeOldPodsNotReady", func(t *testing.T) {
		f := newFixture(t, onDelete())
		f.addNodes(0, 5, nil)
		f.expect([3]int{5, 0, 0})
		f.markPodsReady()
		f.update(func(ds *api.DaemonSet) { image("foo2/bar2")(ds); strategy(unavailable(api.FromInt(2)))(ds) })
		f.expect([3]int{0, 2, 0}, [3]int{2, 0, 0}, [3]int{0, 0, 0})
		f.update(image("foo2/bar3"))
		f.expect([3]int{0, 2, 0}, [3]int{2, 0, 0}, [3]int{0, 0, 0})
		readyPods := 0
		for _, p := range f.c.Pods() {
			if api.IsPodReady(p) {
				readyPods++
			}
		}
		assert.Equal(t, 3, readyPods, "the three old pods never touched")
	})
	t.Run("TestDaemonSetUpdatesSaveOldHealthyPods", func(t *testing.T) {
		f := newFixture(t, onDelete())
		f.addNodes(0, 20, nil)
		f.expect([3]int{20, 0, 0})
		f.markPodsReady()
		f.update(func(ds *api.DaemonSet) { image("foo2/bar2")(ds); strategy(unavailable(api.FromInt(10)))(ds) })
		f.expect([3]int{0, 10, 0}, [3]int{10, 0, 0}, [3]int{0, 0, 0})
		for i := range 10 {
			f.update(func(ds *api.DaemonSet) {
				image(fmt.Sprintf("foo2/bar3-%d", i))(ds)
				strategy(unavailable(api.FromInt(int32(i%9 + 1))))(ds) // below 10, as upstream's random value
			})
			f.expect([3]int{0, 10, 0}, [3]int{10, 0, 0}, [3]int{0, 0, 0})
		}
		f.update(func(ds *api.DaemonSet) { image("foo2/bar4")(ds); strategy(unavailable(api.FromInt(11)))(ds) })
		f.expect([3]int{0, 11, 0}, [3]int{11, 0, 0}, [3]int{0, 0, 0})
		readyPods := 0
		for _, p := range f.c.Pods() {
			if api.IsPodReady(p) {
				readyPods++
			}
		}
		assert.Equal(t, 9, readyPods)
	})
	t.Run("TestDaemonSetUpdatesAllOldNotReadyPodsAndNewNotReadyPods", func(t *testing.T) {
		f := newFixture(t, unavailable(api.FromInt(10)))
		f.addNodes(0, 100, nil)
		f.expect([3]int{100, 0, 0})
		oldHash := f.hash()
		f.update(image("foo2/bar2"))
		newHash := controller.ComputeHash(&f.ds().Spec.Template, nil)
		// 88 new pods unavailable, 2 old unavailable, 10 old available.
		i := 0
		for _, p := range f.c.Pods() {
			next := api.DeepCopy(p)
			switch {
			case i < 88:
				next.Labels[api.LabelControllerRevisionHash] = newHash
			case i < 90:
				next.Labels[api.LabelControllerRevisionHash] = oldHash
			default:
				next.Labels[api.LabelControllerRevisionHash] = oldHash
				ready(next)
			}
			next.Labels[api.LabelPodTemplateGeneration] = ""
			require.NoError(t, f.c.Update(next))
			i++
		}
		f.expect([3]int{0, 2, 0}, [3]int{2, 0, 0}, [3]int{0, 0, 0})
		assert.Equal(t, map[string]int{newHash: 90, oldHash: 10}, f.liveHashes())
	})
	t.Run("TestDaemonSetUpdatesAllOldPodsNotReady", func(t *testing.T) {
		f := newFixture(t, onDelete())
		f.addNodes(0, 5, nil)
		f.expect([3]int{5, 0, 0})
		f.update(func(ds *api.DaemonSet) { image("foo2/bar2")(ds); strategy(unavailable(api.FromInt(3)))(ds) })
		f.expect([3]int{0, 5, 0}, [3]int{5, 0, 0}, [3]int{0, 0, 0})
	})
	t.Run("TestDaemonSetUpdatesAllOldPodsNotReadyMaxSurge", func(t *testing.T) {
		f := newFixture(t, onDelete())
		f.addNodes(0, 5, nil)
		f.expect([3]int{5, 0, 0})
		f.update(func(ds *api.DaemonSet) { image("foo2/bar2")(ds); strategy(surge(api.FromInt(3)))(ds) })
		f.at(100)
		f.expect([3]int{5, 0, 0})
		f.at(200)
		f.expect([3]int{0, 5, 0})
		f.setReadiness(true, 5, all)
		f.update(func(ds *api.DaemonSet) { ds.Spec.MinReadySeconds = 15; image("foo3/bar3")(ds) })
		f.at(300)
		f.expect([3]int{3, 0, 0})
		hash := f.hash()
		hasNew := map[string]bool{}
		for _, p := range f.c.Pods() {
			if p.Labels[api.LabelControllerRevisionHash] == hash {
				node, _ := GetTargetNodeName(p)
				hasNew[node] = true
			}
		}
		f.setReadiness(true, 2, func(p *api.Pod) bool { return p.Labels[api.LabelControllerRevisionHash] == hash })
		f.setReadiness(false, 1, func(p *api.Pod) bool {
			node, _ := GetTargetNodeName(p)
			return p.Labels[api.LabelControllerRevisionHash] != hash && !hasNew[node]
		})
		f.at(310)
		f.expect([3]int{1, 0, 0})
		f.at(320)
		f.expect([3]int{1, 3, 0})
		f.setReadiness(true, 3, func(p *api.Pod) bool { return p.Labels[api.LabelControllerRevisionHash] == hash })
		f.at(340)
		f.expect([3]int{0, 2, 0})
		f.at(350)
		f.expect([3]int{0, 0, 0})
	})
	t.Run("TestDaemonSetUpdatesNoTemplateChanged", func(t *testing.T) {
		f := newFixture(t, onDelete())
		f.addNodes(0, 5, nil)
		f.expect([3]int{5, 0, 0})
		f.update(strategy(unavailable(api.FromInt(3))))
		f.expect([3]int{0, 0, 0})
	})
	t.Run("TestGetUnavailableNumbers", func(t *testing.T) {
		pct := api.FromString
		for _, tc := range []struct {
			name                     string
			strategy                 api.DaemonSetUpdateStrategy
			desired                  int
			maxSurge, maxUnavailable int
		}{
			{"No nodes", unavailable(api.FromInt(0)), 0, 0, 0},
			{"Two nodes with ready pods", unavailable(api.FromInt(1)), 2, 0, 1},
			{"Two nodes, one node without pods (maxUnavailable 0 is forced to 1)", unavailable(api.FromInt(0)), 2, 0, 1},
			{"Two nodes, one node without pods, surge", surge(api.FromInt(0)), 2, 0, 1},
			{"Two nodes with pods, MaxUnavailable in percents", unavailable(pct("50%")), 2, 0, 1},
			{"Two nodes with pods, MaxUnavailable in percents, surge", surge(pct("50%")), 2, 1, 0},
			{"Two nodes with pods, MaxUnavailable is 100%, surge", surge(pct("100%")), 2, 2, 0},
			{"Two nodes with pods, MaxUnavailable in percents, pod terminating", unavailable(pct("50%")), 3, 0, 2},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ds := &api.DaemonSet{}
				ds.Spec.UpdateStrategy = tc.strategy
				s, u := Budgets(ds, tc.desired)
				assert.Equal(t, [2]int{tc.maxSurge, tc.maxUnavailable}, [2]int{s, u})
			})
		}
	})
	t.Run("TestControlledHistories", func(t *testing.T) {
		f := newFixture(t, onDelete())
		other := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
		other.Name = "other"
		require.NoError(t, create(f.c, other))
		for _, ns := range []string{"default", "other"} {
			cr := &api.ControllerRevision{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"}, Revision: 1}
			cr.Name, cr.Namespace, cr.Labels = "orphan", ns, maps.Clone(simpleDaemonSetLabel)
			require.NoError(t, create(f.c, cr))
		}
		f.expect([3]int{0, 0, 0})
		for _, ns := range []string{"default", "other"} {
			cr := f.c.Get("ControllerRevision", cluster.Key{Namespace: ns, Name: "orphan"}).(*api.ControllerRevision)
			_, controlled := api.ControllerOf(&cr.ObjectMeta)
			assert.Equal(t, ns == "default", controlled, "namespace %s", ns)
		}
	})
}

// TestBurstReplicasCapsASync: one sync creates at most burstReplicas (250) pods and deletes at
// most 250, and says when it left some for the next sync, which the simulation runs at once
// (createDiff and deleteDiff in syncNodes, which manage calls:
// pkg/controller/daemon/daemon_controller.go).
func TestBurstReplicasCapsASync(t *testing.T) {
	f := newFixture(t, onDelete())
	f.addNodes(0, 300, simpleNodeLabel)
	first := Sync(f.c, f.ds())
	assert.Equal(t, [2]int{250, 0}, [2]int{first.Created, first.Deleted})
	assert.True(t, first.Capped)
	require.NotNil(t, first.Rest, "creating was all the sync had to do")
	assert.Len(t, first.Rest.NodesNeeding, 50)
	second := Sync(f.c, f.ds())
	assert.Equal(t, Outcome{Created: 50, Changed: true}, second)

	for _, n := range f.c.Nodes() {
		next := *n
		next.Spec.Taints = []api.Taint{noExecuteTaint}
		require.NoError(t, f.c.Update(&next))
	}
	assert.Equal(t, Outcome{Deleted: 250, Changed: true, Capped: true}, Sync(f.c, f.ds()))
	assert.Equal(t, Outcome{Deleted: 50, Changed: true}, Sync(f.c, f.ds()))
}

// TestSyncRestIsAWholeSync: after a sync cut short by burstReplicas with only creates left,
// SyncRest leaves the cluster exactly as whole syncs would — the same pods, names, events,
// status and resourceVersions — for DaemonSets that want every node, some nodes, or nodes
// some of which already run a pod.
func TestSyncRestIsAWholeSync(t *testing.T) {
	for name, setup := range map[string]func(f *fixture){
		"every node": func(f *fixture) { f.addNodes(0, 700, simpleNodeLabel) },
		"a nodeSelector and taints": func(f *fixture) {
			f.addNodes(0, 400, simpleNodeLabel)
			f.addNodes(400, 300, map[string]string{"color": "red"})
			f.addNodes(700, 200, simpleNodeLabel, noScheduleTaint)
		},
		"some pods already there": func(f *fixture) {
			f.addNodes(0, 600, simpleNodeLabel)
			for i := 0; i < 600; i += 7 {
				f.addPods(fmt.Sprintf("node-%d", i), simpleDaemonSetLabel, 1, ready)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			run := func(rest bool) []string {
				f := newFixture(t, unavailable(api.FromInt(1)), func(ds *api.DaemonSet) {
					ds.Spec.Template.Spec.NodeSelector = map[string]string{"color": "blue"}
				})
				setup(f)
				syncs := 0
				for out := Sync(f.c, f.ds()); out.Capped; syncs++ {
					if rest && out.Rest != nil {
						out = SyncRest(f.c, f.ds(), *out.Rest)
					} else {
						out = Sync(f.c, f.ds())
					}
				}
				require.Positive(t, syncs, "the burst cap cut the first sync short")
				var all []string // one line per object, so that a difference shows as one
				for _, kind := range []string{"DaemonSet", "ControllerRevision", "Pod", "Event"} {
					for _, o := range f.c.ListKind(kind) {
						data, err := json.Marshal(o)
						require.NoError(t, err)
						all = append(all, string(data))
					}
				}
				return all
			}
			assert.Equal(t, run(false), run(true))
		})
	}
}
