package kubelet

import (
	"fmt"
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/cluster"
)

// TestFreeIndexIsTheSmallestUnusedPodCIDR: a joining node takes the smallest index whose pod
// CIDR (10.244.<index>.0/24 for the first 256) no node holds, so a node never shares a CIDR with one that stayed
// after others left (the node IPAM's range allocator hands out the first free range).
func TestFreeIndexIsTheSmallestUnusedPodCIDR(t *testing.T) {
	for _, tc := range []struct {
		name    string
		indices []int
		want    int
	}{
		{"empty cluster", nil, 0},
		{"dense", []int{0, 1, 2}, 3},
		{"a gap", []int{0, 1, 3}, 2},
		{"the first left", []int{1, 2}, 0},
		{"far apart", []int{0, 700}, 1},
		{"past the 256th", []int{0, 1, 2, 256, 3}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster.New(1)
			for _, i := range tc.indices {
				require.NoError(t, c.Create(NewNode(fmt.Sprintf("n%d", i), i, NodeOptions{}, c.Now())))
			}
			assert.Equal(t, tc.want, FreeIndex(c))
		})
	}
}

// TestNodeAddressesStayValidInLargeClusters: nodes past the 256th still get real addresses (a
// 10.0.0.0/8 pod CIDR counted on from 10.244.0.0/24, InternalIPs in 192.168.0.0/16), each its
// own, and the index of each pod CIDR reads back.
func TestNodeAddressesStayValidInLargeClusters(t *testing.T) {
	_, pods, _ := net.ParseCIDR("10.0.0.0/8")
	_, hosts, _ := net.ParseCIDR("192.168.0.0/16")
	seen := map[string]bool{}
	for _, i := range []int{0, 1, 255, 256, 257, 3071, 3072, 4999, 62964} {
		cidr, ip := podCIDR(i), internalIP(i)
		addr, subnet, err := net.ParseCIDR(cidr)
		require.NoError(t, err, "node %d: %s", i, cidr)
		assert.True(t, pods.Contains(addr) && addr.Equal(subnet.IP), "node %d: %s", i, cidr)
		assert.True(t, hosts.Contains(net.ParseIP(ip)), "node %d: %s", i, ip)
		assert.False(t, seen[cidr] || seen[ip], "node %d repeats %s or %s", i, cidr, ip)
		seen[cidr], seen[ip] = true, true
		x := &Indices{used: map[int]bool{}}
		x.Use(cidr)
		assert.True(t, x.used[i], "%s reads back as node %d", cidr, i)
	}
	assert.Equal(t, "10.244.0.0/24", podCIDR(0))
	assert.Equal(t, "10.245.0.0/24", podCIDR(256))
	assert.Equal(t, "10.0.0.0/24", podCIDR(3072))
	assert.Equal(t, "192.168.10.11", internalIP(0))
	assert.Equal(t, "192.168.11.0", internalIP(245))
}
