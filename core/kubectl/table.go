package kubectl

import (
	"strings"
	"unicode/utf8"
)

// table is a table as kubectl's tab writer (printers.GetNewTabWriter: text/tabwriter with
// minwidth 6, padding 3, spaces) lays it out, for when only some of its lines are wanted:
//
//  1. Every column but the last is as wide as its widest cell, in runes, plus 3 spaces, and at
//     least 6; cells are left-aligned and padded with spaces.
//  2. The last cell of a line is written as it is, then a newline.
//
// All rows have the same number of cells, so the whole table is one block of columns.
type table struct {
	rows   [][]string
	widths []int // the columns' widths but the last's, once a line was laid out
}

const (
	tableMinWidth = 6
	tablePadding  = 3
)

// lines returns rows[from:to] laid out, each ending in a newline. The columns' widths are
// measured over all rows once, on the first call.
func (t *table) lines(from, to int) []string {
	if t.widths == nil {
		t.widths = []int{}
		for _, row := range t.rows {
			for j, cell := range row[:len(row)-1] {
				if j == len(t.widths) {
					t.widths = append(t.widths, tableMinWidth)
				}
				t.widths[j] = max(t.widths[j], utf8.RuneCountInString(cell)+tablePadding)
			}
		}
	}
	widths := t.widths
	out := make([]string, 0, to-from)
	var b strings.Builder
	for _, row := range t.rows[from:to] {
		b.Reset()
		for j, cell := range row[:len(row)-1] {
			b.WriteString(cell)
			b.WriteString(strings.Repeat(" ", widths[j]-utf8.RuneCountInString(cell)))
		}
		b.WriteString(row[len(row)-1])
		b.WriteByte('\n')
		out = append(out, b.String())
	}
	return out
}
