package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
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

// TestFreeIndexIsTheSmallestUntaken: the first index no Use took.
func TestFreeIndexIsTheSmallestUntaken(t *testing.T) {
	var x FreeIndex
	assert.Equal(t, 0, x.Free())
	for _, i := range []int{0, 1, 3} {
		x.Use(i)
	}
	assert.Equal(t, 2, x.Free())
	x.Use(2)
	assert.Equal(t, 4, x.Free())
	assert.True(t, x.Used(3))
}
