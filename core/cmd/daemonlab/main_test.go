package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/internal/measure"
	"daemonlab/core/kubectl"
)

// TestRunReportsEveryScenario: `daemonlab run` prints a line per scenario, the failing step with
// want and got, a closing "N passed, M failed", and exits 1 when any failed.
func TestRunReportsEveryScenario(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(good, []byte("name: good\nsteps:\n  - run: kubectl get nodes -o name\n    wantContains: [node/hd1]\n"), 0o644))
	require.NoError(t, os.WriteFile(bad, []byte("name: bad\nsteps:\n  - run: kubectl get ns default -o name\n    want: namespace/other\n"), 0o644))
	missing := filepath.Join(dir, "missing.yaml")
	_, notFound := os.ReadFile(missing)
	require.Error(t, notFound)
	var out strings.Builder
	code := run(&out, []string{good, bad, missing})
	assert.Equal(t, 1, code)
	assert.Equal(t, "ok   "+good+"\n"+
		"FAIL "+bad+": step 1 (kubectl get ns default -o name): want:\nnamespace/other\ngot:\nnamespace/default\n"+
		"FAIL "+missing+": "+notFound.Error()+"\n"+
		"1 passed, 2 failed\n", out.String())
	out.Reset()
	assert.Equal(t, 0, run(&out, []string{good}))
}

// TestShellRunsCommandsAndHereDocuments: the interactive shell runs kubectl and sim lines and
// reads a here-document as standard input.
func TestShellRunsCommandsAndHereDocuments(t *testing.T) {
	in := "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\nEOF\nsim advance 1m\nkubectl get ns team-a\nexit\n"
	var out strings.Builder
	assert.Equal(t, 0, interactive(strings.NewReader(in), &out, nil))
	assert.Contains(t, out.String(), "namespace/team-a created\n")
	assert.Contains(t, out.String(), "team-a   Active   60s\n")
}

// TestShellStartsFromTheClusterNamed: --cluster NAME (or --cluster=NAME) picks a starting
// cluster (sim.ParseTopology); an unknown one, or another argument, is refused before anything
// runs.
func TestShellStartsFromTheClusterNamed(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{name: "none is the default cluster", code: 0, want: "No resources found in kube-system namespace.\n"},
		{name: "kubeadm runs kube-proxy", args: []string{"--cluster", "kubeadm"}, code: 0, want: "kube-proxy   3         3         0       3            0           kubernetes.io/os=linux   0s\n"},
		{name: "the = form", args: []string{"--cluster=kubeadm"}, code: 0, want: "kube-proxy   3 "},
		{name: "an unknown cluster", args: []string{"--cluster", "big"}, code: 1, want: `cluster "big": use default, empty or kubeadm` + "\n"},
		{name: "an unknown argument", args: []string{"--seed", "2"}, code: 1, want: `daemonlab shell: unknown arguments ["--seed" "2"]` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			assert.Equal(t, tc.code, interactive(strings.NewReader("kubectl get ds -n kube-system\nexit\n"), &out, tc.args))
			assert.Contains(t, out.String(), tc.want)
		})
	}
}

// TestShellWritesFilesWithHereDocuments: the here-document's marker may be quoted and followed by
// the rest of the command (cat <<'EOF' > ds.yaml), and the shell starts with the tutorials'
// files.
func TestShellWritesFilesWithHereDocuments(t *testing.T) {
	in := "cat <<'EOF' > ns.yaml\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\nEOF\ncat > two.yaml <<EOF\nx: 1\nEOF\nkubectl apply -f ns.yaml\nls\nexit\n"
	var out strings.Builder
	assert.Equal(t, 0, interactive(strings.NewReader(in), &out, nil))
	assert.Contains(t, out.String(), "namespace/team-a created\n")
	assert.Contains(t, out.String(), "daemonset.yaml\nfluentd-elasticsearch.yaml\nns.yaml\npod-besteffort.yaml\npod-burstable.yaml\npod-guaranteed.yaml\ntwo.yaml\n")
}

// TestShellHistoryRerunsLinesWithTheirInput: history lists what ran; !! and !N run a line
// again, here-document included, echoing it first; a missing one is bash's "event not found".
func TestShellHistoryRerunsLinesWithTheirInput(t *testing.T) {
	in := "kubectl create -f - <<EOF\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\nEOF\nk get ns team-a\nhistory\n!1\n!!\n!7\nhelp\n"
	var out strings.Builder
	assert.Equal(t, 0, interactive(strings.NewReader(in), &out, nil))
	got := out.String()
	assert.Contains(t, got, "$     1  kubectl create -f -\n    2  k get ns team-a\n$ ")
	assert.Contains(t, got, "$ kubectl create -f -\nError from server (AlreadyExists): error when creating \"STDIN\": namespaces \"team-a\" already exists\n")
	assert.Equal(t, 2, strings.Count(got, "$ kubectl create -f -\nError from server (AlreadyExists)"), "!1, then !! repeating it")
	assert.Contains(t, got, "$ !7: event not found\n")
	assert.Contains(t, got, "kubectl commands: "+strings.Join(kubectl.Commands(), ", "))
}

// TestShellReadsLongLinesAndRefusesTooLongOnes: a line past bufio.Scanner's 64 KB runs as any
// other; one past a manifest's bound (api.MaxManifestBytes), or a here-document holding one, is
// refused with its length and the session goes on; the memory read stays bounded by the bound,
// not the line.
func TestShellReadsLongLinesAndRefusesTooLongOnes(t *testing.T) {
	huge := strings.Repeat("x", 20<<20)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"a 100 KB line runs", "kubectl get ns default -o name" + strings.Repeat(" ", 100<<10) + "\nexit\n", "$ namespace/default\n$ "},
		{"a 20 MiB line is refused, the next runs", huge + "\nkubectl get ns default -o name\n",
			"$ daemonlab: a line of 20971520 bytes; DaemonLab reads lines of at most 1048576\n$ namespace/default\n$ \n"},
		{"a 20 MiB line at the end of input", "kubectl get ns default -o name\n" + huge,
			"$ namespace/default\n$ daemonlab: a line of 20971520 bytes; DaemonLab reads lines of at most 1048576\n$ \n"},
		{"a here-document holding one", "kubectl apply -f - <<EOF\n" + huge + "\nEOF\nkubectl get ns default -o name\n",
			"$ daemonlab: the here-document has a line of 20971520 bytes; DaemonLab reads lines of at most 1048576\n$ namespace/default\n$ \n"},
	} {
		var out strings.Builder
		var code int
		_, bytes := measure.Allocations(func() { code = interactive(strings.NewReader(tc.in), &out, nil) })
		assert.Equal(t, 0, code, tc.name)
		_, got, _ := strings.Cut(out.String(), "\n")
		assert.Equal(t, tc.want, got, tc.name)
		assert.Less(t, bytes, uint64(16<<20), tc.name+": bytes allocated")
	}
}
