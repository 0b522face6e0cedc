// Package deployment is kube-controller-manager's Deployment controller: it rolls a
// Deployment's pod template out through ReplicaSets, one per template (named
// <deployment>-<pod-template-hash>), with the RollingUpdate or Recreate strategy, keeps their
// revisions and the Deployment's status and conditions, and prunes old ReplicaSets.
// Source: pkg/controller/deployment (sync.go, rolling.go, recreate.go, progress.go, util).
package deployment

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/controller"
)

const component = "deployment-controller"

// syncer is one sync of one Deployment: the Deployment as it is being updated, and its
// ReplicaSets.
type syncer struct {
	c      *cluster.Cluster
	d      *api.Deployment
	failed bool // the new ReplicaSet could not be made: the sync stops with an error
}

func replicas(n *int32) int32 {
	if n == nil {
		return 1
	}
	return *n
}

// Sync runs one sync of d, in syncDeployment's order (deployment_controller.go):
//
//  1. A Deployment being deleted gets its new ReplicaSet's annotations and revision synced, if
//     it has one, and its status counted (syncStatusOnly, sync.go): no ReplicaSet is scaled and
//     the Progressing condition stays as it stands.
//  2. Every other Deployment first has its pause or resume recorded in its Progressing
//     condition (see checkPausedConditions).
//  3. A paused Deployment then gets its new ReplicaSet synced as in 1, its old ReplicaSets
//     beyond revisionHistoryLimit deleted, and its status counted, the Progressing condition
//     left as 2 made it (sync, sync.go).
//  4. Recreate: scale every old ReplicaSet to 0, wait until their pods are gone, then create or
//     scale the new one to the replicas.
//  5. RollingUpdate: scale the new ReplicaSet up within maxSurge, then old ones down within
//     maxUnavailable (see rolloutRolling).
//  6. Once complete, old ReplicaSets beyond revisionHistoryLimit are deleted.
//  7. After 4 or 5 the status and the Available and Progressing conditions are written (see
//     syncRolloutStatus), unless the sync failed to make the new ReplicaSet (a hash collision,
//     a create the API server refused).
//
// It returns whether anything changed. Not modelled: proportional scaling of a paused or
// rolling Deployment, rollbacks through spec.rollbackTo, the ReplicaFailure condition.
func Sync(c *cluster.Cluster, d *api.Deployment) bool {
	s := &syncer{c: c, d: api.DeepCopy(d)}
	before := c.Version()
	if d.DeletionTimestamp != nil {
		newRS, _ := s.newReplicaSet(false)
		s.writeStatus(s.calculateStatus(newRS))
		return c.Version() != before
	}
	s.checkPausedConditions()
	if d.Spec.Paused {
		newRS, old := s.newReplicaSet(false)
		s.cleanup(old)
		s.writeStatus(s.calculateStatus(newRS))
		return c.Version() != before
	}
	if d.Spec.Strategy.Type == api.RecreateDeploymentStrategyType {
		s.rolloutRecreate()
	} else {
		s.rolloutRolling()
	}
	if !s.failed {
		s.syncRolloutStatus()
	}
	return c.Version() != before
}

// replicaSets returns the ReplicaSets d controls, oldest first, after claiming them
// (ClaimReplicaSets, controller.Claim): an orphan in d's namespace whose labels d's selector
// matches is adopted; one d controls whose labels no longer match is released.
func (s *syncer) replicaSets() []*api.ReplicaSet {
	claims := controller.Claim(s.d, "apps/v1", "Deployment", s.d.Spec.Selector, cluster.All[*api.ReplicaSet](s.c))
	claims.Apply(s.c)
	out := claims.Owned
	controller.SortByCreation(out)
	return out
}

// split finds the new ReplicaSet (the oldest whose template is the Deployment's) and the others.
func (s *syncer) split() (*api.ReplicaSet, []*api.ReplicaSet) {
	var newRS *api.ReplicaSet
	var old []*api.ReplicaSet
	for _, rs := range s.replicaSets() {
		if newRS == nil && controller.EqualIgnoreHash(rs.Spec.Template, s.d.Spec.Template) {
			newRS = rs
			continue
		}
		old = append(old, rs)
	}
	return newRS, old
}

func revision(rs *api.ReplicaSet) int64 {
	n, _ := strconv.ParseInt(rs.Annotations[api.AnnotationRevision], 10, 64)
	return n
}

func maxRevision(rss []*api.ReplicaSet) int64 {
	var m int64
	for _, rs := range rss {
		m = max(m, revision(rs))
	}
	return m
}

// newReplicaSet returns the new ReplicaSet, creating it when create is set
// (getAllReplicaSetsAndSyncRevision / getNewReplicaSet), and keeps the revisions:
//
//  1. The new revision is one more than the highest of the old ReplicaSets.
//  2. An existing new ReplicaSet is synced with the Deployment on every sync: its annotations
//     (see replicaSetAnnotations: the Deployment's are copied, so a kubernetes.io/change-cause
//     annotated after the template changed reaches the current revision) and its
//     minReadySeconds. If either changed, the ReplicaSet is updated and this sync goes on with
//     it; the Deployment's revision follows on the next sync.
//  3. Otherwise the Deployment carries the ReplicaSet's revision, and a Progressing condition
//     FoundNewReplicaSet if it had none.
//  4. A created ReplicaSet gets the new revision, and the Deployment with it. One the API
//     server refuses is a Warning event ReplicaSetCreateError and, with a progress deadline,
//     the Progressing condition False for the same reason; the sync fails, and the workqueue
//     retries it later (rate-limited): DaemonLab tries again at the next instant, not this one.
func (s *syncer) newReplicaSet(create bool) (*api.ReplicaSet, []*api.ReplicaSet) {
	newRS, old := s.split()
	rev := maxRevision(old) + 1
	if newRS != nil {
		annotations, changed := s.replicaSetAnnotations(newRS, rev, true)
		if changed || newRS.Spec.MinReadySeconds != s.d.Spec.MinReadySeconds {
			next := api.DeepCopy(newRS)
			next.Annotations, next.Spec.MinReadySeconds = annotations, s.d.Spec.MinReadySeconds
			if stored, err := apiserver.Update(s.c, next, apiserver.Options{}); err == nil {
				return stored.(*api.ReplicaSet), old
			}
			return newRS, old
		}
		s.setDeploymentRevision(newRS.Annotations[api.AnnotationRevision])
		if s.hasProgressDeadline() && progressing(s.d.Status) == nil {
			setCondition(&s.d.Status, condition("Progressing", api.ConditionTrue, "FoundNewReplicaSet", fmt.Sprintf("Found new replica set %q", newRS.Name), s.c))
		}
		return newRS, old
	}
	if !create {
		return nil, old
	}
	rs := s.buildReplicaSet(rev, old)
	if s.c.Get("ReplicaSet", cluster.Key{Namespace: rs.Namespace, Name: rs.Name}) != nil {
		// A ReplicaSet of that name that is not ours: a hash collision. Count it, so the next
		// sync hashes the template to another name.
		n := int32(1)
		if s.d.Status.CollisionCount != nil {
			n = *s.d.Status.CollisionCount + 1
		}
		s.d.Status.CollisionCount = &n
		s.write()
		s.failed = true
		return nil, old
	}
	if t, ok := refused.Get(s.c, s.d.UID); ok && t.Equal(s.c.Now()) {
		s.failed = true
		return nil, old
	}
	if _, err := apiserver.Create(s.c, rs, apiserver.Options{}); err != nil {
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", rs.Name, err)
		refused.Set(s.c, s.d.UID, s.c.Now())
		s.failed = true
		if s.hasProgressDeadline() {
			setCondition(&s.d.Status, condition("Progressing", api.ConditionFalse, "ReplicaSetCreateError", msg, s.c))
			s.write()
		}
		s.c.Record(s.d, cluster.EventWarning, "ReplicaSetCreateError", msg, component, "")
		return nil, old
	}
	if n := replicas(rs.Spec.Replicas); n > 0 {
		s.c.Record(s.d, cluster.EventNormal, "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to %d", rs.Name, n), component, "")
	}
	s.setDeploymentRevision(strconv.FormatInt(rev, 10))
	if s.hasProgressDeadline() {
		setCondition(&s.d.Status, condition("Progressing", api.ConditionTrue, "NewReplicaSetCreated", fmt.Sprintf("Created new replica set %q", rs.Name), s.c))
	}
	return rs, old
}

// buildReplicaSet builds the ReplicaSet for the Deployment's template: the pod-template-hash
// label on its template, selector and itself, a controller reference, the revision and replica
// annotations, and the replicas the strategy allows now.
func (s *syncer) buildReplicaSet(rev int64, old []*api.ReplicaSet) *api.ReplicaSet {
	d := s.d
	tmpl := api.DeepCopy(d.Spec.Template)
	hash := controller.ComputeHash(&tmpl, d.Status.CollisionCount)
	labels := map[string]string{}
	for k, v := range tmpl.Labels {
		labels[k] = v
	}
	labels[api.LabelPodTemplateHash] = hash
	tmpl.Labels = labels
	sel := api.DeepCopy(d.Spec.Selector)
	if sel.MatchLabels == nil {
		sel.MatchLabels = map[string]string{}
	}
	sel.MatchLabels[api.LabelPodTemplateHash] = hash
	rs := &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}}
	rs.Name, rs.Namespace = d.Name+"-"+hash, d.Namespace
	rs.Labels = api.DeepCopy(labels)
	rs.OwnerReferences = []api.OwnerReference{api.NewControllerRef(d, "apps/v1", "Deployment")}
	rs.Spec = api.ReplicaSetSpec{Replicas: new(int32), MinReadySeconds: d.Spec.MinReadySeconds, Selector: sel, Template: tmpl}
	*rs.Spec.Replicas = s.newRSReplicas(append(old, rs), rs)
	rs.Annotations, _ = s.replicaSetAnnotations(rs, rev, false)
	return rs
}

// refused remembers when the API server last refused each Deployment's new ReplicaSet (by uid).
var refused = cluster.NewMemo[string, time.Time]("deployment/refused")

// maxRevisionHistory bounds the revision-history annotation (maxRevHistoryLengthInChars).
const maxRevisionHistory = 2000

// replicaSetAnnotations is SetNewReplicaSetAnnotations: the new ReplicaSet's annotations as
// the Deployment makes them, and whether they changed.
//
//  1. Every annotation of the Deployment is copied, except those each keeps for itself
//     (controller.SkipCopyAnnotation); one the Deployment no longer has stays.
//  2. A revision below rev is raised to it. A revision that is no number stops here: nothing
//     more changes, and the copies count as no change.
//  3. A ReplicaSet that had a lower revision comes back (a rollback to it): the old number is
//     appended to revision-history (see revisionHistory), within 2000 characters.
//  4. A ReplicaSet about to be created (exists false) gets desired-replicas (the Deployment's
//     replicas) and max-replicas (those plus maxSurge).
func (s *syncer) replicaSetAnnotations(rs *api.ReplicaSet, rev int64, exists bool) (map[string]string, bool) {
	out := maps.Clone(rs.Annotations)
	if out == nil {
		out = map[string]string{}
	}
	changed := false
	for k, v := range s.d.Annotations {
		if cur, ok := out[k]; !controller.SkipCopyAnnotation(k) && (!ok || cur != v) {
			out[k], changed = v, true
		}
	}
	prev, had := out[api.AnnotationRevision]
	n, err := strconv.ParseInt(prev, 10, 64)
	if err != nil && prev != "" {
		return out, false
	}
	if n < rev {
		out[api.AnnotationRevision], changed = strconv.FormatInt(rev, 10), true
		if had {
			out[api.AnnotationRevisionHistory] = revisionHistory(out[api.AnnotationRevisionHistory], prev, maxRevisionHistory)
		}
	}
	if !exists {
		out[api.AnnotationDesiredReplicas] = strconv.Itoa(int(replicas(s.d.Spec.Replicas)))
		out[api.AnnotationMaxReplicas] = strconv.Itoa(int(replicas(s.d.Spec.Replicas) + s.maxSurge()))
		changed = true
	}
	return out, changed
}

// revisionHistory appends prev to a revision-history annotation, dropping its oldest numbers
// to keep it within limit characters; if even then it would not fit, it stays as it was.
func revisionHistory(history, prev string, limit int) string {
	if history == "" {
		return prev
	}
	kept := strings.Split(history, ",")
	length := len(history) + len(prev) + 1
	for length > limit && len(kept) > 0 {
		length -= len(kept[0]) + 1
		kept = kept[1:]
	}
	if length > limit {
		return history
	}
	return strings.Join(append(kept, prev), ",")
}

func (s *syncer) setDeploymentRevision(rev string) {
	if s.d.Annotations[api.AnnotationRevision] == rev {
		return
	}
	if s.d.Annotations == nil {
		s.d.Annotations = map[string]string{}
	}
	s.d.Annotations[api.AnnotationRevision] = rev
	s.write()
}

// write stores the Deployment's annotations and status as they stand, through its status
// (UpdateStatus: the spec and labels stay the user's, and so does the generation).
func (s *syncer) write() {
	cur := s.c.Get("Deployment", cluster.Key{Namespace: s.d.Namespace, Name: s.d.Name})
	if cur == nil {
		return
	}
	next := api.DeepCopy(cur.(*api.Deployment))
	next.Annotations, next.Status = s.d.Annotations, s.d.Status
	_, _ = apiserver.UpdateStatus(s.c, next, apiserver.Options{})
}

func (s *syncer) isRollingUpdate() bool {
	return s.d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType && s.d.Spec.Strategy.RollingUpdate != nil
}

// Fenceposts resolves d's RollingUpdate maxSurge (rounded up) and maxUnavailable (rounded
// down) against its replicas; when both come out 0, maxUnavailable is 1 (ResolveFenceposts in
// pkg/controller/deployment/util/deployment_util.go). d's strategy must be RollingUpdate with
// rollingUpdate set (defaulting sets it).
func Fenceposts(d *api.Deployment) (surge, unavailable int32) {
	ru := d.Spec.Strategy.RollingUpdate
	n := int(replicas(d.Spec.Replicas))
	zero := api.FromInt(0)
	orZero := func(v *api.IntOrString) *api.IntOrString {
		if v == nil {
			return &zero
		}
		return v
	}
	su, _ := api.ScaledValue(orZero(ru.MaxSurge), n, true)
	un, _ := api.ScaledValue(orZero(ru.MaxUnavailable), n, false)
	if su == 0 && un == 0 {
		un = 1
	}
	return int32(su), int32(un)
}

func (s *syncer) maxSurge() int32 {
	if !s.isRollingUpdate() {
		return 0
	}
	surge, _ := Fenceposts(s.d)
	return surge
}

func (s *syncer) maxUnavailable() int32 {
	n := replicas(s.d.Spec.Replicas)
	if !s.isRollingUpdate() || n == 0 {
		return 0
	}
	_, un := Fenceposts(s.d)
	return min(un, n)
}

// newRSReplicas is NewRSNewReplicas: for RollingUpdate, as many more as keep all ReplicaSets
// within replicas + maxSurge, never more than the replicas; for Recreate, the replicas.
func (s *syncer) newRSReplicas(all []*api.ReplicaSet, newRS *api.ReplicaSet) int32 {
	want := replicas(s.d.Spec.Replicas)
	if !s.isRollingUpdate() {
		return want
	}
	surge, _ := api.ScaledValue(s.d.Spec.Strategy.RollingUpdate.MaxSurge, int(want), true)
	current, maxTotal := specReplicas(all), want+int32(surge)
	if current >= maxTotal {
		return replicas(newRS.Spec.Replicas)
	}
	return replicas(newRS.Spec.Replicas) + min(maxTotal-current, want-replicas(newRS.Spec.Replicas))
}

func specReplicas(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += replicas(rs.Spec.Replicas)
		}
	}
	return n
}

// scale sets a ReplicaSet's replicas (and its desired and max replicas annotations), with the
// ScalingReplicaSet event. It returns the updated ReplicaSet.
func (s *syncer) scale(rs *api.ReplicaSet, to int32) *api.ReplicaSet {
	from := replicas(rs.Spec.Replicas)
	desired := strconv.Itoa(int(replicas(s.d.Spec.Replicas)))
	maxR := strconv.Itoa(int(replicas(s.d.Spec.Replicas) + s.maxSurge()))
	if from == to && rs.Annotations[api.AnnotationDesiredReplicas] == desired && rs.Annotations[api.AnnotationMaxReplicas] == maxR {
		return rs
	}
	next := api.DeepCopy(rs)
	next.Spec.Replicas = &to
	if next.Annotations == nil {
		next.Annotations = map[string]string{}
	}
	next.Annotations[api.AnnotationDesiredReplicas], next.Annotations[api.AnnotationMaxReplicas] = desired, maxR
	stored, err := apiserver.Update(s.c, next, apiserver.Options{})
	if err != nil {
		return rs
	}
	if from != to {
		verb := "up"
		if to < from {
			verb = "down"
		}
		s.c.Record(s.d, cluster.EventNormal, "ScalingReplicaSet", fmt.Sprintf("Scaled %s replica set %s from %d to %d", verb, rs.Name, from, to), component, "")
	}
	return stored.(*api.ReplicaSet)
}
