//go:build !(js && wasm)

// kubectl's describers need a terminal package that does not build for js/wasm; this
// differential test runs natively only.

package kubectl_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/kubectl/pkg/describe"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
)

// shifter moves every timestamp of the objects handed to upstream kubectl by a whole number
// of seconds, so that kubectl's ages (counted from the wall clock) equal DaemonLab's (counted
// from the simulated clock); absolute times in its output are moved back.
type shifter struct {
	by   time.Duration
	wall time.Time         // the wall clock's second the shift is for
	back map[string]string // shifted RFC 1123Z and RFC 3339 text -> DaemonLab's
}

// withinOneSecond runs upstream's code through f with a shifter from now, again if the wall
// clock's second changed while it ran (a loaded machine), so that its ages are DaemonLab's.
func withinOneSecond[T any](now time.Time, f func(*shifter) T) T {
	for {
		wall := time.Now().Truncate(time.Second)
		sh := &shifter{by: wall.Sub(now), wall: wall, back: map[string]string{}}
		out := f(sh)
		if time.Now().Truncate(time.Second).Equal(wall) {
			return out
		}
	}
}

func (s *shifter) shift(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = s.shift(x)
		}
	case []any:
		for i, x := range v {
			v[i] = s.shift(x)
		}
	case string:
		if t, err := time.Parse(time.RFC3339, v); err == nil && strings.HasSuffix(v, "Z") && len(v) == len("2006-01-02T15:04:05Z") {
			moved := t.Add(s.by)
			s.back[moved.Format(time.RFC1123Z)] = t.Format(time.RFC1123Z)
			s.back[moved.Format(time.RFC3339)] = v // timestamps kept as text, such as restartedAt
			return moved.Format(time.RFC3339)
		}
		if t, err := time.Parse(metav1.RFC3339Micro, v); err == nil && strings.HasSuffix(v, "Z") { // an event's eventTime
			return t.Add(s.by).Format(metav1.RFC3339Micro)
		}
	}
	return v
}

// typed converts one of DaemonLab's objects to the upstream type, timestamps shifted.
func typed[T runtime.Object](t *testing.T, s *shifter, obj any, out T) T {
	data, err := json.Marshal(obj)
	require.NoError(t, err)
	var m any
	require.NoError(t, json.Unmarshal(data, &m))
	data, err = json.Marshal(s.shift(m))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, out))
	return out
}

func (s *shifter) unshift(out string) string {
	for moved, orig := range s.back {
		out = strings.ReplaceAll(out, moved, orig)
	}
	return out
}

// upstreamDescribe runs kubectl's own describer for obj against a fake API server holding
// what that describer would find: the object, the pods it counts or lists, the node's lease,
// and the events about the object.
func upstreamDescribe(t *testing.T, s *sim.Sim, kind string, obj api.Object) string {
	time.Local = time.UTC
	return withinOneSecond(s.C.Now(), func(sh *shifter) string { return upstreamDescribeShifted(t, s, sh, kind, obj) })
}

func upstreamDescribeShifted(t *testing.T, s *sim.Sim, sh *shifter, kind string, obj api.Object) string {
	var objs []runtime.Object
	var describer describe.ResourceDescriber
	for _, p := range s.C.Pods() {
		objs = append(objs, typed(t, sh, p, &corev1.Pod{}))
	}
	// What the API server answers to describe's event searches: involvedObject kind, name,
	// namespace and uid, then for a node the same with its name as uid.
	meta := obj.GetObjectMeta()
	var queue []*corev1.EventList
	for _, uid := range []string{meta.UID, meta.Name} {
		list := &corev1.EventList{}
		for _, e := range cluster.List[*api.Event](s.C) {
			o := e.InvolvedObject
			if o.Kind == kind && o.Name == meta.Name && o.Namespace == meta.Namespace && o.UID == uid {
				list.Items = append(list.Items, *typed(t, sh, e, &corev1.Event{}))
			}
		}
		queue = append(queue, list)
	}
	switch kind {
	case "Pod":
	case "Node":
		node := obj.(*api.Node)
		objs = append(objs, typed(t, sh, obj, &corev1.Node{}))
		if m, ok := s.C.Machine(node.Name); ok {
			holder := node.Name
			renew := metav1.NewMicroTime(m.LastRenew(s.C.Now()).Add(sh.by))
			sh.back[renew.Format(time.RFC1123Z)] = renew.Add(-sh.by).Format(time.RFC1123Z)
			objs = append(objs, &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: node.Name, Namespace: "kube-node-lease"},
				Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder, RenewTime: &renew}})
		}
	case "DaemonSet":
		objs = append(objs, typed(t, sh, obj, &appsv1.DaemonSet{}))
	case "ReplicaSet":
		objs = append(objs, typed(t, sh, obj, &appsv1.ReplicaSet{}))
	case "Namespace":
		objs = append(objs, typed(t, sh, obj, &corev1.Namespace{}))
	case "PodDisruptionBudget":
		objs = append(objs, typed(t, sh, obj, &policyv1.PodDisruptionBudget{}))
	case "PriorityClass":
		objs = append(objs, typed(t, sh, obj, &schedulingv1.PriorityClass{}))
	case "Service":
		objs = append(objs, typed(t, sh, obj, &corev1.Service{}))
		for _, slice := range endpointSlices(s, obj.(*api.Service)) {
			objs = append(objs, slice)
		}
	}
	client := fake.NewClientset(objs...)
	honourFieldSelectors(client, queue)
	switch kind {
	case "Pod":
		describer = &describe.PodDescriber{Interface: client}
	case "Node":
		describer = &describe.NodeDescriber{Interface: client}
	case "DaemonSet":
		describer = &describe.DaemonSetDescriber{Interface: client}
	case "ReplicaSet":
		describer = &describe.ReplicaSetDescriber{Interface: client}
	case "Namespace":
		describer = &describe.NamespaceDescriber{Interface: client}
	case "PodDisruptionBudget":
		describer = &describe.PodDisruptionBudgetDescriber{Interface: client}
	case "Service":
		describer = &describe.ServiceDescriber{Interface: client}
	case "PriorityClass":
		describer = &describe.PriorityClassDescriber{Interface: client}
	}
	out, err := describer.Describe(meta.Namespace, meta.Name, describe.DescriberSettings{ShowEvents: true, ChunkSize: 500})
	require.NoError(t, err)
	return sh.unshift(out)
}

// endpointSlices are the EndpointSlices the API server's endpoint reconciler (for the
// kubernetes service) and the EndpointSlice controller would keep for a service, built here
// one per pod: the API servers' addresses on https 6443; for a service with a selector (not
// ExternalName), a placeholder without ports, and a slice for every selected pod with an IP
// that has not finished, holding the ports its target ports resolve to, ready when the pod is
// Ready and not being deleted.
func endpointSlices(s *sim.Sim, svc *api.Service) []runtime.Object {
	ready := func(b bool) discoveryv1.EndpointConditions { return discoveryv1.EndpointConditions{Ready: &b} }
	slice := func(i int, ports []discoveryv1.EndpointPort, eps ...discoveryv1.Endpoint) *discoveryv1.EndpointSlice {
		return &discoveryv1.EndpointSlice{
			ObjectMeta:  metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", svc.Name, i), Namespace: svc.Namespace, Labels: map[string]string{discoveryv1.LabelServiceName: svc.Name}},
			AddressType: discoveryv1.AddressTypeIPv4, Ports: ports, Endpoints: eps,
		}
	}
	if svc.Namespace == "default" && svc.Name == "kubernetes" {
		name, port := "https", int32(apiserver.APIServerSecurePort)
		var eps []discoveryv1.Endpoint
		for _, addr := range apiserver.APIServerAddresses(s.C) {
			eps = append(eps, discoveryv1.Endpoint{Addresses: []string{addr}, Conditions: ready(true)})
		}
		if len(eps) == 0 {
			return nil
		}
		return []runtime.Object{slice(0, []discoveryv1.EndpointPort{{Name: &name, Port: &port}}, eps...)}
	}
	if len(svc.Spec.Selector) == 0 || svc.Spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	out := []runtime.Object{slice(0, nil)}
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	for i, p := range s.C.Pods() {
		if p.Namespace != svc.Namespace || !sel.Matches(labels.Set(p.Labels)) || p.Status.PodIP == "" || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		var ports []discoveryv1.EndpointPort
		for _, sp := range svc.Spec.Ports {
			number := sp.TargetPort.IntVal
			if sp.TargetPort.IsString {
				number = 0
				for _, c := range p.Spec.Containers {
					for _, cp := range c.Ports {
						if cp.Name == sp.TargetPort.StrVal && cp.Protocol == sp.Protocol {
							number = cp.ContainerPort
						}
					}
				}
				if number == 0 {
					continue
				}
			}
			name := sp.Name
			ports = append(ports, discoveryv1.EndpointPort{Name: &name, Port: &number})
		}
		out = append(out, slice(i+1, ports, discoveryv1.Endpoint{Addresses: []string{p.Status.PodIP}, Conditions: ready(api.IsPodReady(p) && p.DeletionTimestamp == nil)}))
	}
	return out
}

// honourFieldSelectors makes the fake API server filter pods by the field selectors describe
// sends (the fake ignores them), and answer describe's event searches from eventQueue.
func honourFieldSelectors(client *fake.Clientset, eventQueue []*corev1.EventList) {
	for _, resource := range []string{"pods", "events"} {
		client.PrependReactor("list", resource, func(action k8stesting.Action) (bool, runtime.Object, error) {
			list := action.(k8stesting.ListAction)
			sel := list.GetListRestrictions().Fields
			gvr := list.GetResource()
			switch gvr.Resource {
			case "pods":
				obj, err := client.Tracker().List(gvr, corev1.SchemeGroupVersion.WithKind("Pod"), list.GetNamespace())
				if err != nil {
					return true, nil, err
				}
				pods := obj.(*corev1.PodList)
				var keep []corev1.Pod
				for _, p := range pods.Items {
					if sel.Matches(fields.Set{"spec.nodeName": p.Spec.NodeName, "status.phase": string(p.Status.Phase), "metadata.name": p.Name, "metadata.namespace": p.Namespace}) &&
						list.GetListRestrictions().Labels.Matches(labels.Set(p.Labels)) {
						keep = append(keep, p)
					}
				}
				pods.Items = keep
				return true, pods, nil
			default:
				// The fake's EventExpansion sends no field selector, so the answers come from
				// a queue: describe asks by the object's uid, then (nodes) by its name as uid.
				next := &corev1.EventList{}
				if len(eventQueue) > 0 {
					next, eventQueue = eventQueue[0], eventQueue[1:]
				}
				return true, next, nil
			}
		})
	}
}

// TestDescribeIsKubectlsDescribe plays every scenario and describes every pod, node,
// DaemonSet, ReplicaSet, namespace, PodDisruptionBudget, Service and PriorityClass both with
// DaemonLab and with kubectl's own describers (k8s.io/kubectl/pkg/describe, against a fake API
// server holding the same objects): the outputs must be identical, character for character.
func TestDescribeIsKubectlsDescribe(t *testing.T) {
	kinds := map[string]string{"Pod": "pods", "Node": "nodes", "DaemonSet": "daemonsets", "ReplicaSet": "replicasets", "Namespace": "namespaces", "PodDisruptionBudget": "poddisruptionbudgets", "Service": "services", "PriorityClass": "priorityclasses"}
	forEachScenario(t, func(t *testing.T, s *sim.Sim) {
		for kind, resource := range kinds {
			for _, obj := range s.C.ListKind(kind) {
				meta := obj.GetObjectMeta()
				args := []string{"describe", resource, meta.Name}
				if meta.Namespace != "" {
					args = append(args, "-n", meta.Namespace)
				}
				got := kubectl.Run(s, args, "")
				require.Empty(t, got.Err, "%v", args)
				assert.Equal(t, upstreamDescribe(t, s, kind, obj), got.Out, "%v", args)
			}
		}
	})
}
