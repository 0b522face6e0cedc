package kubectl

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

// TestDrainWritesItsTriesAndRetriesInTheirOrder: kubectl drain writes "evicting pod" to standard
// output and each refusal to standard error as it goes (k8s.io/kubectl/pkg/drain/drain.go
// evictPods), so a terminal shows every try followed by its 429; Out and Err still hold each
// stream whole, for a pipe.
func TestDrainWritesItsTriesAndRetriesInTheirOrder(t *testing.T) {
	s := newSim(t)
	require.Empty(t, settledAll(s, []byte(`apiVersion: v1
kind: Pod
metadata: {name: db, labels: {app: db}}
spec:
  nodeSelector: {kubernetes.io/hostname: hd2}
  containers: [{name: postgres, image: postgres:17}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: db}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: db}}
`), "-", "default").Err)
	s.Advance(5 * time.Second) // running and Ready: the budget counts it
	r := run(s, []string{"drain", "hd2", "--force", "--ignore-daemonsets", "--timeout=6s"}, "")
	require.Equal(t, 1, r.Code)
	tryOut := Piece{Text: "evicting pod default/db\n"}
	refused := Piece{Text: `error when evicting pods/"db" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.` + "\n", Err: true}
	ps := r.Pieces()
	require.Len(t, ps, 8)
	assert.Equal(t, Piece{Text: "node/hd2 cordoned\n"}, ps[0])
	assert.True(t, ps[1].Err, "the warning about the pod no controller owns")
	assert.Equal(t, []Piece{tryOut, refused, tryOut, refused, tryOut}, ps[2:7])
	assert.Contains(t, ps[7].Text, "global timeout reached: 6s")
	var out, errOut string
	for _, p := range ps {
		if p.Err {
			errOut += p.Text
		} else {
			out += p.Text
		}
	}
	assert.Equal(t, r.Out, out)
	assert.Equal(t, r.Err, strings.TrimSuffix(errOut, "\n"))
}

// TestDrainFiltersGiveTheLastFiltersVerdict pins drain's filters as filterPods runs them
// (k8s.io/kubectl/pkg/drain/filters.go, drain.go filterPods): daemonSet, mirrorPod,
// localStorage, then unreplicated, stopping at the first that keeps a pod, the verdict being the
// last one run — so localStorageFilter's warning never survives, a pod whose DaemonSet is gone
// goes with --force, unwarned, and a mirror pod (here: the pods a Node owns, as a kubelet's
// mirror pods are) is skipped without a word, finished or not.
func TestDrainFiltersGiveTheLastFiltersVerdict(t *testing.T) {
	s := newSim(t)
	require.Empty(t, settledAll(s, []byte(`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: busybox:1.36}]}
`), "-", "default").Err)
	yes := true
	ownedBy := func(kind, name string) []api.OwnerReference {
		return []api.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: name, Controller: &yes}}
	}
	emptyDir := []api.Volume{{Name: "scratch", EmptyDir: &api.EmptyDirVolumeSource{}}}
	for _, tc := range []struct {
		name   string
		owners []api.OwnerReference
		vols   []api.Volume
		phase  api.PodPhase
		flags  []string
		want   verdict
	}{
		{"a ReplicaSet's pod goes", ownedBy("ReplicaSet", "web-1"), nil, api.PodRunning, nil, verdict{evict: true}},
		{"local storage blocks", ownedBy("ReplicaSet", "web-1"), emptyDir, api.PodRunning, nil, verdict{fatal: localStorageFatal}},
		{"local storage's warning is lost to unreplicated's verdict", ownedBy("ReplicaSet", "web-1"), emptyDir, api.PodRunning, []string{"--delete-emptydir-data"}, verdict{evict: true}},
		{"a pod no controller owns blocks", nil, nil, api.PodRunning, nil, verdict{fatal: unmanagedFatal}},
		{"a pod no controller owns goes with --force, warned", nil, emptyDir, api.PodRunning, []string{"--force", "--delete-emptydir-data"}, verdict{evict: true, notice: unmanagedWarning}},
		{"a finished pod goes", nil, emptyDir, api.PodSucceeded, nil, verdict{evict: true}},
		{"a DaemonSet's pod blocks", ownedBy("DaemonSet", "agent"), nil, api.PodRunning, nil, verdict{fatal: daemonSetFatal}},
		{"a DaemonSet's pod is ignored", ownedBy("DaemonSet", "agent"), nil, api.PodRunning, []string{"--ignore-daemonsets"}, verdict{notice: daemonSetWarning}},
		{"a pod whose DaemonSet is gone blocks", ownedBy("DaemonSet", "gone"), nil, api.PodRunning, []string{"--ignore-daemonsets"}, verdict{fatal: `daemonsets.apps "gone" not found`}},
		{"a pod whose DaemonSet is gone goes with --force, unwarned", ownedBy("DaemonSet", "gone"), nil, api.PodRunning, []string{"--force"}, verdict{evict: true}},
		{"a mirror pod is skipped without a word", ownedBy("Node", "hd2"), emptyDir, api.PodRunning, nil, verdict{}},
		{"a mirror pod is skipped with every flag", ownedBy("Node", "hd2"), nil, api.PodRunning, []string{"--force", "--ignore-daemonsets", "--delete-emptydir-data"}, verdict{}},
		{"a finished mirror pod is skipped too", ownedBy("Node", "hd2"), nil, api.PodFailed, nil, verdict{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseFlags("drain", append([]string{"hd2"}, tc.flags...), drainFlags)
			require.NoError(t, err)
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", OwnerReferences: tc.owners},
				Spec: api.PodSpec{Volumes: tc.vols}, Status: api.PodStatus{Phase: tc.phase}}
			if len(tc.owners) > 0 && tc.owners[0].Kind == "Node" {
				p.Annotations = map[string]string{api.AnnotationConfigMirror: "0123456789abcdef0123456789abcdef"}
			}
			assert.Equal(t, tc.want, drainVerdict(s.C, p, f))
		})
	}
}
