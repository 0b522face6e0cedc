//go:build !(js && wasm)

package kubectl_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	kubectlcmd "k8s.io/kubectl/pkg/cmd"

	"daemonlab/core/kubectl"
)

var update = flag.Bool("update", false, "rewrite help.json from kubectl v0.37.2's own commands")

// upstreamHelp runs `kubectl <path> --help` with kubectl's own command tree.
func upstreamHelp(t *testing.T, path string) string {
	var out, errOut bytes.Buffer
	root := kubectlcmd.NewKubectlCommand(kubectlcmd.KubectlOptions{IOStreams: genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}})
	root.SetOut(&out)
	root.SetErr(&errOut)
	args := strings.Fields(path)
	if path == "options" {
		root.SetArgs(args)
	} else {
		root.SetArgs(append(args, "--help"))
	}
	require.NoError(t, root.Execute(), path)
	return out.String()
}

// TestHelpIsKubectls checks help.json, the help DaemonLab prints for `kubectl [CMD] --help`,
// against kubectl's own command tree (rewrite it with -update): every command DaemonLab runs,
// their subcommands, `kubectl options`, kubectl alone, and the names of kubectl's other
// commands.
func TestHelpIsKubectls(t *testing.T) {
	root := kubectlcmd.NewKubectlCommand(kubectlcmd.KubectlOptions{IOStreams: genericiooptions.NewTestIOStreamsDiscard()})
	want := map[string]string{}
	for _, path := range kubectl.HelpTopics() {
		want[path] = upstreamHelp(t, path)
	}
	var all []string
	for _, c := range root.Commands() {
		all = append(all, c.Name())
		all = append(all, c.Aliases...)
	}
	slices.Sort(all)
	want["\x00commands"] = strings.Join(all, " ")
	want["\x00usage"] = root.UsageString()
	data, err := json.MarshalIndent(want, "", "  ")
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile("help.json", append(data, '\n'), 0o644))
	}
	got, err := os.ReadFile("help.json")
	require.NoError(t, err)
	assert.JSONEq(t, string(data), string(got), "help.json is stale: go test ./core/kubectl -run TestHelpIsKubectls -update")
}
