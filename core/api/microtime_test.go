package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestMicroTimeIsMetav1MicroTime: a MicroTime writes and reads JSON as
// k8s.io/apimachinery's metav1.MicroTime does (pkg/apis/meta/v1/micro_time.go): null for the
// zero time, RFC 3339 with exactly six fractional digits in UTC otherwise (the nanoseconds
// below a microsecond cut off), and only that form read back.
func TestMicroTimeIsMetav1MicroTime(t *testing.T) {
	epoch := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	for _, at := range []time.Time{{}, epoch, epoch.Add(1500 * time.Millisecond), epoch.Add(time.Second + 123456789)} {
		want, err := json.Marshal(metav1.NewMicroTime(at))
		require.NoError(t, err)
		got, err := json.Marshal(NewMicroTime(at))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%v", at)
	}
	for _, text := range []string{`null`, `"2026-01-01T00:00:01.500000Z"`, `"2026-01-01T00:00:01Z"`, `"2026-01-01T00:00:01.5Z"`, `"yesterday"`, `5`} {
		var want metav1.MicroTime
		wantErr := json.Unmarshal([]byte(text), &want)
		var got MicroTime
		err := json.Unmarshal([]byte(text), &got)
		if wantErr != nil {
			require.Error(t, err, text)
			assert.Equal(t, wantErr.Error(), err.Error(), text)
			continue
		}
		require.NoError(t, err, text)
		assert.True(t, want.Time.Equal(got.Time), "%s: %v, want %v", text, got, want)
	}
}
