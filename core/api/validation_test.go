package api

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const dsHead = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: x
  namespace: default
spec:
`

// dsWith builds a DaemonSet manifest whose spec is the given YAML (indented by two).
func dsWith(spec string) string {
	return dsHead + indent(spec)
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = "  " + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

const validTemplate = `selector:
  matchLabels: {app: x}
template:
  metadata:
    labels: {app: x}
  spec:
    containers:
    - name: c
      image: nginx:1.27
`

func decodeValidate(t *testing.T, manifest string) ErrorList {
	ms, err := Decode([]byte(manifest))
	require.NoError(t, err)
	require.Len(t, ms, 1)
	Default(ms[0].Object)
	return Validate(ms[0].Object)
}

// TestValidateDaemonSetMessages pins the messages of ValidateDaemonSetSpec and
// ValidateRollingUpdateDaemonSet (pkg/apis/apps/validation/validation.go) and of
// ValidateTolerations (pkg/apis/core/validation/validation.go) as the API server renders them
// (JSON values, v1.34+).
func TestValidateDaemonSetMessages(t *testing.T) {
	cases := []struct {
		name string
		spec string
		want []string
	}{
		{"valid", validTemplate, nil},
		{"selector does not match template labels", strings.Replace(validTemplate, "labels: {app: x}", "labels: {app: web}", 1),
			[]string{"spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"}},
		{"missing selector matches nothing", strings.Replace(validTemplate, "selector:\n  matchLabels: {app: x}\n", "", 1),
			[]string{"spec.template.metadata.labels: Invalid value: {\"app\":\"x\"}: `selector` does not match template `labels`"}},
		{"empty selector", strings.Replace(validTemplate, "  matchLabels: {app: x}\n", "  {}\n", 1),
			[]string{"spec.selector: Invalid value: {}: empty selector is invalid for daemonset"}},
		{"restartPolicy must be Always", validTemplate + "    restartPolicy: OnFailure\n",
			[]string{`spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`}},
		{"unknown restartPolicy fails twice", validTemplate + "    restartPolicy: Sometimes\n",
			[]string{`spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
				`spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always"`}},
		{"activeDeadlineSeconds forbidden", validTemplate + "    activeDeadlineSeconds: 10\n",
			[]string{"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"}},
		{"negative minReadySeconds", validTemplate + "minReadySeconds: -1\n",
			[]string{"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"}},
		{"negative revisionHistoryLimit", validTemplate + "revisionHistoryLimit: -1\n",
			[]string{"spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0"}},
		{"maxSurge with default maxUnavailable", validTemplate + "updateStrategy:\n  rollingUpdate: {maxSurge: 1}\n",
			[]string{"spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"}},
		{"both zero", validTemplate + "updateStrategy:\n  rollingUpdate: {maxUnavailable: 0}\n",
			[]string{"spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"}},
		{"surge with maxUnavailable 0 is valid", validTemplate + "updateStrategy:\n  rollingUpdate: {maxUnavailable: 0, maxSurge: 1}\n", nil},
		{"negative maxUnavailable", validTemplate + "updateStrategy:\n  rollingUpdate: {maxUnavailable: -1}\n",
			[]string{"spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"}},
		{"bad percent (and so zero)", validTemplate + "updateStrategy:\n  rollingUpdate: {maxUnavailable: abc}\n",
			[]string{`spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "abc": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"}},
		{"over 100 percent", validTemplate + "updateStrategy:\n  rollingUpdate: {maxUnavailable: 110%}\n",
			[]string{`spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%`}},
		{"unknown strategy", validTemplate + "updateStrategy: {type: Recreate}\n",
			[]string{`spec.updateStrategy: Unsupported value: {"type":"Recreate"}: supported values: "RollingUpdate", "OnDelete"`}},
		{"toleration with empty key needs Exists", validTemplate + "    tolerations: [{operator: Equal, effect: NoSchedule}]\n",
			[]string{"spec.template.spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""}},
		{"tolerationSeconds needs NoExecute", validTemplate + "    tolerations: [{key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 30}]\n",
			[]string{"spec.template.spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"}},
		{"Exists takes no value", validTemplate + "    tolerations: [{key: k, operator: Exists, value: bar}]\n",
			[]string{"spec.template.spec.tolerations[0].operator: Invalid value: \"bar\": value must be empty when `operator` is 'Exists'"}},
		{"unknown toleration operator", validTemplate + "    tolerations: [{key: k, operator: In}]\n",
			[]string{`spec.template.spec.tolerations[0].operator: Unsupported value: "In": supported values: "Equal", "Exists"`}},
		{"unknown toleration effect", validTemplate + "    tolerations: [{key: k, operator: Exists, effect: NoExec}]\n",
			[]string{`spec.template.spec.tolerations[0].effect: Unsupported value: "NoExec": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`}},
		{"bad toleration key", validTemplate + "    tolerations: [{key: \"nospecialchars^=@\", operator: Exists}]\n",
			[]string{`spec.template.spec.tolerations[0].key: Invalid value: "nospecialchars^=@": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`}},
		{"request above limit", strings.Replace(validTemplate, "image: nginx:1.27", "image: nginx:1.27\n      resources: {limits: {cpu: 1}, requests: {cpu: 2}}", 1),
			[]string{`spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`}},
		{"no containers", strings.Replace(validTemplate, "    containers:\n    - name: c\n      image: nginx:1.27\n", "    containers: []\n", 1),
			[]string{"spec.template.spec.containers: Required value"}},
		{"container without image", strings.Replace(validTemplate, "      image: nginx:1.27\n", "", 1),
			[]string{"spec.template.spec.containers[0].image: Required value"}},
		{"mount of a missing volume", strings.Replace(validTemplate, "image: nginx:1.27", "image: nginx:1.27\n      volumeMounts: [{name: varlog, mountPath: /var/log}]", 1),
			[]string{`spec.template.spec.containers[0].volumeMounts[0].name: Not found: "varlog"`}},
		{"required node affinity without terms", validTemplate + "    affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}\n",
			[]string{"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			errs := decodeValidate(t, dsWith(tc.spec))
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestValidateMetadataMessages pins ValidateObjectMeta: names, namespaces and labels.
func TestValidateMetadataMessages(t *testing.T) {
	errs := decodeValidate(t, strings.Replace(dsWith(validTemplate), "name: x", "name: Fluentd_ES\n  labels: {\"a b\": c}", 1))
	require.Len(t, errs, 2)
	assert.Equal(t, `metadata.name: Invalid value: "Fluentd_ES": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`, errs[0].Error())
	assert.Equal(t, `metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`, errs[1].Error())
}

// TestValidateNodeTaints pins validateNodeTaints: the effect is required and (key, effect) pairs
// are unique, the duplicate printed as JSON.
func TestValidateNodeTaints(t *testing.T) {
	errs := decodeValidate(t, "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints:\n  - {key: dedicated, value: gpu, effect: NoSchedule}\n  - {key: dedicated, value: gpu, effect: NoSchedule}\n  - {key: k}\n")
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`spec.taints[1]: Duplicate value: {"key":"dedicated","value":"gpu","effect":"NoSchedule"}: taints must be unique by key and effect pair`,
		"spec.taints[2].effect: Required value",
	}, got)
}

// TestDefaultDaemonSet pins SetDefaults_DaemonSet (pkg/apis/apps/v1/defaults.go) and the pod-spec
// defaults (pkg/apis/core/v1/defaults.go).
func TestDefaultDaemonSet(t *testing.T) {
	ms, err := Decode([]byte(dsWith(validTemplate)))
	require.NoError(t, err)
	ds := ms[0].Object.(*DaemonSet)
	Default(ds)
	assert.Equal(t, RollingUpdateDaemonSetStrategyType, ds.Spec.UpdateStrategy.Type)
	assert.Equal(t, FromInt(1), *ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable)
	assert.Equal(t, FromInt(0), *ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge)
	assert.Equal(t, int32(10), *ds.Spec.RevisionHistoryLimit)
	spec := ds.Spec.Template.Spec
	assert.Equal(t, RestartPolicyAlways, spec.RestartPolicy)
	assert.Equal(t, int64(30), *spec.TerminationGracePeriodSeconds)
	assert.Equal(t, "ClusterFirst", spec.DNSPolicy)
	assert.Equal(t, "default-scheduler", spec.SchedulerName)
	assert.Equal(t, "IfNotPresent", spec.Containers[0].ImagePullPolicy)
	assert.Equal(t, "File", spec.Containers[0].TerminationMessagePolicy)
}

// TestDefaultPodCopiesLimitsToRequests pins SetDefaults_Pod: requests take the limits they lack,
// and an image without a tag is pulled Always.
func TestDefaultPodCopiesLimitsToRequests(t *testing.T) {
	ms, err := Decode([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources: {limits: {memory: 200Mi, cpu: 500m}, requests: {cpu: 100m}}\n"))
	require.NoError(t, err)
	pod := ms[0].Object.(*Pod)
	Default(pod)
	req := pod.Spec.Containers[0].Resources.Requests
	assert.Equal(t, "200Mi", req[ResourceMemory].String())
	assert.Equal(t, "100m", req[ResourceCPU].String())
	assert.Equal(t, "Always", pod.Spec.Containers[0].ImagePullPolicy)
}

// TestYAML11BooleansAreNotStrings pins kubectl's YAML 1.1 reading (k8s.io/apimachinery's
// pkg/util/yaml converts through sigs.k8s.io/yaml, whose yaml.v2 parser follows YAML 1.1): an
// unquoted y, yes or on is a boolean, so it cannot be a label value.
func TestYAML11BooleansAreNotStrings(t *testing.T) {
	_, err := Decode([]byte(strings.Replace(dsWith(validTemplate), "labels: {app: x}", "labels: {app: y}", 1)))
	assert.EqualError(t, err, `DaemonSet in version "v1" cannot be handled as a DaemonSet: json: cannot unmarshal bool into Go struct field ObjectMeta.spec.template.metadata.labels of type string`)
}

// validationCase is a manifest and the messages its validation gives, in order.
type validationCase struct {
	name, manifest string
	want           []string
}

// assertValidation decodes, defaults and validates each case's manifest, as the API server does.
func assertValidation(t *testing.T, cases []validationCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range decodeValidate(t, tc.manifest) {
				got = append(got, e.Error())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestValidateHostPorts pins the pod validation of host ports (pkg/apis/core/validation:
// checkHostPortConflicts, validateInitContainers, validatePodHostNetworkDeps): no two ports of
// the containers take the same protocol, hostIP and hostPort; each init container is checked
// alone, as the first of a list of one; with hostNetwork a Pod's hostPort (defaulted to its
// containerPort) must equal it, and a template's must when it is set.
func TestValidateHostPorts(t *testing.T) {
	pod := func(spec string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n" + indent(spec)
	}
	container := func(name, ports string) string {
		return "- {name: " + name + ", image: nginx, ports: [" + ports + "]}\n"
	}
	sidecar := func(name, ports string) string {
		return "- {name: " + name + ", image: nginx, restartPolicy: Always, ports: [" + ports + "]}\n"
	}
	cases := []validationCase{
		{"two containers on one host port", pod("containers:\n" + container("a", "{containerPort: 80, hostPort: 8080}") + container("b", "{containerPort: 81, hostPort: 8080}")),
			[]string{`spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"`}},
		{"one container twice", pod("containers:\n" + container("a", "{containerPort: 80, hostPort: 8080}, {containerPort: 81, hostPort: 8080}")),
			[]string{`spec.containers[0].ports[1].hostPort: Duplicate value: "TCP//8080"`}},
		{"another protocol or hostIP is another port", pod("containers:\n" + container("a", "{containerPort: 80, hostPort: 8080}") +
			container("b", "{containerPort: 81, hostPort: 8080, protocol: UDP}, {containerPort: 82, hostPort: 8080, hostIP: 127.0.0.1}")), nil},
		{"init containers are checked one by one", pod("initContainers:\n" + sidecar("i", "{containerPort: 80, hostPort: 8080}") + sidecar("j", "{containerPort: 80, hostPort: 8080}") +
			"containers:\n" + container("a", "{containerPort: 80, hostPort: 8080}")), nil},
		{"an init container twice, indexed as the first", pod("initContainers:\n" + sidecar("i", "{containerPort: 80}") + sidecar("j", "{containerPort: 80, hostPort: 8080}, {containerPort: 81, hostPort: 8080}") +
			"containers:\n" + container("a", "{containerPort: 80}")),
			[]string{`spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//8080"`}},
		{"hostNetwork defaults a pod's hostPort", pod("hostNetwork: true\ncontainers:\n" + container("a", "{containerPort: 80}")), nil},
		{"hostNetwork with another hostPort", pod("hostNetwork: true\ncontainers:\n" + container("a", "{containerPort: 80, hostPort: 8080}")),
			[]string{"spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true"}},
		{"a template with hostNetwork may leave hostPort out", dsWith(strings.Replace(validTemplate, "image: nginx:1.27", "image: nginx:1.27\n      ports: [{containerPort: 80}]\n    hostNetwork: true", 1)), nil},
		{"a template with hostNetwork and another hostPort", dsWith(strings.Replace(validTemplate, "image: nginx:1.27", "image: nginx:1.27\n      ports: [{containerPort: 80, hostPort: 8080}]\n    hostNetwork: true", 1)),
			[]string{"spec.template.spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true"}},
	}
	assertValidation(t, cases)
}

// TestValidateDeploymentAndReplicaSet pins ValidateDeploymentSpec and ValidateReplicaSetSpec: a
// selector is required (unlike a DaemonSet's), empty ones are "invalid for deployment", the
// template must match it, and progressDeadlineSeconds must exceed minReadySeconds.
func TestValidateDeploymentAndReplicaSet(t *testing.T) {
	head := func(kind string) string {
		return "apiVersion: apps/v1\nkind: " + kind + "\nmetadata: {name: web, namespace: default}\nspec:\n"
	}
	template := "  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: nginx}]\n"
	cases := []validationCase{
		{"valid deployment", head("Deployment") + "  selector: {matchLabels: {app: web}}\n" + template, nil},
		{"deployment without selector", head("Deployment") + template,
			[]string{"spec.selector: Required value", "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"}},
		{"empty selector", head("ReplicaSet") + "  selector: {}\n" + template,
			[]string{"spec.selector: Invalid value: {}: empty selector is invalid for deployment"}},
		{"replica set selector mismatch", head("ReplicaSet") + "  selector: {matchLabels: {app: api}}\n" + template,
			[]string{"spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"}},
		{"deadline within minReadySeconds", head("Deployment") + "  selector: {matchLabels: {app: web}}\n  minReadySeconds: 700\n" + template,
			[]string{"spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"}},
		{"negative replicas", head("Deployment") + "  replicas: -1\n  selector: {matchLabels: {app: web}}\n" + template,
			[]string{"spec.replicas: Invalid value: -1: must be greater than or equal to 0"}},
	}
	assertValidation(t, cases)
}
