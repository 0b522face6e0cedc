package apiserver

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// slug is a case's name as a file name: lower case, each run of other characters a dash.
func slug(name string) string {
	return strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(name), "-"), "-")
}

// storedPod creates testdata/pod-update/pod.yaml, a pod with init and sidecar containers,
// probes, volumes, tolerations, affinity and a deadline, and returns its key.
func storedPod(t *testing.T) (*cluster.Cluster, cluster.Key) {
	c := cluster.New(1)
	namespace(c, t)
	data, err := os.ReadFile("testdata/pod-update/pod.yaml")
	require.NoError(t, err)
	manifests, err := api.Decode(data)
	require.NoError(t, err)
	stored, err := Create(c, manifests[0].Object, Options{})
	require.NoError(t, err)
	return c, cluster.KeyOf(stored)
}

// TestPodUpdatesMayChangeOnlyTheImagesDeadlineAndTolerations checks the pod strategy's update
// validation (pkg/registry/core/pod/strategy.go ValidateUpdate, pkg/apis/core/validation/
// validation.go ValidatePodUpdate) against kube-apiserver v1.37's own: each case is a strategic
// merge patch of the stored pod, and testdata/pod-update/<case>.txt (the name as a slug) holds the status message
// the real one answers that patch with (empty when it allows it), made by running upstream's
// ValidatePodUpdate on the same pod and patch (v1 defaulting, conversion to the internal
// types, then apierrors.NewInvalid(...).Error()). The refusal's diff is apimachinery's
// diff.Diff of the internal pod specs, line for line.
func TestPodUpdatesMayChangeOnlyTheImagesDeadlineAndTolerations(t *testing.T) {
	const (
		dedicated = `{"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule"}`
		unreach   = `{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":60}`
		notReady  = `{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}` // admitted
	)
	tolerations := func(list ...string) string { return `{"spec":{"tolerations":[` + strings.Join(list, ",") + `]}}` }
	for _, tc := range []struct{ name, patch string }{
		// what may change
		{"a container's image", `{"spec":{"containers":[{"name":"app","image":"nginx:1.28"}]}}`},
		{"an init container's image", `{"spec":{"initContainers":[{"name":"init","image":"busybox:2"}]}}`},
		{"the labels", `{"metadata":{"labels":{"tier":"front"}}}`},
		{"a quantity's text but not its value", `{"spec":{"containers":[{"name":"app","resources":{"requests":{"cpu":"0.1"}}}]}}`},
		{"activeDeadlineSeconds lowered", `{"spec":{"activeDeadlineSeconds":300}}`},
		{"a toleration added", tolerations(dedicated, unreach, notReady, `{"key":"new","operator":"Exists","effect":"NoSchedule"}`)},
		{"a toleration's tolerationSeconds", tolerations(dedicated, strings.Replace(unreach, "60", "120", 1), notReady)},
		// what may not
		{"a container's resources", `{"spec":{"containers":[{"name":"app","resources":{"requests":{"memory":"200Mi"}}}]}}`},
		{"an image and resources", `{"spec":{"containers":[{"name":"app","image":"nginx:2","resources":{"limits":{"memory":"1Gi"}}}]}}`},
		{"an env var", `{"spec":{"containers":[{"name":"app","env":[{"name":"B","value":"2"}]}]}}`},
		{"a probe", `{"spec":{"containers":[{"name":"app","readinessProbe":{"periodSeconds":5}}]}}`},
		{"a security context", `{"spec":{"containers":[{"name":"side","securityContext":{"runAsUser":0}}]}}`},
		{"the node selector", `{"spec":{"nodeSelector":{"zone":"b"}}}`},
		{"the node name", `{"spec":{"nodeName":"hd2"}}`},
		{"the affinity", `{"spec":{"affinity":{"nodeAffinity":null}}}`},
		{"hostNetwork, and the host ports it defaults", `{"spec":{"hostNetwork":true}}`},
		{"terminationGracePeriodSeconds", `{"spec":{"terminationGracePeriodSeconds":10}}`},
		{"a volume", `{"spec":{"volumes":[{"name":"more","emptyDir":{}}]}}`},
		{"the service account", `{"spec":{"serviceAccountName":"other"}}`},
		{"an escaped value", `{"spec":{"nodeSelector":{"a":"<b>&"}}}`},
		{"a container added", `{"spec":{"containers":[{"name":"third","image":"busybox"}]}}`},
		{"a container removed", `{"spec":{"containers":[{"name":"side","$patch":"delete"}]}}`},
		{"an image with whitespace", `{"spec":{"containers":[{"name":"app","image":" nginx"}]}}`},
		{"activeDeadlineSeconds raised", `{"spec":{"activeDeadlineSeconds":900}}`},
		{"activeDeadlineSeconds raised, and more", `{"spec":{"activeDeadlineSeconds":900,"nodeSelector":{"zone":"b"}}}`},
		{"activeDeadlineSeconds unset", `{"spec":{"activeDeadlineSeconds":null}}`},
		{"activeDeadlineSeconds negative", `{"spec":{"activeDeadlineSeconds":-1}}`},
		{"a toleration removed", tolerations(dedicated, unreach)},
		{"a toleration's value", tolerations(strings.Replace(dedicated, "web", "api", 1), unreach, notReady)},
		{"a toleration changed and resources", `{"spec":{"tolerations":[{"key":"x","operator":"Exists"}],"containers":[{"name":"app","resources":{"limits":{"cpu":"1"}}}]}}`},
		{"the mirror pod annotation added", `{"metadata":{"annotations":{"kubernetes.io/config.mirror":"x"}}}`},
		{"an AppArmor annotation added", `{"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/app":"runtime/default"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, key := storedPod(t)
			want, err := os.ReadFile(filepath.Join("testdata", "pod-update", slug(tc.name)+".txt"))
			require.NoError(t, err)
			var p any
			require.NoError(t, json.Unmarshal([]byte(tc.patch), &p))
			_, err = Patch(c, KindOf(&api.Pod{}), key, StrategicMergePatch, p, Options{})
			if len(want) == 0 {
				assert.NoError(t, err)
				return
			}
			var se *StatusError
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, ReasonInvalid, se.Reason)
			assert.Equal(t, string(want), se.Message)
		})
	}
}

// TestPodStatusWritesSkipTheUpdateRules: the kubelet writes a pod's status through
// the status subresource, whose strategy keeps the stored spec and validates the status only
// (podStatusStrategy), so a status write is never refused for the spec it carries.
func TestPodStatusWritesSkipTheUpdateRules(t *testing.T) {
	c, key := storedPod(t)
	next := api.DeepCopy(c.Get("Pod", key).(*api.Pod))
	next.Status.Phase = api.PodRunning
	next.Spec.Containers[0].Resources.Requests = nil // ignored: the stored spec stays
	stored, err := UpdateStatus(c, next, Options{})
	require.NoError(t, err)
	p := stored.(*api.Pod)
	assert.Equal(t, api.PodRunning, p.Status.Phase)
	assert.NotEmpty(t, p.Spec.Containers[0].Resources.Requests)
}
