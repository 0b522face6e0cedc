package controller

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSlowStartBatchDoublesAndStopsAtAFailedBatch pins slowStartBatch
// (pkg/controller/replicaset/replica_set.go): batches of 1, 2, 4, … capped at what remains, and
// none after a batch in which a create failed.
func TestSlowStartBatchDoublesAndStopsAtAFailedBatch(t *testing.T) {
	for _, tc := range []struct {
		name       string
		count      int
		failAt     int // -1: none fails
		wantTried  int
		wantFailed bool
	}{
		{"nothing to create", 0, -1, 0, false},
		{"all succeed: 1+2+4+3", 10, -1, 10, false},
		{"the first fails: one create", 500, 0, 1, true},
		{"a failure ends its batch's run: 1+2+4 tried", 500, 4, 7, true},
	} {
		tried := 0
		failed := SlowStartBatch(tc.count, func(i int) error {
			tried++
			if i == tc.failAt {
				return errors.New("refused")
			}
			return nil
		})
		assert.Equal(t, tc.wantTried, tried, tc.name)
		assert.Equal(t, tc.wantFailed, failed, tc.name)
	}
}
