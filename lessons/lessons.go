// Package lessons holds DaemonLab's guided lessons as data, embedded into the page, and the
// start state of the free playground.
package lessons

import _ "embed"

// FluentdDaemonSet is the DaemonSet tutorial's fluentd log collector (namespace kube-system,
// tolerating the control-plane taint).
//
//go:embed start/fluentd-elasticsearch.yaml
var FluentdDaemonSet string

//go:embed start/web.yaml
var webDeployment string

// Start is the manifest the playground opens with: FluentdDaemonSet and, for contrast, a
// two-replica nginx Deployment.
var Start = FluentdDaemonSet + "---\n" + webDeployment
