package kubectl

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/sim"
)

// priorityClassColumns are printPriorityClass's (pkg/printers/internalversion/printers.go): the
// API server prints its tables wide (printers/storage TableConvertor), so PREEMPTIONPOLICY is
// always there, after AGE.
var priorityClassColumns = []column[*api.PriorityClass]{
	{header: "NAME", cell: func(pc *api.PriorityClass, _ time.Time) string { return pc.Name }},
	{header: "VALUE", cell: func(pc *api.PriorityClass, _ time.Time) string { return itoa(pc.Value) }},
	{header: "GLOBAL-DEFAULT", cell: func(pc *api.PriorityClass, _ time.Time) string { return strconv.FormatBool(pc.GlobalDefault) }},
	{header: "AGE", cell: func(pc *api.PriorityClass, now time.Time) string { return age(pc.CreationTimestamp, now) }},
	{header: "PREEMPTIONPOLICY", cell: func(pc *api.PriorityClass, _ time.Time) string { return deref(pc.PreemptionPolicy) }},
}

// describePriorityClass is kubectl's describePriorityClass (pkg/describe/describe.go): name,
// value, globalDefault, preemption policy, description, the annotations as one k=v,k=v line
// (labels.FormatLabels: kubectl's last-applied configuration included, <none> when there are
// none), then the events.
func describePriorityClass(s *sim.Sim, obj api.Object, events bool) string {
	pc := obj.(*api.PriorityClass)
	return tabbed(func(w describeWriter) {
		w.write(0, "Name:\t%s\n", pc.Name)
		w.write(0, "Value:\t%v\n", pc.Value)
		w.write(0, "GlobalDefault:\t%v\n", pc.GlobalDefault)
		w.write(0, "PreemptionPolicy:\t%s\n", deref(pc.PreemptionPolicy))
		w.write(0, "Description:\t%s\n", pc.Description)
		w.write(0, "Annotations:\t%s\n", api.FormatLabels(pc.Annotations))
		if events {
			describeEvents(w, eventsAbout(s.C, pc, false), s.C.Now())
		}
	})
}

var createPriorityClassFlags = slices.Concat(dryRunFlags, []FlagSpec{{Name: "value", Check: IsInt32}, {Name: "global-default", Boolean: true}, {Name: "description"}, {Name: "preemption-policy"}})

// createPriorityClass is kubectl create priorityclass NAME [--value=N] [--global-default]
// [--description=TEXT] [--preemption-policy=POLICY] (create_priorityclass.go):
//
//  1. One name; --value is an int32 (0 when not given), --global-default a boolean,
//     --preemption-policy PreemptLowerPriority unless given. kubectl checks none of them:
//     the API server does (validation, and the Priority plugin for a second global default).
//  2. The class is sent (or, with --dry-run=client, printed) with every field set, the
//     preemption policy included; a refusal reads "error: failed to create priorityclass: …".
func createPriorityClass(s *sim.Sim, args []string) Result {
	f, err := ParseFlags("create priorityclass", args, createPriorityClassFlags)
	if err != nil {
		return Result{Err: err.Error(), Code: 1}
	}
	name, bad := onlyName(f, "kubectl create priorityclass")
	if bad != nil {
		return *bad
	}
	value, bad := int32Flag(f, "value", 0)
	if bad != nil {
		return *bad
	}
	policy := api.PreemptLowerPriority
	if f.Has("preemption-policy") {
		policy = f.Get("preemption-policy") // an empty one too: the API server says it is required
	}
	pc := &api.PriorityClass{TypeMeta: api.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"}}
	pc.Name, pc.Value, pc.GlobalDefault, pc.Description, pc.PreemptionPolicy = name, value, f.IsTrue("global-default"), f.Get("description"), &policy
	return createObject(s, f, pc, kindOf("PriorityClass"), func(err error) string {
		return fmt.Sprintf("error: failed to create priorityclass: %v", err)
	})
}
