package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// manifest is a static pod manifest as kubeadm writes one: no namespace of its own here, so
// that the default one shows.
func manifest(name string) *api.Pod {
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	p.Name = name
	p.Spec.HostNetwork = true
	p.Spec.Containers = []api.Container{{Name: name, Image: "registry.k8s.io/" + name + ":v1.37.2"}}
	return p
}

// TestStaticPodIsTheManifestAsTheKubeletReadsIt pins pkg/kubelet/config/common.go applyDefaults
// and config.go: name <manifest>-<node>, namespace default, bound to the node, its UID the hash
// that config.hash repeats, every NoExecute taint tolerated once, source file, first seen when
// the kubelet started.
func TestStaticPodIsTheManifestAsTheKubeletReadsIt(t *testing.T) {
	seen := api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 123456789, time.UTC))
	noExecute := api.Toleration{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}
	cases := []struct {
		name        string
		manifest    func() *api.Pod
		node        string
		wantName    string
		namespace   string
		tolerations []api.Toleration
	}{
		{name: "a manifest without namespace lands in default", manifest: func() *api.Pod { return manifest("web") }, node: "n1",
			wantName: "web-n1", namespace: "default", tolerations: []api.Toleration{noExecute}},
		{name: "the node's name is lowered; the manifest's namespace is kept", manifest: func() *api.Pod {
			p := manifest("etcd")
			p.Namespace = "kube-system"
			return p
		}, node: "HD1", wantName: "etcd-hd1", namespace: "kube-system", tolerations: []api.Toleration{noExecute}},
		{name: "a toleration the manifest has already is not added twice", manifest: func() *api.Pod {
			p := manifest("web")
			p.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}, noExecute}
			return p
		}, node: "n1", wantName: "web-n1", namespace: "default",
			tolerations: []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}, noExecute}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.manifest()
			p := StaticPod(m, tc.node, seen)
			assert.Equal(t, tc.wantName, p.Name)
			assert.Equal(t, tc.namespace, p.Namespace)
			assert.Equal(t, tc.node, p.Spec.NodeName)
			assert.Regexp(t, `^[0-9a-f]{32}$`, p.UID)
			assert.Equal(t, map[string]string{
				api.AnnotationConfigHash:   p.UID,
				api.AnnotationConfigSource: "file",
				api.AnnotationConfigSeen:   "2026-01-01T00:00:00.123456789Z",
			}, p.Annotations)
			assert.Equal(t, tc.tolerations, p.Spec.Tolerations)
			assert.Equal(t, p.UID, StaticPod(tc.manifest(), tc.node, seen).UID, "the same manifest hashes the same")
			assert.NotEqual(t, p.UID, StaticPod(tc.manifest(), "other", seen).UID, "another node hashes otherwise")
			assert.Empty(t, m.Annotations, "the manifest is not changed")
		})
	}
}

// kubeletWith is a cluster whose one node n1 joined with the static pod web, its mirror pod
// started.
func kubeletWith(t *testing.T) *cluster.Cluster {
	c := cluster.New(1)
	require.NoError(t, apiserver.CreateSystemNamespaces(c))
	require.NoError(t, Join(c, NewNode("n1", 0, NodeOptions{}, c.Now()), []*api.Pod{manifest("web")}))
	settle(c)
	c.SetNow(c.Now().Add(StartupDelay))
	settle(c)
	return c
}

func settle(c *cluster.Cluster) {
	for Sync(c, cluster.Since{}) {
	}
}

func webMirror(c *cluster.Cluster) *api.Pod {
	p, _ := c.Get("Pod", cluster.Key{Namespace: "default", Name: "web-n1"}).(*api.Pod)
	return p
}

// TestMirrorPodIsOwnedByItsNodeAndRunsWithItsAddress pins pkg/kubelet/pod/mirror_client.go
// CreateMirrorPod: config.mirror set to the static pod's hash, one owner reference to the
// Node as controller; the API server gives it its own UID; a pod in the host's network has
// the node's address.
func TestMirrorPodIsOwnedByItsNodeAndRunsWithItsAddress(t *testing.T) {
	c := kubeletWith(t)
	p := webMirror(c)
	require.NotNil(t, p)
	node := c.Node("n1")
	assert.True(t, api.IsMirrorPod(p))
	assert.Equal(t, p.Annotations[api.AnnotationConfigHash], p.Annotations[api.AnnotationConfigMirror])
	assert.NotEqual(t, p.Annotations[api.AnnotationConfigHash], p.UID, "the mirror pod's UID is the API server's")
	require.Len(t, p.OwnerReferences, 1)
	ref := p.OwnerReferences[0]
	assert.Equal(t, []string{"v1", "Node", "n1", node.UID}, []string{ref.APIVersion, ref.Kind, ref.Name, ref.UID})
	require.NotNil(t, ref.Controller)
	assert.True(t, *ref.Controller)
	assert.Equal(t, api.PodRunning, p.Status.Phase)
	assert.Equal(t, NodeIP(node), p.Status.PodIP)
}

// TestDeletedMirrorPodComesBack pins kubelet.go SyncPod's mirror pod part (a mirror pod marked
// for deletion, or gone, is deleted and created again, the static pod running on) and the
// status manager keeping the static pod's status for the new one; a pod of the mirror pod's
// name that is none is left alone, and a stopped kubelet does nothing.
func TestDeletedMirrorPodComesBack(t *testing.T) {
	zero, thirty := int64(0), int64(30)
	cases := []struct {
		name      string
		act       func(*cluster.Cluster, *api.Pod)
		recreated bool
	}{
		{name: "a graceful delete", recreated: true, act: func(c *cluster.Cluster, p *api.Pod) {
			_, err := apiserver.Delete(c, apiserver.KindOf(p), cluster.KeyOf(p), apiserver.DeleteOptions{GracePeriodSeconds: &thirty})
			require.NoError(t, err)
		}},
		{name: "a forced delete", recreated: true, act: func(c *cluster.Cluster, p *api.Pod) {
			_, err := apiserver.Delete(c, apiserver.KindOf(p), cluster.KeyOf(p), apiserver.DeleteOptions{GracePeriodSeconds: &zero})
			require.NoError(t, err)
		}},
		{name: "a delete while the kubelet is down waits for it", act: func(c *cluster.Cluster, p *api.Pod) {
			m, _ := c.Machine("n1")
			m.KubeletDown, m.DownAt = true, c.Now()
			c.SetMachine("n1", m)
			_, err := apiserver.Delete(c, apiserver.KindOf(p), cluster.KeyOf(p), apiserver.DeleteOptions{GracePeriodSeconds: &thirty})
			require.NoError(t, err)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := kubeletWith(t)
			before := webMirror(c)
			require.NotNil(t, before)
			c.SetNow(c.Now().Add(time.Minute))
			events := c.Count("Event")
			tc.act(c, before)
			settle(c)
			after := webMirror(c)
			require.NotNil(t, after)
			if !tc.recreated {
				assert.Equal(t, before.UID, after.UID)
				assert.NotNil(t, after.DeletionTimestamp, "still Terminating")
				return
			}
			assert.NotEqual(t, before.UID, after.UID, "a new mirror pod")
			assert.Nil(t, after.DeletionTimestamp)
			assert.Equal(t, c.Now(), after.CreationTimestamp.Time)
			assert.Equal(t, api.PodRunning, after.Status.Phase, "the containers never stopped")
			assert.Equal(t, before.Status.StartTime, after.Status.StartTime)
			assert.Equal(t, before.Status.ContainerStatuses, after.Status.ContainerStatuses)
			assert.Equal(t, events, c.Count("Event"), "nothing is stopped, nothing started")
		})
	}
}

// TestAPodOfTheMirrorPodsNameIsLeftAlone: creating the mirror pod fails as the name is taken
// (mirror_client.go CreateMirrorPod returns AlreadyExists); the other pod runs as any pod.
func TestAPodOfTheMirrorPodsNameIsLeftAlone(t *testing.T) {
	c := cluster.New(1)
	require.NoError(t, apiserver.CreateSystemNamespaces(c))
	require.NoError(t, Join(c, NewNode("n1", 0, NodeOptions{}, c.Now()), nil))
	squatter := manifest("web")
	squatter.Name, squatter.Namespace, squatter.Spec.NodeName = "web-n1", "default", "n1"
	_, err := apiserver.Create(c, squatter, apiserver.Options{})
	require.NoError(t, err)
	m, _ := c.Machine("n1")
	m.StaticPods = []*api.Pod{manifest("web")}
	c.SetMachine("n1", m)
	staticNodes.Set(c, struct{}{}, &[]string{"n1"})
	settle(c)
	p := webMirror(c)
	require.NotNil(t, p)
	assert.False(t, api.IsMirrorPod(p))
	assert.Empty(t, p.OwnerReferences)
}
