package kubectl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewCommandsRefuseBadInputWithKubectlsMessages pins the error paths a learner reaches with
// describe, set image, create, sorting and jsonpath: kubectl's messages, exit code 1, and no
// change to the cluster.
func TestNewCommandsRefuseBadInputWithKubectlsMessages(t *testing.T) {
	s := newSim(t)
	ds := "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: busybox:1.36}]\n"
	require.Empty(t, run(s, []string{"apply", "-f", "-"}, ds).Err)
	require.Empty(t, run(s, []string{"apply", "-f", "-"}, strings.ReplaceAll(ds, "agent", "other")).Err)
	tests := []struct {
		args    string
		wantErr string
	}{
		{"describe", "You must specify the type of resource to describe."},
		{"describe dss agent", `error: the server doesn't have a resource type "dss"`},
		{"describe events", "error: DaemonLab cannot describe events yet"},
		{"describe ds nope", `Error from server (NotFound): daemonsets.apps "nope" not found`},
		{"describe pods -n empty", "No resources found in empty namespace."},
		{"describe pods agent-x -l app=agent", "error: name cannot be provided when a selector is specified"},
		{"set env ds/agent A=b", `error: DaemonLab's kubectl does not run "set env" yet; of kubectl set it runs image`},
		{"set colour ds/agent", "error: unknown command \"colour ds/agent\"\nSee 'kubectl set -h' for help and examples"},
		{"exec web -- ls", `error: DaemonLab's kubectl does not run "exec" yet`},
		{"rollout sideways ds/agent", "error: unknown command \"sideways ds/agent\"\nSee 'kubectl rollout -h' for help and examples"},
		{"set image", "error: one or more resources must be specified"},
		{"set image ds/agent c=busybox:1.37 extra", "error: all resources must be specified before image changes: extra"},
		{"set image ds/nope c=busybox:1.37", `Error from server (NotFound): daemonsets.apps "nope" not found`},
		{"create -f ./x.yaml", `error: the path "./x.yaml" does not exist`},
		{"get pods --sort-by={.metadata.name", "error: unclosed action"},
		{"get ds --sort-by=.spec", // sort.Sort compares only when there are two
			"error: Field {.spec} in [][][]reflect.Value is an unsortable type: interface, err: unsortable type: map[string]interface {}"},
		{"get ds -o jsonpath={.a[}", "error: error parsing jsonpath {.a[}, unterminated array"},
		{"get ds -o go-template={{.}}", "error: DaemonLab does not print -o go-template yet"},
		{"get ds --field-selector spec.x=1", `field label not supported: spec.x`},
		{"get ds --field-selector a=b=c", "invalid field selector: unescaped character in value: 61"},
		// Values are parsed as pflag parses an int or duration flag, and a bad one is a usage error.
		{"drain hd2 --grace-period=5s", "error: invalid argument \"5s\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"5s\": invalid syntax\nSee 'kubectl drain --help' for usage."},
		{"drain hd2 --timeout 10", "error: invalid argument \"10\" for \"--timeout\" flag: time: missing unit in duration \"10\"\nSee 'kubectl drain --help' for usage."},
		{"delete pod x --grace-period=1.5", "error: invalid argument \"1.5\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"1.5\": invalid syntax\nSee 'kubectl delete --help' for usage."},
		{"rollout history ds/agent --revision=x", "error: invalid argument \"x\" for \"--revision\" flag: strconv.ParseInt: parsing \"x\": invalid syntax\nSee 'kubectl rollout history --help' for usage."},
		{"rollout status ds/agent --timeout=soon", "error: invalid argument \"soon\" for \"--timeout\" flag: time: invalid duration \"soon\"\nSee 'kubectl rollout status --help' for usage."},
		{"create priorityclass high --value=3000000000", "error: invalid argument \"3000000000\" for \"--value\" flag: strconv.ParseInt: parsing \"3000000000\": value out of range\nSee 'kubectl create priorityclass --help' for usage."},
		{"create pc high --value=1k", "error: invalid argument \"1k\" for \"--value\" flag: strconv.ParseInt: parsing \"1k\": invalid syntax\nSee 'kubectl create priorityclass --help' for usage."},
		{"create pc", "error: exactly one NAME is required, got 0\nSee 'kubectl create priorityclass -h' for help and examples"},
		{"create pc high --value=2000000000", `error: failed to create priorityclass: PriorityClass.scheduling.k8s.io "high" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000`},
		{"delete pc system-cluster-critical", `Error from server (Forbidden): priorityclasses.scheduling.k8s.io "system-cluster-critical" is forbidden: this is a system priority class and cannot be deleted`},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			before := snapshot(s)
			r := run(s, strings.Fields(tt.args), "")
			assert.Contains(t, r.Err, tt.wantErr)
			if !strings.HasPrefix(tt.wantErr, "No resources") {
				assert.Equal(t, 1, r.Code)
			}
			assert.Equal(t, before, snapshot(s), "a refused command changes nothing")
		})
	}
}

// TestHelpIsPrintedForEveryCommand: kubectl alone, -h and --help anywhere before "--", and
// `kubectl help CMD` print kubectl's own help (help.json); a grouping command without its
// subcommand prints its help and fails, as cobra's DefaultSubCommandRun does.
func TestHelpIsPrintedForEveryCommand(t *testing.T) {
	s := newSim(t)
	for _, tt := range []struct {
		args  string
		topic string
		code  int
	}{
		{"", "", 0},
		{"--help", "", 0},
		{"get --help", "get", 0},
		{"get pods -o wide -h", "get", 0},
		{"rollout status ds/x --help", "rollout status", 0},
		{"help rollout undo", "rollout undo", 0},
		{"set image -h", "set image", 0},
		{"rollout", "rollout", 1},
	} {
		t.Run(tt.args, func(t *testing.T) {
			r := run(s, strings.Fields(tt.args), "")
			require.NotEmpty(t, helpText(tt.topic))
			assert.Equal(t, helpText(tt.topic), r.Out)
			assert.Equal(t, tt.code, r.Code)
		})
	}
	for _, group := range []string{"set", "top"} { // their help goes to standard error
		r := run(s, []string{group}, "")
		assert.Equal(t, strings.TrimSuffix(helpText(group), "\n"), r.Err)
		assert.Equal(t, 1, r.Code)
	}
	assert.Equal(t, "error: Metrics API not available", run(s, []string{"top", "nodes"}, "").Err, "no metrics-server runs in the simulated cluster")
	assert.Contains(t, helpText("rollout status"), "Show the status of the rollout.")
	r := run(s, []string{"help", "nonsense"}, "")
	assert.True(t, strings.HasPrefix(r.Out, "Unknown help topic [`nonsense`]\n\n\nBasic Commands (Beginner):"), r.Out)
	r = run(s, []string{"get", "--", "--help"}, "")
	assert.Contains(t, r.Err, `the server doesn't have a resource type "--help"`, "after -- it is an argument")
}

// TestSetImageOnAPodIsRefusedPlainly: DaemonLab does not restart containers in place yet, and
// says so rather than pretending.
func TestSetImageOnAPodIsRefusedPlainly(t *testing.T) {
	s := newSim(t)
	require.Empty(t, run(s, []string{"apply", "-f", "-"}, "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: c, image: nginx:1.27}]\n").Err)
	r := run(s, []string{"set", "image", "pod/web", "c=nginx:1.28"}, "")
	assert.Equal(t, "error: DaemonLab cannot change the image of a running pod yet; change its controller's template instead", r.Err)
	assert.Equal(t, 1, r.Code)
}
