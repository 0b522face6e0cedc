package kubectl

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/sim"
	"daemonlab/lessons"
)

func newSim(t *testing.T) *sim.Sim {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	return s
}

// snapshot renders every object of the cluster, to check that a failed apply changes nothing.
func snapshot(s *sim.Sim) string {
	var b strings.Builder
	for _, n := range s.C.Nodes() {
		b.WriteString(toJSON(n))
	}
	for _, p := range s.C.Pods() {
		b.WriteString(toJSON(p))
	}
	for _, ds := range s.C.DaemonSets() {
		b.WriteString(toJSON(ds))
	}
	return b.String()
}

func toJSON(o any) string {
	b, _ := json.Marshal(o)
	return string(b) + "\n"
}

// TestApplyTheTutorialDaemonSet: the seed tutorial's DaemonSet runs one pod on each of the three
// nodes, the control plane included; applying it again changes nothing.
func TestApplyTheTutorialDaemonSet(t *testing.T) {
	s := newSim(t)
	r := applied(s, []byte(lessons.FluentdDaemonSet), "STDIN", "default")
	require.Empty(t, r.Err)
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch created\n", r.Out)
	s.Advance(10 * time.Second)
	byNode := map[string]string{}
	for _, p := range s.C.Pods() {
		assert.Equal(t, api.PodRunning, p.Status.Phase, p.Name)
		byNode[p.Spec.NodeName] = p.Name
	}
	assert.Len(t, byNode, 3)
	ds := s.C.DaemonSets()[0]
	assert.Equal(t, api.DaemonSetStatus{CurrentNumberScheduled: 3, DesiredNumberScheduled: 3, NumberReady: 3, ObservedGeneration: 1, UpdatedNumberScheduled: 3, NumberAvailable: 3}, ds.Status)
	before := snapshot(s)
	r = applied(s, []byte(lessons.FluentdDaemonSet), "STDIN", "default")
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch unchanged\n", r.Out)
	assert.Equal(t, before, snapshot(s))
}

// TestApplyErrorsAreKubectls pins kubectl's framing of each kind of failure and that ApplyAll
// leaves the cluster byte for byte as it was.
func TestApplyErrorsAreKubectls(t *testing.T) {
	valid := lessons.FluentdDaemonSet
	cases := []struct {
		name, manifest, want string
		line                 int
	}{
		{"selector mismatch", strings.Replace(valid, "name: fluentd-elasticsearch   # must match", "name: fluentd   # must match", 1),
			"The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.template.metadata.labels: Invalid value: {\"name\":\"fluentd\"}: `selector` does not match template `labels`", 16},
		{"two causes", strings.Replace(strings.Replace(valid, "terminationGracePeriodSeconds: 30", "terminationGracePeriodSeconds: 30\n      restartPolicy: Never", 1), "effect: NoSchedule", "effect: NoExec", 1),
			"The DaemonSet \"fluentd-elasticsearch\" is invalid: \n* spec.template.spec.tolerations[0].effect: Unsupported value: \"NoExec\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"\n* spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"", 23},
		{"unknown field", strings.Replace(valid, "  template:", "  templat:", 1),
			"Error from server (BadRequest): error when creating \"STDIN\": DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strict decoding error: unknown field \"spec.templat\"", 14},
		{"unknown kind", strings.Replace(valid, "kind: DaemonSet", "kind: DaemonSett", 1),
			"error: resource mapping not found for name: \"fluentd-elasticsearch\" namespace: \"kube-system\" from \"STDIN\": no matches for kind \"DaemonSett\" in version \"apps/v1\"\nensure CRDs are installed first", 3},
		{"missing namespace", strings.Replace(valid, "namespace: kube-system", "namespace: logging", 1),
			"Error from server (NotFound): error when creating \"STDIN\": namespaces \"logging\" not found", 7},
		{"YAML syntax", valid + "  oops: [\n",
			"error: error parsing STDIN: error converting YAML to JSON: yaml: line 42: sequence end token ']' not found", 42},
		{"nothing", "# just a comment\n", "error: no objects passed to apply", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t)
			before := snapshot(s)
			r := settledAll(s, []byte(tc.manifest), "STDIN", "default")
			assert.Equal(t, tc.want, r.Err)
			assert.Empty(t, r.Out)
			if tc.line > 0 {
				require.NotEmpty(t, r.Problems)
				assert.Equal(t, tc.line, r.Problems[0].Line)
			}
			assert.Equal(t, before, snapshot(s), "a failed apply changes nothing")
		})
	}
}

// TestApplyAllIsAllOrNothing: with one good and one bad document, ApplyAll applies neither while
// Apply (kubectl's behaviour) applies the good one and reports the bad one.
func TestApplyAllIsAllOrNothing(t *testing.T) {
	bad := "---\napiVersion: v1\nkind: Pod\nmetadata: {name: Bad_Name}\nspec:\n  containers: [{name: c, image: nginx}]\n"
	s := newSim(t)
	r := settledAll(s, []byte(lessons.FluentdDaemonSet+bad), "STDIN", "default")
	assert.Contains(t, r.Err, `The Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"`)
	assert.Empty(t, s.C.DaemonSets())
	r = applied(s, []byte(lessons.FluentdDaemonSet+bad), "STDIN", "default")
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch created\n", r.Out)
	assert.Contains(t, r.Err, `The Pod "Bad_Name" is invalid`)
	assert.Len(t, s.C.DaemonSets(), 1)
}

// TestApplyUpdateBumpsGeneration: changing the template is "configured" and a new generation;
// the selector is immutable.
func TestApplyUpdateBumpsGeneration(t *testing.T) {
	s := newSim(t)
	require.Empty(t, applied(s, []byte(lessons.FluentdDaemonSet), "STDIN", "default").Err)
	r := applied(s, []byte(strings.Replace(lessons.FluentdDaemonSet, "fluentd:v2.5.1", "fluentd:v2.5.2", 1)), "STDIN", "default")
	assert.Equal(t, "daemonset.apps/fluentd-elasticsearch configured\n", r.Out)
	assert.Equal(t, int64(2), s.C.DaemonSets()[0].Generation)
	moved := strings.Replace(lessons.FluentdDaemonSet, "      name: fluentd-elasticsearch\n", "      name: fluentd-es\n", 1)
	moved = strings.Replace(moved, "name: fluentd-elasticsearch   # must match", "name: fluentd-es   # must match", 1)
	r = applied(s, []byte(moved), "STDIN", "default")
	assert.Equal(t, `The DaemonSet "fluentd-elasticsearch" is invalid: spec.selector: Invalid value: {"matchLabels":{"name":"fluentd-es"}}: field is immutable`, r.Err)
}

// TestApplyNodeJoinsReady: a Node manifest without a status joins Ready with the kubelet's
// labels, its own pod CIDR and the default capacity, and the DaemonSet follows it there.
func TestApplyNodeJoinsReady(t *testing.T) {
	s := newSim(t)
	require.Empty(t, applied(s, []byte(lessons.FluentdDaemonSet), "STDIN", "default").Err)
	r := applied(s, []byte("apiVersion: v1\nkind: Node\nmetadata:\n  name: hd4\n  labels: {disk: ssd}\n"), "STDIN", "default")
	require.Empty(t, r.Err)
	assert.Equal(t, "node/hd4 created\n", r.Out)
	n := s.C.Node("hd4")
	require.NotNil(t, n)
	assert.Equal(t, "10.244.3.0/24", n.Spec.PodCIDR)
	assert.Equal(t, map[string]string{"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "disk": "ssd", "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": "hd4", "kubernetes.io/os": "linux"}, n.Labels)
	assert.Equal(t, "8Gi", n.Status.Allocatable[api.ResourceMemory].String())
	assert.Equal(t, int32(4), s.C.DaemonSets()[0].Status.DesiredNumberScheduled)
}

// TestOldMasterTolerationSkipsTheControlPlane: the second tutorial's toleration key
// node-role.kubernetes.io/k8s-master matches no taint on a v1.25+ cluster, so its DaemonSet
// runs on hd2 and hd3 only, and hd1 is not even desired (an untolerated NoSchedule taint gives
// shouldRun false: pkg/controller/daemon/daemon_controller.go NodeShouldRunDaemonPod).
func TestOldMasterTolerationSkipsTheControlPlane(t *testing.T) {
	data, err := os.ReadFile("../api/testdata/seed-fluentd-k8s-master.yaml")
	require.NoError(t, err)
	s := newSim(t)
	r := applied(s, data, "fluentd-elasticsearch.yaml", "default")
	require.Empty(t, r.Err)
	var nodes []string
	for _, p := range s.C.Pods() {
		nodes = append(nodes, p.Spec.NodeName)
	}
	assert.ElementsMatch(t, []string{"hd2", "hd3"}, nodes)
	assert.Equal(t, int32(2), s.C.DaemonSets()[0].Status.DesiredNumberScheduled)
}

// TestApplyRecordsLastAppliedConfiguration pins kubectl's annotation: the manifest as applied,
// namespace filled in, empty annotations present, sorted keys, final newline.
func TestApplyRecordsLastAppliedConfiguration(t *testing.T) {
	s := newSim(t)
	r := applied(s, []byte("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - {name: c, image: nginx, resources: {limits: {memory: 1.0}}}\n"), "STDIN", "default")
	require.Empty(t, r.Err)
	pod := s.C.Pods()[0]
	assert.Equal(t, `{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"name":"web","namespace":"default"},"spec":{"containers":[{"image":"nginx","name":"c","resources":{"limits":{"memory":1}}}]}}`+"\n",
		pod.Annotations[api.LastAppliedAnnotation])
}

// TestJoiningNodeTakesAFreeCIDR: a node joining after another left reuses the free CIDR, never
// one in use.
func TestJoiningNodeTakesAFreeCIDR(t *testing.T) {
	s := newSim(t)
	s.C.Delete(s.C.Node("hd2"))
	require.Empty(t, applied(s, []byte("apiVersion: v1\nkind: Node\nmetadata: {name: hd4}\n"), "STDIN", "default").Err)
	assert.Equal(t, "10.244.1.0/24", s.C.Node("hd4").Spec.PodCIDR)
	require.Empty(t, applied(s, []byte("apiVersion: v1\nkind: Node\nmetadata: {name: hd5}\n"), "STDIN", "default").Err)
	assert.Equal(t, "10.244.3.0/24", s.C.Node("hd5").Spec.PodCIDR)
}

// TestCreateRefusesWhatExists: kubectl create stores a new object without the last-applied
// annotation and fails with AlreadyExists for one that exists, changing nothing.
func TestCreateRefusesWhatExists(t *testing.T) {
	s := newSim(t)
	pod := []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: nginx:1.27}]\n")
	r := Create(s, pod, "STDIN", "default")
	require.Empty(t, r.Err)
	assert.Equal(t, "pod/web created\n", r.Out)
	assert.Empty(t, s.C.Pods()[0].Annotations, "create keeps no last-applied configuration")
	before := snapshot(s)
	r = Create(s, pod, "STDIN", "default")
	assert.Equal(t, `Error from server (AlreadyExists): error when creating "STDIN": pods "web" already exists`, r.Err)
	assert.Equal(t, 1, r.Code)
	assert.Equal(t, before, snapshot(s))
}

// run, applied and settledAll are Run, Apply and ApplyAll as the shell runs them: the
// controllers settle after a command that changed the cluster.
func run(s *sim.Sim, args []string, stdin string) Result {
	return settling(s, func() Result { return Run(s, args, stdin) })
}

func applied(s *sim.Sim, data []byte, source, namespace string) Result {
	return settling(s, func() Result { return Apply(s, data, source, namespace) })
}

func settledAll(s *sim.Sim, data []byte, source, namespace string) Result {
	return settling(s, func() Result { return ApplyAll(s, data, source, namespace) })
}

func settling(s *sim.Sim, command func() Result) Result {
	before := s.C.Writes()
	r := command()
	if s.C.Writes() != before {
		s.Settle()
	}
	return r
}
