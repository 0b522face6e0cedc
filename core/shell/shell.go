// Package shell runs DaemonLab's command language: one line of `kubectl …` (or `k …`) or
// `sim …`, split as a shell splits words, against one simulation. Scenarios, lessons, the
// terminal and the page all go through Run.
package shell

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
)

// Result is what a command printed and its exit code.
type Result = kubectl.Result

// Run runs one command line with stdin as its standard input. The line is a list of
// pipelines, each after ; (run), && (run if the last succeeded) or || (run if it failed), as
// bash runs them; each pipeline that runs reads stdin. A pipeline runs its first
// command, then passes what it printed to the standard input of the next (a filter, see filter;
// another kubectl command, `… --dry-run=client -o yaml | kubectl apply -f -`; cat); the exit
// code is the last command's, and every command's errors are shown. Redirections read and
// write the workspace (see redirected). The line is one command of the simulation
// (sim.Sim.Command): it may do at most sim.Budget units of work.
func Run(s *sim.Sim, line, stdin string) Result {
	defer s.Command()()
	list, err := parse(line)
	if err != nil {
		if strings.HasPrefix(err.Error(), "syntax error") {
			return Result{Err: "bash: " + err.Error(), Code: 2}
		}
		return Result{Err: "error: " + err.Error(), Code: 1}
	}
	for _, p := range list {
		for _, c := range p.cmds {
			if len(c.words) == 0 && len(c.redirs) == 0 && len(p.cmds) > 1 {
				return Result{Err: "bash: syntax error near unexpected token `|'", Code: 2}
			}
		}
	}
	var all []Result
	code := 0
	for _, p := range list {
		if p.op == "&&" && code != 0 || p.op == "||" && code == 0 {
			continue // the status stays the last command's
		}
		r := pipe(s, p.cmds, stdin)
		all, code = append(all, r), r.Code
	}
	if len(all) == 1 {
		return all[0]
	}
	var res Result
	for _, r := range all {
		res.Out += r.Out
		res.Err = strings.TrimPrefix(res.Err+"\n"+r.Err, "\n")
		res.Stream = append(res.Stream, r.Pieces()...)
		res.Problems = append(res.Problems, r.Problems...)
	}
	res.Err = strings.TrimSuffix(res.Err, "\n")
	res.Code = code
	return res
}

// pipe runs a pipeline: each command's standard input is what the one before printed.
func pipe(s *sim.Sim, cmds []command, stdin string) Result {
	var res Result
	for i, c := range cmds {
		in := stdin
		if i > 0 {
			in = res.Out // what the command before printed
		}
		next := redirected(s, c, in)
		if i > 0 {
			next.Err = strings.TrimSuffix(strings.Join([]string{res.Err, next.Err}, "\n"), "\n")
			next.Err = strings.TrimPrefix(next.Err, "\n")
		}
		res = next
	}
	return res
}

// run runs one command of the language: kubectl, sim, help, a file command (see files.go) or
// a filter.
func run(s *sim.Sim, words []string, stdin string) Result {
	if len(words) == 0 {
		return Result{}
	}
	switch words[0] {
	case "kubectl", "k":
		before := s.C.Writes()
		r := kubectl.Run(s, words[1:], stdin)
		if s.C.Writes() != before {
			s.Settle() // the controllers answer what the command changed
		}
		return r
	case "sim":
		return runSim(s, words[1:], stdin)
	case "help":
		return help()
	case "cd":
		return cd(s.C, words)
	}
	if cmd, ok := fileCommands[words[0]]; ok {
		return cmd(s.C, words, stdin)
	}
	if slices.Contains(editors, words[0]) {
		return editor(words)
	}
	return filter(s.C, words, stdin)
}

// ApplyAll applies manifests as the page's editor does, all or nothing (kubectl.ApplyAll, as
// `kubectl apply -f -`), and lets the controllers answer.
func ApplyAll(s *sim.Sim, manifests string) Result {
	r := kubectl.ApplyAll(s, []byte(manifests), "STDIN", "default")
	s.Settle()
	return r
}

// help lists what can be typed.
func help() Result {
	var b strings.Builder
	b.WriteString("DaemonLab runs kubectl (or k) and sim commands against a simulated Kubernetes v1.37 cluster.\n\n")
	b.WriteString("kubectl commands: " + strings.Join(kubectl.Commands(), ", ") + "\n")
	b.WriteString("  input comes from a file or a here-document: kubectl apply -f ds.yaml, kubectl apply -f - <<EOF … EOF\n\n")
	b.WriteString("files (in " + cluster.Home + "): " + strings.Join(FileCommands(), ", ") + "; > FILE and >> FILE after any command\n")
	b.WriteString("  write one with a here-document: cat > ds.yaml <<EOF … EOF\n")
	b.WriteString("  lines as in bash: pipes into grep, head, tail, wc -l; ; && ||; patterns *.yaml; the terminal stays in " + cluster.Home + "\n\n")
	b.WriteString("not simulated: network traffic. Services get their cluster IPs, node ports and endpoints as on\n")
	b.WriteString("  a real cluster, but no packet moves: kube-proxy's pods (in the kubeadm start) program no rules,\n")
	b.WriteString("  no DNS query is answered, no load balancer is made.\n\n")
	b.WriteString("sim commands (time moves only with sim advance and sim step):\n")
	for _, c := range simCommands {
		b.WriteString("  " + c.usage + "\n")
	}
	return Result{Out: b.String()}
}

// command is one command of a pipeline: its words and its redirections, in the order typed.
type command struct {
	words  []string
	redirs []redirect
	globs  map[int]string // the words with an unquoted * ? or [, by index: their patterns (see expand)
}

// redirect is one redirection: op is "<", ">", ">>", "2>" or "2>>", target the word after it.
type redirect struct{ op, target string }

// pipeline is one pipeline of a command line's list, and the operator before it: "" for the
// first, ";", "&&" or "||".
type pipeline struct {
	op   string
	cmds []command
}

// Pipelines splits a command line into its pipelines (those after ; && and || too), each the
// words of its commands, leaving out redirections (see parse).
func Pipelines(line string) ([][][]string, error) {
	list, err := parse(line)
	if err != nil {
		return nil, err
	}
	out := make([][][]string, len(list))
	for i, p := range list {
		for _, c := range p.cmds {
			out[i] = append(out[i], c.words)
		}
	}
	return out, nil
}

// Pipeline splits a command line into the words of each command of its last pipeline (see
// Pipelines).
func Pipeline(line string) ([][]string, error) {
	list, err := Pipelines(line)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return list[len(list)-1], nil
}

// parse splits a command line into the commands of a pipeline, as a POSIX shell does:
//
//  1. Unquoted blanks separate words; an unquoted | ends a command.
//  2. Single quotes keep everything up to the next single quote.
//  3. Double quotes keep everything but \", \\, \$ and \` (which lose their backslash).
//  4. Outside quotes a backslash keeps the next character.
//  5. An unquoted <, > or >> (2> or 2>> for standard error) is a redirection of the word after
//     it; a redirection without one is bash's syntax error.
//  6. An unterminated quote is an error.
//  7. A word with an unquoted *, ? or [ is a pattern of file names (see expand); quoted or
//     escaped, they are themselves.
//  8. An unquoted ;, && or || ends a pipeline of the list; a list may end with ; but not with
//     && or || (bash would read on), and an operator with no command before it is a syntax
//     error. A single & (run in the background) is refused: commands run one at a time.
func parse(line string) ([]pipeline, error) {
	var list []pipeline
	op := ""
	var cmds []command
	var cur command
	var word, pattern strings.Builder // pattern: the word with its quoted * ? [ \ escaped
	inWord, globbed := false, false
	var pending string // a redirection waiting for its word
	quoted := func(text string) {
		word.WriteString(text)
		for i := 0; i < len(text); i++ {
			if strings.IndexByte(`*?[\`, text[i]) >= 0 {
				pattern.WriteByte('\\')
			}
			pattern.WriteByte(text[i])
		}
		inWord = true
	}
	endWord := func() {
		if !inWord {
			return
		}
		if pending != "" {
			cur.redirs = append(cur.redirs, redirect{pending, word.String()})
			pending = ""
		} else {
			if globbed {
				if cur.globs == nil {
					cur.globs = map[int]string{}
				}
				cur.globs[len(cur.words)] = pattern.String()
			}
			cur.words = append(cur.words, word.String())
		}
		word.Reset()
		pattern.Reset()
		inWord, globbed = false, false
	}
	unexpected := func(token string) error { return fmt.Errorf("syntax error near unexpected token `%s'", token) }
	empty := func() bool { return len(cmds) == 0 && len(cur.words) == 0 && len(cur.redirs) == 0 }
	endPipeline := func(next string) error {
		endWord()
		if pending != "" || empty() {
			return unexpected(next)
		}
		list = append(list, pipeline{op, append(cmds, cur)})
		op, cmds, cur = next, nil, command{}
		return nil
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			endWord()
		case c == '&' && pending != "" && !inWord: // 2>&1
			word.WriteByte(c)
			pattern.WriteByte(c)
			inWord = true
		case c == ';' || c == '&' && strings.HasPrefix(line[i:], "&&") || c == '|' && strings.HasPrefix(line[i:], "||"):
			next := string(c)
			if c != ';' {
				next += next
				i++
			}
			if err := endPipeline(next); err != nil {
				return nil, err
			}
		case c == '&':
			return nil, errors.New("DaemonLab runs one command at a time: & (run in the background) is not supported")
		case c == '|':
			endWord()
			if pending != "" {
				return nil, unexpected("|")
			}
			cmds = append(cmds, cur)
			cur = command{}
		case c == '<' || c == '>':
			op := string(c)
			if c == '>' && inWord && word.String() == "2" {
				op, inWord = "2>", false
				word.Reset()
			}
			endWord()
			if c == '>' && i+1 < len(line) && line[i+1] == '>' {
				op += ">"
				i++
			}
			if pending != "" {
				return nil, unexpected(op)
			}
			pending = op
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated quoted string")
			}
			quoted(line[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			var text strings.Builder
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) && strings.IndexByte("\"\\$`", line[j+1]) >= 0 {
					j++
				}
				text.WriteByte(line[j])
			}
			if j == len(line) {
				return nil, errors.New("unterminated quoted string")
			}
			quoted(text.String())
			i = j
		case c == '\\' && i+1 < len(line):
			i++
			quoted(line[i : i+1])
		default:
			word.WriteByte(c)
			pattern.WriteByte(c)
			globbed = globbed || strings.IndexByte("*?[", c) >= 0
			inWord = true
		}
	}
	endWord()
	switch {
	case pending != "":
		return nil, unexpected("newline")
	case empty() && (op == "&&" || op == "||"):
		return nil, errors.New("syntax error: unexpected end of file")
	case empty() && op == ";":
		return list, nil
	}
	return append(list, pipeline{op, append(cmds, cur)}), nil
}

// Split splits one command (the last of a pipeline) into words; see Pipeline.
func Split(line string) ([]string, error) {
	cmds, err := Pipeline(line)
	if err != nil {
		return nil, err
	}
	return cmds[len(cmds)-1], nil
}

// SaveEdit saves a kubectl edit with the editor's text (kubectl.Edit.Save), and lets the
// controllers answer what it changed.
func SaveEdit(s *sim.Sim, e *kubectl.Edit, text string) (Result, bool) {
	defer s.Command()()
	before := s.C.Writes()
	r, done := e.Save(s, text)
	if s.C.Writes() != before {
		s.Settle()
	}
	return r, done
}
