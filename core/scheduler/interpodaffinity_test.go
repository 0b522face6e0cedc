package scheduler

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// apod is a pod of the InterPodAffinity tests: bound to node, or pending when node is "".
type apod struct {
	name, namespace, node string
	labels                map[string]string
	rules                 rules
	class                 string // its PriorityClass, "" for none
}

// rules are a pod's pod affinity and anti-affinity terms.
type rules struct {
	affinity, anti           []api.PodAffinityTerm
	preferred, preferredAnti []api.WeightedPodAffinityTerm
}

func (r rules) spec() *api.Affinity {
	var a api.Affinity
	if len(r.affinity)+len(r.preferred) > 0 {
		a.PodAffinity = &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: r.affinity, PreferredDuringSchedulingIgnoredDuringExecution: r.preferred}
	}
	if len(r.anti)+len(r.preferredAnti) > 0 {
		a.PodAntiAffinity = &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: r.anti, PreferredDuringSchedulingIgnoredDuringExecution: r.preferredAnti}
	}
	if a.PodAffinity == nil && a.PodAntiAffinity == nil {
		return nil
	}
	return &a
}

// expr is a term selecting the pods whose label key passes op with values, at topologyKey.
func expr(key string, op api.LabelSelectorOperator, topologyKey string, values ...string) api.PodAffinityTerm {
	return api.PodAffinityTerm{TopologyKey: topologyKey, LabelSelector: &api.LabelSelector{
		MatchExpressions: []api.LabelSelectorRequirement{{Key: key, Operator: op, Values: values}}}}
}

func in(key, topologyKey string, values ...string) api.PodAffinityTerm {
	return expr(key, api.LabelSelectorOpIn, topologyKey, values...)
}

func exists(key, topologyKey string) api.PodAffinityTerm {
	return expr(key, api.LabelSelectorOpExists, topologyKey)
}

func weighted(weight int32, t api.PodAffinityTerm) api.WeightedPodAffinityTerm {
	return api.WeightedPodAffinityTerm{Weight: weight, PodAffinityTerm: t}
}

// withNamespaces is t with its namespaces and namespaceSelector (on the label team).
func withNamespaces(t api.PodAffinityTerm, namespaces []string, teamOp api.LabelSelectorOperator, teams ...string) api.PodAffinityTerm {
	t.Namespaces = namespaces
	if teamOp != "" {
		t.NamespaceSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "team", Operator: teamOp, Values: teams}}}
	}
	return t
}

// anode is a node of the tests with exactly these labels.
type anode struct {
	name   string
	labels map[string]string
}

// affinityWorld is a cluster of the given nodes (4 cpu, 4Gi each), with the namespaces
// team1-a and team1-b (label team=team1), team2-a and team2-b (team=team2), and the pods.
func affinityWorld(t *testing.T, nodes []anode, pods []apod) *cluster.Cluster {
	c := cluster.New(1)
	require.NoError(t, apiserver.CreateSystemNamespaces(c))
	require.NoError(t, apiserver.CreateSystemPriorityClasses(c))
	for _, ns := range []struct{ name, team string }{{"team1-a", "team1"}, {"team1-b", "team1"}, {"team2-a", "team2"}, {"team2-b", "team2"}} {
		require.NoError(t, create(c, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns.name, Labels: map[string]string{"team": ns.team}}}))
	}
	for _, n := range nodes {
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: n.name, Labels: n.labels}}
		list := api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4"), api.ResourceMemory: api.MustParseQuantity("4Gi"), api.ResourcePods: api.MustParseQuantity("110")}
		node.Status.Capacity, node.Status.Allocatable = list, list
		require.NoError(t, create(c, node))
	}
	for _, p := range pods {
		require.NoError(t, create(c, p.object()))
	}
	return c
}

func (p apod) object() *api.Pod {
	ns := p.namespace
	if ns == "" {
		ns = "default"
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: p.name, Namespace: ns, Labels: p.labels},
		Spec: api.PodSpec{NodeName: p.node, Affinity: p.rules.spec(), PriorityClassName: p.class,
			Containers: []api.Container{{Name: "c", Image: "nginx", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("1Gi")}}}}}}
	if p.node != "" {
		pod.Status.Phase = api.PodRunning
	}
	return pod
}

// stored is the pod as the API server stored it.
func stored(c *cluster.Cluster, p apod) *api.Pod {
	ns := p.namespace
	if ns == "" {
		ns = "default"
	}
	return c.Get("Pod", cluster.Key{Namespace: ns, Name: p.name}).(*api.Pod)
}

// affinityVerdicts runs InterPodAffinity's PreFilter and Filter for pod (created pending) on
// every node, in order; nil when PreFilter skips the plugin.
func affinityVerdicts(t *testing.T, c *cluster.Cluster, pod apod) []verdict {
	require.NoError(t, create(c, pod.object()))
	cy := NewCycle(c)
	st := cy.newCycleState(stored(c, pod))
	if st.affinity == nil {
		return nil
	}
	var out []verdict
	for _, ni := range cy.infos {
		out = append(out, interPodAffinity{}.filter(st, ni))
	}
	return out
}

var (
	passes          = verdict{code: fits}
	noAffinity      = unresolvable(reasonAffinityRulesNotMatch)
	noAntiAffinity  = verdict{code: unschedulable, reasons: []string{reasonAntiAffinityRulesNotMatch}}
	existingRejects = verdict{code: unschedulable, reasons: []string{reasonExistingAntiAffinityRulesNotMatch}}
)

// TestInterPodAffinityFiltersOneNode ports TestRequiredAffinitySingleNode
// (pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go; filtering.go: PreFilter,
// Filter): the incoming pod's affinity and anti-affinity and the existing pods' anti-affinity
// on a node in region r1, zone z11, with their reasons and codes; a pod with no terms is skipped
// when no existing pod's anti-affinity selects it. (The invalid selectors of upstream's cases
// are refused by the API server: see api's TestPodAffinityValidation.)
func TestInterPodAffinityFiltersOneNode(t *testing.T) {
	node := anode{"node1", map[string]string{"region": "r1", "zone": "z11"}}
	scan := apod{name: "scan", node: "node1", labels: map[string]string{"service": "securityscan"}}
	s1 := map[string]string{"security": "S1"}
	tests := []struct {
		name     string
		pod      apod
		existing []apod
		want     *verdict // nil: PreFilter skips the plugin
	}{
		{
			name: "a pod without required terms is skipped on a node without pods",
			pod:  apod{},
		},
		{
			name:     "affinity In matching the existing pod in the region",
			pod:      apod{labels: s1, rules: rules{affinity: []api.PodAffinityTerm{in("service", "region", "securityscan", "value2")}}},
			existing: []apod{scan},
			want:     &passes,
		},
		{
			name:     "affinity NotIn matching the existing pod",
			pod:      apod{labels: s1, rules: rules{affinity: []api.PodAffinityTerm{expr("service", api.LabelSelectorOpNotIn, "region", "securityscan3", "value3")}}},
			existing: []apod{scan},
			want:     &passes,
		},
		{
			name:     "affinity to another namespace does not match the pod in this one",
			pod:      apod{labels: s1, rules: rules{affinity: []api.PodAffinityTerm{withNamespaces(in("service", "region", "securityscan", "value2"), []string{"team2-a"}, "")}}},
			existing: []apod{{name: "scan", namespace: "team1-a", node: "node1", labels: map[string]string{"service": "securityscan"}}},
			want:     &noAffinity,
		},
		{
			name:     "affinity whose selector the existing pod does not match",
			pod:      apod{labels: scan.labels, rules: rules{affinity: []api.PodAffinityTerm{in("service", "region", "antivirusscan", "value2")}}},
			existing: []apod{scan},
			want:     &noAffinity,
		},
		{
			name: "every expression of every affinity term matches",
			pod: apod{labels: s1, rules: rules{affinity: []api.PodAffinityTerm{
				{TopologyKey: "region", LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "service", Operator: api.LabelSelectorOpExists}, {Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist}}}},
				{TopologyKey: "region", LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "service", Operator: api.LabelSelectorOpIn, Values: []string{"securityscan"}}, {Key: "service", Operator: api.LabelSelectorOpNotIn, Values: []string{"WrongValue"}}}}},
			}}},
			existing: []apod{scan},
			want:     &passes,
		},
		{
			name: "the expressions of a term are ANDed: one fails",
			pod: apod{labels: s1, rules: rules{affinity: []api.PodAffinityTerm{
				{TopologyKey: "region", LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "service", Operator: api.LabelSelectorOpExists}, {Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist}}}},
				{TopologyKey: "region", LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "service", Operator: api.LabelSelectorOpIn, Values: []string{"securityscan2"}}, {Key: "service", Operator: api.LabelSelectorOpNotIn, Values: []string{"WrongValue"}}}}},
			}}},
			existing: []apod{scan},
			want:     &noAffinity,
		},
		{
			name:     "affinity and an anti-affinity that selects nothing",
			pod:      apod{labels: s1, rules: rules{affinity: []api.PodAffinityTerm{in("service", "region", "securityscan", "value2")}, anti: []api.PodAffinityTerm{in("service", "node", "antivirusscan", "value2")}}},
			existing: []apod{scan},
			want:     &passes,
		},
		{
			name: "the existing pod's anti-affinity does not select the incoming pod",
			pod:  apod{labels: s1, rules: rules{affinity: []api.PodAffinityTerm{in("service", "region", "securityscan", "value2")}, anti: []api.PodAffinityTerm{in("service", "node", "antivirusscan", "value2")}}},
			existing: []apod{{name: "scan", node: "node1", labels: scan.labels,
				rules: rules{anti: []api.PodAffinityTerm{in("service", "node", "antivirusscan", "value2")}}}},
			want: &passes,
		},
		{
			name:     "the incoming pod's anti-affinity selects the existing pod in the zone",
			pod:      apod{labels: s1, rules: rules{affinity: []api.PodAffinityTerm{in("service", "region", "securityscan", "value2")}, anti: []api.PodAffinityTerm{in("service", "zone", "securityscan", "value2")}}},
			existing: []apod{scan},
			want:     &noAntiAffinity,
		},
		{
			name: "the existing pod's anti-affinity selects the incoming pod",
			pod:  apod{labels: scan.labels, rules: rules{affinity: []api.PodAffinityTerm{in("service", "region", "securityscan", "value2")}, anti: []api.PodAffinityTerm{in("service", "node", "antivirusscan", "value2")}}},
			existing: []apod{{name: "scan", node: "node1", labels: scan.labels,
				rules: rules{anti: []api.PodAffinityTerm{in("service", "zone", "securityscan", "value2")}}}},
			want: &existingRejects,
		},
		{
			name:     "the pod matches its own NotIn affinity but no pod in the cluster does",
			pod:      apod{labels: scan.labels, rules: rules{affinity: []api.PodAffinityTerm{expr("service", api.LabelSelectorOpNotIn, "region", "securityscan", "value2")}}},
			existing: []apod{{name: "elsewhere", labels: scan.labels}},
			want:     &noAffinity,
		},
		{
			name: "an existing pod's anti-affinity counts for a pod without terms",
			pod:  apod{labels: scan.labels},
			existing: []apod{{name: "scan", node: "node1", labels: scan.labels,
				rules: rules{anti: []api.PodAffinityTerm{in("service", "zone", "securityscan", "value2")}}}},
			want: &existingRejects,
		},
		{
			name: "an existing pod's anti-affinity that does not select a pod without terms skips the plugin",
			pod:  apod{labels: scan.labels},
			existing: []apod{{name: "scan", node: "node1", labels: scan.labels,
				rules: rules{anti: []api.PodAffinityTerm{expr("service", api.LabelSelectorOpNotIn, "zone", "securityscan", "value2")}}}},
		},
		{
			name: "the incoming pod's anti-affinity selects the existing pod, which does not select it",
			pod:  apod{labels: scan.labels, rules: rules{anti: []api.PodAffinityTerm{exists("service", "region"), exists("security", "region")}}},
			existing: []apod{{name: "sec", node: "node1", labels: s1,
				rules: rules{anti: []api.PodAffinityTerm{exists("security", "zone")}}}},
			want: &noAntiAffinity,
		},
		{
			name: "each pod's anti-affinity selects the other: the incoming pod's is checked first",
			pod:  apod{labels: map[string]string{"abc": "", "xyz": ""}, rules: rules{anti: []api.PodAffinityTerm{exists("abc", "zone"), exists("def", "zone")}}},
			existing: []apod{{name: "def", node: "node1", labels: map[string]string{"def": "", "xyz": ""},
				rules: rules{anti: []api.PodAffinityTerm{exists("abc", "zone"), exists("def", "zone")}}}},
			want: &noAntiAffinity,
		},
		{
			name: "only the existing pod's anti-affinity selects the other",
			pod:  apod{labels: s1, rules: rules{anti: []api.PodAffinityTerm{exists("security", "zone")}}},
			existing: []apod{{name: "scan", node: "node1", labels: scan.labels,
				rules: rules{anti: []api.PodAffinityTerm{exists("service", "zone"), exists("security", "zone")}}}},
			want: &existingRejects,
		},
		{
			name:     "affinity with a namespaceSelector that selects the existing pod's namespace",
			pod:      apod{labels: s1, rules: rules{affinity: []api.PodAffinityTerm{withNamespaces(in("service", "region", "securityscan"), nil, api.LabelSelectorOpIn, "team1")}}},
			existing: []apod{{name: "scan", namespace: "team1-a", node: "node1", labels: scan.labels}},
			want:     &passes,
		},
		{
			name:     "affinity with a namespaceSelector that does not",
			pod:      apod{labels: s1, rules: rules{affinity: []api.PodAffinityTerm{withNamespaces(in("service", "region", "securityscan"), nil, api.LabelSelectorOpIn, "team1")}}},
			existing: []apod{{name: "scan", namespace: "team2-a", node: "node1", labels: scan.labels}},
			want:     &noAffinity,
		},
		{
			name:     "anti-affinity with a namespaceSelector that selects the existing pod's namespace",
			pod:      apod{namespace: "team1-a", labels: s1, rules: rules{anti: []api.PodAffinityTerm{withNamespaces(in("service", "zone", "securityscan"), nil, api.LabelSelectorOpIn, "team1")}}},
			existing: []apod{{name: "scan", namespace: "team1-b", node: "node1", labels: scan.labels}},
			want:     &noAntiAffinity,
		},
		{
			name: "anti-affinity with the namespaceSelector {} selects every namespace",
			pod: apod{namespace: "team1-a", labels: s1, rules: rules{anti: []api.PodAffinityTerm{func() api.PodAffinityTerm {
				t := in("service", "zone", "securityscan")
				t.NamespaceSelector = &api.LabelSelector{}
				return t
			}()}}},
			existing: []apod{{name: "scan", namespace: "team2-b", node: "node1", labels: scan.labels}},
			want:     &noAntiAffinity,
		},
		{
			name:     "anti-affinity with a namespaceSelector that does not",
			pod:      apod{namespace: "team1-a", labels: s1, rules: rules{anti: []api.PodAffinityTerm{withNamespaces(in("service", "zone", "securityscan"), nil, api.LabelSelectorOpIn, "team1")}}},
			existing: []apod{{name: "scan", namespace: "team2-a", node: "node1", labels: scan.labels}},
			want:     &passes,
		},
		{
			name: "an existing pod's anti-affinity namespaceSelector matches the incoming pod's namespace labels",
			pod:  apod{namespace: "team1-a", labels: scan.labels},
			existing: []apod{{name: "scan", namespace: "team2-a", node: "node1", labels: s1,
				rules: rules{anti: []api.PodAffinityTerm{withNamespaces(in("service", "zone", "securityscan"), nil, api.LabelSelectorOpIn, "team1")}}}},
			want: &existingRejects,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := affinityWorld(t, []anode{node}, tt.existing)
			tt.pod.name = "incoming"
			got := affinityVerdicts(t, c, tt.pod)
			if tt.want == nil {
				assert.Nil(t, got, "PreFilter skips the plugin")
				return
			}
			assert.Equal(t, []verdict{*tt.want}, got)
		})
	}
}

// TestInterPodAffinityFiltersByTopologyDomain ports TestRequiredAffinityMultipleNodes
// (filtering_test.go; filtering.go: Filter, satisfiesSelfAffinityCheck): a term holds in the
// whole domain of its topologyKey, a node without the key satisfies no affinity and violates
// no anti-affinity, one pod must match every affinity term, and the first pod of a group that
// matches its own terms may go anywhere with the keys.
func TestInterPodAffinityFiltersByTopologyDomain(t *testing.T) {
	china := anode{"node-a", map[string]string{"region": "China"}}
	chinaAz1 := anode{"node-b", map[string]string{"region": "China", "az": "az1"}}
	india := anode{"node-c", map[string]string{"region": "India"}}
	zoned := func(name, region, zone string) anode {
		return anode{name, map[string]string{"region": region, "zone": zone, "hostname": name}}
	}
	twoZones := []anode{zoned("node-a", "r1", "z1"), zoned("node-b", "r1", "z2")}
	oneZone := []anode{zoned("node-a", "r1", "z1"), zoned("node-b", "r1", "z1")}
	tests := []struct {
		name     string
		nodes    []anode
		pod      apod
		existing []apod
		want     []verdict // nil: PreFilter skips the plugin
	}{
		{
			name:     "every node of the region of a matching pod",
			nodes:    []anode{{"node1", china.labels}, {"node2", chinaAz1.labels}, {"node3", india.labels}},
			pod:      apod{rules: rules{affinity: []api.PodAffinityTerm{in("foo", "region", "bar")}}},
			existing: []apod{{name: "p1", node: "node1", labels: map[string]string{"foo": "bar"}}},
			want:     []verdict{passes, passes, noAffinity},
		},
		{
			name: "the first pod of a group matching its own terms goes anywhere with the keys",
			nodes: []anode{{"node-a", map[string]string{"zone": "az1", "hostname": "h1"}},
				{"node-b", map[string]string{"zone": "az2", "hostname": "h2"}}},
			pod: apod{labels: map[string]string{"foo": "bar", "service": "securityscan"},
				rules: rules{affinity: []api.PodAffinityTerm{in("foo", "zone", "bar"), in("service", "zone", "securityscan")}}},
			existing: []apod{{name: "p1", node: "node-a", labels: map[string]string{"foo": "bar"}}},
			want:     []verdict{passes, passes},
		},
		{
			name: "but only to nodes with the terms' topology keys",
			nodes: []anode{{"node-a", map[string]string{"zoneLabel": "az1", "hostname": "h1"}},
				{"node-b", map[string]string{"zoneLabel": "az2", "hostname": "h2"}}},
			pod: apod{labels: map[string]string{"foo": "bar", "service": "securityscan"},
				rules: rules{affinity: []api.PodAffinityTerm{in("foo", "zone", "bar"), in("service", "zone", "securityscan")}}},
			existing: []apod{{name: "p1", node: "node-a", labels: map[string]string{"foo": "bar"}}},
			want:     []verdict{noAffinity, noAffinity},
		},
		{
			name:     "anti-affinity rules out the whole region of a selected pod",
			nodes:    []anode{{"node-a", map[string]string{"region": "r1", "hostname": "node-a"}}, {"node-b", map[string]string{"region": "r1", "hostname": "node-b"}}},
			pod:      apod{rules: rules{anti: []api.PodAffinityTerm{in("foo", "region", "abc")}}},
			existing: []apod{{name: "p1", node: "node-a", labels: map[string]string{"foo": "abc"}}},
			want:     []verdict{noAntiAffinity, noAntiAffinity},
		},
		{
			name:     "any anti-affinity term selecting a pod rules its domain out",
			nodes:    twoZones,
			pod:      apod{rules: rules{anti: []api.PodAffinityTerm{in("foo", "region", "abc"), in("service", "zone", "securityscan")}}},
			existing: []apod{{name: "p1", node: "node-a", labels: map[string]string{"foo": "abc", "service": "securityscan"}}},
			want:     []verdict{noAntiAffinity, noAntiAffinity},
		},
		{
			name:     "a region without the selected pod is free",
			nodes:    []anode{china, chinaAz1, india},
			pod:      apod{rules: rules{anti: []api.PodAffinityTerm{in("foo", "region", "abc")}}},
			existing: []apod{{name: "p1", node: "node-a", labels: map[string]string{"foo": "abc"}}},
			want:     []verdict{noAntiAffinity, noAntiAffinity, passes},
		},
		{
			name:  "an anti-affinity in another namespace does not select the pod",
			nodes: []anode{china, chinaAz1, india},
			pod:   apod{namespace: "team1-a", labels: map[string]string{"foo": "123"}, rules: rules{anti: []api.PodAffinityTerm{in("foo", "region", "bar")}}},
			existing: []apod{
				{name: "p1", namespace: "team1-a", node: "node-a", labels: map[string]string{"foo": "bar"}},
				{name: "p2", namespace: "team2-a", node: "node-c", rules: rules{anti: []api.PodAffinityTerm{in("foo", "region", "123")}}},
			},
			want: []verdict{noAntiAffinity, noAntiAffinity, passes},
		},
		{
			name:     "an existing pod's term whose topology key no node has rules nothing out",
			nodes:    oneZone,
			pod:      apod{labels: map[string]string{"foo": ""}},
			existing: []apod{{name: "p1", node: "node-a", rules: rules{anti: []api.PodAffinityTerm{exists("foo", "invalid-node-label")}}}},
		},
		{
			name:     "the incoming pod's term whose topology key no node has rules nothing out",
			nodes:    oneZone,
			pod:      apod{rules: rules{anti: []api.PodAffinityTerm{exists("foo", "invalid-node-label")}}},
			existing: []apod{{name: "p1", node: "node-a", labels: map[string]string{"foo": ""}}},
			want:     []verdict{passes, passes},
		},
		{
			name:  "existing pods' anti-affinity in the zone and the region",
			nodes: twoZones,
			pod:   apod{labels: map[string]string{"foo": "", "bar": ""}},
			existing: []apod{
				{name: "p1", node: "node-a", rules: rules{anti: []api.PodAffinityTerm{exists("foo", "zone")}}},
				{name: "p2", node: "node-a", rules: rules{anti: []api.PodAffinityTerm{exists("bar", "region")}}},
			},
			want: []verdict{existingRejects, existingRejects},
		},
		{
			name:  "the incoming pod's anti-affinity terms each rule out their domain",
			nodes: twoZones,
			pod:   apod{rules: rules{anti: []api.PodAffinityTerm{exists("foo", "zone"), exists("bar", "region")}}},
			existing: []apod{
				{name: "p1", node: "node-a", labels: map[string]string{"foo": ""}},
				{name: "p2", node: "node-b", labels: map[string]string{"bar": ""}},
			},
			want: []verdict{noAntiAffinity, noAntiAffinity},
		},
		{
			name:  "an existing pod's term counts only where the selector and the key both match",
			nodes: twoZones,
			pod:   apod{labels: map[string]string{"foo": "", "bar": ""}},
			existing: []apod{{name: "p1", node: "node-a",
				rules: rules{anti: []api.PodAffinityTerm{exists("foo", "invalid-node-label"), exists("bar", "zone")}}}},
			want: []verdict{existingRejects, passes},
		},
		{
			name:     "the incoming pod's term counts only where the selector and the key both match",
			nodes:    twoZones,
			pod:      apod{rules: rules{anti: []api.PodAffinityTerm{exists("foo", "invalid-node-label"), exists("bar", "zone")}}},
			existing: []apod{{name: "pod-a", node: "node-a", labels: map[string]string{"foo": "", "bar": ""}}},
			want:     []verdict{noAntiAffinity, passes},
		},
		{
			name:  "an existing pod's region term rules out the region",
			nodes: twoZones,
			pod:   apod{labels: map[string]string{"foo": "", "bar": ""}},
			existing: []apod{{name: "p1", node: "node-a",
				rules: rules{anti: []api.PodAffinityTerm{exists("foo", "region"), exists("bar", "zone")}}}},
			want: []verdict{existingRejects, existingRejects},
		},
		{
			name:     "the incoming pod's region term rules out the region",
			nodes:    twoZones,
			pod:      apod{rules: rules{anti: []api.PodAffinityTerm{exists("foo", "region"), exists("bar", "zone")}}},
			existing: []apod{{name: "p1", node: "node-a", labels: map[string]string{"foo": "", "bar": ""}}},
			want:     []verdict{noAntiAffinity, noAntiAffinity},
		},
		{
			name:  "existing pods on two zones leave the third",
			nodes: []anode{zoned("node-a", "r1", "z1"), zoned("node-b", "r1", "z2"), zoned("node-c", "r1", "z3")},
			pod:   apod{labels: map[string]string{"foo": "", "bar": ""}},
			existing: []apod{
				{name: "p1", node: "node-a", rules: rules{anti: []api.PodAffinityTerm{exists("foo", "zone"), exists("labelA", "zone")}}},
				{name: "p2", node: "node-b", rules: rules{anti: []api.PodAffinityTerm{exists("bar", "zone"), exists("labelB", "zone")}}},
			},
			want: []verdict{existingRejects, existingRejects, passes},
		},
		{
			name:     "one pod matching every affinity term satisfies them in each domain",
			nodes:    oneZone,
			pod:      apod{rules: rules{affinity: []api.PodAffinityTerm{exists("foo", "region"), exists("bar", "zone")}}},
			existing: []apod{{name: "pod1", node: "node-a", labels: map[string]string{"foo": "", "bar": ""}}},
			want:     []verdict{passes, passes},
		},
		{
			name:  "two pods matching one term each satisfy neither",
			nodes: twoZones,
			pod:   apod{rules: rules{affinity: []api.PodAffinityTerm{exists("foo", "region"), exists("bar", "zone")}}},
			existing: []apod{
				{name: "pod1", node: "node-a", labels: map[string]string{"foo": ""}},
				{name: "pod2", node: "node-b", labels: map[string]string{"bar": ""}},
			},
			want: []verdict{noAffinity, noAffinity},
		},
		{
			name:     "affinity by hostname",
			nodes:    []anode{{"node-a", map[string]string{api.LabelHostname: "node-a"}}, {"node-b", map[string]string{api.LabelHostname: "node-b"}}},
			pod:      apod{rules: rules{affinity: []api.PodAffinityTerm{exists("foo", api.LabelHostname)}}},
			existing: []apod{{name: "pod1", node: "node-a", labels: map[string]string{"foo": ""}}},
			want:     []verdict{passes, noAffinity},
		},
		{
			name:     "anti-affinity by hostname",
			nodes:    []anode{{"node-a", map[string]string{api.LabelHostname: "node-a"}}, {"node-b", map[string]string{api.LabelHostname: "node-b"}}},
			pod:      apod{rules: rules{anti: []api.PodAffinityTerm{exists("foo", api.LabelHostname)}}},
			existing: []apod{{name: "pod1", node: "node-a", labels: map[string]string{"foo": ""}}},
			want:     []verdict{noAntiAffinity, passes},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := affinityWorld(t, tt.nodes, tt.existing)
			tt.pod.name = "incoming"
			assert.Equal(t, tt.want, affinityVerdicts(t, c, tt.pod))
		})
	}
}

// affinityScores runs InterPodAffinity's PreScore, Score and NormalizeScore for pod (created
// pending) with every node feasible; nil when PreScore skips the plugin.
func affinityScores(t *testing.T, c *cluster.Cluster, pod apod) []int64 {
	require.NoError(t, create(c, pod.object()))
	cy := NewCycle(c)
	return interPodAffinity{}.score(cy.newCycleState(stored(c, pod)), cy.infos)
}

// TestInterPodAffinityScoresPreferencesBothWays ports TestPreferredAffinity and
// TestPreferredAffinityWithHardPodAffinitySymmetricWeight (scoring_test.go; scoring.go:
// PreScore, Score, NormalizeScore): the incoming pod's preferred terms over the existing pods,
// the existing pods' preferred terms and required affinity terms (weight 1) over the incoming
// pod, summed per topology domain and normalized from the lowest to the highest; skipped when
// nothing matches.
func TestInterPodAffinityScoresPreferencesBothWays(t *testing.T) {
	china, india := map[string]string{"region": "China"}, map[string]string{"region": "India"}
	az1, az2 := map[string]string{"az": "az1"}, map[string]string{"az": "az2"}
	chinaAz1 := map[string]string{"region": "China", "az": "az1"}
	s1, s2 := map[string]string{"security": "S1"}, map[string]string{"security": "S2"}
	stayWithS1InRegion := rules{preferred: []api.WeightedPodAffinityTerm{weighted(5, in("security", "region", "S1"))}}
	stayWithS2InRegion := rules{preferred: []api.WeightedPodAffinityTerm{weighted(6, in("security", "region", "S2"))}}
	awayFromS1InAz := rules{preferredAnti: []api.WeightedPodAffinityTerm{weighted(5, in("security", "az", "S1"))}}
	awayFromS2InAz := rules{preferredAnti: []api.WeightedPodAffinityTerm{weighted(5, in("security", "az", "S2"))}}
	stayWithS1AwayFromS2 := rules{preferred: []api.WeightedPodAffinityTerm{weighted(8, in("security", "region", "S1"))},
		preferredAnti: []api.WeightedPodAffinityTerm{weighted(5, in("security", "az", "S2"))}}
	mixed := rules{preferred: []api.WeightedPodAffinityTerm{
		weighted(8, api.PodAffinityTerm{TopologyKey: "region", LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "security", Operator: api.LabelSelectorOpNotIn, Values: []string{"S1"}}, {Key: "security", Operator: api.LabelSelectorOpIn, Values: []string{"S2"}}}}}),
		weighted(2, api.PodAffinityTerm{TopologyKey: "region", LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "security", Operator: api.LabelSelectorOpExists}, {Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist}}}}),
	}}
	hard := rules{affinity: []api.PodAffinityTerm{in("security", "region", "S1", "value2"), {TopologyKey: "region", LabelSelector: &api.LabelSelector{
		MatchExpressions: []api.LabelSelectorRequirement{{Key: "security", Operator: api.LabelSelectorOpExists}, {Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist}}}}}}
	team1OrTeam2b := func(op api.LabelSelectorOperator, namespaces ...string) api.PodAffinityTerm {
		return withNamespaces(in("security", "region", "S1"), namespaces, op, "team1")
	}
	nodes := func(labels ...map[string]string) []anode {
		var out []anode
		for i, l := range labels {
			out = append(out, anode{"node" + string(rune('1'+i)), l})
		}
		return out
	}
	on := func(node string, labels map[string]string, r rules) apod {
		return apod{node: node, labels: labels, rules: r}
	}
	inNamespace := func(namespace, node string) apod { return apod{namespace: namespace, node: node, labels: s1} }
	fromTeam1 := func(r rules) apod { return apod{namespace: "team1-a", labels: s1, rules: r} }
	// twoOnNode1AndOneIn is two S1 pods of team1-a and one of namespace on node1, one of
	// team1-b on node2.
	twoOnNode1AndOneIn := func(namespace string) []apod {
		return []apod{inNamespace("team1-a", "node1"), inNamespace("team1-a", "node1"), inNamespace(namespace, "node1"), inNamespace("team1-b", "node2")}
	}
	twoOnNode1AndTeam2OnNode2 := func() []apod {
		return []apod{inNamespace("team1-a", "node1"), inNamespace("team1-a", "node1"), inNamespace("team2-a", "node2")}
	}
	tests := []struct {
		name     string
		nodes    []anode
		pod      apod
		existing []apod
		want     []int64 // nil: PreScore skips the plugin
	}{
		{
			name:  "no terms anywhere: skipped",
			nodes: nodes(china, india, az1),
			pod:   apod{labels: s1},
		},
		{
			name:     "a matching pod in the node's region",
			nodes:    nodes(china, india, az1),
			pod:      apod{labels: s1, rules: stayWithS1InRegion},
			existing: []apod{on("node1", s1, rules{}), on("node2", s2, rules{}), on("node3", s1, rules{})},
			want:     []int64{100, 0, 0},
		},
		{
			name:     "every node of the matching pod's region scores alike",
			nodes:    nodes(china, chinaAz1, india),
			pod:      apod{rules: stayWithS1InRegion},
			existing: []apod{on("node1", s1, rules{})},
			want:     []int64{100, 100, 0},
		},
		{
			name:  "the region with more matching pods",
			nodes: nodes(china, india, china, china, india),
			pod:   apod{labels: s1, rules: stayWithS2InRegion},
			existing: []apod{on("node1", s2, rules{}), on("node1", s2, rules{}), on("node2", s2, rules{}), on("node3", s2, rules{}),
				on("node4", s2, rules{}), on("node5", s2, rules{})},
			want: []int64{100, 0, 100, 100, 0},
		},
		{
			name:     "terms of different operators: China 2, India 10",
			nodes:    nodes(china, india, az1),
			pod:      apod{labels: s1, rules: mixed},
			existing: []apod{on("node1", s1, rules{}), on("node2", s2, rules{}), on("node3", s1, rules{})},
			want:     []int64{20, 100, 0},
		},
		{
			name:     "an existing pod's preferred affinity the incoming pod matches",
			nodes:    nodes(china, india, az1),
			pod:      apod{labels: s2},
			existing: []apod{on("node1", s1, stayWithS1InRegion), on("node2", s2, stayWithS2InRegion)},
			want:     []int64{0, 100, 0},
		},
		{
			name:  "an existing pod's preferred affinity, its namespaceSelector on the incoming pod's namespace",
			nodes: nodes(china, india, az1),
			pod:   apod{namespace: "team1-a", labels: s1},
			existing: []apod{on("node1", s1, rules{preferred: []api.WeightedPodAffinityTerm{weighted(5, team1OrTeam2b(api.LabelSelectorOpIn, "team2-b"))}}),
				on("node2", s2, stayWithS2InRegion)},
			want: []int64{100, 0, 0},
		},
		{
			name:  "an existing pod's preferred anti-affinity, its namespaceSelector on the incoming pod's namespace",
			nodes: nodes(china, india, az1),
			pod:   apod{namespace: "team1-a", labels: s1},
			existing: []apod{on("node1", s1, rules{preferredAnti: []api.WeightedPodAffinityTerm{weighted(5, team1OrTeam2b(api.LabelSelectorOpIn, "team2-b"))}}),
				on("node2", s2, stayWithS2InRegion)},
			want: []int64{0, 100, 100},
		},
		{
			name:     "existing pods' required affinity the incoming pod matches",
			nodes:    nodes(china, india, az1),
			pod:      apod{labels: s1},
			existing: []apod{on("node1", s1, hard), on("node2", s2, hard)},
			want:     []int64{100, 100, 0},
		},
		{
			name:     "anti-affinity: the node without the selected pod",
			nodes:    nodes(az1, china),
			pod:      apod{labels: s1, rules: awayFromS1InAz},
			existing: []apod{on("node1", s1, rules{}), on("node2", s2, rules{})},
			want:     []int64{0, 100},
		},
		{
			name:     "anti-affinity: the node without the topology key",
			nodes:    nodes(az1, china),
			pod:      apod{labels: s1, rules: awayFromS1InAz},
			existing: []apod{on("node1", s1, rules{}), on("node2", s1, rules{})},
			want:     []int64{0, 100},
		},
		{
			name:     "anti-affinity: the node with fewer selected pods",
			nodes:    nodes(az1, india),
			pod:      apod{labels: s1, rules: awayFromS1InAz},
			existing: []apod{on("node1", s1, rules{}), on("node1", s1, rules{}), on("node2", s2, rules{})},
			want:     []int64{0, 100},
		},
		{
			name:     "an existing pod's preferred anti-affinity the incoming pod matches",
			nodes:    nodes(az1, az2),
			pod:      apod{labels: s2},
			existing: []apod{on("node1", s1, awayFromS2InAz), on("node2", s2, awayFromS1InAz)},
			want:     []int64{0, 100},
		},
		{
			name:     "preferred affinity and anti-affinity together",
			nodes:    nodes(china, az1),
			pod:      apod{labels: s1, rules: stayWithS1AwayFromS2},
			existing: []apod{on("node1", s1, rules{}), on("node2", s1, rules{})},
			want:     []int64{100, 0},
		},
		{
			name:  "the pods of one group prefer their region and avoid each other's az",
			nodes: nodes(chinaAz1, india, china, china, india),
			pod:   apod{labels: s1, rules: stayWithS1AwayFromS2},
			existing: []apod{on("node1", s1, rules{}), on("node1", s1, rules{}), on("node2", s1, rules{}), on("node3", s1, rules{}),
				on("node3", s1, rules{}), on("node4", s1, rules{}), on("node5", s1, rules{})},
			want: []int64{100, 0, 100, 100, 0},
		},
		{
			name:  "both ways at once: 8, -5, 8, -5",
			nodes: nodes(china, az1, india, az2),
			pod:   apod{labels: s1, rules: stayWithS1AwayFromS2},
			existing: []apod{on("node1", s1, rules{}), on("node2", s2, rules{}), on("node3", nil, stayWithS1AwayFromS2),
				on("node4", nil, awayFromS1InAz)},
			want: []int64{100, 0, 100, 0},
		},
		{
			name:     "a region where only some nodes hold pods with affinity",
			nodes:    nodes(china, china),
			pod:      apod{labels: s1},
			existing: []apod{on("node1", s1, rules{}), on("node2", nil, stayWithS1AwayFromS2)},
			want:     []int64{0, 0},
		},
		{
			name:     "preferred affinity with namespaces and a namespaceSelector",
			nodes:    nodes(china, india),
			pod:      fromTeam1(rules{preferred: []api.WeightedPodAffinityTerm{weighted(5, team1OrTeam2b(api.LabelSelectorOpIn, "team2-b"))}}),
			existing: twoOnNode1AndOneIn("team2-a"),
			want:     []int64{100, 0},
		},
		{
			name:     "preferred affinity counting a listed namespace",
			nodes:    nodes(china, india),
			pod:      fromTeam1(rules{preferred: []api.WeightedPodAffinityTerm{weighted(5, team1OrTeam2b(api.LabelSelectorOpIn, "team2-b"))}}),
			existing: twoOnNode1AndOneIn("team2-b"),
			want:     []int64{100, 0},
		},
		{
			name:     "preferred anti-affinity with namespaces and a namespaceSelector",
			nodes:    nodes(china, india),
			pod:      fromTeam1(rules{preferredAnti: []api.WeightedPodAffinityTerm{weighted(5, team1OrTeam2b(api.LabelSelectorOpIn, "team2-b"))}}),
			existing: twoOnNode1AndOneIn("team2-a"),
			want:     []int64{0, 100},
		},
		{
			name:     "preferred affinity with a NotIn namespaceSelector",
			nodes:    nodes(china, india),
			pod:      fromTeam1(rules{preferred: []api.WeightedPodAffinityTerm{weighted(5, team1OrTeam2b(api.LabelSelectorOpNotIn))}}),
			existing: twoOnNode1AndTeam2OnNode2(),
			want:     []int64{0, 100},
		},
		{
			name:     "preferred anti-affinity with a NotIn namespaceSelector",
			nodes:    nodes(china, india),
			pod:      fromTeam1(rules{preferredAnti: []api.WeightedPodAffinityTerm{weighted(5, team1OrTeam2b(api.LabelSelectorOpNotIn))}}),
			existing: twoOnNode1AndTeam2OnNode2(),
			want:     []int64{100, 0},
		},
		{
			name:     "the existing pods' preferred terms count for a pod without terms",
			nodes:    nodes(china, india),
			pod:      apod{labels: s2},
			existing: []apod{on("node1", s1, stayWithS1AwayFromS2), on("node2", s2, stayWithS2InRegion)},
			want:     []int64{0, 100},
		},
		{
			name:     "no nodes: skipped",
			pod:      apod{labels: s2},
			existing: nil,
		},
	}
	hardInNamespaces := rules{affinity: []api.PodAffinityTerm{withNamespaces(in("service", "region", "S1"), []string{"default", "team2-b"}, api.LabelSelectorOpIn, "team1")}}
	serviceS1 := map[string]string{"service": "S1"}
	for _, tc := range []struct {
		name, namespace string
		want            []int64
	}{
		{"a required term of existing pods, weight 1", "default", []int64{100, 100, 0}},
		{"a required term of existing pods in a namespace it does not select", "team2-a", nil},
		{"a required term of existing pods whose namespaceSelector selects the pod's namespace", "team1-a", []int64{100, 100, 0}},
		{"a required term of existing pods naming the pod's namespace", "team2-b", []int64{100, 100, 0}},
	} {
		tests = append(tests, struct {
			name     string
			nodes    []anode
			pod      apod
			existing []apod
			want     []int64
		}{tc.name, nodes(china, india, az1), apod{namespace: tc.namespace, labels: serviceS1},
			[]apod{on("node1", nil, hardInNamespaces), on("node2", nil, hardInNamespaces)}, tc.want})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.existing {
				tt.existing[i].name = "existing-" + string(rune('a'+i))
			}
			c := affinityWorld(t, tt.nodes, tt.existing)
			tt.pod.name = "incoming"
			assert.Equal(t, tt.want, affinityScores(t, c, tt.pod))
		})
	}
}

// TestInterPodAffinityCountsFollowAddedAndRemovedPods ports TestPreFilterStateAddRemovePod and
// TestPreFilterStateClone (filtering_test.go; filtering.go: AddPod, RemovePod,
// updateWithPod, Clone): removing a pod takes it out of all three counts, adding it back puts
// it in again, and a copy of the state changes apart from the original.
func TestInterPodAffinityCountsFollowAddedAndRemovedPods(t *testing.T) {
	z1 := func(name string) anode {
		return anode{name, map[string]string{"region": "r1", "zone": "z1", api.LabelHostname: name}}
	}
	pod := apod{name: "incoming", labels: map[string]string{"security": "S1"}, rules: rules{
		affinity: []api.PodAffinityTerm{in("security", "region", "S1")},
		anti:     []api.PodAffinityTerm{exists("foo", "zone")},
	}}
	existing := []apod{
		{name: "foo", node: "node-a", labels: map[string]string{"foo": "", "security": "S1"}},
		{name: "hater", node: "node-b", rules: rules{anti: []api.PodAffinityTerm{in("security", "zone", "S1")}}},
	}
	c := affinityWorld(t, []anode{z1("node-a"), z1("node-b")}, existing)
	require.NoError(t, create(c, pod.object()))
	cy := NewCycle(c)
	st := cy.newCycleState(stored(c, pod))
	require.NotNil(t, st.affinity)
	zone, region := topologyPair{"zone", "z1"}, topologyPair{"region", "r1"}
	assert.Equal(t, topologyCounts{zone: 1}, st.affinity.existingAnti)
	assert.Equal(t, topologyCounts{region: 1}, st.affinity.affinity)
	assert.Equal(t, topologyCounts{zone: 1}, st.affinity.antiAffinity)

	a, b := cy.byName["node-a"].clone(), cy.byName["node-b"].clone()
	foo, hater := stored(c, existing[0]), stored(c, existing[1])
	dry := st.clone()
	dry.removePod(a, foo)
	assert.Empty(t, dry.affinity.affinity, "foo no longer satisfies the affinity")
	assert.Empty(t, dry.affinity.antiAffinity, "nor violates the anti-affinity")
	assert.Equal(t, existingRejects, interPodAffinity{}.filter(dry, a), "hater still rejects the pod in the zone")
	dry.removePod(b, hater)
	assert.Empty(t, dry.affinity.existingAnti)
	assert.Equal(t, passes, interPodAffinity{}.filter(dry, a), "the pod matches its own affinity and no other pod does")
	dry.addPod(b, hater)
	assert.Equal(t, topologyCounts{zone: 1}, dry.affinity.existingAnti)
	dry.addPod(a, foo)
	assert.Equal(t, st.affinity.affinity, dry.affinity.affinity)
	assert.Equal(t, st.affinity.antiAffinity, dry.affinity.antiAffinity)

	dry.removePod(a, foo)
	assert.Equal(t, topologyCounts{region: 1}, st.affinity.affinity, "the original keeps its counts")
	assert.Len(t, cy.byName["node-a"].pods, 1, "and its node its pods")
}

// TestPreemptionRemovesPodsThatBreakAntiAffinity: anti-affinity, the incoming pod's or an
// existing pod's, fails as Unschedulable, so preemption may remove lower-priority pods to fix
// it; affinity fails as UnschedulableAndUnresolvable and is not preempted for
// (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go:
// SelectVictimsOnNode re-runs the filters as the victims go and come back, the plugin's
// AddPod and RemovePod keeping its counts).
func TestPreemptionRemovesPodsThatBreakAntiAffinity(t *testing.T) {
	web := map[string]string{"app": "web"}
	node := anode{"n1", map[string]string{api.LabelHostname: "n1"}}
	awayFromWeb := rules{anti: []api.PodAffinityTerm{in("app", api.LabelHostname, "web")}}
	tests := []struct {
		name        string
		existing    []apod
		pod         apod
		wantMessage string
		wantVictims []string
	}{
		{
			name:        "the incoming pod's anti-affinity: the selected pod is the victim, the other reprieved",
			existing:    []apod{{name: "web", node: "n1", labels: web}, {name: "db", node: "n1"}},
			pod:         apod{class: "system-cluster-critical", rules: awayFromWeb},
			wantMessage: "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules. preemption: found a potential placement for pod on node n1, preempting 1 victims",
			wantVictims: []string{"web"},
		},
		{
			name:        "an existing pod's anti-affinity: it is the victim",
			existing:    []apod{{name: "hater", node: "n1", rules: awayFromWeb}, {name: "db", node: "n1"}},
			pod:         apod{class: "system-cluster-critical", labels: web},
			wantMessage: "0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules. preemption: found a potential placement for pod on node n1, preempting 1 victims",
			wantVictims: []string{"hater"},
		},
		{
			name:        "a pod of equal priority is no victim",
			existing:    []apod{{name: "web", node: "n1", labels: web}},
			pod:         apod{rules: awayFromWeb},
			wantMessage: "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
		},
		{
			name:        "unmet affinity is not preempted for",
			existing:    []apod{{name: "db", node: "n1"}},
			pod:         apod{class: "system-cluster-critical", rules: rules{affinity: []api.PodAffinityTerm{in("app", api.LabelHostname, "web")}}},
			wantMessage: "0/1 nodes are available: 1 node(s) didn't match pod affinity rules. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := affinityWorld(t, []anode{node}, tt.existing)
			tt.pod.name = "incoming"
			require.NoError(t, create(c, tt.pod.object()))
			d := Schedule(c, stored(c, tt.pod))
			require.Empty(t, d.Node)
			assert.Equal(t, tt.wantMessage, d.Message)
			assert.Equal(t, tt.wantVictims, names(d.preemption.victims))
		})
	}
}

// TestFailedSchedulingCountsAntiAffinityReasons: the FitError message counts the plugin's
// reasons over the nodes (the example: three nodes whose pods' anti-affinity rejects
// the pod).
func TestFailedSchedulingCountsAntiAffinityReasons(t *testing.T) {
	var nodes []anode
	var existing []apod
	for _, n := range []string{"n1", "n2", "n3"} {
		nodes = append(nodes, anode{n, map[string]string{api.LabelHostname: n}})
		existing = append(existing, apod{name: "db-" + n, node: n, labels: map[string]string{"app": "db"},
			rules: rules{anti: []api.PodAffinityTerm{in("app", api.LabelHostname, "db")}}})
	}
	c := affinityWorld(t, nodes, existing)
	pod := apod{name: "db-4", labels: map[string]string{"app": "db"}}
	require.NoError(t, create(c, pod.object()))
	d := Schedule(c, stored(c, pod))
	assert.Equal(t, "0/3 nodes are available: 3 node(s) didn't satisfy existing pods anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", d.Message)
}

// TestNominatedPodsCountForAffinityWithoutBeingReliedOn pins RunFilterPluginsWithNominatedPods
// (pkg/scheduler/framework/runtime/framework.go): a pod nominated to a node with at least the
// incoming pod's priority counts there as bound (AddPod), so an anti-affinity against it rules
// the node out; but the node must pass without it too, so an affinity only it satisfies does
// not hold.
func TestNominatedPodsCountForAffinityWithoutBeingReliedOn(t *testing.T) {
	web := map[string]string{"app": "web"}
	tests := []struct {
		name        string
		pod         apod
		wantNode    string
		wantMessage string
	}{
		{
			name:     "anti-affinity against the nominated pod",
			pod:      apod{rules: rules{anti: []api.PodAffinityTerm{in("app", api.LabelHostname, "web")}}},
			wantNode: "n2",
		},
		{
			name:        "affinity to the nominated pod alone",
			pod:         apod{rules: rules{affinity: []api.PodAffinityTerm{in("app", api.LabelHostname, "web")}}},
			wantMessage: "0/2 nodes are available: 2 node(s) didn't match pod affinity rules. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := affinityWorld(t, []anode{{"n1", map[string]string{api.LabelHostname: "n1"}}, {"n2", map[string]string{api.LabelHostname: "n2"}}},
				[]apod{{name: "web", labels: web}})
			nominee := api.DeepCopy(stored(c, apod{name: "web"}))
			nominee.Status.NominatedNodeName = "n1"
			require.NoError(t, c.Update(nominee))
			tt.pod.name = "incoming"
			require.NoError(t, create(c, tt.pod.object()))
			d := Schedule(c, stored(c, tt.pod))
			assert.Equal(t, tt.wantNode, d.Node)
			assert.Equal(t, tt.wantMessage, d.Message)
		})
	}
}

// TestExplainReportsInterPodAffinity: Explain names InterPodAffinity for a node it rejects and
// gives its score, weight 2, for the feasible ones; a pod it skips gets no score from it.
func TestExplainReportsInterPodAffinity(t *testing.T) {
	nodes := []anode{
		{"n1", map[string]string{api.LabelHostname: "n1", "topology.kubernetes.io/zone": "a"}},
		{"n2", map[string]string{api.LabelHostname: "n2", "topology.kubernetes.io/zone": "a"}},
		{"n3", map[string]string{api.LabelHostname: "n3", "topology.kubernetes.io/zone": "b"}},
	}
	c := affinityWorld(t, nodes, []apod{{name: "cache", node: "n1", labels: map[string]string{"app": "cache"}}})
	pod := apod{name: "web", rules: rules{
		anti:      []api.PodAffinityTerm{in("app", api.LabelHostname, "cache")},
		preferred: []api.WeightedPodAffinityTerm{weighted(10, in("app", "topology.kubernetes.io/zone", "cache"))},
	}}
	require.NoError(t, create(c, pod.object()))
	e := Explain(c, stored(c, pod))
	require.Len(t, e.Nodes, 3)
	assert.Equal(t, NodeVerdict{Plugin: InterPodAffinity, Reasons: []string{reasonAntiAffinityRulesNotMatch}}, e.Nodes[0].Verdict)
	for node, want := range map[string]int64{"n2": 100, "n3": 0} {
		score, ok := scoreOf(t, e, node, InterPodAffinity)
		require.True(t, ok, node)
		assert.Equal(t, want, score, node)
	}
	assert.Contains(t, e.Nodes[1].Scores, PluginScore{Plugin: InterPodAffinity, Score: 100, Weight: 2})
	assert.Equal(t, []string{"n2"}, e.Best)

	plain := apod{name: "plain"}
	require.NoError(t, create(c, plain.object()))
	_, ok := scoreOf(t, Explain(c, stored(c, plain)), "n2", InterPodAffinity)
	assert.False(t, ok, "no terms anywhere: PreScore skips the plugin")
}
