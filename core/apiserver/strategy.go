package apiserver

import (
	"maps"
	"reflect"
	"slices"
	"strconv"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// strategy is what a kind's registry does to a write, as its rest strategy does upstream
// (pkg/registry/<group>/<kind>/strategy.go). Validate is api.Validate for every kind, and
// Canonicalize is empty upstream for every kind DaemonLab serves, so neither is a field here.
type strategy struct {
	// generation: metadata.generation starts at 1 and counts the writes that change the spec
	// (the workloads' PrepareForCreate and PrepareForUpdate, and the pod's: updatePodGeneration).
	generation bool
	// status: the kind has a status subresource: a write of the object keeps the stored status,
	// and a write of the status keeps the stored spec.
	status bool
	// create, if set, does the rest of the kind's PrepareForCreate.
	create func(obj api.Object)
	// update, if set, does the rest of the kind's PrepareForUpdate (after status and
	// generation).
	update func(obj, old api.Object)
	// validateUpdate, if set, adds the update-only rules (ValidateUpdate): immutable fields.
	validateUpdate func(obj, old api.Object) api.ErrorList
	// updateRulesOnly: validateUpdate is the whole of an update's validation, as the kind's
	// ValidateUpdate does not run the create's rules again (PriorityClass's).
	updateRulesOnly bool
	// allocate, if set, is the registry's BeginCreate and BeginUpdate (old nil on a create): it
	// runs before the strategy and validation, and may take what the cluster hands out.
	allocate func(c *cluster.Cluster, obj, old api.Object, o Options) *StatusError
	// statusKeepsLabels: a write of the status keeps the stored labels too (the Deployment's
	// status strategy; the others take the writer's metadata as it comes).
	statusKeepsLabels bool
	// refuseDelete, if set, is why the kind's storage refuses to delete an object (its REST
	// Delete), or "": the delete is Forbidden with that reason.
	refuseDelete func(obj api.Object) string
}

// strategies are the kinds' registry strategies.
var strategies = map[string]strategy{
	"Pod":                {generation: true, status: true, create: podPrepareForCreate, validateUpdate: podValidateUpdate},
	"Node":               {status: true, validateUpdate: podCIDRImmutable},
	"Namespace":          {status: true},
	"DaemonSet":          {generation: true, status: true, create: daemonSetPrepareForCreate, update: daemonSetPrepareForUpdate, validateUpdate: selectorImmutable},
	"Deployment":         {generation: true, status: true, create: clearStatus, update: deploymentPrepareForUpdate, validateUpdate: selectorImmutable, statusKeepsLabels: true},
	"ReplicaSet":         {generation: true, status: true, create: clearStatus, validateUpdate: selectorImmutable},
	"ControllerRevision": {},
	// PodDisruptionBudget: pkg/registry/policy/poddisruptionbudget/strategy.go.
	"PodDisruptionBudget": {generation: true, status: true, create: clearStatus},
	"Event":               {},
	// ServiceAccount: pkg/registry/core/serviceaccount/strategy.go (nothing to prepare).
	"ServiceAccount": {},
	// Service: pkg/registry/core/service/strategy.go and storage/storage.go.
	"Service": {status: true, create: clearStatus, update: servicePrepareForUpdate, validateUpdate: serviceClusterIPsImmutable, allocate: allocateService},
	// PriorityClass: pkg/registry/scheduling/priorityclass/strategy.go and storage/storage.go.
	"PriorityClass": {create: priorityClassPrepareForCreate, validateUpdate: priorityClassValidateUpdate, updateRulesOnly: true, refuseDelete: systemPriorityClassDelete},
}

// podPrepareForCreate is podStrategy.PrepareForCreate (pkg/registry/core/pod/strategy.go): a
// new pod has generation 1 (the strategy's generation), is Pending, has the QoS class of its
// resources, and its pod (anti-)affinity terms' and topology spread constraints' label keys
// merged into their selectors (see mergePodAffinityLabelKeys and mergeSpreadLabelKeys).
// DaemonLab keeps the status the manifest gives (a phase defaults to Pending), where upstream
// resets the whole status to Pending: tests create pods already Running or Failed.
func podPrepareForCreate(obj api.Object) {
	pod := obj.(*api.Pod)
	if pod.Status.Phase == "" {
		pod.Status.Phase = api.PodPending
	}
	pod.Status.QOSClass = string(api.ComputeQOS(&pod.Spec))
	mergePodAffinityLabelKeys(pod)
	mergeSpreadLabelKeys(pod)
}

// mergeSpreadLabelKeys is mutateTopologySpreadConstraints (MatchLabelKeysInPodTopologySpread
// and its SelectorMerge, both on in v1.37): each topology spread constraint with a
// labelSelector gets `key In (value)` in matchExpressions for each key of its matchLabelKeys
// the pod has a label for; matchLabelKeys stay in the spec. The constraints are copied before
// they change, as the manifest's may be shared.
func mergeSpreadLabelKeys(pod *api.Pod) {
	constraints := slices.Clone(pod.Spec.TopologySpreadConstraints)
	for i := range constraints {
		c := &constraints[i]
		c.LabelSelector = api.WithLabelKeys(c.LabelSelector, c.MatchLabelKeys, api.LabelSelectorOpIn, pod.Labels)
	}
	pod.Spec.TopologySpreadConstraints = constraints
}

// mergePodAffinityLabelKeys is mutatePodAffinity (MatchLabelKeysInPodAffinity, GA and locked on
// since v1.33): every required and preferred pod affinity and anti-affinity term with a
// labelSelector gets, from the pod's own labels, in this order:
//
//  1. `key In (value)` in matchExpressions for each key of matchLabelKeys the pod has a label
//     for (applyMatchLabelKeysAndMismatchLabelKeys);
//  2. `key NotIn (value)` for each such key of mismatchLabelKeys.
//
// A key the pod has no label for adds nothing; a term without a labelSelector selects no pod
// and is left alone; matchLabelKeys and mismatchLabelKeys stay in the spec. The scheduler reads
// the labelSelector only. The affinity is copied before it changes, as the manifest's may be
// shared.
func mergePodAffinityLabelKeys(pod *api.Pod) {
	merges := false
	eachPodAffinityTerm(pod.Spec.Affinity, func(t *api.PodAffinityTerm) {
		merges = merges || t.LabelSelector != nil && len(t.MatchLabelKeys)+len(t.MismatchLabelKeys) > 0
	})
	if !merges {
		return
	}
	pod.Spec.Affinity = api.DeepCopy(pod.Spec.Affinity)
	eachPodAffinityTerm(pod.Spec.Affinity, func(t *api.PodAffinityTerm) {
		t.LabelSelector = api.WithLabelKeys(t.LabelSelector, t.MatchLabelKeys, api.LabelSelectorOpIn, pod.Labels)
		t.LabelSelector = api.WithLabelKeys(t.LabelSelector, t.MismatchLabelKeys, api.LabelSelectorOpNotIn, pod.Labels)
	})
}

// eachPodAffinityTerm calls f with every required and preferred term of a's pod affinity and
// anti-affinity.
func eachPodAffinityTerm(a *api.Affinity, f func(*api.PodAffinityTerm)) {
	if a == nil {
		return
	}
	visit := func(required []api.PodAffinityTerm, preferred []api.WeightedPodAffinityTerm) {
		for i := range required {
			f(&required[i])
		}
		for i := range preferred {
			f(&preferred[i].PodAffinityTerm)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		visit(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		visit(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
}

// podValidateUpdate is podStrategy.ValidateUpdate's update rules (pkg/registry/core/pod/
// strategy.go, ValidatePodUpdate): see api.ValidatePodUpdate. The kubelet's status writes and
// the scheduler's binding do not come this way.
func podValidateUpdate(obj, old api.Object) api.ErrorList {
	return api.ValidatePodUpdate(obj.(*api.Pod), old.(*api.Pod))
}

// daemonSetPrepareForCreate is daemonSetStrategy.PrepareForCreate
// (pkg/registry/apps/daemonset/strategy.go): no status, and template generation 1 (kept in
// the annotation the apps/v1 conversion writes spec.templateGeneration to) unless one is given.
func daemonSetPrepareForCreate(obj api.Object) {
	clearStatus(obj)
	ds := obj.(*api.DaemonSet)
	setTemplateGeneration(ds, ds.TemplateGeneration())
}

// daemonSetPrepareForUpdate is the update half: the stored template generation, one more when
// the template changed.
func daemonSetPrepareForUpdate(obj, old api.Object) {
	ds, was := obj.(*api.DaemonSet), old.(*api.DaemonSet)
	g := was.TemplateGeneration()
	if !reflect.DeepEqual(api.DeepCopy(ds.Spec.Template), api.DeepCopy(was.Spec.Template)) {
		g++
	}
	setTemplateGeneration(ds, g)
}

func setTemplateGeneration(ds *api.DaemonSet, generation int64) {
	ds.Annotations = maps.Clone(ds.Annotations) // the caller's map may be a stored object's
	if ds.Annotations == nil {
		ds.Annotations = map[string]string{}
	}
	ds.Annotations[api.DeprecatedTemplateGeneration] = strconv.FormatInt(generation, 10)
}

// deploymentPrepareForUpdate is the rest of deploymentStrategy.PrepareForUpdate
// (pkg/registry/apps/deployment/strategy.go): a change of the annotations bumps the generation
// too, "because annotations are copied from deployments to their replica sets".
func deploymentPrepareForUpdate(obj, old api.Object) {
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	if m.Generation == om.Generation && !reflect.DeepEqual(jsonValue(m.Annotations), jsonValue(om.Annotations)) {
		m.Generation++
	}
}

// podCIDRImmutable is ValidateNodeUpdate's rule for the pod CIDRs (pkg/apis/core/validation
// validation.go): once the node IPAM controller gave a node its ranges, they stay.
func podCIDRImmutable(obj, old api.Object) api.ErrorList {
	now, was := obj.(*api.Node).Spec.PodCIDRs, old.(*api.Node).Spec.PodCIDRs
	if len(was) > 0 && !slices.Equal(now, was) {
		return api.ErrorList{api.Forbidden(api.NewPath("spec", "podCIDRs"), `node updates may not change podCIDR except from "" to valid`)}
	}
	return nil
}

// clearStatus empties a new workload's status: its controller writes it.
func clearStatus(obj api.Object) {
	status := reflect.ValueOf(obj).Elem().FieldByName("Status")
	status.Set(reflect.Zero(status.Type()))
}

// selectorImmutable is the workloads' ValidateUpdate rule: spec.selector may not change.
func selectorImmutable(obj, old api.Object) api.ErrorList {
	if s := selectorOf(obj); !reflect.DeepEqual(api.DeepCopy(s), api.DeepCopy(selectorOf(old))) {
		return api.ErrorList{api.Invalid(api.NewPath("spec", "selector"), s, "field is immutable")}
	}
	return nil
}

func selectorOf(obj api.Object) *api.LabelSelector {
	switch o := obj.(type) {
	case *api.DaemonSet:
		return o.Spec.Selector
	case *api.Deployment:
		return o.Spec.Selector
	case *api.ReplicaSet:
		return o.Spec.Selector
	}
	return nil
}

// prepareForUpdate is what every strategy's PrepareForUpdate shares for a write of the object:
// the stored status stays, and the generation moves on when the spec changed.
func (st strategy) prepareForUpdate(obj, old api.Object) {
	if st.status {
		field(obj, "Status").Set(field(old, "Status"))
	}
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	m.Generation = om.Generation
	if st.generation && !reflect.DeepEqual(jsonValue(field(obj, "Spec").Interface()), jsonValue(field(old, "Spec").Interface())) {
		m.Generation++
	}
	if st.update != nil {
		st.update(obj, old)
	}
}

// prepareForStatusUpdate is the status strategies' PrepareForUpdate (daemonSetStatusStrategy,
// deploymentStatusStrategy, …): a write of the status keeps the stored spec, and with it the
// generation; the Deployment's keeps its labels too.
func (st strategy) prepareForStatusUpdate(obj, old api.Object) {
	field(obj, "Spec").Set(field(old, "Spec"))
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	m.Generation = om.Generation
	if st.statusKeepsLabels {
		m.Labels = om.Labels
	}
}

func field(obj api.Object, name string) reflect.Value {
	return reflect.ValueOf(obj).Elem().FieldByName(name)
}
