// Package measure counts the work a piece of code does as what it allocates — objects and
// bytes, which unlike time do not vary from run to run or machine to machine — for the tests
// that hold budgets as ratios and ceilings (`make bench` reports the times).
package measure

import "runtime"

// Allocations runs f and returns what it allocated: objects and bytes.
func Allocations(f func()) (objects, bytes uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}
