package playground

import (
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// Embed is how embed.html, the compact playground another page frames, is configured: by its
// address's fragment (ParseEmbed), which EmbedFragment writes.
type Embed struct {
	// Link is what the frame opens (a link, see IsLink: a built-in lesson, a share link's
	// session, which may carry a lesson opened from disk); "" for the sandbox.
	Link   string
	Lang   Lang // the language asked for; "" for the learner's own
	Editor bool // the YAML editor is shown; without it, the cluster, the terminal and the lesson
}

// The embed's parameters besides its link (see ParseEmbed).
const (
	embedLang   = "lang"
	embedEditor = "editor"
)

// maxLinkBytes bounds a link's fragment (a share link's, an embed's): a longer one is refused
// before anything in it is decoded. Browsers take addresses up to 2 MB (Chromium).
const maxLinkBytes = 1 << 20

// errLinkLong is a link longer than maxLinkBytes.
var errLinkLong = fmt.Errorf("the link is longer than %d KB", maxLinkBytes>>10)

// EmbedError is a fragment ParseEmbed refuses: the notice's key, and what it names.
type EmbedError struct{ Key, Arg string }

func (e EmbedError) Error() string { return noticeText(English, e.Key, e.Arg) }

// ParseEmbed reads embed.html's fragment (without "#"): parameters joined by "&", each
// name=value, in any order:
//
//  1. at most one link: lesson=ID or lesson=N, challenge=N, s=SESSION (as Share makes it); none
//     opens the sandbox;
//  2. lang=L, L a language the page speaks (Langs: en, zh-CN); without it, the learner's;
//  3. editor=1 shows the YAML editor, editor=0 (the default) hides it;
//  4. a fragment longer than maxLinkBytes is refused before it is read; an unknown parameter,
//     one given twice, a second link or a value not listed here is refused (EmbedError); the
//     link itself is read when it is opened (OpenLink), as every link is.
func ParseEmbed(fragment string) (Embed, error) {
	var e Embed
	if len(fragment) > maxLinkBytes {
		return Embed{}, EmbedError{Key: "link.long", Arg: strconv.Itoa(maxLinkBytes >> 10)}
	}
	seen := map[string]bool{}
	for _, param := range strings.Split(fragment, "&") {
		if param == "" {
			continue
		}
		name, value, _ := strings.Cut(param, "=")
		switch {
		case seen[name]:
			return Embed{}, EmbedError{Key: "embed.twice", Arg: name}
		case IsLink(param) && e.Link != "":
			return Embed{}, EmbedError{Key: "embed.links"}
		case IsLink(param):
			e.Link = param
		case name == embedLang && slices.Contains(Langs, Lang(value)):
			e.Lang = Lang(value)
		case name == embedEditor && (value == "0" || value == "1"):
			e.Editor = value == "1"
		case name == embedLang || name == embedEditor:
			return Embed{}, EmbedError{Key: "embed.value", Arg: param}
		default:
			return Embed{}, EmbedError{Key: "embed.param", Arg: name}
		}
		seen[name] = true
	}
	return e, nil
}

// Fragment is the embed's fragment, as ParseEmbed reads it.
func (e Embed) Fragment() string {
	var params []string
	if e.Link != "" {
		params = append(params, e.Link)
	}
	if e.Lang != "" {
		params = append(params, embedLang+"="+string(e.Lang))
	}
	if e.Editor {
		params = append(params, embedEditor+"=1")
	}
	return strings.Join(params, "&")
}

// EmbedOf is the embed of what the model shows, as "Embed this" offers it, in the model's
// language:
//
//  1. a built-in lesson or challenge: its link (lesson=ID), from its start;
//  2. else what Share links to (sharedOf): a lesson opened from disk from its start, with its
//     files; the sandbox's session.
func EmbedOf(m Model) Embed {
	if t := m.Tutor; t != nil && t.Files == nil {
		return Embed{Link: lessonLinkKey + t.Lesson.ID, Lang: m.Lang}
	}
	return Embed{Link: ShareFragment(sharedOf(m)), Lang: m.Lang}
}

// EmbedHeight is the frame's height, in CSS pixels, before it has said its own (or when the
// host page does not listen).
const EmbedHeight = 640

// attrEscaper escapes text for an HTML attribute's value in double quotes.
var attrEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")

// EmbedSnippet is the HTML a host page pastes to embed the playground at src (embed.html's
// address, with its fragment): the frame, as wide as its column and EmbedHeight tall, and the
// script that sets its height to what the frame posts ({type: "daemonlab:height", height}),
// taken only from a frame of the page and kept within 200 and 4000 pixels.
func EmbedSnippet(src string) string {
	return `<iframe src="` + attrEscaper.Replace(src) + `" title="DaemonLab" width="100%" height="` + strconv.Itoa(EmbedHeight) +
		`" style="border:0;max-width:100%" allow="clipboard-write"></iframe>
<script>
addEventListener("message", (e) => {
  if (!e.data || e.data.type !== "daemonlab:height") return;
  for (const f of document.querySelectorAll("iframe")) {
    if (f.contentWindow === e.source) f.style.height = Math.max(200, Math.min(4000, +e.data.height || 0)) + "px";
  }
});
</script>`
}

// EmbedStore is the storage of an embed configured so: store's keys under a prefix of its own,
// "daemonlab.embed.<hash of its link>.", so that an embed never writes over the full page's
// session, nor over an embed of another lesson or session on the same site.
func EmbedStore(store Storage, e Embed) Storage {
	h := fnv.New64a()
	h.Write([]byte(e.Link))
	return prefixed{store, "daemonlab.embed." + strconv.FormatUint(h.Sum64(), 36) + "."}
}

// prefixed is a Storage whose keys are another's under a prefix.
type prefixed struct {
	store  Storage
	prefix string
}

func (s prefixed) Get(key string) (string, bool) { return s.store.Get(s.prefix + key) }
func (s prefixed) Set(key, value string) error   { return s.store.Set(s.prefix+key, value) }
func (s prefixed) Remove(key string)             { s.store.Remove(s.prefix + key) }

// storedKey is the key under which store keeps key, as the browser's storage events name it.
func storedKey(store Storage, key string) string {
	if p, ok := store.(prefixed); ok {
		return p.prefix + key
	}
	return key
}

// NewEmbedKeeper keeps the sessions of lib for embed.html, configured by its address's
// fragment (ParseEmbed), in its part of store (EmbedStore). Its Restore opens the embed (see
// opens), in a model that knows it is embedded; a fragment that cannot be read configures the
// sandbox, and the notice says why.
func NewEmbedKeeper(store Storage, lib *Library, fragment string) *Keeper {
	e, err := ParseEmbed(fragment)
	k := NewKeeper(EmbedStore(store, e), lib)
	k.embed = &e
	errors.As(err, &k.refused)
	return k
}

// Embed is the embed the keeper keeps the sessions of; nil for the full page's keeper.
func (k *Keeper) Embed() *Embed { return k.embed }

// opens is the link Restore opens, given the address's: the full page's own; for an embed,
// which has its link in its address at every visit, its link when it has no saved session of
// its own, and else none, so that a reload brings back the learner's work in it.
func (k *Keeper) opens(fragment string) string {
	if k.embed == nil {
		return fragment
	}
	if _, saved := k.Store.Get(SessionKey); saved {
		return ""
	}
	return k.embed.Link
}

// embedded is a restored model of the keeper's embed, with the notice of a fragment refused.
func (k *Keeper) embedded(m Model) Model {
	if k.embed != nil {
		m.Embed = k.embed
		if k.refused.Key != "" {
			m.Notice, m.NoticeArg = k.refused.Key, k.refused.Arg
		}
	}
	return m
}

// linkNotice is the notice of a link that could not be opened.
func linkNotice(err error) string {
	if errors.Is(err, errLinkLong) {
		return "link.long"
	}
	return "link.bad"
}
