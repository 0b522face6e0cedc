package kubectl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompleteOffersWhatTheLineCanTakeNext pins Tab completion: commands, subcommands, flags,
// flag values, resource types, names of the objects of the type typed (in -n's namespace),
// TYPE/NAME for rollout, nodes for cordon, and explain's field paths.
func TestCompleteOffersWhatTheLineCanTakeNext(t *testing.T) {
	s := newSim(t)
	ds := "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: kube-system}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: busybox:1.36}]\n"
	require.Empty(t, run(s, []string{"apply", "-f", "-"}, ds).Err)
	for _, tt := range []struct {
		line string
		want []string
	}{
		{"", Commands()},
		{"ro", []string{"rollout"}},
		{"rollout ", []string{"history", "pause", "restart", "resume", "status", "undo"}},
		{"rollout st", []string{"status"}},
		{"rollout status ds/", nil},
		{"rollout status -n kube-system ds/", []string{"ds/agent"}},
		{"rollout status -n kube-system ", []string{"daemonsets/agent", "ds/agent"}},
		{"get ", []string{"controllerrevisions", "daemonsets", "deployments", "events", "namespaces", "nodes", "poddisruptionbudgets", "pods", "priorityclasses", "replicasets", "serviceaccounts", "services"}},
		{"get d", []string{"daemonsets", "deployments"}},
		{"get pc ", []string{"system-cluster-critical", "system-node-critical"}},
		{"create ", []string{"deployment", "namespace", "poddisruptionbudget", "priorityclass"}},
		{"create pc high --preemption-policy ", []string{"Never", "PreemptLowerPriority"}},
		{"create priorityclass high --gl", []string{"--global-default"}},
		{"get nodes ", []string{"hd1", "hd2", "hd3"}},
		{"get no hd", []string{"hd1", "hd2", "hd3"}},
		{"get ds -n kube-system ", []string{"agent"}},
		{"get ds -n ", []string{"default", "kube-node-lease", "kube-public", "kube-system"}},
		{"get pods -o ", []string{"custom-columns=", "json", "jsonpath-as-json=", "jsonpath=", "name", "wide", "yaml"}},
		{"get pods --sh", []string{"--show-labels"}},
		{"delete ds agent --cascade ", []string{"background", "foreground", "orphan"}},
		{"cordon h", []string{"hd1", "hd2", "hd3"}},
		{"taint ", []string{"nodes"}},
		{"explain ds.spec.up", []string{"ds.spec.updateStrategy."}},
		{"explain ds.spec.minR", []string{"ds.spec.minReadySeconds"}},
		{"explain ds.spec.template.spec.tolerations.e", []string{"ds.spec.template.spec.tolerations.effect"}},
		{"explain dep", []string{"deployments"}},
		{"help roll", []string{"rollout", "rollout history", "rollout pause", "rollout restart", "rollout resume", "rollout status", "rollout undo"}},
		{"nosuch ", nil},
	} {
		t.Run(tt.line, func(t *testing.T) {
			words := strings.Fields(tt.line)
			if tt.line == "" || strings.HasSuffix(tt.line, " ") {
				words = append(words, "")
			}
			assert.Equal(t, tt.want, Complete(s, words))
		})
	}
}
