package daemon

import (
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// The DaemonSet controller's failed-pod back-off (flowcontrol.NewBackOff(1s, 15m), one entry
// per DaemonSet, observed generation and node): the first failure waits 1s, each next one
// twice as long up to 15m, and an entry untouched for 30m starts over.
const (
	backoffInitial = time.Second
	backoffMax     = 15 * time.Minute
)

// backoffKey is failedPodsBackoffKey (pkg/controller/daemon/daemon_controller.go): the
// DaemonSet's uid, its observed generation and the node.
type backoffKey struct {
	ds         string
	generation int64
	node       string
}

// backoffEntry is client-go util/flowcontrol/backoff.go's backoffEntry: the delay and when it
// was last updated.
type backoffEntry struct {
	backoff    time.Duration
	lastUpdate time.Time
}

// backoffs are the controller's failedPodsBackoff.
var backoffs = cluster.NewMemo[backoffKey, backoffEntry]("daemon/backoff")

// failedPodsBackoffKey is a DaemonSet's back-off key for a node.
func failedPodsBackoffKey(ds *api.DaemonSet, node string) backoffKey {
	return backoffKey{ds.UID, ds.Status.ObservedGeneration, node}
}

// backoff returns an entry, if it has one that has not expired.
func backoff(c *cluster.Cluster, key backoffKey) (backoffEntry, bool) {
	e, ok := backoffs.Get(c, key)
	if !ok || c.Now().Sub(e.lastUpdate) > 2*backoffMax {
		return backoffEntry{}, false
	}
	return e, true
}

// inBackoff is IsInBackOffSinceUpdate.
func inBackoff(c *cluster.Cluster, key backoffKey) bool {
	e, ok := backoff(c, key)
	return ok && c.Now().Sub(e.lastUpdate) < e.backoff
}

// backoffNext is Next: start at 1s, or double up to 15m.
func backoffNext(c *cluster.Cluster, key backoffKey) {
	delay := backoffInitial
	if e, ok := backoff(c, key); ok {
		delay = min(2*e.backoff, backoffMax)
	}
	backoffs.Set(c, key, backoffEntry{delay, c.Now()})
}
