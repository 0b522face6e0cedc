package api

// ToleratesTaint reports whether t tolerates taint, as Toleration.ToleratesTaint in k8s.io/api:
//
//  1. An empty toleration effect matches every effect; otherwise the effects must be equal.
//  2. An empty toleration key matches every key (validation only allows it with Exists);
//     otherwise the keys must be equal, case-sensitively.
//  3. Exists matches any value; Equal or an empty operator needs equal values.
//  4. Any other operator matches nothing (Lt and Gt sit behind an alpha gate that is off).
//
// tolerationSeconds plays no part here.
func (t *Toleration) ToleratesTaint(taint *Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", TolerationOpEqual:
		return t.Value == taint.Value
	case TolerationOpExists:
		return true
	}
	return false
}

// MatchToleration reports whether two tolerations are the same one: equal key, operator, value
// and effect (helper.MatchToleration; tolerationSeconds is not compared).
func (t *Toleration) MatchToleration(o *Toleration) bool {
	return t.Key == o.Key && t.Effect == o.Effect && t.Operator == o.Operator && t.Value == o.Value
}

// TolerationsTolerateTaint reports whether any of tols tolerates taint.
func TolerationsTolerateTaint(tols []Toleration, taint *Taint) bool {
	for i := range tols {
		if tols[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

// FindMatchingUntoleratedTaint returns the first taint, in the node's order, that passes filter
// and that no toleration tolerates (v1helper.FindMatchingUntoleratedTaint).
func FindMatchingUntoleratedTaint(taints []Taint, tols []Toleration, filter func(*Taint) bool) (Taint, bool) {
	for i := range taints {
		if filter != nil && !filter(&taints[i]) {
			continue
		}
		if !TolerationsTolerateTaint(tols, &taints[i]) {
			return taints[i], true
		}
	}
	return Taint{}, false
}

// String renders a taint as kubectl does: key=value:Effect, key:Effect, key=value: or key.
func (t Taint) String() string {
	if t.Effect == "" {
		if t.Value == "" {
			return t.Key
		}
		return t.Key + "=" + t.Value + ":"
	}
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}
