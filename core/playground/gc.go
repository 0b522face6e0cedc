package playground

import "daemonlab/core/sim"

// idleCollectMax is the largest heap, as the last collection kept it, that an idle moment
// collects (in about 100 ms at 48 MB, about 2,000 nodes).
const idleCollectMax = 48 << 20

// CollectNow reports whether the page, idle, should run the garbage collector now, given the
// heap in use and the collector's next goal (Go's collector runs on the page's thread, and the
// page asks once it is idle after handling something):
//
//  1. The goal is what the last collection kept, grown by sim.GCPercent.
//  2. Once the heap has come half of the way from what was kept to the goal, it collects: the
//     collection the collector would start by itself, in the middle of some later command, is
//     then not due for a while.
//  3. Above idleCollectMax kept, a collection takes longer than an idle moment lasts, and the
//     collector keeps its own schedule.
func CollectNow(heapAlloc, nextGC uint64) bool {
	kept := nextGC * 100 / (100 + sim.GCPercent)
	return kept <= idleCollectMax && heapAlloc >= kept+(nextGC-kept)/2
}
