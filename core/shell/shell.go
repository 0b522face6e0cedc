// Package shell runs DaemonLab's command language: one line of `kubectl …` (or `k …`) or
// `sim …`, split as a shell splits words, against one simulation. Scenarios, lessons, the
// terminal and the page all go through Run.
package shell

import (
	"errors"
	"fmt"
	"strings"

	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
)

// Result is what a command printed and its exit code.
type Result = kubectl.Result

// Run runs one command line with stdin as its standard input. A pipeline runs its first
// command, then passes what it printed through the filters after it (see filter) or to another
// kubectl command's standard input (`… --dry-run=client -o yaml | kubectl apply -f -`); the exit
// code is the last command's, and every command's errors are shown. The line is one command of
// the simulation (sim.Sim.Command): it may do at most sim.Budget units of work.
func Run(s *sim.Sim, line, stdin string) Result {
	defer s.Command()()
	cmds, err := Pipeline(line)
	if err != nil {
		return Result{Err: "error: " + err.Error(), Code: 1}
	}
	for _, c := range cmds {
		if len(c) == 0 && len(cmds) > 1 {
			return Result{Err: "syntax error near unexpected token `|'", Code: 2}
		}
	}
	res := run(s, cmds[0], stdin)
	for _, f := range cmds[1:] {
		var next Result
		if f[0] == "kubectl" || f[0] == "k" {
			next = run(s, f, res.Out) // kubectl apply -f - reads what the command before printed
		} else {
			next = filter(f, res.Out)
		}
		next.Err = strings.TrimSuffix(strings.Join([]string{res.Err, next.Err}, "\n"), "\n")
		next.Err = strings.TrimPrefix(next.Err, "\n")
		res = next
	}
	return res
}

// run runs one command of the language.
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
	return Result{Err: fmt.Sprintf("%s: command not found (DaemonLab runs kubectl and sim commands)", words[0]), Code: 127}
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
	b.WriteString("  input comes from a here-document: kubectl apply -f - <<EOF … EOF\n\n")
	b.WriteString("sim commands (time moves only with sim advance and sim step):\n")
	for _, c := range simCommands {
		b.WriteString("  " + c.usage + "\n")
	}
	return Result{Out: b.String()}
}

// Pipeline splits a command line into the words of each command of a pipeline, as a POSIX
// shell does:
//
//  1. Unquoted blanks separate words; an unquoted | ends a command.
//  2. Single quotes keep everything up to the next single quote.
//  3. Double quotes keep everything but \", \\, \$ and \` (which lose their backslash).
//  4. Outside quotes a backslash keeps the next character.
//  5. An unterminated quote is an error.
func Pipeline(line string) ([][]string, error) {
	var cmds [][]string
	var words []string
	var cur strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			endWord()
		case c == '|':
			endWord()
			cmds = append(cmds, words)
			words = nil
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated quoted string")
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) && strings.IndexByte("\"\\$`", line[j+1]) >= 0 {
					j++
				}
				cur.WriteByte(line[j])
			}
			if j == len(line) {
				return nil, errors.New("unterminated quoted string")
			}
			i = j
			inWord = true
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	endWord()
	return append(cmds, words), nil
}

// Split splits one command (the last of a pipeline) into words; see Pipeline.
func Split(line string) ([]string, error) {
	cmds, err := Pipeline(line)
	if err != nil {
		return nil, err
	}
	return cmds[len(cmds)-1], nil
}
