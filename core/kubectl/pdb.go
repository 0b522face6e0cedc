package kubectl

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/sim"
)

// pdbColumns are printPodDisruptionBudget's (pkg/printers/internalversion/printers.go): a bound
// that is not set prints N/A.
var pdbColumns = []column[*api.PodDisruptionBudget]{
	{header: "NAME", cell: func(p *api.PodDisruptionBudget, _ time.Time) string { return p.Name }},
	{header: "MIN AVAILABLE", cell: func(p *api.PodDisruptionBudget, _ time.Time) string { return orNA(p.Spec.MinAvailable) }},
	{header: "MAX UNAVAILABLE", cell: func(p *api.PodDisruptionBudget, _ time.Time) string { return orNA(p.Spec.MaxUnavailable) }},
	{header: "ALLOWED DISRUPTIONS", cell: func(p *api.PodDisruptionBudget, _ time.Time) string { return itoa(p.Status.DisruptionsAllowed) }},
	{header: "AGE", cell: func(p *api.PodDisruptionBudget, now time.Time) string { return age(p.CreationTimestamp, now) }},
}

func orNA(v *api.IntOrString) string {
	if v == nil {
		return "N/A"
	}
	return v.String()
}

// describePodDisruptionBudget is kubectl's describePodDisruptionBudgetV1: the bound that is
// set (minAvailable first), the selector, and the status' four counts.
func describePodDisruptionBudget(s *sim.Sim, obj api.Object, events bool) string {
	pdb := obj.(*api.PodDisruptionBudget)
	return tabbed(func(w describeWriter) {
		w.write(0, "Name:\t%s\n", pdb.Name)
		w.write(0, "Namespace:\t%s\n", pdb.Namespace)
		if pdb.Spec.MinAvailable != nil {
			w.write(0, "Min available:\t%s\n", pdb.Spec.MinAvailable)
		} else if pdb.Spec.MaxUnavailable != nil {
			w.write(0, "Max unavailable:\t%s\n", pdb.Spec.MaxUnavailable)
		}
		if pdb.Spec.Selector != nil {
			w.write(0, "Selector:\t%s\n", api.FormatLabelSelector(pdb.Spec.Selector))
		} else {
			w.write(0, "Selector:\t<unset>\n")
		}
		st := pdb.Status
		w.write(0, "Status:\n")
		w.write(2, "Allowed disruptions:\t%d\n", st.DisruptionsAllowed)
		w.write(2, "Current:\t%d\n", st.CurrentHealthy)
		w.write(2, "Desired:\t%d\n", st.DesiredHealthy)
		w.write(2, "Total:\t%d\n", st.ExpectedPods)
		if events {
			describeEvents(w, eventsAbout(s.C, pdb, false), s.C.Now())
		}
	})
}

var createPDBFlags = slices.Concat(dryRunFlags, []FlagSpec{{Name: "min-available"}, {Name: "max-unavailable"}, {Name: "selector"}})

// createPodDisruptionBudget is kubectl create poddisruptionbudget NAME --selector=SELECTOR
// --min-available=N (create_pdb.go):
//
//  1. A name, a selector and exactly one of --min-available and --max-unavailable, each a number
//     or a percentage.
//  2. The selector is parsed as -l is (ParseToLabelSelector): equality into matchLabels, the
//     set-based requirements into matchExpressions; != and the comparisons are refused.
func createPodDisruptionBudget(s *sim.Sim, args []string) Result {
	f, err := ParseFlags("create poddisruptionbudget", args, createPDBFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	name, bad := onlyName(f, "kubectl create poddisruptionbudget")
	if bad != nil {
		return *bad
	}
	minAvailable, maxUnavailable, selector := f.Get("min-available"), f.Get("max-unavailable"), f.Get("selector")
	number := regexp.MustCompile(`^[0-9]+%?$`)
	var problem string
	switch {
	case selector == "":
		problem = "a selector must be specified"
	case minAvailable == "" && maxUnavailable == "":
		problem = "one of min-available or max-unavailable must be specified"
	case minAvailable != "" && maxUnavailable != "":
		problem = "min-available and max-unavailable cannot be both specified"
	case minAvailable != "" && !number.MatchString(minAvailable):
		problem = "invalid format specified for min-available"
	case maxUnavailable != "" && !number.MatchString(maxUnavailable):
		problem = "invalid format specified for max-unavailable"
	}
	if problem != "" {
		return Result{Err: "error: " + problem, Code: 1}
	}
	ls, err := parseToLabelSelector(selector)
	if err != nil {
		return Result{Err: "error: " + err.Error(), Code: 1}
	}
	pdb := &api.PodDisruptionBudget{TypeMeta: api.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"}}
	pdb.Name, pdb.Namespace, pdb.Spec.Selector = name, f.Get("namespace"), ls
	bound := &pdb.Spec.MinAvailable
	if maxUnavailable != "" {
		bound, minAvailable = &pdb.Spec.MaxUnavailable, maxUnavailable
	}
	v := api.FromString(minAvailable) // intstr.Parse: a number is an int
	if n, err := strconv.Atoi(minAvailable); err == nil {
		v = api.FromInt(int32(n))
	}
	*bound = &v
	return createObject(s, f, pdb, kindOf("PodDisruptionBudget"), func(err error) string {
		return "error: failed to create poddisruptionbudgets: " + err.Error()
	})
}

// parseToLabelSelector is metav1.ParseToLabelSelector.
func parseToLabelSelector(s string) (*api.LabelSelector, error) {
	sel, err := api.ParseSelector(s)
	if err != nil {
		return nil, fmt.Errorf("couldn't parse the selector string \"%s\": %v", s, err)
	}
	ls := &api.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []api.LabelSelectorRequirement{}}
	ops := map[api.Operator]api.LabelSelectorOperator{api.OpIn: api.LabelSelectorOpIn, api.OpNotIn: api.LabelSelectorOpNotIn,
		api.OpExists: api.LabelSelectorOpExists, api.OpDoesNotExist: api.LabelSelectorOpDoesNotExist}
	for _, r := range sel.Requirements {
		switch op, ok := ops[r.Operator]; {
		case r.Operator == api.OpEquals || r.Operator == api.OpDoubleEquals:
			ls.MatchLabels[r.Key] = r.Values[0]
		case ok:
			ls.MatchExpressions = append(ls.MatchExpressions, api.LabelSelectorRequirement{Key: r.Key, Operator: op, Values: r.Values})
		case r.Operator == api.OpGreaterThan || r.Operator == api.OpLessThan:
			return nil, fmt.Errorf("%q isn't supported in label selectors", r.Operator)
		default:
			return nil, fmt.Errorf("%q is not a valid label selector operator", r.Operator)
		}
	}
	return ls, nil
}
