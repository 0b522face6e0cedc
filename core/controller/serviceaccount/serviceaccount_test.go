package serviceaccount

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// TestEveryActiveNamespaceHasTheDefaultServiceAccount pins syncNamespace
// (pkg/controller/serviceaccount/serviceaccounts_controller.go): created when a namespace
// appears, recreated when deleted, never in a namespace that is not Active.
func TestEveryActiveNamespaceHasTheDefaultServiceAccount(t *testing.T) {
	c := cluster.New(1)
	require.NoError(t, apiserver.CreateSystemNamespaces(c))
	terminating := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
	terminating.Name = "going"
	terminating.Status.Phase = "Terminating"
	_, err := apiserver.Create(c, terminating, apiserver.Options{})
	require.NoError(t, err)

	assert.True(t, Sync(c), "the first pass creates")
	assert.False(t, Sync(c), "a second pass has nothing to do")
	for _, ns := range apiserver.SystemNamespaces {
		assert.NotNil(t, c.Get("ServiceAccount", cluster.Key{Namespace: ns, Name: "default"}), ns)
	}
	assert.Nil(t, c.Get("ServiceAccount", cluster.Key{Namespace: "going", Name: "default"}))

	sa := c.Get("ServiceAccount", cluster.Key{Namespace: "default", Name: "default"})
	c.Delete(sa)
	c.SetNow(c.Now().Add(time.Second))
	assert.True(t, Sync(c), "a deleted one is recreated")
	again := c.Get("ServiceAccount", cluster.Key{Namespace: "default", Name: "default"})
	require.NotNil(t, again)
	assert.NotEqual(t, sa.GetObjectMeta().UID, again.GetObjectMeta().UID)
}
