package sim_test

import (
	"flag"
	"os"
	"testing"

	"daemonlab/core/sim"
)

// TestMain has the tests check every pass a controller skips (sim.CheckSkips); benchmarks
// measure the skips themselves.
func TestMain(m *testing.M) {
	flag.Parse()
	sim.CheckSkips = flag.Lookup("test.bench").Value.String() == ""
	os.Exit(m.Run())
}
