// Command daemonlab is DaemonLab's terminal front end.
//
//	daemonlab run FILE…   run scenario files; exit 0 iff all pass
//	daemonlab shell       an interactive prompt for kubectl and sim commands
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/scenario"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

func main() {
	if len(os.Args) < 2 {
		usage(os.Stderr)
		os.Exit(2)
	}
	switch os.Args[1] {
	case "run":
		os.Exit(run(os.Stdout, os.Args[2:]))
	case "shell":
		os.Exit(interactive(os.Stdin, os.Stdout, os.Args[2:]))
	case "help", "-h", "--help":
		usage(os.Stdout)
	default:
		fmt.Fprintf(os.Stderr, "daemonlab: unknown command %q\n", os.Args[1])
		usage(os.Stderr)
		os.Exit(2)
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage:\n  daemonlab run FILE…   run scenario files\n  daemonlab shell [--cluster default|empty|kubeadm]\n                        type kubectl and sim commands against a simulated cluster")
}

// run runs scenario files: a line per scenario, the failing step with want and got, and a
// closing "N passed, M failed". It returns the exit status.
func run(w io.Writer, files []string) int {
	if len(files) == 0 {
		fmt.Fprintln(w, "daemonlab run: name at least one scenario file")
		return 2
	}
	passed, failed := 0, 0
	for _, f := range files {
		err := runFile(f)
		if err != nil {
			failed++
			fmt.Fprintf(w, "FAIL %s: %v\n", f, err)
			continue
		}
		passed++
		fmt.Fprintf(w, "ok   %s\n", f)
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

func runFile(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		return err
	}
	return sc.Run()
}

// interactive reads command lines from in until end of input or `exit`. A line with a
// here-document (shell.HereDocument: <<EOF, <<'EOF') reads the following lines up to its marker
// as the command's standard input; the rest of the line stays the command's. As in bash, `history` lists the lines run so far, `!!` runs the last
// one again and `!N` the N-th (each echoed first).
// --cluster NAME starts from another cluster than the default one (sim.Topologies).
func interactive(in io.Reader, w io.Writer, args []string) int {
	topology, err := sim.Default, error(nil)
	switch {
	case len(args) == 0:
	case len(args) == 2 && args[0] == "--cluster":
		topology, err = sim.ParseTopology(args[1])
	case len(args) == 1 && strings.HasPrefix(args[0], "--cluster="):
		topology, err = sim.ParseTopology(strings.TrimPrefix(args[0], "--cluster="))
	default:
		err = fmt.Errorf("daemonlab shell: unknown arguments %q", args)
	}
	var s *sim.Sim
	if err == nil {
		s, err = sim.New(1, topology)
	}
	if err == nil {
		err = shell.WriteTutorials(s.C)
	}
	if err != nil {
		fmt.Fprintln(w, err)
		return 1
	}
	fmt.Fprintln(w, "DaemonLab: a simulated Kubernetes v1.37 cluster (hd1, hd2, hd3). Type kubectl or sim commands; `help`; `exit` to leave.")
	type entry struct{ line, stdin string }
	var history []entry
	lines := &lineReader{r: bufio.NewReader(in)}
	for fmt.Fprint(w, "$ "); lines.Scan(); fmt.Fprint(w, "$ ") {
		line := strings.TrimSpace(lines.Text())
		stdin := ""
		switch n, err := strconv.Atoi(strings.TrimPrefix(line, "!")); {
		case lines.long > 0:
			fmt.Fprintf(w, "daemonlab: a line of %d bytes; DaemonLab reads lines of at most %d\n", lines.long, maxLine)
			continue
		case line == "exit":
			return 0
		case line == "":
			continue
		case line == "history":
			for i, e := range history {
				fmt.Fprintf(w, "%5d  %s\n", i+1, e.line)
			}
			continue
		case line == "!!" && len(history) > 0:
			line, stdin = history[len(history)-1].line, history[len(history)-1].stdin
			fmt.Fprintln(w, line)
		case line == "!!" || strings.HasPrefix(line, "!") && (err != nil || n < 1 || n > len(history)):
			fmt.Fprintf(w, "%s: event not found\n", line)
			continue
		case strings.HasPrefix(line, "!"):
			line, stdin = history[n-1].line, history[n-1].stdin
			fmt.Fprintln(w, line)
		default:
			if cmd, marker, ok := shell.HereDocument(line); ok {
				line = cmd
				stdin = hereDocument(lines, marker)
				if lines.long > 0 {
					fmt.Fprintf(w, "daemonlab: the here-document has a line of %d bytes; DaemonLab reads lines of at most %d\n", lines.long, maxLine)
					continue
				}
			}
		}
		history = append(history, entry{line, stdin})
		for _, p := range shell.Run(s, line, stdin).Pieces() {
			if p.Err {
				fmt.Fprintln(w, strings.TrimSuffix(p.Text, "\n"))
			} else {
				fmt.Fprint(w, p.Text)
			}
		}
	}
	if lines.err != nil {
		fmt.Fprintf(w, "\ndaemonlab: %v\n", lines.err)
		return 1
	}
	fmt.Fprintln(w)
	return 0
}

// hereDocument reads lines up to marker; lines.long says whether one of them was too long.
func hereDocument(lines *lineReader, marker string) string {
	var b strings.Builder
	long := 0
	for lines.Scan() && lines.Text() != marker {
		long = max(long, lines.long)
		b.WriteString(lines.Text() + "\n")
	}
	lines.long = max(long, lines.long)
	return b.String()
}

// maxLine bounds a line the shell reads: a whole manifest fits on one.
const maxLine = api.MaxManifestBytes

// lineReader reads lines as bufio.Scanner does, but a line longer than maxLine does not end the
// input: it is skipped to its end, and long tells its length.
type lineReader struct {
	r    *bufio.Reader
	text string
	long int   // the length of the last line read, when it was too long; else 0
	err  error // a read error other than the end of input
}

// Scan reads the next line and reports whether there was one.
func (l *lineReader) Scan() bool {
	var b []byte
	n := 0 // the line's length so far, without its line ending
	for {
		chunk, err := l.r.ReadSlice('\n')
		if n += len(bytes.TrimSuffix(chunk, []byte("\n"))); n <= maxLine {
			b = append(b, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			l.err = err
		}
		if err != nil && n == 0 {
			return false
		}
		break
	}
	l.text, l.long = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r"), 0
	if n > maxLine {
		l.text, l.long = "", n
	}
	return true
}

// Text is the line Scan read, without its line ending.
func (l *lineReader) Text() string { return l.text }
