package tainteviction

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"daemonlab/core/api"
)

func seconds(s ...int64) []api.Toleration {
	var out []api.Toleration
	for _, v := range s {
		t := api.Toleration{Key: "k", Operator: "Exists", Effect: "NoExecute"}
		if v >= 0 {
			v := v
			t.TolerationSeconds = &v
		}
		out = append(out, t)
	}
	return out
}

// TestMinTolerationTime pins getMinTolerationTime with upstream's TestGetMinTolerationTime
// (pkg/controller/tainteviction/taint_eviction_test.go; -1 below stands for "no
// tolerationSeconds").
func TestMinTolerationTime(t *testing.T) {
	cases := []struct {
		name string
		used []api.Toleration
		want time.Duration
	}{
		{"no tolerations: now", nil, 0},
		{"no tolerationSeconds: forever", seconds(-1), forever},
		{"the smallest", seconds(1, 2), time.Second},
		{"set beats unset", seconds(1, -1), time.Second},
		{"unset then set", seconds(-1, 1), time.Second},
		{"zero is now", seconds(0, 300), 0},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, MinTolerationTime(tc.used), tc.name)
	}
	neg := int64(-5)
	assert.Equal(t, time.Duration(0), MinTolerationTime([]api.Toleration{{TolerationSeconds: &neg}}), "negative tolerationSeconds evict at once")
}

// TestMatchingTolerationsTakesTheFirstPerTaint pins GetMatchingTolerations: per taint the first
// tolerating toleration in the pod's order, and failure when one taint is not tolerated.
func TestMatchingTolerationsTakesTheFirstPerTaint(t *testing.T) {
	sixty, thirty := int64(60), int64(30)
	tols := []api.Toleration{
		{Operator: "Exists", TolerationSeconds: &sixty, Effect: "NoExecute"},
		{Key: "node.kubernetes.io/unreachable", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &thirty},
	}
	taints := []api.Taint{{Key: "node.kubernetes.io/unreachable", Effect: "NoExecute"}}
	used, ok := MatchingTolerations(taints, tols)
	assert.True(t, ok)
	assert.Equal(t, []api.Toleration{tols[0]}, used, "only the first matching toleration counts, so 60s, not 30s")
	_, ok = MatchingTolerations(append(taints, api.Taint{Key: "x", Effect: "NoExecute"}), tols[1:])
	assert.False(t, ok)
	used, ok = MatchingTolerations(nil, nil)
	assert.True(t, ok)
	assert.Empty(t, used)
}
