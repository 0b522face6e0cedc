package kubectl

import (
	"fmt"
	"strings"

	"daemonlab/core/sim"
)

var topFlags = []FlagSpec{{Name: "namespace", Shorthand: 'n'}, {Name: "all-namespaces", Shorthand: 'A', Boolean: true},
	{Name: "selector", Shorthand: 'l'}, {Name: "containers", Boolean: true}, {Name: "sort-by"}, {Name: "no-headers", Boolean: true}}

// topCommand is kubectl top node|pod. It reads the metrics API that metrics-server serves;
// DaemonLab's cluster, like a fresh kubeadm cluster, runs no metrics-server, so kubectl's answer
// is "Metrics API not available" (memory use for eviction is set with `sim usage` instead).
func topCommand(_ *sim.Sim, args []string, _ string) Result {
	if res, done := subcommandMissing("top", args); done {
		return res
	}
	if sub := subcommandNames["top"][args[0]]; sub != "" {
		if _, err := ParseFlags("top "+sub, args[1:], topFlags); err != nil {
			return Result{Err: err.Error(), Code: 1}
		}
		return Result{Err: "error: Metrics API not available", Code: 1}
	}
	return Result{Err: fmt.Sprintf("error: unknown command %q\nSee 'kubectl top -h' for help and examples", strings.Join(args, " ")), Code: 1}
}
