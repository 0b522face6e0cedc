package api

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
)

// Service is a named set of pods behind one virtual IP (core/v1). DaemonLab keeps its cluster
// IP, node ports and endpoints as the API server and kubectl show them; no traffic reaches it
// (there is no kube-proxy and no cluster DNS).
type Service struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ServiceSpec   `json:"spec,omitempty"`
	Status     ServiceStatus `json:"status,omitempty"`
}

// ServiceType is how a service is exposed.
type ServiceType string

const (
	ServiceTypeClusterIP    ServiceType = "ClusterIP"
	ServiceTypeNodePort     ServiceType = "NodePort"
	ServiceTypeLoadBalancer ServiceType = "LoadBalancer"
	ServiceTypeExternalName ServiceType = "ExternalName"
)

// ClusterIPNone is the cluster IP of a headless service.
const ClusterIPNone = "None"

// IPv4Protocol and IPv6Protocol are the IP families; IPFamilyPolicySingleStack,
// IPFamilyPolicyPreferDualStack and IPFamilyPolicyRequireDualStack the policies.
const (
	IPv4Protocol                   = "IPv4"
	IPv6Protocol                   = "IPv6"
	IPFamilyPolicySingleStack      = "SingleStack"
	IPFamilyPolicyPreferDualStack  = "PreferDualStack"
	IPFamilyPolicyRequireDualStack = "RequireDualStack"
)

// ServiceSpec is what a service's owner sets (every v1 field, so that a manifest from a real
// cluster decodes; DaemonLab acts on the ones its doc comments name).
type ServiceSpec struct {
	Ports                         []ServicePort          `json:"ports,omitempty"`
	Selector                      map[string]string      `json:"selector,omitempty"`
	ClusterIP                     string                 `json:"clusterIP,omitempty"`
	ClusterIPs                    []string               `json:"clusterIPs,omitempty"`
	Type                          ServiceType            `json:"type,omitempty"`
	ExternalIPs                   []string               `json:"externalIPs,omitempty"`
	SessionAffinity               string                 `json:"sessionAffinity,omitempty"`
	LoadBalancerIP                string                 `json:"loadBalancerIP,omitempty"`
	LoadBalancerSourceRanges      []string               `json:"loadBalancerSourceRanges,omitempty"`
	ExternalName                  string                 `json:"externalName,omitempty"`
	ExternalTrafficPolicy         string                 `json:"externalTrafficPolicy,omitempty"`
	HealthCheckNodePort           int32                  `json:"healthCheckNodePort,omitempty"`
	PublishNotReadyAddresses      bool                   `json:"publishNotReadyAddresses,omitempty"`
	SessionAffinityConfig         *SessionAffinityConfig `json:"sessionAffinityConfig,omitempty"`
	IPFamilies                    []string               `json:"ipFamilies,omitempty"`
	IPFamilyPolicy                *string                `json:"ipFamilyPolicy,omitempty"`
	AllocateLoadBalancerNodePorts *bool                  `json:"allocateLoadBalancerNodePorts,omitempty"`
	LoadBalancerClass             *string                `json:"loadBalancerClass,omitempty"`
	InternalTrafficPolicy         *string                `json:"internalTrafficPolicy,omitempty"`
	TrafficDistribution           *string                `json:"trafficDistribution,omitempty"`
}

// ServicePort is one port a service serves.
type ServicePort struct {
	Name        string      `json:"name,omitempty"`
	Protocol    string      `json:"protocol,omitempty"`
	AppProtocol *string     `json:"appProtocol,omitempty"`
	Port        int32       `json:"port"`
	TargetPort  IntOrString `json:"targetPort,omitempty"`
	NodePort    int32       `json:"nodePort,omitempty"`
}

// SessionAffinityConfig holds the ClientIP affinity's timeout.
type SessionAffinityConfig struct {
	ClientIP *ClientIPConfig `json:"clientIP,omitempty"`
}

// ClientIPConfig is the ClientIP affinity's timeout.
type ClientIPConfig struct {
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty"`
}

// ServiceStatus is what the cloud's load balancer controller reports (DaemonLab has none: a
// LoadBalancer service stays <pending>).
type ServiceStatus struct {
	LoadBalancer LoadBalancerStatus `json:"loadBalancer,omitempty"`
	Conditions   []Condition        `json:"conditions,omitempty"`
}

// LoadBalancerStatus lists a load balancer's ingress points.
type LoadBalancerStatus struct {
	Ingress []LoadBalancerIngress `json:"ingress,omitempty"`
}

// LoadBalancerIngress is one ingress point of a load balancer.
type LoadBalancerIngress struct {
	IP       string       `json:"ip,omitempty"`
	Hostname string       `json:"hostname,omitempty"`
	IPMode   *string      `json:"ipMode,omitempty"`
	Ports    []PortStatus `json:"ports,omitempty"`
}

// PortStatus is the state of one port of a load balancer.
type PortStatus struct {
	Port     int32   `json:"port"`
	Protocol string  `json:"protocol"`
	Error    *string `json:"error,omitempty"`
}

// defaultClientIPServiceAffinitySeconds is DefaultClientIPServiceAffinitySeconds, 3 hours, and
// maxClientIPServiceAffinitySeconds MaxClientIPServiceAffinitySeconds, a day.
const (
	defaultClientIPServiceAffinitySeconds = 10800
	maxClientIPServiceAffinitySeconds     = 86400
)

// defaultService follows SetDefaults_Service (pkg/apis/core/v1/defaults.go):
//
//  1. sessionAffinity defaults to None, which drops sessionAffinityConfig; ClientIP gets a
//     timeout of 10800 s unless one is given.
//  2. type defaults to ClusterIP.
//  3. Each port's protocol defaults to TCP, and its targetPort (0 or "") to its port.
//  4. An externally accessible service (NodePort, LoadBalancer, or ClusterIP with
//     externalIPs) gets externalTrafficPolicy Cluster.
//  5. internalTrafficPolicy defaults to Cluster for ClusterIP, NodePort and LoadBalancer.
//  6. A LoadBalancer gets allocateLoadBalancerNodePorts true, and its ingress IPs ipMode VIP.
//
// ipFamilyPolicy and ipFamilies are not defaults: the registry sets them as it allocates the
// cluster IPs (see apiserver).
func defaultService(s *Service) {
	spec := &s.Spec
	if spec.SessionAffinity == "" {
		spec.SessionAffinity = "None"
	}
	switch spec.SessionAffinity {
	case "None":
		spec.SessionAffinityConfig = nil
	case "ClientIP":
		if c := spec.SessionAffinityConfig; c == nil || c.ClientIP == nil || c.ClientIP.TimeoutSeconds == nil {
			spec.SessionAffinityConfig = &SessionAffinityConfig{ClientIP: &ClientIPConfig{TimeoutSeconds: ptr[int32](defaultClientIPServiceAffinitySeconds)}}
		}
	}
	if spec.Type == "" {
		spec.Type = ServiceTypeClusterIP
	}
	for i := range spec.Ports {
		p := &spec.Ports[i]
		if p.Protocol == "" {
			p.Protocol = "TCP"
		}
		if p.TargetPort == FromInt(0) || p.TargetPort == FromString("") {
			p.TargetPort = FromInt(p.Port)
		}
	}
	if s.ExternallyAccessible() && spec.ExternalTrafficPolicy == "" {
		spec.ExternalTrafficPolicy = "Cluster"
	}
	if spec.InternalTrafficPolicy == nil && (spec.Type == ServiceTypeClusterIP || spec.Type == ServiceTypeNodePort || spec.Type == ServiceTypeLoadBalancer) {
		spec.InternalTrafficPolicy = ptr("Cluster")
	}
	if spec.Type == ServiceTypeLoadBalancer {
		if spec.AllocateLoadBalancerNodePorts == nil {
			spec.AllocateLoadBalancerNodePorts = ptr(true)
		}
		for i, ing := range s.Status.LoadBalancer.Ingress {
			if ing.IP != "" && ing.IPMode == nil {
				s.Status.LoadBalancer.Ingress[i].IPMode = ptr("VIP")
			}
		}
	}
}

// ExternallyAccessible is apiservice.ExternallyAccessible (pkg/api/service/util.go): a
// LoadBalancer, a NodePort, or a ClusterIP with external IPs.
func (s *Service) ExternallyAccessible() bool {
	t := s.Spec.Type
	return t == ServiceTypeLoadBalancer || t == ServiceTypeNodePort || t == ServiceTypeClusterIP && len(s.Spec.ExternalIPs) > 0
}

// NeedsHealthCheck is apiservice.NeedsHealthCheck: a LoadBalancer whose external traffic
// policy is Local.
func (s *Service) NeedsHealthCheck() bool {
	return s.Spec.Type == ServiceTypeLoadBalancer && s.Spec.ExternalTrafficPolicy == "Local"
}

// Headless reports whether the service's only cluster IP is None (isHeadlessService).
func (s *Service) Headless() bool {
	return len(s.Spec.ClusterIPs) == 1 && s.Spec.ClusterIPs[0] == ClusterIPNone
}

// The values ValidateService accepts, sorted as sets.List gives them in its messages.
var (
	supportedServiceTypes         = []ServiceType{ServiceTypeClusterIP, ServiceTypeExternalName, ServiceTypeLoadBalancer, ServiceTypeNodePort}
	supportedSessionAffinities    = []string{"ClientIP", "None"}
	supportedTrafficPolicies      = []string{"Cluster", "Local"}
	supportedServiceIPFamilies    = []string{IPv4Protocol, IPv6Protocol}
	supportedIPFamilyPolicies     = []string{IPFamilyPolicyPreferDualStack, IPFamilyPolicyRequireDualStack, IPFamilyPolicySingleStack}
	supportedTrafficDistributions = []string{"PreferClose", "PreferSameZone", "PreferSameNode"}
)

// servicePortKey is the internal core.ServicePort with only protocol and port (or node port)
// set, as ValidateService reports a duplicate: printed as JSON of the internal type, whose
// fields carry no tags.
type servicePortKey struct {
	Name        string
	Protocol    string
	AppProtocol *string
	Port        int32
	TargetPort  IntOrString
	NodePort    int32
}

// validateService is ValidateServiceCreate (pkg/apis/core/validation/validation.go) for what
// a learner writes, in upstream's order:
//
//  1. The name is a DNS-1123 label (RelaxedServiceNameValidation, GA in v1.37).
//  2. Ports are required but for a headless or ExternalName service.
//  3. A headless service may not be NodePort or LoadBalancer; an ExternalName one has no
//     cluster IPs, IP families or policy, and needs externalName, a DNS-1123 subdomain.
//  4. Each port (validateServicePort): a name when there are several, a DNS-1123 label and
//     unique; port 1-65535; protocol TCP, UDP or SCTP; targetPort a port number or a port
//     name (IsValidPortName).
//  5. The selector is a set of labels; sessionAffinity None or ClientIP (its timeout 1-86400 s,
//     no config with None).
//  6. The cluster IPs (ValidateServiceClusterIPsRelatedFields): clusterIPs[0] is clusterIP,
//     at most two, valid IPs (None first and alone), IP families IPv4 or IPv6 without
//     repeats, a known ipFamilyPolicy.
//  7. type is one of the four; a ClusterIP service has no nodePort; no two ports share a
//     protocol and node port, or a protocol and port.
//  8. allocateLoadBalancerNodePorts only for a LoadBalancer; externalTrafficPolicy only for
//     an externally accessible service (and then Cluster or Local); healthCheckNodePort only
//     for a LoadBalancer with policy Local; internalTrafficPolicy Cluster or Local (required
//     but for ExternalName); trafficDistribution PreferClose, PreferSameZone or PreferSameNode.
//
// ExternalIPs, loadBalancerSourceRanges and loadBalancerClass are stored unchecked.
func validateService(s *Service) ErrorList {
	errs := validateObjectMeta(&s.ObjectMeta, true, IsDNS1123Label)
	spec, p := &s.Spec, NewPath("spec")
	headless := s.Headless()
	if len(spec.Ports) == 0 && !headless && spec.Type != ServiceTypeExternalName {
		errs = append(errs, Required(p.Child("ports"), ""))
	}
	switch spec.Type {
	case ServiceTypeLoadBalancer, ServiceTypeNodePort:
		if headless {
			errs = append(errs, Invalid(p.Child("clusterIPs").Index(0), spec.ClusterIPs[0], fmt.Sprintf("may not be set to 'None' for %s services", spec.Type)))
		}
	case ServiceTypeExternalName:
		for _, f := range []struct {
			name string
			set  bool
		}{{"clusterIPs", len(spec.ClusterIPs) > 0}, {"ipFamilies", len(spec.IPFamilies) > 0}, {"ipFamilyPolicy", spec.IPFamilyPolicy != nil}} {
			if f.set {
				errs = append(errs, Forbidden(p.Child(f.name), "may not be set for ExternalName services"))
			}
		}
		if cname := strings.TrimSuffix(spec.ExternalName, "."); cname != "" {
			for _, msg := range IsDNS1123Subdomain(cname) {
				errs = append(errs, Invalid(p.Child("externalName"), cname, msg))
			}
		} else {
			errs = append(errs, Required(p.Child("externalName"), ""))
		}
	}
	names := map[string]bool{}
	for i := range spec.Ports {
		errs = append(errs, validateServicePort(&spec.Ports[i], len(spec.Ports) > 1, names, p.Child("ports").Index(i))...)
	}
	if spec.Selector != nil {
		errs = append(errs, validateLabels(spec.Selector, p.Child("selector"))...)
	}
	errs = append(errs, validateEnum(spec.SessionAffinity, p.Child("sessionAffinity"), supportedSessionAffinities)...)
	switch spec.SessionAffinity {
	case "ClientIP":
		errs = append(errs, validateClientIPAffinityConfig(spec.SessionAffinityConfig, p.Child("sessionAffinityConfig"))...)
	case "None":
		if spec.SessionAffinityConfig != nil {
			errs = append(errs, Forbidden(p.Child("sessionAffinityConfig"), "must not be set when session affinity is None"))
		}
	}
	errs = append(errs, ValidateServiceClusterIPs(s)...)
	errs = append(errs, validateEnum(spec.Type, p.Child("type"), supportedServiceTypes)...)
	if spec.Type == ServiceTypeClusterIP {
		for i, port := range spec.Ports {
			if port.NodePort != 0 {
				errs = append(errs, Forbidden(p.Child("ports").Index(i).Child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
			}
		}
	}
	nodePorts := map[servicePortKey]bool{}
	for i, port := range spec.Ports {
		if port.NodePort == 0 {
			continue
		}
		key := servicePortKey{Protocol: port.Protocol, NodePort: port.NodePort}
		if nodePorts[key] {
			errs = append(errs, Duplicate(p.Child("ports").Index(i).Child("nodePort"), port.NodePort))
		}
		nodePorts[key] = true
	}
	ports := map[servicePortKey]bool{}
	for i, port := range spec.Ports {
		key := servicePortKey{Protocol: port.Protocol, Port: port.Port}
		if ports[key] {
			errs = append(errs, Duplicate(p.Child("ports").Index(i), key))
		}
		ports[key] = true
	}
	if spec.AllocateLoadBalancerNodePorts != nil && spec.Type != ServiceTypeLoadBalancer {
		errs = append(errs, Forbidden(p.Child("allocateLoadBalancerNodePorts"), "may only be used when `type` is 'LoadBalancer'"))
	}
	if spec.Type == ServiceTypeLoadBalancer && spec.AllocateLoadBalancerNodePorts == nil {
		errs = append(errs, Required(NewPath("allocateLoadBalancerNodePorts"), ""))
	}
	return append(errs, validateServiceTrafficPolicies(s)...)
}

// validateServicePort is validateServicePort (see validateService, rule 4).
func validateServicePort(sp *ServicePort, requireName bool, names map[string]bool, p *Path) ErrorList {
	var errs ErrorList
	switch {
	case requireName && sp.Name == "":
		errs = append(errs, Required(p.Child("name"), ""))
	case sp.Name != "":
		for _, msg := range IsDNS1123Label(sp.Name) {
			errs = append(errs, Invalid(p.Child("name"), sp.Name, msg))
		}
		if names[sp.Name] {
			errs = append(errs, Duplicate(p.Child("name"), sp.Name))
		}
		names[sp.Name] = true
	}
	for _, msg := range IsValidPortNum(int(sp.Port)) {
		errs = append(errs, Invalid(p.Child("port"), sp.Port, msg))
	}
	errs = append(errs, validateEnum(sp.Protocol, p.Child("protocol"), supportedPortProtocols)...)
	errs = append(errs, validatePortNumOrName(sp.TargetPort, p.Child("targetPort"))...)
	if sp.AppProtocol != nil {
		for _, msg := range IsLabelKey(*sp.AppProtocol) {
			errs = append(errs, Invalid(p.Child("appProtocol"), *sp.AppProtocol, msg))
		}
	}
	return errs
}

// validatePortNumOrName is ValidatePortNumOrName: a number 1-65535 or an IANA port name.
func validatePortNumOrName(port IntOrString, p *Path) ErrorList {
	var errs ErrorList
	if port.IsString {
		for _, msg := range IsValidPortName(port.StrVal) {
			errs = append(errs, Invalid(p, port.StrVal, msg))
		}
		return errs
	}
	for _, msg := range IsValidPortNum(int(port.IntVal)) {
		errs = append(errs, Invalid(p, int64(port.IntVal), msg))
	}
	return errs
}

// validateClientIPAffinityConfig is validateClientIPAffinityConfig: the ClientIP timeout is
// required and in (0, 86400].
func validateClientIPAffinityConfig(config *SessionAffinityConfig, p *Path) ErrorList {
	switch {
	case config == nil:
		return ErrorList{Required(p, "when session affinity type is ClientIP")}
	case config.ClientIP == nil:
		return ErrorList{Required(p.Child("clientIP"), "when session affinity type is ClientIP")}
	case config.ClientIP.TimeoutSeconds == nil:
		return ErrorList{Required(p.Child("clientIP", "timeoutSeconds"), "when session affinity type is ClientIP")}
	}
	if t := *config.ClientIP.TimeoutSeconds; t <= 0 || t > maxClientIPServiceAffinitySeconds {
		return ErrorList{Invalid(p.Child("clientIP", "timeoutSeconds"), t, fmt.Sprintf("must be greater than 0 and less than %d", maxClientIPServiceAffinitySeconds))}
	}
	return nil
}

// ValidateServiceClusterIPs is ValidateServiceClusterIPsRelatedFields for a new service (the
// registry runs it before it allocates, see validateService rule 6):
//
//  1. ExternalName services are checked elsewhere.
//  2. A set clusterIP needs clusterIPs starting with it ("first value must match
//     `clusterIP`"); an unset one needs clusterIPs unset.
//  3. ipFamilies are IPv4 or IPv6, each once; ipFamilyPolicy is a known one.
//  4. clusterIPs are IP addresses (strictly: no leading 0s, no IPv4-mapped IPv6), or None
//     first and alone; at most 2. With an invalid one the checks stop there.
//  5. Two cluster IPs are one of each family; each matches its ipFamilies entry.
func ValidateServiceClusterIPs(s *Service) ErrorList {
	spec := &s.Spec
	if spec.Type == ServiceTypeExternalName {
		return nil
	}
	var errs ErrorList
	ipsPath, familiesPath := NewPath("spec", "clusterIPs"), NewPath("spec", "ipFamilies")
	if spec.ClusterIP != "" {
		if len(spec.ClusterIPs) == 0 {
			errs = append(errs, Required(ipsPath, ""))
		} else if spec.ClusterIPs[0] != spec.ClusterIP {
			errs = append(errs, Invalid(ipsPath, spec.ClusterIPs, "first value must match `clusterIP`"))
		}
	} else if len(spec.ClusterIPs) != 0 {
		errs = append(errs, Invalid(ipsPath, spec.ClusterIPs, "must be empty when `clusterIP` is not specified"))
	}
	seen := map[string]bool{}
	for i, family := range spec.IPFamilies {
		if !slices.Contains(supportedServiceIPFamilies, family) {
			errs = append(errs, NotSupported(familiesPath.Index(i), family, supportedServiceIPFamilies))
		}
		if seen[family] {
			errs = append(errs, Duplicate(familiesPath.Index(i), family))
		}
		seen[family] = true
	}
	if policy := spec.IPFamilyPolicy; policy != nil && !slices.Contains(supportedIPFamilyPolicies, *policy) {
		errs = append(errs, NotSupported(NewPath("spec", "ipFamilyPolicy"), *policy, supportedIPFamilyPolicies))
	}
	invalid := false
	for i, ip := range spec.ClusterIPs {
		if i == 0 && ip == ClusterIPNone {
			if len(spec.ClusterIPs) > 1 {
				invalid = true
				errs = append(errs, Invalid(ipsPath, spec.ClusterIPs, "'None' must be the first and only value"))
			}
			continue
		}
		if msgs := IsValidIP(ip); len(msgs) > 0 {
			invalid = true
			for _, msg := range msgs {
				errs = append(errs, Invalid(ipsPath.Index(i), ip, msg))
			}
		}
	}
	if len(spec.ClusterIPs) > 2 {
		errs = append(errs, Invalid(ipsPath, spec.ClusterIPs, "may only hold up to 2 values"))
	}
	if invalid {
		return errs
	}
	if len(spec.ClusterIPs) > 1 && IPFamilyOf(spec.ClusterIPs[0]) == IPFamilyOf(spec.ClusterIPs[1]) {
		errs = append(errs, Invalid(ipsPath, spec.ClusterIPs, "may specify no more than one IP for each IP family"))
	}
	if !s.Headless() {
		for i, ip := range spec.ClusterIPs {
			if i >= len(spec.IPFamilies) {
				break
			}
			if family := IPFamilyOf(ip); spec.IPFamilies[i] != family && slices.Contains(supportedServiceIPFamilies, spec.IPFamilies[i]) {
				errs = append(errs, Invalid(ipsPath.Index(i), ip, fmt.Sprintf("expected an %s value as indicated by `ipFamilies[%d]`", spec.IPFamilies[i], i)))
			}
		}
	}
	return errs
}

// IsValidIP returns why value is not an IP address as the strict legacy check (parseIP,
// StrictIPCIDRValidation on since v1.36) words it.
func IsValidIP(value string) []string {
	addr, err := netip.ParseAddr(value)
	if err == nil {
		if addr.Is4In6() {
			return []string{"must not be an IPv4-mapped IPv6 address"}
		}
		if addr.Zone() == "" {
			return nil
		}
	}
	if sloppyIPv4(value) {
		return []string{"must not have leading 0s"}
	}
	return []string{"must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"}
}

// sloppyIPv4 reports whether value is an IPv4 address with leading zeros, which
// netutils.ParseIPSloppy reads and netip does not.
func sloppyIPv4(value string) bool {
	parts := strings.Split(value, ".")
	if len(parts) != 4 {
		return false
	}
	for _, part := range parts {
		if part == "" || len(part) > 3 || strings.Trim(part, "0123456789") != "" {
			return false
		}
		n := 0
		for _, d := range part {
			n = n*10 + int(d-'0')
		}
		if n > 255 {
			return false
		}
	}
	return true
}

// IPFamilyOf names an address's family, IPv4 or IPv6 ("" for what is no address).
func IPFamilyOf(ip string) string {
	addr, err := netip.ParseAddr(ip)
	switch {
	case err != nil:
		return ""
	case addr.Is4():
		return IPv4Protocol
	}
	return IPv6Protocol
}

// validateServiceTrafficPolicies is validateServiceExternalTrafficPolicy,
// validateServiceInternalTrafficFieldsValue and validateServiceTrafficDistribution (see
// validateService, rule 8).
func validateServiceTrafficPolicies(s *Service) ErrorList {
	var errs ErrorList
	spec, p := &s.Spec, NewPath("spec")
	if !s.ExternallyAccessible() {
		if spec.ExternalTrafficPolicy != "" {
			errs = append(errs, Invalid(p.Child("externalTrafficPolicy"), spec.ExternalTrafficPolicy, "may only be set for externally-accessible services"))
		}
	} else {
		errs = append(errs, validateEnum(spec.ExternalTrafficPolicy, p.Child("externalTrafficPolicy"), supportedTrafficPolicies)...)
	}
	switch {
	case !s.NeedsHealthCheck() && spec.HealthCheckNodePort != 0:
		errs = append(errs, Invalid(p.Child("healthCheckNodePort"), spec.HealthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
	case s.NeedsHealthCheck() && spec.HealthCheckNodePort == 0:
		errs = append(errs, Required(p.Child("healthCheckNodePort"), ""))
	case s.NeedsHealthCheck():
		for _, msg := range IsValidPortNum(int(spec.HealthCheckNodePort)) {
			errs = append(errs, Invalid(p.Child("healthCheckNodePort"), spec.HealthCheckNodePort, msg))
		}
	}
	if spec.InternalTrafficPolicy == nil {
		if spec.Type == ServiceTypeClusterIP || spec.Type == ServiceTypeNodePort || spec.Type == ServiceTypeLoadBalancer {
			errs = append(errs, Required(p.Child("internalTrafficPolicy"), ""))
		}
	} else if !slices.Contains(supportedTrafficPolicies, *spec.InternalTrafficPolicy) {
		errs = append(errs, NotSupported(p.Child("internalTrafficPolicy"), *spec.InternalTrafficPolicy, supportedTrafficPolicies))
	}
	if d := spec.TrafficDistribution; d != nil && !slices.Contains(supportedTrafficDistributions, *d) {
		errs = append(errs, NotSupported(p.Child("trafficDistribution"), *d, supportedTrafficDistributions))
	}
	return errs
}

// ServiceSelects reports whether a service's selector selects a pod's labels: a service
// without a selector selects nothing (its endpoints are kept by someone else).
func ServiceSelects(s *Service, labels map[string]string) bool {
	if len(s.Spec.Selector) == 0 {
		return false
	}
	return SelectorFromSet(s.Spec.Selector).Matches(labels)
}
