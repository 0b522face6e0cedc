package playground

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Flow is a lesson's prose as it reads on the page: its lines joined as written text joins them
// (JoinProse: a line break in the middle of a Chinese sentence, or after its full stop, is no
// space). The YAML of a lesson breaks long lines anywhere.
func Flow(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	out := strings.TrimSpace(lines[0])
	for _, line := range lines[1:] {
		out = JoinProse(out, strings.TrimSpace(line))
	}
	return out
}

// JoinProse joins two pieces of prose as kubernetes.io/zh-cn writes them: by nothing between
// two Chinese characters or next to Chinese punctuation ("答对了。" and "DESIRED 是 3"), and by
// a space anywhere else, between a Chinese character and a Latin word too ("Pod 由").
func JoinProse(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	last, _ := utf8.DecodeLastRuneInString(a)
	first, _ := utf8.DecodeRuneInString(b)
	if punctuation(last) || punctuation(first) || unicode.Is(unicode.Han, last) && unicode.Is(unicode.Han, first) {
		return a + b
	}
	return a + " " + b
}

// punctuation reports whether a rune is CJK or full-width punctuation (。，：“” and the like).
func punctuation(r rune) bool {
	return r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef || r == '“' || r == '”' || r == '‘' || r == '’'
}
