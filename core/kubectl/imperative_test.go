//go:build !(js && wasm)

package kubectl_test

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	kubectlcreate "k8s.io/kubectl/pkg/cmd/create"
	kubectlrun "k8s.io/kubectl/pkg/cmd/run"
	cmdtesting "k8s.io/kubectl/pkg/cmd/testing"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"

	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
)

// upstreamDryRun runs one of kubectl's own imperative commands with --dry-run=client, against
// a test factory (no server is asked), and returns what it prints.
func upstreamDryRun(t *testing.T, newCmd func(cmdutil.Factory, genericiooptions.IOStreams) *cobra.Command, args []string) string {
	tf := cmdtesting.NewTestFactory()
	defer tf.Cleanup()
	if i := indexOf(args, "-n"); i >= 0 { // -n is kubectl's global flag, not the subcommand's
		tf.WithNamespace(args[i+1])
		args = append(append([]string{}, args[:i]...), args[i+2:]...)
	}
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	cmd := newCmd(tf, streams)
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	require.NoError(t, cmd.Execute(), errOut.String())
	return out.String()
}

// TestImperativeDryRunIsKubectls compares `kubectl create deployment`, `create namespace`,
// `create poddisruptionbudget`, `create priorityclass` and `run` with --dry-run=client (-o yaml, -o json, -o name and
// the default message) with what kubectl's own commands print: the objects kubectl builds,
// field for field.
func TestImperativeDryRunIsKubectls(t *testing.T) {
	for _, tc := range []struct {
		command string
		newCmd  func(cmdutil.Factory, genericiooptions.IOStreams) *cobra.Command
		args    string
	}{
		{"create deployment", kubectlcreate.NewCmdCreateDeployment, "web --image=nginx:1.27 -o yaml"},
		{"create deployment", kubectlcreate.NewCmdCreateDeployment, "web --image=nginx --image=registry.k8s.io/pause:3.10 --replicas=3 -o json"},
		{"create deployment", kubectlcreate.NewCmdCreateDeployment, "web --image=busybox --port=8080 -n team-a -o yaml -- sleep 3600"},
		{"create deployment", kubectlcreate.NewCmdCreateDeployment, "web --image=nginx"},
		{"create deployment", kubectlcreate.NewCmdCreateDeployment, "web --image=nginx -o name"},
		{"create namespace", kubectlcreate.NewCmdCreateNamespace, "team-a -o yaml"},
		{"create poddisruptionbudget", kubectlcreate.NewCmdCreatePodDisruptionBudget, "web --selector=app=web --min-available=2 -o yaml"},
		{"create poddisruptionbudget", kubectlcreate.NewCmdCreatePodDisruptionBudget, "web --selector=app=web,tier,!legacy --max-unavailable=30% -n team-a -o json"},
		{"create poddisruptionbudget", kubectlcreate.NewCmdCreatePodDisruptionBudget, "web --selector=app=web --max-unavailable=1"},
		{"create priorityclass", kubectlcreate.NewCmdCreatePriorityClass, "high-priority --value=1000 --description=high -o yaml"},
		{"create priorityclass", kubectlcreate.NewCmdCreatePriorityClass, "default-priority --value=1000 --global-default=true --description=default -o json"},
		{"create priorityclass", kubectlcreate.NewCmdCreatePriorityClass, "batch --value=10 --preemption-policy=Never --global-default -o yaml"},
		{"create priorityclass", kubectlcreate.NewCmdCreatePriorityClass, "zero -o yaml"},
		{"create priorityclass", kubectlcreate.NewCmdCreatePriorityClass, "high-priority --value=1000"},
		{"create priorityclass", kubectlcreate.NewCmdCreatePriorityClass, "high-priority --value=1000 -o name"},
		{"run", kubectlrun.NewCmdRun, "nginx --image=nginx -o yaml"},
		{"run", kubectlrun.NewCmdRun, "besteffort --image=nginx --restart=Never --labels=app=qos,tier=test --env=A=1 --env=B=two --port=80 -o yaml"},
		{"run", kubectlrun.NewCmdRun, "sleeper --image=busybox --command -n kube-system --image-pull-policy=IfNotPresent --annotations=a=b -o yaml -- sleep 3600"},
		{"run", kubectlrun.NewCmdRun, "args --image=busybox --privileged -o json -- echo hello"},
		{"run", kubectlrun.NewCmdRun, "nginx --image=nginx"},
	} {
		t.Run(tc.command+" "+tc.args, func(t *testing.T) {
			args := append(strings.Fields(tc.args), "--dry-run=client")
			if i := indexOf(args, "--"); i >= 0 { // flags before "--", as kubectl reads them
				args = append(append(append([]string{}, args[:i]...), "--dry-run=client"), args[i:len(args)-1]...)
			}
			want := upstreamDryRun(t, tc.newCmd, args)
			s, err := sim.New(1, sim.Default)
			require.NoError(t, err)
			got := kubectl.Run(s, append(strings.Fields(tc.command), args...), "")
			require.Empty(t, got.Err)
			assert.Equal(t, want, got.Out)
		})
	}
}

func indexOf(words []string, w string) int {
	for i, x := range words {
		if x == w {
			return i
		}
	}
	return -1
}
