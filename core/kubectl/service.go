package kubectl

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

// serviceColumns are printService's (pkg/printers/internalversion/printers.go): the first
// cluster IP or <none>, the external IP (getServiceExternalIP), the ports (makePortString, or
// <none>) and, with -o wide, the selector.
var serviceColumns = []column[*api.Service]{
	{header: "NAME", cell: func(s *api.Service, _ time.Time) string { return s.Name }},
	{header: "TYPE", cell: func(s *api.Service, _ time.Time) string { return string(s.Spec.Type) }},
	{header: "CLUSTER-IP", cell: func(s *api.Service, _ time.Time) string {
		if len(s.Spec.ClusterIPs) > 0 {
			return s.Spec.ClusterIPs[0]
		}
		return "<none>"
	}},
	{header: "EXTERNAL-IP", cell: func(s *api.Service, _ time.Time) string { return serviceExternalIP(s) }},
	{header: "PORT(S)", cell: func(s *api.Service, _ time.Time) string {
		if len(s.Spec.Ports) == 0 {
			return "<none>"
		}
		return servicePorts(s.Spec.Ports)
	}},
	{header: "AGE", cell: func(s *api.Service, now time.Time) string { return age(s.CreationTimestamp, now) }},
	{header: "SELECTOR", wide: true, cell: func(s *api.Service, _ time.Time) string { return api.FormatLabels(s.Spec.Selector) }},
}

// serviceExternalIP is getServiceExternalIP:
//
//  1. ClusterIP and NodePort: the external IPs joined by commas, or <none>.
//  2. LoadBalancer: the load balancer's ingress IPs (or host names), sorted and unique, then
//     the external IPs; <pending> when there are none (DaemonLab has no cloud to provision a
//     load balancer, so its ingress is only what a manifest's status says — which the API
//     server drops on create).
//  3. ExternalName: the external name.
//
// Without -o wide kubectl cuts the ingress list at 16 characters (loadBalancerWidth); a list
// that long needs a load balancer DaemonLab cannot have.
func serviceExternalIP(s *api.Service) string {
	switch s.Spec.Type {
	case api.ServiceTypeClusterIP, api.ServiceTypeNodePort:
		if len(s.Spec.ExternalIPs) > 0 {
			return strings.Join(s.Spec.ExternalIPs, ",")
		}
		return "<none>"
	case api.ServiceTypeLoadBalancer:
		seen := map[string]bool{}
		var ips []string
		for _, ing := range s.Status.LoadBalancer.Ingress {
			addr := firstNonEmpty(ing.IP, ing.Hostname)
			if addr != "" && !seen[addr] {
				seen[addr] = true
				ips = append(ips, addr)
			}
		}
		slices.Sort(ips)
		ips = append(ips, s.Spec.ExternalIPs...)
		if len(ips) == 0 {
			return "<pending>"
		}
		return strings.Join(ips, ",")
	case api.ServiceTypeExternalName:
		return s.Spec.ExternalName
	}
	return "<unknown>"
}

// servicePorts is makePortString: PORT/PROTOCOL, or PORT:NODEPORT/PROTOCOL, joined by commas.
func servicePorts(ports []api.ServicePort) string {
	pieces := make([]string, len(ports))
	for i, p := range ports {
		pieces[i] = fmt.Sprintf("%d/%s", p.Port, p.Protocol)
		if p.NodePort > 0 {
			pieces[i] = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, p.Protocol)
		}
	}
	return strings.Join(pieces, ",")
}

// describeService is kubectl's describeService (pkg/describe/describe.go): name, namespace,
// labels, annotations, selector, type, IP family policy and families, IP and IPs, then what
// is set of the external IPs, the load balancer IP, the external name and the ingress; for
// each port its name (<unset>), port, target port, app protocol, node port and endpoints;
// then session affinity, the traffic policies, the health-check node port, the source ranges,
// the traffic distribution and the events.
func describeService(s *sim.Sim, obj api.Object, events bool) string {
	svc := obj.(*api.Service)
	spec := &svc.Spec
	endpoints := serviceEndpoints(s.C, svc)
	return tabbed(func(w describeWriter) {
		w.write(0, "Name:\t%s\n", svc.Name)
		w.write(0, "Namespace:\t%s\n", svc.Namespace)
		labelsMultiline(w, "Labels", svc.Labels)
		annotationsMultiline(w, "Annotations", svc.Annotations)
		w.write(0, "Selector:\t%s\n", api.FormatLabels(spec.Selector))
		w.write(0, "Type:\t%s\n", spec.Type)
		if spec.IPFamilyPolicy != nil {
			w.write(0, "IP Family Policy:\t%s\n", *spec.IPFamilyPolicy)
		}
		w.write(0, "IP Families:\t%s\n", orNone(strings.Join(spec.IPFamilies, ",")))
		w.write(0, "IP:\t%s\n", spec.ClusterIP)
		w.write(0, "IPs:\t%s\n", orNone(strings.Join(spec.ClusterIPs, ",")))
		if len(spec.ExternalIPs) > 0 {
			w.write(0, "External IPs:\t%s\n", strings.Join(spec.ExternalIPs, ","))
		}
		if spec.LoadBalancerIP != "" {
			w.write(0, "Desired LoadBalancer IP:\t%s\n", spec.LoadBalancerIP)
		}
		if spec.ExternalName != "" {
			w.write(0, "External Name:\t%s\n", spec.ExternalName)
		}
		if ing := svc.Status.LoadBalancer.Ingress; len(ing) > 0 {
			list := make([]string, len(ing))
			for i, in := range ing {
				list[i] = in.Hostname
				if in.IP != "" {
					list[i] = in.IP
					if in.IPMode != nil {
						list[i] += " (" + *in.IPMode + ")"
					}
				}
			}
			w.write(0, "LoadBalancer Ingress:\t%s\n", strings.Join(list, ", "))
		}
		for _, sp := range spec.Ports {
			name := sp.Name
			if name == "" {
				name = "<unset>"
			}
			w.write(0, "Port:\t%s\t%d/%s\n", name, sp.Port, sp.Protocol)
			w.write(0, "TargetPort:\t%s/%s\n", sp.TargetPort, sp.Protocol)
			if sp.AppProtocol != nil {
				w.write(0, "AppProtocol:\t%s\n", *sp.AppProtocol)
			}
			if sp.NodePort != 0 {
				w.write(0, "NodePort:\t%s\t%d/%s\n", name, sp.NodePort, sp.Protocol)
			}
			w.write(0, "Endpoints:\t%s\n", endpoints.format(sp.Name))
		}
		w.write(0, "Session Affinity:\t%s\n", spec.SessionAffinity)
		if spec.ExternalTrafficPolicy != "" {
			w.write(0, "External Traffic Policy:\t%s\n", spec.ExternalTrafficPolicy)
		}
		if spec.InternalTrafficPolicy != nil {
			w.write(0, "Internal Traffic Policy:\t%s\n", *spec.InternalTrafficPolicy)
		}
		if spec.HealthCheckNodePort != 0 {
			w.write(0, "HealthCheck NodePort:\t%d\n", spec.HealthCheckNodePort)
		}
		if len(spec.LoadBalancerSourceRanges) > 0 {
			w.write(0, "LoadBalancer Source Ranges:\t%s\n", strings.Join(spec.LoadBalancerSourceRanges, ","))
		}
		if spec.TrafficDistribution != nil {
			w.write(0, "Traffic Distribution:\t%s\n", *spec.TrafficDistribution)
		}
		if events {
			describeEvents(w, eventsAbout(s.C, svc, false), s.C.Now())
		}
	})
}

// endpoint is one address of a service's endpoint slices, for one port (by its name).
type endpoint struct {
	port  string // the service port's name
	addr  string // IP:port
	ready bool
}

// endpointSlices are a service's endpoints as its EndpointSlices would hold them; sliced
// reports whether it has any slice at all.
type endpointSlices struct {
	sliced    bool
	endpoints []endpoint
}

// serviceEndpoints computes what the EndpointSlices of a service hold, which DaemonLab does not
// store:
//
//  1. The kubernetes service's are the API servers' (apiserver.APIServerAddresses) on port
//     "https" 6443, ready.
//  2. Any other service without a selector, or of type ExternalName, has no slice.
//  3. A service with a selector has one even when it selects nothing (the EndpointSlice
//     controller's placeholder). Its endpoints are the pods it selects, in name order, that
//     have an IP and are not Succeeded or Failed (ShouldPodBeInEndpoints, terminating ones
//     included), for every port whose target port the pod resolves (FindPort: a number as it
//     is, a name by the containers' ports of that name and protocol); an endpoint is ready when
//     the pod is Ready and not terminating, or the service publishes not-ready addresses.
func serviceEndpoints(c *cluster.Cluster, svc *api.Service) endpointSlices {
	if apiserver.IsKubernetesService(svc) {
		var es endpointSlices
		for _, addr := range apiserver.APIServerAddresses(c) {
			es.endpoints = append(es.endpoints, endpoint{"https", hostPort(addr, apiserver.APIServerSecurePort), true})
		}
		es.sliced = len(es.endpoints) > 0
		return es
	}
	if len(svc.Spec.Selector) == 0 || svc.Spec.Type == api.ServiceTypeExternalName {
		return endpointSlices{}
	}
	es := endpointSlices{sliced: true}
	for _, pod := range cluster.List[*api.Pod](c) {
		if pod.Namespace != svc.Namespace || !api.ServiceSelects(svc, pod.Labels) || pod.Status.PodIP == "" ||
			pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
			continue
		}
		ready := svc.Spec.PublishNotReadyAddresses || api.IsPodReady(pod) && pod.DeletionTimestamp == nil
		for _, sp := range svc.Spec.Ports {
			if port, ok := findPort(pod, sp); ok {
				es.endpoints = append(es.endpoints, endpoint{sp.Name, hostPort(pod.Status.PodIP, port), ready})
			}
		}
	}
	return es
}

// findPort is podutil.FindPort: the pod's port a service port's target port names.
func findPort(pod *api.Pod, sp api.ServicePort) (int, bool) {
	if !sp.TargetPort.IsString {
		return int(sp.TargetPort.IntVal), true
	}
	for _, ctr := range pod.Spec.Containers {
		for _, p := range ctr.Ports {
			if p.Name == sp.TargetPort.StrVal && p.Protocol == sp.Protocol {
				return int(p.ContainerPort), true
			}
		}
	}
	return 0, false
}

// format is formatEndpointSlices for one port's name: <none> without a slice; else the ready
// endpoints, the first three joined by commas and "+ N more..." for the rest — where kubectl
// counts "more" from the fourth endpoint met, ready or not.
func (es endpointSlices) format(port string) string {
	if !es.sliced {
		return "<none>"
	}
	const max = 3
	var list []string
	more, count := false, 0
	for _, e := range es.endpoints {
		if e.port != port {
			continue
		}
		if len(list) == max {
			more = true
		}
		if !e.ready {
			continue
		}
		if !more {
			list = append(list, e.addr)
		}
		count++
	}
	if more {
		return fmt.Sprintf("%s + %d more...", strings.Join(list, ","), count-max)
	}
	return strings.Join(list, ",")
}

// hostPort is an endpoint's address and port as net.JoinHostPort writes them (an IPv6 address
// in brackets); net itself is not linked into the page: on js/wasm it brings a network stack
// of its own, some 400 KB.
func hostPort(addr string, port int) string {
	if strings.Contains(addr, ":") {
		addr = "[" + addr + "]"
	}
	return addr + ":" + strconv.Itoa(port)
}
