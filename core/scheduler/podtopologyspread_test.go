package scheduler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// spreadNode is a node of a spread test: its labels as "k=v,k2" (k2 with the empty value), and
// whether it has upstream tests' taint (node.kubernetes.io/unschedulable:NoSchedule).
type spreadNode struct {
	name, labels string
	tainted      bool
}

// spreadPod is a pod bound to a node, named after the node and its place among the test's pods,
// in namespace ns ("" for default), terminating when deleted is set.
type spreadPod struct {
	node, labels, ns string
	terminating      bool
}

// on is a pod in default on node with labels.
func on(node, labels string) spreadPod { return spreadPod{node: node, labels: labels} }

func labelSet(s string) map[string]string {
	out := map[string]string{}
	for kv := range strings.SplitSeq(s, ",") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}

// keyExists is upstream tests' fooSelector and barSelector: the key exists.
func keyExists(key string) *api.LabelSelector {
	return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: api.LabelSelectorOpExists}}}
}

func tsc(maxSkew int32, key, when string, sel *api.LabelSelector) api.TopologySpreadConstraint {
	return api.TopologySpreadConstraint{MaxSkew: maxSkew, TopologyKey: key, WhenUnsatisfiable: when, LabelSelector: sel}
}

// spreadWorld is a cluster of 4-cpu 4Gi nodes and the pods bound to them.
func spreadWorld(t *testing.T, nodes []spreadNode, pods []spreadPod) *cluster.Cluster {
	c := world(t, nil, nil)
	for _, n := range nodes {
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: n.name, Labels: labelSet(n.labels)}}
		if n.tainted {
			node.Spec.Taints = []api.Taint{{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}}
		}
		list := api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4"), api.ResourceMemory: api.MustParseQuantity("4Gi"), api.ResourcePods: api.MustParseQuantity("110")}
		node.Status.Capacity, node.Status.Allocatable = list, list
		require.NoError(t, create(c, node))
	}
	for i, p := range pods {
		ns := p.ns
		if ns == "" {
			ns = "default"
		}
		if c.Get("Namespace", cluster.Key{Name: ns}) == nil {
			require.NoError(t, create(c, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}))
		}
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("%s-%d", p.node, i), Namespace: ns, Labels: labelSet(p.labels)},
			Spec: api.PodSpec{NodeName: p.node, Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
		pod.Status.Phase = api.PodRunning
		require.NoError(t, create(c, pod))
		if p.terminating {
			stored := api.DeepCopy(c.Get("Pod", cluster.KeyOf(pod)).(*api.Pod))
			now := api.NewTime(c.Now())
			stored.DeletionTimestamp = &now
			require.NoError(t, c.Update(stored))
		}
	}
	return c
}

// incoming creates the pod to schedule, "p" in default, with labels and constraints, through
// the API server (which merges matchLabelKeys), changed first by each of opts.
func incoming(t *testing.T, c *cluster.Cluster, labels string, constraints []api.TopologySpreadConstraint, opts ...func(*api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", Labels: labelSet(labels)},
		Spec: api.PodSpec{TopologySpreadConstraints: constraints, Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	for _, o := range opts {
		o(p)
	}
	require.NoError(t, create(c, p))
	return pod(c, "p")
}

func withNodeSelector(labels string) func(*api.Pod) {
	return func(p *api.Pod) { p.Spec.NodeSelector = labelSet(labels) }
}

// withNodeAffinity requires of the pod's node one expression, key op values.
func withNodeAffinity(key string, op api.NodeSelectorOperator, values ...string) func(*api.Pod) {
	return func(p *api.Pod) {
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: op, Values: values}}}}}}}
	}
}

// withPolicies sets a constraint's nodeAffinityPolicy and nodeTaintsPolicy, each unless "".
func withPolicies(c api.TopologySpreadConstraint, affinity, taints string) api.TopologySpreadConstraint {
	if affinity != "" {
		c.NodeAffinityPolicy = &affinity
	}
	if taints != "" {
		c.NodeTaintsPolicy = &taints
	}
	return c
}

// zonesAndNodes is upstream tests' usual layout: node-a and node-b in zone1, node-x and node-y
// in zone2, each labelled node=<its name>.
var zonesAndNodes = []spreadNode{
	{name: "node-a", labels: "zone=zone1,node=node-a"},
	{name: "node-b", labels: "zone=zone1,node=node-b"},
	{name: "node-x", labels: "zone=zone2,node=node-x"},
	{name: "node-y", labels: "zone=zone2,node=node-y"},
}

// spread2103 is upstream tests' 2/1/0/3 spread of foo pods over node-a, node-b, node-x, node-y.
var spread2103 = []spreadPod{
	on("node-a", "foo"), on("node-a", "foo"), on("node-b", "foo"),
	on("node-y", "foo"), on("node-y", "foo"), on("node-y", "foo"),
}

// TestSpreadFilterHoldsEachConstraintsMaxSkew pins PodTopologySpread's Filter alone, node by
// node, for one or two DoNotSchedule constraints, with upstream's cases
// (pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go: TestSingleConstraint,
// TestMultipleConstraints): the domain's count plus the pod itself, less the smallest count,
// against maxSkew; minDomains; the node inclusion policies; a node missing the key. Nodes other
// filters would reject still pass this one.
func TestSpreadFilterHoldsEachConstraintsMaxSkew(t *testing.T) {
	foo, bar := keyExists("foo"), keyExists("bar")
	zone := func(maxSkew int32, sel *api.LabelSelector) api.TopologySpreadConstraint {
		return tsc(maxSkew, "zone", api.DoNotSchedule, sel)
	}
	node := func(maxSkew int32, sel *api.LabelSelector) api.TopologySpreadConstraint {
		return tsc(maxSkew, "node", api.DoNotSchedule, sel)
	}
	withMinDomains := func(c api.TopologySpreadConstraint, n int32) api.TopologySpreadConstraint {
		c.MinDomains = &n
		return c
	}
	threeNodes := []spreadNode{{name: "node-a", labels: "node=node-a"}, {name: "node-b", labels: "node=node-b"}, {name: "node-c", labels: "node=node-c"}}
	fooNodes := []spreadNode{{name: "node-a", labels: "node=node-a,foo"}, {name: "node-b", labels: "node=node-b,foo"}, {name: "node-x", labels: "node=node-x,foo"}, {name: "node-y", labels: "node=node-y"}}
	taintedY := []spreadNode{{name: "node-a", labels: "node=node-a,foo"}, {name: "node-b", labels: "node=node-b,foo"}, {name: "node-x", labels: "node=node-x,foo"}, {name: "node-y", labels: "node=node-y", tainted: true}}
	oneEach := []spreadPod{on("node-a", "foo"), on("node-b", "foo"), on("node-y", "foo")}
	tests := []struct {
		name        string
		labels      string
		constraints []api.TopologySpreadConstraint
		opts        []func(*api.Pod)
		nodes       []spreadNode
		pods        []spreadPod
		want        []code // by node, in the order given
	}{
		{"no existing pods", "foo", []api.TopologySpreadConstraint{zone(1, foo)}, nil, zonesAndNodes, nil,
			[]code{fits, fits, fits, fits}},
		{"no existing pods, the pod does not match itself", "foo", []api.TopologySpreadConstraint{zone(1, bar)}, nil, zonesAndNodes, nil,
			[]code{fits, fits, fits, fits}},
		{"pods in another namespace do not count", "foo", []api.TopologySpreadConstraint{zone(1, foo)}, nil, zonesAndNodes,
			[]spreadPod{{node: "node-a", labels: "foo", ns: "ns1"}, {node: "node-a", labels: "foo", ns: "ns2"}, on("node-x", "foo"), on("node-y", "foo")},
			[]code{fits, fits, unschedulable, unschedulable}},
		{"a null selector matches no pod", "foo", []api.TopologySpreadConstraint{zone(1, nil)}, nil, zonesAndNodes,
			[]spreadPod{on("node-x", "foo"), on("node-y", "foo")},
			[]code{fits, fits, fits, fits}},
		{"zones 3/3: every node fits", "foo", []api.TopologySpreadConstraint{zone(1, foo)}, nil, zonesAndNodes, spread2103,
			[]code{fits, fits, fits, fits}},
		{"a node without the zone label is rejected unresolvably and its pods do not count", "foo", []api.TopologySpreadConstraint{zone(1, foo)}, nil,
			[]spreadNode{{name: "node-a", labels: "zone=zone1,node=node-a"}, {name: "node-b", labels: "zon=zone1,node=node-b"}, {name: "node-x", labels: "zone=zone2,node=node-x"}, {name: "node-y", labels: "zone=zone2,node=node-y"}},
			[]spreadPod{on("node-a", "foo"), on("node-b", "foo"), on("node-x", "foo"), on("node-y", "foo")},
			[]code{fits, unschedulableUnresolvable, unschedulable, unschedulable}},
		{"no node has the rack label", "foo", []api.TopologySpreadConstraint{tsc(1, "rack", api.DoNotSchedule, foo)}, nil,
			[]spreadNode{{name: "node-a", labels: "zone=zone1,node=node-a"}, {name: "node-x", labels: "zone=zone2,node=node-x"}}, nil,
			[]code{unschedulableUnresolvable, unschedulableUnresolvable}},
		{"nodes 2/1/0/3: only node-x fits", "foo", []api.TopologySpreadConstraint{node(1, foo)}, nil, zonesAndNodes, spread2103,
			[]code{unschedulable, unschedulable, fits, unschedulable}},
		{"nodes 2/1/0/3, maxSkew 2: node-b and node-x fit", "foo", []api.TopologySpreadConstraint{node(2, foo)}, nil, zonesAndNodes, spread2103,
			[]code{unschedulable, fits, fits, unschedulable}},
		{"nodes 2/1/0/3, the pod does not match itself", "bar", []api.TopologySpreadConstraint{node(1, foo)}, nil, zonesAndNodes, spread2103,
			[]code{unschedulable, fits, fits, unschedulable}},
		{"node affinity leaves node-b and node-x out of the count: 2/~1~/~0~/3", "foo", []api.TopologySpreadConstraint{node(1, foo)},
			[]func(*api.Pod){withNodeAffinity("node", api.NodeSelectorOpIn, "node-a", "node-y")}, zonesAndNodes, spread2103,
			[]code{fits, fits, fits, unschedulable}},
		{"terminating pods do not count", "foo", []api.TopologySpreadConstraint{node(1, foo)}, nil,
			[]spreadNode{{name: "node-a", labels: "node=node-a"}, {name: "node-b", labels: "node=node-b"}},
			[]spreadPod{{node: "node-a", labels: "foo", terminating: true}, on("node-b", "foo")},
			[]code{fits, unschedulable}},
		{"node affinity leaves node-b out of the zone count: 0/~2~/0/1", "foo", []api.TopologySpreadConstraint{zone(1, foo)},
			[]func(*api.Pod){withNodeAffinity("node", api.NodeSelectorOpNotIn, "node-b")}, zonesAndNodes,
			[]spreadPod{on("node-b", "foo"), on("node-b", "foo"), on("node-y", "foo")},
			[]code{fits, fits, unschedulable, unschedulable}},
		{"2/2/1 with fewer domains than minDomains: the global minimum is 0", "foo", []api.TopologySpreadConstraint{withMinDomains(node(2, foo), 4)}, nil, threeNodes,
			[]spreadPod{on("node-a", "foo"), on("node-a", "foo"), on("node-b", "foo"), on("node-b", "foo"), on("node-c", "foo")},
			[]code{unschedulable, unschedulable, fits}},
		{"2/2/1 with more domains than minDomains: every node fits", "foo", []api.TopologySpreadConstraint{withMinDomains(node(2, foo), 2)}, nil, threeNodes,
			[]spreadPod{on("node-a", "foo"), on("node-a", "foo"), on("node-b", "foo"), on("node-b", "foo"), on("node-c", "foo")},
			[]code{fits, fits, fits}},
		{"zones 2/1 with fewer domains than minDomains", "foo", []api.TopologySpreadConstraint{withMinDomains(zone(2, foo), 3)}, nil, zonesAndNodes,
			[]spreadPod{on("node-a", "foo"), on("node-b", "foo"), on("node-y", "foo")},
			[]code{unschedulable, unschedulable, fits, fits}},
		{"nodeAffinityPolicy Honor with a nodeSelector: 1/1/0/~0~", "foo", []api.TopologySpreadConstraint{node(1, foo)},
			[]func(*api.Pod){withNodeSelector("foo")}, fooNodes, oneEach,
			[]code{unschedulable, unschedulable, fits, fits}},
		{"nodeAffinityPolicy Ignore with a nodeSelector: 1/1/0/1", "foo", []api.TopologySpreadConstraint{withPolicies(node(1, foo), api.NodeInclusionPolicyIgnore, "")},
			[]func(*api.Pod){withNodeSelector("foo")}, fooNodes, oneEach,
			[]code{unschedulable, unschedulable, fits, unschedulable}},
		{"nodeAffinityPolicy Honor with node affinity: 1/1/0/~0~", "foo", []api.TopologySpreadConstraint{node(1, foo)},
			[]func(*api.Pod){withNodeAffinity("foo", api.NodeSelectorOpIn, "")}, fooNodes, oneEach,
			[]code{unschedulable, unschedulable, fits, fits}},
		{"nodeAffinityPolicy Ignore with node affinity: 1/1/0/1", "foo", []api.TopologySpreadConstraint{withPolicies(node(1, foo), api.NodeInclusionPolicyIgnore, "")},
			[]func(*api.Pod){withNodeAffinity("foo", api.NodeSelectorOpIn, "")}, fooNodes, oneEach,
			[]code{unschedulable, unschedulable, fits, unschedulable}},
		{"nodeTaintsPolicy Honor: the tainted node does not count, 1/1/0/~0~", "foo", []api.TopologySpreadConstraint{withPolicies(node(1, foo), "", api.NodeInclusionPolicyHonor)}, nil,
			taintedY, oneEach,
			[]code{unschedulable, unschedulable, fits, fits}},
		{"nodeTaintsPolicy Ignore by default: 1/1/0/1", "foo", []api.TopologySpreadConstraint{node(1, foo)}, nil,
			taintedY, oneEach,
			[]code{unschedulable, unschedulable, fits, unschedulable}},
		{"zone and node constraints, spreads [3/3, 2/1/0/3]: node-x", "foo", []api.TopologySpreadConstraint{zone(1, foo), node(1, foo)}, nil, zonesAndNodes, spread2103,
			[]code{unschedulable, unschedulable, fits, unschedulable}},
		{"zone and node constraints, spreads [3/4, 2/1/0/4]: none", "foo", []api.TopologySpreadConstraint{zone(1, foo), node(1, foo)}, nil, zonesAndNodes,
			append(spread2103[:len(spread2103):len(spread2103)], on("node-y", "foo")),
			[]code{unschedulable, unschedulable, unschedulable, unschedulable}},
		{"constraints with different selectors, spreads [1/0, 1/0/0/1]: node-x", "foo,bar", []api.TopologySpreadConstraint{zone(1, foo), node(1, bar)}, nil, zonesAndNodes,
			[]spreadPod{on("node-a", "foo"), on("node-y", "bar")},
			[]code{unschedulable, unschedulable, fits, unschedulable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := spreadWorld(t, tt.nodes, tt.pods)
			p := incoming(t, c, tt.labels, tt.constraints, tt.opts...)
			cy := NewCycle(c)
			st := cy.newCycleState(p)
			require.NotNil(t, st.spread, "PreFilter ran")
			var got []code
			for _, n := range tt.nodes {
				v := podTopologySpread{}.filter(st, cy.byName[n.name])
				got = append(got, v.code)
				switch v.code {
				case unschedulable:
					assert.Equal(t, []string{"node(s) didn't match pod topology spread constraints"}, v.reasons)
				case unschedulableUnresolvable:
					assert.Equal(t, []string{"node(s) didn't match pod topology spread constraints (missing required label)"}, v.reasons)
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestSpreadPreFilterSkipsWithoutDoNotScheduleConstraints: a pod whose constraints are all
// ScheduleAnyway, or that has none (the system defaults are ScheduleAnyway), skips the filter
// (filtering.go: PreFilter returns Skip when no constraint is left).
func TestSpreadPreFilterSkipsWithoutDoNotScheduleConstraints(t *testing.T) {
	c := spreadWorld(t, zonesAndNodes, nil)
	cy := NewCycle(c)
	assert.Nil(t, cy.newCycleState(incoming(t, c, "foo", []api.TopologySpreadConstraint{tsc(1, "zone", api.ScheduleAnyway, keyExists("foo"))})).spread)
	c.Delete(pod(c, "p"))
	assert.Nil(t, cy.newCycleState(incoming(t, c, "foo", nil)).spread)
}

// service creates a Service in default selecting selector.
func service(t *testing.T, c *cluster.Cluster, name string, selector map[string]string) {
	require.NoError(t, create(c, &api.Service{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.ServiceSpec{Selector: selector, Ports: []api.ServicePort{{Port: 80}}}}))
}

// spreadScores runs PodTopologySpread's PreScore, Score and NormalizeScore for the pod "p" on
// the feasible nodes, by name; nil when PreScore skips.
func spreadScores(t *testing.T, c *cluster.Cluster, feasible []string) map[string]int64 {
	cy := NewCycle(c)
	var infos []*nodeInfo
	for _, n := range feasible {
		require.NotNil(t, cy.byName[n], n)
		infos = append(infos, cy.byName[n])
	}
	scores := podTopologySpread{}.score(cy.newCycleState(pod(c, "p")), infos)
	if scores == nil {
		return nil
	}
	out := map[string]int64{}
	for i, n := range feasible {
		out[n] = scores[i]
	}
	return out
}

// TestSpreadScoreFavoursTheLeastCrowdedDomains pins PodTopologySpread's PreScore, Score and
// NormalizeScore with upstream's cases (pkg/scheduler/framework/plugins/podtopologyspread/
// scoring_test.go: TestPodTopologySpreadScore, PreScore and Score in scoring.go): each
// ScheduleAnyway constraint adds count × ln(domains + 2) + maxSkew − 1, rounded, and fewer is
// better; hostname counts the node's own pods, other keys the pods of every node in the
// domain; a node lacking a key of the pod's own constraints scores 0; nodes that failed the
// filters count in domains but are not scored. Upstream's cases that the API server would
// refuse (two constraints on one key, minDomains with ScheduleAnyway) and those with a feature
// gate off are left out.
func TestSpreadScoreFavoursTheLeastCrowdedDomains(t *testing.T) {
	foo, bar := keyExists("foo"), keyExists("bar")
	host := func(maxSkew int32, sel *api.LabelSelector) api.TopologySpreadConstraint {
		return tsc(maxSkew, api.LabelHostname, api.ScheduleAnyway, sel)
	}
	zone := func(sel *api.LabelSelector) api.TopologySpreadConstraint {
		return tsc(1, "zone", api.ScheduleAnyway, sel)
	}
	byNode := func(c api.TopologySpreadConstraint) api.TopologySpreadConstraint { c.TopologyKey = "node"; return c }
	withKeys := func(c api.TopologySpreadConstraint, keys ...string) api.TopologySpreadConstraint {
		c.MatchLabelKeys = keys
		return c
	}
	hosts := func(names ...string) []spreadNode {
		var out []spreadNode
		for _, n := range names {
			out = append(out, spreadNode{name: n, labels: api.LabelHostname + "=" + n})
		}
		return out
	}
	zonesAndHosts := []spreadNode{
		{name: "node-a", labels: "zone=zone1,kubernetes.io/hostname=node-a"},
		{name: "node-b", labels: "zone=zone1,kubernetes.io/hostname=node-b"},
		{name: "node-x", labels: "zone=zone2,kubernetes.io/hostname=node-x"},
		{name: "node-y", labels: "zone=zone2,kubernetes.io/hostname=node-y"},
	}
	spread4321 := []spreadPod{
		on("node-a", "foo"), on("node-a", "foo"), on("node-a", "foo"), on("node-a", "foo"),
		on("node-b", "foo"), on("node-b", "foo"), on("node-b", "foo"),
		on("node-c", "foo"), on("node-c", "foo"), on("node-d", "foo"),
	}
	spread4213 := []spreadPod{
		on("node-a", "foo"), on("node-a", "foo"), on("node-a", "foo"), on("node-a", "foo"),
		on("node-b", "foo"), on("node-b", "foo"), on("node-x", "foo"),
		on("node-y", "foo"), on("node-y", "foo"), on("node-y", "foo"),
	}
	spread2103 := []spreadPod{
		on("node-a", "foo"), on("node-a", "foo"), on("node-b", "foo"),
		on("node-d", "foo"), on("node-d", "foo"), on("node-d", "foo"),
	}
	fooPolicyNodes := []spreadNode{{name: "node-a", labels: "node=node-a,foo"}, {name: "node-b", labels: "node=node-b,foo"}, {name: "node-c", labels: "node=node-c"}}
	taintedC := []spreadNode{{name: "node-a", labels: "node=node-a"}, {name: "node-b", labels: "node=node-b"}, {name: "node-c", labels: "node=node-c", tainted: true}}
	twoOneOne := []spreadPod{on("node-a", "foo"), on("node-a", "foo"), on("node-b", "foo"), on("node-c", "foo")}
	differentSelectors := []spreadPod{on("node-a", "foo"), on("node-b", "foo,bar"), on("node-y", "foo"), on("node-y", "bar")}
	tests := []struct {
		name        string
		labels      string
		constraints []api.TopologySpreadConstraint
		opts        []func(*api.Pod)
		service     map[string]string // a Service's selector, if any
		nodes       []spreadNode
		pods        []spreadPod
		feasible    []string // the nodes that passed the filters; the others failed
		want        []int64  // by feasible node
	}{
		{"one hostname constraint, no pods", "foo", []api.TopologySpreadConstraint{host(1, foo)}, nil, nil,
			hosts("node-a", "node-b"), nil, []string{"node-a", "node-b"}, []int64{100, 100}},
		{"one candidate scores 100", "foo", []api.TopologySpreadConstraint{host(1, foo)}, nil, nil,
			hosts("node-a", "node-b"), []spreadPod{on("node-a", "foo"), on("node-a", "foo"), on("node-b", "foo")}, []string{"node-a"}, []int64{100}},
		{"the same count everywhere", "foo", []api.TopologySpreadConstraint{host(1, foo)}, nil, nil,
			hosts("node-a", "node-b"), []spreadPod{on("node-a", "foo"), on("node-b", "foo")}, []string{"node-a", "node-b"}, []int64{100, 100}},
		{"2/1/0/3 over four candidates", "foo", []api.TopologySpreadConstraint{host(1, foo)}, nil, nil,
			hosts("node-a", "node-b", "node-c", "node-d"), spread2103, []string{"node-a", "node-b", "node-c", "node-d"}, []int64{20, 60, 100, 0}},
		{"a null selector counts nothing", "foo", []api.TopologySpreadConstraint{host(1, nil)}, nil, nil,
			hosts("node-a", "node-b", "node-c", "node-d"), spread2103, []string{"node-a", "node-b", "node-c", "node-d"}, []int64{100, 100, 100, 100}},
		{"2/1/0/3 with maxSkew 2", "foo", []api.TopologySpreadConstraint{host(2, foo)}, nil, nil,
			hosts("node-a", "node-b", "node-c", "node-d"), spread2103, []string{"node-a", "node-b", "node-c", "node-d"}, []int64{33, 66, 100, 16}},
		{"4/3/2/1 with maxSkew 3", "foo", []api.TopologySpreadConstraint{host(3, foo)}, nil, nil,
			hosts("node-a", "node-b", "node-c", "node-d"), spread4321, []string{"node-a", "node-b", "node-c", "node-d"}, []int64{44, 66, 77, 100}},
		{"system defaults, nodes without zones, the pods a Service selects", "foo", nil, nil, map[string]string{"foo": ""},
			hosts("node-a", "node-b", "node-c", "node-d"), spread4321, []string{"node-a", "node-b", "node-c", "node-d"}, []int64{44, 66, 77, 100}},
		{"4/2/1/~3~: three candidates", "foo", []api.TopologySpreadConstraint{host(1, foo)}, nil, nil,
			hosts("node-a", "node-b", "node-x", "node-y"), spread4213, []string{"node-a", "node-b", "node-x"}, []int64{33, 83, 100}},
		{"4/?2?/1/~3~: a candidate without the hostname label scores 0", "foo", []api.TopologySpreadConstraint{host(1, foo)}, nil, nil,
			[]spreadNode{{name: "node-a", labels: "kubernetes.io/hostname=node-a"}, {name: "node-b", labels: "n=node-b"}, {name: "node-x", labels: "kubernetes.io/hostname=node-x"}, {name: "node-y", labels: "kubernetes.io/hostname=node-y"}},
			spread4213, []string{"node-a", "node-b", "node-x"}, []int64{16, 0, 100}},
		{"one zone constraint, three candidates", "foo", []api.TopologySpreadConstraint{zone(foo)}, nil, nil,
			zonesAndHosts, spread4213, []string{"node-a", "node-b", "node-x"}, []int64{75, 75, 100}},
		{"zone and hostname constraints, 2/~1~/2/~4~", "foo", []api.TopologySpreadConstraint{zone(foo), host(1, foo)}, nil, nil, zonesAndHosts,
			[]spreadPod{on("node-a", "foo"), on("node-a", "foo"), on("node-b", "foo"), on("node-x", "foo"), on("node-x", "foo"),
				on("node-y", "foo"), on("node-y", "foo"), on("node-y", "foo"), on("node-y", "foo")},
			[]string{"node-a", "node-x"}, []int64{100, 63}},
		{"zone and hostname constraints with different selectors", "foo,bar", []api.TopologySpreadConstraint{zone(foo), host(1, bar)}, nil, nil,
			zonesAndHosts, differentSelectors, []string{"node-a", "node-b", "node-x", "node-y"}, []int64{60, 20, 100, 60}},
		{"zone and hostname constraints, some nodes without pods", "foo,bar", []api.TopologySpreadConstraint{zone(foo), host(1, bar)}, nil, nil,
			zonesAndHosts, []spreadPod{on("node-b", "bar"), on("node-x", "foo"), on("node-y", "foo,bar")},
			[]string{"node-a", "node-b", "node-x", "node-y"}, []int64{100, 60, 40, 0}},
		{"zone and hostname constraints with different selectors, three candidates", "foo,bar", []api.TopologySpreadConstraint{zone(foo), host(1, bar)}, nil, nil,
			zonesAndHosts, differentSelectors, []string{"node-a", "node-b", "node-x"}, []int64{50, 25, 100}},
		{"pods in another namespace do not count", "foo", []api.TopologySpreadConstraint{host(1, foo)}, nil, nil, hosts("node-a", "node-b"),
			[]spreadPod{{node: "node-a", labels: "foo", ns: "ns1"}, on("node-a", "foo"), on("node-b", "foo"), on("node-b", "foo")},
			[]string{"node-a", "node-b"}, []int64{100, 33}},
		{"terminating pods do not count", "foo", []api.TopologySpreadConstraint{host(1, foo)}, nil, nil, hosts("node-a", "node-b"),
			[]spreadPod{{node: "node-a", labels: "foo", terminating: true}, on("node-b", "foo")},
			[]string{"node-a", "node-b"}, []int64{100, 0}},
		{"nodeAffinityPolicy Honor with a nodeSelector", "foo", []api.TopologySpreadConstraint{byNode(host(1, foo))}, []func(*api.Pod){withNodeSelector("foo")}, nil,
			fooPolicyNodes, twoOneOne, []string{"node-a", "node-b", "node-c"}, []int64{0, 33, 100}},
		{"nodeAffinityPolicy Ignore with a nodeSelector", "foo", []api.TopologySpreadConstraint{withPolicies(byNode(host(1, foo)), api.NodeInclusionPolicyIgnore, "")}, []func(*api.Pod){withNodeSelector("foo")}, nil,
			fooPolicyNodes, twoOneOne, []string{"node-a", "node-b", "node-c"}, []int64{66, 100, 100}},
		{"nodeAffinityPolicy Honor with node affinity", "foo", []api.TopologySpreadConstraint{byNode(host(1, foo))}, []func(*api.Pod){withNodeAffinity("foo", api.NodeSelectorOpIn, "")}, nil,
			fooPolicyNodes, twoOneOne, []string{"node-a", "node-b", "node-c"}, []int64{0, 33, 100}},
		{"nodeAffinityPolicy Ignore with node affinity", "foo", []api.TopologySpreadConstraint{withPolicies(byNode(host(1, foo)), api.NodeInclusionPolicyIgnore, "")}, []func(*api.Pod){withNodeAffinity("foo", api.NodeSelectorOpIn, "")}, nil,
			fooPolicyNodes, twoOneOne, []string{"node-a", "node-b", "node-c"}, []int64{66, 100, 100}},
		{"nodeTaintsPolicy Honor", "foo", []api.TopologySpreadConstraint{withPolicies(byNode(host(1, foo)), "", api.NodeInclusionPolicyHonor)}, nil, nil,
			taintedC, twoOneOne, []string{"node-a", "node-b", "node-c"}, []int64{0, 33, 100}},
		{"nodeTaintsPolicy Ignore by default", "foo", []api.TopologySpreadConstraint{byNode(host(1, foo))}, nil, nil,
			taintedC, twoOneOne, []string{"node-a", "node-b", "node-c"}, []int64{66, 100, 100}},
		{"matchLabelKeys ANDed with an empty labelSelector", "foo,bar", []api.TopologySpreadConstraint{withKeys(zone(&api.LabelSelector{}), "foo"), withKeys(host(1, &api.LabelSelector{}), "bar")}, nil, nil,
			[]spreadNode{{name: "node-a", labels: "zone=zone1,kubernetes.io/hostname=node-a"}, {name: "node-b", labels: "zone=zone1,kubernetes.io/hostname=node-b"}, {name: "node-c", labels: "zone=zone2,kubernetes.io/hostname=node-c"}, {name: "node-d", labels: "zone=zone2,kubernetes.io/hostname=node-d"}},
			[]spreadPod{on("node-a", "foo"), on("node-b", "foo,bar"), on("node-c", "foo"), on("node-c", "bar")},
			[]string{"node-a", "node-b", "node-c", "node-d"}, []int64{60, 20, 60, 100}},
		{"matchLabelKeys ANDed with a labelSelector", "foo,bar,baz", []api.TopologySpreadConstraint{zone(foo), withKeys(host(1, bar), "baz")}, nil, nil,
			[]spreadNode{{name: "node-a", labels: "zone=zone1,kubernetes.io/hostname=node-a"}, {name: "node-b", labels: "zone=zone1,kubernetes.io/hostname=node-b"}, {name: "node-c", labels: "zone=zone2,kubernetes.io/hostname=node-c"}, {name: "node-d", labels: "zone=zone2,kubernetes.io/hostname=node-d"}},
			[]spreadPod{on("node-a", "foo"), on("node-b", "foo,bar,baz"), on("node-c", "foo"), on("node-c", "bar"), on("node-c", "bar,baz")},
			[]string{"node-a", "node-b", "node-c", "node-d"}, []int64{60, 20, 60, 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := spreadWorld(t, tt.nodes, tt.pods)
			if tt.service != nil {
				service(t, c, "svc", tt.service)
			}
			incoming(t, c, tt.labels, tt.constraints, tt.opts...)
			got := spreadScores(t, c, tt.feasible)
			require.NotNil(t, got, "PreScore ran")
			var scores []int64
			for _, n := range tt.feasible {
				scores = append(scores, got[n])
			}
			assert.Equal(t, tt.want, scores)
		})
	}
}

// replicaSet creates a ReplicaSet in default with no replicas (nothing runs the controller
// here) selecting the labels of its template.
func replicaSet(t *testing.T, c *cluster.Cluster, name, labels string) *api.ReplicaSet {
	zero := int32(0)
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: api.ReplicaSetSpec{Replicas: &zero,
		Selector: &api.LabelSelector{MatchLabels: labelSet(labels)},
		Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labelSet(labels)}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}}}
	require.NoError(t, create(c, rs))
	return c.Get("ReplicaSet", cluster.KeyOf(rs)).(*api.ReplicaSet)
}

func ownedBy(apiVersion, kind, name string) func(*api.Pod) {
	return func(p *api.Pod) {
		yes := true
		p.OwnerReferences = []api.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name, UID: "uid-" + name, Controller: &yes}}
	}
}

// TestSpreadDefaultsComeFromServicesAndTheReplicaSet pins the system default constraints
// (plugin.go: systemDefaultConstraints; common.go: buildDefaultConstraints; helper/spread.go:
// DefaultSelector; scoring.go: PreScore's requireAllTopologies) and upstream's cases
// (scoring_test.go: TestPreScoreSkip, TestPreScoreStateEmptyNodes "system default constraints
// and a replicaset"): a pod without constraints spreads by host (maxSkew 3) and by zone
// (maxSkew 5) over the pods its ReplicaSet's selector and the selectors of the Services that
// select it match; nodes without a zone still spread by host, and count as the zone "";
// a pod for which no selector is found, or that has constraints of its own, gets none.
func TestSpreadDefaultsComeFromServicesAndTheReplicaSet(t *testing.T) {
	nodes := []spreadNode{
		{name: "node-a", labels: "kubernetes.io/hostname=node-a,topology.kubernetes.io/zone=mars"},
		{name: "node-b", labels: "kubernetes.io/hostname=node-b,topology.kubernetes.io/zone=mars"},
		{name: "node-c", labels: "kubernetes.io/hostname=node-c"},
		{name: "node-d", labels: "kubernetes.io/hostname=node-d"},
	}
	all := []string{"node-a", "node-b", "node-c", "node-d"}
	pods := []spreadPod{on("node-a", "foo=tar"), on("node-a", "foo=tar"), on("node-c", "foo=tar"), on("node-b", "baz=sup")}
	// hostname: weight ln(4 + 2); zone: the domains mars and "", weight ln(2 + 2). Raw scores:
	// node-a 2·1.79 + 2 + 2·1.39 + 4 = 12, node-b 0 + 2 + 6.77 = 9, node-c 1.79 + 2 = 4,
	// node-d 2; normalized 100 × (14 − raw) / 12.
	spread := []int64{16, 41, 83, 100}
	tests := []struct {
		name    string
		labels  string
		own     []api.TopologySpreadConstraint
		opts    []func(*api.Pod)
		rs      string            // the labels of the ReplicaSet rs1's selector, if it exists
		service map[string]string // a Service's selector, if any
		want    []int64           // nil: PreScore skips
	}{
		{name: "the ReplicaSet's selector", labels: "foo=tar,baz=sup", opts: []func(*api.Pod){ownedBy("apps/v1", "ReplicaSet", "rs1")}, rs: "foo=tar", want: spread},
		{name: "a Service's selector", labels: "foo=tar,baz=sup", service: map[string]string{"foo": "tar"}, want: spread},
		// No pod has both labels: a zoned node's raw score is maxSkew − 1 twice, 2 + 4, an
		// unzoned node's 2, so the nodes without a zone win.
		{name: "a Service's selector and the ReplicaSet's, ANDed", labels: "foo=tar,baz=sup", opts: []func(*api.Pod){ownedBy("apps/v1", "ReplicaSet", "rs1")},
			rs: "foo=tar", service: map[string]string{"baz": "sup"}, want: []int64{33, 33, 100, 100}},
		{name: "a ReplicaSet that does not exist gives no selector", labels: "foo=tar", opts: []func(*api.Pod){ownedBy("apps/v1", "ReplicaSet", "rs2")}, rs: "foo=tar"},
		{name: "a DaemonSet gives no selector", labels: "foo=tar", opts: []func(*api.Pod){ownedBy("apps/v1", "DaemonSet", "rs1")}, rs: "foo=tar"},
		{name: "a Service that does not select the pod gives none", labels: "foo=tar", service: map[string]string{"foo": "other"}},
		{name: "a pod with constraints of its own gets no defaults", labels: "foo=tar", opts: []func(*api.Pod){ownedBy("apps/v1", "ReplicaSet", "rs1")}, rs: "foo=tar",
			own: []api.TopologySpreadConstraint{tsc(1, "zone", api.DoNotSchedule, keyExists("foo"))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := spreadWorld(t, nodes, pods)
			if tt.rs != "" {
				replicaSet(t, c, "rs1", tt.rs)
			}
			if tt.service != nil {
				service(t, c, "svc", tt.service)
			}
			incoming(t, c, tt.labels, tt.own, tt.opts...)
			got := spreadScores(t, c, all)
			if tt.want == nil {
				assert.Nil(t, got, "PreScore skips")
				return
			}
			assert.Equal(t, tt.want, []int64{got["node-a"], got["node-b"], got["node-c"], got["node-d"]})
		})
	}
}

// relabel gives a stored pod labels, as kubectl label would.
func relabel(t *testing.T, c *cluster.Cluster, name, labels string) {
	p := api.DeepCopy(pod(c, name))
	p.Labels = labelSet(labels)
	require.NoError(t, c.Update(p))
}

// TestSpreadPreemptionCountsTheVictimsGone pins PodTopologySpread's PreFilterExtensions in
// preemption's dry run (filtering.go: AddPod, RemovePod, updateWithPod; default_preemption.go:
// SelectVictimsOnNode): with both low-priority foo pods of n1 gone the pod fits there; the
// first added back still leaves the skew at 1 and is reprieved; the second is the victim. n2
// is full of a pod as important as the preemptor.
func TestSpreadPreemptionCountsTheVictimsGone(t *testing.T) {
	c := world(t, []string{"n1", "n2"}, []podSpec{
		{name: "low-1", node: "n1", memory: "1Gi"}, {name: "low-2", node: "n1", memory: "1Gi"},
		{name: "big", node: "n2", class: "system-node-critical", memory: "4Gi"},
	})
	for _, name := range []string{"low-1", "low-2", "big"} {
		relabel(t, c, name, "foo")
	}
	preemptor := incoming(t, c, "foo", []api.TopologySpreadConstraint{tsc(1, api.LabelHostname, api.DoNotSchedule, keyExists("foo"))}, func(p *api.Pod) {
		p.Spec.PriorityClassName = "system-node-critical"
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("1Gi")}
	})
	d := Schedule(c, preemptor)
	require.Empty(t, d.Node)
	assert.Equal(t, "0/2 nodes are available: 1 Insufficient memory, 1 node(s) didn't match pod topology spread constraints. "+
		"preemption: found a potential placement for pod on node n1, preempting 1 victims", d.Message)
	assert.Equal(t, []string{"low-2"}, names(d.preemption.victims))
}

// TestSpreadCountsThePodsNominatedToTheNode pins RunFilterPluginsWithNominatedPods
// (pkg/scheduler/framework/runtime/framework.go, addGENominatedPods): a pod nominated to n1
// with at least the pod's priority (system-cluster-critical) counts there, through
// PodTopologySpread's AddPod, so n1 fails the spread; one of lower priority does not.
func TestSpreadCountsThePodsNominatedToTheNode(t *testing.T) {
	for _, tc := range []struct {
		class  string
		wantN1 NodeVerdict
	}{
		{"system-node-critical", NodeVerdict{Plugin: PodTopologySpread, Reasons: []string{"node(s) didn't match pod topology spread constraints"}}},
		{"system-cluster-critical", NodeVerdict{Plugin: PodTopologySpread, Reasons: []string{"node(s) didn't match pod topology spread constraints"}}},
		{"", NodeVerdict{}},
	} {
		t.Run("nominated with class "+tc.class, func(t *testing.T) {
			c := world(t, []string{"n1", "n2"}, []podSpec{{name: "nominated", class: tc.class, memory: "1Gi"}})
			n := api.DeepCopy(pod(c, "nominated"))
			n.Labels, n.Status.NominatedNodeName = labelSet("foo"), "n1"
			require.NoError(t, c.Update(n))
			p := incoming(t, c, "foo", []api.TopologySpreadConstraint{tsc(1, api.LabelHostname, api.DoNotSchedule, keyExists("foo"))}, func(p *api.Pod) {
				p.Spec.PriorityClassName = "system-cluster-critical"
			})
			e := Explain(c, p)
			assert.Equal(t, tc.wantN1, e.Nodes[0].Verdict)
			assert.Equal(t, NodeVerdict{}, e.Nodes[1].Verdict)
		})
	}
}

// TestSpreadFilterMessagesInFailedScheduling pins the filter's two reasons as FitError counts
// them, and the preemption sentence: nodes the spread rejects are candidates (Unschedulable),
// those missing the key are not (UnschedulableAndUnresolvable).
func TestSpreadFilterMessagesInFailedScheduling(t *testing.T) {
	c := spreadWorld(t, []spreadNode{
		{name: "a", labels: "zone=z1"}, {name: "b", labels: "zone=z1"}, {name: "c", labels: "rack=r1"},
	}, []spreadPod{on("a", "app=web"), on("a", "app=web"), on("b", "app=web"), on("b", "app=web")})
	require.NoError(t, create(c, &api.Node{ObjectMeta: api.ObjectMeta{Name: "d", Labels: labelSet("zone=z2")}, Spec: api.NodeSpec{Unschedulable: true}}))
	p := incoming(t, c, "app=web", []api.TopologySpreadConstraint{tsc(1, "zone", api.DoNotSchedule, &api.LabelSelector{MatchLabels: labelSet("app=web")})})
	d := Schedule(c, p)
	assert.Equal(t, "0/4 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), "+
		"1 node(s) were unschedulable, 2 node(s) didn't match pod topology spread constraints. "+
		"preemption: 0/4 nodes are available: 2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.", d.Message)
}

// TestSpreadCountsKeptInStepWithTheCyclesBindings: a cycle counts each selector's pods once
// and keeps the counts, and the domain totals made of them, in step with each binding it
// makes, so that every pod of a ReplicaSet sees what a cycle reading the cluster afresh sees:
// the same filter state and the same scores (the system defaults here, then a pod's own
// DoNotSchedule zone constraint and ScheduleAnyway hostname constraint).
func TestSpreadCountsKeptInStepWithTheCyclesBindings(t *testing.T) {
	nodes := []spreadNode{
		{name: "a1", labels: "kubernetes.io/hostname=a1,topology.kubernetes.io/zone=a"}, {name: "a2", labels: "kubernetes.io/hostname=a2,topology.kubernetes.io/zone=a"},
		{name: "b1", labels: "kubernetes.io/hostname=b1,topology.kubernetes.io/zone=b"}, {name: "b2", labels: "kubernetes.io/hostname=b2,topology.kubernetes.io/zone=b"},
		{name: "c1", labels: "kubernetes.io/hostname=c1,topology.kubernetes.io/zone=c"}, {name: "n", labels: "kubernetes.io/hostname=n"},
	}
	own := []api.TopologySpreadConstraint{
		tsc(1, api.LabelTopologyZone, api.DoNotSchedule, &api.LabelSelector{MatchLabels: labelSet("app=web")}),
		tsc(1, api.LabelHostname, api.ScheduleAnyway, &api.LabelSelector{MatchLabels: labelSet("app=web")}),
	}
	for _, tc := range []struct {
		name        string
		constraints []api.TopologySpreadConstraint
	}{{"system defaults", nil}, {"own constraints", own}} {
		t.Run(tc.name, func(t *testing.T) {
			c := spreadWorld(t, nodes, []spreadPod{on("a1", "app=web"), on("n", "app=web")})
			rs := replicaSet(t, c, "web", "app=web")
			for i := range 9 {
				p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-%d", i), Namespace: "default", Labels: labelSet("app=web"),
					OwnerReferences: []api.OwnerReference{api.NewControllerRef(rs, "apps/v1", "ReplicaSet")}},
					Spec: api.PodSpec{TopologySpreadConstraints: tc.constraints, Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
				require.NoError(t, create(c, p))
			}
			cy := NewCycle(c)
			for _, p := range Pending(c) {
				kept, fresh := cy.newCycleState(p), NewCycle(c).newCycleState(p)
				if kept.spread != nil {
					assert.Equal(t, fresh.spread.domains, kept.spread.domains, p.Name)
					assert.Equal(t, fresh.spread.paths[0][0].count, kept.spread.paths[0][0].count, p.Name)
				}
				assert.Equal(t, podTopologySpread{}.score(fresh, fresh.cy.infos), podTopologySpread{}.score(kept, cy.infos), p.Name)
				d := cy.Schedule(p)
				require.NotEmpty(t, d.Node, d.Message)
				require.True(t, cy.Apply(d))
			}
		})
	}
}
