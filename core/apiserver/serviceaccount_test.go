package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

func saPod(mutate func(*api.Pod)) *api.Pod {
	pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	pod.Name, pod.Namespace = "web", "default"
	pod.Spec.InitContainers = []api.Container{{Name: "init", Image: "busybox"}}
	pod.Spec.Containers = []api.Container{{Name: "a", Image: "nginx"}, {Name: "b", Image: "nginx"}}
	if mutate != nil {
		mutate(pod)
	}
	return pod
}

// TestServiceAccountAdmissionMountsTheToken pins the ServiceAccount plugin's Admit
// (plugin/pkg/admission/serviceaccount/admission.go Admit, mountServiceAccountToken,
// shouldAutomount, TokenVolumeSource).
func TestServiceAccountAdmissionMountsTheToken(t *testing.T) {
	no := false
	cases := []struct {
		name      string
		pod       func(*api.Pod)
		sa        func(*api.ServiceAccount)
		mounted   bool
		volumes   int
		refusal   string
		volumeFix string // a volume name the pod already has
	}{
		{name: "a pod naming none gets default and the token in every container", mounted: true, volumes: 1},
		{name: "the pod's automountServiceAccountToken false wins", pod: func(p *api.Pod) { p.Spec.AutomountServiceAccountToken = &no }},
		{name: "the service account's false is honoured", sa: func(sa *api.ServiceAccount) { sa.AutomountServiceAccountToken = &no }},
		{name: "an existing kube-api-access- volume is reused, none appended", volumeFix: "kube-api-access-mine", mounted: true, volumes: 1},
		{name: "an unknown service account is refused", pod: func(p *api.Pod) { p.Spec.ServiceAccountName = "robot" },
			refusal: `pods "web" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster.New(1)
			namespace(c, t)
			sa := DefaultServiceAccount("default")
			if tc.sa != nil {
				tc.sa(sa)
			}
			_, err := Create(c, sa, Options{})
			require.NoError(t, err)
			pod := saPod(tc.pod)
			if tc.volumeFix != "" {
				pod.Spec.Volumes = []api.Volume{{Name: tc.volumeFix, EmptyDir: &api.EmptyDirVolumeSource{}}}
			}
			stored, err := Create(c, pod, Options{})
			if tc.refusal != "" {
				assert.EqualError(t, err, tc.refusal)
				return
			}
			require.NoError(t, err)
			spec := stored.(*api.Pod).Spec
			assert.Equal(t, "default", spec.ServiceAccountName)
			if tc.pod == nil {
				assert.Equal(t, "default", spec.DeprecatedServiceAccount)
			}
			assert.Len(t, spec.Volumes, tc.volumes)
			for _, ctr := range append(spec.InitContainers, spec.Containers...) {
				if !tc.mounted {
					assert.Empty(t, ctr.VolumeMounts, ctr.Name)
					continue
				}
				require.Len(t, ctr.VolumeMounts, 1, ctr.Name)
				m := ctr.VolumeMounts[0]
				assert.Equal(t, ServiceAccountTokenMountPath, m.MountPath)
				assert.True(t, m.ReadOnly)
				assert.Equal(t, spec.Volumes[0].Name, m.Name)
			}
			if tc.mounted && tc.volumeFix == "" {
				v := spec.Volumes[0]
				assert.Regexp(t, `^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$`, v.Name)
				require.NotNil(t, v.Projected)
				require.Len(t, v.Projected.Sources, 3)
				assert.Equal(t, int32(0o644), *v.Projected.DefaultMode)
				assert.Equal(t, int64(3607), *v.Projected.Sources[0].ServiceAccountToken.ExpirationSeconds)
				assert.Equal(t, "kube-root-ca.crt", v.Projected.Sources[1].ConfigMap.Name)
				assert.Equal(t, "metadata.namespace", v.Projected.Sources[2].DownwardAPI.Items[0].FieldRef.FieldPath)
			}
		})
	}
}

// TestTheDefaultServiceAccountOfANewNamespaceIsThereForItsFirstPod: upstream's admission looks
// the default service account up for about a second, in which the ServiceAccount controller
// creates it; a namespace and a pod created together are admitted, and the account is stored
// (but not by a dry run).
func TestTheDefaultServiceAccountOfANewNamespaceIsThereForItsFirstPod(t *testing.T) {
	for _, dry := range []bool{false, true} {
		c := cluster.New(1)
		namespace(c, t)
		_, err := Create(c, saPod(nil), Options{DryRun: dry})
		require.NoError(t, err)
		stored := c.Get("ServiceAccount", cluster.Key{Namespace: "default", Name: "default"})
		assert.Equal(t, !dry, stored != nil, "dry run %v", dry)
	}
}

// TestServiceAccountAdmissionLeavesMirrorPodsAsTheyAre pins the plugin's rules for a mirror pod
// (plugin/pkg/admission/serviceaccount/admission.go Admit: "Don't modify the spec of mirror
// pods"; Validate: "Mirror pods have restrictions on what they can reference"): it gets no
// service account and no token, and is refused when it names either or a secret.
func TestServiceAccountAdmissionLeavesMirrorPodsAsTheyAre(t *testing.T) {
	optional := true
	cases := []struct {
		name    string
		pod     func(*api.Pod)
		refusal string
	}{
		{name: "a mirror pod naming nothing is admitted untouched"},
		{name: "a service account is refused", pod: func(p *api.Pod) { p.Spec.ServiceAccountName = "default" },
			refusal: `pods "web" is forbidden: a mirror pod may not reference service accounts`},
		{name: "a secret volume is refused", pod: func(p *api.Pod) {
			p.Spec.Volumes = []api.Volume{{Name: "s", Secret: &api.SecretVolumeSource{SecretName: "token"}}}
		}, refusal: `pods "web" is forbidden: a mirror pod may not reference secrets`},
		{name: "an image pull secret is refused", pod: func(p *api.Pod) {
			p.Spec.ImagePullSecrets = []api.LocalObjectReference{{Name: "registry"}}
		}, refusal: `pods "web" is forbidden: a mirror pod may not reference secrets`},
		{name: "a container's secretKeyRef is refused", pod: func(p *api.Pod) {
			p.Spec.Containers[1].Env = []api.EnvVar{{Name: "K", ValueFrom: &api.EnvVarSource{SecretKeyRef: &api.KeySelector{Name: "s", Key: "k", Optional: &optional}}}}
		}, refusal: `pods "web" is forbidden: a mirror pod may not reference secrets`},
		{name: "a token projection is refused", pod: func(p *api.Pod) {
			p.Spec.Volumes = []api.Volume{{Name: "t", Projected: &api.ProjectedVolumeSource{Sources: []api.VolumeProjection{{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "token"}}}}}}
		}, refusal: `pods "web" is forbidden: a mirror pod may not use ServiceAccountToken volume projections`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster.New(1)
			namespace(c, t)
			pod := saPod(tc.pod)
			pod.Annotations = map[string]string{api.AnnotationConfigMirror: "0123456789abcdef0123456789abcdef"}
			pod.Spec.NodeName = "n1"
			stored, err := Create(c, pod, Options{})
			if tc.refusal != "" {
				require.Error(t, err)
				assert.Equal(t, tc.refusal, err.Error())
				assert.Nil(t, c.Get("Pod", cluster.Key{Namespace: "default", Name: "web"}), "nothing is stored")
				return
			}
			require.NoError(t, err)
			p := stored.(*api.Pod)
			assert.Empty(t, p.Spec.ServiceAccountName)
			assert.Empty(t, p.Spec.Volumes, "no token volume")
			for _, ctr := range p.Spec.Containers {
				assert.Empty(t, ctr.VolumeMounts, ctr.Name)
			}
		})
	}
}
