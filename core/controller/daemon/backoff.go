package daemon

import (
	"fmt"
	"strconv"
	"strings"
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

// backoffKey is failedPodsBackoffKey.
func backoffKey(ds *api.DaemonSet, node string) string {
	return fmt.Sprintf("daemon/backoff/%s/%d/%s", ds.UID, ds.Status.ObservedGeneration, node)
}

// backoff returns an entry's delay and last update, if it has one that has not expired.
func backoff(c *cluster.Cluster, key string) (time.Duration, time.Time, bool) {
	v, ok := c.Memo(key)
	if !ok {
		return 0, time.Time{}, false
	}
	delayText, lastText, _ := strings.Cut(v, "@")
	nanos, err1 := strconv.ParseInt(delayText, 10, 64)
	last, err2 := time.Parse(time.RFC3339Nano, lastText)
	if err1 != nil || err2 != nil || c.Now().Sub(last) > 2*backoffMax {
		return 0, time.Time{}, false
	}
	return time.Duration(nanos), last, true
}

// inBackoff is IsInBackOffSinceUpdate.
func inBackoff(c *cluster.Cluster, key string) bool {
	delay, last, ok := backoff(c, key)
	return ok && c.Now().Sub(last) < delay
}

// backoffNext is Next: start at 1s, or double up to 15m.
func backoffNext(c *cluster.Cluster, key string) {
	delay, _, ok := backoff(c, key)
	if !ok {
		delay = backoffInitial
	} else {
		delay = min(2*delay, backoffMax)
	}
	c.SetMemo(key, strconv.FormatInt(int64(delay), 10)+"@"+c.Now().Format(time.RFC3339Nano))
}
