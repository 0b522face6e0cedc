package api

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// podWithResources is a Pod whose one container has the given resources (a YAML flow map),
// decoded, defaulted (requests copied from limits) and validated.
func podWithResources(t *testing.T, resources string) []string {
	return messages(decodeValidate(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources: "+resources+"\n"))
}

func messages(errs ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// TestValidateContainerResourceRequirements pins the rules and messages of
// ValidateContainerResourceRequirements (pkg/apis/core/validation/validation.go:
// validateResourceRequirements, ValidateContainerResourceName, validateResourceName,
// ValidateResourceQuantityValue, validateResourceQuantityHugePageValue) on a created Pod, whose
// limits have been copied to its missing requests. Each case was checked against
// k8s.io/kubernetes v1.37.2's pod strategy; upstream ranges over the maps, so the cases name one
// resource each or only resources whose errors do not interleave.
func TestValidateContainerResourceRequirements(t *testing.T) {
	const c = "spec.containers[0].resources"
	cases := []struct {
		name      string
		resources string
		want      []string
	}{
		{"extended resource by limit is valid", `{limits: {example.com/gpu: 1}}`, nil},
		{"extended resource of zero is valid", `{limits: {example.com/gpu: 0}}`, nil},
		{"native resources are valid", `{limits: {cpu: 1, memory: 1Gi, ephemeral-storage: 1Gi, kubernetes.io/foo: 1}}`, nil},
		{"extended resource requested without a limit", `{requests: {example.com/gpu: 1}}`,
			[]string{c + ".limits: Required value: Limit must be set for non overcommitable resources"}},
		{"extended resource requested below its limit", `{limits: {example.com/gpu: 2}, requests: {example.com/gpu: 1}}`,
			[]string{c + `.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2`}},
		{"extended resource requested above its limit", `{limits: {example.com/gpu: 1}, requests: {example.com/gpu: 2}}`,
			[]string{c + `.requests: Invalid value: "2": must be equal to example.com/gpu limit of 1`}},
		{"extended resource must be an integer", `{limits: {example.com/gpu: 500m}}`,
			[]string{c + `.limits[example.com/gpu]: Invalid value: "500m": must be an integer`,
				c + `.requests[example.com/gpu]: Invalid value: "500m": must be an integer`}},
		{"fraction and unlimited request both reported", `{requests: {example.com/gpu: 500m}}`,
			[]string{c + `.requests[example.com/gpu]: Invalid value: "500m": must be an integer`,
				c + ".limits: Required value: Limit must be set for non overcommitable resources"}},
		{"integer check before the limit check", `{limits: {example.com/gpu: 1.5}, requests: {example.com/gpu: 1}}`,
			[]string{c + `.limits[example.com/gpu]: Invalid value: "1500m": must be an integer`,
				c + `.requests: Invalid value: "1": must be equal to example.com/gpu limit of 1500m`}},
		{"negative quantity", `{limits: {example.com/gpu: -1}}`,
			[]string{c + `.limits[example.com/gpu]: Invalid value: "-1": must be greater than or equal to 0`,
				c + `.requests[example.com/gpu]: Invalid value: "-1": must be greater than or equal to 0`}},
		{"overcommitable request above its limit", `{limits: {example.com/gpu: 1, cpu: 1}, requests: {example.com/gpu: 1, cpu: 2}}`,
			[]string{c + `.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`}},
		{"overcommitable request without a limit is valid", `{requests: {cpu: 1, kubernetes.io/foo: 1}}`, nil},
		{"name neither standard nor fully qualified", `{requests: {gpu: 1}}`,
			[]string{c + `.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`,
				c + `.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers`}},
		{"standard name not for containers", `{limits: {pods: 1500m}}`,
			[]string{c + `.limits[pods]: Invalid value: "pods": must be a standard resource for containers`,
				c + `.limits[pods]: Invalid value: "1500m": must be an integer`,
				c + `.requests[pods]: Invalid value: "pods": must be a standard resource for containers`,
				c + `.requests[pods]: Invalid value: "1500m": must be an integer`}},
		{"quota name not for containers", `{requests: {requests.hugepages-2Mi: 2Mi}}`,
			[]string{c + `.requests[requests.hugepages-2Mi]: Invalid value: "requests.hugepages-2Mi": must be a standard resource for containers`}},
		{"quota prefix is no extended resource", `{requests: {requests.example.com/gpu: 1}}`,
			[]string{c + `.requests[requests.example.com/gpu]: Invalid value: "requests.example.com/gpu": doesn't follow extended resource name standard`,
				c + ".limits: Required value: Limit must be set for non overcommitable resources"}},
		{"unqualified name", `{requests: {"foo_": 1}}`,
			[]string{c + `.requests[foo_]: Invalid value: "foo_": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				c + `.requests[foo_]: Invalid value: "foo_": must be a standard resource for containers`}},
		{"empty prefix", `{requests: {"/gpu": 1}}`,
			[]string{c + `.requests[/gpu]: Invalid value: "/gpu": prefix part must be non-empty`,
				c + `.requests[/gpu]: Invalid value: "/gpu": doesn't follow extended resource name standard`,
				c + ".limits: Required value: Limit must be set for non overcommitable resources"}},
		{"extended name too long as a quota name", `{limits: {` + strings.Repeat("a", 245) + `.com/gpu: 1}}`,
			[]string{c + `.limits[` + strings.Repeat("a", 245) + `.com/gpu]: Invalid value: "` + strings.Repeat("a", 245) + `.com/gpu": doesn't follow extended resource name standard`,
				c + `.requests[` + strings.Repeat("a", 245) + `.com/gpu]: Invalid value: "` + strings.Repeat("a", 245) + `.com/gpu": doesn't follow extended resource name standard`}},
		{"hugepages with memory are valid", `{limits: {hugepages-2Mi: 4Mi, memory: 1Gi}}`, nil},
		{"hugepages require cpu or memory", `{limits: {hugepages-2Mi: 2Mi}}`,
			[]string{c + ": Forbidden: HugePages require cpu or memory"}},
		{"hugepages with a cpu request are valid", `{limits: {hugepages-2Mi: 2Mi}, requests: {cpu: 1}}`, nil},
		{"hugepages requested without a limit", `{requests: {hugepages-2Mi: 2Mi, memory: 1Gi}}`,
			[]string{c + ".limits: Required value: Limit must be set for non overcommitable resources"}},
		{"hugepages requested above the limit", `{limits: {hugepages-2Mi: 2Mi, memory: 1Gi}, requests: {hugepages-2Mi: 4Mi}}`,
			[]string{c + `.requests: Invalid value: "4Mi": must be equal to hugepages-2Mi limit of 2Mi`}},
		{"hugepages not whole pages", `{limits: {hugepages-2Mi: 3Mi, memory: 1Gi}}`,
			[]string{c + `.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`,
				c + `.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`}},
		{"hugepages of a size that is no quantity", `{limits: {hugepages-foo: 2Mi, cpu: 1}}`,
			[]string{c + `.limits[hugepages-foo]: Invalid value: "2Mi": 2Mi is not positive integer multiple of hugepages-foo`,
				c + `.requests[hugepages-foo]: Invalid value: "2Mi": 2Mi is not positive integer multiple of hugepages-foo`}},
		{"hugepages of size zero", `{limits: {hugepages-0: 1Gi, cpu: 1}}`,
			[]string{c + `.limits[hugepages-0]: Invalid value: "1Gi": 1Gi is not positive integer multiple of hugepages-0`,
				c + `.requests[hugepages-0]: Invalid value: "1Gi": 1Gi is not positive integer multiple of hugepages-0`}},
		{"hugepages of a fractional size", `{limits: {hugepages-500m: 1, cpu: 1}}`,
			[]string{c + `.limits[hugepages-500m]: Invalid value: "1": 1 is not positive integer multiple of hugepages-500m`,
				c + `.requests[hugepages-500m]: Invalid value: "1": 1 is not positive integer multiple of hugepages-500m`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, podWithResources(t, tc.resources))
		})
	}
}

// TestValidateTemplateContainerResources pins that pod templates' containers and init
// containers are held to ValidateContainerResourceRequirements too (ValidatePodTemplateSpec,
// pkg/apis/core/validation/validation.go), where nothing copies limits to requests.
func TestValidateTemplateContainerResources(t *testing.T) {
	withInit := strings.Replace(validTemplate, "    containers:\n", "    initContainers:\n    - name: i\n      image: busybox\n      resources: {requests: {example.com/gpu: 1, gpu: 1}}\n    containers:\n", 1)
	const i = "spec.template.spec.initContainers[0].resources"
	assert.Equal(t, []string{
		i + ".limits: Required value: Limit must be set for non overcommitable resources",
		i + `.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`,
		i + `.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers`,
	}, messages(decodeValidate(t, dsWith(withInit))))
	deploy := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: default}\nspec:\n" +
		indent(strings.Replace(validTemplate, "image: nginx:1.27", "image: nginx:1.27\n      resources: {limits: {example.com/gpu: 500m}}", 1))
	assert.Equal(t, []string{`spec.template.spec.containers[0].resources.limits[example.com/gpu]: Invalid value: "500m": must be an integer`},
		messages(decodeValidate(t, deploy)))
}

// TestValidatePodResourceNames pins validatePodResourceName (pkg/apis/core/validation/
// validation.go): a name that is no resource name is refused as such, a valid one outside the
// pod-level resources as unsupported, and the container rules apply besides.
func TestValidatePodResourceNames(t *testing.T) {
	pod := func(resources string) []string {
		return messages(decodeValidate(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  resources: "+resources+"\n  containers:\n  - name: c\n    image: nginx\n"))
	}
	const r = "spec.resources"
	cases := []struct {
		name      string
		resources string
		want      []string
	}{
		{"cpu and memory are valid", `{limits: {cpu: 1, memory: 1Gi}}`, nil},
		{"not a standard name", `{limits: {gpu: 1}}`,
			[]string{r + `.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`}},
		{"not a pod-level resource", `{limits: {pods: 1}}`,
			[]string{r + `.limits[pods]: Unsupported value: "pods": supported values: "cpu", "hugepages-", "memory"`}},
		{"extended resource requested without a limit", `{requests: {example.com/gpu: 1}}`,
			[]string{r + `.requests[example.com/gpu]: Unsupported value: "example.com/gpu": supported values: "cpu", "hugepages-", "memory"`,
				r + ".limits: Required value: Limit must be set for non overcommitable resources"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, pod(tc.resources))
		})
	}
}

// TestResourceNameKinds pins pkg/apis/core/helper's IsNativeResource, IsExtendedResourceName
// and IsHugePageResourceName, and pkg/scheduler/util's IsScalarResourceName built on them.
func TestResourceNameKinds(t *testing.T) {
	cases := []struct {
		name                                string
		native, extended, hugePages, scalar bool
	}{
		{"cpu", true, false, false, false},
		{"gpu", true, false, false, false},
		{"hugepages-2Mi", true, false, true, true},
		{"kubernetes.io/foo", true, false, false, true},
		{"foo.kubernetes.io/bar", true, false, false, true},
		{"attachable-volumes-aws-ebs", true, false, false, true},
		{"example.com/gpu", false, true, false, true},
		{"requests.example.com/gpu", false, false, false, false},
		{"Example.com/gpu", false, false, false, false},
		{strings.Repeat("a", 245) + ".com/gpu", false, false, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := ResourceName(tc.name)
			assert.Equal(t, tc.native, IsNativeResource(n), "native")
			assert.Equal(t, tc.extended, IsExtendedResourceName(n), "extended")
			assert.Equal(t, tc.hugePages, IsHugePageResourceName(n), "hugepages")
			assert.Equal(t, tc.scalar, IsScalarResourceName(n), "scalar")
		})
	}
}
