package apiserver

import (
	"fmt"
	"net/netip"
	"slices"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// ServiceCIDR is the range cluster IPs come from: kubeadm's default service subnet
// (--service-cluster-ip-range, cmd/kubeadm/app/constants DefaultServicesSubnet). The cluster is
// IPv4 only.
var ServiceCIDR = netip.MustParsePrefix("10.96.0.0/12")

// The cluster IPs kubeadm's cluster gives its two services: the API server's own, the first
// address of the range (GetAPIServerVirtualIP), and the cluster DNS's, the tenth (GetDNSIP).
const (
	KubernetesServiceIP = "10.96.0.1"
	KubeDNSServiceIP    = "10.96.0.10"
)

// The node port range, kube-apiserver's default --service-node-port-range 30000-32767.
const (
	nodePortBase = 30000
	nodePortSize = 2768
)

// The offsets below which the allocators hand out no address or port on their own, kept for
// the ones a service asks for (calculateRangeOffset in pkg/registry/core/service/ipallocator
// and portallocator): min(max(16, size/16), 256) addresses, min(max(16, size/32), 128) ports.
const (
	clusterIPOffset = 256
	nodePortOffset  = nodePortSize / 32 // 86
)

// Why an allocation failed, as the allocators word it (ipallocator/interfaces.go,
// portallocator/allocator.go).
const (
	errIPAllocated       = "provided IP is already allocated"
	errMismatchedNetwork = "the provided network does not match the current range"
	errPortAllocated     = "provided port is already allocated"
)

// allocateService is the service registry's BeginCreate and BeginUpdate
// (pkg/registry/core/service/storage/storage.go, alloc.go), run after admission and before
// the strategy and validation; old is the stored service of an update, nil on a create:
//
//  1. On an update, what the client left out of what was allocated is kept
//     (patchAllocatedValues): the cluster IPs, and each node port by its port's name.
//  2. clusterIP and clusterIPs are made to agree (normalizeClusterIPs): a clusterIP alone
//     becomes clusterIPs; on an update a changed clusterIP with unchanged clusterIPs replaces
//     them, a cleared one clears them.
//  3. The IP family fields (initIPFamilyFields, see initIPFamilies).
//  4. A service that is not ExternalName nor headless gets its cluster IP (allocateClusterIP);
//     an update keeps the one it has.
//  5. A NodePort service, or a LoadBalancer that allocates node ports, gets a node port for
//     every port without one (initNodePorts, see allocateNodePorts).
//
// Nothing is stored: the addresses and ports in use are the stored services', so a refused
// write frees what it took with it.
func allocateService(c *cluster.Cluster, obj, oldObj api.Object, o Options) *StatusError {
	svc := obj.(*api.Service)
	var old *api.Service
	if oldObj != nil {
		old = oldObj.(*api.Service)
		patchAllocatedValues(svc, old)
	}
	normalizeClusterIPs(svc, old)
	if errs := initIPFamilies(svc, old); len(errs) > 0 {
		return invalid(KindOf(svc), svc.Name, errs)
	}
	if svc.Spec.Type != api.ServiceTypeExternalName && !svc.Headless() && (old == nil || old.Spec.Type == api.ServiceTypeExternalName) {
		if errs := allocateClusterIP(c, svc, o); len(errs) > 0 {
			return invalid(KindOf(svc), svc.Name, errs)
		}
	}
	if needsNodePort(svc) {
		return allocateNodePorts(c, svc, o)
	}
	return nil
}

// needsNodePort: a NodePort, or a LoadBalancer that allocates node ports.
func needsNodePort(svc *api.Service) bool {
	return svc.Spec.Type == api.ServiceTypeNodePort || svc.Spec.Type == api.ServiceTypeLoadBalancer && (svc.Spec.AllocateLoadBalancerNodePorts == nil || *svc.Spec.AllocateLoadBalancerNodePorts)
}

// patchAllocatedValues is allocateService's rule 1.
func patchAllocatedValues(svc, old *api.Service) {
	if svc.Spec.Type != api.ServiceTypeExternalName && old.Spec.Type != api.ServiceTypeExternalName {
		if svc.Spec.ClusterIP == "" {
			svc.Spec.ClusterIP = old.Spec.ClusterIP
		}
		if len(svc.Spec.ClusterIPs) == 0 && len(old.Spec.ClusterIPs) > 0 {
			svc.Spec.ClusterIPs = old.Spec.ClusterIPs
		}
	}
	if !needsNodePort(old) || !needsNodePort(svc) {
		return
	}
	inNew, byName := map[int32]bool{}, map[string]int32{}
	for _, p := range svc.Spec.Ports {
		inNew[p.NodePort] = p.NodePort != 0
	}
	used := map[int32]bool{}
	for _, p := range old.Spec.Ports {
		byName[p.Name] = p.NodePort
		if p.NodePort != 0 && inNew[p.NodePort] {
			used[p.NodePort] = true
		}
	}
	for i := range svc.Spec.Ports {
		if p := &svc.Spec.Ports[i]; p.NodePort == 0 && !used[byName[p.Name]] {
			p.NodePort = byName[p.Name]
		}
	}
}

// normalizeClusterIPs is allocateService's rule 2.
func normalizeClusterIPs(svc, old *api.Service) {
	spec := &svc.Spec
	if old == nil {
		if spec.ClusterIP != "" && len(spec.ClusterIPs) == 0 {
			spec.ClusterIPs = []string{spec.ClusterIP}
		}
		return
	}
	if len(old.Spec.ClusterIPs) > 0 && len(spec.ClusterIPs) == 0 && old.Spec.ClusterIP == spec.ClusterIP {
		spec.ClusterIPs = old.Spec.ClusterIPs
	}
	if old.Spec.ClusterIP == spec.ClusterIP || !slices.Equal(old.Spec.ClusterIPs, spec.ClusterIPs) {
		return
	}
	if spec.ClusterIP == "" {
		spec.ClusterIPs = nil
	} else {
		spec.ClusterIPs = []string{spec.ClusterIP}
	}
}

// initIPFamilies is initIPFamilyFields on DaemonLab's IPv4-only cluster:
//
//  1. ExternalName services have none.
//  2. ipFamilyPolicy defaults to the stored one on an update, else to RequireDualStack for a
//     headless service without a selector, else to SingleStack.
//  3. The cluster IP fields are validated (api.ValidateServiceClusterIPs).
//  4. SingleStack allows one cluster IP and one family.
//  5. Each cluster IP's family is added to ipFamilies where missing; an IPv6 one is refused
//     ("IPv6 is not configured on this cluster").
//  6. A headless service without a selector gets IPv4 and, unless SingleStack, IPv6 too.
//  7. Otherwise RequireDualStack is refused, an IPv6 family is refused, and no family means
//     IPv4.
func initIPFamilies(svc, old *api.Service) api.ErrorList {
	spec := &svc.Spec
	if spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	policyPath := api.NewPath("spec", "ipFamilyPolicy")
	if spec.IPFamilyPolicy == nil {
		switch {
		case old != nil && old.Spec.IPFamilyPolicy != nil:
			spec.IPFamilyPolicy = ptr(*old.Spec.IPFamilyPolicy)
		case spec.ClusterIP == api.ClusterIPNone && len(spec.Selector) == 0:
			spec.IPFamilyPolicy = ptr(api.IPFamilyPolicyRequireDualStack)
		default:
			spec.IPFamilyPolicy = ptr(api.IPFamilyPolicySingleStack)
		}
	}
	if errs := api.ValidateServiceClusterIPs(svc); len(errs) > 0 {
		return errs
	}
	var errs api.ErrorList
	if *spec.IPFamilyPolicy == api.IPFamilyPolicySingleStack {
		if len(spec.ClusterIPs) == 2 {
			errs = append(errs, api.Invalid(policyPath, *spec.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"))
		}
		if len(spec.IPFamilies) == 2 {
			errs = append(errs, api.Invalid(policyPath, *spec.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"))
		}
	}
	for i, ip := range spec.ClusterIPs {
		if ip == api.ClusterIPNone {
			break
		}
		if i < len(spec.IPFamilies) {
			continue
		}
		if family := api.IPFamilyOf(ip); family != api.IPv4Protocol {
			errs = append(errs, api.Invalid(api.NewPath("spec", "clusterIPs").Index(i), spec.ClusterIPs, family+" is not configured on this cluster"))
		} else {
			spec.IPFamilies = append(spec.IPFamilies, family)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if spec.ClusterIP == api.ClusterIPNone && len(spec.Selector) == 0 {
		if len(spec.IPFamilies) == 0 {
			spec.IPFamilies = []string{api.IPv4Protocol}
		}
		if len(spec.IPFamilies) < 2 && *spec.IPFamilyPolicy != api.IPFamilyPolicySingleStack {
			other := api.IPv6Protocol
			if spec.IPFamilies[0] == api.IPv6Protocol {
				other = api.IPv4Protocol
			}
			spec.IPFamilies = append(spec.IPFamilies, other)
		}
		return nil
	}
	if *spec.IPFamilyPolicy == api.IPFamilyPolicyRequireDualStack {
		errs = append(errs, api.Invalid(policyPath, *spec.IPFamilyPolicy, "this cluster is not configured for dual-stack services"))
	}
	for i, family := range spec.IPFamilies {
		if family != api.IPv4Protocol {
			errs = append(errs, api.Invalid(api.NewPath("spec", "ipFamilies").Index(i), family, "not configured on this cluster"))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if len(spec.IPFamilies) == 0 {
		spec.IPFamilies = []string{api.IPv4Protocol}
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// allocateClusterIP is allocIPs for the IPv4 family, as the MultiCIDRServiceAllocator (on and
// locked since v1.34) does:
//
//  1. A requested address outside ServiceCIDR is refused: "failed to allocate IP A: the
//     provided network does not match the current range"; one another service holds: "failed
//     to allocate IP A: provided IP is already allocated".
//  2. Otherwise the first free address from a random one of the range above the first 256
//     (drawn from the cluster's seeded source), wrapping round to the 257th, then from a random
//     one of the first 256 (allocateNextService). The network and broadcast addresses are
//     never handed out.
//  3. A dry run draws nothing and checks no address against the others: it returns the
//     network address for none asked (the dry-run allocator's), and refuses a requested one
//     outside the range with "the provided IP (A) is not in the valid range. The range of
//     valid IPs is 10.96.0.0/12".
func allocateClusterIP(c *cluster.Cluster, svc *api.Service, o Options) api.ErrorList {
	spec := &svc.Spec
	path := api.NewPath("spec", "clusterIPs")
	if len(spec.ClusterIPs) > 0 {
		ip := spec.ClusterIPs[0]
		addr := netip.MustParseAddr(ip) // validated by initIPFamilies
		reason := ""
		switch first, last := firstLastAddress(); {
		case o.DryRun && (addr.Less(first) || last.Less(addr)):
			reason = fmt.Sprintf("the provided IP (%s) is not in the valid range. The range of valid IPs is %s", ip, ServiceCIDR)
		case o.DryRun:
		case !ServiceCIDR.Contains(addr):
			reason = errMismatchedNetwork
		case clusterIPsInUse(c, svc)[addr]:
			reason = errIPAllocated
		}
		if reason != "" {
			return api.ErrorList{api.Invalid(path, spec.ClusterIPs, fmt.Sprintf("failed to allocate IP %s: %s", ip, reason))}
		}
		spec.ClusterIP = ip
		return nil
	}
	var ip netip.Addr
	if o.DryRun {
		ip = ServiceCIDR.Addr()
	} else {
		size := 1<<(32-ServiceCIDR.Bits()) - 2 // hostsPerNetwork
		used := clusterIPsInUse(c, svc)
		i, ok := randomFree(c, size, clusterIPOffset, func(i int) bool { return used[nthAddress(i)] })
		if !ok {
			return api.ErrorList{api.Invalid(path, spec.ClusterIPs, "failed to allocate IP: range is full")}
		}
		ip = nthAddress(i)
	}
	spec.ClusterIP, spec.ClusterIPs = ip.String(), []string{ip.String()}
	return nil
}

// firstLastAddress are the first and last addresses ServiceCIDR hands out.
func firstLastAddress() (netip.Addr, netip.Addr) {
	return nthAddress(0), nthAddress(1<<(32-ServiceCIDR.Bits()) - 3)
}

// nthAddress is the i-th address the range hands out, from the one after the network address.
func nthAddress(i int) netip.Addr {
	b := ServiceCIDR.Addr().As4()
	n := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	n += uint32(i) + 1
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
}

// clusterIPsInUse are the cluster IPs of every stored service but svc.
func clusterIPsInUse(c *cluster.Cluster, svc *api.Service) map[netip.Addr]bool {
	used := map[netip.Addr]bool{}
	for _, s := range cluster.List[*api.Service](c) {
		if s.Namespace == svc.Namespace && s.Name == svc.Name {
			continue
		}
		for _, ip := range s.Spec.ClusterIPs {
			if addr, err := netip.ParseAddr(ip); err == nil {
				used[addr] = true
			}
		}
	}
	return used
}

// randomFree is the allocators' random scan with an offset (allocateNextService, the bitmap's
// randomScanStrategyWithOffset): of the indices [0, size), the first free one from a random
// index of [offset, size), wrapping round to offset; then the first free one from a random
// index of [0, offset).
func randomFree(c *cluster.Cluster, size, offset int, taken func(int) bool) (int, bool) {
	for _, r := range [][2]int{{offset, size}, {0, offset}} {
		n := r[1] - r[0]
		if n <= 0 {
			continue
		}
		start := c.IntN(n)
		for i := range n {
			if at := r[0] + (start+i)%n; !taken(at) {
				return at, true
			}
		}
	}
	return 0, false
}

// allocateNodePorts is initNodePorts:
//
//  1. Ports that share a port number share a node port: the one any of them asks for, else
//     one allocated for the first.
//  2. A node port asked for must be in 30000-32767 ("provided port is not in the valid range.
//     The range of valid ports is 30000-32767") and held by no other service ("provided port
//     is already allocated"), else spec.ports[i].nodePort is Invalid.
//  3. Others are allocated as cluster IPs are (randomFree above the first 86 ports); a full
//     range is an internal error. A dry run draws nothing (and allocates 30000 upwards).
//  4. A LoadBalancer with allocateLoadBalancerNodePorts false only keeps the ones asked for.
//
// The health-check node port of a Local LoadBalancer is not allocated: the validation asks the
// learner for it.
func allocateNodePorts(c *cluster.Cluster, svc *api.Service, o Options) *StatusError {
	used := nodePortsInUse(c, svc)
	allocate := svc.Spec.Type == api.ServiceTypeNodePort || svc.Spec.AllocateLoadBalancerNodePorts == nil || *svc.Spec.AllocateLoadBalancerNodePorts
	byPort := map[int32]int32{}
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		if sp.NodePort == 0 && !allocate {
			continue
		}
		np := byPort[sp.Port]
		switch {
		case np != 0 && sp.NodePort == 0:
			sp.NodePort = np
			continue
		case np != 0 && sp.NodePort == np:
			continue
		case np == 0 && sp.NodePort == 0:
			sp.NodePort = requestedNodePort(sp.Port, svc.Spec.Ports[i:])
		}
		if sp.NodePort != 0 {
			if reason := nodePortRefusal(sp.NodePort, used); reason != "" {
				return invalid(KindOf(svc), svc.Name, api.ErrorList{api.Invalid(api.NewPath("spec", "ports").Index(i).Child("nodePort"), sp.NodePort, reason)})
			}
		} else {
			next, ok := nextNodePort(c, used, o)
			if !ok {
				return internalError("failed to allocate a nodePort: range is full")
			}
			sp.NodePort = next
		}
		used[sp.NodePort] = true
		if np == 0 {
			byPort[sp.Port] = sp.NodePort
		}
	}
	return nil
}

// requestedNodePort is findRequestedNodePort: the node port the first of ports with the given
// port number asks for.
func requestedNodePort(port int32, ports []api.ServicePort) int32 {
	for _, p := range ports {
		if p.Port == port && p.NodePort != 0 {
			return p.NodePort
		}
	}
	return 0
}

func nodePortRefusal(np int32, used map[int32]bool) string {
	switch {
	case np < nodePortBase || np >= nodePortBase+nodePortSize:
		return fmt.Sprintf("provided port is not in the valid range. The range of valid ports is %d-%d", nodePortBase, nodePortBase+nodePortSize-1)
	case used[np]:
		return errPortAllocated
	}
	return ""
}

func nextNodePort(c *cluster.Cluster, used map[int32]bool, o Options) (int32, bool) {
	taken := func(i int) bool { return used[int32(nodePortBase+i)] }
	if o.DryRun {
		for i := range nodePortSize {
			if !taken(i) {
				return int32(nodePortBase + i), true
			}
		}
		return 0, false
	}
	i, ok := randomFree(c, nodePortSize, nodePortOffset, taken)
	return int32(nodePortBase + i), ok
}

// nodePortsInUse are the node ports (and health-check node ports) of every stored service but
// svc (an update keeps its own).
func nodePortsInUse(c *cluster.Cluster, svc *api.Service) map[int32]bool {
	used := map[int32]bool{}
	for _, s := range cluster.List[*api.Service](c) {
		if s.Namespace == svc.Namespace && s.Name == svc.Name {
			continue
		}
		for _, p := range s.Spec.Ports {
			used[p.NodePort] = p.NodePort != 0
		}
		if s.Spec.HealthCheckNodePort != 0 {
			used[s.Spec.HealthCheckNodePort] = true
		}
	}
	return used
}

// servicePrepareForUpdate is the rest of svcStrategy.PrepareForUpdate
// (pkg/registry/core/service/strategy.go dropTypeDependentFields): a service changing to a
// type without them loses what was allocated for it, unless the write changed it too —
//
//  1. to ExternalName: its cluster IPs, IP families and policy;
//  2. to a type without node ports: its node ports;
//  3. from LoadBalancer: allocateLoadBalancerNodePorts.
func servicePrepareForUpdate(obj, oldObj api.Object) {
	svc, old := obj.(*api.Service), oldObj.(*api.Service)
	spec := &svc.Spec
	if old.Spec.Type != api.ServiceTypeExternalName && spec.Type == api.ServiceTypeExternalName {
		if spec.ClusterIP == old.Spec.ClusterIP && slices.Equal(spec.ClusterIPs, old.Spec.ClusterIPs) {
			spec.ClusterIP, spec.ClusterIPs = "", nil
		}
		if slices.Equal(spec.IPFamilies, old.Spec.IPFamilies) {
			spec.IPFamilies = nil
		}
		if equalPtr(spec.IPFamilyPolicy, old.Spec.IPFamilyPolicy) {
			spec.IPFamilyPolicy = nil
		}
	}
	if needsNodePort(old) && !needsNodePort(svc) && sameNodePorts(svc, old) {
		for i := range spec.Ports {
			spec.Ports[i].NodePort = 0
		}
	}
	if old.Spec.Type == api.ServiceTypeLoadBalancer && spec.Type != api.ServiceTypeLoadBalancer && spec.AllocateLoadBalancerNodePorts != nil && old.Spec.AllocateLoadBalancerNodePorts != nil && *spec.AllocateLoadBalancerNodePorts == *old.Spec.AllocateLoadBalancerNodePorts {
		spec.AllocateLoadBalancerNodePorts = nil
	}
}

func equalPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// sameNodePorts is sameNodePorts: every port of svc with a node port has it in old too, under
// the same port number.
func sameNodePorts(svc, old *api.Service) bool {
	held := map[int32]int32{}
	for _, p := range old.Spec.Ports {
		held[p.Port] = p.NodePort
	}
	for _, p := range svc.Spec.Ports {
		if p.NodePort != 0 && held[p.Port] != p.NodePort {
			return false
		}
	}
	return true
}

// serviceClusterIPsImmutable is ValidateServiceUpdate's validateUpgradeDowngradeClusterIPs for
// a single-stack cluster: once a service not ExternalName (before and after) has a cluster IP,
// it may not change ("may not change once set") nor be unset ("primary clusterIP can not be
// unset"); a headless one stays headless.
func serviceClusterIPsImmutable(obj, oldObj api.Object) api.ErrorList {
	svc, old := obj.(*api.Service), oldObj.(*api.Service)
	if svc.Spec.Type == api.ServiceTypeExternalName || old.Spec.Type == api.ServiceTypeExternalName || svc.Headless() && old.Headless() {
		return nil
	}
	now, was := svc.Spec.ClusterIPs, old.Spec.ClusterIPs
	path := api.NewPath("spec", "clusterIPs")
	switch {
	case len(was) == len(now):
		var errs api.ErrorList
		for i, ip := range was {
			if ip != now[i] {
				errs = append(errs, api.Invalid(path.Index(i), nonNilStrings(now), "may not change once set"))
			}
		}
		return errs
	case len(now) == 0:
		return api.ErrorList{api.Invalid(path.Index(0), nonNilStrings(now), "primary clusterIP can not be unset")}
	case len(was) > 0 && now[0] != was[0]:
		return api.ErrorList{api.Invalid(path.Index(0), now, "may not change once set")}
	}
	return nil
}

// nonNilStrings prints a missing list as [] rather than null, as the API server does.
func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// kubernetesServiceName is the API server's own service in the default namespace.
const kubernetesServiceName = "kubernetes"

// KubernetesService is the service kube-apiserver keeps for itself
// (pkg/controlplane/controller/kubernetesservice CreateOrUpdateMasterServiceIfNeeded): in the
// default namespace, labelled component=apiserver and provider=kubernetes, without a selector
// (its endpoints are the API servers'), cluster IP 10.96.0.1, SingleStack, session affinity
// None, port "https" 443/TCP to the API server's secure port 6443.
func KubernetesService() *api.Service {
	svc := &api.Service{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"}}
	svc.Name, svc.Namespace = kubernetesServiceName, "default"
	svc.Labels = map[string]string{"component": "apiserver", "provider": "kubernetes"}
	svc.Spec = api.ServiceSpec{
		Ports:           []api.ServicePort{{Name: "https", Protocol: "TCP", Port: 443, TargetPort: api.FromInt(APIServerSecurePort)}},
		ClusterIP:       KubernetesServiceIP,
		IPFamilyPolicy:  ptr(api.IPFamilyPolicySingleStack),
		SessionAffinity: "None",
		Type:            api.ServiceTypeClusterIP,
	}
	return svc
}

// APIServerSecurePort is kube-apiserver's --secure-port as kubeadm sets it.
const APIServerSecurePort = 6443

// SyncKubernetesService is the kubernetes service controller's loop (RunKubernetesService):
// the API server creates its service as it starts and again whenever it is gone (a learner's
// `kubectl delete svc kubernetes`), once the default namespace is there. It reports whether
// it created it.
func SyncKubernetesService(c *cluster.Cluster) bool {
	if c.Get("Service", cluster.Key{Namespace: "default", Name: kubernetesServiceName}) != nil || c.Get("Namespace", cluster.Key{Name: "default"}) == nil {
		return false
	}
	_, err := Create(c, KubernetesService(), Options{})
	return err == nil
}

// APIServerAddresses are the addresses the API servers advertise (--advertise-address), which
// the API server's endpoint reconciler publishes as the kubernetes service's endpoints: in
// DaemonLab, kubeadm's, the InternalIP of every node labelled
// node-role.kubernetes.io/control-plane, in name order (hd1's in the default cluster; none in
// an empty one until such a node joins).
func APIServerAddresses(c *cluster.Cluster) []string {
	var addrs []string
	for _, n := range cluster.List[*api.Node](c) {
		if _, ok := n.Labels[api.LabelNodeRoleControlPlane]; !ok {
			continue
		}
		for _, a := range n.Status.Addresses {
			if a.Type == "InternalIP" {
				addrs = append(addrs, a.Address)
				break
			}
		}
	}
	return addrs
}

// IsKubernetesService reports whether svc is the API server's own service.
func IsKubernetesService(svc *api.Service) bool {
	return svc.Namespace == "default" && svc.Name == kubernetesServiceName
}
