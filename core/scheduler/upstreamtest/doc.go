// Package upstreamtest holds the differential test of DaemonLab's scheduler against the real
// kube-scheduler v1.37.2, run in-process with its default profile: random small clusters and
// pending pods, each given to both, every node's filter verdict, the FitError message, the
// nodes of the top score and each plugin's score compared (scheduler_test.go). The same cases
// test the kubelet's admission of the pending pod bound to each node through spec.nodeName
// against kubelet v1.37.2's predicate and critical pod admission handlers (kubelet_test.go).
//
// It is a module of its own so that k8s.io/kubernetes, which the test needs whole (the
// framework, its plugins, the API server's defaulting, admission and pod strategy, the kubelet's
// admit handlers), never
// enters the product's go.mod. `make test-upstream` runs it; UPSTREAM_CASES, UPSTREAM_SEED,
// UPSTREAM_FEATURES and UPSTREAM_SHOW steer it (see settings).
package upstreamtest
