package daemon

import (
	"encoding/json"
	"hash/fnv"
	"maps"
	"slices"
	"sort"
	"strconv"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// Labels the controller puts on its pods (§4).
const (
	ControllerRevisionHashLabel = "controller-revision-hash"
	PodTemplateGenerationLabel  = "pod-template-generation"
)

// Plan is what one sync of one DaemonSet decided: the nodes that need a pod and the pods to
// delete. Reconcile makes it; Apply carries it out and then writes the status.
type Plan struct {
	DaemonSet    *api.DaemonSet
	Hash         string   // the current template hash, for the new pods' labels
	NodesNeeding []string // in node-name order
	PodsToDelete []*api.Pod
	Failed       []*api.Pod // failed pods to delete, each a step of its node's back-off
	Succeeded    []*api.Pod // succeeded pods to delete
}

// Empty reports whether the plan changes nothing but, perhaps, the status.
func (p Plan) Empty() bool {
	return len(p.NodesNeeding) == 0 && len(p.PodsToDelete) == 0 && len(p.Failed) == 0 && len(p.Succeeded) == 0
}

// Reconcile decides what ds needs, in the order of upstream's syncDaemonSet (§5.1) and without
// changing the cluster:
//
//  1. A DaemonSet being deleted gets nothing.
//  2. Its pods are mapped to their target nodes; terminal pods being deleted are ignored.
//  3. For every node, in name order (Kubernetes walks a map; a simulator must not), the node
//     decides: shouldRun without a pod needs one; a pod where it should not continue running is
//     deleted; of several pods the oldest stays (podsShouldBeOnNode, §5.3).
//  4. Pods pinned to nodes that no longer exist and not yet bound are deleted (§5.4).
//  5. A RollingUpdate deletes the old pods its budget allows (see rollingUpdate); manage
//     creates their replacements once they are gone.
//  6. A failed pod is deleted (event FailedDaemonPod) and replaced, but no sooner than its
//     node's back-off allows: 1s, doubling to 15m, forgotten after 30m; a succeeded pod is
//     deleted (event SucceededDaemonPod).
//
// The status is computed after the plan is carried out (Apply, Status), as upstream's
// updateDaemonSetStatus runs after manage.
//
// Its history (ControllerRevisions) is PlanHistory's; Sync runs both.
//
// Not yet modelled (the DaemonSet controller issue): adoption and release of pods, slow-start
// batches.
func Reconcile(c *cluster.Cluster, ds *api.DaemonSet) Plan {
	plan := Plan{DaemonSet: ds, Hash: TemplateHash(&ds.Spec.Template, ds.Status.CollisionCount)}
	if ds.DeletionTimestamp != nil {
		return plan
	}
	nodes := c.Nodes()
	byNode := podsByNode(c, ds)
	existing := map[string]bool{}
	for _, node := range nodes {
		existing[node.Name] = true
		shouldRun, shouldContinueRunning := NodeShouldRunDaemonPod(node, ds)
		pods := byNode[node.Name]
		switch {
		case shouldRun && len(pods) == 0:
			plan.NodesNeeding = append(plan.NodesNeeding, node.Name)
		case !shouldContinueRunning:
			for _, p := range pods {
				if p.DeletionTimestamp == nil {
					plan.PodsToDelete = append(plan.PodsToDelete, p)
				}
			}
		default:
			var running []*api.Pod
			for _, p := range runningPods(pods) {
				switch {
				case p.Status.Phase == api.PodFailed && !inBackoff(c, backoffKey(ds, node.Name)):
					plan.Failed = append(plan.Failed, p)
				case p.Status.Phase == api.PodFailed: // still backing off: wait
				case p.Status.Phase == api.PodSucceeded:
					plan.Succeeded = append(plan.Succeeded, p)
				default:
					running = append(running, p)
				}
			}
			need, remove := keepOnNode(c, ds, running, shouldRun, plan.Hash)
			if need {
				plan.NodesNeeding = append(plan.NodesNeeding, node.Name)
			}
			plan.PodsToDelete = append(plan.PodsToDelete, remove...)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byNode)) {
		if existing[name] {
			continue
		}
		for _, p := range byNode[name] {
			if p.Spec.NodeName == "" {
				plan.PodsToDelete = append(plan.PodsToDelete, p)
			}
		}
	}
	remove, create := rollingUpdate(c, ds, nodes, byNode, plan.Hash)
	for _, p := range remove {
		if !slices.Contains(plan.PodsToDelete, p) {
			plan.PodsToDelete = append(plan.PodsToDelete, p)
		}
	}
	for _, n := range create {
		if !slices.Contains(plan.NodesNeeding, n) {
			plan.NodesNeeding = append(plan.NodesNeeding, n)
		}
	}
	slices.Sort(plan.NodesNeeding)
	return plan
}

// keepOnNode is the rest of podsShouldBeOnNode for a node whose pods may keep running (running
// excludes pods being deleted, oldest first):
//
//  1. Without surge, the oldest pod stays and the others go.
//  2. With surge, a node with no running pod gets one if it should run one (even while the
//     old one terminates); of several, the oldest new and the oldest old stay and the rest go;
//     the old one goes too once the new one is available, or at once if it is not ready.
func keepOnNode(c *cluster.Cluster, ds *api.DaemonSet, running []*api.Pod, shouldRun bool, hash string) (need bool, remove []*api.Pod) {
	if !allowsSurge(ds) {
		return false, running[min(1, len(running)):]
	}
	if len(running) <= 1 {
		return len(running) == 0 && shouldRun, nil
	}
	var oldestNew, oldestOld *api.Pod
	for _, p := range running {
		switch {
		case p.Labels[ControllerRevisionHashLabel] == hash && oldestNew == nil:
			oldestNew = p
		case p.Labels[ControllerRevisionHashLabel] != hash && oldestOld == nil:
			oldestOld = p
		default:
			remove = append(remove, p)
		}
	}
	if oldestNew != nil && oldestOld != nil && (!api.IsPodReady(oldestOld) || api.IsPodAvailable(oldestNew, ds.Spec.MinReadySeconds, c.Now())) {
		remove = append(remove, oldestOld)
	}
	return false, remove
}

// runningPods returns the pods not being deleted, oldest first (podByCreationTimestampAndPhase:
// bound pods first, then by creation time, then by name).
func runningPods(pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	sortPods(out)
	return out
}

func sortPods(pods []*api.Pod) {
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := pods[i], pods[j]
		if (a.Spec.NodeName != "") != (b.Spec.NodeName != "") {
			return a.Spec.NodeName != ""
		}
		if !a.CreationTimestamp.Equal(b.CreationTimestamp.Time) {
			return a.CreationTimestamp.Before(b.CreationTimestamp.Time)
		}
		return a.Name < b.Name
	})
}

// ownedPods returns the pods ds controls: same namespace, its controller reference, labels that
// its selector still matches.
func ownedPods(c *cluster.Cluster, ds *api.DaemonSet) []*api.Pod {
	sel, err := api.LabelSelectorAsSelector(ds.Spec.Selector)
	if err != nil {
		return nil
	}
	var out []*api.Pod
	for _, p := range c.Pods() {
		if p.Namespace == ds.Namespace && isControlledBy(p, ds) && sel.Matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

func isControlledBy(p *api.Pod, ds *api.DaemonSet) bool {
	ref, ok := api.ControllerOf(&p.ObjectMeta)
	return ok && ref.UID == ds.UID
}

// podsByNode maps ds's pods to their target nodes (getNodesToDaemonPods with
// includeDeletedTerminal=false).
func podsByNode(c *cluster.Cluster, ds *api.DaemonSet) map[string][]*api.Pod {
	m := map[string][]*api.Pod{}
	for _, p := range ownedPods(c, ds) {
		terminal := p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodSucceeded
		if terminal && p.DeletionTimestamp != nil {
			continue
		}
		node, err := GetTargetNodeName(p)
		if err != nil {
			continue
		}
		m[node] = append(m[node], p)
	}
	return m
}

// Status computes the DaemonSet status of §7 from the cluster as it is: per node, shouldRun and
// whether a pod is scheduled; readiness, availability and being up to date are judged on the
// node's oldest pod.
func Status(c *cluster.Cluster, ds *api.DaemonSet) api.DaemonSetStatus {
	nodes, byNode := c.Nodes(), podsByNode(c, ds)
	hash := TemplateHash(&ds.Spec.Template, ds.Status.CollisionCount)
	s := api.DaemonSetStatus{ObservedGeneration: ds.Generation, CollisionCount: ds.Status.CollisionCount}
	for _, node := range nodes {
		shouldRun, _ := NodeShouldRunDaemonPod(node, ds)
		pods := append([]*api.Pod(nil), byNode[node.Name]...)
		scheduled := len(pods) > 0
		switch {
		case shouldRun:
			s.DesiredNumberScheduled++
		case scheduled:
			s.NumberMisscheduled++
		}
		if !shouldRun || !scheduled {
			continue
		}
		s.CurrentNumberScheduled++
		sortPods(pods)
		oldest := pods[0]
		if isPodUpdated(oldest, hash, ds.TemplateGeneration()) {
			s.UpdatedNumberScheduled++
		}
		if api.IsPodReady(oldest) {
			s.NumberReady++
			if api.IsPodAvailable(oldest, ds.Spec.MinReadySeconds, c.Now()) {
				s.NumberAvailable++
			}
		}
	}
	s.NumberUnavailable = s.DesiredNumberScheduled - s.NumberAvailable
	return s
}

// isPodUpdated reports whether a pod is of the current template: its hash label matches, or
// its template generation does (IsPodUpdated).
func isPodUpdated(p *api.Pod, hash string, generation int64) bool {
	return p.Labels[ControllerRevisionHashLabel] == hash || p.Labels[PodTemplateGenerationLabel] == strconv.FormatInt(generation, 10)
}

// TemplateHash names a pod template the way controller.ComputeHash does: an FNV-32a hash, with
// the collision count mixed in, written in decimal and passed through rand.SafeEncodeString.
// Upstream hashes a Go-syntax dump of its own types; DaemonLab hashes the template's JSON, so
// the hashes have the same shape (8-10 characters of 4-9, b, c, d, f) but not the same value.
func TemplateHash(t *api.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	b, _ := json.Marshal(t)
	h.Write(b)
	if collisionCount != nil {
		var buf [4]byte
		for i := range buf {
			buf[i] = byte(uint32(*collisionCount) >> (8 * i))
		}
		h.Write(buf[:])
	}
	return safeEncode(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// safeEncode maps every byte to apimachinery's alphanums, as rand.SafeEncodeString.
func safeEncode(s string) string {
	const alphanums = "bcdfghjklmnpqrstvwxz2456789"
	b := []byte(s)
	for i, c := range b {
		b[i] = alphanums[int(c)%len(alphanums)]
	}
	return string(b)
}
