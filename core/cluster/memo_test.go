package cluster

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestMemoCountsChangesOnly: setting the value already remembered, or forgetting what is not
// remembered, is no write; any other Set or Forget is one.
func TestMemoCountsChangesOnly(t *testing.T) {
	c := New(1)
	seen := NewMemo[string, time.Time]("seen")
	for _, tc := range []struct {
		name   string
		write  func()
		writes int64
	}{
		{"a first value", func() { seen.Set(c, "n1", Epoch) }, 1},
		{"the same value", func() { seen.Set(c, "n1", Epoch) }, 0},
		{"another value", func() { seen.Set(c, "n1", Epoch.Add(time.Second)) }, 1},
		{"forgotten", func() { seen.Forget(c, "n1") }, 1},
		{"forgotten again", func() { seen.Forget(c, "n1") }, 0},
	} {
		before := c.Writes()
		tc.write()
		assert.Equal(t, tc.writes, c.Writes()-before, tc.name)
	}
	_, ok := seen.Get(c, "n1")
	assert.False(t, ok)
}

// TestMemosKeepTheirOwnEntries: memos of other names or value types never read each other's
// values under the same key.
func TestMemosKeepTheirOwnEntries(t *testing.T) {
	c := New(1)
	seen, since := NewMemo[string, time.Time]("seen"), NewMemo[string, time.Time]("since")
	count := NewMemo[string, int]("seen")
	seen.Set(c, "n1", Epoch)
	count.Set(c, "n1", 3)

	got, ok := seen.Get(c, "n1")
	assert.True(t, ok)
	assert.Equal(t, Epoch, got)
	n, ok := count.Get(c, "n1")
	assert.True(t, ok)
	assert.Equal(t, 3, n)
	_, ok = since.Get(c, "n1")
	assert.False(t, ok, "another name")
	_, ok = seen.Get(c, "n2")
	assert.False(t, ok, "another key")
}
