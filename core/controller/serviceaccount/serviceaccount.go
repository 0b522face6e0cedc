// Package serviceaccount is kube-controller-manager's serviceaccount-controller
// (pkg/controller/serviceaccount/serviceaccounts_controller.go): it keeps the default service
// account in every namespace.
package serviceaccount

import (
	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
)

// Sync is syncNamespace for every namespace, in name order:
//
//  1. A namespace that is not Active (Terminating) is left alone.
//  2. One without the service account "default" gets it (apiserver.DefaultServiceAccount),
//     whether it was just made or the service account was deleted.
//
// It reports whether it created anything.
func Sync(c *cluster.Cluster) bool {
	changed := false
	for _, ns := range cluster.List[*api.Namespace](c) {
		if ns.Status.Phase != "Active" || ns.DeletionTimestamp != nil {
			continue
		}
		if c.Get("ServiceAccount", cluster.Key{Namespace: ns.Name, Name: api.DefaultServiceAccountName}) != nil {
			continue
		}
		if _, err := apiserver.Create(c, apiserver.DefaultServiceAccount(ns.Name), apiserver.Options{}); err == nil {
			changed = true
		}
	}
	return changed
}
