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
