package cluster

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

// TestCleanPathKeepsPathsInTheWorkspace: a path is resolved from /root as the kernel resolves
// it, and one that leaves /root is refused (path.Clean's rules).
func TestCleanPathKeepsPathsInTheWorkspace(t *testing.T) {
	for _, tc := range []struct {
		path, want string
		err        error
	}{
		{"ds.yaml", "ds.yaml", nil},
		{"./ds.yaml", "ds.yaml", nil},
		{"dir//ds.yaml", "dir/ds.yaml", nil},
		{"dir/../ds.yaml", "ds.yaml", nil},
		{"~/ds.yaml", "ds.yaml", nil},
		{"/root/ds.yaml", "ds.yaml", nil},
		{"../root/ds.yaml", "ds.yaml", nil},
		{".", "", nil},
		{"~", "", nil},
		{"/root/", "", nil},
		{"..", "", ErrPermission},
		{"../../etc/passwd", "", ErrPermission},
		{"/etc/passwd", "", ErrPermission},
		{"/rootx/ds.yaml", "", ErrPermission},
		{"", "", ErrNotExist},
		{strings.Repeat("a", 256), "", ErrNameLong},
	} {
		got, err := CleanPath(tc.path)
		assert.Equal(t, tc.err, err, tc.path)
		assert.Equal(t, tc.want, got, tc.path)
	}
}

// TestWorkspaceStaysWithinItsBounds: a file of more than MaxFileSize, a file past MaxFiles
// entries or past MaxWorkspaceSize in all is refused, and nothing is written.
func TestWorkspaceStaysWithinItsBounds(t *testing.T) {
	c := New(1)
	assert.Equal(t, ErrTooLarge, c.WriteFile("big", strings.Repeat("x", MaxFileSize+1), false))
	require.NoError(t, c.WriteFile("big", strings.Repeat("x", MaxFileSize), false))
	assert.Equal(t, ErrTooLarge, c.WriteFile("big", "x", true), "appending past the bound")
	for i := 1; i < MaxWorkspaceSize/MaxFileSize; i++ {
		require.NoError(t, c.WriteFile("big"+strings.Repeat("i", i), strings.Repeat("x", MaxFileSize), false))
	}
	writes := c.Writes()
	assert.Equal(t, ErrNoSpace, c.WriteFile("one-more-byte", "x", false))
	assert.Equal(t, writes, c.Writes(), "a refused write writes nothing")
	require.NoError(t, c.WriteFile("empty", "", false), "an empty file takes no bytes")

	c = New(1)
	for i := range MaxFiles {
		require.NoError(t, c.WriteFile(strings.Repeat("f", i+1), "", false))
	}
	assert.Equal(t, ErrNoSpace, c.WriteFile("another", "", false))
	assert.Equal(t, ErrNoSpace, c.Mkdir("dir", false))
	assert.NoError(t, c.WriteFile("f", "replaced", false), "replacing a file adds no entry")
}

// TestWorkspaceErrorsAreStrerrors: each operation fails with the errno the kernel gives for it.
func TestWorkspaceErrorsAreStrerrors(t *testing.T) {
	c := New(1)
	require.NoError(t, c.Mkdir("dir", false))
	require.NoError(t, c.WriteFile("dir/a.yaml", "a", false))
	require.NoError(t, c.WriteFile("file", "f", false))
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"read a missing file", second(c.ReadFile("nope")), ErrNotExist},
		{"read a directory", second(c.ReadFile("dir")), ErrIsDir},
		{"read through a file", second(c.ReadFile("file/a")), ErrNotDir},
		{"write into a missing directory", c.WriteFile("nodir/a", "", false), ErrNotExist},
		{"write over a directory", c.WriteFile("dir", "", false), ErrIsDir},
		{"write outside", c.WriteFile("/tmp/a", "", false), ErrPermission},
		{"make a directory that exists", c.Mkdir("dir", false), ErrExist},
		{"make a directory in a missing one", c.Mkdir("x/y", false), ErrNotExist},
		{"remove a directory without all", c.Remove("dir", false), ErrIsDir},
		{"remove a missing file", c.Remove("nope", false), ErrNotExist},
		{"remove the workspace", c.Remove(".", true), ErrPermission},
		{"rename a missing file", c.Rename("nope", "x"), ErrNotExist},
		{"rename into a missing directory", c.Rename("file", "nodir/x"), ErrNotExist},
		{"rename a directory into itself", c.Rename("dir", "dir/sub"), ErrPermission},
	} {
		assert.Equal(t, tc.want, tc.err, tc.name)
	}
}

func second[T any](_ T, err error) error { return err }

// TestSnapshotKeepsTheWorkspace: a snapshot holds the files as they were; writing after it does
// not change it, and Restore brings them back.
func TestSnapshotKeepsTheWorkspace(t *testing.T) {
	c := New(1)
	require.NoError(t, c.Mkdir("dir", false))
	require.NoError(t, c.WriteFile("dir/a.yaml", "a", false))
	snap := c.Snapshot()
	require.NoError(t, c.WriteFile("dir/a.yaml", "changed", false))
	require.NoError(t, c.Rename("dir", "moved"))
	require.NoError(t, c.WriteFile("b", "b", false))
	c.Restore(snap)
	got, err := c.ReadFile("dir/a.yaml")
	require.NoError(t, err)
	assert.Equal(t, "a", got)
	names, err := c.ReadDir(".")
	require.NoError(t, err)
	assert.Equal(t, []string{"dir"}, names)
}

// TestReplaceKeepsTheWorkspace: a cluster replaced by another (sim import) has the other's
// objects and clock, keeps its own files, and counts the replacement as writes; a snapshot from
// before brings the old cluster back.
func TestReplaceKeepsTheWorkspace(t *testing.T) {
	c, other := New(3), New(3)
	require.NoError(t, c.WriteFile("dump.yaml", "kind: List\n", false))
	ns := &api.Namespace{}
	ns.Name = "team"
	require.NoError(t, other.Create(ns))
	other.SetNow(Epoch.Add(time.Minute))
	before, writes := c.Snapshot(), c.Writes()

	c.Replace(other)
	assert.NotNil(t, c.Get("Namespace", Key{Name: "team"}))
	assert.Equal(t, Epoch.Add(time.Minute), c.Now())
	data, err := c.ReadFile("dump.yaml")
	require.NoError(t, err)
	assert.Equal(t, "kind: List\n", data)
	assert.Greater(t, c.Writes(), writes)

	c.Restore(before)
	assert.Nil(t, c.Get("Namespace", Key{Name: "team"}))
	assert.Panics(t, func() { c.Replace(New(4)) }, "another seed")
}
