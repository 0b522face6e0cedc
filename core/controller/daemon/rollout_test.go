package daemon_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/controller/daemon"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// tenNodes is the default cluster grown to ten nodes (hd1-hd3 and w1-w7), running the DaemonSet
// "agent" (busybox:1.36, tolerating the control plane) with the given update strategy, settled.
func tenNodes(t *testing.T, strategy string) *sim.Sim {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	for i := 1; i <= 7; i++ {
		run(t, s, fmt.Sprintf("sim add-node w%d", i), "")
	}
	run(t, s, "kubectl apply -f -", `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: `+strategy+`
  template:
    metadata: {labels: {app: agent}}
    spec:
      tolerations: [{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}]
      containers: [{name: c, image: busybox:1.36}]
`)
	s.Advance(10e9)
	require.Equal(t, int32(10), agent(s).Status.NumberAvailable)
	return s
}

func run(t *testing.T, s *sim.Sim, line, stdin string) string {
	t.Helper()
	r := shell.Run(s, line, stdin)
	require.Empty(t, r.Err, line)
	return r.Out
}

func agent(s *sim.Sim) *api.DaemonSet { return s.C.DaemonSets()[0] }

// serving counts the nodes with an available agent pod that is not being deleted, and the
// nodes with two pods of the agent at once.
func serving(s *sim.Sim) (available, doubled int) {
	ds := agent(s)
	perNode := map[string]int{}
	availableOn := map[string]bool{}
	for _, p := range s.C.Pods() {
		if p.Labels["app"] != "agent" || p.DeletionTimestamp != nil {
			continue
		}
		node, _ := daemon.GetTargetNodeName(p)
		perNode[node]++
		if api.IsPodAvailable(p, ds.Spec.MinReadySeconds, s.C.Now()) {
			availableOn[node] = true
		}
	}
	for _, n := range perNode {
		if n > 1 {
			doubled++
		}
	}
	return len(availableOn), doubled
}

// rollOut steps the clock until the DaemonSet is rolled out, calling check after every step; it
// fails if the rollout has not finished after a thousand steps.
func rollOut(t *testing.T, s *sim.Sim, check func()) {
	t.Helper()
	for range 1000 {
		st := agent(s).Status
		if st.UpdatedNumberScheduled == st.DesiredNumberScheduled && st.NumberAvailable == st.DesiredNumberScheduled {
			return
		}
		require.True(t, s.Step(), "the rollout stopped with nothing scheduled")
		check()
	}
	t.Fatal("the rollout did not finish")
}

// TestRollingUpdateNeverExceedsMaxUnavailable pins a percentage budget: 30% of 10 nodes is 3
// (rounded up), and the rollout uses all of it but never more (pkg/controller/daemon/update.go
// updatedDesiredNodeCounts and rollingUpdate).
func TestRollingUpdateNeverExceedsMaxUnavailable(t *testing.T) {
	s := tenNodes(t, "{rollingUpdate: {maxUnavailable: 30%}}")
	run(t, s, "kubectl set image ds/agent c=busybox:1.37", "")
	worst := 0
	rollOut(t, s, func() {
		available, _ := serving(s)
		worst = max(worst, 10-available)
		require.LessOrEqual(t, 10-available, 3, "at %s", s.C.Now())
	})
	assert.Equal(t, 3, worst, "the whole budget is used")
	assert.Contains(t, run(t, s, "kubectl rollout status ds/agent", ""), `daemon set "agent" successfully rolled out`)
}

// TestCrashingRolloutStallsAtMaxUnavailableAndUndoRecovers pins what a bad image does: the new
// pods never become available, so after the first maxUnavailable nodes the rollout waits
// forever (new unavailable pods block progress); rollout undo restores the old template, whose
// revision is renumbered as the newest, and the rollout completes.
func TestCrashingRolloutStallsAtMaxUnavailableAndUndoRecovers(t *testing.T) {
	s := tenNodes(t, "{rollingUpdate: {maxUnavailable: 30%}}")
	run(t, s, "sim image busybox:broken crash", "")
	run(t, s, "kubectl set image ds/agent c=busybox:broken", "")
	s.Advance(10 * 60e9)
	st := agent(s).Status
	assert.Equal(t, [3]int32{10, 3, 7}, [3]int32{st.DesiredNumberScheduled, st.UpdatedNumberScheduled, st.NumberAvailable}, "desired, updated, available")
	r := shell.Run(s, "kubectl rollout status ds/agent --timeout=1m", "")
	assert.Equal(t, "Waiting for daemon set \"agent\" rollout to finish: 3 out of 10 new pods have been updated...\n", r.Out)
	assert.Equal(t, "error: timed out waiting for the condition", r.Err)
	assert.Equal(t, "daemonset.apps/agent \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n", run(t, s, "kubectl rollout history ds/agent", ""))
	assert.Equal(t, "daemonset.apps/agent rolled back\n", run(t, s, "kubectl rollout undo ds/agent", ""))
	rollOut(t, s, func() {})
	assert.Equal(t, "daemonset.apps/agent \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n", run(t, s, "kubectl rollout history ds/agent", ""))
	for _, p := range s.C.Pods() {
		if p.Labels["app"] == "agent" && p.DeletionTimestamp == nil {
			assert.Equal(t, "busybox:1.36", p.Spec.Containers[0].Image)
		}
	}
}

// TestSurgeRolloutKeepsEveryNodeServing pins maxSurge 1 with maxUnavailable 0: a new pod starts
// beside the old one and the old one goes only once the new one is available, so every node
// serves throughout and at most one node runs two pods (pkg/controller/daemon/update.go
// rollingUpdate, the maxSurge > 0 branch).
func TestSurgeRolloutKeepsEveryNodeServing(t *testing.T) {
	s := tenNodes(t, "{rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}")
	run(t, s, "kubectl set image ds/agent c=busybox:1.37", "")
	surged := false
	rollOut(t, s, func() {
		available, doubled := serving(s)
		require.Equal(t, 10, available, "every node serves at %s", s.C.Now())
		require.LessOrEqual(t, doubled, 1, "at most maxSurge nodes run two pods")
		surged = surged || doubled == 1
	})
	assert.True(t, surged, "the rollout surged")
}
