package controller

import (
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// Retries is a controller's work queue's rate limiter for syncs that failed (a create the API
// server refused), as workqueue.DefaultTypedControllerRateLimiter makes it
// (k8s.io/client-go/util/workqueue/default_rate_limiters.go) and processNextWorkItem uses it
// (AddRateLimited on an error, Forget on success):
//
//  1. After a failure an object's next sync waits 5 ms × 2^(failures before it), at most 1,000 s
//     (ItemExponentialFailureRateLimiter); the overall bucket of 10 per second never binds the
//     retries of one object.
//  2. A change of the object's spec (a new generation: the learner fixing the template,
//     scaling) enqueues it at once, as the controller's update handler does, so its next sync is
//     not held back.
//  3. A sync that works forgets the failures.
//
// Until a retry is due the controller does not try again what failed, so a refused create
// costs one attempt per retry, not one per settling round.
type Retries struct {
	memo cluster.Memo[string, retry]
}

// retry is an object's failures so far, when its next sync is due, and the generation that
// failed.
type retry struct {
	failures   int
	due        time.Time
	generation int64
}

const (
	retryBase = 5 * time.Millisecond
	retryMax  = 1000 * time.Second
)

// NewRetries returns the rate limiter of the controller named name.
func NewRetries(name string) Retries {
	return Retries{cluster.NewMemo[string, retry](name + "/retries")}
}

// Waiting reports whether the object's next sync waits for a retry not due yet.
func (r Retries) Waiting(c *cluster.Cluster, obj api.Object) bool {
	m := obj.GetObjectMeta()
	e, ok := r.memo.Get(c, string(m.UID))
	return ok && c.Now().Before(e.due) && m.Generation == e.generation
}

// Failed records a failed sync of the object.
func (r Retries) Failed(c *cluster.Cluster, obj api.Object) {
	m := obj.GetObjectMeta()
	uid := string(m.UID)
	e, _ := r.memo.Get(c, uid)
	wait := retryMax
	if e.failures < 40 { // 5 ms × 2^40 is far past the cap
		wait = min(retryBase<<e.failures, retryMax)
	}
	r.memo.Set(c, uid, retry{failures: e.failures + 1, due: c.Now().Add(wait), generation: m.Generation})
}

// Forget forgets the object's failures after a sync that worked.
func (r Retries) Forget(c *cluster.Cluster, obj api.Object) {
	r.memo.Forget(c, string(obj.GetObjectMeta().UID))
}

// Due returns when the object's next retry is due, if one is still to come.
func (r Retries) Due(c *cluster.Cluster, obj api.Object) (time.Time, bool) {
	e, ok := r.memo.Get(c, string(obj.GetObjectMeta().UID))
	return e.due, ok && e.due.After(c.Now())
}
