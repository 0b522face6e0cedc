package kubectl

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/sim"
)

// describePod is kubectl's describePod: identity, node, status, containers with their state
// and resources, conditions, volumes, QoS class, node selectors, tolerations and events.
func describePod(s *sim.Sim, obj api.Object, events bool) string {
	pod := obj.(*api.Pod)
	now := s.C.Now()
	return tabbed(func(w describeWriter) {
		w.write(0, "Name:\t%s\n", pod.Name)
		w.write(0, "Namespace:\t%s\n", pod.Namespace)
		if pod.Spec.Priority != nil {
			w.write(0, "Priority:\t%d\n", *pod.Spec.Priority)
		}
		if pod.Spec.PriorityClassName != "" {
			w.write(0, "Priority Class Name:\t%s\n", pod.Spec.PriorityClassName)
		}
		if pod.Spec.RuntimeClassName != nil && *pod.Spec.RuntimeClassName != "" {
			w.write(0, "Runtime Class Name:\t%s\n", *pod.Spec.RuntimeClassName)
		}
		if pod.Spec.ServiceAccountName != "" {
			w.write(0, "Service Account:\t%s\n", pod.Spec.ServiceAccountName)
		}
		if pod.Spec.NodeName == "" {
			w.write(0, "Node:\t<none>\n")
		} else {
			w.write(0, "Node:\t%s\n", pod.Spec.NodeName+"/"+pod.Status.HostIP)
		}
		if pod.Status.StartTime != nil {
			w.write(0, "Start Time:\t%s\n", rfc1123z(*pod.Status.StartTime))
		}
		labelsMultiline(w, "Labels", pod.Labels)
		annotationsMultiline(w, "Annotations", pod.Annotations)
		if pod.DeletionTimestamp != nil && pod.Status.Phase != api.PodFailed && pod.Status.Phase != api.PodSucceeded {
			w.write(0, "Status:\tTerminating (lasts %s)\n", age(*pod.DeletionTimestamp, now))
			w.write(0, "Termination Grace Period:\t%ds\n", deref(pod.DeletionGracePeriodSeconds))
		} else {
			w.write(0, "Status:\t%s\n", pod.Status.Phase)
		}
		if pod.Status.Reason != "" {
			w.write(0, "Reason:\t%s\n", pod.Status.Reason)
		}
		if pod.Status.Message != "" {
			w.write(0, "Message:\t%s\n", pod.Status.Message)
		}
		if sc := pod.Spec.SecurityContext; sc != nil && sc.SeccompProfile != nil {
			seccomp(w, 0, sc.SeccompProfile)
		}
		w.write(0, "IP:\t%s\n", pod.Status.PodIP)
		if len(pod.Status.PodIPs) == 0 {
			w.write(0, "IPs:\t<none>\n")
		} else {
			w.write(0, "IPs:\n")
			for _, ip := range pod.Status.PodIPs {
				w.write(1, "IP:\t%s\n", ip.IP)
			}
		}
		if by := ControlledBy(&pod.ObjectMeta); by != "" {
			w.write(0, "Controlled By:\t%s\n", by)
		}
		if pod.Status.NominatedNodeName != "" {
			w.write(0, "NominatedNodeName:\t%s\n", pod.Status.NominatedNodeName)
		}
		if pod.Spec.Resources != nil {
			w.write(0, "Resources:\n")
			describeResources(w, *pod.Spec.Resources, 1)
		}
		if len(pod.Spec.InitContainers) > 0 {
			describeContainers(w, "Init Containers", pod.Spec.InitContainers, pod.Status.InitContainerStatuses, pod, "")
		}
		describeContainers(w, "Containers", pod.Spec.Containers, pod.Status.ContainerStatuses, pod, "")
		if len(pod.Status.Conditions) > 0 {
			w.write(0, "Conditions:\n  Type\tStatus\n")
			for _, c := range pod.Status.Conditions {
				w.write(1, "%v \t%v \n", c.Type, c.Status)
			}
		}
		describeVolumes(w, pod.Spec.Volumes, "")
		w.write(0, "QoS Class:\t%s\n", api.ComputeQOS(&pod.Spec))
		labelsMultiline(w, "Node-Selectors", pod.Spec.NodeSelector)
		tolerationsMultiline(w, "Tolerations", pod.Spec.Tolerations)
		describeTopologySpread(w, pod.Spec.TopologySpreadConstraints, "")
		if events {
			describeEvents(w, eventsAbout(s.C, pod, false), now)
		}
	})
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func seccomp(w describeWriter, level int, p *api.SeccompProfile) {
	w.write(level, "SeccompProfile:\t%s\n", p.Type)
	if p.Type == "Localhost" {
		w.write(level+1, "LocalhostProfile:\t%s\n", deref(p.LocalhostProfile))
	}
}

// describeContainers prints each container: ids, image, ports, command, state, resources,
// probes, environment and mounts. pod is nil for a pod template.
func describeContainers(w describeWriter, label string, containers []api.Container, statuses []api.ContainerStatus, pod *api.Pod, space string) {
	byName := map[string]api.ContainerStatus{}
	for _, st := range statuses {
		byName[st.Name] = st
	}
	none := ""
	if len(containers) == 0 {
		none = " <none>"
	}
	w.write(0, "%s%s:%s\n", space, label, none)
	nameIndent := ""
	if space != "" {
		nameIndent = " "
	}
	for _, c := range containers {
		st, ok := byName[c.Name]
		w.write(1, "%s%v:\n", nameIndent, c.Name)
		if ok {
			w.write(2, "Container ID:\t%s\n", st.ContainerID)
		}
		w.write(2, "Image:\t%s\n", c.Image)
		if ok {
			w.write(2, "Image ID:\t%s\n", st.ImageID)
		}
		ports, hostPorts := containerPorts(c.Ports, false), containerPorts(c.Ports, true)
		if strings.Contains(ports, ",") {
			w.write(2, "Ports:\t%s\n", ports)
		} else {
			w.write(2, "Port:\t%s\n", orNone(ports))
		}
		if strings.Contains(hostPorts, ",") {
			w.write(2, "Host Ports:\t%s\n", hostPorts)
		} else {
			w.write(2, "Host Port:\t%s\n", orNone(hostPorts))
		}
		if c.SecurityContext != nil && c.SecurityContext.SeccompProfile != nil {
			seccomp(w, 2, c.SecurityContext.SeccompProfile)
		}
		for _, part := range []struct {
			title string
			lines []string
		}{{"Command", c.Command}, {"Args", c.Args}} {
			if len(part.lines) == 0 {
				continue
			}
			w.write(2, "%s:\n", part.title)
			for _, l := range part.lines {
				for _, s := range strings.Split(l, "\n") {
					w.write(3, "%s\n", s)
				}
			}
		}
		if ok {
			containerState(w, "State", st.State)
			if st.LastState.Terminated != nil {
				containerState(w, "Last State", st.LastState)
			}
			w.write(2, "Ready:\t%v\n", printBool(st.Ready))
			w.write(2, "Restart Count:\t%d\n", st.RestartCount)
		}
		describeResources(w, c.Resources, 2)
		for _, p := range []struct {
			title string
			probe *api.Probe
		}{{"Liveness", c.LivenessProbe}, {"Readiness", c.ReadinessProbe}, {"Startup", c.StartupProbe}} {
			if p.probe != nil {
				w.write(2, "%s:\t%s\n", p.title, describeProbe(p.probe))
			}
		}
		if len(c.EnvFrom) > 0 {
			envFrom(w, c.EnvFrom)
		}
		envVars(w, c, pod)
		mounts(w, c.VolumeMounts)
	}
}

func containerPorts(ports []api.ContainerPort, host bool) string {
	var out []string
	for _, p := range ports {
		n := p.ContainerPort
		if host {
			n = p.HostPort
		}
		s := fmt.Sprintf("%d/%s", n, p.Protocol)
		if p.Name != "" {
			s += " (" + p.Name + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

func containerState(w describeWriter, name string, st api.ContainerState) {
	switch {
	case st.Running != nil:
		w.write(2, "%s:\tRunning\n", name)
		w.write(3, "Started:\t%v\n", rfc1123z(st.Running.StartedAt))
	case st.Waiting != nil:
		w.write(2, "%s:\tWaiting\n", name)
		if st.Waiting.Reason != "" {
			w.write(3, "Reason:\t%s\n", st.Waiting.Reason)
		}
	case st.Terminated != nil:
		t := st.Terminated
		w.write(2, "%s:\tTerminated\n", name)
		if t.Reason != "" {
			w.write(3, "Reason:\t%s\n", t.Reason)
		}
		if t.Message != "" {
			w.write(3, "Message:\t%s\n", t.Message)
		}
		w.write(3, "Exit Code:\t%d\n", t.ExitCode)
		if t.Signal > 0 {
			w.write(3, "Signal:\t%d\n", t.Signal)
		}
		w.write(3, "Started:\t%s\n", rfc1123z(t.StartedAt))
		w.write(3, "Finished:\t%s\n", rfc1123z(t.FinishedAt))
	default:
		w.write(2, "%s:\tWaiting\n", name)
	}
}

func describeResources(w describeWriter, r api.ResourceRequirements, level int) {
	for _, part := range []struct {
		title string
		list  api.ResourceList
	}{{"Limits", r.Limits}, {"Requests", r.Requests}} {
		if len(part.list) == 0 {
			continue
		}
		w.write(level, "%s:\n", part.title)
		for _, name := range sortedResourceNames(part.list) {
			q := part.list[name]
			w.write(level+1, "%s:\t%s\n", name, q.String())
		}
	}
}

func sortedResourceNames(l api.ResourceList) []api.ResourceName {
	names := make([]api.ResourceName, 0, len(l))
	for n := range l {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

// describeProbe is kubectl's DescribeProbe.
func describeProbe(p *api.Probe) string {
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds successThreshold=%d failureThreshold=%d",
		p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
	switch {
	case p.Exec != nil:
		return fmt.Sprintf("exec %v %s", p.Exec.Command, attrs)
	case p.HTTPGet != nil:
		u := &url.URL{Scheme: strings.ToLower(p.HTTPGet.Scheme), Host: p.HTTPGet.Host, Path: p.HTTPGet.Path}
		if port := p.HTTPGet.Port.String(); port != "" {
			u.Host = joinHostPort(p.HTTPGet.Host, port)
		}
		return fmt.Sprintf("http-get %s %s", u.String(), attrs)
	case p.TCPSocket != nil:
		return fmt.Sprintf("tcp-socket %s:%s %s", p.TCPSocket.Host, p.TCPSocket.Port.String(), attrs)
	case p.GRPC != nil:
		return fmt.Sprintf("grpc <pod>:%d %s %s", p.GRPC.Port, deref(p.GRPC.Service), attrs)
	}
	return "unknown " + attrs
}

// joinHostPort is net.JoinHostPort (which would bring the whole net package into the page):
// host:port, with an IPv6 host (one with a colon) in brackets.
func joinHostPort(host, port string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}

func envFrom(w describeWriter, sources []api.EnvFromSource) {
	w.write(2, "Environment Variables from:\n")
	for _, e := range sources {
		from, ref := "", (*api.LocalObjectReference)(nil)
		switch {
		case e.ConfigMapRef != nil:
			from, ref = "ConfigMap", e.ConfigMapRef
		case e.SecretRef != nil:
			from, ref = "Secret", e.SecretRef
		default:
			ref = &api.LocalObjectReference{}
		}
		optional := deref(ref.Optional)
		if e.Prefix == "" {
			w.write(3, "%s\t%s\tOptional: %t\n", ref.Name, from, optional)
		} else {
			w.write(3, "%s\t%s with prefix '%s'\tOptional: %t\n", ref.Name, from, e.Prefix, optional)
		}
	}
}

func envVars(w describeWriter, c api.Container, pod *api.Pod) {
	none := ""
	if len(c.Env) == 0 {
		none = "\t<none>"
	}
	w.write(2, "Environment:%s\n", none)
	for _, e := range c.Env {
		if e.ValueFrom == nil {
			for i, s := range strings.Split(e.Value, "\n") {
				if i == 0 {
					w.write(3, "%s:\t%s\n", e.Name, s)
				} else {
					w.write(3, "\t%s\n", s)
				}
			}
			continue
		}
		switch from := e.ValueFrom; {
		case from.FieldRef != nil:
			w.write(3, "%s:\t%s (%s:%s)\n", e.Name, fieldRefValue(pod, from.FieldRef.FieldPath), from.FieldRef.APIVersion, from.FieldRef.FieldPath)
		case from.ResourceFieldRef != nil:
			value := resourceFieldValue(from.ResourceFieldRef, c)
			if value == "0" && (from.ResourceFieldRef.Resource == "limits.cpu" || from.ResourceFieldRef.Resource == "limits.memory") {
				value = "node allocatable"
			}
			w.write(3, "%s:\t%s (%s)\n", e.Name, value, from.ResourceFieldRef.Resource)
		case from.SecretKeyRef != nil:
			w.write(3, "%s:\t<set to the key '%s' in secret '%s'>\tOptional: %t\n", e.Name, from.SecretKeyRef.Key, from.SecretKeyRef.Name, deref(from.SecretKeyRef.Optional))
		case from.ConfigMapKeyRef != nil:
			w.write(3, "%s:\t<set to the key '%s' of config map '%s'>\tOptional: %t\n", e.Name, from.ConfigMapKeyRef.Key, from.ConfigMapKeyRef.Name, deref(from.ConfigMapKeyRef.Optional))
		}
	}
}

// fieldRefValue is what describe shows for a downward-API variable: only metadata fields
// resolve (fieldpath.ExtractFieldPathAsString); the rest, and templates, show nothing.
func fieldRefValue(pod *api.Pod, path string) string {
	if pod == nil {
		return ""
	}
	for _, m := range []struct {
		prefix string
		values map[string]string
	}{{"metadata.labels", pod.Labels}, {"metadata.annotations", pod.Annotations}} {
		if key, ok := strings.CutPrefix(path, m.prefix+"['"); ok && strings.HasSuffix(key, "']") {
			return m.values[strings.TrimSuffix(key, "']")]
		}
		if path == m.prefix {
			var lines []string
			for _, k := range slices.Sorted(maps.Keys(m.values)) {
				lines = append(lines, k+"="+strconv.Quote(m.values[k]))
			}
			return strings.Join(lines, "\n")
		}
	}
	switch path {
	case "metadata.name":
		return pod.Name
	case "metadata.namespace":
		return pod.Namespace
	case "metadata.uid":
		return pod.UID
	}
	return ""
}

// resourceFieldValue is a container's request or limit in units of the divisor, rounded up.
func resourceFieldValue(ref *api.ResourceFieldSelector, c api.Container) string {
	divisor := api.MustParseQuantity("1")
	if ref.Divisor != nil && !ref.Divisor.IsZero() {
		divisor = *ref.Divisor
	}
	kind, name, _ := strings.Cut(ref.Resource, ".")
	list := c.Resources.Requests
	if kind == "limits" {
		list = c.Resources.Limits
	}
	q := list[api.ResourceName(name)]
	switch ref.Resource {
	case "limits.cpu", "requests.cpu":
		return strconv.FormatInt(int64(math.Ceil(float64(q.MilliValue())/float64(divisor.MilliValue()))), 10)
	case "limits.memory", "requests.memory", "limits.ephemeral-storage", "requests.ephemeral-storage":
		return strconv.FormatInt(int64(math.Ceil(float64(q.Value())/float64(divisor.Value()))), 10)
	}
	return ""
}

func mounts(w describeWriter, ms []api.VolumeMount) {
	none := ""
	if len(ms) == 0 {
		none = "\t<none>"
	}
	w.write(2, "Mounts:%s\n", none)
	ms = append([]api.VolumeMount(nil), ms...)
	sort.Slice(ms, func(i, j int) bool { return ms[i].MountPath < ms[j].MountPath })
	for _, m := range ms {
		flags := []string{"rw"}
		if m.ReadOnly {
			flags[0] = "ro"
		}
		if m.SubPath != "" {
			flags = append(flags, fmt.Sprintf("path=%q", m.SubPath))
		}
		w.write(3, "%s from %s (%s)\n", m.MountPath, m.Name, strings.Join(flags, ","))
	}
}

func describeVolumes(w describeWriter, volumes []api.Volume, space string) {
	if len(volumes) == 0 {
		w.write(0, "%sVolumes:\t<none>\n", space)
		return
	}
	w.write(0, "%sVolumes:\n", space)
	nameIndent := ""
	if space != "" {
		nameIndent = " "
	}
	for _, v := range volumes {
		w.write(1, "%s%v:\n", nameIndent, v.Name)
		switch {
		case v.HostPath != nil:
			hostPathType := "<none>" // only a missing type; the API server defaults it to ""
			if v.HostPath.Type != nil {
				hostPathType = *v.HostPath.Type
			}
			w.write(2, "Type:\tHostPath (bare host directory volume)\n    Path:\t%v\n    HostPathType:\t%v\n", v.HostPath.Path, hostPathType)
		case v.EmptyDir != nil:
			limit := "<unset>"
			if l := v.EmptyDir.SizeLimit; l != nil && l.Sign() > 0 {
				limit = l.String()
			}
			w.write(2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t%v\n    SizeLimit:\t%v\n", v.EmptyDir.Medium, limit)
		case v.Secret != nil:
			w.write(2, "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t%v\n    Optional:\t%v\n", v.Secret.SecretName, deref(v.Secret.Optional))
		case v.ConfigMap != nil:
			w.write(2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t%v\n    Optional:\t%v\n", v.ConfigMap.Name, deref(v.ConfigMap.Optional))
		case v.PersistentVolumeClaim != nil:
			w.write(2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t%v\n    ReadOnly:\t%v\n", v.PersistentVolumeClaim.ClaimName, v.PersistentVolumeClaim.ReadOnly)
		case v.DownwardAPI != nil:
			downwardAPI(w, v.DownwardAPI)
		case v.Projected != nil:
			w.write(2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n")
			for _, src := range v.Projected.Sources {
				switch {
				case src.Secret != nil:
					w.write(2, "SecretName:\t%v\n    Optional:\t%v\n", src.Secret.Name, deref(src.Secret.Optional))
				case src.DownwardAPI != nil:
					w.write(2, "DownwardAPI:\ttrue\n")
				case src.ConfigMap != nil:
					w.write(2, "ConfigMapName:\t%v\n    Optional:\t%v\n", src.ConfigMap.Name, deref(src.ConfigMap.Optional))
				case src.ServiceAccountToken != nil:
					w.write(2, "TokenExpirationSeconds:\t%d\n", deref(src.ServiceAccountToken.ExpirationSeconds))
				}
			}
		default:
			w.write(1, "<unknown>\n")
		}
	}
}

func downwardAPI(w describeWriter, d *api.DownwardAPIVolumeSource) {
	w.write(2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n")
	for _, item := range d.Items {
		if item.FieldRef != nil {
			w.write(3, "%v -> %v\n", item.FieldRef.FieldPath, item.Path)
		}
		if item.ResourceFieldRef != nil {
			w.write(3, "%v -> %v\n", item.ResourceFieldRef.Resource, item.Path)
		}
	}
}

// describeTopologySpread prints "key:When when max skew N is exceeded for selector S".
func describeTopologySpread(w describeWriter, tscs []api.TopologySpreadConstraint, space string) {
	if len(tscs) == 0 {
		return
	}
	tscs = append([]api.TopologySpreadConstraint(nil), tscs...)
	sort.Slice(tscs, func(i, j int) bool { return tscs[i].TopologyKey < tscs[j].TopologyKey })
	w.write(0, "%sTopology Spread Constraints:\t", space)
	for i, t := range tscs {
		if i > 0 {
			w.write(0, "%s\t", space)
		}
		w.write(0, "%s:%v when max skew %d is exceeded", t.TopologyKey, t.WhenUnsatisfiable, t.MaxSkew)
		if t.LabelSelector != nil {
			w.write(0, " for selector %s", api.FormatLabelSelector(t.LabelSelector))
		}
		w.write(0, "\n")
	}
}
