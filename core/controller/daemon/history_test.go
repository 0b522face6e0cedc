package daemon_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// TestHistoryKeepsRevisionHistoryLimitOldRevisionsAndLiveOnes pins cleanupHistory: beyond
// revisionHistoryLimit old revisions, the oldest go first, but never one whose hash a pod still
// carries (here the pods keep the first template: DaemonLab does not roll them yet); the live
// one counts towards the limit.
func TestHistoryKeepsRevisionHistoryLimitOldRevisionsAndLiveOnes(t *testing.T) {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	ds := "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  revisionHistoryLimit: 2\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: busybox:1.30}]\n"
	r := shell.Run(s, "kubectl apply -f -", ds)
	require.Empty(t, r.Err)
	for _, tag := range []string{"1.31", "1.32", "1.33", "1.34", "1.35"} {
		r = shell.Run(s, "kubectl set image ds/agent c=busybox:"+tag, "")
		require.Empty(t, r.Err)
	}
	r = shell.Run(s, `kubectl get controllerrevisions --sort-by=.revision -o jsonpath='{range.items[*]}{.revision}={.data.spec.template.spec.containers[0].image}{" "}{end}'`, "")
	require.Empty(t, r.Err)
	assert.Equal(t, []string{"1=busybox:1.30", "5=busybox:1.34", "6=busybox:1.35"}, strings.Fields(r.Out),
		"two old revisions are kept, the live first one counting among them, and the current one is 6")
}
