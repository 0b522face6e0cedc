package nodeipam

import (
	"fmt"
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// TestANodeGetsTheSmallestFreePodCIDR: a node without a pod CIDR takes the smallest /24
// (10.244.<index>.0/24 for the first 256) no node holds, so a node never shares a range with
// one that stayed after others left (the range allocator hands out the first free range);
// nodes waiting together get theirs in the order they were created.
func TestANodeGetsTheSmallestFreePodCIDR(t *testing.T) {
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
			node := func(name, cidr string) *api.Node {
				n := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}}
				n.Name, n.Spec.PodCIDR = name, cidr
				return n
			}
			for _, i := range tc.indices {
				require.NoError(t, c.Create(node(fmt.Sprintf("n%d", i), PodCIDR(i))))
			}
			require.NoError(t, c.Create(node("z-first", "")))
			require.NoError(t, c.Create(node("a-second", "")))
			assert.True(t, Sync(c, cluster.Since{}))
			assert.Equal(t, PodCIDR(tc.want), c.Node("z-first").Spec.PodCIDR)
			assert.Equal(t, []string{PodCIDR(tc.want)}, c.Node("z-first").Spec.PodCIDRs)
			assert.Equal(t, PodCIDR(ranges.Free(c)-1), c.Node("a-second").Spec.PodCIDR)
			assert.False(t, Sync(c, cluster.Since{}), "every node has its range")
		})
	}
}

// TestPodCIDRsStayValidInLargeClusters: nodes past the 256th still get real ranges (a
// 10.0.0.0/8 cluster CIDR counted on from 10.244.0.0/24), each its own, and each reads back.
func TestPodCIDRsStayValidInLargeClusters(t *testing.T) {
	_, pods, _ := net.ParseCIDR("10.0.0.0/8")
	seen := map[string]bool{}
	for _, i := range []int{0, 1, 255, 256, 257, 3071, 3072, 4999, 62964} {
		cidr := PodCIDR(i)
		addr, subnet, err := net.ParseCIDR(cidr)
		require.NoError(t, err, "node %d: %s", i, cidr)
		assert.True(t, pods.Contains(addr) && addr.Equal(subnet.IP), "node %d: %s", i, cidr)
		assert.False(t, seen[cidr], "node %d repeats %s", i, cidr)
		seen[cidr] = true
		read, ok := rangeIndex(cidr)
		assert.True(t, ok && read == i, "%s reads back as node %d", cidr, i)
	}
	assert.Equal(t, "10.244.0.0/24", PodCIDR(0))
	assert.Equal(t, "10.245.0.0/24", PodCIDR(256))
	assert.Equal(t, "10.0.0.0/24", PodCIDR(3072))
}
