package kubectl_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	sigsyaml "sigs.k8s.io/yaml"

	"daemonlab/core/kubectl"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// upstreamTypes are the k8s.io/api types kubectl would decode each resource into.
var upstreamTypes = map[string]func() any{
	"pods":                 func() any { return &corev1.Pod{} },
	"nodes":                func() any { return &corev1.Node{} },
	"namespaces":           func() any { return &corev1.Namespace{} },
	"daemonsets":           func() any { return &appsv1.DaemonSet{} },
	"deployments":          func() any { return &appsv1.Deployment{} },
	"replicasets":          func() any { return &appsv1.ReplicaSet{} },
	"events":               func() any { return &corev1.Event{} },
	"controllerrevisions":  func() any { return &appsv1.ControllerRevision{} },
	"poddisruptionbudgets": func() any { return &policyv1.PodDisruptionBudget{} },
}

func decodeJSON(t *testing.T, data []byte, v any, strict bool) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if strict {
		dec.DisallowUnknownFields()
	}
	require.NoError(t, dec.Decode(v))
}

// TestStructuredOutputIsWhatTheAPIServerWouldSend plays every scenario and prints each
// object of every kind with -o json; decoding that into the upstream k8s.io/api type (no
// unknown field allowed) and encoding it again must give the same JSON, so the field names,
// the fields left out when empty and the ones always present ("resources: {}",
// "lastProbeTime: null") are the API server's. The -o yaml of the same objects must be what
// sigs.k8s.io/yaml, kubectl's converter, makes of that JSON, or the error it gives.
func TestStructuredOutputIsWhatTheAPIServerWouldSend(t *testing.T) {
	forEachScenario(t, func(t *testing.T, s *sim.Sim) {
		for resource, newUpstream := range upstreamTypes {
			assertStructuredOutput(t, s, resource, newUpstream)
		}
	})
}

func assertStructuredOutput(t *testing.T, s *sim.Sim, resource string, newUpstream func() any) {
	t.Helper()
	r := kubectl.Run(s, []string{"get", resource, "-A", "-o", "json"}, "")
	require.Empty(t, r.Err)
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	decodeJSON(t, []byte(r.Out), &list, false)
	for _, item := range list.Items {
		var ours map[string]any
		decodeJSON(t, item, &ours, false)
		typed := newUpstream()
		decodeJSON(t, item, typed, true)
		again, err := json.Marshal(typed)
		require.NoError(t, err)
		var theirs map[string]any
		decodeJSON(t, again, &theirs, false)
		assert.Empty(t, diffPaths("", theirs, ours), "%s %v: fields that differ from the upstream re-encoding", resource, ours["metadata"].(map[string]any)["name"])
	}
	y := kubectl.Run(s, []string{"get", resource, "-A", "-o", "yaml"}, "")
	var compact bytes.Buffer // kubectl converts compact JSON (sigs.k8s.io/yaml.Marshal)
	require.NoError(t, json.Compact(&compact, []byte(r.Out)))
	want, err := sigsyaml.JSONToYAML(compact.Bytes())
	if err != nil {
		assert.Equal(t, "error: "+err.Error(), y.Err, "%s: -o yaml", resource)
		return
	}
	require.Empty(t, y.Err)
	assert.Equal(t, string(want), y.Out, "%s: -o yaml", resource)
}

// diffPaths lists the paths where two JSON values differ, with both sides.
func diffPaths(path string, want, got any) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		var out []string
		for k := range w {
			out = append(out, diffPaths(path+"."+k, w[k], g[k])...)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				out = append(out, diffPaths(path+"."+k, nil, g[k])...)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			break
		}
		var out []string
		for i := range w {
			out = append(out, diffPaths(fmt.Sprintf("%s[%d]", path, i), w[i], g[i])...)
		}
		return out
	}
	if reflect.DeepEqual(want, got) {
		return nil
	}
	return []string{fmt.Sprintf("%s: upstream %#v, ours %#v", path, want, got)}
}

// TestGetOneNamedObjectPrintsItAloneOtherwiseAList pins kubectl get's singleItemImplied rule
// (kubectl pkg/cmd/get/get.go printGeneric): only `get TYPE NAME` or `get TYPE/NAME` prints
// the bare object; several names, a selector or a type alone print a List, empty or not, and
// a missing lone name prints only the NotFound error.
func TestGetOneNamedObjectPrintsItAloneOtherwiseAList(t *testing.T) {
	s, err := sim.New(1, sim.Default)
	require.NoError(t, err)
	tests := []struct {
		name, line, wantPrefix, wantErr string
	}{
		{"one name", "kubectl get node hd1 -o yaml", "apiVersion: v1\nkind: Node\n", ""},
		{"type/name", "kubectl get no/hd1 -o json", "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Node\",", ""},
		{"two names", "kubectl get nodes hd1 hd2 -o yaml", "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n", ""},
		{"empty list", "kubectl get pods -o yaml", "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n", ""},
		{"selector with one match", "kubectl get nodes -l kubernetes.io/hostname=hd1 -o yaml", "apiVersion: v1\nitems:\n- apiVersion: v1\n", ""},
		{"missing lone name", "kubectl get node nope -o yaml", "", `Error from server (NotFound): nodes "nope" not found`},
		{"one missing of two", "kubectl get nodes hd1 nope -o yaml", "apiVersion: v1\nitems:\n- apiVersion: v1\n", `Error from server (NotFound): nodes "nope" not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := shell.Run(s, tt.line, "")
			assert.True(t, strings.HasPrefix(r.Out, tt.wantPrefix), "stdout:\n%s", r.Out)
			if tt.wantPrefix == "" {
				assert.Empty(t, r.Out)
			}
			assert.Equal(t, tt.wantErr, r.Err)
		})
	}
}
