package kubelet

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/cluster"
)

// TestFreeIndexIsTheSmallestUnusedPodCIDR: a joining node takes the smallest index whose pod
// CIDR 10.244.<index>.0/24 no node holds, so a node never shares a CIDR with one that stayed
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
