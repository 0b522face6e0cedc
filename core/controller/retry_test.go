package controller

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// TestRetriesWaitFrom5msDoublingTo1000s pins the work queue's rate limiter for failed syncs
// (k8s.io/client-go/util/workqueue/default_rate_limiters.go, ItemExponentialFailureRateLimiter
// with DefaultTypedControllerRateLimiter's 5 ms and 1,000 s): 5 ms, 10 ms, 20 ms, … after each
// failure, capped; a success forgets them; a change of the spec is synced at once.
func TestRetriesWaitFrom5msDoublingTo1000s(t *testing.T) {
	c := cluster.New(1)
	r := NewRetries("test")
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{UID: "uid", Generation: 1}}
	assert.False(t, r.Waiting(c, pod), "no failure, no wait")
	var waits []time.Duration
	for range 20 {
		r.Failed(c, pod)
		due, ok := r.Due(c, pod)
		require.True(t, ok)
		assert.True(t, r.Waiting(c, pod))
		waits = append(waits, due.Sub(c.Now()))
		c.SetNow(due)
		assert.False(t, r.Waiting(c, pod), "due at its time")
	}
	assert.Equal(t, []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}, waits[:4])
	assert.Equal(t, 1000*time.Second, waits[19], "capped")
	assert.Equal(t, 655360*time.Millisecond, waits[17])
	r.Forget(c, pod)
	r.Failed(c, pod)
	due, _ := r.Due(c, pod)
	assert.Equal(t, 5*time.Millisecond, due.Sub(c.Now()), "a success forgets the failures")
	changed := *pod
	changed.Generation++
	assert.False(t, r.Waiting(c, &changed), "a new generation is synced at once")
}
