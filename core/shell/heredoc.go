package shell

import "strings"

// HereDocument finds a here-document in a command line, as bash reads one:
//
//  1. An unquoted << starts it; << inside single or double quotes, or after a backslash, is
//     part of a word.
//  2. The word after it, with <<- the same, is the marker that ends the document; quotes
//     around the marker (<<'EOF', <<"EOF") are dropped.
//  3. The rest of the line stays the command's: `cat <<EOF > ds.yaml` is `cat > ds.yaml`
//     reading the document.
//
// ok is false when the line has no here-document, or << without a marker (which the command
// line's parse reports as bash's syntax error).
func HereDocument(line string) (command, marker string, ok bool) {
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case strings.HasPrefix(line[i:], "<<"):
			rest := strings.TrimPrefix(line[i+2:], "-")
			rest = strings.TrimLeft(rest, " \t")
			end := strings.IndexAny(rest, " \t|;&<>")
			if end < 0 {
				end = len(rest)
			}
			marker = strings.Trim(rest[:end], `'"`)
			if marker == "" {
				return "", "", false
			}
			command = strings.TrimSpace(strings.TrimSpace(line[:i]) + " " + strings.TrimSpace(rest[end:]))
			return command, marker, true
		}
	}
	return "", "", false
}
