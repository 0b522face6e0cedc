package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"
)

// tolerationCases is a matching table of Toleration.ToleratesTaint (k8s.io/api's
// core/v1/toleration.go and toleration_test.go), each row checked against k8s.io/api below.
var tolerationCases = []struct {
	tol   Toleration
	taint Taint
	want  bool
}{
	{Toleration{Key: "foo", Operator: "Exists", Effect: "NoSchedule"}, Taint{Key: "foo", Effect: "NoSchedule"}, true},
	{Toleration{Key: "foo", Operator: "Exists", Effect: "NoSchedule"}, Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, true},
	{Toleration{Operator: "Exists", Effect: "NoSchedule"}, Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, true},
	{Toleration{Operator: "Exists"}, Taint{Key: "node.kubernetes.io/unreachable", Effect: "NoExecute"}, true},
	{Toleration{Operator: "Exists", Effect: "NoSchedule"}, Taint{Key: "foo", Effect: "NoExecute"}, false},
	{Toleration{Key: "foo", Operator: "Equal", Value: "bar", Effect: "NoSchedule"}, Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, true},
	{Toleration{Key: "foo", Operator: "Equal", Value: "value1", Effect: "NoSchedule"}, Taint{Key: "foo", Value: "value2", Effect: "NoSchedule"}, false},
	{Toleration{Key: "foo", Operator: "Equal", Value: "bar", Effect: "NoSchedule"}, Taint{Key: "foo", Value: "bar", Effect: "NoExecute"}, false},
	{Toleration{Key: "foo", Value: "bar", Effect: "NoSchedule"}, Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, true},
	{Toleration{Key: "foo"}, Taint{Key: "foo", Effect: "NoSchedule"}, true},
	{Toleration{Key: "foo"}, Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, false},
	{Toleration{Key: "foo", Operator: "Exists"}, Taint{Key: "foo", Effect: "PreferNoSchedule"}, true},
	{Toleration{Key: "Foo", Operator: "Exists"}, Taint{Key: "foo", Effect: "NoSchedule"}, false},
	{Toleration{Key: "foo", Operator: "Equal", Value: "Bar"}, Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, false},
	{Toleration{Key: "foo", Operator: "In", Value: "bar"}, Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, false},
	{Toleration{Key: "foo", Operator: "exists"}, Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, false},
	{Toleration{Operator: "Equal", Value: "bar"}, Taint{Key: "foo", Value: "bar", Effect: "NoSchedule"}, true},
	{Toleration{Key: "sla", Operator: "Gt", Value: "750"}, Taint{Key: "sla", Value: "950", Effect: "NoSchedule"}, false},
	{Toleration{Key: "sla", Operator: "Lt", Value: "800"}, Taint{Key: "sla", Value: "950", Effect: "NoSchedule"}, false},
}

func upstreamToleration(t Toleration) corev1.Toleration {
	return corev1.Toleration{Key: t.Key, Operator: corev1.TolerationOperator(t.Operator), Value: t.Value, Effect: corev1.TaintEffect(t.Effect)}
}

func upstreamTaint(t Taint) corev1.Taint {
	return corev1.Taint{Key: t.Key, Value: t.Value, Effect: corev1.TaintEffect(t.Effect)}
}

// TestToleratesTaintMatchesUpstream pins ToleratesTaint to the table above and to
// k8s.io/api's Toleration.ToleratesTaint with the comparison-operator gate off (v1.37 default).
func TestToleratesTaintMatchesUpstream(t *testing.T) {
	for _, tc := range tolerationCases {
		up, taint := upstreamToleration(tc.tol), upstreamTaint(tc.taint)
		assert.Equal(t, tc.want, tc.tol.ToleratesTaint(&tc.taint), "%+v vs %s", tc.tol, tc.taint)
		assert.Equal(t, up.ToleratesTaint(klog.Background(), &taint, false), tc.tol.ToleratesTaint(&tc.taint), "%+v vs %s", tc.tol, tc.taint)
	}
}

// TestTaintStringMatchesUpstream pins Taint.String to Taint.ToString: k:E, k=v:E, k=v:, k.
func TestTaintStringMatchesUpstream(t *testing.T) {
	for _, tc := range []Taint{{Key: "k", Effect: "NoSchedule"}, {Key: "k", Value: "v", Effect: "NoExecute"}, {Key: "k", Value: "v"}, {Key: "k"}} {
		up := upstreamTaint(tc)
		assert.Equal(t, up.ToString(), tc.String())
	}
}

func FuzzToleratesTaint(f *testing.F) {
	for _, tc := range tolerationCases {
		f.Add(tc.tol.Key, string(tc.tol.Operator), tc.tol.Value, string(tc.tol.Effect), tc.taint.Key, tc.taint.Value, string(tc.taint.Effect))
	}
	f.Fuzz(func(t *testing.T, tk, op, tv, te, k, v, e string) {
		tol := Toleration{Key: tk, Operator: TolerationOperator(op), Value: tv, Effect: TaintEffect(te)}
		taint := Taint{Key: k, Value: v, Effect: TaintEffect(e)}
		up, upTaint := upstreamToleration(tol), upstreamTaint(taint)
		assert.Equal(t, up.ToleratesTaint(klog.Background(), &upTaint, false), tol.ToleratesTaint(&taint))
	})
}

var affinityNodes = []*Node{
	{ObjectMeta: ObjectMeta{Name: "hd1", Labels: map[string]string{"kubernetes.io/hostname": "hd1", "node-role.kubernetes.io/control-plane": "", "disk": "ssd", "cores": "8"}}},
	{ObjectMeta: ObjectMeta{Name: "hd2", Labels: map[string]string{"kubernetes.io/hostname": "hd2", "disk": "hdd", "cores": "2"}}},
	{ObjectMeta: ObjectMeta{Name: "hd3"}},
}

func term(exprs []NodeSelectorRequirement, fields []NodeSelectorRequirement) NodeSelectorTerm {
	return NodeSelectorTerm{MatchExpressions: exprs, MatchFields: fields}
}

var affinityCases = []struct {
	name     string
	selector map[string]string
	terms    []NodeSelectorTerm
}{
	{"nothing required", nil, nil},
	{"nodeSelector", map[string]string{"disk": "ssd"}, nil},
	{"nodeSelector empty value", map[string]string{"node-role.kubernetes.io/control-plane": ""}, nil},
	{"In", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "disk", Operator: "In", Values: []string{"ssd", "nvme"}}}, nil)}},
	{"NotIn matches missing label", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "disk", Operator: "NotIn", Values: []string{"ssd"}}}, nil)}},
	{"Exists", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "disk", Operator: "Exists"}}, nil)}},
	{"DoesNotExist", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "node-role.kubernetes.io/control-plane", Operator: "DoesNotExist"}}, nil)}},
	{"Gt", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "cores", Operator: "Gt", Values: []string{"4"}}}, nil)}},
	{"Lt", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "cores", Operator: "Lt", Values: []string{"4"}}}, nil)}},
	{"Gt not a number", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "cores", Operator: "Gt", Values: []string{"four"}}}, nil)}},
	{"terms are ORed", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "disk", Operator: "In", Values: []string{"ssd"}}}, nil), term(nil, []NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"hd3"}}})}},
	{"expressions are ANDed", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "disk", Operator: "Exists"}, {Key: "cores", Operator: "Gt", Values: []string{"4"}}}, nil)}},
	{"matchFields pin (DaemonSet)", nil, []NodeSelectorTerm{term(nil, []NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"hd2"}}})}},
	{"matchFields NotIn", nil, []NodeSelectorTerm{term(nil, []NodeSelectorRequirement{{Key: "metadata.name", Operator: "NotIn", Values: []string{"hd2"}}})}},
	{"matchFields two values do not parse", nil, []NodeSelectorTerm{term(nil, []NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"hd1", "hd2"}}})}},
	{"matchFields other key", nil, []NodeSelectorTerm{term(nil, []NodeSelectorRequirement{{Key: "spec.unschedulable", Operator: "NotIn", Values: []string{"x"}}})}},
	{"empty term matches nothing", nil, []NodeSelectorTerm{{}}},
	{"empty term list matches nothing", nil, []NodeSelectorTerm{}},
	{"bad operator", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "disk", Operator: "Equals", Values: []string{"ssd"}}}, nil)}},
	{"bad key", nil, []NodeSelectorTerm{term([]NodeSelectorRequirement{{Key: "a b", Operator: "Exists"}}, nil)}},
	{"selector and terms both apply", map[string]string{"disk": "hdd"}, []NodeSelectorTerm{term(nil, []NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"hd2"}}})}},
}

func upstreamPod(selector map[string]string, terms []NodeSelectorTerm) *corev1.Pod {
	pod := &corev1.Pod{Spec: corev1.PodSpec{NodeSelector: selector}}
	if terms != nil {
		ns := &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{}}
		for _, t := range terms {
			ut := corev1.NodeSelectorTerm{}
			for _, e := range t.MatchExpressions {
				ut.MatchExpressions = append(ut.MatchExpressions, corev1.NodeSelectorRequirement{Key: e.Key, Operator: corev1.NodeSelectorOperator(e.Operator), Values: e.Values})
			}
			for _, e := range t.MatchFields {
				ut.MatchFields = append(ut.MatchFields, corev1.NodeSelectorRequirement{Key: e.Key, Operator: corev1.NodeSelectorOperator(e.Operator), Values: e.Values})
			}
			ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, ut)
		}
		pod.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: ns}}
	}
	return pod
}

// TestRequiredNodeAffinityMatchesUpstream pins GetRequiredNodeAffinity(...).Match to
// component-helpers' nodeaffinity (the function the DaemonSet controller and the scheduler use).
func TestRequiredNodeAffinityMatchesUpstream(t *testing.T) {
	for _, tc := range affinityCases {
		t.Run(tc.name, func(t *testing.T) { assertAffinityMatches(t, tc.selector, tc.terms) })
	}
}

func assertAffinityMatches(t *testing.T, selector map[string]string, terms []NodeSelectorTerm) {
	spec := &PodSpec{NodeSelector: selector}
	if terms != nil {
		spec.Affinity = &Affinity{NodeAffinity: &NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &NodeSelector{NodeSelectorTerms: terms}}}
	}
	ours := GetRequiredNodeAffinity(spec)
	theirs := nodeaffinity.GetRequiredNodeAffinity(upstreamPod(selector, terms))
	for _, n := range affinityNodes {
		un := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name, Labels: n.Labels}}
		want, _ := theirs.Match(un)
		assert.Equal(t, want, ours.Match(n), "node %s", n.Name)
	}
}

func FuzzRequiredNodeAffinity(f *testing.F) {
	f.Add("disk", "In", "ssd", "metadata.name", "In", "hd2", "disk", "ssd")
	f.Add("cores", "Gt", "4", "metadata.name", "NotIn", "hd1", "", "")
	f.Add("a b", "Exists", "", "x", "Exists", "", "k", "")
	f.Fuzz(func(t *testing.T, ek, eop, ev, fk, fop, fv, sk, sv string) {
		var selector map[string]string
		if sk != "" {
			selector = map[string]string{sk: sv}
		}
		vals := func(v string) []string {
			if v == "" {
				return nil
			}
			return []string{v}
		}
		terms := []NodeSelectorTerm{term(
			[]NodeSelectorRequirement{{Key: ek, Operator: NodeSelectorOperator(eop), Values: vals(ev)}},
			[]NodeSelectorRequirement{{Key: fk, Operator: NodeSelectorOperator(fop), Values: vals(fv)}})}
		assertAffinityMatches(t, selector, terms)
	})
}
