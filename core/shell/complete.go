package shell

import (
	"path"
	"slices"
	"strings"

	"daemonlab/core/kubectl"
	"daemonlab/core/kubelet"
	"daemonlab/core/sim"
)

// Complete returns the completions of a partly typed command line: whole lines, each the line
// with its last word completed, sorted. The terminal's Tab key uses it: one completion is taken
// at once, several are listed. A line that cannot be split (an open quote) completes to nothing.
func Complete(s *sim.Sim, line string) []string {
	cmds, err := Pipeline(line)
	if err != nil {
		return nil
	}
	words := cmds[len(cmds)-1]
	if len(words) == 0 || strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
		words = append(words, "")
	}
	partial := words[len(words)-1]
	if !strings.HasSuffix(line, partial) {
		return nil // the word being typed is quoted: nothing to complete in place
	}
	var candidates []string
	switch {
	case len(words) == 1 && len(cmds) > 1:
		candidates = kubectl.WithPrefix([]string{"cat", "grep", "head", "k", "kubectl", "tail", "wc"}, partial)
	case len(words) == 1:
		candidates = kubectl.WithPrefix(append(FileCommands(), "help", "k", "kubectl", "sim"), partial)
	case fileCommands[words[0]] != nil || (words[0] == "kubectl" || words[0] == "k" || words[0] == "sim") && slices.Contains([]string{"-f", "--filename", "--patch-file"}, words[len(words)-2]):
		candidates = completeFile(s, partial)
	case words[0] == "kubectl" || words[0] == "k":
		candidates = kubectl.Complete(s, words[1:])
	case words[0] == "sim":
		candidates = completeSim(s, words[1:])
	}
	head := line[:len(line)-len(partial)]
	var out []string
	for _, c := range candidates {
		out = append(out, head+c)
	}
	return out
}

// completeSim completes sim's subcommands, node names, fault kinds and image behaviours.
func completeSim(s *sim.Sim, words []string) []string {
	partial := words[len(words)-1]
	if len(words) == 1 {
		var names []string
		for _, c := range simCommands {
			names = append(names, c.name)
		}
		return kubectl.WithPrefix(names, partial)
	}
	var nodes []string
	for _, n := range s.C.Nodes() {
		nodes = append(nodes, n.Name)
	}
	switch sub, arg := words[0], len(words)-1; {
	case (sub == "fail" || sub == "recover" || sub == "oom") && arg == 1:
		return kubectl.WithPrefix(nodes, partial)
	case (sub == "fail" || sub == "recover") && arg == 2:
		return kubectl.WithPrefix(kubelet.Faults, partial)
	case sub == "image" && arg == 2:
		var behaviours []string
		for _, b := range kubelet.Behaviours {
			behaviours = append(behaviours, string(b))
		}
		return kubectl.WithPrefix(behaviours, partial)
	}
	return nil
}

// completeFile completes a path in the workspace: the names in its directory that start with
// what is typed of its last part, a directory's with a slash after it.
func completeFile(s *sim.Sim, partial string) []string {
	dir, base := path.Split(partial)
	names, err := s.C.ReadDir(dir + ".") // "dir/." is dir, and "." the workspace
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range kubectl.WithPrefix(names, base) {
		if f, _ := s.C.Stat(dir + n); f.Dir {
			n += "/"
		}
		out = append(out, dir+n)
	}
	return out
}
