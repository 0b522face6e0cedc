package shell

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/kubelet"
	"daemonlab/core/sim"
)

var importFlags = []kubectl.FlagSpec{{Name: "filename", Shorthand: 'f'}}

// importOrder are the kinds `sim import` brings in, in the order it creates them: what an
// object needs (its namespace, its node, its service account, its owner) comes before it.
var importOrder = []string{"Namespace", "Node", "PriorityClass", "ServiceAccount", "Service", "DaemonSet", "Deployment", "ReplicaSet", "Pod", "PodDisruptionBudget"}

// notImported are the kinds DaemonLab serves but does not import, and why.
var notImported = map[string]string{
	"Event":              "events are history, not state",
	"ControllerRevision": "the DaemonSet controller records its own history",
}

// mirrorAnnotation marks a kubelet's mirror pod of a static pod (kubetypes.ConfigMirrorAnnotationKey).
const mirrorAnnotation = "kubernetes.io/config.mirror"

// listed is how many names or fields a line of the import's report lists before "and N more".
const listed = 5

// simImport replaces the cluster with a real one's, read from -f (a file of the workspace, or
// "-" for standard input): `sim import -f cluster.yaml`, the output of `kubectl get
// nodes,daemonsets,deployments,replicasets,pods -A -o yaml`. A file that does not parse, holds
// no object or no node, or none of whose nodes the API server takes, changes nothing; otherwise the cluster is a new one (importCluster) and
// the learner is told what came in and what was left out.
func simImport(s *sim.Sim, args []string, stdin string) Result {
	f, err := kubectl.ParseFlags("import", args, importFlags)
	if err != nil {
		return Result{Err: strings.Replace(err.Error(), "kubectl import", "sim import", 1), Code: 1}
	}
	if len(f.Args) > 0 || !f.Has("filename") {
		return Result{Err: "error: sim import takes a file: sim import -f FILE (-f - reads standard input)\nmake one on a real cluster with: kubectl get nodes,daemonsets,deployments,replicasets,pods -A -o yaml > cluster.yaml", Code: 1}
	}
	srcs, bad := kubectl.Sources(s, f, stdin)
	if bad != nil {
		return *bad
	}
	var found []api.Found
	for _, src := range srcs {
		fs, err := api.DecodeLenient(src.Data)
		if err != nil {
			r := kubectl.ClientError(err, src.Name)
			r.Code = 1
			return r
		}
		found = append(found, fs...)
	}
	names := make([]string, len(srcs))
	for i, src := range srcs {
		names[i] = src.Name
	}
	from := strings.Join(names, ", ")
	if !slices.ContainsFunc(found, func(f api.Found) bool { return f.Kind == "Node" && f.APIVersion == "v1" }) {
		what := "no object"
		if len(found) > 0 {
			what = "no node"
		}
		return Result{Err: fmt.Sprintf("error: %s holds %s: a cluster to import needs its nodes; on the real cluster run\n  kubectl get nodes,daemonsets,deployments,replicasets,pods -A -o yaml > cluster.yaml\nthe cluster here is unchanged", from, what), Code: 1}
	}
	fresh, err := sim.New(s.C.Seed(), sim.Empty)
	if err != nil {
		return Result{Err: "error: " + err.Error(), Code: 1}
	}
	fresh.C.SetNow(s.C.Now()) // time never moves backwards
	rep := importCluster(fresh.C, found)
	refused := "Refused by the API server:\n" + strings.Join(capped(rep.refused), "\n")
	if rep.imported["Node"] == 0 {
		return Result{Err: refused + "\nerror: no node of " + from + " could be imported: the cluster here is unchanged", Code: 1}
	}
	fresh.Settle()
	s.Replace(fresh)
	r := Result{Out: rep.String()}
	if len(rep.refused) > 0 {
		r.Err, r.Code = refused, 1
	}
	return r
}

// importReport is what an import did: counts by kind (by resource name, plural and lower case),
// and what it left out.
type importReport struct {
	imported     map[string]int      // objects from the file, by kind
	created      tally               // objects it needed and the file lacks
	createdNames map[string][]string // their names, by their name in created
	unmodelled   tally               // objects of kinds DaemonLab does not model
	unimported   tally               // objects of kinds DaemonLab serves but does not import
	reasons      map[string]string   // why, by their name in unimported
	finished     int                 // pods that had finished (Succeeded or Failed)
	fields       map[string]tally
	fieldOrder   []string
	ownerless    tally    // dependents whose owner is not imported, by their kind and the owner's
	static       []string // mirror pods imported as plain pods
	notReady     []string // nodes whose Ready condition in the file was not True
	refused      []string
}

// createdOne records an object created for the others.
func (r *importReport) createdOne(kind, name string) {
	r.created.add(kind)
	r.createdNames[kind] = append(r.createdNames[kind], name)
}

// tally counts by a name, keeping the order names came in.
type tally struct {
	names  []string
	counts map[string]int
}

func (t *tally) add(name string) {
	if t.counts == nil {
		t.counts = map[string]int{}
	}
	if t.counts[name] == 0 {
		t.names = append(t.names, name)
	}
	t.counts[name]++
}

// phrases are the counts as "3 nodes", "1 deployment".
func (t tally) phrases() []string {
	out := make([]string, len(t.names))
	for i, n := range t.names {
		out[i] = countOf(t.counts[n], n)
	}
	return out
}

func (t tally) total() int {
	n := 0
	for _, c := range t.counts {
		n += c
	}
	return n
}

// resource names a kind as kubectl names its resource, singular (lower case kind) and plural:
// the served kinds' own, else apimachinery's guess (meta.UnsafeGuessKindToResource: -s, -es
// after s, -ies for a final y), with the group after a dot for a kind outside the core group.
func resource(apiVersion, kind string) (singular, plural string) {
	if k, ok := api.KindFor(apiVersion, kind); ok {
		return strings.ToLower(k.Kind), k.Resource
	}
	singular = strings.ToLower(kind)
	switch {
	case strings.HasSuffix(singular, "s"):
		plural = singular + "es"
	case strings.HasSuffix(singular, "y"):
		plural = strings.TrimSuffix(singular, "y") + "ies"
	default:
		plural = singular + "s"
	}
	if group, _, ok := strings.Cut(apiVersion, "/"); ok {
		singular, plural = singular+"."+group, plural+"."+group
	}
	return singular, plural
}

// countOf is "1 pod" or "3 pods", name being "pod|pods".
func countOf(n int, name string) string {
	singular, plural, _ := strings.Cut(name, "|")
	if n == 1 {
		return fmt.Sprintf("1 %s", singular)
	}
	return fmt.Sprintf("%d %s", n, plural)
}

// kindName is a kind's tally name, "pod|pods".
func kindName(apiVersion, kind string) string {
	singular, plural := resource(apiVersion, kind)
	return singular + "|" + plural
}

// capped keeps the first listed lines, and says how many more there are.
func capped(lines []string) []string {
	if len(lines) <= listed {
		return lines
	}
	return append(slices.Clone(lines[:listed]), fmt.Sprintf("and %d more", len(lines)-listed))
}

// String is the report a learner reads: a line for what came in, then a line for each thing
// left out, the longest lists cut after a few entries.
func (r importReport) String() string {
	var b strings.Builder
	var in []string
	for _, kind := range reportOrder {
		if n := r.imported[kind]; n > 0 {
			in = append(in, countOf(n, kindName(kindAPIVersion(kind), kind)))
		}
	}
	fmt.Fprintf(&b, "Imported %s.\n", strings.Join(in, ", "))
	if len(r.created.names) > 0 {
		var cs []string
		for i, p := range r.created.phrases() {
			cs = append(cs, fmt.Sprintf("%s (%s)", p, strings.Join(capped(r.createdNames[r.created.names[i]]), ", ")))
		}
		fmt.Fprintf(&b, "Created what they need and the file lacks: %s.\n", strings.Join(cs, ", "))
	}
	var out []string
	if len(r.unmodelled.names) > 0 {
		out = append(out, strings.Join(capped(r.unmodelled.phrases()), ", ")+" (DaemonLab does not model them)")
	}
	for _, n := range r.unimported.names {
		out = append(out, fmt.Sprintf("%s (%s)", countOf(r.unimported.counts[n], n), r.reasons[n]))
	}
	if r.finished > 0 {
		out = append(out, countOf(r.finished, "pod that had finished|pods that had finished"))
	}
	if len(out) > 0 {
		fmt.Fprintf(&b, "Left out: %s.\n", strings.Join(out, "; "))
	}
	if len(r.fieldOrder) > 0 {
		paths := slices.Clone(r.fieldOrder)
		slices.SortStableFunc(paths, func(a, b string) int { return cmp.Compare(r.fields[b].total(), r.fields[a].total()) })
		var fs []string
		for _, p := range paths {
			fs = append(fs, fmt.Sprintf("%s (%s)", p, strings.Join(r.fields[p].phrases(), ", ")))
		}
		fmt.Fprintf(&b, "Fields DaemonLab does not model, left out: %s.\n", strings.Join(capped(fs), ", "))
	}
	if len(r.ownerless.names) > 0 {
		fmt.Fprintf(&b, "Kept without their owner, which is not imported: %s.\n", strings.Join(capped(r.ownerless.phrases()), ", "))
	}
	if len(r.static) > 0 {
		fmt.Fprintf(&b, "Mirror pods imported as plain pods bound to their nodes (a dump holds no kubelet's static pod manifests: deleted, they do not come back): %s.\n", strings.Join(capped(r.static), ", "))
	}
	if len(r.notReady) > 0 {
		fmt.Fprintf(&b, "Not Ready in the file, Ready here (their kubelets run): %s; sim fail NODE not-ready (or kubelet-down) makes a node so again.\n", strings.Join(capped(r.notReady), ", "))
	}
	if r.imported["Pod"]+r.imported["DaemonSet"]+r.imported["Deployment"]+r.imported["ReplicaSet"] > 0 {
		b.WriteString("The kubelets start the pods now: sim advance 5s, then kubectl get pods -A -o wide.\n")
	}
	return b.String()
}

// importCluster creates the objects found in a new cluster as a fresh API server would store
// them, in importOrder, and reports what it did:
//
//  1. Of the kinds served, Namespaces, Nodes, PriorityClasses, ServiceAccounts, Services,
//     DaemonSets, Deployments, ReplicaSets, Pods and PodDisruptionBudgets are imported; Events and ControllerRevisions
//     are left out (notImported), and so is every kind DaemonLab does not model, counted by
//     kind; so are pods that had finished (status.phase Succeeded or Failed), which a kubelet
//     would not run again.
//  2. What the server sets is dropped, and the new cluster sets it anew (clearServerFields).
//  3. A node joins as its kubelet registers it (kubelet.Join): the file's labels, annotations,
//     taints, spec, capacity, allocatable, addresses and system info, and the conditions of a
//     healthy kubelet (its own, not the file's: a node not Ready there is named, and `sim fail`
//     makes it so again).
//  4. Owner references point to the new owners (by the old owner's uid); a reference to an
//     owner not imported is dropped, and the dependent kept without it (a StatefulSet's pods
//     stay). A mirror pod (kubernetes.io/config.mirror) is a plain pod bound to its node, its
//     Node owner dropped: a dump holds no kubelet's static pod manifests to run it from.
//  5. The namespaces and service accounts the objects name but the file lacks are created
//     (the dump of `kubectl get nodes,daemonsets,…` holds neither), as an administrator would
//     before applying the rest.
//  6. A field DaemonLab does not model is left out, counted by field path and kind; nothing
//     under status is counted (status is set anew).
//  7. An object a new cluster has already (the system namespaces, their default service
//     accounts, the system PriorityClasses) is the new cluster's, counted as imported.
//  8. An object the API server refuses (admission, validation, a bound such as
//     apiserver.MaxNodes) is left out with the server's message, as kubectl words it.
func importCluster(c *cluster.Cluster, found []api.Found) importReport {
	rep := importReport{imported: map[string]int{}, createdNames: map[string][]string{}, fields: map[string]tally{}, reasons: map[string]string{}}
	byKind := map[string][]api.Found{}
	for _, f := range found {
		name := kindName(f.APIVersion, f.Kind)
		switch {
		case f.Err != nil:
			rep.refused = append(rep.refused, "Error from server (BadRequest): "+f.Err.Error())
		case f.Manifest.Object == nil:
			rep.unmodelled.add(name)
		case notImported[f.Kind] != "":
			rep.unimported.add(name)
			rep.reasons[name] = notImported[f.Kind]
		case f.Kind == "Pod" && finished(f.Manifest.Object.(*api.Pod)):
			rep.finished++
		default:
			byKind[f.Kind] = append(byKind[f.Kind], f)
		}
	}
	uids := map[string]string{} // the file's uids of the objects imported to their new ones
	for _, kind := range importOrder {
		switch kind {
		case "ServiceAccount":
			createNamespaces(c, byKind, &rep)
		case "DaemonSet":
			createServiceAccounts(c, byKind, &rep)
		}
		for _, f := range byKind[kind] {
			obj := f.Manifest.Object
			m := obj.GetObjectMeta()
			oldUID := m.UID
			if n, ok := obj.(*api.Node); ok && notReadyInFile(n) {
				rep.notReady = append(rep.notReady, n.Name)
			}
			countFields(&rep, f)
			clearServerFields(obj)
			adopt(obj, uids, &rep)
			stored := c.Get(kind, cluster.KeyOf(obj))
			var err error
			if stored == nil {
				stored, err = createImported(c, obj)
			}
			if err != nil {
				rep.refused = append(rep.refused, kubectl.ServerError(err))
				continue
			}
			uids[oldUID] = stored.GetObjectMeta().UID
			rep.imported[kind]++
		}
	}
	return rep
}

// reportOrder is the order the report counts the kinds imported in: `kubectl get
// nodes,daemonsets,deployments,replicasets,pods`'s, then the others.
var reportOrder = []string{"Node", "DaemonSet", "Deployment", "ReplicaSet", "Pod", "Namespace", "PriorityClass", "ServiceAccount", "PodDisruptionBudget"}

// kindAPIVersion is the apiVersion DaemonLab serves a kind at.
func kindAPIVersion(kind string) string {
	for _, k := range api.Kinds {
		if k.Kind == kind {
			return k.APIVersion()
		}
	}
	return ""
}

// notReadyInFile reports whether a node's Ready condition, as the file has it, is there and
// not True (False, or Unknown when its kubelet had stopped).
func notReadyInFile(n *api.Node) bool {
	return slices.ContainsFunc(n.Status.Conditions, func(c api.NodeCondition) bool {
		return c.Type == api.NodeReady && c.Status != api.ConditionTrue
	})
}

// finished reports whether a pod had run to its end: a kubelet runs it no more.
func finished(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
}

// createImported creates one object: a node as its kubelet joins it (importCluster's rule 3),
// the others through the API server.
func createImported(c *cluster.Cluster, obj api.Object) (api.Object, error) {
	n, ok := obj.(*api.Node)
	if !ok {
		return apiserver.Create(c, obj, apiserver.Options{})
	}
	st := n.Status
	opts := kubelet.NodeOptions{Labels: n.Labels, Taints: n.Spec.Taints, Capacity: st.Capacity, Allocatable: st.Allocatable, Addresses: st.Addresses}
	if st.NodeInfo != (api.NodeSystemInfo{}) {
		opts.NodeInfo = &st.NodeInfo
	}
	if opts.Capacity == nil {
		opts.Allocatable = nil // a node that reports no capacity has the usual machine's
	}
	joined := kubelet.NewNode(n.Name, kubelet.FreeAddress(c), opts, c.Now())
	joined.Annotations, joined.OwnerReferences, joined.Finalizers = n.Annotations, n.OwnerReferences, n.Finalizers
	joined.Spec = n.Spec
	if err := kubelet.Join(c, joined, nil); err != nil {
		return nil, err
	}
	return joined, nil
}

// clearServerFields drops what the API server sets on a create, as a fresh one would set it
// anew (staging/src/k8s.io/apiserver/pkg/registry/rest/create.go BeforeCreate and the
// registry's store):
//
//  1. metadata.uid: the store gives a new one (the file's is kept aside to remap owner
//     references).
//  2. metadata.resourceVersion: the store refuses one on a create, and numbers the object anew.
//  3. metadata.generation: the strategy's PrepareForCreate starts it at 1 (a DaemonSet keeps
//     its template generation, deprecated.daemonset.template.generation, so its pods match).
//  4. metadata.creationTimestamp: the store's, the instant of the import.
//  5. metadata.managedFields: DaemonLab keeps none.
//  6. metadata.selfLink: no longer set since Kubernetes v1.20 (WipeObjectMetaSystemFields).
//  7. metadata.deletionTimestamp and deletionGracePeriodSeconds: the object comes in live
//     (BeforeCreate wipes them).
//  8. status: the controllers and kubelets write their own; a node's machine facts were
//     taken before (createImported).
//
// Pods' names, generated ones included, stay as in the file (generateName applies only when
// the name is empty), and so does spec.nodeName: a pod comes in bound to its node.
func clearServerFields(obj api.Object) {
	m := obj.GetObjectMeta()
	m.UID, m.ResourceVersion, m.Generation, m.CreationTimestamp = "", "", 0, api.Time{}
	m.ManagedFields, m.SelfLink, m.DeletionTimestamp, m.DeletionGracePeriodSeconds = nil, "", nil, nil
	switch o := obj.(type) {
	case *api.Pod:
		o.Status = api.PodStatus{}
	case *api.DaemonSet:
		o.Status = api.DaemonSetStatus{}
	case *api.Deployment:
		o.Status = api.DeploymentStatus{}
	case *api.ReplicaSet:
		o.Status = api.ReplicaSetStatus{}
	case *api.PodDisruptionBudget:
		o.Status = api.PodDisruptionBudgetStatus{}
	case *api.Namespace:
		o.Status = api.NamespaceStatus{}
	}
}

// adopt points an object's owner references to the owners imported before it (importCluster's
// rule 4), and drops the others.
func adopt(obj api.Object, uids map[string]string, rep *importReport) {
	m := obj.GetObjectMeta()
	mirror := false
	if pod, ok := obj.(*api.Pod); ok {
		_, mirror = pod.Annotations[mirrorAnnotation]
		if mirror {
			rep.static = append(rep.static, pod.Namespace+"/"+pod.Name)
		}
	}
	var kept []api.OwnerReference
	for _, ref := range m.OwnerReferences {
		uid, ok := uids[ref.UID]
		switch {
		case mirror && ref.Kind == "Node": // reported as a static pod
		case ok:
			ref.UID = uid
			kept = append(kept, ref)
		default:
			singular, plural := resource(obj.GetTypeMeta().APIVersion, obj.GetTypeMeta().Kind)
			rep.ownerless.add(fmt.Sprintf("%s (owner: %s)|%s (owner: %[2]s)", singular, ref.Kind, plural))
		}
	}
	m.OwnerReferences = kept
}

// countFields counts the fields of an object its kind does not model (importCluster's rule 6).
func countFields(rep *importReport, f api.Found) {
	for _, p := range f.Skipped {
		if p == "status" || strings.HasPrefix(p, "status.") {
			continue
		}
		t, ok := rep.fields[p]
		if !ok {
			rep.fieldOrder = append(rep.fieldOrder, p)
		}
		t.add(kindName(f.APIVersion, f.Kind))
		rep.fields[p] = t
	}
}

// createNamespaces creates the namespaces the objects to import are in that neither the new
// cluster nor the file has (importCluster's rule 5; the file's are created by then).
func createNamespaces(c *cluster.Cluster, byKind map[string][]api.Found, rep *importReport) {
	for _, kind := range importOrder {
		for _, f := range byKind[kind] {
			name := f.Manifest.Object.GetObjectMeta().Namespace
			if name == "" || c.Get("Namespace", cluster.Key{Name: name}) != nil {
				continue
			}
			ns := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
			ns.Name = name
			if _, err := apiserver.Create(c, ns, apiserver.Options{}); err == nil {
				rep.createdOne("namespace|namespaces", name)
			}
		}
	}
}

// createServiceAccounts creates the service accounts the pods and pod templates to import name
// that neither the new cluster nor the file has (importCluster's rule 5; the file's are created
// by then). A namespace's default one is the ServiceAccount admission's and controller's.
func createServiceAccounts(c *cluster.Cluster, byKind map[string][]api.Found, rep *importReport) {
	for _, kind := range importOrder {
		for _, f := range byKind[kind] {
			spec := podSpecOf(f.Manifest.Object)
			if spec == nil {
				continue
			}
			name := cmp.Or(spec.ServiceAccountName, spec.DeprecatedServiceAccount)
			ns := f.Manifest.Object.GetObjectMeta().Namespace
			if name == "" || name == api.DefaultServiceAccountName || c.Get("ServiceAccount", cluster.Key{Namespace: ns, Name: name}) != nil {
				continue
			}
			sa := apiserver.DefaultServiceAccount(ns)
			sa.Name = name
			if _, err := apiserver.Create(c, sa, apiserver.Options{}); err == nil {
				rep.createdOne("serviceaccount|serviceaccounts", ns+"/"+name)
			}
		}
	}
}

// podSpecOf is a pod's spec, or a workload's pod template's; nil for other kinds.
func podSpecOf(obj api.Object) *api.PodSpec {
	switch o := obj.(type) {
	case *api.Pod:
		return &o.Spec
	case *api.DaemonSet:
		return &o.Spec.Template.Spec
	case *api.Deployment:
		return &o.Spec.Template.Spec
	case *api.ReplicaSet:
		return &o.Spec.Template.Spec
	}
	return nil
}
