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

// Run runs one command line with stdin as its standard input. A pipeline runs its first
// command, then passes what it printed to the standard input of the next (a filter, see filter;
// another kubectl command, `… --dry-run=client -o yaml | kubectl apply -f -`; cat); the exit
// code is the last command's, and every command's errors are shown. Redirections read and
// write the workspace (see redirected). The line is one command of the simulation
// (sim.Sim.Command): it may do at most sim.Budget units of work.
func Run(s *sim.Sim, line, stdin string) Result {
	defer s.Command()()
	cmds, err := parse(line)
	if err != nil {
		if strings.HasPrefix(err.Error(), "syntax error") {
			return Result{Err: "bash: " + err.Error(), Code: 2}
		}
		return Result{Err: "error: " + err.Error(), Code: 1}
	}
	for _, c := range cmds {
		if len(c.words) == 0 && len(c.redirs) == 0 && len(cmds) > 1 {
			return Result{Err: "bash: syntax error near unexpected token `|'", Code: 2}
		}
	}
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
		return runSim(s, words[1:])
	case "help":
		return help()
	}
	if cmd, ok := fileCommands[words[0]]; ok {
		return cmd(s.C, words, stdin)
	}
	if slices.Contains(editors, words[0]) {
		return editor(words)
	}
	return filter(words, stdin)
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
	b.WriteString("  write one with a here-document: cat > ds.yaml <<EOF … EOF\n\n")
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
}

// redirect is one redirection: op is "<", ">", ">>", "2>" or "2>>", target the word after it.
type redirect struct{ op, target string }

// Pipeline splits a command line into the words of each command of a pipeline, leaving out
// redirections (see parse).
func Pipeline(line string) ([][]string, error) {
	cmds, err := parse(line)
	if err != nil {
		return nil, err
	}
	words := make([][]string, len(cmds))
	for i, c := range cmds {
		words[i] = c.words
	}
	return words, nil
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
func parse(line string) ([]command, error) {
	var cmds []command
	var cur command
	var word strings.Builder
	inWord := false
	var pending string // a redirection waiting for its word
	endWord := func() {
		if !inWord {
			return
		}
		if pending != "" {
			cur.redirs = append(cur.redirs, redirect{pending, word.String()})
			pending = ""
		} else {
			cur.words = append(cur.words, word.String())
		}
		word.Reset()
		inWord = false
	}
	unexpected := func(token string) error { return fmt.Errorf("syntax error near unexpected token `%s'", token) }
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			endWord()
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
			word.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) && strings.IndexByte("\"\\$`", line[j+1]) >= 0 {
					j++
				}
				word.WriteByte(line[j])
			}
			if j == len(line) {
				return nil, errors.New("unterminated quoted string")
			}
			i = j
			inWord = true
		case c == '\\' && i+1 < len(line):
			i++
			word.WriteByte(line[i])
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	endWord()
	if pending != "" {
		return nil, unexpected("newline")
	}
	return append(cmds, cur), nil
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
