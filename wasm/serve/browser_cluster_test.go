package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserStartsOnKubeadmsClusterAndImportsARealOne: a learner picks kubeadm's starting
// cluster (the session before one click away) and sees what kubeadm runs (kube-proxy on every node, the control plane's pods on
// hd1); then imports a real cluster's dump from a file, and the cards show its nodes, the
// terminal what came in; undo brings the cluster before back.
func TestBrowserStartsOnKubeadmsClusterAndImportsARealOne(t *testing.T) {
	b, _ := openPlayground(t)
	b.run(t, "kubectl cordon hd2")
	eval[bool](t, b, `(() => { const s = document.getElementById('cluster'); s.value = 'kubeadm';
		return s.dispatchEvent(new Event('change')); })()`)
	b.idle(t)
	pods := b.podsByNode(t)
	for _, node := range []string{"hd1", "hd2", "hd3"} {
		assert.Contains(t, strings.Join(pods[node], " "), "kube-proxy-", node)
	}
	assert.Contains(t, pods["hd1"], "etcd-hd1")
	b.screenshot(t, "cluster-kubeadm")
	assert.Equal(t, "kubeadm", eval[string](t, b, `document.getElementById('cluster').value`))
	assert.Equal(t, 1, eval[int](t, b, `document.querySelectorAll('#notice-actions button').length`), "the session before is one click away")

	dump := `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: prod-a, labels: {kubernetes.io/hostname: prod-a}, resourceVersion: "77"}
  status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
- apiVersion: v1
  kind: Node
  metadata: {name: prod-b, labels: {kubernetes.io/hostname: prod-b}}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: settings, namespace: default}
`
	file := filepath.Join(t.TempDir(), "prod.yaml")
	require.NoError(t, os.WriteFile(file, []byte(dump), 0o644))
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SetUploadFiles(chromedp.CSS(`#cluster-file`), []string{file})))
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`!!document.querySelector('[data-node="prod-a"]')`, chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, "the dump's nodes are the cluster")
	assert.Nil(t, b.podsByNode(t)["hd1"])
	terminal := b.text(t, "#terminal")
	assert.Contains(t, terminal, "$ sim import -f prod.yaml")
	assert.Contains(t, terminal, "Imported 2 nodes.")
	assert.Contains(t, terminal, "1 configmap (DaemonLab does not model them)")
	b.screenshot(t, "cluster-imported")

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#undo`))))
	b.idle(t)
	assert.NotNil(t, b.podsByNode(t)["hd1"], "undo brings the cluster before back")
	assert.Empty(t, b.consoleErrors())
}
