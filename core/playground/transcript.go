package playground

import "strings"

// The bounds of the transcript a session keeps (Saved.Terminal), in localStorage and in share
// links: the terminal's last maxSavedLines lines of text, of at most maxSavedTermBytes bytes.
// A full transcript of kubectl's tables deflates to about a quarter, which keeps its share of a
// link near 5 KB.
const (
	maxSavedLines     = 200
	maxSavedTermBytes = 16 << 10
)

// transcript is the end of the terminal's lines that a session keeps:
//
//  1. its blocks are taken from the newest back, whole, while the lines of text (a block may
//     hold many) stay within maxSavedLines and their bytes, a newline each included, within
//     maxSavedTermBytes;
//  2. of the block that would cross a bound, its last lines of text that fit are kept, and no
//     block older than it;
//  3. the blocks keep their order and their kinds.
func transcript(lines []TermLine) []TermLine {
	budgetLines, budgetBytes := maxSavedLines, maxSavedTermBytes
	from := len(lines)
	var cut *TermLine // the oldest block, in part
	for from > 0 {
		l := lines[from-1]
		n, size := termSize(l)
		if n <= budgetLines && size <= budgetBytes {
			budgetLines, budgetBytes = budgetLines-n, budgetBytes-size
			from--
			continue
		}
		rows := strings.Split(l.Text, "\n")
		keep := 0
		for keep < len(rows) && keep < budgetLines && len(rows[len(rows)-1-keep])+1 <= budgetBytes {
			budgetBytes -= len(rows[len(rows)-1-keep]) + 1
			keep++
		}
		if keep > 0 {
			l.Text = strings.Join(rows[len(rows)-keep:], "\n")
			cut = &l
		}
		break
	}
	kept := make([]TermLine, 0, len(lines)-from+1)
	if cut != nil {
		kept = append(kept, *cut)
	}
	return append(kept, lines[from:]...)
}

// termSize is a block's size as the transcript's bounds count it: its lines of text, and their
// bytes with a newline each.
func termSize(l TermLine) (lines, bytes int) {
	return strings.Count(l.Text, "\n") + 1, len(l.Text) + 1
}

// transcriptFits reports whether lines are within the transcript's bounds (a saved session's
// are, unless it was forged).
func transcriptFits(lines []TermLine) bool {
	n, size := 0, 0
	for _, l := range lines {
		ln, ls := termSize(l)
		n, size = n+ln, size+ls
	}
	return n <= maxSavedLines && size <= maxSavedTermBytes
}
