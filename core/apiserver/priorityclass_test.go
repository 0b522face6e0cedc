package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// bootstrapped is a new cluster as the API server leaves it when it starts: the system
// namespaces and the system PriorityClasses.
func bootstrapped(t *testing.T) *cluster.Cluster {
	c := cluster.New(1)
	require.NoError(t, CreateSystemNamespaces(c))
	require.NoError(t, CreateSystemPriorityClasses(c))
	return c
}

func priorityClass(name string, value int32, globalDefault bool, policy string) *api.PriorityClass {
	pc := &api.PriorityClass{TypeMeta: api.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"}, Value: value, GlobalDefault: globalDefault}
	pc.Name = name
	if policy != "" {
		pc.PreemptionPolicy = &policy
	}
	return pc
}

func podOfClass(class string) *api.Pod {
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	p.Name, p.Namespace = "web", "default"
	p.Spec.PriorityClassName = class
	p.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
	return p
}

// TestSystemPriorityClassesAreBootstrapped: the API server's post-start hook
// (AddSystemPriorityClasses) leaves both system classes defaulted and stored, created once; their
// uids come from the store's system source, so every later uid and name is drawn as before.
func TestSystemPriorityClassesAreBootstrapped(t *testing.T) {
	c := cluster.New(1)
	require.NoError(t, CreateSystemNamespaces(c))
	plain := cluster.New(1)
	require.NoError(t, CreateSystemNamespaces(plain))
	require.NoError(t, CreateSystemPriorityClasses(c))
	require.NoError(t, CreateSystemPriorityClasses(c), "a second start finds them")
	classes := cluster.List[*api.PriorityClass](c)
	require.Len(t, classes, 2)
	for _, pc := range classes {
		assert.Equal(t, api.PreemptLowerPriority, *pc.PreemptionPolicy, pc.Name)
		assert.Equal(t, int64(1), pc.Generation, pc.Name)
		assert.NotEmpty(t, pc.UID, pc.Name)
	}
	assert.NotEqual(t, classes[0].UID, classes[1].UID)
	assert.Equal(t, plain.RandomString(5), c.RandomString(5), "the random source is where it stood")
}

// TestPriorityAdmissionResolvesAPodsClass pins the Priority plugin's admitPod
// (plugin/pkg/admission/priority/admission.go): the class's value and preemption policy; with no
// class the global default's (its name too), else 0 and PreemptLowerPriority; an unknown class,
// and a priority or policy in the spec that differs from the class's, are Forbidden.
func TestPriorityAdmissionResolvesAPodsClass(t *testing.T) {
	never, lower := api.PreemptNever, api.PreemptLowerPriority
	for _, tc := range []struct {
		name       string
		classes    []*api.PriorityClass
		pod        *api.Pod
		wantClass  string
		wantValue  int32
		wantPolicy string
		wantErr    string
	}{
		{name: "no class, no global default: 0", pod: podOfClass(""), wantValue: 0, wantPolicy: lower},
		{name: "a system class", pod: podOfClass("system-node-critical"), wantClass: "system-node-critical", wantValue: 2000001000, wantPolicy: lower},
		{name: "a class of the user's with Never", classes: []*api.PriorityClass{priorityClass("batch", 500, false, never)},
			pod: podOfClass("batch"), wantClass: "batch", wantValue: 500, wantPolicy: never},
		{name: "no class: the global default, its name too", classes: []*api.PriorityClass{priorityClass("base", 100, true, never)},
			pod: podOfClass(""), wantClass: "base", wantValue: 100, wantPolicy: never},
		{name: "a named class wins over the global default", classes: []*api.PriorityClass{priorityClass("base", 100, true, ""), priorityClass("high", 1000, false, "")},
			pod: podOfClass("high"), wantClass: "high", wantValue: 1000, wantPolicy: lower},
		{name: "an unknown class", pod: podOfClass("gold"), wantErr: `pods "web" is forbidden: no PriorityClass with name gold was found`},
		{name: "a priority that is not the class's", classes: []*api.PriorityClass{priorityClass("high", 1000, false, "")},
			pod:     func() *api.Pod { p := podOfClass("high"); v := int32(7); p.Spec.Priority = &v; return p }(),
			wantErr: `pods "web" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name`},
		{name: "the class's priority given again", classes: []*api.PriorityClass{priorityClass("high", 1000, false, "")},
			pod: func() *api.Pod { p := podOfClass("high"); v := int32(1000); p.Spec.Priority = &v; return p }(), wantClass: "high", wantValue: 1000, wantPolicy: lower},
		{name: "a policy that is not the class's", classes: []*api.PriorityClass{priorityClass("batch", 500, false, never)},
			pod:     func() *api.Pod { p := podOfClass("batch"); p.Spec.PreemptionPolicy = &lower; return p }(),
			wantErr: `pods "web" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := bootstrapped(t)
			for _, pc := range tc.classes {
				_, err := Create(c, pc, Options{})
				require.NoError(t, err)
			}
			stored, err := Create(c, tc.pod, Options{})
			if tc.wantErr != "" {
				assert.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			p := stored.(*api.Pod)
			assert.Equal(t, tc.wantClass, p.Spec.PriorityClassName)
			assert.Equal(t, tc.wantValue, *p.Spec.Priority)
			assert.Equal(t, tc.wantPolicy, *p.Spec.PreemptionPolicy)
		})
	}
}

// TestOnlyOneGlobalDefaultPriorityClass pins the Priority plugin's Validate of PriorityClasses:
// a second global default is Forbidden on create, and so is marking another class the default
// on update, but the default itself may be updated; validation speaks first.
func TestOnlyOneGlobalDefaultPriorityClass(t *testing.T) {
	c := bootstrapped(t)
	_, err := Create(c, priorityClass("base", 100, true, ""), Options{})
	require.NoError(t, err)
	_, err = Create(c, priorityClass("other", 200, true, ""), Options{})
	assert.EqualError(t, err, `priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass base is already marked as default. Only one default can exist`)
	_, err = Create(c, priorityClass("system-other", 200, true, ""), Options{})
	assert.EqualError(t, err, `PriorityClass.scheduling.k8s.io "system-other" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-other is not a known system priority class`, "Invalid before Forbidden")
	_, err = Create(c, priorityClass("other", 200, false, ""), Options{})
	require.NoError(t, err)
	_, err = Update(c, priorityClass("other", 200, true, ""), Options{})
	assert.EqualError(t, err, `priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass base is already marked as default. Only one default can exist`)
	base := priorityClass("base", 100, true, "")
	base.Description = "the default"
	_, err = Update(c, base, Options{})
	assert.NoError(t, err, "the default itself")
	_, err = Update(c, priorityClass("base", 100, false, ""), Options{})
	require.NoError(t, err)
	_, err = Update(c, priorityClass("other", 200, true, ""), Options{})
	assert.NoError(t, err, "no default left")
}

// TestPriorityClassUpdateRules: value and preemptionPolicy are immutable, for the system
// classes too, whose description may change (ValidatePriorityClassUpdate alone, as upstream).
func TestPriorityClassUpdateRules(t *testing.T) {
	c := bootstrapped(t)
	_, err := Create(c, priorityClass("high", 1000, false, ""), Options{})
	require.NoError(t, err)
	for _, tc := range []struct {
		name    string
		pc      *api.PriorityClass
		wantErr string
	}{
		{"value", priorityClass("high", 2000, false, ""), `PriorityClass.scheduling.k8s.io "high" is invalid: value: Forbidden: may not be changed in an update.`},
		{"preemptionPolicy", priorityClass("high", 1000, false, api.PreemptNever), `PriorityClass.scheduling.k8s.io "high" is invalid: preemptionPolicy: Invalid value: "Never": field is immutable`},
		{"both", priorityClass("high", 5, false, api.PreemptNever), `PriorityClass.scheduling.k8s.io "high" is invalid: [value: Forbidden: may not be changed in an update., preemptionPolicy: Invalid value: "Never": field is immutable]`},
		{"a system class's value", priorityClass("system-node-critical", 5, false, ""), `PriorityClass.scheduling.k8s.io "system-node-critical" is invalid: value: Forbidden: may not be changed in an update.`},
		{"a system class's description", func() *api.PriorityClass {
			pc := priorityClass("system-node-critical", 2000001000, false, "")
			pc.Description = "mine"
			return pc
		}(), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Update(c, tc.pc, Options{})
			if tc.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tc.wantErr)
		})
	}
}

// TestSystemPriorityClassesCannotBeDeleted pins the PriorityClass storage's Delete: Forbidden,
// dry run or not; any other class goes.
func TestSystemPriorityClassesCannotBeDeleted(t *testing.T) {
	c := bootstrapped(t)
	kind, _ := api.KindFor("scheduling.k8s.io/v1", "PriorityClass")
	for _, name := range []string{"system-node-critical", "system-cluster-critical"} {
		for _, dry := range []bool{false, true} {
			_, err := Delete(c, kind, cluster.Key{Name: name}, DeleteOptions{DryRun: dry})
			assert.EqualError(t, err, `priorityclasses.scheduling.k8s.io "`+name+`" is forbidden: this is a system priority class and cannot be deleted`)
		}
	}
	_, err := Create(c, priorityClass("high", 1000, false, ""), Options{})
	require.NoError(t, err)
	_, err = Delete(c, kind, cluster.Key{Name: "high"}, DeleteOptions{})
	require.NoError(t, err)
	assert.Nil(t, c.Get("PriorityClass", cluster.Key{Name: "high"}))
	assert.Equal(t, 2, c.Count("PriorityClass"))
}

// TestAPodKeepsItsPriorityOnUpdate: the Priority plugin's admitPod on an update puts back the
// priority and preemption policy the update leaves out, so a replace of the pod as it was
// written changes nothing.
func TestAPodKeepsItsPriorityOnUpdate(t *testing.T) {
	c := bootstrapped(t)
	stored, err := Create(c, podOfClass("system-cluster-critical"), Options{})
	require.NoError(t, err)
	p := api.DeepCopy(stored.(*api.Pod))
	p.Spec.Priority, p.Spec.PreemptionPolicy = nil, nil
	updated, err := Update(c, p, Options{})
	require.NoError(t, err)
	assert.Equal(t, int32(2000000000), *updated.(*api.Pod).Spec.Priority)
	assert.Equal(t, api.PreemptLowerPriority, *updated.(*api.Pod).Spec.PreemptionPolicy)
}
