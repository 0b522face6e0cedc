package kubectl

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"daemonlab/core/sim"
)

// commands are the kubectl commands DaemonLab runs, by name.
var commands = map[string]func(s *sim.Sim, args []string, stdin string) Result{
	"apply":         applyCommand,
	"create":        createCommand,
	"get":           func(s *sim.Sim, args []string, _ string) Result { return get(s, args) },
	"cordon":        cordonCommand(true),
	"uncordon":      cordonCommand(false),
	"drain":         drainCommand,
	"delete":        deleteCommand,
	"taint":         taintCommand,
	"label":         labelCommand,
	"patch":         patchCommand,
	"events":        eventsCommand,
	"top":           topCommand,
	"annotate":      annotateCommand,
	"scale":         scaleCommand,
	"set":           setCommand,
	"rollout":       rolloutCommand,
	"describe":      func(s *sim.Sim, args []string, _ string) Result { return describeCommand(s, args) },
	"explain":       explainCommand,
	"run":           runCommand,
	"help":          helpCommand,
	"api-resources": apiResourcesCommand,
	"version":       versionCommand,
	"cluster-info":  clusterInfoCommand,
}

// Run runs one kubectl command line (without the leading "kubectl") against the simulation,
// with stdin as its standard input.
//
//  1. kubectl alone, or with -h or --help anywhere before "--", prints kubectl's own help for
//     the command named.
//  2. A command kubectl has but DaemonLab does not run yet says so; anything else is cobra's
//     "unknown command", with its suggestions.
func Run(s *sim.Sim, args []string, stdin string) Result {
	if len(args) == 0 || asksForHelp(args) {
		return Result{Out: helpText(helpTopic(args))}
	}
	cmd, ok := commands[args[0]]
	switch {
	case !ok && isKubectlCommand(args[0]):
		return Result{Err: fmt.Sprintf("error: DaemonLab's kubectl does not run %q yet; it runs %s", args[0], strings.Join(Commands(), ", ")), Code: 1}
	case !ok:
		return Result{Err: unknownCommand(args[0]), Code: 1}
	}
	return cmd(s, args[1:], stdin)
}

// unknownCommand words cobra's error, with its suggestions: commands within two edits of what
// was typed, or starting with it.
func unknownCommand(name string) string {
	msg := fmt.Sprintf("error: unknown command %q for \"kubectl\"", name)
	var suggestions []string
	for _, c := range Commands() {
		if levenshtein(name, c) <= 2 || strings.HasPrefix(c, strings.ToLower(name)) {
			suggestions = append(suggestions, "\t"+c)
		}
	}
	if len(suggestions) > 0 {
		msg += "\n\nDid you mean this?\n" + strings.Join(suggestions, "\n")
	}
	return msg
}

// Commands lists the kubectl commands DaemonLab runs, sorted.
func Commands() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

var applyFlags = []FlagSpec{
	{Name: "filename", Shorthand: 'f'},
	{Name: "namespace", Shorthand: 'n'},
}

// applyCommand runs `kubectl apply -f -`; DaemonLab has no files, so standard input is the only
// source.
func applyCommand(s *sim.Sim, args []string, stdin string) Result {
	return fromStdin("apply", Apply, s, args, stdin)
}

// createCommand runs `kubectl create -f -`, or one of create's subcommands for the kinds
// DaemonLab models (deployment, namespace).
func createCommand(s *sim.Sim, args []string, stdin string) Result {
	if len(args) > 0 {
		if sub, ok := createSubcommands[args[0]]; ok {
			return sub(s, args[1:])
		}
		if slices.Contains(kubectlCreateSubcommands, args[0]) {
			return Result{Err: fmt.Sprintf("error: DaemonLab's kubectl does not run \"create %s\" yet; of kubectl create it runs -f -, deployment and namespace", args[0]), Code: 1}
		}
	}
	return fromStdin("create", Create, s, args, stdin)
}

func fromStdin(name string, run func(*sim.Sim, []byte, string, string) Result, s *sim.Sim, args []string, stdin string) Result {
	f, err := ParseFlags(name, args, applyFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	switch file := f.Get("filename"); {
	case !f.Has("filename"):
		return Result{Err: "error: must specify one of -f and -k", Code: 1}
	case file != "-":
		return Result{Err: fmt.Sprintf("error: the path %q does not exist", file), Code: 1}
	}
	return run(s, []byte(stdin), "STDIN", orDefault(f.Get("namespace"), "default"))
}
