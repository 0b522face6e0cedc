// Package lessons holds DaemonLab's guided lessons as data, embedded into the page, and the
// start state of the free playground.
package lessons

import _ "embed"

// Start is the manifest the playground opens with: the DaemonSet tutorial's fluentd log
// collector (namespace kube-system, tolerating the control-plane taint) and, for contrast, a
// two-replica nginx Deployment.
//
//go:embed start/playground.yaml
var Start string
