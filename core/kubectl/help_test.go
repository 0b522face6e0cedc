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
	"daemonlab/core/sim"
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

// TestHelpOfASubcommandByAnyOfItsNamesIsItsHelp: cobra finds a subcommand by its aliases too
// (cobra command.go Find, findNext matching Aliases), so `kubectl create pdb --help` and
// `kubectl help top nodes` print create poddisruptionbudget's and top node's help, not their
// group's. Every name kubectl's own command tree gives the subcommands DaemonLab runs is tried.
func TestHelpOfASubcommandByAnyOfItsNamesIsItsHelp(t *testing.T) {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	topics := kubectl.HelpTopics()
	root := kubectlcmd.NewKubectlCommand(kubectlcmd.KubectlOptions{IOStreams: genericiooptions.NewTestIOStreamsDiscard()})
	tried := 0
	for _, group := range root.Commands() {
		for _, sub := range group.Commands() {
			if !slices.Contains(topics, group.Name()+" "+sub.Name()) {
				continue
			}
			for _, name := range append([]string{sub.Name()}, sub.Aliases...) {
				path := group.Name() + " " + name
				want := upstreamHelp(t, path)
				tried++
				for _, args := range [][]string{{group.Name(), name, "--help"}, {"help", group.Name(), name}, {group.Name(), name, "x", "-h"}} {
					r := kubectl.Run(s, args, "")
					assert.Equal(t, want, r.Out, strings.Join(args, " "))
					assert.Zero(t, r.Code, strings.Join(args, " "))
				}
			}
		}
	}
	assert.Greater(t, tried, 12, "create deploy, ns and pdb, top no/nodes and po/pods are among them")
}
