package upstreamtest

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// feature is one part of a scheduling problem the generator can put in a case. Each is switched
// on as DaemonLab's scheduler learns it (see defaultFeatures).
type feature string

const (
	// featResources: requests per container (cpu only, memory only, both, none, or limits alone,
	// which defaulting copies), init containers and sidecars with requests, varied allocatable
	// cpu, memory and pods (NodeResourcesFit, NodeResourcesBalancedAllocation).
	featResources feature = "resources"
	// featTaints: NoSchedule, PreferNoSchedule and NoExecute taints, cordoned nodes and the
	// pod's tolerations (NodeUnschedulable, TaintToleration).
	featTaints feature = "taints"
	// featNodeAffinity: nodeSelector, required node affinity (metadata.name fields too) and
	// preferred node affinity (NodeAffinity).
	featNodeAffinity feature = "nodeaffinity"
	// featReplicaSets: pods owned by ReplicaSets, the incoming pod too: the default spreading
	// constraints (PodTopologySpread's system defaults).
	featReplicaSets feature = "replicasets"
	// featZones: topology.kubernetes.io/zone on most nodes (2–3 zones), so the default
	// spreading's zone term counts, and terms and constraints may use the zone as their key.
	featZones feature = "zones"
	// featServices: Services selecting pods, which the default spreading's selector includes.
	featServices feature = "services"
	// featStatefulSets: pods owned by StatefulSets (default spreading's selector).
	featStatefulSets feature = "statefulsets"
	// featPodAffinity: the incoming pod's required and preferred pod affinity and anti-affinity
	// (namespaces, namespaceSelector, matchLabelKeys, mismatchLabelKeys) (InterPodAffinity).
	featPodAffinity feature = "podaffinity"
	// featExistingAffinity: existing pods with pod affinity and anti-affinity of their own:
	// their required anti-affinity filters, their terms score (InterPodAffinity).
	featExistingAffinity feature = "existingaffinity"
	// featSpread: explicit topologySpreadConstraints (PodTopologySpread).
	featSpread feature = "spread"
	// featHostPorts: host ports on existing pods and on the incoming pod (NodePorts).
	featHostPorts feature = "hostports"
	// featLifecycle: existing pods that have finished (Succeeded, Failed), which the scheduler
	// does not see, and pods being deleted, which PodTopologySpread does not count.
	featLifecycle feature = "lifecycle"
	// featExtended: an extended resource (example.com/gpu) on the gpu nodes and in some
	// containers' requests, and ephemeral-storage on some nodes and in some requests
	// (NodeResourcesFit).
	featExtended feature = "extended"
)

// allFeatures are every feature, in the order they are listed.
var allFeatures = []feature{featResources, featTaints, featNodeAffinity, featReplicaSets, featZones,
	featServices, featStatefulSets, featPodAffinity, featExistingAffinity, featSpread, featHostPorts, featLifecycle, featExtended}

type features map[feature]bool

func (f features) String() string {
	var on []string
	for _, x := range allFeatures {
		if f[x] {
			on = append(on, string(x))
		}
	}
	return strings.Join(on, ",")
}

// parseFeatures reads a comma-separated list of features; "all" is every one.
func parseFeatures(s string) (features, error) {
	f := features{}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == "":
		case name == "all":
			for _, x := range allFeatures {
				f[x] = true
			}
		case slices.Contains(allFeatures, feature(name)):
			f[feature(name)] = true
		default:
			return nil, fmt.Errorf("unknown feature %q (known: all, %v)", name, allFeatures)
		}
	}
	return f, nil
}

// schedulingCase is one scheduling problem: a small cluster and a pending pod, as the objects a
// client creates (no defaults applied: each side's API server applies its own).
type schedulingCase struct {
	seed         uint64
	namespaces   []*corev1.Namespace // besides the API server's own: default, kube-system, …
	nodes        []*corev1.Node
	replicaSets  []*appsv1.ReplicaSet
	statefulSets []*appsv1.StatefulSet
	services     []*corev1.Service
	pods         []*corev1.Pod // bound to nodes: Running, or with featLifecycle finished
	terminating  []int         // the pods (indexes in pods) a client deleted, still on their nodes
	pod          *corev1.Pod   // pending: the one to schedule
}

// objects are the case's objects in the order a client creates them.
func (c *schedulingCase) objects() []any {
	return slices.Concat(anys(c.namespaces), anys(c.nodes), anys(c.replicaSets), anys(c.statefulSets), anys(c.services), anys(c.pods), []any{c.pod})
}

func anys[T any](s []T) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// The generator's vocabulary: few values, so that selectors, terms and ports often meet.
var (
	zones      = []string{"zone-a", "zone-b", "zone-c"}
	apps       = []string{"web", "db", "cache"}
	tiers      = []string{"front", "back"}
	tracks     = []string{"stable", "canary"}
	cpus       = []string{"100m", "250m", "500m", "1", "1500m"}
	memories   = []string{"64Mi", "128Mi", "256Mi", "512Mi", "1Gi"}
	hostPorts  = []int32{80, 8080}
	labelKeys  = []string{"app", "tier", "track"}
	teamLabels = []map[string]string{{"team": "a", "env": "prod"}, {"team": "b", "env": "dev"}}
	nodeTaints = []corev1.Taint{
		{Key: "dedicated", Value: "gpu", Effect: corev1.TaintEffectNoSchedule},
		{Key: "dedicated", Value: "infra", Effect: corev1.TaintEffectNoExecute},
		{Key: "spot", Value: "true", Effect: corev1.TaintEffectPreferNoSchedule},
		{Key: "spot", Effect: corev1.TaintEffectNoSchedule},
		{Key: "maintenance", Effect: corev1.TaintEffectPreferNoSchedule},
		{Key: "node.kubernetes.io/not-ready", Effect: corev1.TaintEffectNoExecute},
	}
)

const (
	hostnameKey = "kubernetes.io/hostname"
	zoneKey     = "topology.kubernetes.io/zone"
	gpu         = corev1.ResourceName("example.com/gpu")
)

// generator draws a case from one seed.
type generator struct {
	r    *rand.Rand
	f    features
	uids int
}

// generate draws the case of a seed with the given features:
//
//  1. the namespace default and up to two labelled team namespaces;
//  2. 2–6 nodes (see node);
//  3. up to one ReplicaSet or StatefulSet per app and namespace (see owners), and up to one
//     Service per namespace;
//  4. 0–12 pods bound to any of the nodes, with their own affinity, finished or being deleted
//     as the features say (see pod);
//  5. the pending pod, with what only it has (see incoming).
func generate(seed uint64, f features) *schedulingCase {
	g := &generator{r: rand.New(rand.NewPCG(seed, 0x5eed)), f: f}
	c := &schedulingCase{seed: seed}
	namespaces := []string{"default"}
	for i := range g.r.IntN(3) {
		name := []string{"team-a", "team-b"}[i]
		namespaces = append(namespaces, name)
		c.namespaces = append(c.namespaces, &corev1.Namespace{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: maps.Clone(teamLabels[i])},
		})
	}
	for i := range 2 + g.r.IntN(5) {
		c.nodes = append(c.nodes, g.node(fmt.Sprintf("node-%d", i+1)))
	}
	owners := g.owners(c, namespaces)
	if f[featServices] {
		for _, ns := range namespaces {
			for i := range g.r.IntN(2) {
				c.services = append(c.services, g.service(ns, i))
			}
		}
	}
	for i := range g.r.IntN(13) {
		p := g.pod(fmt.Sprintf("pod-%d", i+1), g.pick(namespaces), owners)
		p.Spec.NodeName = g.pickNode(c.nodes)
		if f[featExistingAffinity] && g.chance(0.4) {
			p.Spec.Affinity = g.podAffinity(namespaces)
		}
		p.Status.Phase = corev1.PodRunning
		if f[featLifecycle] {
			switch n := g.r.IntN(100); {
			case n < 6:
				p.Status.Phase = corev1.PodSucceeded
			case n < 12:
				p.Status.Phase = corev1.PodFailed
			case n < 22:
				c.terminating = append(c.terminating, len(c.pods))
			}
		}
		c.pods = append(c.pods, p)
	}
	c.pod = g.pod("incoming", g.pick(namespaces), owners)
	g.incoming(c.pod, c.nodes, namespaces)
	return c
}

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

func pickOf[T any](g *generator, from []T) T { return from[g.r.IntN(len(from))] }

func (g *generator) pick(from []string) string { return pickOf(g, from) }

func (g *generator) pickNode(nodes []*corev1.Node) string { return pickOf(g, nodes).Name }

func (g *generator) uid() types.UID {
	g.uids++
	return types.UID(fmt.Sprintf("00000000-0000-4000-8000-%012d", g.uids))
}

// node is a node as its kubelet registers it (hostname label, capacity and allocatable), with
// labels, taints and a cordon drawn by the features.
func (g *generator) node(name string) *corev1.Node {
	n := &corev1.Node{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{hostnameKey: name, "kubernetes.io/os": "linux"}},
	}
	if g.f[featZones] && g.chance(0.85) {
		n.Labels[zoneKey] = g.pick(zones[:2+g.r.IntN(2)])
	}
	if g.chance(0.5) {
		n.Labels["disktype"] = g.pick([]string{"ssd", "hdd"})
	}
	if g.chance(0.25) {
		n.Labels["gpu"] = "true"
	}
	cpu, memory, pods := "4", "8Gi", "110"
	if g.f[featResources] {
		cpu, memory = g.pick([]string{"1500m", "2", "4", "8"}), g.pick([]string{"2Gi", "3Gi", "4Gi", "8Gi"})
		if g.chance(0.2) {
			pods = g.pick([]string{"2", "3"})
		}
	}
	list := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse(cpu),
		corev1.ResourceMemory: resource.MustParse(memory),
		corev1.ResourcePods:   resource.MustParse(pods),
	}
	if g.f[featExtended] {
		if n.Labels["gpu"] == "true" {
			list[gpu] = resource.MustParse(g.pick([]string{"1", "2"}))
		}
		if g.chance(0.6) {
			list[corev1.ResourceEphemeralStorage] = resource.MustParse(g.pick([]string{"1Gi", "10Gi"}))
		}
	}
	n.Status.Capacity, n.Status.Allocatable = list, list.DeepCopy()
	if g.f[featTaints] {
		for range pickOf(g, []int{0, 0, 0, 0, 1, 1, 1, 2}) {
			t := pickOf(g, nodeTaints)
			if !slices.ContainsFunc(n.Spec.Taints, func(have corev1.Taint) bool { return have.Key == t.Key && have.Effect == t.Effect }) {
				n.Spec.Taints = append(n.Spec.Taints, t)
			}
		}
		if g.chance(0.1) { // cordoned: the node lifecycle controller taints it too, mostly already
			n.Spec.Unschedulable = true
			if g.chance(0.7) {
				n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule})
			}
		}
	}
	return n
}

// owner is a controller whose pods the generator makes: its kind, namespace, name, uid and the
// app label its selector matches.
type owner struct {
	kind, namespace, name, app string
	uid                        types.UID
}

// owners draws the case's ReplicaSets and StatefulSets: at most one per app and namespace.
func (g *generator) owners(c *schedulingCase, namespaces []string) []owner {
	var out []owner
	if !g.f[featReplicaSets] && !g.f[featStatefulSets] {
		return nil
	}
	for _, ns := range namespaces {
		for _, app := range apps {
			if !g.chance(0.4) {
				continue
			}
			kind := "ReplicaSet"
			if g.f[featStatefulSets] && (!g.f[featReplicaSets] || g.chance(0.4)) {
				kind = "StatefulSet"
			}
			o := owner{kind: kind, namespace: ns, name: app + "-" + strings.ToLower(kind[:1]) + "s", app: app, uid: g.uid()}
			meta := metav1.ObjectMeta{Name: o.name, Namespace: ns, UID: o.uid}
			selector := &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
			if g.chance(0.3) {
				selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{app}}}}
			}
			template := corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
			}
			replicas := int32(2)
			switch kind {
			case "ReplicaSet":
				c.replicaSets = append(c.replicaSets, &appsv1.ReplicaSet{
					TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
					ObjectMeta: meta,
					Spec:       appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: selector, Template: template},
				})
			default:
				c.statefulSets = append(c.statefulSets, &appsv1.StatefulSet{
					TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
					ObjectMeta: meta,
					Spec:       appsv1.StatefulSetSpec{Replicas: &replicas, Selector: selector, Template: template, ServiceName: app},
				})
			}
			out = append(out, o)
		}
	}
	return out
}

// service is a Service in namespace selecting pods by app or by tier.
func (g *generator) service(namespace string, i int) *corev1.Service {
	selector := map[string]string{"app": g.pick(apps)}
	if g.chance(0.3) {
		selector = map[string]string{"tier": g.pick(tiers)}
	}
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("svc-%d", i+1), Namespace: namespace},
		Spec:       corev1.ServiceSpec{Selector: selector, Ports: []corev1.ServicePort{{Port: 80}}},
	}
}

// pod is a pod with labels from the vocabulary, one or two containers with requests drawn by
// featResources, a host port by featHostPorts, and an owner among those of its namespace.
func (g *generator) pod(name, namespace string, owners []owner) *corev1.Pod {
	p := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: map[string]string{}},
	}
	if g.chance(0.85) {
		p.Labels["app"] = g.pick(apps)
	}
	if g.chance(0.5) {
		p.Labels["tier"] = g.pick(tiers)
	}
	if g.chance(0.3) {
		p.Labels["track"] = g.pick(tracks)
	}
	var mine []owner
	for _, o := range owners {
		if o.namespace == namespace {
			mine = append(mine, o)
		}
	}
	if len(mine) > 0 && g.chance(0.6) {
		o := pickOf(g, mine)
		p.Labels["app"] = o.app
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: o.kind, Name: o.name, UID: o.uid, Controller: ptrTo(true), BlockOwnerDeletion: ptrTo(true)}}
	}
	for i := range 1 + g.r.IntN(2) {
		c := corev1.Container{Name: fmt.Sprintf("c%d", i+1), Image: "nginx"}
		if g.f[featResources] {
			c.Resources = g.resources()
		}
		p.Spec.Containers = append(p.Spec.Containers, c)
	}
	if g.f[featResources] && g.chance(0.2) {
		g.initContainer(p)
	}
	if g.f[featHostPorts] && g.chance(0.35) {
		g.hostPorts(p)
	}
	return p
}

// hostPorts gives the pod's first container one or two host ports: a number from the
// vocabulary, TCP, UDP or SCTP, on every address or one; or it puts the pod on the host's
// network, where each container port is a host port too (defaulting fills hostPort in).
func (g *generator) hostPorts(p *corev1.Pod) {
	c := &p.Spec.Containers[0]
	if g.chance(0.15) {
		p.Spec.HostNetwork = true
		c.Ports = append(c.Ports, corev1.ContainerPort{ContainerPort: pickOf(g, hostPorts)})
		return
	}
	numbers := slices.Clone(hostPorts)
	g.r.Shuffle(len(numbers), func(i, j int) { numbers[i], numbers[j] = numbers[j], numbers[i] })
	if g.chance(0.1) { // the same port twice: a duplicate unless protocol or address differ
		numbers[1] = numbers[0]
	}
	for i := range 1 + g.r.IntN(2) {
		port := corev1.ContainerPort{ContainerPort: 8000 + int32(i), HostPort: numbers[i]}
		switch n := g.r.IntN(20); {
		case n < 5:
			port.Protocol = corev1.ProtocolUDP
		case n < 6:
			port.Protocol = corev1.ProtocolSCTP
		}
		port.HostIP = g.pick([]string{"", "", "", "0.0.0.0", "127.0.0.1", "10.0.0.1"})
		c.Ports = append(c.Ports, port)
	}
}

// initContainer gives the pod an init container with requests: one that runs before the
// others, whose requests count against their sum by the larger, or a sidecar (restartPolicy
// Always), whose requests add to theirs.
func (g *generator) initContainer(p *corev1.Pod) {
	c := corev1.Container{Name: "init", Image: "busybox", Resources: g.resources()}
	if g.chance(0.5) {
		c.Name, c.RestartPolicy = "sidecar", ptrTo(corev1.ContainerRestartPolicyAlways)
	}
	p.Spec.InitContainers = append(p.Spec.InitContainers, c)
}

// resources draws one container's requests: none, cpu only, memory only or both; sometimes as
// limits alone, which the API server's defaulting copies to the requests. With featExtended,
// sometimes ephemeral-storage, and an extended resource, which is requested by its limit.
func (g *generator) resources() corev1.ResourceRequirements {
	r := g.cpuMemory()
	if !g.f[featExtended] {
		return r
	}
	if g.chance(0.2) {
		if r.Requests == nil {
			r.Requests = corev1.ResourceList{}
		}
		r.Requests[corev1.ResourceEphemeralStorage] = resource.MustParse(g.pick([]string{"500Mi", "2Gi"}))
	}
	if g.chance(0.2) {
		if r.Limits == nil {
			r.Limits = corev1.ResourceList{}
		}
		r.Limits[gpu] = resource.MustParse("1")
	}
	return r
}

func (g *generator) cpuMemory() corev1.ResourceRequirements {
	list := corev1.ResourceList{}
	switch g.r.IntN(4) {
	case 1:
		list[corev1.ResourceCPU] = resource.MustParse(g.pick(cpus))
	case 2:
		list[corev1.ResourceMemory] = resource.MustParse(g.pick(memories))
	case 3:
		list[corev1.ResourceCPU] = resource.MustParse(g.pick(cpus))
		list[corev1.ResourceMemory] = resource.MustParse(g.pick(memories))
	}
	if len(list) == 0 {
		return corev1.ResourceRequirements{}
	}
	if g.chance(0.15) {
		return corev1.ResourceRequirements{Limits: list}
	}
	return corev1.ResourceRequirements{Requests: list}
}

// incoming adds to the pending pod what only it has: node selection, tolerations, pod
// affinity and spread constraints.
func (g *generator) incoming(p *corev1.Pod, nodes []*corev1.Node, namespaces []string) {
	if g.f[featNodeAffinity] {
		g.nodeAffinity(p, nodes)
	}
	if g.f[featTaints] {
		for range g.r.IntN(4) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, g.toleration())
		}
	}
	if g.f[featPodAffinity] {
		a := g.podAffinity(namespaces)
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &corev1.Affinity{}
		}
		p.Spec.Affinity.PodAffinity, p.Spec.Affinity.PodAntiAffinity = a.PodAffinity, a.PodAntiAffinity
		if p.Spec.Affinity.NodeAffinity == nil && p.Spec.Affinity.PodAffinity == nil && p.Spec.Affinity.PodAntiAffinity == nil {
			p.Spec.Affinity = nil
		}
	}
	if g.f[featSpread] && g.chance(0.6) {
		g.spread(p)
	}
}

// nodeAffinity draws a nodeSelector, required terms (some by metadata.name) and preferred terms.
func (g *generator) nodeAffinity(p *corev1.Pod, nodes []*corev1.Node) {
	if g.chance(0.2) {
		p.Spec.NodeSelector = pickOf(g, []map[string]string{{"disktype": "ssd"}, {"gpu": "true"}, {"kubernetes.io/os": "linux"}, {zoneKey: zones[0]}, {hostnameKey: g.pickNode(nodes)}})
	}
	var na corev1.NodeAffinity
	if g.chance(0.25) {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{}
		for range 1 + g.r.IntN(2) {
			term := g.nodeSelectorTerm(nodes)
			switch n := g.r.IntN(20); {
			case n < 3: // by name alone: NodeAffinity's PreFilter narrows the nodes to these
				term = corev1.NodeSelectorTerm{}
				fallthrough
			case n < 4: // by name and by labels
				term.MatchFields = []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{g.pickNode(nodes)}}}
			}
			na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = append(na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms, term)
		}
	}
	if g.chance(0.35) {
		for range 1 + g.r.IntN(2) {
			na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution,
				corev1.PreferredSchedulingTerm{Weight: 1 + g.r.Int32N(100), Preference: g.nodeSelectorTerm(nodes)})
		}
	}
	if na.RequiredDuringSchedulingIgnoredDuringExecution != nil || na.PreferredDuringSchedulingIgnoredDuringExecution != nil {
		p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &na}
	}
}

func (g *generator) nodeSelectorTerm(nodes []*corev1.Node) corev1.NodeSelectorTerm {
	var reqs []corev1.NodeSelectorRequirement
	for range 1 + g.r.IntN(2) {
		switch g.r.IntN(5) {
		case 0:
			reqs = append(reqs, corev1.NodeSelectorRequirement{Key: "disktype", Operator: corev1.NodeSelectorOpIn, Values: []string{g.pick([]string{"ssd", "hdd"})}})
		case 1:
			reqs = append(reqs, corev1.NodeSelectorRequirement{Key: "gpu", Operator: pickOf(g, []corev1.NodeSelectorOperator{corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist})})
		case 2:
			reqs = append(reqs, corev1.NodeSelectorRequirement{Key: hostnameKey, Operator: pickOf(g, []corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn}), Values: []string{g.pickNode(nodes)}})
		case 3:
			reqs = append(reqs, corev1.NodeSelectorRequirement{Key: zoneKey, Operator: pickOf(g, []corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn}), Values: []string{g.pick(zones)}})
		default:
			reqs = append(reqs, corev1.NodeSelectorRequirement{Key: "disktype", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"hdd"}})
		}
	}
	return corev1.NodeSelectorTerm{MatchExpressions: reqs}
}

// toleration draws a toleration of one of the generator's taints (or of a cordon), by value or
// by existence, for one effect or for all.
func (g *generator) toleration() corev1.Toleration {
	if g.chance(0.1) {
		return corev1.Toleration{Key: corev1.TaintNodeUnschedulable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}
	}
	if g.chance(0.03) {
		return corev1.Toleration{Operator: corev1.TolerationOpExists} // every taint
	}
	t := pickOf(g, nodeTaints)
	tol := corev1.Toleration{Key: t.Key, Operator: corev1.TolerationOpExists}
	if t.Value != "" && g.chance(0.6) {
		tol.Operator, tol.Value = corev1.TolerationOpEqual, t.Value
	}
	if g.chance(0.6) {
		tol.Effect = pickOf(g, []corev1.TaintEffect{corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute})
	}
	return tol
}

// topologyKey is the hostname, with featZones often the zone, and rarely disktype, which only
// some nodes have.
func (g *generator) topologyKey() string {
	switch n := g.r.IntN(20); {
	case g.f[featZones] && n < 10:
		return zoneKey
	case n == 19: // a key half the nodes have
		return "disktype"
	}
	return hostnameKey
}

// labelSelector draws a selector over the pod vocabulary: by labels, by expressions, empty
// (every pod) or, rarely, nil (no pod).
func (g *generator) labelSelector(nilAllowed bool) *metav1.LabelSelector {
	switch n := g.r.IntN(20); {
	case n == 0 && nilAllowed:
		return nil
	case n == 1:
		return &metav1.LabelSelector{}
	case n < 12:
		return &metav1.LabelSelector{MatchLabels: map[string]string{"app": g.pick(apps)}}
	case n < 16:
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{g.pick(apps), g.pick(apps)}}}}
	default:
		r := metav1.LabelSelectorRequirement{Key: "tier", Operator: pickOf(g, []metav1.LabelSelectorOperator{metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist, metav1.LabelSelectorOpNotIn})}
		if r.Operator == metav1.LabelSelectorOpNotIn {
			r.Values = []string{g.pick(tiers)}
		}
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{r}}
	}
}

// podAffinityTerm draws a term: a selector, the topology key, namespaces or a
// namespaceSelector, and matchLabelKeys or mismatchLabelKeys over keys its selector leaves out.
func (g *generator) podAffinityTerm(namespaces []string) corev1.PodAffinityTerm {
	t := corev1.PodAffinityTerm{LabelSelector: g.labelSelector(true), TopologyKey: g.topologyKey()}
	switch g.r.IntN(7) {
	case 5: // both: the union of the namespaces and those the selector matches
		t.Namespaces = []string{g.pick(namespaces)}
		t.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"env": g.pick([]string{"prod", "dev"})}}
	case 0:
		t.Namespaces = []string{g.pick(namespaces)}
	case 1:
		t.Namespaces = slices.Clone(namespaces)
	case 2:
		t.NamespaceSelector = &metav1.LabelSelector{}
	case 3:
		t.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": g.pick([]string{"a", "b"})}}
	case 4:
		t.NamespaceSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "kubernetes.io/metadata.name", Operator: metav1.LabelSelectorOpIn, Values: []string{g.pick(namespaces)}}}}
	}
	if t.LabelSelector != nil && g.chance(0.3) {
		if k, ok := g.labelKey(t.LabelSelector); ok && g.chance(0.5) {
			t.MatchLabelKeys = []string{k}
		} else if ok {
			t.MismatchLabelKeys = []string{k}
		}
	}
	return t
}

// labelKey draws a pod label key for matchLabelKeys or mismatchLabelKeys: one the selector
// does not use, or rarely one it does, which the API server refuses when the merge adds it
// again (validation runs after the merge: a pod without that label passes).
func (g *generator) labelKey(s *metav1.LabelSelector) (string, bool) {
	if g.chance(0.05) {
		return g.pick(labelKeys), true
	}
	var free []string
	for _, k := range labelKeys {
		if !selectorHasKey(s, k) {
			free = append(free, k)
		}
	}
	if len(free) == 0 {
		return "", false
	}
	return g.pick(free), true
}

func selectorHasKey(s *metav1.LabelSelector, key string) bool {
	if _, ok := s.MatchLabels[key]; ok {
		return true
	}
	return slices.ContainsFunc(s.MatchExpressions, func(r metav1.LabelSelectorRequirement) bool { return r.Key == key })
}

// podAffinity draws required and preferred affinity and anti-affinity terms.
func (g *generator) podAffinity(namespaces []string) *corev1.Affinity {
	a := &corev1.Affinity{}
	var pa corev1.PodAffinity
	var anti corev1.PodAntiAffinity
	if g.chance(0.2) {
		pa.RequiredDuringSchedulingIgnoredDuringExecution = []corev1.PodAffinityTerm{g.podAffinityTerm(namespaces)}
	}
	if g.chance(0.3) {
		pa.PreferredDuringSchedulingIgnoredDuringExecution = []corev1.WeightedPodAffinityTerm{{Weight: 1 + g.r.Int32N(100), PodAffinityTerm: g.podAffinityTerm(namespaces)}}
	}
	if g.chance(0.25) {
		anti.RequiredDuringSchedulingIgnoredDuringExecution = []corev1.PodAffinityTerm{g.podAffinityTerm(namespaces)}
	}
	if g.chance(0.3) {
		anti.PreferredDuringSchedulingIgnoredDuringExecution = []corev1.WeightedPodAffinityTerm{{Weight: 1 + g.r.Int32N(100), PodAffinityTerm: g.podAffinityTerm(namespaces)}}
	}
	if pa.RequiredDuringSchedulingIgnoredDuringExecution != nil || pa.PreferredDuringSchedulingIgnoredDuringExecution != nil {
		a.PodAffinity = &pa
	}
	if anti.RequiredDuringSchedulingIgnoredDuringExecution != nil || anti.PreferredDuringSchedulingIgnoredDuringExecution != nil {
		a.PodAntiAffinity = &anti
	}
	return a
}

// spread draws one or two topologySpreadConstraints, distinct in topologyKey and
// whenUnsatisfiable, with the optional fields drawn too.
func (g *generator) spread(p *corev1.Pod) {
	for range 1 + g.r.IntN(2) {
		c := corev1.TopologySpreadConstraint{
			MaxSkew:           1 + g.r.Int32N(3),
			TopologyKey:       g.topologyKey(),
			WhenUnsatisfiable: pickOf(g, []corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}),
			LabelSelector:     g.labelSelector(true),
		}
		if slices.ContainsFunc(p.Spec.TopologySpreadConstraints, func(have corev1.TopologySpreadConstraint) bool {
			return have.TopologyKey == c.TopologyKey && have.WhenUnsatisfiable == c.WhenUnsatisfiable
		}) {
			continue
		}
		if c.LabelSelector != nil && g.chance(0.25) {
			if k, ok := g.labelKey(c.LabelSelector); ok {
				c.MatchLabelKeys = []string{k}
			}
		}
		if c.WhenUnsatisfiable == corev1.DoNotSchedule && g.chance(0.25) {
			c.MinDomains = ptrTo(1 + g.r.Int32N(4))
		}
		policies := []corev1.NodeInclusionPolicy{corev1.NodeInclusionPolicyHonor, corev1.NodeInclusionPolicyIgnore}
		if g.chance(0.3) {
			c.NodeAffinityPolicy = ptrTo(pickOf(g, policies))
		}
		if g.chance(0.3) {
			c.NodeTaintsPolicy = ptrTo(pickOf(g, policies))
		}
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, c)
	}
}

func ptrTo[T any](v T) *T { return &v }
