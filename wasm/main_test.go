package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecoverReportsPanics: a panic inside an event handler becomes a report, not a crash.
func TestRecoverReportsPanics(t *testing.T) {
	var got any
	assert.True(t, Recover(func() { panic("boom") }, func(r any) { got = r }))
	assert.Equal(t, "boom", got)
	assert.False(t, Recover(func() {}, func(any) { t.Fatal("no panic, no report") }))
}

// TestCoreStaysPure guards the layout's boundary: compiled for the browser, no package of core
// (nor any module it uses) imports syscall/js or the DOM package, core does not depend on the
// lessons' data (the page hands it to core/playground), and the page ships none of
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
		assert.NotEqual(t, "daemonlab/lessons", p.path, "core depends on the lessons' data")
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

// layers are core's packages from the bottom up, as the README's Architecture lists them: a
// package may import only those of a lower layer (the controllers share one). kubectl is a
// client of the API server, so it imports neither the kubelet nor a controller.
var layers = [][]string{
	{"internal/measure"}, {"api"}, {"openapi"}, {"patch"}, {"cluster"}, {"apiserver"}, {"controller"},
	{"controller/daemon", "controller/deployment", "controller/replicaset", "controller/nodeipam",
		"controller/nodelifecycle", "controller/tainteviction", "controller/garbagecollector", "controller/disruption",
		"controller/serviceaccount"},
	{"scheduler"}, {"kubelet"}, {"sim"}, {"jsonpath"}, {"explain"}, {"kubectl"}, {"shell"}, {"scenario"},
	{"lesson"}, {"playground"}, {"playground/markup"}, {"cmd/daemonlab"},
}

func TestCoreImportsOnlyGoDown(t *testing.T) {
	layer := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			layer["daemonlab/core/"+p] = i
		}
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "daemonlab/core/...").Output()
	if err != nil {
		t.Skipf("go list is not available here: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		from, ok := layer[f[0]]
		require.True(t, ok, "%s is in no layer: add it to layers and to the README's Architecture", f[0])
		for _, imp := range f[1:] {
			if to, ok := layer[imp]; ok {
				assert.Less(t, to, from, "%s imports %s, which is not below it", f[0], imp)
			}
			if f[0] == "daemonlab/core/kubectl" {
				assert.False(t, imp == "daemonlab/core/kubelet" || strings.HasPrefix(imp, "daemonlab/core/controller/"), "kubectl imports %s: it writes through the API server only", imp)
			}
		}
	}
}
