package api

import "strings"

// Default fills in what the API server defaults when an object is created or updated
// (pkg/apis/core/v1/defaults.go, pkg/apis/apps/v1/defaults.go,
// pkg/apis/scheduling/v1/defaults.go).
func Default(obj Object) {
	switch o := obj.(type) {
	case *Pod:
		defaultPodSpec(&o.Spec)
		defaultPod(o)
	case *DaemonSet:
		defaultDaemonSet(o)
	case *Deployment:
		defaultDeployment(o)
	case *ReplicaSet:
		if o.Spec.Replicas == nil {
			o.Spec.Replicas = ptr[int32](1)
		}
		defaultPodSpec(&o.Spec.Template.Spec)
	case *Namespace:
		if o.Name != "" {
			if o.Labels == nil {
				o.Labels = map[string]string{}
			}
			o.Labels[LabelMetadataName] = o.Name
		}
		if o.Status.Phase == "" {
			o.Status.Phase = "Active"
		}
	case *Service:
		defaultService(o)
	case *PriorityClass:
		defaultPriorityClass(o)
	case *Node:
		if o.Status.Allocatable == nil && o.Status.Capacity != nil {
			o.Status.Allocatable = ResourceList{}
			for k, v := range o.Status.Capacity {
				o.Status.Allocatable[k] = v
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

// defaultDaemonSet follows SetDefaults_DaemonSet:
//
//  1. updateStrategy.type defaults to RollingUpdate.
//  2. For RollingUpdate, rollingUpdate defaults to {}, maxUnavailable to 1 and maxSurge to 0.
//  3. revisionHistoryLimit defaults to 10.
//  4. The pod template gets the PodSpec defaults.
func defaultDaemonSet(ds *DaemonSet) {
	s := &ds.Spec.UpdateStrategy
	if s.Type == "" {
		s.Type = RollingUpdateDaemonSetStrategyType
	}
	if s.Type == RollingUpdateDaemonSetStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &RollingUpdateDaemonSet{}
		}
		if s.RollingUpdate.MaxUnavailable == nil {
			s.RollingUpdate.MaxUnavailable = ptr(FromInt(1))
		}
		if s.RollingUpdate.MaxSurge == nil {
			s.RollingUpdate.MaxSurge = ptr(FromInt(0))
		}
	}
	if ds.Spec.RevisionHistoryLimit == nil {
		ds.Spec.RevisionHistoryLimit = ptr[int32](10)
	}
	defaultPodSpec(&ds.Spec.Template.Spec)
}

// defaultDeployment follows SetDefaults_Deployment: replicas 1, RollingUpdate with 25% / 25%,
// revisionHistoryLimit 10, progressDeadlineSeconds 600.
func defaultDeployment(d *Deployment) {
	if d.Spec.Replicas == nil {
		d.Spec.Replicas = ptr[int32](1)
	}
	s := &d.Spec.Strategy
	if s.Type == "" {
		s.Type = RollingUpdateDeploymentStrategyType
	}
	if s.Type == RollingUpdateDeploymentStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &RollingUpdateDeployment{}
		}
		if s.RollingUpdate.MaxUnavailable == nil {
			s.RollingUpdate.MaxUnavailable = ptr(FromString("25%"))
		}
		if s.RollingUpdate.MaxSurge == nil {
			s.RollingUpdate.MaxSurge = ptr(FromString("25%"))
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		d.Spec.RevisionHistoryLimit = ptr[int32](10)
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		d.Spec.ProgressDeadlineSeconds = ptr[int32](600)
	}
	defaultPodSpec(&d.Spec.Template.Spec)
}

// defaultPod follows SetDefaults_Pod, which applies to pods only (not to templates):
//
//  1. A negative terminationGracePeriodSeconds becomes 1.
//  2. Each container's requests take its limits for every resource they do not name.
//  3. With pod-level limits, each pod-level request not given defaults to the containers'
//     aggregate request of that resource, or else to the pod-level limit (defaultPodRequests).
//  4. enableServiceLinks defaults to true.
//  5. With hostNetwork, the hostPort of a container's or an init container's port defaults to
//     its containerPort (defaultHostNetworkPorts).
func defaultPod(p *Pod) {
	if g := p.Spec.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		p.Spec.TerminationGracePeriodSeconds = ptr[int64](1)
	}
	for _, cs := range [][]Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			r := &cs[i].Resources
			if r.Limits == nil {
				continue
			}
			if r.Requests == nil {
				r.Requests = ResourceList{}
			}
			for k, v := range r.Limits {
				if _, ok := r.Requests[k]; !ok {
					r.Requests[k] = v
				}
			}
		}
	}
	defaultPodRequests(p)
	if p.Spec.EnableServiceLinks == nil {
		p.Spec.EnableServiceLinks = ptr(true)
	}
	if p.Spec.HostNetwork {
		for _, cs := range [][]Container{p.Spec.Containers, p.Spec.InitContainers} {
			for i := range cs {
				for j := range cs[i].Ports {
					if cs[i].Ports[j].HostPort == 0 {
						cs[i].Ports[j].HostPort = cs[i].Ports[j].ContainerPort
					}
				}
			}
		}
	}
}

// defaultPodSpec follows SetDefaults_PodSpec and the defaults of what a PodSpec holds:
//
//  1. serviceAccount and serviceAccountName mirror each other.
//  2. dnsPolicy ClusterFirst, restartPolicy Always, securityContext {},
//     terminationGracePeriodSeconds 30, schedulerName default-scheduler.
//  3. Containers: imagePullPolicy Always for the tag "latest" (or no tag and no digest),
//     IfNotPresent otherwise; terminationMessagePath /dev/termination-log and
//     terminationMessagePolicy File; port protocol TCP; probe timings 1s/10s/1/3, HTTP probes
//     path "/" and scheme HTTP.
//  4. Volumes without a source are emptyDir; secret, configMap, downwardAPI and projected volumes
//     get defaultMode 420 (0644); hostPath gets type "".
func defaultPodSpec(s *PodSpec) {
	if s.ServiceAccountName == "" {
		s.ServiceAccountName = s.DeprecatedServiceAccount
	}
	s.DeprecatedServiceAccount = s.ServiceAccountName
	if s.DNSPolicy == "" {
		s.DNSPolicy = "ClusterFirst"
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = RestartPolicyAlways
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &PodSecurityContext{}
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = ptr[int64](30)
	}
	if s.SchedulerName == "" {
		s.SchedulerName = "default-scheduler"
	}
	for i := range s.InitContainers {
		defaultContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		defaultContainer(&s.Containers[i])
	}
	for i := range s.Volumes {
		defaultVolume(&s.Volumes[i])
	}
}

func defaultContainer(c *Container) {
	if c.ImagePullPolicy == "" {
		if imageTag(c.Image) == "latest" {
			c.ImagePullPolicy = "Always"
		} else {
			c.ImagePullPolicy = "IfNotPresent"
		}
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = "/dev/termination-log"
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = "File"
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = "TCP"
		}
	}
	for _, p := range []*Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			defaultProbe(p)
		}
	}
	for _, env := range c.Env {
		if env.ValueFrom != nil && env.ValueFrom.FieldRef != nil && env.ValueFrom.FieldRef.APIVersion == "" {
			env.ValueFrom.FieldRef.APIVersion = "v1"
		}
	}
}

// imageTag returns the tag of an image reference as the kubelet's parsers.ParseImageName sees it:
// "latest" when there is neither a tag nor a digest, "" when there is only a digest.
func imageTag(image string) string {
	name, _, hasDigest := strings.Cut(image, "@")
	slash := strings.LastIndex(name, "/")
	if colon := strings.LastIndex(name, ":"); colon > slash {
		return name[colon+1:]
	}
	if hasDigest {
		return ""
	}
	return "latest"
}

func defaultProbe(p *Probe) {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	if h := p.HTTPGet; h != nil {
		if h.Path == "" {
			h.Path = "/"
		}
		if h.Scheme == "" {
			h.Scheme = "HTTP"
		}
	}
}

func defaultVolume(v *Volume) {
	mode := func(m **int32) {
		if *m == nil {
			*m = ptr[int32](420)
		}
	}
	switch {
	case v.HostPath != nil:
		if v.HostPath.Type == nil {
			v.HostPath.Type = ptr("")
		}
	case v.Secret != nil:
		mode(&v.Secret.DefaultMode)
	case v.ConfigMap != nil:
		mode(&v.ConfigMap.DefaultMode)
	case v.DownwardAPI != nil:
		mode(&v.DownwardAPI.DefaultMode)
	case v.Projected != nil:
		mode(&v.Projected.DefaultMode)
	case v.EmptyDir == nil && v.PersistentVolumeClaim == nil:
		v.EmptyDir = &EmptyDirVolumeSource{}
	}
}

// podLevelResources are the resources pod-level requirements may name (cpu and memory;
// hugepages are not modelled).
var podLevelResources = []ResourceName{ResourceCPU, ResourceMemory}

func defaultPodRequests(p *Pod) {
	r := p.Spec.Resources
	if r == nil || len(r.Limits) == 0 {
		return
	}
	reqs := r.Requests
	if reqs == nil {
		reqs = ResourceList{}
	}
	aggregate := aggregate(p, func(c *Container) ResourceList { return c.Resources.Requests })
	for _, name := range podLevelResources {
		if _, ok := reqs[name]; ok {
			continue
		}
		if q, ok := aggregate[name]; ok {
			reqs[name] = q
		} else if q, ok := r.Limits[name]; ok {
			reqs[name] = q
		}
	}
	if len(reqs) > 0 {
		r.Requests = reqs
	}
}
