package playground

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/kubectl"
	"daemonlab/core/openapi"
	"daemonlab/lessons"
)

// laterLibrary is the page's library before lessons.json has arrived.
func laterLibrary() *Library { return NewLibraryLater(lessons.Start, lessons.BuiltIn) }

// TestDeliveredLessonsAreTheLinkedOnes checks that lessons.json, as PackLessons writes it and
// Deliver reads it, gives the library the lessons and challenges NewLibrary reads from package
// lessons: one definition, two ways in.
func TestDeliveredLessonsAreTheLinkedOnes(t *testing.T) {
	data, err := PackLessons(lessons.Files, lessons.Challenges)
	require.NoError(t, err)
	later := laterLibrary()
	require.True(t, later.Waiting())
	require.NoError(t, later.Deliver(data))
	assert.False(t, later.Waiting())
	wantLessons, wantChallenges := lib.catalog(math.MaxInt)
	gotLessons, gotChallenges := later.catalog(math.MaxInt)
	require.NotEmpty(t, wantLessons)
	require.NotEmpty(t, wantChallenges)
	assert.Equal(t, wantLessons, gotLessons)
	assert.Equal(t, wantChallenges, gotChallenges)
	assert.EqualError(t, later.Deliver(data), "the lessons are here already", "a second delivery changes nothing")
}

// TestDeliverRefusesWhatIsNotLessons pins Deliver's refusals: each is a clear error, and the
// library still waits.
func TestDeliverRefusesWhatIsNotLessons(t *testing.T) {
	for _, tc := range []struct {
		name, data, err string
	}{
		{"not JSON", "<html>404</html>", "the lessons are not lessons.json: not a JSON object of texts"},
		{"not an object of texts", `{"01-a/lesson.yaml": 1}`, "the lessons are not lessons.json: not a JSON object of texts"},
		{"null", `null`, "the lessons are not lessons.json: not a JSON object of texts"},
		{"not a lesson's file", `{"01-a/notes.txt": "x"}`, `the lessons hold "01-a/notes.txt", which is not a lesson's file`},
		{"too deep", `{"01-a/b/en.yaml": "x"}`, `the lessons hold "01-a/b/en.yaml", which is not a lesson's file`},
		{"no directory", `{"en.yaml": "x"}`, `the lessons hold "en.yaml", which is not a lesson's file`},
		{"not a lesson", `{"01-a/lesson.yaml": "steps: [", "01-a/en.yaml": "", "01-a/zh-CN.yaml": ""}`, "01-a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			later := laterLibrary()
			err := later.Deliver([]byte(tc.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			assert.True(t, later.Waiting())
			lessons, challenges := later.catalog(math.MaxInt)
			assert.Empty(t, lessons)
			assert.Empty(t, challenges)
		})
	}
}

// TestStartNeedsTheLessonsOnlyInALesson pins Keeper.NeedsLessons: the page waits for the lessons
// before it starts only when what it opens is in a lesson.
func TestStartNeedsTheLessonsOnlyInALesson(t *testing.T) {
	inLesson, err := StartModel(lib, "7")
	require.NoError(t, err)
	sandbox, err := NewModel(lib)
	require.NoError(t, err)
	for _, tc := range []struct {
		name, fragment, saved string
		needs                 bool
	}{
		{"nothing", "", "", false},
		{"a lesson link", "lesson=7", "", true},
		{"a challenge link", "challenge=3", "", true},
		{"a share link in a lesson", ShareFragment(inLesson), "", true},
		{"a share link in the sandbox", ShareFragment(sandbox), string(Save(inLesson)), false},
		{"a saved session in a lesson", "", string(Save(inLesson)), true},
		{"a saved session in the sandbox", "", string(Save(sandbox)), false},
		{"an unreadable saved session", "", "{", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := newStore(1 << 22)
			if tc.saved != "" {
				require.NoError(t, store.Set(SessionKey, tc.saved))
			}
			assert.Equal(t, tc.needs, NewKeeper(store, laterLibrary()).NeedsLessons(tc.fragment))
		})
	}
}

// TestAssetsArriveOrSaySoInTheTerminal pins AssetMsg: lessons delivered are listed; an asset that
// does not arrive, or that its loader refuses, is Missing and the notice says so in the page's
// language; explain before its documents says it is loading, then that they are missing.
func TestAssetsArriveOrSaySoInTheTerminal(t *testing.T) {
	data, err := PackLessons(lessons.Files, lessons.Challenges)
	require.NoError(t, err)
	m, err := NewModel(laterLibrary())
	require.NoError(t, err)
	m.LessonsLater = true
	m = Update(m, ShowLessonsMsg{})
	assert.False(t, m.LessonsLater)
	assert.Equal(t, T(English, "asset.lessons.waiting"), RenderPicker(m).Waiting)
	m = Update(m, AssetMsg{Name: AssetLessons, Data: data})
	assert.True(t, m.LessonsLater, "the lessons arrived are listed a lesson at a time")
	assert.Empty(t, RenderPicker(m).Waiting)
	assert.Empty(t, m.Missing)

	m, err = NewModel(laterLibrary())
	require.NoError(t, err)
	m.Lang = Chinese
	m = Update(m, AssetMsg{Name: AssetLessons, Err: errors.New("HTTP 404")})
	assert.Equal(t, []string{AssetLessons}, m.Missing)
	assert.Equal(t, T(Chinese, "asset.missing.lessons.json", "HTTP 404"), Render(m).Notice)
	assert.Empty(t, RenderPicker(m).Waiting, "the picker does not wait for what will not come")

	m = Update(m, AssetMsg{Name: AssetDocs, Data: []byte("<html>")})
	assert.Equal(t, []string{AssetLessons, AssetDocs}, m.Missing)
	assert.Contains(t, Render(m).Notice, "无法下载 kubectl explain 的文档")
	assert.True(t, openapi.Described(), "refused documents change nothing")
}

// TestWaitingForTheDocumentsIsSaidInThePagesLanguage pins Model.waiting: kubectl's English
// WaitingDocs, wherever a command printed it, is the page's words, or says the documents are
// missing once they are.
func TestWaitingForTheDocumentsIsSaidInThePagesLanguage(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	r := kubectl.Result{Err: "first\n" + kubectl.WaitingDocs, Out: kubectl.WaitingDocs, Stream: []kubectl.Piece{{Text: kubectl.WaitingDocs, Err: true}}, Code: 1}
	for _, tc := range []struct {
		name    string
		lang    Lang
		missing []string
		say     string
	}{
		{"English", English, nil, kubectl.WaitingDocs},
		{"Chinese", Chinese, nil, T(Chinese, "asset.waiting.openapi.json")},
		{"missing", English, []string{AssetDocs}, T(English, "asset.missing.cmd.openapi.json")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m.Lang, m.Missing = tc.lang, tc.missing
			got := m.waiting(r)
			assert.Equal(t, "first\n"+tc.say, got.Err)
			assert.Equal(t, tc.say, got.Out)
			assert.Equal(t, tc.say, got.Stream[0].Text)
			assert.Equal(t, 1, got.Code)
		})
	}
}
