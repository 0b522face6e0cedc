package api

import (
	"slices"
	"strconv"
)

// RequiredNodeAffinity is what a pod requires of a node: its nodeSelector and its required node
// affinity terms (nodeaffinity.GetRequiredNodeAffinity in component-helpers).
type RequiredNodeAffinity struct {
	nodeSelector map[string]string
	terms        []NodeSelectorTerm
	hasTerms     bool
}

// GetRequiredNodeAffinity returns the node requirements of a pod spec.
func GetRequiredNodeAffinity(spec *PodSpec) RequiredNodeAffinity {
	r := RequiredNodeAffinity{nodeSelector: spec.NodeSelector}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		r.terms = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
		r.hasTerms = true
	}
	return r
}

// MatchesEveryNode reports whether the requirements accept any node: there is no nodeSelector
// and no required node affinity.
func (r RequiredNodeAffinity) MatchesEveryNode() bool {
	return len(r.nodeSelector) == 0 && !r.hasTerms
}

// Match reports whether node meets the requirements:
//
//  1. Every nodeSelector key=value must be a label of the node.
//  2. If required terms are given, at least one term must match (terms are ORed; an empty list
//     matches nothing).
//  3. A term matches when all its matchExpressions (over labels) and matchFields (over
//     metadata.name) match; a term with neither matches nothing; a term that does not parse
//     (bad operator, key or values) matches nothing.
func (r RequiredNodeAffinity) Match(node *Node) bool {
	for k, v := range r.nodeSelector {
		if got, ok := node.Labels[k]; !ok || got != v {
			return false
		}
	}
	if !r.hasTerms {
		return true
	}
	for _, term := range r.terms {
		if termMatches(term, node) {
			return true
		}
	}
	return false
}

func termMatches(term NodeSelectorTerm, node *Node) bool {
	if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
		return false
	}
	for _, e := range term.MatchExpressions {
		ok, valid := nodeRequirementMatches(e, node.Labels)
		if !valid || !ok {
			return false
		}
	}
	for _, f := range term.MatchFields {
		if !fieldRequirementMatches(f, node) {
			return false
		}
	}
	return true
}

// fieldRequirementMatches evaluates a matchFields expression as a field selector over the node's
// one selectable field, metadata.name: In and NotIn with exactly one value compare it (a field
// the node lacks reads as ""); anything else does not parse and matches nothing.
func fieldRequirementMatches(f NodeSelectorRequirement, node *Node) bool {
	if len(f.Values) != 1 {
		return false
	}
	got := ""
	if f.Key == "metadata.name" {
		got = node.Name
	}
	switch f.Operator {
	case NodeSelectorOpIn:
		return got == f.Values[0]
	case NodeSelectorOpNotIn:
		return got != f.Values[0]
	}
	return false
}

// nodeRequirementMatches evaluates one expression; valid is false when it does not parse as a
// label requirement (nodeSelectorRequirementsAsSelector).
func nodeRequirementMatches(e NodeSelectorRequirement, labels map[string]string) (ok, valid bool) {
	var op Operator
	vals := e.Values
	switch e.Operator {
	case NodeSelectorOpIn:
		op = OpIn
	case NodeSelectorOpNotIn:
		op = OpNotIn
	case NodeSelectorOpExists:
		op = OpExists
	case NodeSelectorOpDoesNotExist:
		op = OpDoesNotExist
	case NodeSelectorOpGt, NodeSelectorOpLt:
		op = OpGreaterThan
		if e.Operator == NodeSelectorOpLt {
			op = OpLessThan
		}
		if len(vals) != 1 {
			return false, false
		}
		if _, err := strconv.ParseInt(vals[0], 10, 64); err != nil {
			return false, false
		}
	default:
		return false, false
	}
	req, err := NewRequirement(e.Key, op, slices.Clone(vals), nil)
	if err != nil {
		return false, false
	}
	return req.Matches(labels), true
}
