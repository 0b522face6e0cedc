package shell

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"daemonlab/core/cluster"
)

// filter runs one filter of a pipeline on the text piped into it, or on the files it names.
// The filters are the ones tutorials pipe kubectl into: grep (-i, -v, -E, -F, -w, -c, -n, -e,
// -A/-B/-C N), head and tail (-n N or -N) and wc -l, behaving as GNU coreutils and grep do,
// exit codes included.
func filter(c *cluster.Cluster, words []string, in string) Result {
	switch words[0] {
	case "grep", "egrep", "fgrep":
		return grep(c, words, in)
	case "head", "tail":
		return headTail(c, words, in)
	case "wc":
		return wc(c, words, in)
	}
	return Result{Err: fmt.Sprintf("%s: command not found (DaemonLab runs kubectl, sim, help, the file commands %s, and grep, head, tail and wc -l)", words[0], strings.Join(FileCommands(), ", ")), Code: 127}
}

// input is one text a filter reads: a file, or standard input ("-", named "(standard input)").
type input struct{ name, text string }

// inputs reads a filter's file operands in order (none, or "-", is standard input); a file it
// cannot read is an error in the tool's words (unreadable), and the others are still read.
func inputs(c *cluster.Cluster, files []string, stdin string, unreadable func(file string, err error) string) (ins []input, errs []string) {
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, f := range files {
		if f == "-" {
			ins = append(ins, input{"(standard input)", stdin})
			continue
		}
		text, err := c.ReadFile(f)
		if err != nil {
			errs = append(errs, unreadable(f, err))
			continue
		}
		ins = append(ins, input{f, text})
	}
	return ins, errs
}

// plainly words a file a tool cannot read as grep and wc do: "grep: x: No such file or
// directory".
func plainly(tool string) func(string, error) string {
	return func(f string, err error) string { return fmt.Sprintf("%s: %s: %s", tool, f, err) }
}

// wc counts lines (-l), of standard input or of each file named, with a total for several.
func wc(c *cluster.Cluster, words []string, in string) Result {
	set, files, bad := options(words, "l")
	switch {
	case bad != nil:
		return *bad
	case set == "":
		return Result{Err: "wc: DaemonLab's wc counts lines only: wc -l", Code: 1}
	}
	ins, errs := inputs(c, files, in, plainly("wc"))
	var b strings.Builder
	total := 0
	for _, i := range ins {
		n := strings.Count(i.text, "\n")
		total += n
		if len(files) == 0 {
			fmt.Fprintf(&b, "%d\n", n)
		} else {
			fmt.Fprintf(&b, "%d %s\n", n, strings.Replace(i.name, "(standard input)", "-", 1))
		}
	}
	if len(files) > 1 {
		fmt.Fprintf(&b, "%d total\n", total)
	}
	return failures(Result{Out: b.String()}, errs)
}

// lines splits text into its lines, without the last newline.
func lines(in string) []string {
	if in == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(in, "\n"), "\n")
}

// grepOptions are what grep's flags asked for.
type grepOptions struct {
	ignoreCase, invert, extended, fixed, word, count, number bool
	after, before                                            int
	patterns, files                                          []string
}

func parseGrep(words []string) (grepOptions, error) {
	o := grepOptions{extended: words[0] == "egrep", fixed: words[0] == "fgrep"}
	args := words[1:]
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			switch c := a[j]; c {
			case 'i':
				o.ignoreCase = true
			case 'v':
				o.invert = true
			case 'E':
				o.extended = true
			case 'F':
				o.fixed = true
			case 'w':
				o.word = true
			case 'c':
				o.count = true
			case 'n':
				o.number = true
			case 'A', 'B', 'C', 'e':
				value := a[j+1:]
				if value == "" {
					if i+1 == len(args) {
						return o, fmt.Errorf("option requires an argument -- '%c'", c)
					}
					i++
					value = args[i]
				}
				if c == 'e' {
					o.patterns = append(o.patterns, value)
					j = len(a)
					continue
				}
				n, err := strconv.Atoi(value)
				if err != nil || n < 0 {
					return o, fmt.Errorf("%s: invalid context length argument", value)
				}
				if c != 'B' {
					o.after = n
				}
				if c != 'A' {
					o.before = n
				}
				j = len(a)
			default:
				return o, fmt.Errorf("invalid option -- '%c'", c)
			}
		}
	}
	if len(o.patterns) == 0 {
		if len(positional) == 0 {
			return o, fmt.Errorf("no pattern given: grep [-ivEFwcn] [-A N] [-B N] [-C N] PATTERN")
		}
		o.patterns, positional = positional[:1], positional[1:]
	}
	o.files = positional
	return o, nil
}

// basicToExtended turns a basic regular expression (grep without -E) into an extended one: in a
// BRE, + ? | ( ) { } are literal and their backslashed forms are the operators.
func basicToExtended(re string) string {
	var b strings.Builder
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '\\' && i+1 < len(re) && strings.IndexByte("+?|(){}", re[i+1]) >= 0:
			b.WriteByte(re[i+1])
			i++
		case c == '\\' && i+1 < len(re):
			b.WriteByte(c)
			b.WriteByte(re[i+1])
			i++
		case strings.IndexByte("+?|(){}", c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// grep prints the lines that match (or, with -v, do not), with context lines and "--" between
// groups that are not adjacent, as GNU grep does: of several inputs, each line after its
// file's name ("name:" for a match, "name-" for context). It fails with 1 when nothing
// matched, and 2 when a file could not be read.
func grep(c *cluster.Cluster, words []string, in string) Result {
	o, err := parseGrep(words)
	if err != nil {
		return Result{Err: "grep: " + err.Error(), Code: 2}
	}
	re, err := grepRegexp(o)
	if err != nil {
		return Result{Err: "grep: " + grepSyntaxError(err), Code: 2}
	}
	ins, errs := inputs(c, o.files, in, plainly("grep"))
	var b strings.Builder
	n := 0
	for _, i := range ins {
		prefix := ""
		if len(o.files) > 1 {
			prefix = i.name
		}
		n += grepInput(&b, re, o, i.text, prefix)
	}
	r := Result{Out: b.String(), Code: exitCode(n)}
	if len(errs) > 0 {
		r.Err, r.Code = strings.Join(errs, "\n"), 2
	}
	return r
}

// grepRegexp is the expression grep's options give: its patterns (basic, extended or fixed, as
// whole words with -w) as alternatives, case-insensitive with -i.
func grepRegexp(o grepOptions) (*regexp.Regexp, error) {
	var alternatives []string
	for _, p := range o.patterns {
		switch {
		case o.fixed:
			p = regexp.QuoteMeta(p)
		case !o.extended:
			p = basicToExtended(p)
		}
		if o.word {
			p = `(?:^|\W)(?:` + p + `)(?:\W|$)`
		}
		alternatives = append(alternatives, "(?:"+p+")")
	}
	expr := strings.Join(alternatives, "|")
	if o.ignoreCase {
		expr = "(?i)" + expr
	}
	return regexp.Compile(expr)
}

// GrepSelects reports whether the grep of a command (its words, grep first) would print a line
// of text: the line matches its patterns, or, with -v, does not.
func GrepSelects(words []string, line string) (bool, error) {
	o, err := parseGrep(words)
	if err != nil {
		return false, err
	}
	re, err := grepRegexp(o)
	if err != nil {
		return false, err
	}
	return re.MatchString(line) != o.invert, nil
}

// grepInput writes what grep prints of one input, each line after prefix when there is one,
// and returns how many lines matched.
func grepInput(b *strings.Builder, re *regexp.Regexp, o grepOptions, text, prefix string) int {
	ls := lines(text)
	matched := make([]bool, len(ls))
	n := 0
	for i, l := range ls {
		if re.MatchString(l) != o.invert {
			matched[i] = true
			n++
		}
	}
	if o.count {
		if prefix != "" {
			b.WriteString(prefix + ":")
		}
		fmt.Fprintf(b, "%d\n", n)
		return n
	}
	last := -1
	for i := range ls {
		show := false
		for j := max(0, i-o.after); j <= min(len(ls)-1, i+o.before); j++ {
			show = show || matched[j]
		}
		if !show {
			continue
		}
		if last >= 0 && i > last+1 && (o.after > 0 || o.before > 0) {
			b.WriteString("--\n")
		}
		sep := "-"
		if matched[i] {
			sep = ":"
		}
		if prefix != "" {
			b.WriteString(prefix + sep)
		}
		if o.number {
			fmt.Fprintf(b, "%d%s", i+1, sep)
		}
		b.WriteString(ls[i] + "\n")
		last = i
	}
	return n
}

// grepSyntaxError words a pattern error as GNU grep does.
func grepSyntaxError(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		switch se.Code {
		case syntax.ErrMissingParen:
			return "Unmatched ( or \\("
		case syntax.ErrUnexpectedParen:
			return "Unmatched ) or \\)"
		case syntax.ErrMissingBracket:
			return "Unmatched [, [^, [:, [., or [="
		case syntax.ErrTrailingBackslash:
			return "Trailing backslash"
		case syntax.ErrMissingRepeatArgument, syntax.ErrInvalidRepeatOp, syntax.ErrInvalidRepeatSize:
			return "Invalid preceding regular expression"
		case syntax.ErrInvalidCharRange:
			return "Invalid range end"
		}
	}
	return "Invalid regular expression"
}

func exitCode(matches int) int {
	if matches == 0 {
		return 1
	}
	return 0
}

// headTail prints the first (head) or last (tail) lines, 10 unless -n N or -N says otherwise,
// of standard input or of each file named; of several, each after a "==> NAME <==" header,
// a blank line between them, as coreutils does.
func headTail(c *cluster.Cluster, words []string, in string) Result {
	n := 10
	args := words[1:]
	var files []string
	for i := 0; i < len(args); i++ {
		value := ""
		switch a := args[i]; {
		case a == "-n" && i+1 < len(args):
			i++
			value = args[i]
		case strings.HasPrefix(a, "-n"):
			value = a[2:]
		case strings.HasPrefix(a, "-") && a != "-":
			value = a[1:]
		default:
			files = append(files, a)
			continue
		}
		v, err := strconv.Atoi(value)
		if err != nil || v < 0 {
			return Result{Err: fmt.Sprintf("%s: invalid number of lines: '%s'", words[0], value), Code: 1}
		}
		n = v
	}
	ins, errs := inputs(c, files, in, func(f string, err error) string {
		return fmt.Sprintf("%s: cannot open '%s' for reading: %s", words[0], f, err)
	})
	var b strings.Builder
	for k, i := range ins {
		if len(files) > 1 {
			if k > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "==> %s <==\n", i.name)
		}
		ls := lines(i.text)
		if words[0] == "head" {
			ls = ls[:min(n, len(ls))]
		} else {
			ls = ls[max(0, len(ls)-n):]
		}
		if len(ls) > 0 {
			b.WriteString(strings.Join(ls, "\n") + "\n")
		}
	}
	return failures(Result{Out: b.String()}, errs)
}
