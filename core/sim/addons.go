package sim

import (
	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// KubeDNSService is the kube-dns service of kubeadm's CoreDNS addon
// (cmd/kubeadm/app/phases/addons/dns/manifests.go CoreDNSService): in kube-system, labelled
// k8s-app=kube-dns, kubernetes.io/cluster-service="true" and kubernetes.io/name=CoreDNS, with
// prometheus.io/port "9153" and prometheus.io/scrape "true", cluster IP 10.96.0.10 (the
// tenth address of the service subnet, GetDNSIP), ports dns 53/UDP, dns-tcp 53/TCP and
// metrics 9153/TCP to the same ports of the pods labelled k8s-app=kube-dns.
func KubeDNSService() *api.Service {
	svc := &api.Service{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"}}
	svc.Name, svc.Namespace = "kube-dns", "kube-system"
	svc.Labels = map[string]string{"k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS"}
	svc.Annotations = map[string]string{"prometheus.io/port": "9153", "prometheus.io/scrape": "true"}
	svc.Spec = api.ServiceSpec{
		ClusterIP: apiserver.KubeDNSServiceIP,
		Ports: []api.ServicePort{
			{Name: "dns", Port: 53, Protocol: "UDP", TargetPort: api.FromInt(53)},
			{Name: "dns-tcp", Port: 53, Protocol: "TCP", TargetPort: api.FromInt(53)},
			{Name: "metrics", Port: 9153, Protocol: "TCP", TargetPort: api.FromInt(9153)},
		},
		Selector: map[string]string{"k8s-app": "kube-dns"},
	}
	return svc
}

// CreateKubeDNS creates the kube-dns service as `kubeadm init` applies its CoreDNS addon (the
// default cluster has the service without the coredns Deployment; a kubeadm cluster has both).
func CreateKubeDNS(c *cluster.Cluster) error {
	_, err := apiserver.Create(c, KubeDNSService(), apiserver.Options{})
	return err
}
