package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartStateShowsThreeFluentdPods: the page opens on hd1, hd2 and hd3 with one Running
// fluentd pod each, hd1 showing its control-plane taint.
func TestStartStateShowsThreeFluentdPods(t *testing.T) {
	m, err := NewModel()
	require.NoError(t, err)
	v := Render(m)
	require.Len(t, v.Nodes, 3)
	for i, n := range v.Nodes {
		assert.Equal(t, []string{"hd1", "hd2", "hd3"}[i], n.Name)
		assert.Equal(t, "Ready", n.Status)
		require.Len(t, n.Pods, 1)
		assert.Equal(t, "Running", n.Pods[0].Status)
		assert.Equal(t, "1/1", n.Pods[0].Ready)
		assert.Equal(t, "DaemonSet/fluentd-elasticsearch", n.Pods[0].Owner)
	}
	assert.Equal(t, "control-plane", v.Nodes[0].Roles)
	assert.Equal(t, []string{"node-role.kubernetes.io/control-plane:NoSchedule"}, v.Nodes[0].Taints)
	assert.Equal(t, "t = 30s", v.Clock)
	assert.Empty(t, v.Pending)
}

// TestFailedApplyShowsTheErrorAndKeepsTheCluster: a bad edit shows Kubernetes' message and its
// line, and the cluster keeps its pods.
func TestFailedApplyShowsTheErrorAndKeepsTheCluster(t *testing.T) {
	m, err := NewModel()
	require.NoError(t, err)
	before := Render(m).Nodes
	m = Update(m, ApplyMsg{Text: strings.Replace(m.Editor, "effect: NoSchedule", "effect: NoSchedul", 1)})
	v := Render(m)
	assert.True(t, v.Failed)
	assert.Equal(t, `The DaemonSet "fluentd-elasticsearch" is invalid: spec.template.spec.tolerations[0].effect: Unsupported value: "NoSchedul": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`, v.Output)
	require.Len(t, v.Problems, 1)
	assert.Equal(t, 23, v.Problems[0].Line)
	assert.Equal(t, before, v.Nodes)
}

// TestRecoverReportsPanics: a panic inside an event handler becomes a report, not a crash.
func TestRecoverReportsPanics(t *testing.T) {
	var got any
	assert.True(t, Recover(func() { panic("boom") }, func(r any) { got = r }))
	assert.Equal(t, "boom", got)
	assert.False(t, Recover(func() {}, func(any) { t.Fatal("no panic, no report") }))
}

// TestCoreStaysPure guards the layout's boundary: compiled for the browser, no package of core
// (nor any module it uses) imports syscall/js or the DOM package, and the page ships none of
// the upstream k8s.io modules (they are for differential tests only). On GOOS=js the standard
// library's own time and syscall packages import syscall/js, so the check is on importers
// outside the standard library.
func TestCoreStaysPure(t *testing.T) {
	type pkg struct {
		path     string
		standard bool
		imports  []string
	}
	deps := func(pattern string) []pkg {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{join .Imports \" \"}}", pattern)
		cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("go list is not available here: %v", err)
		}
		var pkgs []pkg
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			pkgs = append(pkgs, pkg{path: f[0], standard: f[1] == "true", imports: f[2:]})
		}
		return pkgs
	}
	core := deps("daemonlab/core/...")
	require.NotEmpty(t, core)
	for _, p := range core {
		assert.False(t, strings.HasPrefix(p.path, "honnef.co/go/js/dom"), "core depends on %s", p.path)
		if p.standard {
			continue
		}
		for _, imp := range p.imports {
			assert.NotEqual(t, "syscall/js", imp, "%s imports syscall/js", p.path)
		}
	}
	for _, p := range deps("daemonlab/wasm") {
		assert.False(t, strings.HasPrefix(p.path, "k8s.io/"), "the page ships %s", p.path)
	}
}
