package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHereDocumentIsFoundAsBashFindsIt pins where a here-document starts and what stays the
// command's (bash's parse.y, read_token's << and <<- redirections, and the here-document
// delimiter's quote removal in make_here_document).
func TestHereDocumentIsFoundAsBashFindsIt(t *testing.T) {
	for _, tc := range []struct {
		name, line, command, marker string
		ok                          bool
	}{
		{name: "cat into a file", line: "cat > ds.yaml <<EOF", command: "cat > ds.yaml", marker: "EOF", ok: true},
		{name: "the redirection after the document", line: "cat <<EOF > ds.yaml", command: "cat > ds.yaml", marker: "EOF", ok: true},
		{name: "kubectl apply from the document", line: "kubectl apply -f - <<EOF", command: "kubectl apply -f -", marker: "EOF", ok: true},
		{name: "a quoted marker", line: "cat <<'END' >x", command: "cat >x", marker: "END", ok: true},
		{name: "a double-quoted marker", line: `cat <<"EOF"`, command: "cat", marker: "EOF", ok: true},
		{name: "<<- strips nothing from the marker", line: "cat <<-EOF", command: "cat", marker: "EOF", ok: true},
		{name: "a blank before the marker", line: "cat << EOF | grep x", command: "cat | grep x", marker: "EOF", ok: true},
		{name: "<< inside single quotes", line: "echo 'a<<b'", ok: false},
		{name: "<< inside double quotes", line: `echo "a<<b"`, ok: false},
		{name: "an escaped <", line: `echo \<<b`, ok: false},
		{name: "no marker", line: "cat <<", ok: false},
		{name: "no here-document", line: "kubectl get pods", ok: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			command, marker, ok := HereDocument(tc.line)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.command, command)
			assert.Equal(t, tc.marker, marker)
		})
	}
}

// FuzzHereDocument: any line is read without a panic, and what is found is a marker without
// blanks and a command no longer than the line.
func FuzzHereDocument(f *testing.F) {
	for _, s := range []string{"cat > x <<EOF", "cat <<'E' | grep a", `echo "<<" <<X`, "<<", "a\\<<b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		command, marker, ok := HereDocument(line)
		if !ok {
			return
		}
		assert.NotEmpty(t, marker)
		assert.NotContains(t, marker, " ")
		assert.LessOrEqual(t, len(command), len(line))
	})
}

// TestListsRunAsBashRunsThem pins ;, && and || (bash's execute_cmd.c, execute_connection):
// && runs the next pipeline when the last succeeded, || when it failed, ; always; the exit
// code is the last pipeline's that ran; a misplaced operator is a syntax error.
func TestListsRunAsBashRunsThem(t *testing.T) {
	for _, tc := range []struct {
		name, line, out, err string
		code                 int
	}{
		{name: "; runs both", line: "echo a; echo b", out: "a\nb\n"},
		{name: "&& after success", line: "echo a && echo b", out: "a\nb\n"},
		{name: "&& after failure", line: "cat nope && echo b", err: "cat: nope: No such file or directory", code: 1},
		{name: "|| after failure", line: "cat nope || echo b", out: "b\n", err: "cat: nope: No such file or directory"},
		{name: "|| after success", line: "echo a || echo b", out: "a\n"},
		{name: "the status passes over what is skipped", line: "cat nope && echo b; echo c", out: "c\n", err: "cat: nope: No such file or directory"},
		{name: "a trailing ;", line: "echo a;", out: "a\n"},
		{name: "pipelines in a list", line: "echo a b | grep a && echo ok", out: "a b\nok\n"},
		{name: "2>&1 is a redirection", line: "cat nope 2>&1 | grep -c nope", out: "1\n"},
		{name: "a quoted ; is a word", line: "echo 'a;b' \"c&&d\"", out: "a;b c&&d\n"},
		{name: "an operator first", line: "; echo a", err: "bash: syntax error near unexpected token `;'", code: 2},
		{name: "two operators", line: "echo a && && echo b", err: "bash: syntax error near unexpected token `&&'", code: 2},
		{name: "an operator last", line: "echo a &&", err: "bash: syntax error: unexpected end of file", code: 2},
		{name: "a command in the background", line: "kubectl get pods &", err: "error: DaemonLab runs one command at a time: & (run in the background) is not supported", code: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := workspace(t)
			r := Run(s, tc.line, "")
			assert.Equal(t, tc.out, r.Out)
			assert.Equal(t, tc.err, r.Err)
			assert.Equal(t, tc.code, r.Code)
		})
	}
}
