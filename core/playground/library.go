package playground

import (
	"fmt"
	"io/fs"
	"math"
	"strings"

	"daemonlab/core/lesson"
)

// Library is what the playground's start states are made of, handed in by the page: its start
// manifest, the built-in lessons' and challenges' files and the manifests they may name (as
// package lessons has them). It reads the lessons when they are first needed, a lesson at a
// time, each once: the page reads them after its first paint (see Model.LessonsLater), and
// whatever needs them all reads the rest at once.
type Library struct {
	start               string
	builtIn             map[string]string
	lessons, challenges shelf
}

// shelf is the lessons of one kind (lessons, or challenges) the library holds, read a lesson at
// a time. A challenge's ID is its directory's name after challengePrefix, so that it never
// names a lesson.
type shelf struct {
	files  fs.FS
	prefix string
	read   []*lesson.Lesson
	reader *lesson.Reader
	err    error
}

// challengePrefix starts a challenge's ID: "challenges/01-the-agent-skips-the-control-plane".
const challengePrefix = "challenges/"

// NewLibrary is the library of a start manifest, the lessons' and the challenges' files (a
// directory a lesson, see lesson.NewReader; either may be nil for none) and the manifests they
// may name.
func NewLibrary(start string, lessons, challenges fs.FS, builtIn map[string]string) *Library {
	return &Library{start: start, builtIn: builtIn, lessons: shelf{files: lessons}, challenges: shelf{files: challenges, prefix: challengePrefix}}
}

// take reads lessons from the shelf until n are read or none are left, and returns those read.
func (sh *shelf) take(n int, builtIn map[string]string) ([]*lesson.Lesson, error) {
	sh.open(builtIn)
	for sh.err == nil && len(sh.read) < n && sh.reader.Left() > 0 {
		l, err := sh.reader.Next()
		if err != nil {
			sh.err = err
			break
		}
		l.ID = sh.prefix + l.ID
		sh.read = append(sh.read, l)
	}
	return sh.read[:min(n, len(sh.read))], sh.err
}

// open lists the shelf's directories, once.
func (sh *shelf) open(builtIn map[string]string) {
	if sh.reader == nil && sh.err == nil {
		if sh.files == nil {
			sh.files = emptyFS{}
		}
		sh.reader, sh.err = lesson.NewReader(sh.files, builtIn)
	}
}

// emptyFS is a file system with nothing in it: a library without challenges has them on it.
type emptyFS struct{}

func (emptyFS) Open(string) (fs.File, error) { return nil, fs.ErrNotExist }

// count is the number of the shelf's lessons, read or not.
func (sh *shelf) count(builtIn map[string]string) int {
	sh.open(builtIn)
	if sh.err != nil {
		return len(sh.read)
	}
	return len(sh.read) + sh.reader.Left()
}

// catalog reads the first n of the library's lessons and challenges (lessons first) and returns
// those read.
func (lib *Library) catalog(n int) (lessons, challenges []*lesson.Lesson) {
	lessons, _ = lib.lessons.take(n, lib.builtIn)
	if left := n - len(lessons); left > 0 && lib.lessons.count(lib.builtIn) == len(lessons) {
		challenges, _ = lib.challenges.take(left, lib.builtIn)
	}
	return lessons, challenges
}

// listable is the number of lessons and challenges the picker can list.
func (lib *Library) listable() int {
	return lib.lessons.count(lib.builtIn) + lib.challenges.count(lib.builtIn)
}

// findLesson returns the lesson or challenge with an ID, or a lesson by its number ("7" for
// 07-node-failure) and a challenge by its number after challengePrefix ("challenges/3").
func (lib *Library) findLesson(id string) (*lesson.Lesson, bool) {
	sh := &lib.lessons
	if strings.HasPrefix(id, challengePrefix) {
		sh = &lib.challenges
	}
	all, err := sh.take(math.MaxInt, lib.builtIn)
	if err != nil {
		return nil, false
	}
	for _, l := range all {
		dir := strings.TrimPrefix(l.ID, sh.prefix)
		if l.ID == id || sh.prefix+strings.TrimLeft(strings.SplitN(dir, "-", 2)[0], "0") == id {
			return l, true
		}
	}
	return nil, false
}

// next is the lesson that follows one in the library: the next lesson, the first challenge
// after the last lesson, the next challenge; nil after the last.
func (lib *Library) next(l *lesson.Lesson) *lesson.Lesson {
	lessons, challenges := lib.catalog(math.MaxInt)
	all := append(lessons[:len(lessons):len(lessons)], challenges...)
	for i, x := range all {
		if x.ID == l.ID && i+1 < len(all) {
			return all[i+1]
		}
	}
	return nil
}

// lessonFiles are the files of a lesson opened from disk.
var lessonFiles = []string{"lesson.yaml", "en.yaml", "zh-CN.yaml"}

// openedLesson parses a lesson a teacher opened from disk, as strictly as the built-in ones.
func (lib *Library) openedLesson(files map[string]string) (*lesson.Lesson, error) {
	for _, name := range lessonFiles {
		if _, ok := files[name]; !ok {
			return nil, fmt.Errorf("open the three files lesson.yaml, en.yaml and zh-CN.yaml together (%s is missing)", name)
		}
	}
	return lesson.Parse("00-your-lesson", []byte(files["lesson.yaml"]),
		map[string][]byte{"en": []byte(files["en.yaml"]), "zh-CN": []byte(files["zh-CN.yaml"])}, lib.builtIn)
}
