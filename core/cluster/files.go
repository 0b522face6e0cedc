package cluster

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"time"
)

// The workspace is the learner's home directory on the simulated machine (/root, the prompt's
// "~"): the files tutorials cat, write and give to kubectl -f. It is part of the world, so
// snapshots, undo and replay keep it. It is bounded:
//
//  1. at most MaxFiles entries (files and directories);
//  2. a file of at most MaxFileSize bytes;
//  3. at most MaxWorkspaceSize bytes in all files together.
const (
	MaxFiles         = 200
	MaxFileSize      = 1 << 20
	MaxWorkspaceSize = 8 << 20
	maxNameLength    = 255 // a path component, as NAME_MAX
)

// Home is the workspace's absolute path.
const Home = "/root"

// The workspace's errors, worded as strerror words them (coreutils and bash print
// "PROGRAM: PATH: " before them).
var (
	ErrNotExist   = errors.New("No such file or directory")
	ErrIsDir      = errors.New("Is a directory")
	ErrNotDir     = errors.New("Not a directory")
	ErrExist      = errors.New("File exists")
	ErrNotEmpty   = errors.New("Directory not empty")
	ErrPermission = errors.New("Permission denied (DaemonLab's files live in " + Home + ", the directory you are in)")
	ErrNameLong   = errors.New("File name too long")
	ErrTooLarge   = fmt.Errorf("File too large (DaemonLab keeps files of at most %d MiB)", MaxFileSize>>20)
	ErrNoSpace    = fmt.Errorf("No space left on device (DaemonLab keeps at most %d files and %d MiB in all)", MaxFiles, MaxWorkspaceSize>>20)
)

// File is one entry of the workspace: a directory, or a file and its bytes.
type File struct {
	Dir     bool
	Data    string
	ModTime time.Time // when it was last written (the simulated clock)
}

// CleanPath turns a path as typed into the workspace's name for it ("" for the workspace
// itself), as the kernel resolves it from /root:
//
//  1. "~" and "~/…" and "/root/…" are the workspace; another absolute path is outside it.
//  2. "." and ".." and repeated slashes resolve as path.Clean resolves them; a path that leaves
//     the workspace (cat ../../etc/passwd) is outside it.
//  3. Outside the workspace is ErrPermission; a component longer than 255 bytes ErrNameLong; an
//     empty path ErrNotExist.
func CleanPath(p string) (string, error) {
	switch {
	case p == "":
		return "", ErrNotExist
	case p == "~" || strings.HasPrefix(p, "~/"):
		p = Home + p[1:]
	case !strings.HasPrefix(p, "/"):
		p = Home + "/" + p
	}
	p = path.Clean(p)
	if p == Home {
		return "", nil
	}
	rel, ok := strings.CutPrefix(p, Home+"/")
	if !ok {
		return "", ErrPermission
	}
	for _, part := range strings.Split(rel, "/") {
		if len(part) > maxNameLength {
			return "", ErrNameLong
		}
	}
	return rel, nil
}

// Stat returns the entry at a path (the workspace itself is a directory).
func (c *Cluster) Stat(p string) (File, error) {
	name, err := CleanPath(p)
	if err != nil {
		return File{}, err
	}
	return c.stat(name)
}

func (c *Cluster) stat(name string) (File, error) {
	c.reads++
	if name == "" {
		return File{Dir: true}, nil
	}
	if err := c.parentDir(name); err != nil {
		return File{}, err
	}
	f, ok := c.files[name]
	if !ok {
		return File{}, ErrNotExist
	}
	return f, nil
}

// parentDir checks that every directory on the way to name exists and is a directory.
func (c *Cluster) parentDir(name string) error {
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		f, ok := c.files[dir]
		switch {
		case !ok:
			return ErrNotExist
		case !f.Dir:
			return ErrNotDir
		}
	}
	return nil
}

// ReadFile returns a file's bytes.
func (c *Cluster) ReadFile(p string) (string, error) {
	f, err := c.Stat(p)
	switch {
	case err != nil:
		return "", err
	case f.Dir:
		return "", ErrIsDir
	}
	return f.Data, nil
}

// ReadDir returns the names of a directory's entries, sorted as ls sorts them in the C locale.
func (c *Cluster) ReadDir(p string) ([]string, error) {
	name, err := CleanPath(p)
	if err != nil {
		return nil, err
	}
	f, err := c.stat(name)
	switch {
	case err != nil:
		return nil, err
	case !f.Dir:
		return nil, ErrNotDir
	}
	var names []string
	for k := range c.files {
		if path.Dir(k) == orDot(name) {
			names = append(names, path.Base(k))
		}
	}
	slices.Sort(names)
	return names, nil
}

func orDot(name string) string {
	if name == "" {
		return "."
	}
	return name
}

// WriteFile writes data to a file, creating it, or appending to it with appendTo. The
// directory it is in must exist; past the workspace's bounds nothing is written.
func (c *Cluster) WriteFile(p, data string, appendTo bool) error {
	name, err := CleanPath(p)
	if err != nil {
		return err
	}
	old, err := c.stat(name)
	switch {
	case err == nil && old.Dir:
		return ErrIsDir
	case err != nil && err != ErrNotExist:
		return err
	case err != nil && c.parentDir(name) != nil:
		return c.parentDir(name)
	}
	if appendTo {
		data = old.Data + data
	}
	return c.put(name, File{Data: data}, err == nil)
}

// Touch sets a file's time to now, creating it empty if it does not exist.
func (c *Cluster) Touch(p string) error {
	f, err := c.Stat(p)
	switch {
	case err == ErrNotExist:
		return c.WriteFile(p, "", false)
	case err != nil:
		return err
	}
	name, _ := CleanPath(p)
	return c.put(name, f, true)
}

// Mkdir makes a directory; with parents, the directories on the way too, and an existing
// directory is no error.
func (c *Cluster) Mkdir(p string, parents bool) error {
	name, err := CleanPath(p)
	if err != nil {
		return err
	}
	if parents && name != "" {
		if dir := path.Dir(name); dir != "." {
			if err := c.Mkdir(Home+"/"+dir, true); err != nil {
				return err
			}
		}
	}
	f, err := c.stat(name)
	switch {
	case err == nil && f.Dir && parents:
		return nil
	case err == nil:
		return ErrExist
	case err != ErrNotExist:
		return err
	case c.parentDir(name) != nil:
		return c.parentDir(name)
	}
	return c.put(name, File{Dir: true}, false)
}

// put stores an entry within the bounds; exists says whether it replaces one.
func (c *Cluster) put(name string, f File, exists bool) error {
	if len(f.Data) > MaxFileSize {
		return ErrTooLarge
	}
	old := c.files[name]
	if !exists && len(c.files) >= MaxFiles || c.fileBytes()-len(old.Data)+len(f.Data) > MaxWorkspaceSize {
		return ErrNoSpace
	}
	f.ModTime = c.now
	c.ownFiles()[name] = f
	c.writes++
	return nil
}

// fileBytes is the size of all files together.
func (c *Cluster) fileBytes() int {
	n := 0
	for _, f := range c.files {
		n += len(f.Data)
	}
	return n
}

// Remove removes a file, or an empty directory; with all, a directory and everything in it.
func (c *Cluster) Remove(p string, all bool) error {
	name, err := CleanPath(p)
	if err != nil {
		return err
	}
	f, err := c.stat(name)
	switch {
	case err != nil:
		return err
	case name == "":
		return ErrPermission
	case f.Dir && !all:
		return ErrIsDir
	}
	files := c.ownFiles()
	for k := range files {
		if strings.HasPrefix(k, name+"/") {
			delete(files, k)
		}
	}
	delete(files, name)
	c.writes++
	return nil
}

// Rename moves an entry (and, for a directory, everything in it) to another path, replacing a
// file there.
func (c *Cluster) Rename(from, to string) error {
	src, err := CleanPath(from)
	if err != nil {
		return err
	}
	dst, err := CleanPath(to)
	if err != nil {
		return err
	}
	f, err := c.stat(src)
	if err != nil {
		return err
	}
	old, err := c.stat(dst)
	switch {
	case err == nil && old.Dir:
		return ErrIsDir
	case err != nil && err != ErrNotExist:
		return err
	case err != nil && c.parentDir(dst) != nil:
		return c.parentDir(dst)
	case src == dst:
		return nil
	case src == "" || strings.HasPrefix(dst, src+"/"):
		return ErrPermission
	}
	files := c.ownFiles()
	for k, v := range maps.Clone(files) {
		if rest, ok := strings.CutPrefix(k, src+"/"); ok {
			delete(files, k)
			files[dst+"/"+rest] = v
		}
	}
	delete(files, src)
	files[dst] = f
	c.writes++
	return nil
}

func (c *Cluster) ownFiles() map[string]File {
	c.stamps.touch("File")
	if c.shared.files || c.files == nil {
		c.files, c.shared.files = maps.Clone(c.files), false
		if c.files == nil {
			c.files = map[string]File{}
		}
	}
	return c.files
}
