// Package apiserver is the simulated kube-apiserver's write path: every create, update, patch,
// delete and eviction a client (kubectl, a controller, a kubelet) makes goes through it, and
// it applies the rules the real one applies before the object reaches the store — admission,
// the kind's registry strategy, validation — or refuses the write with a StatusError, the
// metav1.Status the real one would send. Clients only word the refusal.
//
// The store itself (core/cluster) assigns uids, resourceVersions and creation timestamps; the
// controllers' status writes go to it directly.
package apiserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/openapi"
	"daemonlab/core/patch"
)

// SystemNamespaces are the namespaces the API server makes as it starts, in name order: default
// and the three of the system namespaces controller (pkg/controlplane/controller/systemnamespaces).
var SystemNamespaces = []string{"default", "kube-node-lease", "kube-public", "kube-system"}

// CreateSystemNamespaces creates the SystemNamespaces in a new cluster.
func CreateSystemNamespaces(c *cluster.Cluster) error {
	for _, name := range SystemNamespaces {
		ns := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
		ns.Name = name
		if _, err := Create(c, ns, Options{}); err != nil {
			return err
		}
	}
	return nil
}

// Options are a write's options (metav1.CreateOptions and UpdateOptions, of which DaemonLab
// models dryRun): a dry run goes through every check and stores nothing.
type Options struct {
	DryRun bool
}

// KindOf returns the kind an object is of.
func KindOf(obj api.Object) api.Kind {
	name := reflect.TypeOf(obj).Elem().Name()
	for _, k := range api.Kinds {
		if k.Kind == name {
			return k
		}
	}
	panic("apiserver: a " + name + " is no kind DaemonLab serves")
}

// MaxPods bounds the simulated cluster: at most 20,000 pods (Kubernetes' own scalability
// threshold is 150,000 per cluster, 110 per node; DaemonLab holds every object in a browser
// tab's memory), so that no command (kubectl scale --replicas=1000000) can exhaust it.
const MaxPods = 20000

// MaxNodes bounds the simulated cluster's nodes: at most 5,000, the largest cluster Kubernetes
// supports (its documented scalability envelope, "Considerations for large clusters": no more
// than 5,000 nodes, 150,000 pods, 110 pods per node), so that no script of `sim add-node` or
// manifest of nodes can grow a tab's cluster past what Kubernetes itself runs.
const MaxNodes = 5000

// bounds are DaemonLab's own bounds on the cluster, by kind.
var bounds = map[string]int{"Pod": MaxPods, "Node": MaxNodes}

// maxNameGenerationCreateAttempts is how often the store tries a generated name.
const maxNameGenerationCreateAttempts = 8

// Create stores a new object as kube-apiserver's create handler and registry do
// (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go, pkg/registry/rest/create.go
// BeforeCreate), in this order:
//
//  1. NamespaceLifecycle: a namespaced object's namespace must exist (NotFound).
//  2. Defaulting, then the mutating admission chain (see admission): Forbidden.
//  3. What a client may not set goes (WipeObjectMetaSystemFields: a deletion under way); the
//     registry's BeginCreate allocates what the cluster hands out (a service's cluster IP and
//     node ports, see allocateService); and the strategy's PrepareForCreate runs: status
//     reset, generation 1 for workloads and pods.
//  4. generateName gets five random characters appended when name is empty.
//  5. Validation: Invalid; then the validating admission chain: Forbidden.
//  6. DaemonLab's own bounds, checked where ResourceQuota's validating admission would be: a pod
//     past MaxPods, or a node past MaxNodes, is Forbidden.
//  7. The store: an object that sets metadata.resourceVersion is refused first, with a 500
//     and no reason (etcd3/store.go Create: "resourceVersion should not be set on objects to
//     be created"; a dry run's storage never gets there, dryrun.go); then AlreadyExists when
//     the name is taken; a generated name that is taken is generated again, up to
//     maxNameGenerationCreateAttempts (8) tries (pkg/registry/generic/registry/store.go
//     createWithGenerateNameRetry). kubectl clears the resourceVersion of what it creates
//     (cli-runtime resource.Helper.Create with modify), so this refuses only other clients.
//  8. A refused create leaves no trace: the random source is put back where it stood, so the
//     names it drew (a generated name, the token volume's suffix) are drawn again next time.
//
// It returns the stored object (with a dry run, the object as it would be stored).
func Create(c *cluster.Cluster, obj api.Object, o Options) (stored api.Object, err error) {
	mark := c.MarkRandom()
	defer func() {
		if err != nil { // a refused create draws nothing: its generated names are forgotten
			c.ForgetDraws(mark)
		}
	}()
	kind := KindOf(obj)
	m := obj.GetObjectMeta()
	if kind.Namespaced && m.Namespace != "" && c.Get("Namespace", cluster.Key{Name: m.Namespace}) == nil {
		return nil, namespaceNotFound(m.Namespace)
	}
	api.Default(obj)
	if err := admit(c, kind, obj, o); err != nil {
		return nil, err
	}
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = nil, nil
	st := strategies[kind.Kind]
	if st.allocate != nil {
		if err := st.allocate(c, obj, nil, o); err != nil {
			return nil, err
		}
	}
	if st.generation {
		m.Generation = 1
	}
	if st.create != nil {
		st.create(obj)
	}
	generate := m.Name == "" && m.GenerateName != ""
	for attempt := 1; ; attempt++ {
		if generate {
			m.Name = generatedName(m.GenerateName, c.RandomString(5))
		}
		if errs := api.Validate(obj); len(errs) > 0 {
			return nil, invalid(kind, m.Name, errs)
		}
		if err := validate(c, kind, obj, nil); err != nil {
			return nil, err
		}
		if bound, ok := bounds[kind.Kind]; ok && c.Count(kind.Kind) >= bound {
			return nil, forbidden(kind, m.Name, fmt.Sprintf("DaemonLab's cluster holds at most %d %s", bound, kind.Resource))
		}
		if m.ResourceVersion != "" && !o.DryRun {
			return nil, resourceVersionSet()
		}
		if c.Get(kind.Kind, cluster.KeyOf(obj)) == nil {
			break
		}
		if !generate || attempt == maxNameGenerationCreateAttempts {
			return nil, alreadyExists(kind, m.Name)
		}
	}
	if o.DryRun {
		return obj, nil
	}
	if err := c.Create(obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// generatedName appends the random suffix, cutting the base to 58 characters first
// (MaxGeneratedNameLength = 63 - 5, staging/src/k8s.io/apiserver/pkg/storage/names/generate.go).
func generatedName(base, suffix string) string {
	if len(base) > 58 {
		base = base[:58]
	}
	return base + suffix
}

// Update replaces an object as the update handler and registry do (pkg/registry/rest/update.go
// BeforeUpdate):
//
//  1. The object must exist (NotFound); uid and creationTimestamp stay the stored ones, and so
//     does a deletion under way (its deletionTimestamp and grace period).
//  2. Defaulting, the mutating admission chain's update half (a pod keeps its priority), the
//     registry's BeginUpdate (a service keeps what was allocated to it, see allocateService),
//     then the strategy's PrepareForUpdate: the stored status stays, and the generation counts
//     one more only when the spec changed.
//  3. Validation and the update rules (immutable fields; a pod's spec, but for its images,
//     deadline and tolerations, see api.ValidatePodUpdate; a PriorityClass has the update rules
//     only): Invalid, each message once. Then the validating admission chain: Forbidden.
//  4. An update that changes nothing is not written: the stored object comes back, its
//     resourceVersion unchanged.
//  5. An update that leaves an object being deleted without finalizers, its grace period over,
//     deletes it (ShouldDeleteDuringUpdate, staging/src/k8s.io/apiserver/pkg/registry/generic/
//     registry/store.go).
func Update(c *cluster.Cluster, obj api.Object, o Options) (api.Object, error) {
	return update(c, obj, o, false)
}

// UpdateStatus writes an object's status subresource: as Update, but the stored spec stays
// (and the metadata a status writer may not change), and only the status is checked — which
// DaemonLab's validation has no rules for (upstream's status validation checks the counters'
// ranges, which the controllers always keep).
func UpdateStatus(c *cluster.Cluster, obj api.Object, o Options) (api.Object, error) {
	return update(c, obj, o, true)
}

func update(c *cluster.Cluster, obj api.Object, o Options, status bool) (api.Object, error) {
	kind := KindOf(obj)
	m := obj.GetObjectMeta()
	old := c.Get(kind.Kind, cluster.KeyOf(obj))
	if old == nil {
		return nil, NotFound(kind, m.Name)
	}
	om := old.GetObjectMeta()
	m.UID, m.CreationTimestamp, m.ResourceVersion = om.UID, om.CreationTimestamp, om.ResourceVersion
	if om.DeletionTimestamp != nil {
		m.DeletionTimestamp = om.DeletionTimestamp
	}
	if om.DeletionGracePeriodSeconds != nil && m.DeletionGracePeriodSeconds == nil {
		m.DeletionGracePeriodSeconds = om.DeletionGracePeriodSeconds
	}
	api.Default(obj)
	if !status {
		admitUpdate(obj, old)
	}
	st := strategies[kind.Kind]
	if st.allocate != nil && !status {
		if err := st.allocate(c, obj, old, o); err != nil {
			return nil, err
		}
	}
	switch {
	case status && st.status:
		st.prepareForStatusUpdate(obj, old)
	case status:
		return nil, NotFound(kind, m.Name) // no status subresource
	default:
		st.prepareForUpdate(obj, old)
	}
	if !status {
		var errs api.ErrorList
		if !st.updateRulesOnly {
			errs = api.Validate(obj)
		}
		if st.validateUpdate != nil {
			errs = append(errs, st.validateUpdate(obj, old)...).Dedupe()
		}
		if len(errs) > 0 {
			return nil, invalid(kind, m.Name, errs)
		}
		if err := validate(c, kind, obj, old); err != nil {
			return nil, err
		}
	}
	if reflect.DeepEqual(jsonValue(obj), jsonValue(old)) {
		return old, nil
	}
	if o.DryRun {
		return obj, nil
	}
	if om.DeletionTimestamp != nil && len(m.Finalizers) == 0 && (om.DeletionGracePeriodSeconds == nil || *om.DeletionGracePeriodSeconds == 0) {
		c.Delete(old)
		return obj, nil
	}
	if err := c.Update(obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// PatchType is how a patch is read: a strategic merge patch, a JSON merge patch (RFC 7386) or
// a JSON patch (RFC 6902).
type PatchType string

// The patch types kubectl patch --type names.
const (
	StrategicMergePatch PatchType = "strategic"
	MergePatch          PatchType = "merge"
	JSONPatch           PatchType = "json"
)

// MaxJSONPatchOperations is the patch handler's maxJSONPatchOperations.
const MaxJSONPatchOperations = 10000

// Patch applies a patch (decoded JSON) to a stored object as the patch handler does
// (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go):
//
//  1. The object must exist (NotFound).
//  2. The patch is applied to the object's JSON: a strategic merge patch by the merge keys and
//     strategies of the kind's OpenAPI schema, a merge patch as RFC 7386, a JSON patch as
//     RFC 6902. A patch that cannot apply is BadRequest (for a JSON patch, a 422 Invalid with the
//     patch's error as its cause). A JSON patch may hold at most MaxJSONPatchOperations
//     operations (413 RequestEntityTooLarge); its copies are bounded by patch.MaxCopyBytes.
//  3. The result is decoded strictly (BadRequest); it may not change the kind or the name.
//  4. A result with a resourceVersion other than the stored one is a Conflict: the optimistic
//     lock of the registry's Update (generic/registry/store.go); kubectl apply of a saved
//     `kubectl get -o yaml` meets it once the object has changed. Without one, the update is
//     unconditional.
//  5. It is then written as Update writes an object.
func Patch(c *cluster.Cluster, kind api.Kind, key cluster.Key, typ PatchType, p any, o Options) (api.Object, error) {
	old := c.Get(kind.Kind, key)
	if old == nil {
		return nil, NotFound(kind, key.Name)
	}
	original := jsonValue(old)
	var result any
	switch typ {
	case StrategicMergePatch:
		pm, ok := p.(map[string]any)
		if !ok {
			return nil, BadRequest(fmt.Sprintf("json: cannot unmarshal %s into Go value of type map[string]interface {}", api.JSONKind(p)))
		}
		merged, err := patch.Strategic(original.(map[string]any), pm, openapi.Document(kind), openapi.Root(kind))
		if err != nil {
			return nil, BadRequest(err.Error())
		}
		result = merged
	case MergePatch:
		result = patch.Merge(original, p)
	case JSONPatch:
		if ops, ok := p.([]any); ok && len(ops) > MaxJSONPatchOperations {
			return nil, requestEntityTooLarge(fmt.Sprintf("The allowed maximum operations in a JSON patch is %d, got %d", MaxJSONPatchOperations, len(ops)))
		}
		patched, err := patch.JSON(original, p)
		if err != nil {
			return nil, unprocessable(err.Error())
		}
		result = patched
	default:
		return nil, BadRequest(fmt.Sprintf("unknown patch type %q", typ))
	}
	data, err := json.Marshal(result)
	if err != nil {
		return nil, BadRequest(err.Error())
	}
	manifest, err := api.DecodeObject(data)
	var de *api.DecodeError
	switch {
	case errors.As(err, &de):
		return nil, BadRequest(de.Error())
	case err != nil:
		return nil, BadRequest(err.Error())
	case manifest.Kind.Kind != kind.Kind:
		return nil, BadRequest(fmt.Sprintf("the patch changes the object's kind; %s %q stays a %s", kind.GroupResource(), key.Name, kind.Kind))
	}
	obj := manifest.Object
	m := obj.GetObjectMeta()
	if m.Name != key.Name || m.Namespace != key.Namespace {
		return nil, BadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", m.Name, key.Name))
	}
	if m.ResourceVersion != "" && m.ResourceVersion != old.GetObjectMeta().ResourceVersion {
		return nil, conflict(kind, key.Name)
	}
	return Update(c, obj, o)
}

// jsonValue is v as generic JSON values: what the API server's JSON of it reads back as.
func jsonValue(v any) any {
	var out any
	b, _ := json.Marshal(v) // API objects always encode
	_ = json.Unmarshal(b, &out)
	return out
}

// DeleteOptions are a delete's options (metav1.DeleteOptions): the propagation policy, the
// grace period (nil: the object's own) and dryRun.
type DeleteOptions struct {
	Propagation        cluster.Propagation
	GracePeriodSeconds *int64
	DryRun             bool
}

// Delete deletes an object as the delete handler does: NotFound when it does not exist;
// Forbidden when the kind's storage refuses it (a system PriorityClass), dry run or not;
// otherwise the store's graceful deletion (see cluster.DeleteObject). It returns the object as
// it was.
func Delete(c *cluster.Cluster, kind api.Kind, key cluster.Key, o DeleteOptions) (api.Object, error) {
	obj := c.Get(kind.Kind, key)
	if obj == nil {
		return nil, NotFound(kind, key.Name)
	}
	if refuse := strategies[kind.Kind].refuseDelete; refuse != nil {
		if reason := refuse(obj); reason != "" {
			return nil, forbidden(kind, key.Name, reason)
		}
	}
	if !o.DryRun {
		c.DeleteObject(obj, o.Propagation, o.GracePeriodSeconds)
	}
	return obj, nil
}
