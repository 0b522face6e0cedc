package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const svcHead = `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: default
spec:
`

func decodeService(t *testing.T, spec string) *Service {
	ms, err := Decode([]byte(svcHead + indent(spec)))
	require.NoError(t, err)
	require.Len(t, ms, 1)
	svc, ok := ms[0].Object.(*Service)
	require.True(t, ok)
	return svc
}

// TestServiceDefaults pins SetDefaults_Service (pkg/apis/core/v1/defaults.go): sessionAffinity
// None, type ClusterIP, protocol TCP, targetPort = port, internalTrafficPolicy Cluster,
// externalTrafficPolicy Cluster for what is reachable from outside, allocateLoadBalancerNodePorts
// for a LoadBalancer, the ClientIP timeout; no IP families (the registry sets them).
func TestServiceDefaults(t *testing.T) {
	cases := []struct {
		name string
		spec string
		want string // the spec's JSON after defaulting
	}{
		{"a bare port", "ports: [{port: 80}]",
			`{"ports":[{"protocol":"TCP","port":80,"targetPort":80}],"type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster"}`},
		{"a named target port stays", "ports: [{port: 80, targetPort: http, protocol: UDP}]",
			`{"ports":[{"protocol":"UDP","port":80,"targetPort":"http"}],"type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster"}`},
		{"targetPort 0 is the port", "ports: [{port: 8080, targetPort: 0}]",
			`{"ports":[{"protocol":"TCP","port":8080,"targetPort":8080}],"type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster"}`},
		{"a NodePort gets externalTrafficPolicy", "type: NodePort\nports: [{port: 80}]",
			`{"ports":[{"protocol":"TCP","port":80,"targetPort":80}],"type":"NodePort","sessionAffinity":"None","externalTrafficPolicy":"Cluster","internalTrafficPolicy":"Cluster"}`},
		{"a LoadBalancer allocates node ports", "type: LoadBalancer\nports: [{port: 80}]",
			`{"ports":[{"protocol":"TCP","port":80,"targetPort":80}],"type":"LoadBalancer","sessionAffinity":"None","externalTrafficPolicy":"Cluster","allocateLoadBalancerNodePorts":true,"internalTrafficPolicy":"Cluster"}`},
		{"ExternalName has no internal traffic policy", "type: ExternalName\nexternalName: example.com",
			`{"type":"ExternalName","sessionAffinity":"None","externalName":"example.com"}`},
		{"ClientIP gets three hours", "sessionAffinity: ClientIP\nports: [{port: 80}]",
			`{"ports":[{"protocol":"TCP","port":80,"targetPort":80}],"type":"ClusterIP","sessionAffinity":"ClientIP","sessionAffinityConfig":{"clientIP":{"timeoutSeconds":10800}},"internalTrafficPolicy":"Cluster"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			svc := decodeService(t, tc.spec)
			Default(svc)
			got, err := json.Marshal(svc.Spec)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
		})
	}
}

// TestValidateServiceMessages pins ValidateServiceCreate, validateServicePort and
// ValidateServiceClusterIPsRelatedFields (pkg/apis/core/validation/validation.go) as the API
// server words them (JSON values, v1.34+).
func TestValidateServiceMessages(t *testing.T) {
	cases := []struct {
		name string
		spec string
		want []string
	}{
		{"valid", "ports: [{port: 80}]\nselector: {app: web}", nil},
		{"no ports", "selector: {app: web}", []string{"spec.ports: Required value"}},
		{"a headless service needs none", "clusterIP: None\nclusterIPs: [None]", nil},
		{"a port out of range", "ports: [{port: 70000}]", []string{"spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive", "spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive"}},
		{"several ports need names", "ports: [{port: 80}, {name: b, port: 81}]", []string{"spec.ports[0].name: Required value"}},
		{"a port name is a DNS label", "ports: [{name: Web, port: 80}]", []string{`spec.ports[0].name: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`}},
		{"names are unique", "ports: [{name: a, port: 80}, {name: a, port: 81}]", []string{`spec.ports[1].name: Duplicate value: "a"`}},
		{"a protocol", "ports: [{port: 80, protocol: HTTP}]", []string{`spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`}},
		{"a target port name", "ports: [{port: 80, targetPort: http--2}]", []string{`spec.ports[0].targetPort: Invalid value: "http--2": must not contain consecutive hyphens`}},
		{"a numeric target port name", "ports: [{port: 80, targetPort: \"8080\"}]", []string{`spec.ports[0].targetPort: Invalid value: "8080": must contain at least one letter (a-z)`}},
		{"selector labels", "ports: [{port: 80}]\nselector: {app: -web}", []string{`spec.selector: Invalid value: "-web": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
		{"a type", "type: Internal\nports: [{port: 80}]", []string{`spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"`}},
		{"no node port on a ClusterIP", "ports: [{port: 80, nodePort: 30080}]", []string{"spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"}},
		{"the same port twice", "ports: [{name: a, port: 80}, {name: b, port: 80}]", []string{`spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}`}},
		{"the same port over two protocols", "ports: [{name: a, port: 53, protocol: UDP}, {name: b, port: 53}]", nil},
		{"a bad cluster IP", "ports: [{port: 80}]\nclusterIP: 10.96.0.300\nclusterIPs: [10.96.0.300]", []string{`spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`}},
		{"leading zeros", "ports: [{port: 80}]\nclusterIP: 10.96.0.010\nclusterIPs: [10.96.0.010]", []string{`spec.clusterIPs[0]: Invalid value: "10.96.0.010": must not have leading 0s`}},
		{"clusterIPs must start with clusterIP", "ports: [{port: 80}]\nclusterIP: 10.96.0.20\nclusterIPs: [10.96.0.21]", []string{"spec.clusterIPs: Invalid value: [\"10.96.0.21\"]: first value must match `clusterIP`"}},
		{"a headless NodePort", "type: NodePort\nclusterIP: None\nclusterIPs: [None]\nports: [{port: 80}]", []string{`spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`}},
		{"an ExternalName needs its name", "type: ExternalName", []string{"spec.externalName: Required value"}},
		{"session affinity", "sessionAffinity: Sticky\nports: [{port: 80}]", []string{`spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"`}},
		{"internal traffic policy", "internalTrafficPolicy: Node\nports: [{port: 80}]", []string{`spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"`}},
		{"external traffic policy on a ClusterIP", "externalTrafficPolicy: Local\nports: [{port: 80}]", []string{`spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			svc := decodeService(t, tc.spec)
			Default(svc)
			var got []string
			for _, e := range Validate(svc) {
				got = append(got, e.Error())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestServiceNamesAreDNSLabels: RelaxedServiceNameValidation (GA and locked in v1.37) makes a
// service's name a DNS-1123 label (apimachineryvalidation.NameIsDNSLabel), so "1web" is valid
// and "web.x" is not.
func TestServiceNamesAreDNSLabels(t *testing.T) {
	for name, valid := range map[string]bool{"1web": true, "web": true, "web.x": false, "Web": false} {
		svc := decodeService(t, "ports: [{port: 80}]")
		svc.Name = name
		Default(svc)
		assert.Equal(t, valid, len(Validate(svc)) == 0, name)
	}
}
