package kubelet

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// TestFreeAddressIsTheSmallestUnused: a joining machine takes the smallest address index whose
// InternalIP (192.168.10.11 counted on) no node holds, so a node never shares an address with
// one that stayed after others left; an address it did not hand out takes none.
func TestFreeAddressIsTheSmallestUnused(t *testing.T) {
	c := cluster.New(1)
	for _, i := range []int{0, 1, 3} {
		_, err := apiserver.Create(c, NewNode(fmt.Sprintf("n%d", i), i, NodeOptions{}, c.Now()), apiserver.Options{})
		require.NoError(t, err)
	}
	assert.Equal(t, 2, FreeAddress(c))
	for name, ip := range map[string]string{"elsewhere": "10.0.0.2", "n2": internalIP(2)} {
		n := NewNode(name, 0, NodeOptions{}, c.Now())
		n.Status.Addresses[0].Address = ip
		require.NoError(t, c.Create(n))
	}
	assert.Equal(t, 4, FreeAddress(c), "10.0.0.2 takes no index")
	c.Delete(c.Node("n1"))
	assert.Equal(t, 1, FreeAddress(c), "a node gone leaves its address free")
}

// TestNodeAddressesStayValidInLargeClusters: nodes past the 245th still get real addresses
// (InternalIPs in 192.168.0.0/16), each its own, and the index of each reads back.
func TestNodeAddressesStayValidInLargeClusters(t *testing.T) {
	_, hosts, _ := net.ParseCIDR("192.168.0.0/16")
	seen := map[string]bool{}
	for _, i := range []int{0, 1, 255, 256, 257, 3071, 3072, 4999, 62964} {
		ip := internalIP(i)
		assert.True(t, hosts.Contains(net.ParseIP(ip)), "node %d: %s", i, ip)
		assert.False(t, seen[ip], "node %d repeats %s", i, ip)
		seen[ip] = true
		read, ok := addressIndex(ip)
		assert.True(t, ok && read == i, "%s reads back as node %d", ip, i)
	}
	assert.Equal(t, "192.168.10.11", internalIP(0))
	assert.Equal(t, "192.168.11.0", internalIP(245))
}

// TestNodesRegisterInTheOrderTheyWereCreated: Nodes applied in one manifest join in the
// manifest's order (creation order, not name order), as the node IPAM controller gives them
// their ranges, so a node's address and pod CIDR have the same index; a machine whose Node is
// deleted leaves.
func TestNodesRegisterInTheOrderTheyWereCreated(t *testing.T) {
	c := cluster.New(1)
	for _, name := range []string{"zz", "aa"} {
		n := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}}
		n.Name = name
		_, err := apiserver.Create(c, n, apiserver.Options{})
		require.NoError(t, err)
	}
	require.True(t, Register(c, cluster.Since{}))
	assert.Equal(t, internalIP(0), c.Node("zz").Status.Addresses[0].Address)
	assert.Equal(t, internalIP(1), c.Node("aa").Status.Addresses[0].Address)
	assert.True(t, c.HasMachine("aa"))
	assert.False(t, Register(c, cluster.Since{}), "every node has its machine")
	c.Delete(c.Node("aa"))
	assert.True(t, Register(c, cluster.Since{}))
	assert.False(t, c.HasMachine("aa"), "the machine left with its node")
}

// TestReadyIsPostedAtTheKubeletsNextStatusUpdate: the kubelet reads its runtime's state when it
// syncs its node's status, every 10s from its start (nodeStatusUpdateFrequency;
// kubelet_node_status.go syncNodeStatus, nodestatus/setters.go ReadyCondition), so a not-ready
// runtime at 4s, and its recovery at 13s, show at 10s and at 20s; a kubelet that starts posts at
// once.
func TestReadyIsPostedAtTheKubeletsNextStatusUpdate(t *testing.T) {
	c := cluster.New(1)
	require.NoError(t, Join(c, NewNode("n1", 0, NodeOptions{}, c.Now()), nil))
	ready := func() api.ConditionStatus {
		for _, cond := range c.Node("n1").Status.Conditions {
			if cond.Type == api.NodeReady {
				return cond.Status
			}
		}
		return ""
	}
	at := func(d time.Duration) time.Time { return cluster.Epoch.Add(d) }
	fault := func(faults ...string) {
		m, _ := c.Machine("n1")
		m.Faults = faults
		c.SetMachine("n1", m)
		for Sync(c, cluster.Since{}) {
		}
	}
	c.SetNow(at(4 * time.Second))
	fault(FaultNotReady)
	assert.Equal(t, api.ConditionTrue, ready(), "between two status updates")
	next, ok := NextTimer(c)
	require.True(t, ok)
	assert.Equal(t, at(10*time.Second), next)
	c.SetNow(next)
	for Sync(c, cluster.Since{}) {
	}
	assert.Equal(t, api.ConditionFalse, ready())
	c.SetNow(at(13 * time.Second))
	fault()
	assert.Equal(t, api.ConditionFalse, ready())
	next, _ = NextTimer(c)
	assert.Equal(t, at(20*time.Second), next)

	m, _ := c.Machine("n1")
	m.RenewFrom = c.Now() // a kubelet that restarts syncs its node's status as it starts
	c.SetMachine("n1", m)
	for Sync(c, cluster.Since{}) {
	}
	assert.Equal(t, api.ConditionTrue, ready())
}
