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
// It reports whether it changed anything.
func Sync(c *cluster.Cluster) bool {
	var waiting []*api.Node
	for n := range c.AllNodes() {
		if n.Spec.PodCIDR == "" && n.DeletionTimestamp == nil {
			waiting = append(waiting, n)
		}
	}
	if len(waiting) == 0 {
		return false
	}
	slices.SortStableFunc(waiting, func(a, b *api.Node) int { return cluster.CreationOrder(a, b) })
	x := NewRanges(c)
	for _, n := range waiting {
		next := api.DeepCopy(n)
		cidr := PodCIDR(x.Free())
		next.Spec.PodCIDR, next.Spec.PodCIDRs = cidr, []string{cidr}
		x.Use(cidr)
		_ = c.Update(next)
	}
	return true
}

// Ranges are the pod CIDR indices the nodes hold, read once.
type Ranges struct{ cluster.FreeIndex }

// NewRanges reads the ranges the cluster's nodes hold.
func NewRanges(c *cluster.Cluster) *Ranges {
	x := &Ranges{}
	for n := range c.AllNodes() {
		x.Use(n.Spec.PodCIDR)
	}
	return x
}

// Use notes a node's pod CIDR; one PodCIDR does not hand out takes no index.
func (x *Ranges) Use(cidr string) {
	rest, prefixed := strings.CutPrefix(cidr, "10.")
	octets, suffixed := strings.CutSuffix(rest, ".0/24")
	if k, ok := cluster.Octets(octets); prefixed && suffixed && ok {
		x.FreeIndex.Use((k - podSubnetsFrom + podSubnets) % podSubnets)
	}
}
