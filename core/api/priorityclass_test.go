package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	schedulingv1 "k8s.io/api/scheduling/v1"
)

// TestSystemPriorityClassesAreUpstreams: the classes every cluster has are
// pkg/apis/scheduling/v1 SystemPriorityClasses, as the API server serves them (k8s.io/api's
// names and values; the descriptions as helpers.go words them).
func TestSystemPriorityClassesAreUpstreams(t *testing.T) {
	got := SystemPriorityClasses()
	require.Len(t, got, 2)
	assert.Equal(t, schedulingv1.SchemeGroupVersion.String(), got[0].APIVersion)
	assert.Equal(t, "PriorityClass", got[0].Kind)
	assert.Equal(t, "system-node-critical", got[0].Name)
	assert.Equal(t, int32(2000001000), got[0].Value)
	assert.Equal(t, "Used for system critical pods that must not be moved from their current node.", got[0].Description)
	assert.Equal(t, "system-cluster-critical", got[1].Name)
	assert.Equal(t, int32(2000000000), got[1].Value)
	assert.Equal(t, "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.", got[1].Description)
	got[0].Value = 1
	assert.Equal(t, int32(2000001000), SystemPriorityClasses()[0].Value, "a new copy each time")
	for _, pc := range got {
		assert.False(t, pc.GlobalDefault, pc.Name)
		assert.Nil(t, pc.PreemptionPolicy, "defaulted by the API server, not given")
		assert.True(t, IsSystemPriorityClass(pc.Name))
	}
	assert.False(t, IsSystemPriorityClass("system-foo"))
}

// TestValidatePriorityClassMessages pins ValidatePriorityClass (pkg/apis/scheduling/validation)
// with the cases of its TestValidatePriorityClass and the messages the API server renders.
func TestValidatePriorityClassMessages(t *testing.T) {
	never, sometimes, empty := PreemptNever, "Sometimes", ""
	for _, tc := range []struct {
		name string
		pc   PriorityClass
		want []string
	}{
		{"no description", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1"}, Value: 100}, nil},
		{"with description", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1"}, Value: 200, Description: "Used for the highest priority pods."}, nil},
		{"system node critical, another description", PriorityClass{ObjectMeta: ObjectMeta{Name: "system-node-critical"}, Value: 2000001000, Description: "system priority class 0"}, nil},
		{"the highest user-definable value", PriorityClass{ObjectMeta: ObjectMeta{Name: "top"}, Value: 1000000000}, nil},
		{"a negative value", PriorityClass{ObjectMeta: ObjectMeta{Name: "low"}, Value: -5}, nil},
		{"preemption policy Never", PriorityClass{ObjectMeta: ObjectMeta{Name: "batch"}, Value: 1, PreemptionPolicy: &never}, nil},
		{"with namespace", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1", Namespace: "foo"}, Value: 100},
			[]string{"metadata.namespace: Forbidden: not allowed on this type"}},
		{"invalid name", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier&1"}, Value: 100},
			[]string{`metadata.name: Invalid value: "tier&1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
		{"incorrect system class value", PriorityClass{ObjectMeta: ObjectMeta{Name: "system-node-critical"}, Value: 0},
			[]string{"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"}},
		{"incorrect system class globalDefault", PriorityClass{ObjectMeta: ObjectMeta{Name: "system-cluster-critical"}, Value: 2000000000, GlobalDefault: true},
			[]string{"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false"}},
		{"incorrect system class name", PriorityClass{ObjectMeta: ObjectMeta{Name: "system-something"}, Value: 2000001000},
			[]string{"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-something is not a known system priority class"}},
		{"above the highest user-definable value", PriorityClass{ObjectMeta: ObjectMeta{Name: "big"}, Value: 1000000001},
			[]string{"value: Forbidden: maximum allowed value of a user defined priority is 1000000000"}},
		{"an unknown preemption policy", PriorityClass{ObjectMeta: ObjectMeta{Name: "batch"}, PreemptionPolicy: &sometimes},
			[]string{`preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"`}},
		{"an empty preemption policy", PriorityClass{ObjectMeta: ObjectMeta{Name: "batch"}, PreemptionPolicy: &empty},
			[]string{"preemptionPolicy: Required value"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range Validate(&tc.pc) {
				got = append(got, e.Error())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestPriorityClassDefaultsToPreemptLowerPriority: SetDefaults_PriorityClass.
func TestPriorityClassDefaultsToPreemptLowerPriority(t *testing.T) {
	pc := &PriorityClass{}
	Default(pc)
	require.NotNil(t, pc.PreemptionPolicy)
	assert.Equal(t, PreemptLowerPriority, *pc.PreemptionPolicy)
	never := PreemptNever
	pc = &PriorityClass{PreemptionPolicy: &never}
	Default(pc)
	assert.Equal(t, PreemptNever, *pc.PreemptionPolicy)
}

// TestValidatePriorityClassUpdateMessages pins ValidatePriorityClassUpdate with the cases of its
// TestValidatePriorityClassUpdate: the description and globalDefault may change, value and
// preemptionPolicy may not.
func TestValidatePriorityClassUpdateMessages(t *testing.T) {
	lower, never := PreemptLowerPriority, PreemptNever
	old := &PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1", ResourceVersion: "1"}, Value: 100, PreemptionPolicy: &lower}
	for _, tc := range []struct {
		name string
		pc   PriorityClass
		want []string
	}{
		{"no change", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1"}, Value: 100, PreemptionPolicy: &lower, Description: "Used for the highest priority pods."}, nil},
		{"change description", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1"}, Value: 100, PreemptionPolicy: &lower, Description: "A different description."}, nil},
		{"change globalDefault", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1"}, Value: 100, PreemptionPolicy: &lower, GlobalDefault: true}, nil},
		{"remove value", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1"}, PreemptionPolicy: &lower},
			[]string{"value: Forbidden: may not be changed in an update."}},
		{"change value", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1"}, Value: 101, PreemptionPolicy: &lower},
			[]string{"value: Forbidden: may not be changed in an update."}},
		{"change preemptionPolicy", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1"}, Value: 100, PreemptionPolicy: &never},
			[]string{`preemptionPolicy: Invalid value: "Never": field is immutable`}},
		{"change value above the user's highest: only the update rules", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1"}, Value: 2000000000, PreemptionPolicy: &lower},
			[]string{"value: Forbidden: may not be changed in an update."}},
		{"a bad label", PriorityClass{ObjectMeta: ObjectMeta{Name: "tier1", Labels: map[string]string{"a": "-"}}, Value: 100, PreemptionPolicy: &lower},
			[]string{`metadata.labels: Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range ValidatePriorityClassUpdate(&tc.pc, old) {
				got = append(got, e.Error())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
