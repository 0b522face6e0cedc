package kubelet

import (
	"fmt"
	"strings"
	"time"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
)

// Behaviour is how the containers of an image behave once started (`sim image`).
type Behaviour string

const (
	BehaviourOK      Behaviour = "ok"      // runs and is ready
	BehaviourCrash   Behaviour = "crash"   // exits with code 1 at once: CrashLoopBackOff
	BehaviourUnready Behaviour = "unready" // runs, never ready
)

// Behaviours lists them in `sim help` order.
var Behaviours = []Behaviour{BehaviourOK, BehaviourCrash, BehaviourUnready}

// The kubelet's container restart back-off as newCrashLoopBackOff makes it at v1.37
// (pkg/kubelet/kubelet.go): flowcontrol.NewBackOff(10s, 5m) — ReduceDefaultCrashLoopBackOffDecay
// (1s, 1m) is alpha and off; KubeletCrashLoopBackOffMax is beta and on, with the default
// crashLoopBackOff.maxContainerRestartPeriod of 5m — and an entry that expires when more than
// 600s pass from its last update to the container's next exit (its HasExpiredFunc).
const (
	initialBackOff = 10 * time.Second
	maxBackOff     = 300 * time.Second
	backOffExpiry  = 600 * time.Second
)

// backOffKey is GetBackoffKey (pkg/kubelet/kuberuntime/helpers.go) for what DaemonLab lets
// change: the pod's uid and the container's name.
type backOffKey struct{ pod, container string }

// backOffEntry is client-go util/flowcontrol/backoff.go's backoffEntry.
type backOffEntry struct {
	backoff    time.Duration
	lastUpdate time.Time
}

// crashLoopBackOff is the kubelets' crashLoopBackOff, an entry per container.
var crashLoopBackOff = cluster.NewMemo[backOffKey, backOffEntry]("kubelet/crash-loop-back-off")

// backOffOf returns a container's entry for its exit at ts, if the node's kubelet has one that
// has not expired: one from before the kubelet (re)started went with the old process.
func backOffOf(c *cluster.Cluster, m cluster.Machine, key backOffKey, ts time.Time) (backOffEntry, bool) {
	e, ok := crashLoopBackOff.Get(c, key)
	if !ok || e.lastUpdate.Before(m.RenewFrom) || ts.Sub(e.lastUpdate) > backOffExpiry {
		return backOffEntry{}, false
	}
	return e, true
}

// restartDue returns when the kubelet restarts a container waiting in CrashLoopBackOff: its
// exit plus its entry's back-off, or at once without an entry.
func restartDue(c *cluster.Cluster, m cluster.Machine, p *api.Pod, cs api.ContainerStatus) (time.Time, bool) {
	exit := cs.LastState.Terminated
	if w := cs.State.Waiting; w == nil || w.Reason != "CrashLoopBackOff" || exit == nil {
		return time.Time{}, false
	}
	if e, ok := backOffOf(c, m, backOffKey{string(p.UID), cs.Name}, exit.FinishedAt.Time); ok {
		return exit.FinishedAt.Add(e.backoff), true
	}
	return exit.FinishedAt.Time, true
}

// imageBehaviour is how the containers of an image behave and how long they take to start.
type imageBehaviour struct {
	behaviour Behaviour
	startup   time.Duration
}

// images are the behaviours `sim image` set, by image.
var images = cluster.NewMemo[string, imageBehaviour]("kubelet/image")

// SetImage records how containers of an image behave and how long they take to start.
func SetImage(c *cluster.Cluster, image string, b Behaviour, startup time.Duration) {
	images.Set(c, image, imageBehaviour{b, startup})
}

// behaviourOf returns an image's behaviour: ok and a 3s start-up unless set.
func behaviourOf(c *cluster.Cluster, image string) imageBehaviour {
	if b, ok := images.Get(c, image); ok {
		return b
	}
	return imageBehaviour{BehaviourOK, StartupDelay}
}

// podStartup is how long a pod takes from binding to running: its slowest container's image.
func podStartup(c *cluster.Cluster, p *api.Pod) time.Duration {
	var d time.Duration
	for _, ctr := range p.Spec.Containers {
		d = max(d, behaviourOf(c, ctr.Image).startup)
	}
	return d
}

// normalisedImage is the reference containerd reports a container's image by (its repo tag),
// the reference distribution/reference's ParseDockerRef makes of the spec's:
//
//  1. A first path component without "." or ":", not "localhost" and all lower case is no
//     registry: the image is on docker.io ("index.docker.io" is docker.io too), and a
//     single-component name there is under library/.
//  2. A digest is kept, and a tag beside it dropped.
//  3. A name with neither tag nor digest is :latest.
//
// It returns the name (registry and path) and the whole reference.
func normalisedImage(image string) (name, ref string) {
	name, digest, hasDigest := strings.Cut(image, "@")
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		name, ref = name[:i], name[i:]
	}
	domain, rest, found := strings.Cut(name, "/")
	if !found || !strings.ContainsAny(domain, ".:") && domain != "localhost" && strings.ToLower(domain) == domain {
		domain, rest = "docker.io", name
	}
	if domain == "index.docker.io" {
		domain = "docker.io"
	}
	if domain == "docker.io" && !strings.Contains(rest, "/") {
		rest = "library/" + rest
	}
	name = domain + "/" + rest
	switch {
	case hasDigest:
		ref = "@" + digest
	case ref == "":
		ref = ":latest"
	}
	return name, name + ref
}

// imageStatus is a started container's image and imageID as a containerd node reports them:
// the normalised reference, and the repo digest (name@sha256:…) — the reference's own digest,
// or, as DaemonLab pulls nothing, one made from the normalised reference, the same on every
// node and in every run.
func imageStatus(image string) (ref, id string) {
	name, ref := normalisedImage(image)
	if _, digest, ok := strings.Cut(ref, "@"); ok {
		return ref, name + "@" + digest
	}
	return ref, name + "@sha256:" + machineID(ref, "image") + machineID(ref, "image-digest")
}

// started is the status of a container that started at `at` (its restarts-th restart), as its
// image behaves: running and ready, running and not ready, or exited at once with code 1. last is
// the state it ended in before.
func started(c *cluster.Cluster, ctr api.Container, restarts int32, at api.Time, last api.ContainerState) api.ContainerStatus {
	yes := true
	cs := api.ContainerStatus{Name: ctr.Name, Started: &yes, RestartCount: restarts, LastState: last,
		ContainerID: "containerd://" + c.RandomHex(64)}
	cs.Image, cs.ImageID = imageStatus(ctr.Image)
	switch behaviourOf(c, ctr.Image).behaviour {
	case BehaviourCrash:
		no := false
		cs.Started = &no
		cs.State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, Reason: "Error", StartedAt: at, FinishedAt: at}}
	case BehaviourUnready:
		cs.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: at}}
	default:
		cs.Ready = true
		cs.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: at}}
	}
	return cs
}

// syncContainer is what the kubelet's SyncPod does at now with a container that exited
// (computePodActions and doBackOff, pkg/kubelet/kuberuntime/kuberuntime_manager.go), until the
// container runs or waits:
//
//  1. Without a back-off entry (its first exit), or with one that expired, the kubelet restarts
//     it at once and sets the entry to 10s (backOff.Next).
//  2. Within the entry's back-off since the exit the container waits in CrashLoopBackOff,
//     "back-off 10s restarting failed container=app pod=web_default(uid)", its exit its last
//     state.
//  3. After it, the kubelet restarts it and doubles the entry, at most 5m.
//
// It returns the status and how many times the container started.
func syncContainer(c *cluster.Cluster, m cluster.Machine, p *api.Pod, ctr api.Container, cs api.ContainerStatus, now time.Time) (api.ContainerStatus, int) {
	starts := 0
	key := backOffKey{string(p.UID), ctr.Name}
	exit := cs.State.Terminated
	if exit == nil {
		return cs, 0
	}
	e, ok := backOffOf(c, m, key, exit.FinishedAt.Time)
	for ; exit != nil; exit = cs.State.Terminated {
		if ok && now.Before(exit.FinishedAt.Add(e.backoff)) {
			cs.LastState, cs.State = cs.State, api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff",
				Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s_%s(%s)", e.backoff, ctr.Name, p.Name, p.Namespace, p.UID)}}
			break
		}
		next := initialBackOff
		if ok {
			next = min(2*e.backoff, maxBackOff)
		}
		e, ok = backOffEntry{next, now}, true
		crashLoopBackOff.Set(c, key, e)
		cs = started(c, ctr, cs.RestartCount+1, api.NewTime(now), cs.State)
		starts++
	}
	return cs, starts
}

// restartAt returns when the kubelet next restarts a crashed container of the pod.
func restartAt(c *cluster.Cluster, p *api.Pod) (time.Time, bool) {
	if p.Status.Phase != api.PodRunning || p.DeletionTimestamp != nil {
		return time.Time{}, false
	}
	var next time.Time
	found := false
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Waiting == nil {
			continue // running: most pods
		}
		m, _ := c.Machine(p.Spec.NodeName)
		if t, ok := restartDue(c, m, p, cs); ok && (!found || t.Before(next)) {
			next, found = t, true
		}
	}
	return next, found
}

// restartCrashed restarts the crashed containers whose back-off is over (syncContainer).
func restartCrashed(c *cluster.Cluster, p *api.Pod) bool {
	now := c.Now()
	if due, ok := restartAt(c, p); !ok || due.After(now) {
		return false // nothing to restart: no copy
	}
	m, _ := c.Machine(p.Spec.NodeName)
	next := api.DeepCopy(p)
	starts := make([]int, len(p.Spec.Containers))
	for i, cs := range p.Status.ContainerStatuses {
		if due, ok := restartDue(c, m, p, cs); ok && !due.After(now) {
			cs.State = cs.LastState // the runtime's view: exited
			next.Status.ContainerStatuses[i], starts[i] = syncContainer(c, m, p, p.Spec.Containers[i], cs, now)
		}
	}
	if updateStatus(c, next) != nil {
		return false
	}
	recordStarts(c, next, starts)
	return true
}

// recordStarts records what a v1.37 kubelet reports as it starts a pod's containers, each as
// many times as it started (see recordContainerStart), and BackOff, "Back-off restarting failed
// container app in pod web_default(uid)", for each that waits in CrashLoopBackOff
// (kuberuntime_manager.go doBackOff).
func recordStarts(c *cluster.Cluster, p *api.Pod, starts []int) {
	for i, ctr := range p.Spec.Containers {
		for range starts[i] {
			recordContainerStart(c, p, ctr)
		}
		if starts[i] > 0 && p.Status.ContainerStatuses[i].State.Waiting != nil {
			c.RecordPart(p, "spec.containers{"+ctr.Name+"}", cluster.EventWarning, "BackOff", "Back-off restarting failed container "+ctr.Name+" in pod "+p.Name+"_"+p.Namespace+"("+string(p.UID)+")", "kubelet", p.Spec.NodeName)
		}
	}
}
