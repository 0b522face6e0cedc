package kubectl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDescribeShowsEventsOfOneObjectOnly pins DescribeOptions.Run's ShowEvents (k8s.io/kubectl
// pkg/cmd/describe, with the cases of TestDescribeShowEventsCardinality and
// TestDescribeShowEventsPrefixPath): events for a single object found by name or by a selector;
// none for several objects or a name prefix, unless --show-events says so.
func TestDescribeShowsEventsOfOneObjectOnly(t *testing.T) {
	s := newSim(t)
	ds := "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: node-exporter}\nspec:\n  selector: {matchLabels: {app: node-exporter}}\n  template:\n    metadata: {labels: {app: node-exporter}}\n    spec:\n      containers: [{name: c, image: busybox:1.36}]\n"
	require.Zero(t, applied(s, []byte(ds), "STDIN", "default").Code)
	pods := s.C.Pods()
	require.Len(t, pods, 2)
	for _, tc := range []struct {
		name       string
		args       string
		wantEvents int // Events sections
		wantPods   int
	}{
		{"single object keeps events", "describe pod " + pods[0].Name, 1, 1},
		{"single object by a selector keeps events", "describe pod -l app=node-exporter --field-selector spec.nodeName=" + pods[0].Spec.NodeName, 1, 1},
		{"multiple objects defaults events off", "describe pod -l app=node-exporter", 0, 2},
		{"a type alone is multiple objects", "describe pods", 0, 2},
		{"several names are multiple objects", "describe pod " + pods[0].Name + " " + pods[1].Name, 0, 2},
		{"multiple objects explicit --show-events=true", "describe pod -l app=node-exporter --show-events=true", 2, 2},
		{"multiple objects explicit --show-events", "describe pods --show-events", 2, 2},
		{"single object explicit --show-events=false", "describe pod " + pods[0].Name + " --show-events=false", 0, 1},
		{"single prefix match still disables events", "describe pod " + pods[0].Name[:len(pods[0].Name)-1], 0, 1},
		{"multi prefix match explicit --show-events=true", "describe pod node-exporter --show-events=true", 2, 2},
		{"multi prefix match defaults events off", "describe pod node-exporter", 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(s, strings.Fields(tc.args), "")
			require.Zero(t, r.Code, r.Err)
			assert.Equal(t, tc.wantEvents, strings.Count(r.Out, "\nEvents:"), r.Out)
			assert.Equal(t, tc.wantPods, strings.Count(r.Out, "\nControlled By:"))
		})
	}
}
