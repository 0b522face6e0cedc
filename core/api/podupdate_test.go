package api

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestValidatePodUpdateRules pins the rules of ValidatePodUpdate (k8s.io/kubernetes
// pkg/apis/core/validation/validation.go ValidatePodUpdate, ValidateContainerUpdates,
// validateOnlyAddedTolerations, ValidatePodSpecificAnnotationUpdates) one by one, on a pod
// changed in Go; core/apiserver's TestPodUpdatesMayChangeOnlyTheImagesDeadlineAndTolerations
// compares whole refusals, diffs included, with kube-apiserver's own.
func TestValidatePodUpdateRules(t *testing.T) {
	seconds := func(s int64) *int64 { return &s }
	const forbidden = "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n@@ "
	for _, tc := range []struct {
		name   string
		old    func(*Pod) // the stored pod, from a plain one
		change func(*Pod)
		want   []string // the errors; one ending in "@@ " is the forbidden spec, its diff left out
	}{
		{"images may change", nil, func(p *Pod) { p.Spec.Containers[0].Image, p.Spec.InitContainers[0].Image = "nginx:2", "busybox:2" }, nil},
		{"an image is required", nil, func(p *Pod) { p.Spec.Containers[0].Image = "" },
			[]string{"spec.containers[0].image: Required value"}},
		{"an image has no surrounding whitespace", nil, func(p *Pod) { p.Spec.InitContainers[0].Image = "busybox " },
			[]string{`spec.initContainers[0].image: Invalid value: "busybox ": must not have leading or trailing whitespace`}},
		{"no init container may be added, and nothing else is checked", nil, func(p *Pod) {
			p.Spec.InitContainers = append(p.Spec.InitContainers, Container{Name: "more", Image: "busybox"})
			p.Spec.NodeName = "hd2"
		}, []string{"spec.initContainers: Forbidden: pod updates may not add or remove containers"}},
		{"activeDeadlineSeconds may be set", nil, func(p *Pod) { p.Spec.ActiveDeadlineSeconds = seconds(60) }, nil},
		{"activeDeadlineSeconds may not be raised", func(p *Pod) { p.Spec.ActiveDeadlineSeconds = seconds(60) }, func(p *Pod) { p.Spec.ActiveDeadlineSeconds = seconds(61) },
			[]string{"spec.activeDeadlineSeconds: Invalid value: 61: must be less than or equal to previous value"}},
		{"activeDeadlineSeconds may not be unset", func(p *Pod) { p.Spec.ActiveDeadlineSeconds = seconds(60) }, func(p *Pod) { p.Spec.ActiveDeadlineSeconds = nil },
			[]string{"spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value"}},
		{"a toleration may be added", nil, func(p *Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, Toleration{Operator: TolerationOpExists})
		}, nil},
		{"a toleration's tolerationSeconds may change", func(p *Pod) {
			p.Spec.Tolerations = []Toleration{{Key: "k", Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: seconds(300)}}
		}, func(p *Pod) { p.Spec.Tolerations[0].TolerationSeconds = nil }, nil},
		{"a toleration may not go", func(p *Pod) { p.Spec.Tolerations = []Toleration{{Key: "k", Operator: TolerationOpExists}} }, func(p *Pod) { p.Spec.Tolerations = nil },
			[]string{"spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"}},
		{"terminationGracePeriodSeconds may go from negative to 1", func(p *Pod) { p.Spec.TerminationGracePeriodSeconds = seconds(-1) },
			func(p *Pod) { p.Spec.TerminationGracePeriodSeconds = seconds(1) }, nil},
		{"terminationGracePeriodSeconds may not go from negative to 2", func(p *Pod) { p.Spec.TerminationGracePeriodSeconds = seconds(-1) },
			func(p *Pod) { p.Spec.TerminationGracePeriodSeconds = seconds(2) }, []string{forbidden}},
		{"a quantity is compared by its value", func(p *Pod) {
			p.Spec.Containers[0].Resources.Limits = ResourceList{ResourceMemory: MustParseQuantity("1Gi")}
		}, func(p *Pod) { p.Spec.Containers[0].Resources.Limits[ResourceMemory] = MustParseQuantity("1024Mi") }, nil},
		{"an empty list is no list", nil, func(p *Pod) { p.Spec.Containers[0].Args = []string{} }, nil},
		{"resources may not change", nil, func(p *Pod) {
			p.Spec.Containers[0].Resources.Requests = ResourceList{ResourceMemory: MustParseQuantity("1Gi")}
		}, []string{forbidden}},
		{"the mirror pod annotation may not be removed", func(p *Pod) {
			p.Spec.NodeName = "hd2"
			p.Annotations = map[string]string{AnnotationConfigMirror: "hash", "other": "x"}
		}, func(p *Pod) { delete(p.Annotations, AnnotationConfigMirror); p.Annotations["other"] = "y" },
			[]string{"metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not remove or update mirror pod annotation"}},
		{"an AppArmor annotation may not change", func(p *Pod) {
			p.Annotations = map[string]string{annotationAppArmorPrefix + "c": "runtime/default"}
		}, func(p *Pod) { p.Annotations[annotationAppArmorPrefix+"c"] = "unconfined" },
			[]string{"metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: Forbidden: may not remove or update AppArmor annotations"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := &Pod{ObjectMeta: ObjectMeta{Name: "web", Namespace: "default"}, Spec: PodSpec{
				InitContainers: []Container{{Name: "init", Image: "busybox"}},
				Containers:     []Container{{Name: "c", Image: "nginx"}},
			}}
			if tc.old != nil {
				tc.old(old)
			}
			pod := DeepCopy(old)
			tc.change(pod)
			var got []string
			for _, e := range ValidatePodUpdate(pod, old) {
				msg := e.Error()
				if i := strings.Index(msg, "\n@@ "); i >= 0 {
					msg = msg[:i+4] // the diff: see core/apiserver's test
				}
				got = append(got, msg)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestSemanticEqualIsApimachinerys pins semanticEqual as equality.Semantic.DeepEqual
// (k8s.io/apimachinery pkg/api/equality/semantic.go, third_party/forked/golang/reflect
// deep_equal.go): quantities by value, an empty slice or map equal to a nil one.
func TestSemanticEqualIsApimachinerys(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b any
		want bool
	}{
		{"a quantity by its value", MustParseQuantity("1Gi"), MustParseQuantity("1024Mi"), true},
		{"quantities of other values", MustParseQuantity("1Gi"), MustParseQuantity("1G"), false},
		{"an empty slice and none", []string{}, []string(nil), true},
		{"an empty map and none", ResourceList{}, ResourceList(nil), true},
		{"a nil pointer and a zero one", (*int64)(nil), new(int64), false},
		{"structs field by field", Toleration{Key: "a"}, Toleration{Key: "a"}, true},
		{"structs that differ", Toleration{Key: "a"}, Toleration{Key: "b"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, semanticEqual(reflect.ValueOf(tc.a), reflect.ValueOf(tc.b)))
		})
	}
}
