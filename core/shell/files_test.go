package shell

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/cluster"
	"daemonlab/core/sim"
)

// workspace is an empty cluster whose workspace holds the tutorials' files, a directory "dir"
// with a.yaml in it, and notes.txt.
func workspace(t *testing.T) *sim.Sim {
	t.Helper()
	s, err := sim.New(1, sim.Empty)
	require.NoError(t, err)
	require.NoError(t, WriteTutorials(s.C))
	for _, line := range []string{"mkdir dir", "echo 'a: 1' > dir/a.yaml", "echo hello > notes.txt"} {
		require.Zero(t, Run(s, line, "").Code, line)
	}
	return s
}

// fileCases are command lines on the workspace, with what they print; errors are worded as
// GNU coreutils (src/cat.c, rm.c, mv.c, cp.c, touch.c, mkdir.c, ls.c) and bash (redir.c) word
// them, with their exit codes.
var fileCases = []struct {
	name, line, stdin string
	out, err          string
	code              int
	after             string // a command whose output shows the effect
	afterOut          string
}{
	{name: "ls lists the directory sorted", line: "ls", out: "daemonset.yaml\ndir\nfluentd-elasticsearch.yaml\nnotes.txt\npod-besteffort.yaml\npod-burstable.yaml\npod-guaranteed.yaml\n"},
	{name: "ls a directory", line: "ls dir", out: "a.yaml\n"},
	{name: "ls a file names it", line: "ls notes.txt", out: "notes.txt\n"},
	{name: "ls -l shows mode, size and time", line: "ls -l dir", out: "total 4\n-rw-r--r-- 1 root root 5 Jan  1 00:00 a.yaml\n"},
	{name: "ls -a shows . and ..", line: "ls -a dir", out: ".\n..\na.yaml\n"},
	{name: "ls a missing path", line: "ls nope", err: "ls: cannot access 'nope': No such file or directory", code: 2},
	{name: "ls with a bad option", line: "ls -z", err: "ls: invalid option -- 'z'\nTry 'ls --help' for more information.", code: 2},
	{name: "cat a file", line: "cat notes.txt", out: "hello\n"},
	{name: "cat several files in order", line: "cat notes.txt dir/a.yaml", out: "hello\na: 1\n"},
	{name: "cat a missing file still prints the others", line: "cat nope notes.txt", out: "hello\n", err: "cat: nope: No such file or directory", code: 1},
	{name: "cat a directory", line: "cat dir", err: "cat: dir: Is a directory", code: 1},
	{name: "cat outside the workspace", line: "cat /etc/passwd", err: "cat: /etc/passwd: Permission denied", code: 1},
	{name: "cat escaping with ..", line: "cat ../../etc/passwd", err: "cat: ../../etc/passwd: Permission denied", code: 1},
	{name: "cat reads standard input", line: "cat", stdin: "typed\n", out: "typed\n"},
	{name: "cat > FILE writes standard input", line: "cat > new.yaml", stdin: "kind: Pod\n", after: "cat new.yaml", afterOut: "kind: Pod\n"},
	{name: "cat >> FILE appends", line: "cat >> notes.txt", stdin: "more\n", after: "cat notes.txt", afterOut: "hello\nmore\n"},
	{name: "echo > FILE", line: "echo one two > x", after: "cat x", afterOut: "one two\n"},
	{name: "echo -n", line: "echo -n one", out: "one"},
	{name: "> empties the file before the command runs", line: "cat notes.txt > notes.txt", after: "cat notes.txt", afterOut: ""},
	{name: "> FILE alone makes an empty file", line: "> empty", after: "ls -l empty", afterOut: "-rw-r--r-- 1 root root 0 Jan  1 00:00 empty\n"},
	{name: "redirection into a missing directory", line: "echo x > nodir/x", err: "bash: nodir/x: No such file or directory", code: 1, after: "ls nodir", afterOut: ""},
	{name: "redirection onto a directory", line: "echo x > dir", err: "bash: dir: Is a directory", code: 1},
	{name: "redirection without a file", line: "echo x >", err: "bash: syntax error near unexpected token `newline'", code: 2},
	{name: "< FILE is standard input", line: "cat < notes.txt", out: "hello\n"},
	{name: "< a missing file does not run the command", line: "cat < nope", err: "bash: nope: No such file or directory", code: 1},
	{name: "2> sends errors to a file", line: "cat nope 2> err.txt", code: 1, after: "cat err.txt", afterOut: "cat: nope: No such file or directory\n"},
	{name: "2>&1 sends errors down the pipe", line: "cat nope notes.txt 2>&1 | grep -c .", out: "2\n"},
	{name: "> FILE 2>&1 sends both to the file", line: "cat notes.txt nope > both 2>&1", code: 1, after: "cat both", afterOut: "hello\ncat: nope: No such file or directory\n"},
	{name: "2>&1 > FILE leaves errors on the terminal", line: "cat notes.txt nope 2>&1 > out", err: "cat: nope: No such file or directory", code: 1, after: "cat out", afterOut: "hello\n"},
	{name: "> /dev/null swallows", line: "cat notes.txt > /dev/null"},
	{name: "a quoted > is a word", line: "echo '>' x", out: "> x\n"},
	{name: "output redirected goes no further down the pipe", line: "cat notes.txt > y | wc -l", out: "0\n"},
	{name: "a file through a pipe", line: "cat dir/a.yaml | grep a:", out: "a: 1\n"},
	{name: "rm a file", line: "rm notes.txt", after: "ls notes.txt", afterOut: ""},
	{name: "rm a missing file", line: "rm nope", err: "rm: cannot remove 'nope': No such file or directory", code: 1},
	{name: "rm -f a missing file", line: "rm -f nope"},
	{name: "rm a directory", line: "rm dir", err: "rm: cannot remove 'dir': Is a directory", code: 1},
	{name: "rm -r a directory", line: "rm -r dir", after: "ls", afterOut: "daemonset.yaml\nfluentd-elasticsearch.yaml\nnotes.txt\npod-besteffort.yaml\npod-burstable.yaml\npod-guaranteed.yaml\n"},
	{name: "rm -r .. is refused", line: "rm -rf ..", err: "rm: refusing to remove '.' or '..' directory: skipping '..'", code: 1},
	{name: "rm nothing", line: "rm", err: "rm: missing operand\nTry 'rm --help' for more information.", code: 1},
	{name: "mv renames", line: "mv notes.txt n.txt", after: "cat n.txt", afterOut: "hello\n"},
	{name: "mv into a directory", line: "mv notes.txt dir", after: "ls dir", afterOut: "a.yaml\nnotes.txt\n"},
	{name: "mv a missing file", line: "mv nope x", err: "mv: cannot stat 'nope': No such file or directory", code: 1},
	{name: "mv without a destination", line: "mv notes.txt", err: "mv: missing destination file operand after 'notes.txt'\nTry 'mv --help' for more information.", code: 1},
	{name: "mv several files onto a file", line: "mv notes.txt daemonset.yaml x", err: "mv: target 'x': Not a directory", code: 1},
	{name: "cp copies", line: "cp notes.txt copy.txt", after: "cat notes.txt copy.txt", afterOut: "hello\nhello\n"},
	{name: "cp a directory", line: "cp dir d2", err: "cp: -r not specified; omitting directory 'dir'", code: 1},
	{name: "cp into a missing directory", line: "cp notes.txt nodir/x", err: "cp: cannot create regular file 'nodir/x': No such file or directory", code: 1},
	{name: "touch creates an empty file", line: "touch empty", after: "ls -l empty", afterOut: "-rw-r--r-- 1 root root 0 Jan  1 00:00 empty\n"},
	{name: "touch in a missing directory", line: "touch nodir/x", err: "touch: cannot touch 'nodir/x': No such file or directory", code: 1},
	{name: "mkdir a directory that exists", line: "mkdir dir", err: "mkdir: cannot create directory 'dir': File exists", code: 1},
	{name: "mkdir -p makes the way", line: "mkdir -p a/b/c", after: "ls a/b", afterOut: "c\n"},
	{name: "pwd is the home directory", line: "pwd", out: "/root\n"},
	{name: "a pattern names the files it matches, sorted", line: "ls pod-*.yaml", out: "pod-besteffort.yaml\npod-burstable.yaml\npod-guaranteed.yaml\n"},
	{name: "a pattern in a directory", line: "echo dir/*", out: "dir/a.yaml\n"},
	{name: "? and [...] match one character", line: "echo pod-b?st*.yaml [dn]*.txt", out: "pod-besteffort.yaml notes.txt\n"},
	{name: "a pattern that matches nothing stays as typed", line: "cat *.json", err: "cat: *.json: No such file or directory", code: 1},
	{name: "a quoted or escaped pattern is itself", line: `echo '*.yaml' "d*" \*`, out: "*.yaml d* *\n"},
	{name: "rm of a pattern", line: "rm pod-*.yaml", after: "ls", afterOut: "daemonset.yaml\ndir\nfluentd-elasticsearch.yaml\nnotes.txt\n"},
	{name: "kubectl -f of a pattern takes one file a flag", line: "kubectl apply -f pod-b*.yaml", err: "error: Unexpected args: [pod-burstable.yaml]\nSee 'kubectl apply -h' for help and examples", code: 1},
	{name: "cd home is nothing", line: "cd", out: ""},
	{name: "cd to the home directory by its path", line: "cd /root/dir/..", out: ""},
	{name: "cd elsewhere says how to name files", line: "cd dir", err: "cd: DaemonLab's terminal stays in /root; name the files by their path instead: ls dir, kubectl apply -f dir/FILE", code: 1},
	{name: "cd to a missing directory", line: "cd nope", err: "bash: cd: nope: No such file or directory", code: 1},
	{name: "cd to a file", line: "cd notes.txt", err: "bash: cd: notes.txt: Not a directory", code: 1},
	{name: "cd outside the workspace", line: "cd /etc", err: "bash: cd: /etc: Permission denied", code: 1},
	{name: "an editor says how to write a file", line: "vim ds.yaml", err: "vim: DaemonLab's terminal has no text editor; write the file with a here-document:\n  cat > ds.yaml <<EOF", code: 127},
}

// TestFileCommandsWorkAsCoreutils: each file command prints what coreutils prints, fails with
// its words and exit code, and leaves the workspace as it would.
func TestFileCommandsWorkAsCoreutils(t *testing.T) {
	for _, tc := range fileCases {
		t.Run(tc.name, func(t *testing.T) {
			s := workspace(t)
			r := Run(s, tc.line, tc.stdin)
			assert.Equal(t, tc.out, r.Out)
			if tc.err == "" {
				assert.Empty(t, r.Err)
			} else {
				assert.True(t, strings.HasPrefix(r.Err, tc.err), "%q does not start with %q", r.Err, tc.err)
			}
			assert.Equal(t, tc.code, r.Code)
			if tc.after != "" {
				assert.Equal(t, tc.afterOut, Run(s, tc.after, "").Out)
			}
		})
	}
}

// TestRedirectionPastTheBoundsIsAWriteError: a file larger than the workspace holds is the
// command's write error, and the file is left empty, as > left it.
func TestRedirectionPastTheBoundsIsAWriteError(t *testing.T) {
	s := workspace(t)
	r := Run(s, "cat > big", strings.Repeat("x", cluster.MaxFileSize+1))
	assert.Equal(t, 1, r.Code)
	assert.Equal(t, "cat: write error: File too large (DaemonLab keeps files of at most 1 MiB)", r.Err)
	data, err := s.C.ReadFile("big")
	require.NoError(t, err)
	assert.Empty(t, data)
}

// TestKubectlReadsTheWorkspace: kubectl apply, create, replace and delete read -f FILE, several -f and
// -f DIR, and patch its --patch-file (kubectl/pkg/cmd/patch, PatchOptions.RunPatch) (its .json, .yaml and .yml files in name order), with kubectl's words for a path that
// does not exist and a directory without manifests (k8s.io/cli-runtime/pkg/resource,
// Builder.Path and ExpandPathsToFileVisitors).
//
// -R walks directories as cli-runtime's ExpandPathsToFileVisitors does; replace --force is
// kubectl's ReplaceOptions.forceReplace (delete, poll until gone, create).
func TestKubectlReadsTheWorkspace(t *testing.T) {
	for _, tc := range []struct {
		name, line, out, err string
	}{
		{"a file", "kubectl apply -f pod-besteffort.yaml", "pod/my-besteffort created\n", ""},
		{"a file by its absolute path", "kubectl create -f /root/pod-besteffort.yaml", "pod/my-besteffort created\n", ""},
		{"several files", "kubectl apply -f pod-besteffort.yaml -f pod-burstable.yaml", "pod/my-besteffort created\npod/my-burstable created\n", ""},
		{"a directory in name order, skipping other names", "mkdir m; cp pod-burstable.yaml m/b.yml; cp pod-besteffort.yaml m/a.yaml; cp notes.txt m/c.txt; kubectl apply -f m", "pod/my-besteffort created\npod/my-burstable created\n", ""},
		{"a missing file", "kubectl apply -f nope.yaml", "", `error: the path "nope.yaml" does not exist`},
		{"two missing files", "kubectl create -f a.yaml -f b.yaml", "", `error: [the path "a.yaml" does not exist, the path "b.yaml" does not exist]`},
		{"a directory without manifests", "mkdir e; kubectl apply -f e", "", "error: error reading [e]: recognized file extensions are [.json .yaml .yml]"},
		{"a file that does not parse names it and sends nothing", "kubectl apply -f pod-besteffort.yaml -f notes.txt", "", "error: error parsing notes.txt: error converting YAML to JSON"},
		{"a URL", "kubectl apply -f https://k8s.io/examples/controllers/daemonset.yaml", "", "error: DaemonLab has no network and cannot fetch https://k8s.io/examples/controllers/daemonset.yaml; bring the manifest in with a here-document (cat > file.yaml <<EOF … EOF)"},
		{"delete what a file names", "kubectl apply -f pod-besteffort.yaml > /dev/null; kubectl delete -f pod-besteffort.yaml", `pod "my-besteffort" deleted from default namespace` + "\n", ""},
		{"delete a missing file", "kubectl delete -f nope.yaml", "", `error: the path "nope.yaml" does not exist`},
		{"patch --patch-file", "kubectl apply -f pod-besteffort.yaml > /dev/null; echo 'metadata: {labels: {tier: web}}' > p.yaml; kubectl patch pod my-besteffort --patch-file p.yaml", "pod/my-besteffort patched\n", ""},
		{"patch --patch-file missing", "kubectl apply -f pod-besteffort.yaml > /dev/null; kubectl patch pod my-besteffort --patch-file p.yaml", "", "error: unable to read patch file: open p.yaml: no such file or directory"},
		{"replace what exists", "kubectl apply -f daemonset.yaml > /dev/null; kubectl replace -f daemonset.yaml", "daemonset.apps/fluentd-elasticsearch replaced\n", ""},
		{"replace drops what the file leaves out", "kubectl apply -f daemonset.yaml > /dev/null; kubectl label ds fluentd-elasticsearch -n kube-system team=a > /dev/null; kubectl replace -f daemonset.yaml > /dev/null; kubectl get ds fluentd-elasticsearch -n kube-system -o jsonpath={.metadata.labels}", `{"k8s-app":"fluentd-logging"}`, ""},
		{"replace what does not exist", "kubectl replace -f daemonset.yaml", "", `Error from server (NotFound): error when replacing "daemonset.yaml": daemonsets.apps "fluentd-elasticsearch" not found`},
		{"replace without -f", "kubectl replace", "", "error: must specify --filename to replace"},
		{"a directory's directories with -R, in walk order", "mkdir -p m/a; cp pod-burstable.yaml m/a/x.yaml; cp pod-besteffort.yaml m/b.yaml; kubectl apply -R -f m", "pod/my-burstable created\npod/my-besteffort created\n", ""},
		{"not without -R", "mkdir -p m/sub; cp pod-burstable.yaml m/sub/a.yaml; kubectl apply -f m", "", "error: error reading [m]: recognized file extensions are [.json .yaml .yml]"},
		{"replace --force deletes, waits until the pod is gone, creates", "sim add-node n1; kubectl apply -f pod-besteffort.yaml > /dev/null; sim advance 30s; kubectl replace --force -f pod-besteffort.yaml", "pod \"my-besteffort\" deleted from default namespace\npod/my-besteffort replaced\n", ""},
		{"replace --force of what does not exist creates it", "kubectl replace --force -f pod-besteffort.yaml", "pod/my-besteffort replaced\n", ""},
		{"replace --force --timeout past which the pod is not gone", "sim add-node n1; kubectl apply -f pod-besteffort.yaml > /dev/null; sim advance 30s; sim fail n1 kubelet-down; kubectl replace --force --timeout=5s -f pod-besteffort.yaml", "pod \"my-besteffort\" deleted from default namespace\n", "error: context deadline exceeded"},
		{"--grace-period needs --force", "kubectl replace --grace-period=0 -f pod-besteffort.yaml", "", "error: --grace-period must have --force specified"},
		{"--timeout needs --force", "kubectl replace --timeout=1m -f pod-besteffort.yaml", "", "error: --timeout must have --force specified"},
		{"get -o yaml into a file and apply it back", "kubectl apply -f pod-besteffort.yaml > /dev/null; kubectl get pod my-besteffort -o yaml > p.yaml; kubectl apply -f p.yaml", "pod/my-besteffort configured\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := workspace(t)
			lines := strings.Split(tc.line, "; ")
			for _, l := range lines[:len(lines)-1] {
				require.Empty(t, Run(s, l, "").Err, l)
			}
			r := Run(s, lines[len(lines)-1], "")
			assert.Equal(t, tc.out, r.Out)
			assert.True(t, strings.HasPrefix(r.Err, tc.err), "%q does not start with %q", r.Err, tc.err)
			if tc.err != "" {
				assert.Equal(t, 1, r.Code)
			}
		})
	}
}
