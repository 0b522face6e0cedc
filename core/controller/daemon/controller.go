package daemon

import (
	"cmp"
	"slices"
	"strconv"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/controller"
)

// burstReplicas caps the pods one sync creates, and those it deletes (kube-controller-manager's
// BurstReplicas for DaemonSets).
const burstReplicas = 250

// retries is the controller's rate limiter for syncs whose creates failed.
var retries = controller.NewRetries(component)

// Plan is what one pass of manage or rollingUpdate decided: the pods to adopt and release, the
// nodes that need a pod and the pods to delete. Manage and rollingPlan make it; Apply carries
// it out.
type Plan struct {
	DaemonSet    *api.DaemonSet
	Hash         string // the current revision's hash, for the new pods' labels
	Claims       controller.Claims[*api.Pod]
	NodesNeeding []string   // in node-name order
	PodsToDelete []*api.Pod // failed and succeeded ones included, in the order found
	Failed       []*api.Pod // failed pods to delete, each a step of its node's back-off
	Succeeded    []*api.Pod // succeeded pods to delete
}

// Outcome is what a sync did, for tests that count as upstream's do.
type Outcome struct {
	Created, Deleted int
	Changed          bool // anything written, status and history included
	Capped           bool // burstReplicas left creates or deletes for the next sync
	// Rest is what a sync cut short by burstReplicas left to create, when creating is all it
	// had to do (see SyncRest); nil otherwise.
	Rest *Plan
}

func (o *Outcome) add(p Outcome) {
	o.Created += p.Created
	o.Deleted += p.Deleted
	o.Changed = o.Changed || p.Changed
	o.Capped = o.Capped || p.Capped
}

// Sync is one sync of one DaemonSet, in the order of upstream's syncDaemonSet
// (pkg/controller/daemon/daemon_controller.go):
//
//  1. A selector that selects everything ({}) gets the Warning SelectingAll and nothing else
//     (validation refuses it; a DaemonSet stored around validation could still have one).
//  2. A DaemonSet being deleted gets nothing, not even a status.
//  3. Its history: the current ControllerRevision and its hash (PlanHistory); a hash collision
//     ends the sync, the next one hashes with the new collision count.
//  4. manage: pods created and deleted per node (Manage).
//  5. For a RollingUpdate, the old pods the budget allows go, or surge pods are created
//     (rollingPlan), judged on the pods as manage left them. The API server's answers are
//     observed at once, so the controller's expectations are always met. After a sync whose
//     create failed, creates wait for the rate-limited retry (controller.Retries).
//  6. Old revisions beyond the history limit go (PlanCleanup).
//  7. The status is written if it changed.
func Sync(c *cluster.Cluster, ds *api.DaemonSet) Outcome {
	var out Outcome
	if ds.Spec.Selector != nil && len(ds.Spec.Selector.MatchLabels) == 0 && len(ds.Spec.Selector.MatchExpressions) == 0 {
		c.Record(ds, cluster.EventWarning, "SelectingAll", "This daemon set is selecting all pods. A non-empty selector is required.", component, "")
		return out
	}
	if ds.DeletionTimestamp != nil {
		return out
	}
	h := PlanHistory(c, ds)
	out.Changed = ApplyHistory(c, ds, h)
	if h.Collision {
		return out
	}
	manage, byNode := planManage(c, ds, h.Hash)
	waiting := retries.Waiting(c, ds)
	if waiting {
		manage.NodesNeeding = nil
	}
	owned := &ownedNow{c: c, ds: ds}
	if len(manage.Claims.Adopt)+len(manage.Claims.Release) == 0 {
		owned.pods, owned.nodes, owned.writes, owned.known = manage.Claims.Owned, byNode, c.Writes(), true
	}
	managed := Apply(c, manage)
	out.add(managed)
	var rolling Plan
	if ds.Spec.UpdateStrategy.Type == api.RollingUpdateDaemonSetStrategyType {
		rolling = rollingPlan(c, ds, h.Hash, owned.get())
		if waiting {
			rolling.NodesNeeding = nil
		}
		out.add(Apply(c, rolling))
	}
	cleanup := PlanCleanup(c, ds)
	for _, cr := range cleanup {
		c.Delete(cr)
		out.Changed = true
	}
	if st := status(c, ds, h.Hash, owned.byNode()); !statusEqual(ds.Status, st) {
		updated := *ds
		updated.Status = st
		out.Changed = updateStatus(c, &updated) || out.Changed
	}
	onlyCreates := len(manage.PodsToDelete)+len(manage.Failed)+len(manage.Succeeded) == 0 &&
		len(rolling.NodesNeeding)+len(rolling.PodsToDelete) == 0 && len(cleanup) == 0
	if managed.Capped && onlyCreates {
		out.Rest = &Plan{Hash: h.Hash, NodesNeeding: manage.NodesNeeding[burstReplicas:]}
	}
	return out
}

// updateStatus writes a DaemonSet's status through the API server's status subresource
// (updateDaemonSetStatus's UpdateStatus), and reports whether it wrote anything.
func updateStatus(c *cluster.Cluster, ds *api.DaemonSet) bool {
	stored, err := apiserver.UpdateStatus(c, ds, apiserver.Options{})
	return err == nil && stored == api.Object(ds)
}

// SyncRest is the sync that follows one cut short by burstReplicas whose only work was creating
// pods (Outcome.Rest), when nothing but its own writes happened since. A whole sync would find
// the same history, claims and verdicts, and a plan that is the rest less the nodes just served,
// so SyncRest does what it would do without reading every node and pod again:
//
//  1. The next pods are created (syncNodes: at most burstReplicas, in slow-start batches).
//  2. The status moves by the new pods alone: each is the only pod of a node that should run
//     one, pinned there and of the current template, and not yet ready, so
//     currentNumberScheduled and updatedNumberScheduled grow by the pods created.
//
// TestSyncRestIsAWholeSync holds it to the whole sync's result.
func SyncRest(c *cluster.Cluster, ds *api.DaemonSet, rest Plan) Outcome {
	rest.DaemonSet = ds
	out := syncNodes(c, rest, createPod(c))
	if out.Created > 0 {
		updated := *ds
		updated.Status.CurrentNumberScheduled += int32(out.Created)
		updated.Status.UpdatedNumberScheduled += int32(out.Created)
		out.Changed = updateStatus(c, &updated) || out.Changed
	}
	if out.Capped {
		out.Rest = &Plan{Hash: rest.Hash, NodesNeeding: rest.NodesNeeding[burstReplicas:]}
	}
	return out
}

// Manage decides what manage does for ds without changing the cluster:
//
//  1. ds claims the pods of its namespace (controller.Claim): orphans its selector matches
//     are adopted, pods it controls that its selector no longer matches are released.
//  2. Its pods are mapped to their target nodes (nodeName, or the node-affinity pin); finished
//     pods being deleted are ignored.
//  3. For every node, in name order (Kubernetes walks a map; a simulator must not), the node
//     decides (podsShouldBeOnNode): shouldRun without a pod needs one; where it should not
//     continue running, every pod not already being deleted goes; otherwise failed and
//     succeeded pods go, and of the running ones the oldest stays (keepOnNode).
//  4. A failed pod is deleted (event FailedDaemonPod) and replaced in a later sync, but no
//     sooner than its node's back-off allows: 1s, doubling to 15m, forgotten after 30m; a
//     succeeded pod is deleted (event SucceededDaemonPod).
//  5. Pods pinned to nodes that no longer exist and not yet bound are deleted; bound ones are
//     left to pod garbage collection (getUnscheduledPodsWithoutNode).
func Manage(c *cluster.Cluster, ds *api.DaemonSet, hash string) Plan {
	plan, _ := planManage(c, ds, hash)
	return plan
}

// planManage is Manage, also returning the pods it claimed by node.
func planManage(c *cluster.Cluster, ds *api.DaemonSet, hash string) (Plan, map[string][]*api.Pod) {
	plan := Plan{DaemonSet: ds, Hash: hash, Claims: controller.Claim(ds, "apps/v1", "DaemonSet", ds.Spec.Selector, c.AllPods())}
	byNode := mapByNode(plan.Claims.Owned)
	pred := newPredicates(ds)
	withPods := 0 // how many of byNode's nodes exist
	for node := range c.AllNodes() {
		if _, ok := byNode[node.Name]; ok {
			withPods++
		}
		d := pred.decide(node)
		shouldRun, shouldContinueRunning := d.ShouldRun, d.ShouldContinueRunning
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
				case p.Status.Phase == api.PodFailed && !inBackoff(c, failedPodsBackoffKey(ds, node.Name)):
					plan.Failed = append(plan.Failed, p)
					plan.PodsToDelete = append(plan.PodsToDelete, p)
				case p.Status.Phase == api.PodFailed: // still backing off: wait
				case p.Status.Phase == api.PodSucceeded:
					plan.Succeeded = append(plan.Succeeded, p)
					plan.PodsToDelete = append(plan.PodsToDelete, p)
				default:
					running = append(running, p)
				}
			}
			need, remove := keepOnNode(c, ds, running, shouldRun, hash)
			if need {
				plan.NodesNeeding = append(plan.NodesNeeding, node.Name)
			}
			plan.PodsToDelete = append(plan.PodsToDelete, remove...)
		}
	}
	var gone []string // nodes the DaemonSet has pods for that do not exist
	for name := range byNode {
		if withPods == len(byNode) {
			break
		}
		if c.Node(name) == nil {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	for _, name := range gone {
		for _, p := range byNode[name] {
			if p.Spec.NodeName == "" {
				plan.PodsToDelete = append(plan.PodsToDelete, p)
			}
		}
	}
	return plan, byNode
}

// keepOnNode is the rest of podsShouldBeOnNode for a node whose pods may keep running (running
// excludes pods being deleted, oldest first):
//
//  1. Without surge, the oldest pod stays and the others go.
//  2. With surge, a node with no running pod gets one if it should run one (even while the
//     old one terminates); of several, the oldest new and the oldest old stay and the rest go;
//     the old one goes too once the new one is available, or at once if it is not ready.
func keepOnNode(c *cluster.Cluster, ds *api.DaemonSet, running []*api.Pod, shouldRun bool, hash string) (need bool, remove []*api.Pod) {
	if !AllowsSurge(ds) {
		return false, running[min(1, len(running)):]
	}
	if len(running) <= 1 {
		return len(running) == 0 && shouldRun, nil
	}
	var oldestNew, oldestOld *api.Pod
	for _, p := range running {
		switch {
		case p.Labels[api.LabelControllerRevisionHash] == hash && oldestNew == nil:
			oldestNew = p
		case p.Labels[api.LabelControllerRevisionHash] != hash && oldestOld == nil:
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

func sortPods(pods []*api.Pod) { slices.SortStableFunc(pods, comparePods) }

// comparePods orders pods as podByCreationTimestampAndPhase: bound first, then by creation
// time, then by name.
func comparePods(a, b *api.Pod) int {
	if (a.Spec.NodeName != "") != (b.Spec.NodeName != "") {
		if a.Spec.NodeName != "" {
			return -1
		}
		return 1
	}
	return cmp.Or(a.CreationTimestamp.Compare(b.CreationTimestamp.Time), cmp.Compare(a.Name, b.Name))
}

// ownedPods returns the pods ds controls: same namespace, its controller reference, labels that
// its selector still matches (what a claim leaves it once applied).
func ownedPods(c *cluster.Cluster, ds *api.DaemonSet) []*api.Pod {
	sel, err := api.LabelSelectorAsSelector(ds.Spec.Selector)
	if err != nil {
		return nil
	}
	var out []*api.Pod
	for p := range c.AllPods() {
		if ref, ok := api.ControllerOf(&p.ObjectMeta); ok && ref.UID == ds.UID && p.Namespace == ds.Namespace && sel.Matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

// ownedNow is a DaemonSet's pods (ownedPods) during one sync, and the same by node (mapByNode),
// read again only when the cluster was written to since they were last read: a sync that
// changes nothing reads them once.
type ownedNow struct {
	c      *cluster.Cluster
	ds     *api.DaemonSet
	pods   []*api.Pod
	nodes  map[string][]*api.Pod // nil until asked for
	writes int64                 // the cluster's write count when pods were read
	known  bool
}

func (o *ownedNow) get() []*api.Pod {
	if !o.known || o.c.Writes() != o.writes {
		o.pods, o.nodes, o.writes, o.known = ownedPods(o.c, o.ds), nil, o.c.Writes(), true
	}
	return o.pods
}

func (o *ownedNow) byNode() map[string][]*api.Pod {
	pods := o.get()
	if o.nodes == nil {
		o.nodes = mapByNode(pods)
	}
	return o.nodes
}

// mapByNode maps pods to their target nodes (getNodesToDaemonPods with
// includeDeletedTerminal=false): nodeName, or the node the affinity pins; finished pods being
// deleted are left out.
func mapByNode(pods []*api.Pod) map[string][]*api.Pod {
	m := make(map[string][]*api.Pod, len(pods))
	for _, p := range pods {
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

// Status computes the DaemonSet status of upstream's updateDaemonSetStatus
// (pkg/controller/daemon/daemon_controller.go) from the cluster as it is: per node, shouldRun and
// whether a pod is scheduled; readiness, availability and being up to date are judged on the
// node's oldest pod.
func Status(c *cluster.Cluster, ds *api.DaemonSet, hash string) api.DaemonSetStatus {
	return status(c, ds, hash, mapByNode(ownedPods(c, ds)))
}

// status is Status given the DaemonSet's pods by node.
func status(c *cluster.Cluster, ds *api.DaemonSet, hash string, byNode map[string][]*api.Pod) api.DaemonSetStatus {
	nodes := c.Nodes()
	s := api.DaemonSetStatus{ObservedGeneration: ds.Generation, CollisionCount: ds.Status.CollisionCount}
	pred := newPredicates(ds)
	for _, node := range nodes {
		shouldRun := pred.decide(node).ShouldRun
		pods := byNode[node.Name]
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
		oldest := slices.MinFunc(pods, comparePods)
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
	return p.Labels[api.LabelControllerRevisionHash] == hash || p.Labels[api.LabelPodTemplateGeneration] == strconv.FormatInt(generation, 10)
}
