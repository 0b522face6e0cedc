package upstreamtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	toolscache "k8s.io/client-go/tools/cache"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	configv1 "k8s.io/kube-scheduler/config/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/core"
	kubefeatures "k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	schedulerapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
	"k8s.io/kubernetes/plugin/pkg/admission/defaulttolerationseconds"

	// The API server's defaulting of core/v1 and apps/v1 objects, registered in legacyscheme.
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
)

// outcome is what one scheduling attempt decided, as either side tells it, and what its API
// server stored of the pods.
type outcome struct {
	pods     []string                    // each pod's fields the scheduler reads, as stored (see schedulingFields)
	verdicts map[string]verdict          // by node: why it failed the filters; absent when it passed
	feasible []string                    // the nodes that passed, sorted
	message  string                      // FitError's message when none passed
	best     []string                    // the feasible nodes of the highest total, sorted
	scores   map[string]map[string]int64 // by node, by plugin: the weighted score
	totals   map[string]int64            // by node: the sum of its scores
	weights  map[string]int64            // by plugin
}

// verdict is one node's filter result: the plugin that failed it and its reasons.
type verdict struct {
	plugin  string
	reasons []string
}

// upstreamProfile is kube-scheduler v1.37.2's default profile, as scheduler.New makes it when
// no configuration is given (applyDefaultProfile): the v1 KubeSchedulerConfiguration defaulted
// with the feature gates at their defaults, converted to the internal configuration.
var upstreamProfile = sync.OnceValues(func() (*schedulerapi.KubeSchedulerProfile, error) {
	metrics.Register()
	var versioned configv1.KubeSchedulerConfiguration
	scheme.Scheme.Default(&versioned)
	var cfg schedulerapi.KubeSchedulerConfiguration
	if err := scheme.Scheme.Convert(&versioned, &cfg, nil); err != nil {
		return nil, err
	}
	if len(cfg.Profiles) != 1 {
		return nil, fmt.Errorf("the default configuration has %d profiles", len(cfg.Profiles))
	}
	return &cfg.Profiles[0], nil
})

// stored is a case's objects as kube-apiserver v1.37.2 stores them.
type stored struct {
	namespaces   []*corev1.Namespace
	nodes        []*corev1.Node
	replicaSets  []*appsv1.ReplicaSet
	statefulSets []*appsv1.StatefulSet
	services     []*corev1.Service
	created      []*corev1.Pod // every bound pod
	pods         []*corev1.Pod // those the scheduler's cache holds
	pod          *corev1.Pod
}

// deletedAt is when the terminating pods were deleted: the scheduler reads only that they were.
var deletedAt = metav1.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// systemNamespaces are the namespaces kube-apiserver creates as it starts.
var systemNamespaces = []string{"default", "kube-node-lease", "kube-public", "kube-system"}

// store passes a case's objects through what kube-apiserver does to a create that matters to
// the scheduler:
//
//  1. Defaulting (legacyscheme: the SetObjectDefaults_* of core/v1 and apps/v1): requests from
//     limits, a node's allocatable from its capacity, a namespace's kubernetes.io/metadata.name
//     label, and the rest.
//  2. For pods, the DefaultTolerationSeconds admission plugin (the not-ready and unreachable
//     NoExecute tolerations for 300s), then the pod strategy's PrepareForCreate
//     (pkg/registry/core/pod/strategy.go: matchLabelKeys and mismatchLabelKeys merged into the
//     terms' and constraints' selectors), then its Validate: a pod it refuses is an error.
//  3. A bound pod's phase is what its kubelet reported since: a finished one (Succeeded,
//     Failed) is left out, as the scheduler's informer lists pods with
//     status.phase!=Succeeded,status.phase!=Failed (scheduler.go: NewInformerFactory); a pod a
//     client deleted has its deletionTimestamp and grace period (30s), its containers stopping.
//
// Priority admission is left out: without PriorityClasses it sets priority 0, which the filters
// and scores do not read.
func store(c *schedulingCase) (*stored, error) {
	s := &stored{}
	for _, name := range systemNamespaces {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
		legacyscheme.Scheme.Default(ns)
		s.namespaces = append(s.namespaces, ns)
	}
	for _, ns := range c.namespaces {
		s.namespaces = append(s.namespaces, defaulted(ns))
	}
	for _, n := range c.nodes {
		s.nodes = append(s.nodes, defaulted(n))
	}
	for _, rs := range c.replicaSets {
		s.replicaSets = append(s.replicaSets, defaulted(rs))
	}
	for _, ss := range c.statefulSets {
		s.statefulSets = append(s.statefulSets, defaulted(ss))
	}
	for _, svc := range c.services {
		s.services = append(s.services, defaulted(svc))
	}
	for i, p := range c.pods {
		created, err := createPod(p)
		if err != nil {
			return nil, err
		}
		created.Status.Phase = p.Status.Phase // what its kubelet reported since
		s.created = append(s.created, created)
		if created.Status.Phase == corev1.PodSucceeded || created.Status.Phase == corev1.PodFailed {
			continue // the scheduler's informer lists pods with status.phase!=Succeeded,Failed
		}
		if slices.Contains(c.terminating, i) {
			created.DeletionTimestamp, created.DeletionGracePeriodSeconds = &deletedAt, ptrTo[int64](30)
		}
		s.pods = append(s.pods, created)
	}
	var err error
	s.pod, err = createPod(c.pod)
	return s, err
}

func defaulted[T runtime.Object](obj T) T {
	out := obj.DeepCopyObject().(T)
	legacyscheme.Scheme.Default(out)
	return out
}

var tolerationSeconds = sync.OnceValue(func() *defaulttolerationseconds.Plugin {
	p := defaulttolerationseconds.NewDefaultTolerationSeconds()
	p.InspectFeatureGates(utilfeature.DefaultFeatureGate)
	return p
})

// createPod is what kube-apiserver does to a pod it creates (see store).
func createPod(p *corev1.Pod) (*corev1.Pod, error) {
	ctx := context.Background()
	versioned := defaulted(p)
	var internal core.Pod
	if err := legacyscheme.Scheme.Convert(versioned, &internal, nil); err != nil {
		return nil, err
	}
	attrs := admission.NewAttributesRecord(&internal, nil, core.Kind("Pod").WithVersion("v1"), internal.Namespace, internal.Name,
		core.Resource("pods").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	if err := tolerationSeconds().Admit(ctx, attrs, nil); err != nil {
		return nil, err
	}
	pod.Strategy.PrepareForCreate(ctx, &internal)
	if errs := pod.Strategy.Validate(ctx, &internal); len(errs) > 0 {
		return nil, fmt.Errorf("pod %s/%s is invalid: %v", internal.Namespace, internal.Name, errs.ToAggregate())
	}
	out := &corev1.Pod{}
	if err := legacyscheme.Scheme.Convert(&internal, out, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// explainUpstream runs one scheduling attempt of s.pod through kube-scheduler's framework with
// the default profile, as schedulePod does up to selectHost:
//
//  1. The framework is built as scheduler.New builds a profile's: the in-tree registry, the
//     informers of a fake clientset, whose stores hold the case's Namespaces, Services,
//     ReplicaSets and StatefulSets (and no ReplicationControllers), the snapshot of its nodes
//     and bound pods.
//  2. findNodesThatFitPod: PreFilter; a rejection there is every node's status; nodes a
//     PreFilterResult leaves out "didn't satisfy plugin(s)"; the rest are filtered one by one
//     (every node: fewer than 100). There are no nominated pods, so the filters run once.
//  3. No node passes: FitError's message, without PostFilter (no preemption sentence).
//  4. One passes: it is the placement, unscored.
//  5. More: PreScore and Score (RunScorePlugins: normalized, weighted), and the nodes of the
//     highest total are the ones selectHost draws from.
func explainUpstream(s *stored) (*outcome, error) {
	profile, err := upstreamProfile()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	snapshot := cache.NewSnapshot(s.pods, s.nodes)
	draManager, err := newDRAManager(ctx, client, factory)
	if err != nil {
		return nil, err
	}
	f, err := frameworkruntime.NewFramework(ctx, frameworkplugins.NewInTreeRegistry(), profile,
		frameworkruntime.WithClientSet(client),
		frameworkruntime.WithInformerFactory(factory),
		frameworkruntime.WithSnapshotSharedLister(snapshot),
		frameworkruntime.WithSharedDRAManager(draManager),
		frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(factory.Storage().V1().CSINodes().Lister())),
	)
	if err != nil {
		return nil, err
	}
	if err := fill(factory, s); err != nil {
		return nil, err
	}
	out := &outcome{pods: schedulingFields(append(anys(s.created), s.pod)), verdicts: map[string]verdict{}, weights: map[string]int64{}}
	for _, p := range slices.Concat(profile.Plugins.MultiPoint.Enabled, profile.Plugins.Score.Enabled) {
		if p.Weight > 0 {
			out.weights[p.Name] = int64(p.Weight)
		}
	}
	state := framework.NewCycleState()
	all, err := snapshot.NodeInfos().List()
	if err != nil {
		return nil, err
	}
	diagnosis := framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()}
	feasible, leftOutBy, err := filterUpstream(ctx, f, state, s.pod, all, &diagnosis)
	if err != nil {
		return nil, err
	}
	for _, n := range all {
		name := n.Node().Name
		if slices.ContainsFunc(feasible, func(ni fwk.NodeInfo) bool { return ni.Node().Name == name }) {
			out.feasible = append(out.feasible, name)
			continue
		}
		st := diagnosis.NodeToStatus.Get(name)
		v := verdict{plugin: st.Plugin(), reasons: st.Reasons()}
		if v.plugin == "" {
			v.plugin = leftOutBy
		}
		out.verdicts[name] = v
	}
	slices.Sort(out.feasible)
	switch len(feasible) {
	case 0:
		fitErr := &framework.FitError{Pod: s.pod, NumAllNodes: len(all), Diagnosis: diagnosis}
		out.message = fitErr.Error()
		return out, nil
	case 1:
		out.best = out.feasible
		return out, nil
	}
	if st := f.RunPreScorePlugins(ctx, state, s.pod, feasible); !st.IsSuccess() {
		return nil, st.AsError()
	}
	scores, st := f.RunScorePlugins(ctx, state, s.pod, feasible)
	if !st.IsSuccess() {
		return nil, st.AsError()
	}
	out.scores, out.totals = map[string]map[string]int64{}, map[string]int64{}
	top := int64(-1)
	for _, ns := range scores {
		out.scores[ns.Name], out.totals[ns.Name] = map[string]int64{}, ns.TotalScore
		for _, ps := range ns.Scores {
			out.scores[ns.Name][ps.Name] = ps.Score
		}
		switch {
		case ns.TotalScore > top:
			top, out.best = ns.TotalScore, []string{ns.Name}
		case ns.TotalScore == top:
			out.best = append(out.best, ns.Name)
		}
	}
	slices.Sort(out.best)
	return out, nil
}

// fill puts the case's objects in the stores of the informers the plugins list them from, as
// the informers would after their first list, without starting them: no goroutine, no poll.
func fill(factory informers.SharedInformerFactory, s *stored) error {
	add := func(inf toolscache.SharedIndexInformer, obj any) error { return inf.GetIndexer().Add(obj) }
	var err error
	for _, o := range s.namespaces {
		err = errors.Join(err, add(factory.Core().V1().Namespaces().Informer(), o))
	}
	for _, o := range s.services {
		err = errors.Join(err, add(factory.Core().V1().Services().Informer(), o))
	}
	for _, o := range s.replicaSets {
		err = errors.Join(err, add(factory.Apps().V1().ReplicaSets().Informer(), o))
	}
	for _, o := range s.statefulSets {
		err = errors.Join(err, add(factory.Apps().V1().StatefulSets().Informer(), o))
	}
	return err
}

// newDRAManager is the DynamicResources plugin's manager as scheduler.New makes it (the gate is
// on by default): its claims, slices and device classes, none of which the cases have.
func newDRAManager(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (fwk.SharedDRAManager, error) {
	logger := klog.FromContext(ctx)
	claims := assumecache.NewAssumeCache(logger, factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	opts := resourceslicetracker.Options{
		EnableDeviceTaintRules:   utilfeature.DefaultFeatureGate.Enabled(kubefeatures.DRADeviceTaintRules),
		EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(kubefeatures.DRAConsumableCapacity),
		SliceInformer:            factory.Resource().V1().ResourceSlices(),
		KubeClient:               client,
	}
	if opts.EnableDeviceTaintRules {
		opts.TaintInformer = factory.Resource().V1().DeviceTaintRules()
	}
	tracker, err := resourceslicetracker.StartTracker(ctx, opts)
	if err != nil {
		return nil, err
	}
	return dynamicresources.NewDRAManager(ctx, claims, tracker, factory), nil
}

// filterUpstream is findNodesThatFitPod for a pod with no nominated node (see explainUpstream).
// It also returns the plugins whose PreFilterResult left nodes out ("NodeAffinity", or
// "NodeAffinity+…" when several did): the status of those nodes names none, its reason does.
func filterUpstream(ctx context.Context, f framework.Framework, state fwk.CycleState, p *corev1.Pod, all []fwk.NodeInfo, diagnosis *framework.Diagnosis) (feasible []fwk.NodeInfo, leftOutBy string, err error) {
	preRes, s, unschedulable := f.RunPreFilterPlugins(ctx, state, p)
	diagnosis.UnschedulablePlugins = unschedulable
	leftOutBy = strings.Join(sorted(unschedulable.UnsortedList()), "+")
	if !s.IsSuccess() {
		if !s.IsRejected() {
			return nil, "", s.AsError()
		}
		diagnosis.NodeToStatus.SetAbsentNodesStatus(s)
		diagnosis.PreFilterMsg = s.Message()
		diagnosis.AddPluginStatus(s)
		return nil, leftOutBy, nil
	}
	nodes := all
	if !preRes.AllNodes() {
		nodes = nil
		for _, n := range all {
			if preRes.NodeNames.Has(n.Node().Name) {
				nodes = append(nodes, n)
			}
		}
		diagnosis.NodeToStatus.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable,
			fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sorted(unschedulable.UnsortedList()))))
	}
	for _, n := range nodes {
		st := f.RunFilterPlugins(ctx, state, p, n)
		switch {
		case st.IsSuccess():
			feasible = append(feasible, n)
		case st.IsRejected():
			diagnosis.NodeToStatus.Set(n.Node().Name, st)
			diagnosis.AddPluginStatus(st)
		default:
			return nil, "", st.AsError()
		}
	}
	return feasible, leftOutBy, nil
}

// podFieldsScheduled are the fields of a pod's spec the default profile reads.
var podFieldsScheduled = []string{"nodeName", "nodeSelector", "affinity", "tolerations", "topologySpreadConstraints", "containers", "initContainers", "overhead", "hostNetwork", "resources"}

// schedulingFields writes, for each pod, its namespace, name, labels and podFieldsScheduled of
// its spec (of each container only its resources and ports) as JSON: what both API servers
// must store alike for both schedulers to see the same pod, defaults, admission and the
// matchLabelKeys merge included.
func schedulingFields(pods []any) []string {
	var out []string
	for _, p := range pods {
		data, err := json.Marshal(p)
		if err != nil {
			out = append(out, err.Error())
			continue
		}
		var doc struct {
			Metadata struct {
				Namespace, Name string
				Labels          map[string]string
			}
			Spec map[string]any
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			out = append(out, err.Error())
			continue
		}
		kept := map[string]any{"namespace": doc.Metadata.Namespace, "name": doc.Metadata.Name, "labels": doc.Metadata.Labels}
		for _, f := range podFieldsScheduled {
			if v, ok := doc.Spec[f]; ok {
				kept[f] = v
			}
		}
		for _, f := range []string{"containers", "initContainers"} {
			containers, _ := kept[f].([]any)
			for i, c := range containers {
				c := c.(map[string]any)
				containers[i] = map[string]any{"resources": c["resources"], "ports": c["ports"]}
			}
		}
		data, _ = json.Marshal(kept)
		out = append(out, string(data))
	}
	return out
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}
