package kubectl

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
)

// TestPriorityClassColumnsArePrintPriorityClass pins printPriorityClass's cells with the cases of
// upstream's TestPrintPriorityClass (pkg/printers/internalversion/printers_test.go): the value as
// a number, globalDefault as true or false, the age, and the preemption policy, empty when none
// is set (the API server always prints it: its tables are wide).
func TestPriorityClassColumnsArePrintPriorityClass(t *testing.T) {
	never, lower := api.PreemptNever, api.PreemptLowerPriority
	for _, tc := range []struct {
		name string
		pc   api.PriorityClass
		want []string
	}{
		{"PreemptNever policy", api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "pc1", CreationTimestamp: api.NewTime(statusNow.Add(1900 * time.Millisecond))}, Value: 1, PreemptionPolicy: &never},
			[]string{"pc1", "1", "false", "0s", "Never"}},
		{"PreemptLowerPriority policy", api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "pc2", CreationTimestamp: api.NewTime(statusNow.Add(-300 * time.Second))}, Value: 1000000000, GlobalDefault: true, PreemptionPolicy: &lower},
			[]string{"pc2", "1000000000", "true", "5m", "PreemptLowerPriority"}},
		{"no policy set", api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "pc2", CreationTimestamp: api.NewTime(statusNow.Add(-300 * time.Second))}, Value: 1000000000, GlobalDefault: true},
			[]string{"pc2", "1000000000", "true", "5m", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, col := range priorityClassColumns {
				got = append(got, col.cell(&tc.pc, statusNow))
			}
			assert.Equal(t, tc.want, got)
		})
	}
	var headers []string
	for _, col := range priorityClassColumns {
		assert.False(t, col.wide, col.header)
		headers = append(headers, col.header)
	}
	assert.Equal(t, []string{"NAME", "VALUE", "GLOBAL-DEFAULT", "AGE", "PREEMPTIONPOLICY"}, headers)
}

// TestEditOfAPriorityClass: kubectl edit of a class keeps to ValidatePriorityClassUpdate (an
// edited value reopens the file with the reason, as editResults.addError words an Invalid) and
// to the Priority plugin (a second global default could not be patched); the description may
// change.
func TestEditOfAPriorityClass(t *testing.T) {
	for _, tc := range []struct {
		name   string
		from   string
		to     string
		done   bool
		out    string
		err    string
		reopen string
	}{
		{name: "description", from: "description: batch work", to: "description: reports at night", done: true, out: "priorityclass.scheduling.k8s.io/batch edited\n"},
		{name: "value", from: "value: 500", to: "value: 600", err: `error: priorityclasses.scheduling.k8s.io "batch" is invalid`,
			reopen: "# priorityclasses.scheduling.k8s.io \"batch\" was not valid:\n# * value: Forbidden: may not be changed in an update.\n#\n"},
		{name: "a second global default", from: "value: 500", to: "globalDefault: true\nvalue: 500",
			err: `error: priorityclasses.scheduling.k8s.io "batch" could not be patched: priorityclasses.scheduling.k8s.io "batch" is forbidden: PriorityClass standard is already marked as default. Only one default can exist`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t)
			require.Zero(t, run(s, strings.Fields("create pc standard --value=100 --global-default"), "").Code)
			require.Zero(t, run(s, []string{"create", "pc", "batch", "--value=500", "--description=batch work"}, "").Code)
			e, bad := BeginEdit(s, []string{"pc/batch"})
			require.Nil(t, bad)
			assert.Equal(t, "edit: priorityclass/batch", e.Title())
			require.Contains(t, e.Text, tc.from)
			r, done := e.Save(s, strings.Replace(e.Text, tc.from, tc.to, 1))
			assert.Equal(t, tc.done, done)
			assert.Equal(t, tc.out, r.Out)
			assert.Equal(t, tc.err, r.Err)
			if tc.reopen != "" {
				_, body, ok := strings.Cut(e.Text, editHeader)
				require.True(t, ok)
				assert.True(t, strings.HasPrefix(body, tc.reopen), body)
			}
		})
	}
}
