package playground

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnEmbedIsConfiguredByItsFragment: embed.html's fragment names at most one link, the
// language and the editor, in any order; an empty one is the sandbox, in the learner's language,
// without the editor; Fragment writes what ParseEmbed reads.
func TestAnEmbedIsConfiguredByItsFragment(t *testing.T) {
	for _, tc := range []struct {
		fragment string
		want     Embed
	}{
		{"", Embed{}},
		{"lesson=3", Embed{Link: "lesson=3"}},
		{"lesson=01-one-pod-per-node&lang=zh-CN", Embed{Link: "lesson=01-one-pod-per-node", Lang: Chinese}},
		{"editor=1&challenge=2", Embed{Link: "challenge=2", Editor: true}},
		{"lang=en&editor=0&s=abc_-", Embed{Link: "s=abc_-", Lang: English}},
		{"&lesson=3&", Embed{Link: "lesson=3"}},
	} {
		got, err := ParseEmbed(tc.fragment)
		require.NoError(t, err, tc.fragment)
		assert.Equal(t, tc.want, got, tc.fragment)
		again, err := ParseEmbed(got.Fragment())
		require.NoError(t, err, got.Fragment())
		assert.Equal(t, got, again, "Fragment writes what ParseEmbed reads: %s", got.Fragment())
	}
}

// TestAnEmbedsBadAddressIsRefusedWithItsReason: an unknown parameter, one given twice, two
// links, a value not offered and a fragment over the bound are each refused with a notice of
// their own that names what is wrong, in both languages.
func TestAnEmbedsBadAddressIsRefusedWithItsReason(t *testing.T) {
	for _, tc := range []struct {
		fragment string
		want     EmbedError
		en       string
	}{
		{"lesson=3&theme=dark", EmbedError{"embed.param", "theme"}, "This embedded playground's address has a parameter DaemonLab does not know (theme), so it opened the sandbox."},
		{"lang=en&lang=zh-CN", EmbedError{"embed.twice", "lang"}, "This embedded playground's address gives the parameter lang twice, so it opened the sandbox."},
		{"lesson=3&s=abc", EmbedError{Key: "embed.links"}, "This embedded playground's address names two lessons or sessions, so it opened the sandbox."},
		{"lesson=3&lesson=4", EmbedError{"embed.twice", "lesson"}, "This embedded playground's address gives the parameter lesson twice, so it opened the sandbox."},
		{"lang=fr", EmbedError{"embed.value", "lang=fr"}, "This embedded playground's address has a value DaemonLab does not read (lang=fr: lang is en or zh-CN, editor is 0 or 1), so it opened the sandbox."},
		{"editor=yes", EmbedError{"embed.value", "editor=yes"}, "This embedded playground's address has a value DaemonLab does not read (editor=yes: lang is en or zh-CN, editor is 0 or 1), so it opened the sandbox."},
		{"s=" + strings.Repeat("A", maxLinkBytes), EmbedError{"link.long", "1024"}, "This link is longer than 1024 KB, so it was not opened. Your own work is still here."},
	} {
		_, err := ParseEmbed(tc.fragment)
		var got EmbedError
		require.ErrorAs(t, err, &got, tc.fragment[:min(len(tc.fragment), 40)])
		assert.Equal(t, tc.want, got)
		assert.Equal(t, tc.en, err.Error())
		assert.NotEqual(t, noticeText(English, got.Key, got.Arg), noticeText(Chinese, got.Key, got.Arg), "translated")
	}
}

// TestALinkOverTheBoundIsRefusedBeforeItIsRead: a share link longer than maxLinkBytes is
// refused at once, whatever it holds, and the page says so (not that it is damaged); the saved
// session opens instead.
func TestALinkOverTheBoundIsRefusedBeforeItIsRead(t *testing.T) {
	long := shareKey + strings.Repeat("A", maxLinkBytes)
	_, err := LoadShared(lib, long)
	require.ErrorIs(t, err, errLinkLong)
	assert.ErrorIs(t, err, errSaved)

	store := newStore(10 << 20)
	k := NewKeeper(store, lib)
	require.Nil(t, k.Save(worked(t, "sim fail hd2 kubelet-down")))
	m, err := NewKeeper(store, lib).Restore(long)
	require.NoError(t, err)
	assert.Equal(t, "This link is longer than 1024 KB, so it was not opened. Your own work is still here.", Render(m).Notice)
	assert.Len(t, m.History.Steps, 1, "the saved session opened")
}

// TestEmbedThisOffersWhatThePageShows: "Embed this" embeds a built-in lesson or challenge by its
// link, from its start; a lesson opened from disk by a share link of its start, which carries
// its files and none of the teacher's work; the sandbox by its session's share link; each in
// the page's language, in a snippet whose frame is sized and whose script sets its height.
func TestEmbedThisOffersWhatThePageShows(t *testing.T) {
	sandbox := worked(t, "sim fail hd2 kubelet-down")
	sandbox.Lang = Chinese
	builtIn, err := StartModel(lib, "7")
	require.NoError(t, err)
	builtIn = Update(builtIn, RunMsg{Line: "kubectl get pods"})
	challenge, err := StartModel(lib, "challenges/1")
	require.NoError(t, err)
	disk := Update(sandbox, OpenMsg{Files: lessonOneFiles(t)})
	disk = Update(disk, RunMsg{Line: "kubectl get ds -n kube-system"})
	disk = Update(disk, RunMsg{Line: "sim add-node hd4"})
	require.NotEmpty(t, disk.History.Steps)

	assert.Equal(t, Embed{Link: "lesson=07-node-failure", Lang: English}, EmbedOf(builtIn))
	assert.Equal(t, Embed{Link: "lesson=challenges/01-the-agent-skips-the-control-plane", Lang: English}, EmbedOf(challenge))
	assert.Equal(t, Embed{Link: ShareFragment(sandbox), Lang: Chinese}, EmbedOf(sandbox))

	e := EmbedOf(disk)
	assert.Equal(t, Chinese, e.Lang)
	opened, err := OpenLink(lib, e.Link)
	require.NoError(t, err)
	require.NotNil(t, opened.Tutor)
	assert.Equal(t, lessonOneFiles(t), opened.Tutor.Files, "the link carries the lesson's files")
	assert.Equal(t, 0, opened.Tutor.Step)
	assert.Empty(t, opened.History.Steps, "none of the teacher's work")
	opened.Lang = disk.Lang
	assert.Equal(t, Render(disk).Tutor.Title, Render(opened).Tutor.Title)

	for _, m := range []Model{builtIn, challenge} {
		fresh, err := OpenLink(lib, EmbedOf(m).Link)
		require.NoError(t, err)
		assert.Equal(t, m.Tutor.Lesson.ID, fresh.Tutor.Lesson.ID)
		assert.Empty(t, fresh.History.Steps, "from its start")
	}

	v := Render(Update(builtIn, EmbedMsg{}))
	assert.Equal(t, "lesson=07-node-failure&lang=en", v.Embed)
	assert.Contains(t, v.Notice, "as wide as its column and 640 px tall")
	assert.Contains(t, Render(Update(sandbox, EmbedMsg{})).Notice, "高度先为 640 像素")

	snippet := EmbedSnippet("https://example.com/daemonlab/embed.html#" + v.Embed)
	assert.True(t, strings.HasPrefix(snippet, `<iframe src="https://example.com/daemonlab/embed.html#lesson=07-node-failure&amp;lang=en" title="DaemonLab" width="100%" height="640"`), snippet)
	assert.Contains(t, snippet, `e.data.type !== "daemonlab:height"`)
	assert.Contains(t, snippet, `f.contentWindow === e.source`, "only a frame of the page sets its height")
	assert.Contains(t, EmbedSnippet(`x"><script>`), `x&quot;&gt;&lt;script&gt;`, "the address cannot leave its attribute")
}

// TestShareInALessonFromDiskSharesTheLesson: in a lesson a teacher opened from disk, Share makes
// a link that opens the lesson from its first step (its files, none of the teacher's work) and
// says so; elsewhere it links the whole session, as ever.
func TestShareInALessonFromDiskSharesTheLesson(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	sandbox := Update(Update(m, RunMsg{Line: "sim add-node hd4"}), ShareMsg{})
	v := Render(sandbox)
	assert.Equal(t, T(English, "share.done"), v.Notice)
	assert.Equal(t, ShareFragment(sandbox), v.Share)

	disk := Update(Update(m, OpenMsg{Files: lessonOneFiles(t)}), RunMsg{Line: "sim add-node hd4"})
	disk = Update(disk, ShareMsg{})
	v = Render(disk)
	assert.Equal(t, "This link holds your lesson, its three files and none of your own work in it: copy it (it is selected), and whoever opens it takes the lesson from its first step. Nothing is sent to any server.", v.Notice)
	opened, err := OpenLink(lib, v.Share)
	require.NoError(t, err)
	require.NotNil(t, opened.Tutor)
	assert.Equal(t, lessonOneFiles(t), opened.Tutor.Files)
	assert.Empty(t, opened.History.Steps)
	assert.Len(t, opened.Sim.C.Nodes(), 3, "the teacher's node is not in it")
}

// TestAnEmbedKeepsItsOwnSavedState: an embed's storage is the browser's under a prefix of its
// link's own, so that it never writes the full page's session, nor another embed's; its first
// visit opens its link, whatever the address's link, and a reload its own saved work, not the
// link afresh; another tab's change is told by the key as stored; the lessons are needed for
// what it opens, not for the full page's session.
func TestAnEmbedKeepsItsOwnSavedState(t *testing.T) {
	store := newStore(10 << 20)
	page := worked(t, "sim fail hd2 kubelet-down")
	require.Nil(t, NewKeeper(store, lib).Save(page))
	fullPage := store.items[SessionKey]

	k := NewEmbedKeeper(store, lib, "lesson=1")
	assert.True(t, k.NeedsLessons(""), "its lesson")
	m, err := k.Restore("s=whatever")
	require.NoError(t, err)
	require.NotNil(t, m.Tutor, "the first visit opens the link")
	assert.Equal(t, "01-one-pod-per-node", m.Tutor.Lesson.ID)
	assert.Empty(t, m.Notice, "no session of its own was replaced")
	assert.Equal(t, &Embed{Link: "lesson=1"}, m.Embed)
	assert.Equal(t, m.Embed, k.Embed())
	m = Update(m, RunMsg{Line: "kubectl get ds -n kube-system"})
	require.Nil(t, k.Save(m))

	seven := NewEmbedKeeper(store, lib, "lesson=7&editor=1")
	other, err := seven.Restore("")
	require.NoError(t, err)
	assert.Equal(t, "07-node-failure", other.Tutor.Lesson.ID, "another embed does not share the first one's state")
	require.Nil(t, seven.Save(other))

	assert.Equal(t, fullPage, store.items[SessionKey], "the full page's session is untouched")
	var embedded []string
	for key := range store.items {
		if strings.HasPrefix(key, "daemonlab.embed.") && strings.HasSuffix(key, "."+SessionKey) {
			embedded = append(embedded, key)
		}
	}
	assert.Len(t, embedded, 2, "a session for each embed")

	again := NewEmbedKeeper(store, lib, "lesson=1")
	reloaded, err := again.Restore("")
	require.NoError(t, err)
	assert.Equal(t, Save(m), Save(reloaded), "a reload brings back the work in the embed")
	assert.NotNil(t, reloaded.Embed)

	assert.Nil(t, again.Changed(SessionKey, string(Save(page)), false), "the full page's save is not this embed's")
	assert.IsType(t, OtherTabMsg{}, again.Changed(storedKey(again.Store, SessionKey), string(Save(page)), false), "another tab of the same embed's is")

	sandbox := NewEmbedKeeper(store, lib, "")
	assert.False(t, sandbox.NeedsLessons("lesson=3"), "the sandbox's embed, whatever the address's link")
	full := NewKeeper(store, lib)
	assert.Nil(t, full.Embed())
	restored, err := full.Restore("")
	require.NoError(t, err)
	assert.Nil(t, restored.Embed, "the full page is not embedded")
}

// TestAnEmbedsRefusedAddressOpensTheSandboxAndSaysWhy: an embed whose fragment cannot be read
// opens the sandbox with the notice that names what is wrong, in its own storage.
func TestAnEmbedsRefusedAddressOpensTheSandboxAndSaysWhy(t *testing.T) {
	store := newStore(10 << 20)
	m, err := NewEmbedKeeper(store, lib, "lesson=3&theme=dark").Restore("")
	require.NoError(t, err)
	assert.Nil(t, m.Tutor)
	assert.Equal(t, &Embed{}, m.Embed)
	assert.Equal(t, "This embedded playground's address has a parameter DaemonLab does not know (theme), so it opened the sandbox.", Render(m).Notice)
	m.Lang = Chinese
	assert.Equal(t, "此嵌入式演练场的地址含有 DaemonLab 不认识的参数（theme），因此打开的是沙箱。", Render(m).Notice)
}

// TestAnEmbedWithoutTheEditorHasNoYAMLPane: an embed shows the YAML editor only when its address
// asks for it; the embedding outlives a session replaced (a reset, a lesson, a link).
func TestAnEmbedWithoutTheEditorHasNoYAMLPane(t *testing.T) {
	m, err := StartModel(lib, "1")
	require.NoError(t, err)
	panes := func(m Model) (out []Pane) {
		for _, p := range Render(m).Panes {
			out = append(out, p.Pane)
		}
		return out
	}
	assert.Equal(t, []Pane{ClusterPane, YAMLPane, TerminalPane, LessonPane}, panes(m), "the full page")

	m.Embed = &Embed{Link: "lesson=1"}
	assert.Equal(t, []Pane{ClusterPane, TerminalPane, LessonPane}, panes(m))
	assert.Equal(t, m.Pane, Update(m, PaneMsg{Pane: YAMLPane}).Pane, "the YAML pane is not offered")
	reset := Update(Update(m, RunMsg{Line: "sim add-node hd4"}), ResetMsg{})
	assert.Equal(t, m.Embed, reset.Embed, "a reset keeps the embedding")

	m.Embed = &Embed{Link: "lesson=1", Editor: true}
	assert.Equal(t, []Pane{ClusterPane, YAMLPane, TerminalPane, LessonPane}, panes(m))
}

// FuzzParseEmbed: no fragment, however forged, panics ParseEmbed; what it reads, Fragment writes
// back to the same embed.
func FuzzParseEmbed(f *testing.F) {
	f.Add("lesson=3&lang=zh-CN&editor=1")
	f.Add("s=abc&editor=0")
	f.Add("&&lang=en&")
	f.Add("challenge=1&lesson=2")
	f.Fuzz(func(t *testing.T, fragment string) {
		e, err := ParseEmbed(fragment)
		if err != nil {
			var refused EmbedError
			assert.ErrorAs(t, err, &refused)
			return
		}
		again, err := ParseEmbed(e.Fragment())
		require.NoError(t, err)
		assert.Equal(t, e, again)
	})
}
