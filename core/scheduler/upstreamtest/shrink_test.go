package upstreamtest

import (
	"maps"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// clone is a deep copy of the case.
func (c *schedulingCase) clone() *schedulingCase {
	return &schedulingCase{seed: c.seed, namespaces: deepCopies(c.namespaces), nodes: deepCopies(c.nodes),
		replicaSets: deepCopies(c.replicaSets), statefulSets: deepCopies(c.statefulSets), services: deepCopies(c.services),
		pods: deepCopies(c.pods), terminating: slices.Clone(c.terminating), pod: c.pod.DeepCopy()}
}

func deepCopies[T interface{ DeepCopy() T }](s []T) []T {
	var out []T
	for _, o := range s {
		out = append(out, o.DeepCopy())
	}
	return out
}

// deletePod removes the i-th bound pod, and renumbers the terminating ones after it.
func (c *schedulingCase) deletePod(i int) {
	c.pods = slices.Delete(c.pods, i, i+1)
	var terminating []int
	for _, t := range c.terminating {
		switch {
		case t < i:
			terminating = append(terminating, t)
		case t > i:
			terminating = append(terminating, t-1)
		}
	}
	c.terminating = terminating
}

// shrink makes a failing case smaller while it still fails in the given category, greedily:
// it tries each simplification (see simplifications) and keeps those after which the case
// still fails so, until none is left that does. What it returns is the smallest example of the
// disagreement it found, for a person to read.
func shrink(t *testing.T, c *schedulingCase, category string) *schedulingCase {
	t.Helper()
	stillFails := func(cand *schedulingCase) bool {
		return slices.ContainsFunc(compare(t, cand, &stats{}), func(m mismatch) bool { return m.category == category })
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(simplifications(c)); i++ {
			cand := c.clone()
			simplifications(cand)[i]()
			if same(cand, c) || !stillFails(cand) {
				continue
			}
			c, changed = cand, true
			i-- // the list is shorter by what went: the next one is at i
		}
	}
	return c
}

// same tells whether two cases have the same objects and deletes.
func same(a, b *schedulingCase) bool { return scenario(a) == scenario(b) }

// simplifications lists every way to make c smaller by one step, as edits of c itself, in an
// order that takes the biggest steps first: whole objects, then the pending pod's rules, then
// what is left of each object.
func simplifications(c *schedulingCase) []func() {
	var out []func()
	for i := range c.nodes {
		if len(c.nodes) > 1 {
			out = append(out, func() {
				name := c.nodes[i].Name
				c.nodes = slices.Delete(c.nodes, i, i+1)
				for j := len(c.pods) - 1; j >= 0; j-- {
					if c.pods[j].Spec.NodeName == name {
						c.deletePod(j)
					}
				}
			})
		}
	}
	for i := range c.pods {
		out = append(out, func() { c.deletePod(i) })
	}
	out = append(out, deletions(&c.terminating)...)
	out = append(out, deletions(&c.services)...)
	out = append(out, deletions(&c.replicaSets)...)
	out = append(out, deletions(&c.statefulSets)...)
	for i, ns := range c.namespaces {
		used := c.pod.Namespace == ns.Name || slices.ContainsFunc(c.pods, func(p *corev1.Pod) bool { return p.Namespace == ns.Name })
		if !used {
			out = append(out, func() { c.namespaces = slices.Delete(c.namespaces, i, i+1) })
		}
	}
	out = append(out, podSimplifications(c.pod)...)
	for _, p := range c.pods {
		out = append(out, podSimplifications(p)...)
	}
	for _, n := range c.nodes {
		out = append(out, deletions(&n.Spec.Taints)...)
		if n.Spec.Unschedulable {
			out = append(out, func() { n.Spec.Unschedulable = false })
		}
		for _, k := range slices.Sorted(maps.Keys(n.Labels)) {
			if k != hostnameKey {
				out = append(out, func() { delete(n.Labels, k) })
			}
		}
	}
	return out
}

func pointers[T any](s []T) []*T {
	out := make([]*T, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}

// deletions are the edits that each delete one element of a list.
func deletions[T any](list *[]T) []func() {
	out := make([]func(), len(*list))
	for i := range out {
		out[i] = func() { *list = slices.Delete(*list, i, i+1) }
	}
	return out
}

// podSimplifications lists the ways to make one pod smaller: its rules, its owner, its
// containers, their ports and each of their requests and limits, and its labels.
func podSimplifications(p *corev1.Pod) []func() {
	var out []func()
	if a := p.Spec.Affinity; a != nil {
		out = append(out, func() { p.Spec.Affinity = nil })
		if a.NodeAffinity != nil {
			out = append(out, func() { a.NodeAffinity = nil })
		}
		if pa := a.PodAffinity; pa != nil {
			out = append(out, func() { a.PodAffinity = nil })
			out = append(out, deletions(&pa.RequiredDuringSchedulingIgnoredDuringExecution)...)
			out = append(out, deletions(&pa.PreferredDuringSchedulingIgnoredDuringExecution)...)
		}
		if anti := a.PodAntiAffinity; anti != nil {
			out = append(out, func() { a.PodAntiAffinity = nil })
			out = append(out, deletions(&anti.RequiredDuringSchedulingIgnoredDuringExecution)...)
			out = append(out, deletions(&anti.PreferredDuringSchedulingIgnoredDuringExecution)...)
		}
	}
	out = append(out, deletions(&p.Spec.TopologySpreadConstraints)...)
	out = append(out, deletions(&p.Spec.Tolerations)...)
	if p.Spec.NodeSelector != nil {
		out = append(out, func() { p.Spec.NodeSelector = nil })
	}
	if p.OwnerReferences != nil {
		out = append(out, func() { p.OwnerReferences = nil })
	}
	if p.Spec.HostNetwork {
		out = append(out, func() { p.Spec.HostNetwork = false })
	}
	if len(p.Spec.Containers) > 1 {
		out = append(out, deletions(&p.Spec.Containers)...)
	}
	out = append(out, deletions(&p.Spec.InitContainers)...)
	for _, c := range slices.Concat(pointers(p.Spec.Containers), pointers(p.Spec.InitContainers)) {
		if c.Ports != nil {
			out = append(out, func() { c.Ports = nil })
		}
		for _, list := range []corev1.ResourceList{c.Resources.Requests, c.Resources.Limits} {
			for _, name := range slices.Sorted(maps.Keys(list)) {
				out = append(out, func() { delete(list, name) })
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(p.Labels)) {
		out = append(out, func() { delete(p.Labels, k) })
	}
	return out
}
