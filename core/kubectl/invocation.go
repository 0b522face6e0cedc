package kubectl

import (
	"fmt"
	"slices"
	"strings"
)

// Invocation is a kubectl command line as kubectl reads it, whatever its spelling: the command
// ("get", "rollout status", "create deployment"), the objects it names with their types
// resolved to kinds, its other arguments, and its flags by their long names.
type Invocation struct {
	Command string
	Objects []ObjectRef
	Args    []string // the positional arguments that name no object: KEY=VALUE, a field path…
	Flags   Flags
}

// ObjectRef is an object an invocation names: its kind ("DaemonSet", or "all" for kubectl's
// category) and its name, "" for every object of the kind.
type ObjectRef struct{ Kind, Name string }

// Namespace is the namespace the invocation reads or writes: its -n, or "default".
func (inv Invocation) Namespace() string { return orDefault(inv.Flags.Get("namespace"), "default") }

// ParseInvocation reads a kubectl command line (the words after "kubectl" or "k") as kubectl
// does, without running it:
//
//  1. Global flags may come before the command (`kubectl -n kube-system get ds`), as cobra
//     finds a command among flags (see commandFirst).
//  2. A command that groups others (rollout, set, create, top) takes its subcommand's name;
//     kubectl's aliases name the same command (`create deploy` is `create deployment`).
//  3. Flags are parsed with the command's own, by their long names: `-oyaml`, `-o=yaml` and
//     `--output yaml` are one flag.
//  4. Positional arguments name objects as kubectl reads them: TYPE[,TYPE…] NAME…, TYPE/NAME…,
//     or node names for cordon, uncordon and drain; types by any of their names (`po`,
//     `pods`, `daemonsets.apps`). Arguments that set something (KEY=VALUE, KEY-, a taint's
//     KEY=VALUE:EFFECT) and those of other commands are Args.
//
// A command DaemonLab does not run, an unknown flag or an unknown type is an error.
func ParseInvocation(words []string) (Invocation, error) {
	args := commandFirst(words)
	if len(args) == 0 {
		return Invocation{}, fmt.Errorf("no command")
	}
	path, rest := args[0], args[1:]
	if _, ok := commands[path]; !ok {
		return Invocation{}, fmt.Errorf("kubectl has no command %q here", path)
	}
	if subs, ok := subcommandNames[path]; ok {
		if len(rest) == 0 || subs[rest[0]] == "" {
			if path != "create" {
				return Invocation{}, fmt.Errorf("kubectl %s needs a subcommand", path)
			}
		} else {
			path, rest = path+" "+subs[rest[0]], rest[1:]
		}
	}
	f, err := ParseFlags(path, rest, commandFlags[path])
	if err != nil {
		return Invocation{}, err
	}
	inv := Invocation{Command: path, Flags: f}
	kinds := []string(nil) // the kinds of TYPE NAME…, once TYPE is read
	for i, a := range f.Args {
		switch kind := positional[path]; {
		case kind == "nodes":
			inv.Objects = append(inv.Objects, ObjectRef{"Node", a})
		case kind != "type" && kind != "type/name", setsSomething(a):
			inv.Args = append(inv.Args, a)
		case strings.Contains(a, "/"):
			typ, name, _ := strings.Cut(a, "/")
			k, err := kindNamed(typ)
			if err != nil {
				return Invocation{}, err
			}
			inv.Objects = append(inv.Objects, ObjectRef{k, name})
		case i == 0:
			for _, typ := range strings.Split(a, ",") {
				k, err := kindNamed(typ)
				if err != nil {
					return Invocation{}, err
				}
				kinds = append(kinds, k)
			}
			if path == "taint" && kinds[0] != "Node" {
				return Invocation{}, fmt.Errorf("kubectl taint takes nodes, not %s", a)
			}
		default:
			for _, k := range kinds {
				inv.Objects = append(inv.Objects, ObjectRef{k, a})
			}
		}
	}
	for _, k := range kinds { // TYPE alone: every object of the type
		if !slices.ContainsFunc(inv.Objects, func(o ObjectRef) bool { return o.Kind == k }) {
			inv.Objects = append(inv.Objects, ObjectRef{Kind: k})
		}
	}
	return inv, nil
}

// subcommandNames are the subcommands of the commands that group others, by every name kubectl
// takes for them, each to its own name.
var subcommandNames = map[string]map[string]string{
	"rollout": {"history": "history", "pause": "pause", "restart": "restart", "resume": "resume", "status": "status", "undo": "undo"},
	"set":     {"image": "image"},
	"top":     {"node": "node", "nodes": "node", "no": "node", "pod": "pod", "pods": "pod", "po": "pod"},
	"create": {"deployment": "deployment", "deploy": "deployment", "namespace": "namespace", "ns": "namespace",
		"poddisruptionbudget": "poddisruptionbudget", "pdb": "poddisruptionbudget", "priorityclass": "priorityclass", "pc": "priorityclass"},
}

// setsSomething reports whether a positional argument sets rather than names: a label or an
// annotation (KEY=VALUE, KEY-), a taint (KEY[=VALUE]:EFFECT[-]) or set image's CONTAINER=IMAGE.
// An object's name never has = or :, and never ends with -.
func setsSomething(a string) bool {
	return strings.ContainsAny(a, "=:") || strings.HasSuffix(a, "-")
}

// kindNamed resolves a type as kubectl reads it ("all" is the category).
func kindNamed(typ string) (string, error) {
	if strings.EqualFold(typ, "all") {
		return "all", nil
	}
	r, ok := findResource(typ)
	if !ok {
		return "", fmt.Errorf("the server doesn't have a resource type %q", typ)
	}
	return r.kind.Kind, nil
}

// globalBooleans are kubectl's global flags that take no value.
var globalBooleans = []string{"--insecure-skip-tls-verify", "--match-server-version", "--warnings-as-errors", "--disable-compression"}

// commandFirst moves the flags typed before the command's name after the command's words, as
// cobra reads `kubectl -n kube-system get ds` (cobra.Command.Find with stripFlags):
//
//  1. A flag given with its value (`--namespace=x`, `-nx`) is one word; a global boolean is one
//     word.
//  2. Any other flag before the command, `-n` or `--namespace`, takes the next word as its value.
//  3. The first word that is neither is the command; the flags go at the end (before a "--").
func commandFirst(words []string) []string {
	var flags []string
	i := 0
	for ; i < len(words) && strings.HasPrefix(words[i], "-") && words[i] != "--"; i++ {
		w := words[i]
		flags = append(flags, w)
		long := strings.HasPrefix(w, "--") && !strings.Contains(w, "=")
		short := !strings.HasPrefix(w, "--") && len(w) == 2
		if (long && !slices.Contains(globalBooleans, w) || short) && i+1 < len(words) {
			i++
			flags = append(flags, words[i])
		}
	}
	if len(flags) == 0 || i == len(words) {
		return words
	}
	rest := words[i:]
	end := slices.Index(rest, "--")
	if end < 0 {
		end = len(rest)
	}
	return slices.Concat(rest[:end], flags, rest[end:])
}
