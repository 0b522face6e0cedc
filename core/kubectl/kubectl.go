package kubectl

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"daemonlab/core/api"
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
	"replace":       replaceCommand,
	"taint":         taintCommand,
	"label":         labelCommand,
	"patch":         patchCommand,
	"edit":          editCommand,
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
//  2. Flags before the command are read as cobra reads them (commandFirst):
//     `kubectl -n kube-system get ds` is `kubectl get ds -n kube-system`.
//  3. A command kubectl has but DaemonLab does not run yet says so; anything else is cobra's
//     "unknown command", with its suggestions.
func Run(s *sim.Sim, args []string, stdin string) Result {
	args = commandFirst(args)
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
	{Name: "recursive", Shorthand: 'R', Boolean: true},
	{Name: "namespace", Shorthand: 'n'},
}

// applyCommand runs `kubectl apply -f FILE…`.
func applyCommand(s *sim.Sim, args []string, stdin string) Result {
	return fromFiles("apply", Apply, s, args, stdin)
}

// createCommand runs `kubectl create -f FILE…`, or one of create's subcommands for the kinds
// DaemonLab models (deployment, namespace, poddisruptionbudget, priorityclass).
func createCommand(s *sim.Sim, args []string, stdin string) Result {
	if len(args) > 0 {
		if sub, ok := createSubcommands[subcommandNames["create"][args[0]]]; ok {
			return sub(s, args[1:])
		}
		if slices.Contains(kubectlCreateSubcommands, args[0]) {
			return Result{Err: fmt.Sprintf("error: DaemonLab's kubectl does not run \"create %s\" yet; of kubectl create it runs -f, deployment, namespace, poddisruptionbudget and priorityclass", args[0]), Code: 1}
		}
	}
	return fromFiles("create", Create, s, args, stdin)
}

// fromFiles runs apply or create on the manifests its -f flags name (see sources). A source
// that does not parse stops everything before anything is sent, as kubectl's builder does.
func fromFiles(name string, run func(*sim.Sim, []byte, string, string) Result, s *sim.Sim, args []string, stdin string) Result {
	f, err := ParseFlags(name, args, applyFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	switch {
	case len(f.Args) > 0: // ApplyFlags.ToOptions, CreateOptions.Complete
		return Result{Err: fmt.Sprintf("error: Unexpected args: %v\nSee 'kubectl %s -h' for help and examples", f.Args, name), Code: 1}
	case !f.Has("filename"):
		return Result{Err: "error: must specify one of -f and -k", Code: 1}
	}
	srcs, bad := Sources(s, f, stdin)
	if bad != nil {
		return *bad
	}
	namespace := orDefault(f.Get("namespace"), "default")
	if len(srcs) == 1 {
		return run(s, srcs[0].Data, srcs[0].Name, namespace)
	}
	for _, src := range srcs {
		if _, err := api.Decode(src.Data); err != nil {
			r := ClientError(err, src.Name)
			r.Code = 1
			return r
		}
	}
	var out Result
	for _, src := range srcs {
		r := run(s, src.Data, src.Name, namespace)
		out.Out += r.Out
		out.Err = strings.TrimPrefix(out.Err+"\n"+r.Err, "\n")
		out.Problems = append(out.Problems, r.Problems...)
		out.Code = max(out.Code, r.Code)
	}
	out.Err = strings.TrimSuffix(out.Err, "\n")
	return out
}

// dirSources adds a directory's manifest files (.json, .yaml, .yml) to out in the order
// filepath.Walk visits them (ExpandPathsToFileVisitors): its entries in name order, a
// directory's files where the directory comes, when recursive.
func dirSources(s *sim.Sim, dir string, recursive bool, out []Source) []Source {
	names, _ := s.C.ReadDir(dir)
	for _, n := range names {
		child := path.Join(dir, n)
		c, _ := s.C.Stat(child)
		switch {
		case c.Dir && recursive:
			out = dirSources(s, child, true, out)
		case !c.Dir && slices.Contains([]string{".json", ".yaml", ".yml"}, path.Ext(n)):
			out = append(out, Source{child, []byte(c.Data)})
		}
	}
	return out
}

// Source is one source of manifests: its name in kubectl's messages and its bytes.
type Source struct {
	Name string
	Data []byte
}

// Sources reads what the -f flags name, in order, as kubectl's resource builder does
// (k8s.io/cli-runtime/pkg/resource, Builder.FilenameParam and Path, ExpandPathsToFileVisitors):
//
//  1. "-" is standard input, named STDIN.
//  2. An http:// or https:// URL cannot be fetched: DaemonLab has no network.
//  3. A file in the workspace (cluster.CleanPath) is read whatever its name; a directory gives
//     its .json, .yaml and .yml files, in name order, not those of the directories in it
//     unless -R (--recursive) asks for them (see dirSources).
//  4. A path that does not exist is "the path … does not exist"; a directory with no such file
//     "recognized file extensions are …". Several such errors are listed together.
func Sources(s *sim.Sim, f Flags, stdin string) ([]Source, *Result) {
	var out []Source
	var errs []string
	for _, p := range f.All("filename") {
		switch {
		case p == "-":
			out = append(out, Source{"STDIN", []byte(stdin)})
			continue
		case strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://"):
			return nil, &Result{Err: fmt.Sprintf("error: DaemonLab has no network and cannot fetch %s; bring the manifest in with a here-document (cat > file.yaml <<EOF … EOF) and apply the file", p), Code: 1}
		}
		file, err := s.C.Stat(p)
		if err != nil {
			errs = append(errs, fmt.Sprintf("the path %q does not exist", p))
			continue
		}
		if !file.Dir {
			out = append(out, Source{p, []byte(file.Data)})
			continue
		}
		before := len(out)
		out = dirSources(s, p, f.IsTrue("recursive"), out)
		if len(out) == before {
			errs = append(errs, fmt.Sprintf("error reading [%s]: recognized file extensions are [.json .yaml .yml]", p))
		}
	}
	switch len(errs) {
	case 0:
		return out, nil
	case 1:
		return nil, &Result{Err: "error: " + errs[0], Code: 1}
	}
	return nil, &Result{Err: "error: [" + strings.Join(errs, ", ") + "]", Code: 1}
}
