package lesson

import (
	"errors"
	"fmt"
	"slices"

	"daemonlab/core/api"
	"daemonlab/core/kubectl"
	"daemonlab/core/shell"
)

// Look is a ran line read: a kubectl command line, and the greps it pipes into, each naming the
// text the learner is meant to find (`kubectl describe pod mixed | grep "QoS Class"`).
type Look struct {
	Line  string
	Inv   kubectl.Invocation
	Greps [][]string // each grep's words; its last word is the text it must let through
}

// isGrep reports whether a command of a pipeline is a grep.
func isGrep(words []string) bool {
	return len(words) > 0 && slices.Contains([]string{"grep", "egrep", "fgrep"}, words[0])
}

// ParseLook reads a ran line: one pipeline, a kubectl (or k) command that kubectl would accept
// first, then greps whose last word is a text they let through.
func ParseLook(line string) (Look, error) {
	list, err := shell.Pipelines(line)
	switch {
	case err != nil:
		return Look{}, err
	case len(list) != 1 || len(list[0][0]) == 0:
		return Look{}, errors.New("a ran line is one kubectl command, maybe piped into grep")
	case list[0][0][0] != "kubectl" && list[0][0][0] != "k":
		return Look{}, errors.New("a ran line starts with kubectl")
	}
	inv, err := kubectl.ParseInvocation(list[0][0][1:])
	if err != nil {
		return Look{}, err
	}
	look := Look{Line: line, Inv: inv}
	for _, words := range list[0][1:] {
		if !isGrep(words) {
			return Look{}, fmt.Errorf("a ran line pipes only into grep, not %s", words[0])
		}
		if ok, err := shell.GrepSelects(words, words[len(words)-1]); err != nil || !ok {
			return Look{}, fmt.Errorf("its grep must let through its own last word, the text the learner looks for")
		}
		look.Greps = append(look.Greps, words)
	}
	return look, nil
}

// RunBy reports whether a command line a learner typed runs the look, in any spelling kubectl
// reads the same way and with at least what the look shows:
//
//  1. One of the line's pipelines (after ;, && or ||) starts with kubectl or k, and kubectl
//     reads it as the same command (kubectl.ParseInvocation: flags in any order, before or
//     after the command, short or long; types by any name; TYPE NAME or TYPE/NAME).
//  2. It names every object the look names, or every object of that type; every argument;
//     and every flag with the same value. More flags are fine (`--show-labels`).
//  3. It reads the look's namespace, or all of them with -A (unless the look's objects are all
//     cluster-scoped, when the namespace does not matter).
//  4. When the look greps, the line greps too; each grep of the line lets through every text
//     the look greps for, as grep would (`grep -i qos` lets "QoS Class" through, `grep qos`
//     does not). A look without greps takes any filters.
func (l Look) RunBy(line string) bool {
	list, err := shell.Pipelines(line)
	if err != nil {
		return false
	}
	for _, p := range list {
		if len(p[0]) == 0 || p[0][0] != "kubectl" && p[0][0] != "k" {
			continue
		}
		inv, err := kubectl.ParseInvocation(p[0][1:])
		if err == nil && l.covered(inv) && l.filtered(p[1:]) {
			return true
		}
	}
	return false
}

// covered reports whether a typed invocation shows at least what the look's does (rules 1–3).
func (l Look) covered(typed kubectl.Invocation) bool {
	want := l.Inv
	if typed.Command != want.Command {
		return false
	}
	for _, o := range want.Objects {
		if !slices.ContainsFunc(typed.Objects, func(t kubectl.ObjectRef) bool {
			return t.Kind == o.Kind && (o.Name == "" || t.Name == o.Name || t.Name == "")
		}) {
			return false
		}
	}
	for _, a := range want.Args {
		if !slices.Contains(typed.Args, a) {
			return false
		}
	}
	for _, name := range want.Flags.Names() {
		if name != "namespace" && name != "all-namespaces" && typed.Flags.Get(name) != want.Flags.Get(name) {
			return false
		}
	}
	switch {
	case clusterScoped(want.Objects):
		return true
	case want.Flags.IsTrue("all-namespaces"):
		return typed.Flags.IsTrue("all-namespaces")
	}
	return typed.Flags.IsTrue("all-namespaces") || typed.Namespace() == want.Namespace()
}

// filtered reports whether the filters a line pipes into let the look's texts through (rule 4).
func (l Look) filtered(filters [][]string) bool {
	grepped := false
	for _, words := range filters {
		if !isGrep(words) {
			continue
		}
		grepped = true
		for _, g := range l.Greps {
			if ok, err := shell.GrepSelects(words, g[len(g)-1]); err != nil || !ok {
				return false
			}
		}
	}
	return grepped || len(l.Greps) == 0
}

// clusterScoped reports whether objects are there and all of kinds without a namespace.
func clusterScoped(objects []kubectl.ObjectRef) bool {
	if len(objects) == 0 {
		return false
	}
	for _, o := range objects {
		i := slices.IndexFunc(api.Kinds, func(k api.Kind) bool { return k.Kind == o.Kind })
		if i < 0 || api.Kinds[i].Namespaced {
			return false
		}
	}
	return true
}
