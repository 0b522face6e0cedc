package kubectl

import (
	"slices"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/explain"
	"daemonlab/core/sim"
)

// commandFlags are the flags of each command DaemonLab runs, for completion and for reading a
// command line (ParseInvocation); a command not listed takes none.
var commandFlags = map[string][]FlagSpec{
	"annotate":                   annotateFlags,
	"api-resources":              apiResourcesFlags,
	"apply":                      applyFlags,
	"create":                     applyFlags,
	"delete":                     deleteFlags,
	"describe":                   describeFlags,
	"drain":                      drainFlags,
	"edit":                       editFlags,
	"events":                     eventsFlags,
	"explain":                    explainFlags,
	"get":                        getFlags,
	"label":                      labelFlags,
	"patch":                      patchFlags,
	"replace":                    replaceFlags,
	"run":                        runFlags,
	"create deployment":          createDeploymentFlag,
	"create namespace":           dryRunFlags,
	"create poddisruptionbudget": createPDBFlags,
	"create priorityclass":       createPriorityClassFlags,
	"top node":                   topFlags,
	"top pod":                    topFlags,
	"rollout history":            slices.Concat(rolloutCommonFlags, rolloutHistoryFlags),
	"rollout pause":              rolloutCommonFlags,
	"rollout restart":            rolloutCommonFlags,
	"rollout resume":             rolloutCommonFlags,
	"rollout status":             slices.Concat(rolloutCommonFlags, rolloutStatusFlags),
	"rollout undo":               slices.Concat(rolloutCommonFlags, rolloutUndoFlags),
	"scale":                      scaleFlags,
	"set image":                  setImageFlags,
	"taint":                      taintFlags,
	"version":                    versionFlags,
}

// flagValues are the values offered after a flag that takes one.
var flagValues = map[string][]string{
	"output":            {"json", "yaml", "wide", "name", "jsonpath=", "jsonpath-as-json=", "custom-columns="},
	"dry-run":           {"none", "client", "server"},
	"restart":           {"Always", "OnFailure", "Never"},
	"type":              {"strategic", "merge", "json"},
	"cascade":           {"background", "foreground", "orphan"},
	"sort-by":           {"name", "kind"},
	"preemption-policy": {"PreemptLowerPriority", "Never"},
}

// positional says what a command's positional arguments are: "type" then "names" of that
// type, "type/name", or "nodes"; explain's is a field path.
var positional = map[string]string{
	"get": "type", "describe": "type", "delete": "type", "label": "type", "annotate": "type", "patch": "type", "scale": "type", "set image": "type/name",
	"rollout history": "type/name", "rollout pause": "type/name", "rollout restart": "type/name",
	"rollout resume": "type/name", "rollout status": "type/name", "rollout undo": "type/name",
	"cordon": "nodes", "uncordon": "nodes", "drain": "nodes", "taint": "type", "explain": "field", "help": "command",
}

// Complete returns what can stand for the last of words, a kubectl command line after
// "kubectl" whose last word is being typed ("" when a blank was just typed): commands and
// subcommands, flags (after "-"), values of -n, -o and --cascade, resource types, the names of
// objects of the type given (in the namespace of -n), nodes, and explain's field paths. The
// candidates are whole words, sorted.
func Complete(s *sim.Sim, words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	partial := words[len(words)-1]
	done := words[:len(words)-1]
	if len(done) == 0 {
		return WithPrefix(Commands(), partial)
	}
	path := done[0]
	rest := done[1:]
	if path == "rollout" || path == "set" || path == "create" && (len(rest) == 0 || subcommandNames["create"][rest[0]] != "") {
		if len(rest) == 0 {
			var subs []string
			for _, t := range HelpTopics() {
				if sub, ok := strings.CutPrefix(t, path+" "); ok {
					subs = append(subs, sub)
				}
			}
			return WithPrefix(subs, partial)
		}
		path, rest = path+" "+orDefault(subcommandNames[path][rest[0]], rest[0]), rest[1:]
	}
	specs := commandFlags[path]
	f, err := ParseFlags(path, rest, specs)
	if err != nil {
		// The words so far end with a flag that wants a value: offer its values.
		if spec, ok := lastFlag(rest, specs); ok {
			return WithPrefix(valuesOf(s, spec.Name), partial)
		}
		return nil
	}
	if strings.HasPrefix(partial, "-") {
		var names []string
		for _, spec := range specs {
			names = append(names, "--"+spec.Name)
		}
		return WithPrefix(names, partial)
	}
	namespace := orDefault(f.Get("namespace"), "default")
	switch kind := positional[path]; {
	case kind == "command":
		return WithPrefix(HelpTopics()[1:], partial)
	case kind == "nodes":
		return WithPrefix(objectNames(s, "Node", ""), partial)
	case kind == "field":
		return WithPrefix(fieldPaths(partial), partial)
	case kind == "type/name" || kind == "type" && strings.Contains(partial, "/"):
		return WithPrefix(typedNames(s, namespace, path), partial)
	case kind == "type" && len(f.Args) == 0:
		types := resourceTypes()
		if path == "taint" {
			types = []string{"nodes"}
		}
		return WithPrefix(types, partial)
	case kind == "type":
		if r, ok := findResource(strings.Split(f.Args[0], ",")[0]); ok {
			return WithPrefix(objectNames(s, r.kind.Kind, namespace), partial)
		}
	}
	return nil
}

// lastFlag returns the flag the last word names, if it takes a value and has none.
func lastFlag(words []string, specs []FlagSpec) (FlagSpec, bool) {
	if len(words) == 0 {
		return FlagSpec{}, false
	}
	last := words[len(words)-1]
	for _, spec := range specs {
		if !spec.Boolean && (last == "--"+spec.Name || spec.Shorthand != 0 && last == "-"+string(spec.Shorthand)) {
			return spec, true
		}
	}
	return FlagSpec{}, false
}

func valuesOf(s *sim.Sim, flag string) []string {
	if flag == "namespace" {
		return objectNames(s, "Namespace", "")
	}
	return flagValues[flag]
}

// resourceTypes are the resource types by their plural names.
func resourceTypes() []string {
	var out []string
	for _, r := range resources {
		out = append(out, r.kind.Resource)
	}
	return out
}

// objectNames lists the names of a kind's objects (in namespace, for a namespaced kind).
func objectNames(s *sim.Sim, kind, namespace string) []string {
	var out []string
	for _, o := range s.C.ListKind(kind) {
		if m := o.GetObjectMeta(); namespace == "" || m.Namespace == namespace || m.Namespace == "" {
			out = append(out, m.Name)
		}
	}
	return out
}

// typedNames offers TYPE/NAME words: the types a command takes, each with its objects' names.
func typedNames(s *sim.Sim, namespace, command string) []string {
	var out []string
	for _, r := range resources {
		if strings.HasPrefix(command, "rollout") && r.kind.Kind != "DaemonSet" && r.kind.Kind != "Deployment" {
			continue
		}
		for _, name := range objectNames(s, r.kind.Kind, namespaceOf(r.kind, namespace)) {
			out = append(out, r.kind.Resource+"/"+name)
			if len(r.aliases) > 0 && r.aliases[0] != strings.ToLower(r.kind.Kind) {
				out = append(out, r.aliases[0]+"/"+name) // the short name, as learners type ds/agent
			}
		}
	}
	return out
}

func namespaceOf(k api.Kind, namespace string) string {
	if k.Namespaced {
		return namespace
	}
	return ""
}

// fieldPaths offers explain's next path element: "ds.spec.up" gives "ds.spec.updateStrategy."
// (a field with fields of its own ends in "."), "ds.spec.minR" gives "ds.spec.minReadySeconds".
func fieldPaths(partial string) []string {
	parts := strings.Split(partial, ".")
	if len(parts) == 1 {
		return resourceTypes()
	}
	r, ok := findResource(parts[0])
	if !ok {
		return nil
	}
	var out []string
	prefix := strings.Join(parts[:len(parts)-1], ".") + "."
	parent := parts[1 : len(parts)-1]
	for _, field := range explain.Fields(r.kind, parent) {
		if len(explain.Fields(r.kind, append(slices.Clone(parent), field))) > 0 {
			field += "." // it has fields of its own: the path goes on
		}
		out = append(out, prefix+field)
	}
	return out
}

// WithPrefix keeps the candidates that start with prefix, sorted and without repeats.
func WithPrefix(candidates []string, prefix string) []string {
	var out []string
	for _, c := range candidates {
		if strings.HasPrefix(c, prefix) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}
