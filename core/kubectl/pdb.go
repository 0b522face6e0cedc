package kubectl

import (
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
