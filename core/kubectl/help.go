package kubectl

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"daemonlab/core/sim"
)

// help.json holds what kubectl v1.37 prints for `kubectl [CMD] --help` for every command
// DaemonLab runs, kubectl's usage, and the names of all of kubectl's commands; TestHelpIsKubectls
// checks it against kubectl's own command tree.
//
//go:embed help.json
var helpJSON []byte

var (
	helpOnce  sync.Once
	helpTexts map[string]string
)

func helpText(topic string) string {
	helpOnce.Do(func() {
		if err := json.Unmarshal(helpJSON, &helpTexts); err != nil {
			panic("kubectl: help.json: " + err.Error()) // embedded at build time, checked by tests
		}
	})
	return helpTexts[topic]
}

// HelpTopics lists the command paths whose help DaemonLab prints: "" for kubectl alone,
// "options", every command DaemonLab runs and their subcommands.
func HelpTopics() []string {
	topics := append([]string{"", "options", "set image", "create deployment", "create namespace", "create poddisruptionbudget", "create priorityclass", "top node", "top pod"}, Commands()...)
	for sub := range rolloutSubcommands {
		topics = append(topics, "rollout "+sub)
	}
	slices.Sort(topics)
	return topics
}

// helpTopic finds the command a line asks help for, as cobra's Find walks the command tree:
//
//  1. It is the longest run of the line's leading words, up to the first flag, that names a
//     topic (`kubectl rollout status ds/x --help` is rollout status's help).
//  2. A word after a command that groups others is read as that command's subcommand by any
//     of its names (subcommandNames: `kubectl create pdb --help` is create
//     poddisruptionbudget's help, `kubectl top nodes --help` top node's).
func helpTopic(words []string) string {
	topic := ""
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			break
		}
		if name := subcommandNames[topic][w]; name != "" {
			w = name
		}
		candidate := strings.TrimPrefix(topic+" "+w, " ")
		if helpText(candidate) == "" {
			break
		}
		topic = candidate
	}
	return topic
}

// asksForHelp reports whether -h or --help comes before any "--".
func asksForHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help", "--help=true", "-h=true":
			return true
		}
	}
	return false
}

// isKubectlCommand reports whether name is one of kubectl's own commands (or aliases).
func isKubectlCommand(name string) bool {
	return slices.Contains(strings.Fields(helpText("\x00commands")), name)
}

// helpCommand is `kubectl help [COMMAND…]`: the command's help, or cobra's "Unknown help topic"
// and kubectl's usage.
func helpCommand(_ *sim.Sim, args []string, _ string) Result {
	topic := helpTopic(args)
	if len(args) > 0 && topic == "" {
		return Result{Out: fmt.Sprintf("Unknown help topic [`%s`]\n", strings.Join(args, " ")) + helpText("\x00usage")}
	}
	return Result{Out: helpText(topic)}
}
