package lessons

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"daemonlab/core/lesson"
)

// ClaimsTable is the table of the seed tutorials' claims that lessons/README.md shows: every
// claim a lesson's recap lists, by tutorial and section (in the tutorial's order), with its
// verdict and the step that tests it, in English.
func ClaimsTable(all []*lesson.Lesson) string {
	type row struct {
		claim lesson.Claim
		text  string
		where string
	}
	var rows []row
	for _, l := range all {
		if l.Recap == nil {
			continue
		}
		number, _ := strconv.Atoi(strings.SplitN(l.ID, "-", 2)[0])
		for i, c := range l.Recap.Claims {
			rows = append(rows, row{c, l.Text["en"].Recap.Claims[i], fmt.Sprintf("%d/%s", number, c.Step)})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.claim.Seed, b.claim.Seed), compareSections(a.claim.Section, b.claim.Section))
	})
	var b strings.Builder
	b.WriteString("| Tutorial | Section | Claim | In v1.37 | Tested in |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.claim.Seed, r.claim.Section, strings.ReplaceAll(strings.TrimSpace(r.text), "|", `\|`), r.claim.Verdict, r.where)
	}
	return b.String()
}

// compareSections orders section numbers as a tutorial does: 1.2 before 1.10 before 2.
func compareSections(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		if c := cmp.Compare(na, nb); ea == nil && eb == nil && c != 0 {
			return c
		}
		if c := cmp.Compare(pa[i], pb[i]); (ea != nil || eb != nil) && c != 0 {
			return c
		}
	}
	return cmp.Compare(len(pa), len(pb))
}
