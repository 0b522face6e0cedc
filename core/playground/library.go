package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strings"
	"testing/fstest"

	"daemonlab/core/lesson"
)

// Library is what the playground's start states are made of, handed in by the page: its start
// manifest, the built-in lessons' and challenges' files and the manifests they may name (as
// package lessons has them). It reads the lessons when they are first needed, a lesson at a
// time, each once: the page reads them after its first paint (see Model.LessonsLater), and
// whatever needs them all reads the rest at once.
//
// The page's library may open without its lessons (NewLibraryLater): they arrive as
// lessons.json after the page's first paint (Deliver), and until then it lists none.
type Library struct {
	start               string
	builtIn             map[string]string
	lessons, challenges shelf
	waiting             bool // the lessons have not been delivered yet
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

// NewLibraryLater is NewLibrary without the lessons and challenges: they come later, by
// Deliver.
func NewLibraryLater(start string, builtIn map[string]string) *Library {
	return &Library{start: start, builtIn: builtIn, waiting: true}
}

// Waiting reports whether the library's lessons have not been delivered yet.
func (lib *Library) Waiting() bool { return lib.waiting }

// PackLessons writes the lessons' and the challenges' files (as NewLibrary takes them) as the
// page's lessons.json: a JSON object of every file's path (a challenge's under challengePrefix)
// to its text. `make build` writes it from package lessons.
func PackLessons(lessons, challenges fs.FS) ([]byte, error) {
	files := map[string]string{}
	for prefix, fsys := range map[string]fs.FS{"": lessons, challengePrefix: challenges} {
		err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, name)
			files[prefix+name] = string(data)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return json.Marshal(files)
}

// Deliver hands a waiting library its lessons, as PackLessons wrote them. It refuses, with an
// error, and changes nothing:
//
//  1. a library not waiting (its lessons were delivered, or it was made with them);
//  2. data that is not a JSON object of texts;
//  3. a path that is not a lesson's file ("DIR/lesson.yaml", en.yaml or zh-CN.yaml, a
//     challenge's under "challenges/");
//  4. files that do not make lessons (see lesson.NewReader: the first lesson's is read here, the
//     others as they are listed, as NewLibrary's are).
func (lib *Library) Deliver(data []byte) error {
	if !lib.waiting {
		return errors.New("the lessons are here already")
	}
	var files map[string]string
	if err := json.Unmarshal(data, &files); err != nil || files == nil {
		return errors.New("the lessons are not lessons.json: not a JSON object of texts")
	}
	shelves := map[string]fstest.MapFS{"": {}, challengePrefix: {}}
	for name, text := range files {
		prefix := ""
		if strings.HasPrefix(name, challengePrefix) {
			prefix = challengePrefix
		}
		dir, file := path.Split(strings.TrimPrefix(name, prefix))
		if dir == "" || strings.Count(dir, "/") != 1 || !slices.Contains(lessonFiles, file) {
			return fmt.Errorf("the lessons hold %q, which is not a lesson's file", name)
		}
		shelves[prefix][strings.TrimPrefix(name, prefix)] = &fstest.MapFile{Data: []byte(text)}
	}
	got := Library{builtIn: lib.builtIn, lessons: shelf{files: shelves[""]}, challenges: shelf{files: shelves[challengePrefix], prefix: challengePrefix}}
	if _, err := got.lessons.take(1, lib.builtIn); err != nil {
		return err
	}
	if _, err := got.challenges.take(1, lib.builtIn); err != nil {
		return err
	}
	lib.lessons, lib.challenges, lib.waiting = got.lessons, got.challenges, false
	return nil
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
