package kubectl

import (
	"time"

	"daemonlab/core/api"
	"daemonlab/core/sim"
)

// serviceAccountColumns are printServiceAccount's (pkg/printers/internalversion/printers.go):
// the name and the age.
var serviceAccountColumns = []column[*api.ServiceAccount]{
	{header: "NAME", cell: func(sa *api.ServiceAccount, _ time.Time) string { return sa.Name }},
	{header: "AGE", cell: func(sa *api.ServiceAccount, now time.Time) string { return age(sa.CreationTimestamp, now) }},
}

// describeServiceAccount is kubectl's describeServiceAccount (pkg/describe/describe.go): name,
// namespace, labels, annotations, then "Image pull secrets:" with one name a line (the later
// ones under an empty header of the same width) or <none>, and the events.
func describeServiceAccount(s *sim.Sim, obj api.Object, events bool) string {
	sa := obj.(*api.ServiceAccount)
	return tabbed(func(w describeWriter) {
		w.write(0, "Name:\t%s\n", sa.Name)
		w.write(0, "Namespace:\t%s\n", sa.Namespace)
		labelsMultiline(w, "Labels", sa.Labels)
		annotationsMultiline(w, "Annotations", sa.Annotations)
		const pullHeader, emptyHeader = "Image pull secrets:", "                   "
		if len(sa.ImagePullSecrets) == 0 {
			w.write(0, "%s\t<none>\n", pullHeader)
		}
		for i, secret := range sa.ImagePullSecrets {
			header := pullHeader
			if i > 0 {
				header = emptyHeader
			}
			w.write(0, "%s\t%s\n", header, secret.Name)
		}
		if events {
			describeEvents(w, eventsAbout(s.C, sa, false), s.C.Now())
		}
	})
}
