package scheduler

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// BenchmarkScheduleReplicaSetPods: one scheduler pass placing a ReplicaSet's 10,000 pods
// (10m cpu, 20Mi each) on 5,000 nodes, as a Deployment's rollout does in core/sim's 5,000-node
// benchmarks: the system default spreading scores every pod. zones is how many zones the nodes
// are spread over (0: no zone label, so only the hostname constraint counts).
func BenchmarkScheduleReplicaSetPods(b *testing.B) {
	for _, zones := range []int{0, 3} {
		c := replicaSetPodsCluster(b, 5000, 10000, zones)
		start := c.Snapshot()
		b.Run(fmt.Sprintf("zones=%d", zones), func(b *testing.B) {
			for b.Loop() {
				c.Restore(start)
				cy := NewCycle(c)
				for _, p := range Pending(c) {
					cy.Apply(cy.Schedule(p))
				}
			}
			require.Empty(b, Pending(c))
		})
	}
}

func replicaSetPodsCluster(b *testing.B, nodes, pods, zones int) *cluster.Cluster {
	c := cluster.New(1)
	mustCreate := func(obj api.Object) {
		_, err := apiserver.Create(c, obj, apiserver.Options{})
		require.NoError(b, err)
	}
	require.NoError(b, apiserver.CreateSystemNamespaces(c))
	require.NoError(b, apiserver.CreateSystemPriorityClasses(c))
	list := api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4"), api.ResourceMemory: api.MustParseQuantity("8Gi"), api.ResourcePods: api.MustParseQuantity("110")}
	for i := range nodes {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%04d", i), Labels: map[string]string{api.LabelHostname: fmt.Sprintf("node-%04d", i)}}}
		if zones > 0 {
			n.Labels[api.LabelTopologyZone] = fmt.Sprintf("zone-%d", i%zones)
		}
		n.Status.Capacity, n.Status.Allocatable = list, list
		mustCreate(n)
	}
	labels := map[string]string{"app": "web"}
	container := api.Container{Name: "c", Image: "nginx", Resources: api.ResourceRequirements{Requests: api.ResourceList{
		api.ResourceCPU: api.MustParseQuantity("10m"), api.ResourceMemory: api.MustParseQuantity("20Mi")}}}
	replicas := int32(pods)
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.ReplicaSetSpec{Replicas: &replicas,
		Selector: &api.LabelSelector{MatchLabels: labels}, Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: api.PodSpec{Containers: []api.Container{container}}}}}
	mustCreate(rs)
	ref := api.NewControllerRef(c.Get("ReplicaSet", cluster.KeyOf(rs)), "apps/v1", "ReplicaSet")
	for i := range pods {
		mustCreate(&api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-%05d", i), Namespace: "default", Labels: labels, OwnerReferences: []api.OwnerReference{ref}},
			Spec: api.PodSpec{Containers: []api.Container{container}}})
	}
	return c
}
