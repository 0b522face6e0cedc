package garbagecollector

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// TestOwnersThatAreGoneAndNodes pins Sync's rule 3 (attemptToDeleteItem: a dependent whose
// owners are all gone is deleted) and the one reference it does not judge, to a Node: a
// kubelet's mirror pods (pkg/kubelet/pod/mirror_client.go CreateMirrorPod) stay while their
// node does, and pod GC removes them with it.
func TestOwnersThatAreGoneAndNodes(t *testing.T) {
	yes := true
	cases := []struct {
		name    string
		owner   string // the kind of the pod's one owner, which does not exist
		deleted bool
	}{
		{name: "a pod whose ReplicaSet is gone is deleted", owner: "ReplicaSet", deleted: true},
		{name: "a pod whose DaemonSet is gone is deleted", owner: "DaemonSet", deleted: true},
		{name: "a mirror pod's Node is left to pod GC", owner: "Node"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster.New(1)
			testNode(t, c, "n1", api.ConditionTrue)
			testPod(t, c, "p", "n1", api.PodRunning, false)
			p := api.DeepCopy(c.Get("Pod", cluster.Key{Namespace: "default", Name: "p"}).(*api.Pod))
			p.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: tc.owner, Name: "x", UID: "0000", Controller: &yes}}
			require.NoError(t, c.Update(p))
			Sync(c)
			stored := c.Get("Pod", cluster.Key{Namespace: "default", Name: "p"})
			deleted := stored == nil || stored.GetObjectMeta().DeletionTimestamp != nil
			assert.Equal(t, tc.deleted, deleted)
		})
	}
}
