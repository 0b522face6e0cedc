//go:build !lazydata

package lessons

import (
	"embed"
	"io/fs"
)

// Files are the lessons: a directory per lesson ("07-node-failure") with lesson.yaml, en.yaml and
// zh-CN.yaml.
//
//go:embed */lesson.yaml */en.yaml */zh-CN.yaml
var Files embed.FS

//go:embed challenges/*/lesson.yaml challenges/*/en.yaml challenges/*/zh-CN.yaml
var challengeFiles embed.FS

// Challenges are the challenges, in the lessons' format (a directory each, "01-the-agent-skips-the-control-plane").
var Challenges = sub(challengeFiles, "challenges")

func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // dir is a constant, and a valid path
	}
	return s
}
