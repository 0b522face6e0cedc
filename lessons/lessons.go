// Package lessons holds DaemonLab's guided lessons as data and the start state of the free
// playground. It is data only: core/lesson parses and runs it. The lessons are linked in
// natively and in every test (files.go); the page's build (tag lazydata) links in only the start
// state, and fetches the lessons as lessons.json (see playground.PackLessons).
package lessons

import _ "embed"

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

// BuiltIn are the manifests a lesson's start can apply by name.
var BuiltIn = map[string]string{"fluentd": FluentdDaemonSet, "fluentd-k8s-master": K8sMasterDaemonSet, "web": webDeployment}
