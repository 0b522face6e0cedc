package kubectl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/sim"
	"daemonlab/lessons"
)

// TestExportGivesManifestsThatRecreateTheWorkloads: what Export writes is the learner's objects
// without the server's fields, and applying it to a fresh cluster recreates the same workloads
// (the same templates, replicas and strategy).
func TestExportGivesManifestsThatRecreateTheWorkloads(t *testing.T) {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	for _, line := range [][]string{
		{"create", "namespace", "team"},
		{"create", "deployment", "web", "--image=nginx:1.27", "--replicas=3", "-n", "team"},
		{"run", "debug", "--image=busybox:1.36", "--", "sleep", "3600"},
		{"scale", "deployment", "web", "-n", "team", "--replicas=2"},
	} {
		require.Empty(t, run(s, line, "").Err, "%v", line)
	}
	require.Empty(t, applied(s, []byte(lessons.FluentdDaemonSet), "STDIN", "default").Err)
	s.Advance(30 * time.Second)
	out := Export(s.C)
	assert.Contains(t, out, "apiVersion: v1\nkind: Namespace\nmetadata:\n  labels:\n    kubernetes.io/metadata.name: team\n  name: team\n")
	for _, gone := range []string{"status:", "uid:", "resourceVersion:", "creationTimestamp:", "last-applied-configuration", "deprecated.daemonset.template.generation", "deployment.kubernetes.io/revision", "nodeName:", "kind: ReplicaSet", "kind: Node", "kube-system\n  name: kube-system"} {
		assert.NotContains(t, out, gone)
	}
	docs, err := api.Decode([]byte(out))
	require.NoError(t, err)
	var kinds []string
	for _, d := range docs {
		kinds = append(kinds, d.Object.GetTypeMeta().Kind+"/"+d.Object.GetObjectMeta().Name)
	}
	assert.Equal(t, []string{"Namespace/team", "DaemonSet/fluentd-elasticsearch", "Deployment/web", "Pod/debug"}, kinds)

	fresh, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	r := applied(fresh, []byte(out), "daemonlab.yaml", "default")
	require.Empty(t, r.Err)
	fresh.Advance(30 * time.Second)
	for _, args := range [][]string{
		{"get", "ds,deploy", "-A", "-o", "jsonpath={range .items[*]}{.metadata.name} {.spec.template.spec.containers[0].image} {.spec.replicas} {.status.numberReady}{.status.readyReplicas}{\"\\n\"}{end}"},
		{"get", "pod", "debug", "-o", "jsonpath={.spec.containers[0].args}"},
	} {
		assert.Equal(t, run(s, args, "").Out, Run(fresh, args, "").Out, "%v", args)
	}
}
