package api

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

var (
	supportedPullPolicies  = []string{"Always", "IfNotPresent", "Never"}
	supportedPortProtocols = []string{"SCTP", "TCP", "UDP"}
	supportedDNSPolicies   = []string{"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}
	supportedTaintEffects  = []TaintEffect{TaintEffectNoSchedule, TaintEffectPreferNoSchedule, TaintEffectNoExecute}
)

// validatePodSpec follows ValidatePodSpec, in its order: volumes, containers, init containers,
// hostNetwork's ports, restartPolicy, dnsPolicy, nodeSelector, affinity,
// topologySpreadConstraints, nodeName, activeDeadlineSeconds, tolerations. isPod is
// opts.ResourceIsPod: the spec is a Pod's, not a template's.
func validatePodSpec(s *PodSpec, p *Path, isPod bool) ErrorList {
	volumes, errs := validateVolumes(s.Volumes, p.Child("volumes"))
	errs = append(errs, validateContainers(s.Containers, volumes, p.Child("containers"))...)
	names := map[string]bool{}
	for _, c := range s.Containers {
		names[c.Name] = true
	}
	for i, c := range s.InitContainers {
		cp := p.Child("initContainers").Index(i)
		errs = append(errs, validateContainer(&c, volumes, cp)...)
		if names[c.Name] {
			errs = append(errs, Duplicate(cp.Child("name"), c.Name))
		}
		names[c.Name] = true
		// Init containers run one by one, so each is checked alone, and upstream indexes it as
		// the first of a list of one.
		errs = append(errs, uniqueHostPorts(s.InitContainers[i:i+1], p.Child("initContainers"))...)
	}
	errs = append(errs, validateHostNetworkPorts(s, p, isPod)...)
	errs = append(errs, validateEnum(s.RestartPolicy, p.Child("restartPolicy"), []RestartPolicy{RestartPolicyAlways, RestartPolicyOnFailure, RestartPolicyNever})...)
	errs = append(errs, validateEnum(s.DNSPolicy, p.Child("dnsPolicy"), supportedDNSPolicies)...)
	errs = append(errs, validateLabels(s.NodeSelector, p.Child("nodeSelector"))...)
	if a := s.Affinity; a != nil {
		errs = append(errs, validateAffinity(a, p.Child("affinity"))...)
	}
	errs = append(errs, validateTopologySpreadConstraints(s.TopologySpreadConstraints, p.Child("topologySpreadConstraints"))...)
	if s.NodeName != "" {
		for _, msg := range IsDNS1123Subdomain(s.NodeName) {
			errs = append(errs, Invalid(p.Child("nodeName"), s.NodeName, msg))
		}
	}
	if d := s.ActiveDeadlineSeconds; d != nil && *d < 1 {
		errs = append(errs, Invalid(p.Child("activeDeadlineSeconds"), *d, "must be between 1 and 2147483647, inclusive"))
	}
	if s.Resources != nil {
		errs = append(errs, validatePodResources(s, p.Child("resources"))...)
	}
	return append(errs, validateTolerations(s.Tolerations, p.Child("tolerations"))...)
}

// validatePodResources follows validatePodResourceRequirements and
// validatePodResourceConsistency for pod-level requirements:
//
//  1. validateResources, with the pod-level names (validatePodResourceName).
//  2. A pod-level request is at least the containers' aggregate request of it, and no
//     container's limit exceeds the pod-level limit.
func validatePodResources(s *PodSpec, p *Path) ErrorList {
	errs := validateResources(s.Resources, p, validatePodResourceName)
	aggregate := aggregate(&Pod{Spec: *s}, func(c *Container) ResourceList { return c.Resources.Requests })
	for _, k := range slices.Sorted(maps.Keys(aggregate)) {
		if podReq, ok := s.Resources.Requests[k]; ok && aggregate[k].Cmp(podReq) > 0 {
			ctr := aggregate[k]
			errs = append(errs, Invalid(p.Child("requests").Key(string(k)), podReq.String(), fmt.Sprintf("must be greater than or equal to aggregate container requests of %s", ctr.String())))
		}
	}
	for i, c := range s.Containers {
		for _, k := range slices.Sorted(maps.Keys(c.Resources.Limits)) {
			if podLim, ok := s.Resources.Limits[k]; ok && c.Resources.Limits[k].Cmp(podLim) > 0 {
				lim := c.Resources.Limits[k]
				errs = append(errs, Invalid(p.Child("containers").Index(i).Key(string(k)).Child("limits"), lim.String(), fmt.Sprintf("must be less than or equal to pod limits of %s", podLim.String())))
			}
		}
	}
	return errs
}

// validateEnum checks a field with a fixed set of values, as upstream's many switches do: empty
// is "Required value", anything else outside the set "Unsupported value" listing the set.
func validateEnum[T ~string](v T, p *Path, supported []T) ErrorList {
	switch {
	case v == "":
		return ErrorList{Required(p, "")}
	case !slices.Contains(supported, v):
		return ErrorList{NotSupported(p, string(v), supported)}
	}
	return nil
}

// validateVolumes checks names (required, DNS-1123 labels, unique) and that a hostPath has a path;
// it returns the volume names for the volume mounts to refer to.
func validateVolumes(vols []Volume, p *Path) (map[string]bool, ErrorList) {
	var errs ErrorList
	names := map[string]bool{}
	for i, v := range vols {
		vp := p.Index(i)
		switch {
		case v.Name == "":
			errs = append(errs, Required(vp.Child("name"), ""))
		case names[v.Name]:
			errs = append(errs, Duplicate(vp.Child("name"), v.Name))
		default:
			for _, msg := range IsDNS1123Label(v.Name) {
				errs = append(errs, Invalid(vp.Child("name"), v.Name, msg))
			}
		}
		if v.HostPath != nil && v.HostPath.Path == "" {
			errs = append(errs, Required(vp.Child("hostPath", "path"), ""))
		}
		names[v.Name] = true
	}
	return names, errs
}

// validateContainers requires at least one container and unique names, then checks each.
func validateContainers(cs []Container, volumes map[string]bool, p *Path) ErrorList {
	if len(cs) == 0 {
		return ErrorList{Required(p, "")}
	}
	var errs ErrorList
	names := map[string]bool{}
	for i := range cs {
		cp := p.Index(i)
		errs = append(errs, validateContainer(&cs[i], volumes, cp)...)
		if cs[i].Name != "" && names[cs[i].Name] {
			errs = append(errs, Duplicate(cp.Child("name"), cs[i].Name))
		}
		names[cs[i].Name] = true
	}
	return append(errs, uniqueHostPorts(cs, p)...)
}

// uniqueHostPorts follows checkHostPortConflicts: no two ports of the containers may take the
// same host port with the same protocol and hostIP ("TCP//80" when no hostIP is given); port 0
// takes none.
func uniqueHostPorts(cs []Container, p *Path) ErrorList {
	var errs ErrorList
	seen := map[string]bool{}
	for i := range cs {
		for j, port := range cs[i].Ports {
			if port.HostPort == 0 {
				continue
			}
			key := fmt.Sprintf("%s/%s/%d", port.Protocol, port.HostIP, port.HostPort)
			if seen[key] {
				errs = append(errs, Duplicate(p.Index(i).Child("ports").Index(j).Child("hostPort"), key))
			}
			seen[key] = true
		}
	}
	return errs
}

// validateHostNetworkPorts follows validatePodHostNetworkDeps: with hostNetwork, a container's
// hostPort must equal its containerPort — in a Pod always (defaulting has filled in a missing
// one), in a template only when it is set. Init containers are not checked.
func validateHostNetworkPorts(s *PodSpec, p *Path, isPod bool) ErrorList {
	if !s.HostNetwork {
		return nil
	}
	var errs ErrorList
	for i, c := range s.Containers {
		for j, port := range c.Ports {
			if (isPod || port.HostPort != 0) && port.HostPort != port.ContainerPort {
				errs = append(errs, Invalid(p.Child("containers").Index(i).Child("ports").Index(j).Child("hostPort"), port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}

// validateContainer follows validateContainerCommon: name, image, terminationMessagePolicy,
// ports, volume mounts, imagePullPolicy and resources.
func validateContainer(c *Container, volumes map[string]bool, p *Path) ErrorList {
	var errs ErrorList
	if c.Name == "" {
		errs = append(errs, Required(p.Child("name"), ""))
	} else {
		for _, msg := range IsDNS1123Label(c.Name) {
			errs = append(errs, Invalid(p.Child("name"), c.Name, msg))
		}
	}
	if c.Image == "" {
		errs = append(errs, Required(p.Child("image"), ""))
	}
	errs = append(errs, validateEnum(c.TerminationMessagePolicy, p.Child("terminationMessagePolicy"), []string{"File", "FallbackToLogsOnError"})...)
	errs = append(errs, validateContainerPorts(c.Ports, p.Child("ports"))...)
	for i, m := range c.VolumeMounts {
		mp := p.Child("volumeMounts").Index(i)
		if m.Name == "" {
			errs = append(errs, Required(mp.Child("name"), ""))
		} else if !volumes[m.Name] {
			errs = append(errs, &FieldError{ErrorTypeNotFound, mp.Child("name").String(), m.Name, ""})
		}
		if m.MountPath == "" {
			errs = append(errs, Required(mp.Child("mountPath"), ""))
		}
	}
	errs = append(errs, validateEnum(c.ImagePullPolicy, p.Child("imagePullPolicy"), supportedPullPolicies)...)
	return append(errs, validateResources(&c.Resources, p.Child("resources"), validateContainerResourceName)...)
}

func validateContainerPorts(ports []ContainerPort, p *Path) ErrorList {
	var errs ErrorList
	names := map[string]bool{}
	for i, port := range ports {
		ip := p.Index(i)
		if port.Name != "" {
			if names[port.Name] {
				errs = append(errs, Duplicate(ip.Child("name"), port.Name))
			}
			names[port.Name] = true
		}
		if port.ContainerPort == 0 {
			errs = append(errs, Required(ip.Child("containerPort"), ""))
		} else {
			for _, msg := range IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, Invalid(ip.Child("containerPort"), port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range IsValidPortNum(int(port.HostPort)) {
				errs = append(errs, Invalid(ip.Child("hostPort"), port.HostPort, msg))
			}
		}
		errs = append(errs, validateEnum(port.Protocol, ip.Child("protocol"), supportedPortProtocols)...)
	}
	return errs
}

// validateResources follows validateResourceRequirements (pkg/apis/core/validation), with
// validName the rule for names: validateContainerResourceName for a container's requirements,
// validatePodResourceName for pod-level ones. Each limit in name order, then each request
// (upstream ranges over the maps, so its order among resources varies), then the whole:
//
//  1. The name passes validName.
//  2. The quantity is not negative; that of an integer resource (pods, an extended resource)
//     is a whole number (ValidateResourceQuantityValue).
//  3. For a request: a resource that may be overcommitted (a native one other than hugepages)
//     requests at most its limit; any other needs a limit and requests exactly it (both
//     reported on requests or limits, without the key).
//  4. A hugepages quantity is a whole number of pages of its size.
//  5. Hugepages need cpu or memory asked for too.
func validateResources(r *ResourceRequirements, p *Path, validName func(ResourceName, *Path) ErrorList) ErrorList {
	var errs ErrorList
	limPath, reqPath := p.Child("limits"), p.Child("requests")
	for _, k := range slices.Sorted(maps.Keys(r.Limits)) {
		kp := limPath.Key(string(k))
		errs = append(errs, validName(k, kp)...)
		errs = append(errs, validateQuantity(k, r.Limits[k], kp)...)
		errs = append(errs, validateHugePages(k, r.Limits[k], kp)...)
	}
	for _, k := range slices.Sorted(maps.Keys(r.Requests)) {
		q, kp := r.Requests[k], reqPath.Key(string(k))
		errs = append(errs, validName(k, kp)...)
		errs = append(errs, validateQuantity(k, q, kp)...)
		lim, limited := r.Limits[k]
		overcommit := IsNativeResource(k) && !IsHugePageResourceName(k)
		switch {
		case limited && !overcommit && q.Cmp(lim) != 0:
			errs = append(errs, Invalid(reqPath, q.String(), fmt.Sprintf("must be equal to %s limit of %s", k, lim.String())))
		case limited && q.Cmp(lim) > 0:
			errs = append(errs, Invalid(reqPath, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", k, lim.String())))
		case !limited && !overcommit:
			errs = append(errs, Required(limPath, "Limit must be set for non overcommitable resources"))
		}
		errs = append(errs, validateHugePages(k, q, kp)...)
	}
	names := slices.Concat(slices.Collect(maps.Keys(r.Limits)), slices.Collect(maps.Keys(r.Requests)))
	if slices.ContainsFunc(names, IsHugePageResourceName) && !slices.ContainsFunc(names, func(n ResourceName) bool {
		return n == ResourceCPU || n == ResourceMemory
	}) {
		errs = append(errs, Forbidden(p, "HugePages require cpu or memory"))
	}
	return errs
}

// validateQuantity is rule 2 of validateResources.
func validateQuantity(name ResourceName, q Quantity, p *Path) ErrorList {
	var errs ErrorList
	if q.Sign() < 0 {
		errs = append(errs, Invalid(p, q.String(), "must be greater than or equal to 0"))
	}
	if (slices.Contains(integerResources, name) || IsExtendedResourceName(name)) && q.MilliValue()%1000 != 0 {
		errs = append(errs, Invalid(p, q, "must be an integer"))
	}
	return errs
}

// validateHugePages is rule 4 of validateResources (validateResourceQuantityHugePageValue, for
// a pod created: indivisible amounts are allowed only on updates of pods that have them, and
// no pod can). The page size must parse as a positive whole quantity.
func validateHugePages(name ResourceName, q Quantity, p *Path) ErrorList {
	if !IsHugePageResourceName(name) {
		return nil
	}
	page, err := ParseQuantity(strings.TrimPrefix(string(name), hugePagesPrefix))
	if err == nil && page.Sign() > 0 && page.MilliValue()%1000 == 0 && q.Value()%page.Value() == 0 {
		return nil
	}
	return ErrorList{Invalid(p, q.String(), fmt.Sprintf("%s is not positive integer multiple of %s", q.String(), name))}
}

// The resource names pkg/apis/core/helper knows: the standard ones (besides hugepages-<size>
// and requests.hugepages-<size>), those a container may ask for (besides hugepages-<size>),
// and those counted in whole units (besides the extended resources).
var (
	standardResources = []ResourceName{ResourceCPU, ResourceMemory, ResourceEphemeralStorage,
		"requests.cpu", "requests.memory", "requests.ephemeral-storage", "limits.cpu", "limits.memory",
		"limits.ephemeral-storage", ResourcePods, "resourcequotas", "services", "replicationcontrollers",
		"secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.storage",
		"services.nodeports", "services.loadbalancers"}
	standardContainerResources = []ResourceName{ResourceCPU, ResourceMemory, ResourceEphemeralStorage}
	integerResources           = []ResourceName{ResourcePods, "resourcequotas", "services", "replicationcontrollers",
		"secrets", "configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"}
)

// validateResourceName follows validateResourceName: a qualified name, and one without a
// domain must be a standard resource.
func validateResourceName(name ResourceName, p *Path) ErrorList {
	if errs := validateLabelName(string(name), p); len(errs) > 0 {
		return errs
	}
	if !strings.Contains(string(name), "/") && !slices.Contains(standardResources, name) &&
		!IsHugePageResourceName(name) && !strings.HasPrefix(string(name), "requests."+hugePagesPrefix) {
		return ErrorList{Invalid(p, string(name), "must be a standard resource type or fully qualified")}
	}
	return nil
}

// validateContainerResourceName follows ValidateContainerResourceName: validateResourceName,
// and then (even when that failed) a name without a domain must be one a container may ask
// for, and one with a domain outside kubernetes.io an extended resource.
func validateContainerResourceName(name ResourceName, p *Path) ErrorList {
	errs := validateResourceName(name, p)
	switch {
	case !strings.Contains(string(name), "/"):
		if !slices.Contains(standardContainerResources, name) && !IsHugePageResourceName(name) {
			errs = append(errs, Invalid(p, string(name), "must be a standard resource for containers"))
		}
	case !IsNativeResource(name) && !IsExtendedResourceName(name):
		errs = append(errs, Invalid(p, string(name), "doesn't follow extended resource name standard"))
	}
	return errs
}

// validatePodResourceName follows validatePodResourceName: validateResourceName, then one of
// the pod-level resources (upstream's list names hugepages too, which DaemonLab does not model
// and refuses).
func validatePodResourceName(name ResourceName, p *Path) ErrorList {
	if errs := validateResourceName(name, p); len(errs) > 0 {
		return errs
	}
	if !slices.Contains(podLevelResources, name) {
		return ErrorList{NotSupported(p, string(name), []string{"cpu", "hugepages-", "memory"})}
	}
	return nil
}

// validateTolerations follows ValidateTolerations (pkg/apis/core/validation/validation.go):
//
//  1. A non-empty key must be a label name.
//  2. An empty key requires the Exists operator.
//  3. tolerationSeconds requires the NoExecute effect.
//  4. Equal (or empty) needs a label value; Exists needs no value; other operators are
//     unsupported (Lt and Gt sit behind an alpha gate that is off).
//  5. A non-empty effect must be NoSchedule, PreferNoSchedule or NoExecute.
func validateTolerations(tols []Toleration, p *Path) ErrorList {
	var errs ErrorList
	for i, t := range tols {
		ip := p.Index(i)
		if t.Key != "" {
			errs = append(errs, validateLabelName(t.Key, ip.Child("key"))...)
		}
		if t.Key == "" && t.Operator != TolerationOpExists {
			errs = append(errs, Invalid(ip.Child("operator"), string(t.Operator), "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != TaintEffectNoExecute {
			errs = append(errs, Invalid(ip.Child("effect"), string(t.Effect), "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case TolerationOpEqual, "":
			if msgs := IsLabelValue(t.Value); len(msgs) > 0 {
				errs = append(errs, Invalid(ip.Child("operator"), t.Value, strings.Join(msgs, ";")))
			}
		case TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, Invalid(ip.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		case "Lt", "Gt":
			errs = append(errs, NotSupported(ip.Child("operator"), string(t.Operator), []string{"Equal", "Exists", "Lt", "Gt"}))
		default:
			errs = append(errs, NotSupported(ip.Child("operator"), string(t.Operator), []TolerationOperator{TolerationOpEqual, TolerationOpExists}))
		}
		if t.Effect != "" {
			errs = append(errs, validateTaintEffect(t.Effect, ip.Child("effect"))...)
		}
	}
	return errs
}

func validateTaintEffect(e TaintEffect, p *Path) ErrorList {
	switch e {
	case TaintEffectNoSchedule, TaintEffectPreferNoSchedule, TaintEffectNoExecute:
		return nil
	case "":
		return ErrorList{Required(p, "")}
	}
	return ErrorList{NotSupported(p, string(e), supportedTaintEffects)}
}

// validateNodeTaints follows validateNodeTaints: keys are label names, values label values, the
// effect is required, and taints are unique by (key, effect).
func validateNodeTaints(taints []Taint, p *Path) ErrorList {
	var errs ErrorList
	seen := map[[2]string]bool{}
	for i, t := range taints {
		ip := p.Index(i)
		errs = append(errs, validateLabelName(t.Key, ip.Child("key"))...)
		if msgs := IsLabelValue(t.Value); len(msgs) > 0 {
			errs = append(errs, Invalid(ip.Child("value"), t.Value, strings.Join(msgs, ";")))
		}
		errs = append(errs, validateTaintEffect(t.Effect, ip.Child("effect"))...)
		id := [2]string{t.Key, string(t.Effect)}
		if seen[id] {
			d := Duplicate(ip, t)
			d.Detail = "taints must be unique by key and effect pair"
			errs = append(errs, d)
			continue
		}
		seen[id] = true
	}
	return errs
}

// validateAffinity follows validateAffinity: node affinity, then pod affinity, then pod
// anti-affinity.
func validateAffinity(a *Affinity, p *Path) ErrorList {
	var errs ErrorList
	if a.NodeAffinity != nil {
		errs = append(errs, validateNodeAffinity(a.NodeAffinity, p.Child("nodeAffinity"))...)
	}
	if pa := a.PodAffinity; pa != nil {
		errs = append(errs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, p.Child("podAffinity"))...)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		errs = append(errs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, p.Child("podAntiAffinity"))...)
	}
	return errs
}

// validatePodAffinityTerms follows validatePodAffinity and validatePodAntiAffinity: each
// required term, then each preferred one, whose weight is 1 to 100.
func validatePodAffinityTerms(required []PodAffinityTerm, preferred []WeightedPodAffinityTerm, p *Path) ErrorList {
	var errs ErrorList
	for i, t := range required {
		errs = append(errs, validatePodAffinityTerm(&t, p.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
	}
	for i, w := range preferred {
		wp := p.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
		if w.Weight <= 0 || w.Weight > 100 {
			errs = append(errs, Invalid(wp.Child("weight"), w.Weight, "must be in the range 1-100"))
		}
		errs = append(errs, validatePodAffinityTerm(&w.PodAffinityTerm, wp.Child("podAffinityTerm"))...)
	}
	return errs
}

// validatePodAffinityTerm follows validatePodAffinityTerm:
//
//  1. labelSelector and namespaceSelector are label selectors.
//  2. Every namespace is a DNS-1123 label (reported at "namespace", as upstream spells it).
//  3. matchLabelKeys and mismatchLabelKeys as validateLabelKeys has them.
//  4. topologyKey is required and a label key.
func validatePodAffinityTerm(t *PodAffinityTerm, p *Path) ErrorList {
	errs := validateLabelSelector(t.LabelSelector, p.Child("labelSelector"))
	errs = append(errs, validateLabelSelector(t.NamespaceSelector, p.Child("namespaceSelector"))...)
	for _, ns := range t.Namespaces {
		for _, msg := range IsDNS1123Label(ns) {
			errs = append(errs, Invalid(p.Child("namespace"), ns, msg))
		}
	}
	errs = append(errs, validateLabelKeys(t.MatchLabelKeys, t.MismatchLabelKeys, t.LabelSelector, p)...)
	if t.TopologyKey == "" {
		errs = append(errs, Required(p.Child("topologyKey"), "can not be empty"))
	}
	return append(errs, validateLabelName(t.TopologyKey, p.Child("topologyKey"))...)
}

// validateNodeAffinity follows ValidateNodeSelector for the required terms (at least one; each
// expression's operator decides whether values are required; matchFields only on
// metadata.name with In or NotIn and one value) and checks the preferred terms' weights.
func validateNodeAffinity(a *NodeAffinity, p *Path) ErrorList {
	var errs ErrorList
	if req := a.RequiredDuringSchedulingIgnoredDuringExecution; req != nil {
		tp := p.Child("requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
		if len(req.NodeSelectorTerms) == 0 {
			errs = append(errs, Required(tp, "must have at least one node selector term"))
		}
		for i, term := range req.NodeSelectorTerms {
			errs = append(errs, validateNodeSelectorTerm(term, tp.Index(i))...)
		}
	}
	for i, pref := range a.PreferredDuringSchedulingIgnoredDuringExecution {
		pp := p.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
		if pref.Weight <= 0 || pref.Weight > 100 {
			errs = append(errs, Invalid(pp.Child("weight"), pref.Weight, "must be in the range 1-100"))
		}
		errs = append(errs, validateNodeSelectorTerm(pref.Preference, pp.Child("preference"))...)
	}
	return errs
}

func validateNodeSelectorTerm(term NodeSelectorTerm, p *Path) ErrorList {
	var errs ErrorList
	for j, r := range term.MatchExpressions {
		rp := p.Child("matchExpressions").Index(j)
		switch r.Operator {
		case NodeSelectorOpIn, NodeSelectorOpNotIn:
			if len(r.Values) == 0 {
				errs = append(errs, Required(rp.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case NodeSelectorOpExists, NodeSelectorOpDoesNotExist:
			if len(r.Values) > 0 {
				errs = append(errs, Forbidden(rp.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		case NodeSelectorOpGt, NodeSelectorOpLt:
			if len(r.Values) != 1 {
				errs = append(errs, Required(rp.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
			}
		default:
			errs = append(errs, Invalid(rp.Child("operator"), string(r.Operator), "not a valid selector operator"))
		}
		errs = append(errs, validateLabelName(r.Key, rp.Child("key"))...)
		for k, v := range r.Values {
			for _, msg := range IsLabelValue(v) {
				errs = append(errs, Invalid(rp.Child("values").Index(k), v, msg))
			}
		}
	}
	for j, r := range term.MatchFields {
		rp := p.Child("matchFields").Index(j)
		switch r.Operator {
		case NodeSelectorOpIn, NodeSelectorOpNotIn:
			if len(r.Values) != 1 {
				errs = append(errs, Required(rp.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
			}
		default:
			errs = append(errs, Invalid(rp.Child("operator"), string(r.Operator), "not a valid selector operator"))
		}
		if r.Key != "metadata.name" {
			errs = append(errs, Invalid(rp.Child("key"), r.Key, "not a valid field selector key"))
			continue
		}
		for k, v := range r.Values {
			for _, msg := range IsDNS1123Subdomain(v) {
				errs = append(errs, Invalid(rp.Child("values").Index(k), v, msg))
			}
		}
	}
	return errs
}

var (
	supportedScheduleActions       = []string{DoNotSchedule, ScheduleAnyway}
	supportedNodeInclusionPolicies = []string{NodeInclusionPolicyHonor, NodeInclusionPolicyIgnore}
)

// validateTopologySpreadConstraints follows validateTopologySpreadConstraints for a pod created
// with v1.37's feature gates (MatchLabelKeysInPodTopologySpread and its SelectorMerge on), each
// constraint in turn:
//
//  1. maxSkew must be greater than zero; topologyKey is required; whenUnsatisfiable is
//     DoNotSchedule or ScheduleAnyway.
//  2. No later constraint may have the same topologyKey and whenUnsatisfiable.
//  3. minDomains, if set, must be greater than zero and needs DoNotSchedule.
//  4. nodeAffinityPolicy and nodeTaintsPolicy, if set, are Honor or Ignore.
//  5. matchLabelKeys as validateLabelKeys has them (the API server has merged "key In (value)"
//     into a pod's selector by now, see apiserver's mergeSpreadLabelKeys).
//  6. The labelSelector must be valid.
func validateTopologySpreadConstraints(constraints []TopologySpreadConstraint, p *Path) ErrorList {
	var errs ErrorList
	for i, c := range constraints {
		cp := p.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, Invalid(cp.Child("maxSkew"), int64(c.MaxSkew), "must be greater than zero"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, Required(cp.Child("topologyKey"), "can not be empty"))
		}
		if !slices.Contains(supportedScheduleActions, c.WhenUnsatisfiable) {
			errs = append(errs, NotSupported(cp.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, supportedScheduleActions))
		}
		if slices.ContainsFunc(constraints[i+1:], func(o TopologySpreadConstraint) bool {
			return o.TopologyKey == c.TopologyKey && o.WhenUnsatisfiable == c.WhenUnsatisfiable
		}) {
			errs = append(errs, Duplicate(cp.Child("{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				errs = append(errs, Invalid(cp.Child("minDomains"), int64(*c.MinDomains), "must be greater than zero"))
			}
			if c.WhenUnsatisfiable != DoNotSchedule {
				errs = append(errs, Invalid(cp.Child("minDomains"), c.MinDomains, fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", DoNotSchedule, c.WhenUnsatisfiable)))
			}
		}
		for _, policy := range []struct {
			field string
			value *string
		}{{"nodeAffinityPolicy", c.NodeAffinityPolicy}, {"nodeTaintsPolicy", c.NodeTaintsPolicy}} {
			if policy.value != nil && !slices.Contains(supportedNodeInclusionPolicies, *policy.value) {
				errs = append(errs, NotSupported(cp.Child(policy.field), policy.value, supportedNodeInclusionPolicies))
			}
		}
		errs = append(errs, validateLabelKeys(c.MatchLabelKeys, nil, c.LabelSelector, cp)...)
		errs = append(errs, validateLabelSelector(c.LabelSelector, cp.Child("labelSelector"))...)
	}
	return errs
}

// validateLabelKeys is ValidateMatchLabelKeysAndMismatchLabelKeys, for the label keys of a
// term (a pod affinity term, a topology spread constraint) at p:
//
//  1. matchLabelKeys and mismatchLabelKeys need a labelSelector, and are label keys.
//  2. A key of matchLabelKeys may not appear in the labelSelector besides the requirement the
//     API server merged from it (reported at the term's path indexed by the key's last place in
//     matchLabelKeys, as upstream does).
//  3. A key of matchLabelKeys may not be in mismatchLabelKeys.
func validateLabelKeys(match, mismatch []string, ls *LabelSelector, p *Path) ErrorList {
	var errs ErrorList
	for _, keys := range []struct {
		name string
		keys []string
	}{{"matchLabelKeys", match}, {"mismatchLabelKeys", mismatch}} {
		switch {
		case len(keys.keys) == 0:
		case ls == nil:
			errs = append(errs, Forbidden(p.Child(keys.name), "must not be specified when labelSelector is not set"))
		default:
			for i, key := range keys.keys {
				errs = append(errs, validateLabelName(key, p.Child(keys.name).Index(i))...)
			}
		}
	}
	if ls != nil {
		at := map[string]int{}
		for i, key := range match {
			at[key] = i
		}
		seen := map[string]bool{}
		for key := range ls.MatchLabels {
			seen[key] = true
		}
		for _, e := range ls.MatchExpressions {
			if i, ok := at[e.Key]; ok && seen[e.Key] {
				errs = append(errs, Invalid(p.Index(i), e.Key, "exists in both matchLabelKeys and labelSelector"))
			}
			seen[e.Key] = true
		}
	}
	for i, key := range match {
		if slices.Contains(mismatch, key) {
			errs = append(errs, Invalid(p.Child("matchLabelKeys").Index(i), key, "exists in both matchLabelKeys and mismatchLabelKeys"))
		}
	}
	return errs
}
