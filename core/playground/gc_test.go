package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAnIdlePageCollectsHalfWayToTheGoal pins CollectNow's rules: with GCPercent 60, a
// collection that kept 20 MB sets the goal at 32 MB, and an idle page collects from 26 MB on; a
// heap above 48 MB kept is left to the collector.
func TestAnIdlePageCollectsHalfWayToTheGoal(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		heap, goal uint64
		want       bool
	}{
		{20 * mb, 32 * mb, false},
		{26*mb - 1, 32 * mb, false},
		{26 * mb, 32 * mb, true},
		{31 * mb, 32 * mb, true},
		{58 * mb, 72 * mb, false}, // 45 MB kept
		{59 * mb, 72 * mb, true},
		{79 * mb, 80 * mb, false}, // 50 MB kept
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, CollectNow(tt.heap, tt.goal), "%d MB in use, goal %d MB", tt.heap/mb, tt.goal/mb)
	}
}
