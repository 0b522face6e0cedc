package upstreamtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"sigs.k8s.io/yaml"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
	"daemonlab/core/cluster"
	"daemonlab/core/scheduler"
)

// manifests writes a case's objects as one multi-document YAML stream, what a client sends:
// the form DaemonLab's side starts from (kubectl apply -f), and what a failing case prints.
func manifests(c *schedulingCase) ([]byte, error) {
	var buf bytes.Buffer
	for i, obj := range c.objects() {
		doc, err := manifest(obj)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteString("---\n")
		}
		buf.Write(doc)
	}
	return buf.Bytes(), nil
}

// manifest writes one object as a client would: without the empty values k8s.io/api's types
// always write (metadata.creationTimestamp: null, an empty spec or status, a node's
// daemonEndpoints and nodeInfo, a workload's status, a container's resources: {}), and nothing
// else left out, as an empty selector and an absent one differ.
func manifest(obj any) ([]byte, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if meta, ok := doc["metadata"].(map[string]any); ok && meta["creationTimestamp"] == nil {
		delete(meta, "creationTimestamp")
	}
	if status, ok := doc["status"].(map[string]any); ok {
		delete(status, "daemonEndpoints")
		delete(status, "nodeInfo")
		if doc["kind"] != "Node" && doc["kind"] != "Pod" {
			delete(doc, "status")
		}
	}
	if spec, ok := doc["spec"].(map[string]any); ok {
		if tmpl, ok := spec["template"].(map[string]any); ok {
			spec = tmpl["spec"].(map[string]any)
		}
		containers, _ := spec["containers"].([]any)
		for _, c := range containers {
			if c := c.(map[string]any); len(c["resources"].(map[string]any)) == 0 {
				delete(c, "resources")
			}
		}
	}
	for _, key := range []string{"spec", "status"} {
		if m, ok := doc[key].(map[string]any); ok && len(m) == 0 {
			delete(doc, key)
		}
	}
	return yaml.Marshal(doc)
}

// createDaemonLab decodes the case's manifests as kubectl apply -f does and creates each object
// through DaemonLab's API server into a cluster that has only the namespaces the API server
// makes, then deletes the terminating pods: the cluster, every pod as stored (the pending one
// last), and the pending pod.
func createDaemonLab(c *schedulingCase) (*cluster.Cluster, []any, *api.Pod, error) {
	data, err := manifests(c)
	if err != nil {
		return nil, nil, nil, err
	}
	ms, err := api.Decode(data)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("decode: %w", err)
	}
	cl := cluster.New(c.seed)
	if err := apiserver.CreateSystemNamespaces(cl); err != nil {
		return nil, nil, nil, err
	}
	var pending api.Object
	var pods []any
	for _, m := range ms {
		obj, err := apiserver.Create(cl, m.Object, apiserver.Options{})
		if err != nil {
			return nil, nil, nil, fmt.Errorf("create %s %s: %w", m.Kind.Kind, m.Object.GetObjectMeta().Name, err)
		}
		if p, ok := obj.(*api.Pod); ok {
			pods = append(pods, p)
		}
		pending = obj
	}
	podKind, _ := api.KindFor("v1", "Pod")
	for _, i := range c.terminating {
		key := cluster.Key{Namespace: c.pods[i].Namespace, Name: c.pods[i].Name}
		if _, err := apiserver.Delete(cl, podKind, key, apiserver.DeleteOptions{}); err != nil {
			return nil, nil, nil, fmt.Errorf("delete pod %s: %w", key.Name, err)
		}
		if deleted, ok := cl.Get("Pod", key).(*api.Pod); !ok || deleted.DeletionTimestamp == nil {
			return nil, nil, nil, fmt.Errorf("pod %s is not terminating after its delete", key.Name)
		}
	}
	p, ok := pending.(*api.Pod)
	if !ok {
		return nil, nil, nil, fmt.Errorf("the last object is a %T, not the pending pod", pending)
	}
	if p.Spec.NodeName != "" {
		return nil, nil, nil, fmt.Errorf("the pending pod is bound to %s", p.Spec.NodeName)
	}
	return cl, pods, p, nil
}

// explainDaemonLab creates the case's objects in DaemonLab (createDaemonLab) and asks its
// scheduler to explain one scheduling attempt of the pending pod.
func explainDaemonLab(c *schedulingCase) (*outcome, error) {
	cl, pods, p, err := createDaemonLab(c)
	if err != nil {
		return nil, err
	}
	ex := scheduler.Explain(cl, p)
	out := &outcome{pods: schedulingFields(pods), verdicts: map[string]verdict{}, message: ex.Message, best: slices.Sorted(slices.Values(ex.Best)), weights: map[string]int64{}, totals: map[string]int64{}}
	for _, n := range ex.Nodes {
		if n.Verdict.Plugin != "" {
			out.verdicts[n.Node] = verdict{plugin: n.Verdict.Plugin, reasons: n.Verdict.Reasons}
			continue
		}
		out.feasible = append(out.feasible, n.Node)
		out.totals[n.Node] = n.Total
		if len(n.Scores) == 0 {
			continue
		}
		if out.scores == nil {
			out.scores = map[string]map[string]int64{}
		}
		out.scores[n.Node] = map[string]int64{}
		for _, s := range n.Scores {
			out.scores[n.Node][s.Plugin] = s.Score * s.Weight
			out.weights[s.Plugin] = s.Weight
		}
	}
	slices.Sort(out.feasible)
	return out, nil
}
