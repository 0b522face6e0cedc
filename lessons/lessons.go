// Package lessons holds DaemonLab's guided lessons as data, embedded into the page, and the
// start state of the free playground. It is data only: core/lesson parses and runs it.
package lessons

import (
	"embed"
	"io/fs"
)

// FluentdDaemonSet is the DaemonSet tutorial's fluentd log collector (namespace kube-system,
// tolerating the control-plane taint).
//
//go:embed start/fluentd-elasticsearch.yaml
var FluentdDaemonSet string

//go:embed start/web.yaml
var webDeployment string

// K8sMasterDaemonSet is seed 003's fluentd DaemonSet: its toleration has the retired key
// node-role.kubernetes.io/k8s-master, which no node carries, so the control-plane node gets no
// pod (lesson 5 starts from it; the page's lint and "not here" placeholder say why).
//
//go:embed start/k8s-master-daemonset.yaml
var K8sMasterDaemonSet string

// Start is the manifest the playground opens with: FluentdDaemonSet and, for contrast, a
// two-replica nginx Deployment.
var Start = FluentdDaemonSet + "---\n" + webDeployment

// Files are the lessons: a directory per lesson ("07-node-failure") with lesson.yaml, en.yaml and
// zh-CN.yaml.
//
//go:embed */lesson.yaml */en.yaml */zh-CN.yaml
var Files embed.FS

//go:embed challenges/*/lesson.yaml challenges/*/en.yaml challenges/*/zh-CN.yaml
var challengeFiles embed.FS

// Challenges are the challenges, in the lessons' format (a directory each, "01-the-agent-skips-the-control-plane").
var Challenges = sub(challengeFiles, "challenges")

func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // dir is a constant, and a valid path
	}
	return s
}

// BuiltIn are the manifests a lesson's start can apply by name.
var BuiltIn = map[string]string{"fluentd": FluentdDaemonSet, "fluentd-k8s-master": K8sMasterDaemonSet, "web": webDeployment}
