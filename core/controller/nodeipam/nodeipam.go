// Package nodeipam is the node IPAM controller of kube-controller-manager
// (pkg/controller/nodeipam, the range allocator of ipam/range_allocator.go): it gives every
// node that has no pod CIDR the first free one of the cluster CIDR.
package nodeipam

import (
	"fmt"
	"slices"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// Pod CIDRs are the /24s of a 10.0.0.0/8 cluster CIDR, handed out from 10.244.0.0/24 (kubeadm's
// and flannel's usual 10.244.0.0/16, for the first 256 nodes) upwards and round to 10.0.0.0
// after 10.255.255.0.
const (
	podSubnets     = 1 << 16  // the /24s in 10.0.0.0/8
	podSubnetsFrom = 244 << 8 // 10.244.0.0/24's place among them
)

// PodCIDR is the index-th pod CIDR.
func PodCIDR(index int) string {
	k := (podSubnetsFrom + index) % podSubnets
	return fmt.Sprintf("10.%d.%d.0/24", k>>8, k&0xff)
}

// Sync allocates pod CIDRs (AllocateOrOccupyCIDR):
//
//  1. The nodes without spec.podCIDR are taken in the order they were created.
//  2. Each gets the smallest /24 no node holds, as spec.podCIDR and spec.podCIDRs.
//
// A node waits only until a pass sees it, so a pass at the instant of the one that began at
// since visits only the nodes written after it (cluster.ChangedNodes). It reports whether it
// changed anything.
func Sync(c *cluster.Cluster, since cluster.Since) bool {
	var waiting []*api.Node
	for n := range c.ChangedNodes(since) {
		if n.Spec.PodCIDR == "" && n.DeletionTimestamp == nil {
			waiting = append(waiting, n)
		}
	}
	if len(waiting) == 0 {
		return false
	}
	slices.SortStableFunc(waiting, func(a, b *api.Node) int { return cluster.CreationOrder(a, b) })
	for _, n := range waiting {
		next := api.DeepCopy(n)
		cidr := PodCIDR(ranges.Free(c))
		next.Spec.PodCIDR, next.Spec.PodCIDRs = cidr, []string{cidr}
		_ = c.Update(next)
	}
	return true
}

// ranges are the pod CIDR indices the nodes hold; a PodCIDR this controller does not hand out
// takes no index.
var ranges = cluster.NewTally("Node", func(obj api.Object, use func(int)) {
	if i, ok := rangeIndex(obj.(*api.Node).Spec.PodCIDR); ok {
		use(i)
	}
})

// rangeIndex returns the index of the range PodCIDR gave cidr, if it gave it.
func rangeIndex(cidr string) (int, bool) {
	rest, prefixed := strings.CutPrefix(cidr, "10.")
	octets, suffixed := strings.CutSuffix(rest, ".0/24")
	k, ok := cluster.Octets(octets)
	return (k - podSubnetsFrom + podSubnets) % podSubnets, prefixed && suffixed && ok
}
