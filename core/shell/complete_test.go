package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/sim"
)

// TestCompleteReturnsWholeLines pins what the terminal's Tab gets: the line with its last word
// completed, for the shell's own words, kubectl (and k) and sim.
func TestCompleteReturnsWholeLines(t *testing.T) {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"", []string{"cat", "cp", "echo", "help", "k", "kubectl", "ls", "mkdir", "mv", "pwd", "rm", "sim", "touch"}},
		{"ku", []string{"kubectl"}},
		{"k get no", []string{"k get nodes"}},
		{"kubectl  cordon hd", []string{"kubectl  cordon hd1", "kubectl  cordon hd2", "kubectl  cordon hd3"}},
		{"sim f", []string{"sim fail"}},
		{"sim fail hd2 ku", []string{"sim fail hd2 kubelet-down"}},
		{"sim image busybox:1 c", []string{"sim image busybox:1 crash"}},
		{"sim im", []string{"sim image", "sim import"}},
		{"kubectl get pods -o 'json", nil},
		{"ls ", nil},
		{"kubectl get pods | gr", []string{"kubectl get pods | grep"}},
		{"kubectl run web --image=nginx --dry-run=client -o yaml | k", []string{"kubectl run web --image=nginx --dry-run=client -o yaml | k", "kubectl run web --image=nginx --dry-run=client -o yaml | kubectl"}},
		{"k create dep", []string{"k create deployment"}},
		{"k run web --restart ", []string{"k run web --restart Always", "k run web --restart Never", "k run web --restart OnFailure"}},
	} {
		t.Run(tt.line, func(t *testing.T) {
			assert.Equal(t, tt.want, Complete(s, tt.line))
		})
	}
	require.Equal(t, 0, Run(s, "touch cluster.yaml", "").Code)
	assert.Equal(t, []string{"sim import -f cluster.yaml"}, Complete(s, "sim import -f clu"), "sim import's -f names a file")
}

// TestCompleteNamesFiles: a file command's arguments, and kubectl's -f, complete to the
// workspace's names, a directory's with a slash.
func TestCompleteNamesFiles(t *testing.T) {
	s := workspace(t)
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"cat pod-b", []string{"cat pod-besteffort.yaml", "cat pod-burstable.yaml"}},
		{"kubectl apply -f da", []string{"kubectl apply -f daemonset.yaml"}},
		{"k delete -f di", []string{"k delete -f dir/"}},
		{"cat dir/", []string{"cat dir/a.yaml"}},
		{"cat nodir/", nil},
		{"kubectl get po", []string{"kubectl get poddisruptionbudgets", "kubectl get pods"}},
	} {
		assert.Equal(t, tt.want, Complete(s, tt.line), tt.line)
	}
}

// FuzzCompleteAndRun feeds arbitrary lines to Complete and to Run: neither may panic, a
// completion always extends the line's head, and Run answers with output or an error.
func FuzzCompleteAndRun(f *testing.F) {
	for _, seed := range []string{"", "k", "kubectl get ", "kubectl get pods -o ", "sim fail hd2 ", "kubectl rollout status ds/", "kubectl explain ds.spec.", `kubectl get "po`, "kubectl get pods -l 'a in (b'", "sim advance -5s", "kubectl --help", "k taint nodes hd2 a=b:NoSchedule-"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 512 {
			return
		}
		s, err := sim.New(1, sim.Default)
		require.NoError(t, err)
		for _, c := range Complete(s, line) {
			require.NotEmpty(t, c)
		}
		Run(s, line, "")
	})
}
