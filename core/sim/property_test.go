package sim_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"daemonlab/core/api"
	"daemonlab/core/controller/daemon"
	"daemonlab/core/controller/tainteviction"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// The property tests drive the simulation with random sequences from seeds and check invariants
// after every step (TigerBeetle's VOPR in miniature):
//  1. PROPERTY_SEED sets the first seed (default 1, so `make test` always runs the same
//     sequences); PROPERTY_RUNS sets how many seeds, counting up from it.
//  2. Each test logs the seeds it ran; a failure names its seed, the commands to replay, and the
//     `go test` command that runs that seed alone.

var nodeNames = []string{"hd1", "hd2", "hd3", "hd4"}

func manifest(kind, name, extra string) string {
	switch kind {
	case "ds":
		return fmt.Sprintf("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: %s}\nspec:\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec:\n%s      containers: [{name: c, image: busybox:1.36}]\n", name, name, name, extra)
	case "deploy":
		return fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec:\n%s      containers: [{name: c, image: nginx:1.27}]\n", name, name, name, extra)
	}
	return fmt.Sprintf("apiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n%s  containers: [{name: c, image: nginx:1.27}]\n", name, extra)
}

var templateExtras = []string{
	"",
	"      tolerations: [{operator: Exists}]\n",
	"      nodeSelector: {disk: ssd}\n",
	"      tolerations: [{key: dedicated, operator: Exists, effect: NoExecute, tolerationSeconds: 20}]\n",
}

// step is one command of a sequence.
type step struct{ line, stdin string }

func randomStep(r *rand.Rand) step {
	node := nodeNames[r.IntN(len(nodeNames))]
	name := []string{"a", "b"}[r.IntN(2)]
	switch r.IntN(21) {
	case 0:
		return step{"kubectl apply -f -", manifest("ds", "ds-"+name, templateExtras[r.IntN(len(templateExtras))])}
	case 1:
		return step{"kubectl apply -f -", manifest("deploy", "web-"+name, templateExtras[r.IntN(len(templateExtras))])}
	case 2:
		return step{"kubectl apply -f -", manifest("pod", "pod-"+name, strings.ReplaceAll(templateExtras[r.IntN(len(templateExtras))], "      ", "  "))}
	case 3:
		return step{line: "kubectl delete " + []string{"ds ds-", "deploy web-", "pod pod-"}[r.IntN(3)] + name + " --ignore-not-found" + []string{"", " --cascade=orphan", " --cascade=foreground"}[r.IntN(3)]}
	case 4:
		return step{line: "kubectl taint nodes " + node + " dedicated=x:" + []string{"NoSchedule", "NoExecute", "PreferNoSchedule"}[r.IntN(3)] + " --overwrite"}
	case 5:
		return step{line: "kubectl taint nodes " + node + " dedicated-"}
	case 6:
		return step{line: "kubectl label nodes " + node + " disk=" + []string{"ssd", "hdd"}[r.IntN(2)] + " --overwrite"}
	case 7:
		return step{line: []string{"kubectl cordon ", "kubectl uncordon "}[r.IntN(2)] + node}
	case 8:
		return step{line: "kubectl drain " + node + " --ignore-daemonsets --force"}
	case 9:
		return step{line: "sim fail " + node + " " + []string{"kubelet-down", "not-ready", "memory-pressure", "disk-pressure", "network-unavailable"}[r.IntN(5)]}
	case 10:
		return step{line: "sim recover " + node}
	case 11:
		return step{line: "kubectl scale deploy web-" + name + " --replicas=" + strconv.Itoa(r.IntN(5))}
	case 12:
		return step{line: "sim add-node hd4 --label disk=ssd"}
	case 13:
		return step{line: "kubectl delete node " + node}
	case 14:
		return step{line: "sim image busybox:1.36 " + []string{"ok", "crash", "unready"}[r.IntN(3)]}
	case 15:
		return step{line: "kubectl set image " + []string{"ds/ds-", "deploy/web-"}[r.IntN(2)] + name + " *=busybox:1." + strconv.Itoa(36+r.IntN(2))}
	case 16:
		return step{line: "kubectl describe " + []string{"pods", "nodes", "ds", "deploy", "rs"}[r.IntN(5)] + " -A"}
	case 18:
		return step{line: "kubectl rollout " + []string{"undo", "restart", "history", "status --timeout=20s"}[r.IntN(4)] + " " + []string{"ds/ds-", "deploy/web-"}[r.IntN(2)] + name}
	case 19:
		return step{line: "kubectl label pods -l app=ds-" + name + " --field-selector spec.nodeName=" + node + " app=stray --overwrite"}
	case 17:
		return step{line: "kubectl get " + []string{"pods", "nodes", "events", "rs"}[r.IntN(4)] + " -A " + []string{"-o yaml", "-o json", "-o jsonpath={..name}", "--sort-by=.metadata.creationTimestamp", "--field-selector=metadata.namespace=default"}[r.IntN(5)]}
	}
	return step{line: "sim advance " + []string{"1s", "5s", "30s", "2m", "6m"}[r.IntN(5)]}
}

func dump(s *sim.Sim) string {
	var b strings.Builder
	for _, kind := range []string{"Node", "Pod", "DaemonSet", "Deployment", "ReplicaSet", "Event"} {
		for _, o := range s.C.ListKind(kind) {
			j, _ := json.Marshal(o)
			b.Write(j)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// before is what the checker remembers of the cluster before a step: the pods bound to a node,
// and those the taint manager had already evicted.
type before struct{ bound, evicted map[string]bool }

func observe(s *sim.Sim) before {
	b := before{bound: map[string]bool{}, evicted: map[string]bool{}}
	for _, p := range s.C.Pods() {
		b.bound[p.UID] = p.Spec.NodeName != ""
		for _, c := range p.Status.Conditions {
			if c.Type == "DisruptionTarget" && c.Reason == "DeletionByTaintManager" {
				b.evicted[p.UID] = true
			}
		}
	}
	return b
}

// checkInvariants returns what does not hold after a step, or "".
func checkInvariants(s *sim.Sim, was before) string {
	for _, ds := range s.C.DaemonSets() {
		perNode := map[string]int{}
		for _, p := range s.C.Pods() {
			ref, ok := api.ControllerOf(&p.ObjectMeta)
			if !ok || ref.UID != ds.UID || !api.IsPodActive(p) {
				continue
			}
			node, err := daemon.GetTargetNodeName(p)
			if err != nil {
				return fmt.Sprintf("daemon pod %s has no target node: %v", p.Name, err)
			}
			if perNode[node]++; perNode[node] > 1 && ds.Spec.UpdateStrategy.RollingUpdate != nil && intOrZero(ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge) == 0 {
				return fmt.Sprintf("DaemonSet %s has %d active pods on %s without surge", ds.Name, perNode[node], node)
			}
		}
	}
	for _, p := range s.C.Pods() {
		for _, cond := range p.Status.Conditions {
			if cond.Type == api.PodScheduled && cond.Status == api.ConditionTrue && !was.bound[p.UID] {
				if n := s.C.Node(p.Spec.NodeName); n != nil && !api.GetRequiredNodeAffinity(&p.Spec).Match(n) {
					return fmt.Sprintf("pod %s was bound to %s, which its node affinity does not match", p.Name, n.Name)
				}
			}
			if cond.Type == "DisruptionTarget" && cond.Reason == "DeletionByTaintManager" && !was.evicted[p.UID] {
				n := s.C.Node(p.Spec.NodeName)
				if n == nil {
					continue
				}
				var noExecute []api.Taint
				for _, t := range n.Spec.Taints {
					if t.Effect == api.TaintEffectNoExecute {
						noExecute = append(noExecute, t)
					}
				}
				if used, ok := tainteviction.MatchingTolerations(noExecute, p.Spec.Tolerations); ok && tainteviction.MinTolerationTime(used) < 0 {
					return fmt.Sprintf("pod %s tolerates every NoExecute taint of %s forever, yet was evicted", p.Name, n.Name)
				}
			}
		}
	}
	return ""
}

func intOrZero(v *api.IntOrString) int32 {
	if v == nil || v.IsString {
		return 0
	}
	return v.IntVal
}

// seeds are the seeds a property test runs: from PROPERTY_SEED (default 1), PROPERTY_RUNS of them
// (default runs), logged.
func seeds(t *testing.T, runs int) []uint64 {
	t.Helper()
	first := uint64(1)
	if v := os.Getenv("PROPERTY_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		require.NoError(t, err, "PROPERTY_SEED must be an unsigned integer")
		first = n
	}
	if v := os.Getenv("PROPERTY_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err, "PROPERTY_RUNS must be an integer")
		runs = n
	}
	t.Logf("seeds %d to %d (PROPERTY_SEED=%d PROPERTY_RUNS=%d)", first, first+uint64(runs)-1, first, runs)
	out := make([]uint64, runs)
	for i := range out {
		out[i] = first + uint64(i)
	}
	return out
}

// rerun is the command that runs seed alone in the test t.
func rerun(t *testing.T, seed uint64) string {
	t.Helper()
	return fmt.Sprintf("PROPERTY_SEED=%d PROPERTY_RUNS=1 go test ./core/sim -run '^%s$'", seed, t.Name())
}

func runSequence(t *testing.T, seed uint64, steps int) (string, []step) {
	r := rand.New(rand.NewPCG(seed, 7))
	s, err := sim.New(seed, sim.Default)
	require.NoError(t, err)
	var done []step
	for i := range steps {
		st := randomStep(r)
		done = append(done, st)
		was := observe(s)
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("seed %d step %d (%s) panicked: %v\nreplay: %s\nrerun: %s", seed, i+1, st.line, p, replay(done), rerun(t, seed))
				}
			}()
			shell.Run(s, st.line, st.stdin)
		}()
		if problem := checkInvariants(s, was); problem != "" {
			t.Fatalf("seed %d step %d (%s): %s\nreplay: %s\nrerun: %s", seed, i+1, st.line, problem, replay(done), rerun(t, seed))
		}
	}
	return dump(s), done
}

func replay(steps []step) string {
	var lines []string
	for _, s := range steps {
		lines = append(lines, s.line)
	}
	return strings.Join(lines, " ; ")
}

// TestRandomCommandSequencesKeepInvariants: no panic, the invariants above after every step, and
// the same seed gives byte-identical clusters. 2,000 sequences natively; 200 compiled to
// WebAssembly, where the same code runs several times slower.
func TestRandomCommandSequencesKeepInvariants(t *testing.T) {
	runs := 2000
	if runtime.GOOS == "js" {
		runs = 200
	}
	for _, seed := range seeds(t, runs) {
		first, done := runSequence(t, seed, 40)
		if seed%25 == 0 {
			again, _ := runSequence(t, seed, 40)
			require.Equal(t, first, again, "seed %d is not deterministic\nreplay: %s\nrerun: %s", seed, replay(done), rerun(t, seed))
		}
	}
}

// TestSnapshotRestoreReplays: restoring a snapshot and running the same commands again gives the
// same cluster, random draws included.
func TestSnapshotRestoreReplays(t *testing.T) {
	for _, seed := range seeds(t, 30) {
		r := rand.New(rand.NewPCG(seed, 9))
		s, err := sim.New(seed, sim.Default)
		require.NoError(t, err)
		for range 10 {
			st := randomStep(r)
			shell.Run(s, st.line, st.stdin)
		}
		snap := s.C.Snapshot()
		var tail []step
		for range 10 {
			tail = append(tail, randomStep(r))
		}
		play := func() string {
			var out strings.Builder
			for _, st := range tail {
				res := shell.Run(s, st.line, st.stdin)
				out.WriteString(res.Out + res.Err)
			}
			return out.String() + dump(s)
		}
		first := play()
		s.C.Restore(snap)
		require.Equal(t, first, play(), "seed %d\nrerun: %s", seed, rerun(t, seed))
	}
}

// TestRandomRolloutsKeepTheirBudget: random DaemonSet rolling updates — 3 to 12 nodes,
// maxUnavailable as a number or a percentage, or maxSurge with maxUnavailable 0, minReadySeconds
// 0 or 5, a new image that works, never becomes ready or crashes — checked at every timer of the
// clock, with no node failing: without surge, the nodes without an available daemon pod never
// outnumber maxUnavailable (a percentage of the desired nodes, rounded up); with surge, every node
// keeps an available pod throughout. A failure prints the seed and the commands to replay.
func TestRandomRolloutsKeepTheirBudget(t *testing.T) {
	for _, seed := range seeds(t, 60) {
		r := rand.New(rand.NewPCG(seed, 11))
		nodes := 3 + r.IntN(10)
		strategy := []string{"{maxUnavailable: 1}", "{maxUnavailable: 2}", "{maxUnavailable: 25%}", "{maxUnavailable: 50%}", "{maxSurge: 1, maxUnavailable: 0}", "{maxSurge: 30%, maxUnavailable: 0}"}[r.IntN(6)]
		minReady := []int{0, 5}[r.IntN(2)]
		behaviour := []string{"ok", "unready", "crash"}[r.IntN(3)]
		lines := []string{}
		for i := 4; i <= nodes; i++ {
			lines = append(lines, fmt.Sprintf("sim add-node hd%d", i))
		}
		lines = append(lines, "sim image busybox:1.37 "+behaviour)
		ds := fmt.Sprintf("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  minReadySeconds: %d\n  updateStrategy: {rollingUpdate: %s}\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      tolerations: [{operator: Exists}]\n      containers: [{name: c, image: busybox:1.36}]\n", minReady, strategy)
		s, err := sim.New(seed, sim.Default)
		require.NoError(t, err)
		for _, line := range lines {
			require.Zero(t, shell.Run(s, line, "").Code, line)
		}
		require.Zero(t, shell.Run(s, "kubectl apply -f -", ds).Code)
		s.Advance(time.Minute)
		require.Equal(t, nodes, availableNodes(s, int32(minReady)), "seed %d: the DaemonSet is not available before the update", seed)
		lines = append(lines, "kubectl apply -f - (agent, "+strategy+")", "sim advance 1m", "kubectl set image ds/agent c=busybox:1.37")
		require.Zero(t, shell.Run(s, "kubectl set image ds/agent c=busybox:1.37", "").Code)
		surge := strings.Contains(strategy, "maxSurge")
		budget := map[string]int{"{maxUnavailable: 1}": 1, "{maxUnavailable: 2}": 2,
			"{maxUnavailable: 25%}": (nodes*25 + 99) / 100, "{maxUnavailable: 50%}": (nodes*50 + 99) / 100}[strategy]
		for i := 0; i < 300 && s.Step(); i++ {
			available := availableNodes(s, int32(minReady))
			switch {
			case surge && available < nodes:
				t.Fatalf("seed %d (%d nodes, %s, image %s): only %d nodes serve during a surge update\nreplay: %s ; sim step ×%d\nrerun: %s", seed, nodes, strategy, behaviour, available, strings.Join(lines, " ; "), i+1, rerun(t, seed))
			case !surge && nodes-available > budget:
				t.Fatalf("seed %d (%d nodes, %s, image %s): %d nodes unavailable, budget %d\nreplay: %s ; sim step ×%d\nrerun: %s", seed, nodes, strategy, behaviour, nodes-available, budget, strings.Join(lines, " ; "), i+1, rerun(t, seed))
			}
		}
	}
}

// availableNodes counts the nodes with an available pod of the DaemonSet agent: Ready for
// minReadySeconds, not being deleted.
func availableNodes(s *sim.Sim, minReadySeconds int32) int {
	serving := map[string]bool{}
	for _, p := range s.C.Pods() {
		if p.Labels["app"] == "agent" && p.DeletionTimestamp == nil && api.IsPodAvailable(p, minReadySeconds, s.C.Now()) {
			serving[p.Spec.NodeName] = true
		}
	}
	return len(serving)
}
