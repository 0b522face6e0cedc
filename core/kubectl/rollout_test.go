package kubectl

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/kubelet"
	"daemonlab/core/sim"
)

// TestRolloutStatusWaitsForeverWithoutTimeout pins how a watch that does not finish ends. In
// kubectl, --timeout is "The length of time to wait before ending watch, zero means never"
// (k8s.io/kubectl pkg/cmd/rollout/rollout_status.go: RolloutStatusOptions.Timeout defaults to
// 0, and watchtools.ContextWithOptionalTimeout sets no deadline for 0): only --timeout ends it
// with "timed out waiting for the condition". Without one DaemonLab stops where kubectl would
// still be waiting, and says so in its own words, as drain does: after 5 simulated minutes, or
// at once when nothing more is due in the cluster. A paused rollout never finishes by itself;
// a crashing pod beside it keeps the kubelet's restarts due.
func TestRolloutStatusWaitsForeverWithoutTimeout(t *testing.T) {
	const waiting = "Waiting for deployment \"web\" rollout to finish: 0 out of 1 new replicas have been updated...\n"
	const forever = "kubectl rollout status without --timeout waits for as long as it takes."
	for _, tc := range []struct {
		name     string
		busy     bool // a crashing pod keeps something due
		paused   bool
		args     string
		wantErr  string
		wantCode int
		waited   time.Duration
	}{
		{"--timeout ends the watch with kubectl's error", true, true, "--timeout=1m",
			"error: timed out waiting for the condition", 1, time.Minute},
		{"without --timeout DaemonLab stops after 5 simulated minutes and says so", true, true, "",
			"DaemonLab stopped waiting after 5m0s of simulated time; " + forever, 1, 5 * time.Minute},
		{"--timeout=0 means never, as no --timeout", true, true, "--timeout=0",
			"DaemonLab stopped waiting after 5m0s of simulated time; " + forever, 1, 5 * time.Minute},
		{"without --timeout DaemonLab stops at once when nothing more is due", false, true, "",
			"DaemonLab stopped waiting: nothing more is due in the simulated cluster, so the rollout cannot go on by itself; " + forever, 1, 0},
		{"--timeout is waited out even when nothing is due", false, true, "--timeout=30s",
			"error: timed out waiting for the condition", 1, 30 * time.Second},
		{"a rollout that finishes needs no limit", false, false, "", "", 0, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := sim.New(1, sim.Default)
			require.NoError(t, err)
			if tc.busy {
				kubelet.SetImage(s.C, "busybox:broken", kubelet.BehaviourCrash, kubelet.StartupDelay)
				require.Zero(t, run(s, []string{"run", "crasher", "--image=busybox:broken"}, "").Code)
			}
			require.Zero(t, run(s, []string{"create", "deployment", "web", "--image=nginx"}, "").Code)
			if tc.paused {
				require.Zero(t, run(s, []string{"rollout", "pause", "deployment/web"}, "").Code)
			}
			require.Zero(t, run(s, []string{"set", "image", "deployment/web", "nginx=nginx:2"}, "").Code)
			s.Advance(time.Minute) // the old pod is Ready; a busy cluster has restarts due
			start := s.C.Now()
			r := run(s, append([]string{"rollout", "status", "deployment/web"}, strings.Fields(tc.args)...), "")
			assert.Equal(t, tc.wantErr, r.Err)
			assert.Equal(t, tc.wantCode, r.Code)
			if tc.waited < 0 {
				assert.True(t, strings.HasSuffix(r.Out, "deployment \"web\" successfully rolled out\n"), r.Out)
				return
			}
			assert.Equal(t, waiting, r.Out)
			assert.Equal(t, tc.waited, s.C.Now().Sub(start), "simulated time the watch let pass")
		})
	}
}
