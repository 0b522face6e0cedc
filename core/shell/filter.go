package shell

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
)

// filter runs one filter of a pipeline on the text piped into it. The filters are the ones
// tutorials pipe kubectl into: grep (-i, -v, -E, -F, -w, -c, -n, -e, -A/-B/-C N), head and
// tail (-n N or -N) and wc -l, behaving as GNU coreutils and grep do, exit codes included.
func filter(words []string, in string) Result {
	switch words[0] {
	case "grep", "egrep", "fgrep":
		return grep(words, in)
	case "head", "tail":
		return headTail(words, in)
	case "wc":
		if len(words) == 2 && words[1] == "-l" {
			return Result{Out: fmt.Sprintf("%d\n", strings.Count(in, "\n"))}
		}
		return Result{Err: "wc: DaemonLab's wc counts lines only: wc -l", Code: 1}
	}
	return Result{Err: fmt.Sprintf("%s: command not found (DaemonLab runs kubectl, sim, help, the file commands %s, and grep, head, tail and wc -l)", words[0], strings.Join(FileCommands(), ", ")), Code: 127}
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
	patterns                                                 []string
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
	if len(positional) > 0 {
		return o, fmt.Errorf("%s: DaemonLab's grep reads what is piped into it, not files", positional[0])
	}
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
// groups that are not adjacent, as GNU grep does; it fails with 1 when nothing matched.
func grep(words []string, in string) Result {
	o, err := parseGrep(words)
	if err != nil {
		return Result{Err: "grep: " + err.Error(), Code: 2}
	}
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
	re, err := regexp.Compile(expr)
	if err != nil {
		return Result{Err: "grep: " + grepSyntaxError(err), Code: 2}
	}
	ls := lines(in)
	matched := make([]bool, len(ls))
	n := 0
	for i, l := range ls {
		if re.MatchString(l) != o.invert {
			matched[i] = true
			n++
		}
	}
	if o.count {
		return Result{Out: fmt.Sprintf("%d\n", n), Code: exitCode(n)}
	}
	var b strings.Builder
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
		if o.number {
			sep := "-"
			if matched[i] {
				sep = ":"
			}
			fmt.Fprintf(&b, "%d%s", i+1, sep)
		}
		b.WriteString(ls[i] + "\n")
		last = i
	}
	return Result{Out: b.String(), Code: exitCode(n)}
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

// headTail prints the first (head) or last (tail) lines, 10 unless -n N or -N says otherwise.
func headTail(words []string, in string) Result {
	n := 10
	args := words[1:]
	for i := 0; i < len(args); i++ {
		value := ""
		switch a := args[i]; {
		case a == "-n" && i+1 < len(args):
			i++
			value = args[i]
		case strings.HasPrefix(a, "-n"):
			value = a[2:]
		case strings.HasPrefix(a, "-"):
			value = a[1:]
		default:
			return Result{Err: fmt.Sprintf("%s: DaemonLab's %s reads what is piped into it, not files", words[0], words[0]), Code: 1}
		}
		v, err := strconv.Atoi(value)
		if err != nil || v < 0 {
			return Result{Err: fmt.Sprintf("%s: invalid number of lines: '%s'", words[0], value), Code: 1}
		}
		n = v
	}
	ls := lines(in)
	if words[0] == "head" {
		ls = ls[:min(n, len(ls))]
	} else {
		ls = ls[max(0, len(ls)-n):]
	}
	if len(ls) == 0 {
		return Result{}
	}
	return Result{Out: strings.Join(ls, "\n") + "\n"}
}
