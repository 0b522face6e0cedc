package scenario

import "daemonlab/core/sim"

// The tests here also check that no controller skips a pass that would change the cluster.
func init() { sim.CheckSkips = true }
