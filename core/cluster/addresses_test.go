package cluster

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

// TestOctetsReadAsAnAddressIsWritten: two octets, each 0 to 255 in decimal without leading
// zeros, as A×256+B; anything else is not an address the allocators handed out.
func TestOctetsReadAsAnAddressIsWritten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"0.0", 0, true}, {"244.3", 244<<8 | 3, true}, {"255.255", 65535, true},
		{"256.0", 0, false}, {"01.2", 0, false}, {"1.", 0, false}, {"1", 0, false},
		{"1.2.3", 0, false}, {"-1.2", 0, false}, {"a.b", 0, false}, {"", 0, false},
	} {
		got, ok := Octets(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

// TestFreeIndexIsTheSmallestUntaken: the first index no Use took, or whose uses were all
// released.
func TestFreeIndexIsTheSmallestUntaken(t *testing.T) {
	var x FreeIndex
	assert.Equal(t, 0, x.Free())
	for _, i := range []int{0, 1, 3} {
		x.Use(i)
	}
	assert.Equal(t, 2, x.Free())
	x.Use(2)
	assert.Equal(t, 4, x.Free())
	x.Use(1)
	x.Release(1)
	assert.Equal(t, 4, x.Free(), "1 is used once more")
	x.Release(1)
	assert.Equal(t, 1, x.Free(), "and free once every use is released")
}

// TestTallyKeepsInStepWithTheWrites: a Tally's free index is the smallest no object holds after
// any creates, updates and deletes, an index two objects hold is free only when both let it go,
// and a restore brings back the snapshot's.
func TestTallyKeepsInStepWithTheWrites(t *testing.T) {
	c := New(1)
	byName := NewTally("Pod", func(obj api.Object, use func(int)) {
		if i, err := strconv.Atoi(strings.TrimPrefix(obj.GetObjectMeta().Labels["index"], "i")); err == nil {
			use(i)
		}
	})
	create := func(name string, index int) {
		p := pod(name)
		p.Labels = map[string]string{"index": fmt.Sprintf("i%d", index)}
		require.NoError(t, c.Create(p))
	}
	create("a", 0)
	assert.Equal(t, 1, byName.Free(c), "read off the objects when first asked for")
	create("b", 1)
	create("c", 1)
	create("d", 3)
	assert.Equal(t, 2, byName.Free(c))
	snap := c.Snapshot()
	c.Delete(c.Get("Pod", Key{"default", "b"}))
	assert.Equal(t, 2, byName.Free(c), "c still holds 1")
	moved := *c.Get("Pod", Key{"default", "c"}).(*api.Pod)
	moved.Labels = map[string]string{"index": "i2"}
	require.NoError(t, c.Update(&moved))
	assert.Equal(t, 1, byName.Free(c), "an update lets its old index go")
	c.Restore(snap)
	assert.Equal(t, 2, byName.Free(c), "the snapshot's")
}
