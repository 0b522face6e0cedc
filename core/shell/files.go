package shell

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"daemonlab/core/cluster"
	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
)

// fileCommands are the commands on the workspace's files (cluster.CleanPath and the files
// there), worded as GNU coreutils word them, exit codes included.
var fileCommands = map[string]func(c *cluster.Cluster, words []string, stdin string) Result{
	"ls":    ls,
	"cat":   cat,
	"echo":  echo,
	"rm":    rm,
	"mv":    func(c *cluster.Cluster, w []string, _ string) Result { return moveOrCopy(c, w, true) },
	"cp":    func(c *cluster.Cluster, w []string, _ string) Result { return moveOrCopy(c, w, false) },
	"touch": touch,
	"mkdir": mkdir,
	"pwd":   func(*cluster.Cluster, []string, string) Result { return Result{Out: cluster.Home + "\n"} },
}

// editors are the text editors tutorials open files in; the terminal has none (see editor).
var editors = []string{"vim", "vi", "nano", "emacs"}

// FileCommands lists the file commands, sorted.
func FileCommands() []string {
	var names []string
	for n := range fileCommands {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// redirected runs one command of a pipeline with its redirections, as bash does:
//
//  1. The redirections are made in the order typed, before the command runs: < FILE reads the
//     command's standard input from FILE; > FILE creates or empties FILE, >> FILE creates it if
//     it does not exist (2> and 2>> the same for standard error). /dev/null reads as empty and
//     swallows what is written to it.
//  2. A redirection that fails is bash's error ("bash: FILE: No such file or directory"), and
//     the command does not run.
//  3. 2>&1 sends standard error where standard output goes at that point.
//  4. What the command prints goes to the last of its output redirections, and no further down
//     the pipeline; a file it cannot hold is the command's "write error".
func redirected(s *sim.Sim, c command, stdin string) Result {
	var out, errOut string
	errToOut := false
	for _, r := range c.redirs {
		if r.op == "2>" && r.target == "&1" {
			errToOut, errOut = true, out
			continue
		}
		if r.target == "/dev/null" {
			if r.op == "<" {
				stdin = ""
			}
			setOutput(r, &out, &errOut)
			continue
		}
		var err error
		switch r.op {
		case "<":
			stdin, err = s.C.ReadFile(r.target)
		default:
			err = s.C.WriteFile(r.target, "", strings.HasSuffix(r.op, ">>"))
			setOutput(r, &out, &errOut)
		}
		if err != nil {
			return Result{Err: fmt.Sprintf("bash: %s: %s", r.target, err), Code: 1}
		}
	}
	res := run(s, expand(s.C, c), stdin)
	if errToOut && errOut == "" && out == "" { // into the pipe, or the terminal
		res = Result{Out: pieceText(res), Code: res.Code}
	}
	for _, w := range []struct {
		target string
		text   *string
		isErr  bool
	}{{out, &res.Out, false}, {errOut, &res.Err, true}} {
		if w.target == "" {
			continue
		}
		text := *w.text
		if w.isErr && text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n" // a Result's errors leave out their last newline
		}
		if w.target != "/dev/null" {
			if err := s.C.WriteFile(w.target, text, true); err != nil {
				writer := "bash" // a redirection without a command (> FILE) is the shell's
				if len(c.words) > 0 {
					writer = c.words[0]
				}
				res.Err = strings.TrimPrefix(res.Err+"\n"+fmt.Sprintf("%s: write error: %s", writer, err), "\n")
				res.Code = 1
			}
		}
		*w.text = ""
		res.Stream = slices.DeleteFunc(res.Stream, func(p kubectl.Piece) bool { return p.Err == w.isErr })
	}
	return res
}

// expand is a command's words with each pattern of file names replaced by the names it
// matches in the workspace, as bash's pathname expansion does:
//
//  1. * matches any string, ? one character, [...] one of a set (path.Match), within one
//     component of a path: "m/*.yaml" matches in m.
//  2. A name starting with "." matches only a pattern component that starts with ".".
//  3. The names matched are sorted; a pattern that matches nothing stays as typed.
func expand(c *cluster.Cluster, cmd command) []string {
	if len(cmd.globs) == 0 {
		return cmd.words
	}
	var words []string
	for i, w := range cmd.words {
		pattern, ok := cmd.globs[i]
		if !ok {
			words = append(words, w)
			continue
		}
		matches := []string{""}
		if strings.HasPrefix(pattern, "/") {
			matches = []string{"/"}
		}
		for _, part := range strings.Split(strings.Trim(pattern, "/"), "/") {
			var next []string
			for _, dir := range matches {
				names, err := c.ReadDir(orDot(dir))
				if err != nil {
					continue
				}
				for _, n := range names {
					if ok, _ := path.Match(part, n); ok && (!strings.HasPrefix(n, ".") || strings.HasPrefix(part, ".")) {
						next = append(next, dir+n+"/")
					}
				}
			}
			matches = next
		}
		if len(matches) == 0 {
			words = append(words, w)
			continue
		}
		for j := range matches {
			matches[j] = strings.TrimSuffix(matches[j], "/")
		}
		slices.Sort(matches)
		words = append(words, matches...)
	}
	return words
}

// orDot is a directory's path, "." for the workspace itself.
func orDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// pieceText is all a command printed, standard output and error, in order, with a newline
// after each error.
func pieceText(r Result) string {
	var b strings.Builder
	for _, p := range r.Pieces() {
		b.WriteString(p.Text)
		if p.Err && !strings.HasSuffix(p.Text, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// setOutput records where an output redirection sends its stream.
func setOutput(r redirect, out, errOut *string) {
	switch r.op {
	case ">", ">>":
		*out = r.target
	case "2>", "2>>":
		*errOut = r.target
	}
}

// options splits a coreutils command's words into its one-letter options and operands: "--"
// ends the options, "-" is an operand; a letter not in allowed is coreutils' invalid option.
func options(words []string, allowed string) (set string, operands []string, bad *Result) {
	for i, w := range words[1:] {
		switch {
		case w == "--":
			return set, append(operands, words[i+2:]...), nil
		case strings.HasPrefix(w, "-") && w != "-":
			for _, c := range w[1:] {
				if !strings.ContainsRune(allowed, c) {
					code := 1
					if words[0] == "ls" {
						code = 2
					}
					return "", nil, &Result{Err: fmt.Sprintf("%s: invalid option -- '%c'\nTry '%s --help' for more information.", words[0], c, words[0]), Code: code}
				}
				set += string(c)
			}
		default:
			operands = append(operands, w)
		}
	}
	return set, operands, nil
}

// ls lists directories (one name a line, as ls does into a pipe), or with -l their mode, size
// and time; -a adds the hidden names, . and ..; -1 is what it does anyway.
func ls(c *cluster.Cluster, words []string, _ string) Result {
	set, operands, bad := options(words, "la1")
	if bad != nil {
		return *bad
	}
	long, all := strings.Contains(set, "l"), strings.Contains(set, "a")
	if len(operands) == 0 {
		operands = []string{"."}
	}
	var b strings.Builder
	var errs []string
	var files, dirs []string
	for _, p := range operands {
		f, err := c.Stat(p)
		switch {
		case err != nil:
			errs = append(errs, fmt.Sprintf("ls: cannot access '%s': %s", p, err))
		case f.Dir:
			dirs = append(dirs, p)
		default:
			files = append(files, p)
		}
	}
	slices.Sort(files)
	slices.Sort(dirs)
	listing := func(dir string, names []string) {
		var fs []cluster.File
		for _, n := range names {
			f, _ := c.Stat(path.Join(dir, n))
			if n == "." || n == ".." {
				f = cluster.File{Dir: true}
			}
			fs = append(fs, f)
		}
		if !long {
			for _, n := range names {
				b.WriteString(n + "\n")
			}
			return
		}
		if dir != "" {
			blocks := 0
			for _, f := range fs {
				blocks += diskBlocks(f)
			}
			fmt.Fprintf(&b, "total %d\n", blocks)
		}
		width := 0
		for _, f := range fs {
			width = max(width, len(fmt.Sprint(size(f))))
		}
		for i, f := range fs {
			mode, links := "-rw-r--r--", 1
			if f.Dir {
				mode, links = "drwxr-xr-x", 2
			}
			t := f.ModTime
			if t.IsZero() {
				t = cluster.Epoch
			}
			fmt.Fprintf(&b, "%s %d root root %*d %s %s\n", mode, links, width, size(f), t.Format("Jan _2 15:04"), names[i])
		}
	}
	listing("", files)
	for i, d := range dirs {
		names, _ := c.ReadDir(d)
		names = slices.DeleteFunc(names, func(n string) bool { return strings.HasPrefix(n, ".") && !all })
		if all {
			names = append([]string{".", ".."}, names...)
		}
		if len(operands) > 1 {
			if i > 0 || len(files) > 0 {
				b.WriteString("\n")
			}
			b.WriteString(d + ":\n")
		}
		listing(d, names)
	}
	r := Result{Out: b.String(), Err: strings.Join(errs, "\n")}
	if len(errs) > 0 {
		r.Code = 2
	}
	return r
}

// size is what ls -l shows as an entry's size: a directory takes a 4096-byte block.
func size(f cluster.File) int {
	if f.Dir {
		return 4096
	}
	return len(f.Data)
}

// diskBlocks is what ls's total counts for an entry: 1K blocks, allocated 4K at a time.
func diskBlocks(f cluster.File) int { return (size(f) + 4095) / 4096 * 4 }

// cat prints the files in order ("-", or no file, is standard input); a file it cannot read is
// an error, and the others are still printed.
func cat(c *cluster.Cluster, words []string, stdin string) Result {
	_, operands, bad := options(words, "")
	if bad != nil {
		return *bad
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	var b strings.Builder
	var errs []string
	for _, p := range operands {
		if p == "-" {
			b.WriteString(stdin)
			continue
		}
		data, err := c.ReadFile(p)
		if err != nil {
			errs = append(errs, fmt.Sprintf("cat: %s: %s", p, err))
			continue
		}
		b.WriteString(data)
	}
	return failures(Result{Out: b.String()}, errs)
}

// failures adds the errors to a result, which then exits with 1.
func failures(r Result, errs []string) Result {
	if len(errs) > 0 {
		r.Err, r.Code = strings.Join(errs, "\n"), 1
	}
	return r
}

// echo prints its words, a blank between them, and a newline unless -n.
func echo(_ *cluster.Cluster, words []string, _ string) Result {
	args := words[1:]
	end := "\n"
	if len(args) > 0 && args[0] == "-n" {
		args, end = args[1:], ""
	}
	return Result{Out: strings.Join(args, " ") + end}
}

// rm removes files; -r also directories and what is in them; -f says nothing of files that do
// not exist.
func rm(c *cluster.Cluster, words []string, _ string) Result {
	set, operands, bad := options(words, "frRiv")
	if bad != nil {
		return *bad
	}
	force, recursive := strings.Contains(set, "f"), strings.ContainsAny(set, "rR")
	if len(operands) == 0 && !force {
		return Result{Err: "rm: missing operand\nTry 'rm --help' for more information.", Code: 1}
	}
	var errs []string
	for _, p := range operands {
		switch {
		case recursive && path.Clean(p) == "/":
			errs = append(errs, "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe")
			continue
		case path.Base(p) == "." || path.Base(p) == "..":
			errs = append(errs, fmt.Sprintf("rm: refusing to remove '.' or '..' directory: skipping '%s'", p))
			continue
		}
		if err := c.Remove(p, recursive); err != nil && !(force && err == cluster.ErrNotExist) {
			errs = append(errs, fmt.Sprintf("rm: cannot remove '%s': %s", p, err))
		}
	}
	return failures(Result{}, errs)
}

// moveOrCopy runs mv (move) or cp: SOURCE DEST, or SOURCE… DIRECTORY, as coreutils does. cp
// copies files only.
func moveOrCopy(c *cluster.Cluster, words []string, move bool) Result {
	name := words[0]
	_, operands, bad := options(words, "fiv")
	if bad != nil {
		return *bad
	}
	switch len(operands) {
	case 0:
		return Result{Err: fmt.Sprintf("%s: missing file operand\nTry '%s --help' for more information.", name, name), Code: 1}
	case 1:
		return Result{Err: fmt.Sprintf("%s: missing destination file operand after '%s'\nTry '%s --help' for more information.", name, operands[0], name), Code: 1}
	}
	sources, dest := operands[:len(operands)-1], operands[len(operands)-1]
	d, err := c.Stat(dest)
	intoDir := err == nil && d.Dir
	if len(sources) > 1 && !intoDir {
		return Result{Err: fmt.Sprintf("%s: target '%s': Not a directory", name, dest), Code: 1}
	}
	var errs []string
	for _, src := range sources {
		to := dest
		if intoDir {
			to = path.Join(dest, path.Base(src))
		}
		f, err := c.Stat(src)
		switch {
		case err != nil:
			errs = append(errs, fmt.Sprintf("%s: cannot stat '%s': %s", name, src, err))
			continue
		case f.Dir && !move:
			errs = append(errs, fmt.Sprintf("cp: -r not specified; omitting directory '%s'", src))
			continue
		case move:
			err = c.Rename(src, to)
		default:
			err = c.WriteFile(to, f.Data, false)
		}
		switch {
		case err == nil:
		case move:
			errs = append(errs, fmt.Sprintf("mv: cannot move '%s' to '%s': %s", src, to, err))
		default:
			errs = append(errs, fmt.Sprintf("cp: cannot create regular file '%s': %s", to, err))
		}
	}
	return failures(Result{}, errs)
}

// touch creates the files that do not exist, empty, and dates the others now.
func touch(c *cluster.Cluster, words []string, _ string) Result {
	_, operands, bad := options(words, "")
	if bad != nil {
		return *bad
	}
	if len(operands) == 0 {
		return Result{Err: "touch: missing file operand\nTry 'touch --help' for more information.", Code: 1}
	}
	var errs []string
	for _, p := range operands {
		if err := c.Touch(p); err != nil {
			errs = append(errs, fmt.Sprintf("touch: cannot touch '%s': %s", p, err))
		}
	}
	return failures(Result{}, errs)
}

// mkdir makes directories; -p the directories on the way too, and one that exists is no error.
func mkdir(c *cluster.Cluster, words []string, _ string) Result {
	set, operands, bad := options(words, "p")
	if bad != nil {
		return *bad
	}
	if len(operands) == 0 {
		return Result{Err: "mkdir: missing operand\nTry 'mkdir --help' for more information.", Code: 1}
	}
	var errs []string
	for _, p := range operands {
		if err := c.Mkdir(p, set != ""); err != nil {
			errs = append(errs, fmt.Sprintf("mkdir: cannot create directory '%s': %s", p, err))
		}
	}
	return failures(Result{}, errs)
}

// editor answers a text editor: the terminal has none, and a file is written with a
// here-document.
func editor(words []string) Result {
	file := "FILE"
	if len(words) > 1 {
		file = words[len(words)-1]
	}
	return Result{Err: fmt.Sprintf("%s: DaemonLab's terminal has no text editor; write the file with a here-document:\n  cat > %s <<EOF\n  …\n  EOF\nor paste it into the YAML editor and apply it there", words[0], file), Code: 127}
}

// cd answers a change of directory: the terminal stays in the workspace's home (cluster.Home),
// so cd to it is nothing, and to any other directory says how to name files there instead; a
// path that is not a directory is bash's error.
func cd(c *cluster.Cluster, words []string) Result {
	if len(words) > 2 {
		return Result{Err: "bash: cd: too many arguments", Code: 1}
	}
	if len(words) == 1 || words[1] == "~" {
		return Result{}
	}
	dir := words[1]
	f, err := c.Stat(dir)
	switch {
	case err != nil:
		return Result{Err: fmt.Sprintf("bash: cd: %s: %s", dir, err), Code: 1}
	case !f.Dir:
		return Result{Err: fmt.Sprintf("bash: cd: %s: Not a directory", dir), Code: 1}
	}
	if name, _ := cluster.CleanPath(dir); name == "" {
		return Result{}
	}
	return Result{Err: fmt.Sprintf("cd: DaemonLab's terminal stays in %s; name the files by their path instead: ls %s, kubectl apply -f %s", cluster.Home, dir, path.Join(dir, "FILE")), Code: 1}
}

// IsEditor reports whether a command is one of the text editors tutorials open files in (the
// page opens the file in a tab; here they answer with editor).
func IsEditor(name string) bool { return slices.Contains(editors, name) }

// WriteFile writes a file of the workspace with data, as an editor saves it; a write the
// workspace refuses is the editor's error, worded as the shell words a failed redirection.
func WriteFile(s *sim.Sim, name, data string) Result {
	if err := s.C.WriteFile(name, data, false); err != nil {
		return Result{Err: fmt.Sprintf("bash: %s: %s", name, err), Code: 1}
	}
	return Result{}
}

// Quote writes a word so that Split reads it back as it is: bare when it holds only characters
// no shell treats specially, else in single quotes.
func Quote(word string) string {
	if word != "" && strings.Trim(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,") == "" {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", `'\''`) + "'"
}
