package apiserver

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

func service(name string, mutate func(*api.ServiceSpec)) *api.Service {
	svc := &api.Service{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"}}
	svc.Name, svc.Namespace = name, "default"
	svc.Spec.Ports = []api.ServicePort{{Port: 80}}
	svc.Spec.Selector = map[string]string{"app": name}
	if mutate != nil {
		mutate(&svc.Spec)
	}
	return svc
}

// serviceCluster is a cluster with the default namespace and the kubernetes service, as every
// DaemonLab cluster starts.
func serviceCluster(t *testing.T) *cluster.Cluster {
	c := cluster.New(1)
	namespace(c, t)
	require.True(t, SyncKubernetesService(c))
	return c
}

// TestServiceClusterIPAllocation pins the registry's allocation of cluster IPs
// (pkg/registry/core/service/storage/alloc.go allocIPs, ipallocator.go allocateService and
// allocateNextService, interfaces.go's errors) and the IP family fields it sets
// (initIPFamilyFields), on kubeadm's service subnet 10.96.0.0/12.
func TestServiceClusterIPAllocation(t *testing.T) {
	cases := []struct {
		name     string
		spec     func(*api.ServiceSpec)
		dryRun   bool
		ip       string // the cluster IP it gets; "" to check the range only
		families []string
		policy   string
		err      string
	}{
		{name: "a requested free address", spec: func(s *api.ServiceSpec) { s.ClusterIP = "10.96.0.10" }, ip: "10.96.0.10", families: []string{"IPv4"}, policy: "SingleStack"},
		{name: "none requested: one above the first 256", families: []string{"IPv4"}, policy: "SingleStack"},
		{name: "an address taken", spec: func(s *api.ServiceSpec) { s.ClusterIP = "10.96.0.1" },
			err: `Service "web" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.1"]: failed to allocate IP 10.96.0.1: provided IP is already allocated`},
		{name: "an address outside the range", spec: func(s *api.ServiceSpec) { s.ClusterIP = "10.0.0.5" },
			err: `Service "web" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: the provided network does not match the current range`},
		{name: "a dry run of none requested gets the network address", dryRun: true, ip: "10.96.0.0", families: []string{"IPv4"}, policy: "SingleStack"},
		{name: "a dry run checks the range only", dryRun: true, spec: func(s *api.ServiceSpec) { s.ClusterIP = "10.0.0.5" },
			err: `Service "web" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: the provided IP (10.0.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12`},
		{name: "IPv6 is not configured", spec: func(s *api.ServiceSpec) { s.ClusterIP = "fd00::10" },
			err: `Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["fd00::10"]: IPv6 is not configured on this cluster`},
		{name: "dual stack is not configured", spec: func(s *api.ServiceSpec) { s.IPFamilyPolicy = ptr("RequireDualStack") },
			err: `Service "web" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services`},
		{name: "a bad address is validation's", spec: func(s *api.ServiceSpec) { s.ClusterIP = "10.96.0.300" },
			err: `Service "web" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`},
		{name: "headless with a selector", spec: func(s *api.ServiceSpec) { s.ClusterIP = "None" }, ip: "None", families: []string{"IPv4"}, policy: "SingleStack"},
		{name: "headless without a selector asks for both families", spec: func(s *api.ServiceSpec) { s.ClusterIP, s.Selector = "None", nil }, ip: "None", families: []string{"IPv4", "IPv6"}, policy: "RequireDualStack"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := serviceCluster(t)
			stored, err := Create(c, service("web", tc.spec), Options{DryRun: tc.dryRun})
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				assert.Nil(t, c.Get("Service", cluster.Key{Namespace: "default", Name: "web"}))
				return
			}
			require.NoError(t, err)
			svc := stored.(*api.Service)
			assert.Equal(t, []string{svc.Spec.ClusterIP}, svc.Spec.ClusterIPs)
			if tc.ip != "" {
				assert.Equal(t, tc.ip, svc.Spec.ClusterIP)
			} else {
				addr := netip.MustParseAddr(svc.Spec.ClusterIP)
				assert.True(t, ServiceCIDR.Contains(addr) && netip.MustParseAddr("10.96.1.0").Less(addr), svc.Spec.ClusterIP)
			}
			assert.Equal(t, tc.families, svc.Spec.IPFamilies)
			assert.Equal(t, tc.policy, *svc.Spec.IPFamilyPolicy)
		})
	}
}

// TestClusterIPsAreDrawnFromTheSeed: the first free address from a random one drawn from the
// cluster's seeded source (allocateNextService), so the same seed gives the same addresses and a
// refused create draws nothing.
func TestClusterIPsAreDrawnFromTheSeed(t *testing.T) {
	ips := func(refusals bool) []string {
		c := serviceCluster(t)
		var out []string
		for _, name := range []string{"a", "b", "c"} {
			if refusals { // allocated, then refused by validation
				_, err := Create(c, service("bad", func(s *api.ServiceSpec) { s.Ports[0].Port = 0 }), Options{})
				require.Error(t, err)
			}
			stored, err := Create(c, service(name, nil), Options{})
			require.NoError(t, err)
			out = append(out, stored.(*api.Service).Spec.ClusterIP)
		}
		return out
	}
	first := ips(false)
	assert.Equal(t, first, ips(false))
	assert.Equal(t, first, ips(true), "a refused create leaves the random source where it was")
	assert.Len(t, map[string]bool{first[0]: true, first[1]: true, first[2]: true}, 3)
}

// TestServiceUpdateKeepsItsClusterIP pins patchAllocatedValues and normalizeClusterIPs
// (pkg/registry/core/service/storage/storage.go) and validateUpgradeDowngradeClusterIPs
// (pkg/apis/core/validation/validation.go): a write without the cluster IP keeps it, a changed
// one is refused.
func TestServiceUpdateKeepsItsClusterIP(t *testing.T) {
	c := serviceCluster(t)
	_, err := Create(c, service("web", func(s *api.ServiceSpec) { s.ClusterIP = "10.96.0.20" }), Options{})
	require.NoError(t, err)

	stored, err := Update(c, service("web", func(s *api.ServiceSpec) { s.Ports[0].Port = 8080 }), Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"10.96.0.20"}, stored.(*api.Service).Spec.ClusterIPs)

	_, err = Update(c, service("web", func(s *api.ServiceSpec) { s.ClusterIP = "10.96.0.21" }), Options{})
	require.Error(t, err)
	assert.Equal(t, `Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.21"]: may not change once set`, err.Error())
}

// TestNodePortAllocation pins initNodePorts (pkg/registry/core/service/storage/alloc.go) and
// the port allocator's errors (portallocator/allocator.go) on the range 30000-32767: one node
// port per port number, a requested one checked, allocated ones above the first 86.
func TestNodePortAllocation(t *testing.T) {
	nodePort := func(s *api.ServiceSpec) { s.Type = api.ServiceTypeNodePort }
	cases := []struct {
		name  string
		spec  func(*api.ServiceSpec)
		ports []int32 // the node ports it gets; 0 for "one allocated"
		err   string
	}{
		{name: "allocated", spec: nodePort, ports: []int32{0}},
		{name: "requested", spec: func(s *api.ServiceSpec) { nodePort(s); s.Ports[0].NodePort = 30080 }, ports: []int32{30080}},
		{name: "one port number over two protocols shares one", spec: func(s *api.ServiceSpec) {
			nodePort(s)
			s.Ports = []api.ServicePort{{Name: "a", Port: 53, Protocol: "UDP"}, {Name: "b", Port: 53, Protocol: "TCP"}}
		}, ports: []int32{0, 0}},
		{name: "taken", spec: func(s *api.ServiceSpec) { nodePort(s); s.Ports[0].NodePort = 30000 },
			err: `Service "web" is invalid: spec.ports[0].nodePort: Invalid value: 30000: provided port is already allocated`},
		{name: "out of range", spec: func(s *api.ServiceSpec) { nodePort(s); s.Ports[0].NodePort = 8080 },
			err: `Service "web" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767`},
		{name: "a LoadBalancer that allocates none keeps none", spec: func(s *api.ServiceSpec) {
			s.Type = api.ServiceTypeLoadBalancer
			s.AllocateLoadBalancerNodePorts = ptr(false)
		}, ports: []int32{-1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := serviceCluster(t)
			_, err := Create(c, service("other", func(s *api.ServiceSpec) { nodePort(s); s.Ports[0].NodePort = 30000 }), Options{})
			require.NoError(t, err)
			stored, err := Create(c, service("web", tc.spec), Options{})
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			ports := stored.(*api.Service).Spec.Ports
			require.Len(t, ports, len(tc.ports))
			for i, want := range tc.ports {
				switch got := ports[i].NodePort; want {
				case 0:
					assert.True(t, got >= 30086 && got <= 32767, got)
					assert.Equal(t, ports[0].NodePort, got, "one port number, one node port")
				case -1:
					assert.Zero(t, got)
				default:
					assert.Equal(t, want, got)
				}
			}
		})
	}
}

// TestTheKubernetesServiceComesBack: the API server keeps its own service
// (pkg/controlplane/controller/kubernetesservice): 10.96.0.1, https 443 → 6443, created again
// once deleted.
func TestTheKubernetesServiceComesBack(t *testing.T) {
	c := serviceCluster(t)
	key := cluster.Key{Namespace: "default", Name: "kubernetes"}
	svc, ok := c.Get("Service", key).(*api.Service)
	require.True(t, ok)
	assert.Equal(t, KubernetesServiceIP, svc.Spec.ClusterIP)
	assert.Equal(t, []api.ServicePort{{Name: "https", Protocol: "TCP", Port: 443, TargetPort: api.FromInt(6443)}}, svc.Spec.Ports)
	assert.False(t, SyncKubernetesService(c), "nothing to do while it is there")
	_, err := Delete(c, KindOf(svc), key, DeleteOptions{})
	require.NoError(t, err)
	assert.True(t, SyncKubernetesService(c))
	assert.NotNil(t, c.Get("Service", key))
}
