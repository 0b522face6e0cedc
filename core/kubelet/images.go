package kubelet

import (
	"fmt"
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

// The container restart back-off: 10s, doubling, at most 5 minutes (MaxContainerBackOff).
const (
	initialBackOff = 10 * time.Second
	maxBackOff     = 300 * time.Second
)

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

// backOff returns the wait before restart number restarts+1 (10s, 20s, 40s, … 5m).
func backOff(restarts int32) time.Duration {
	d := initialBackOff
	for range restarts {
		if d *= 2; d >= maxBackOff {
			return maxBackOff
		}
	}
	return d
}

// containerStatus is a started container's status for its image's behaviour: running and ready,
// running and not ready, or crashed and waiting in CrashLoopBackOff with its last exit.
func containerStatus(c *cluster.Cluster, p *api.Pod, ctr api.Container, restarts int32, at api.Time) api.ContainerStatus {
	yes := true
	cs := api.ContainerStatus{Name: ctr.Name, Image: ctr.Image, ImageID: ctr.Image, Started: &yes, RestartCount: restarts,
		ContainerID: "containerd://" + c.RandomHex(64)}
	switch behaviourOf(c, ctr.Image).behaviour {
	case BehaviourCrash:
		no := false
		cs.Started = &no
		cs.LastState = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, Reason: "Error", StartedAt: at, FinishedAt: at}}
		cs.State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff",
			Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s_%s(%s)", backOff(restarts), ctr.Name, p.Name, p.Namespace, p.UID)}}
	case BehaviourUnready:
		cs.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: at}}
	default:
		cs.Ready = true
		cs.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: at}}
	}
	return cs
}

// restartAt returns when the kubelet next restarts a crashed container of the pod.
func restartAt(p *api.Pod) (time.Time, bool) {
	if p.Status.Phase != api.PodRunning || p.DeletionTimestamp != nil {
		return time.Time{}, false
	}
	var next time.Time
	found := false
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w == nil || w.Reason != "CrashLoopBackOff" || cs.LastState.Terminated == nil {
			continue
		}
		t := cs.LastState.Terminated.FinishedAt.Add(backOff(cs.RestartCount))
		if !found || t.Before(next) {
			next, found = t, true
		}
	}
	return next, found
}

// restartCrashed restarts the crashed containers whose back-off is over; they crash again at
// once, with one more restart and a doubled back-off.
func restartCrashed(c *cluster.Cluster, p *api.Pod) bool {
	now := c.Now()
	if due, ok := restartAt(p); !ok || due.After(now) {
		return false // nothing to restart: no copy
	}
	next := api.DeepCopy(p)
	var restarted []api.Container
	for i, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w == nil || w.Reason != "CrashLoopBackOff" || cs.LastState.Terminated == nil {
			continue
		}
		if cs.LastState.Terminated.FinishedAt.Add(backOff(cs.RestartCount)).After(now) {
			continue
		}
		next.Status.ContainerStatuses[i] = containerStatus(c, p, p.Spec.Containers[i], cs.RestartCount+1, api.NewTime(now))
		restarted = append(restarted, p.Spec.Containers[i])
	}
	if len(restarted) == 0 || c.Update(next) != nil {
		return false
	}
	for _, ctr := range restarted {
		recordContainerStart(c, next, ctr)
	}
	if crashed := firstCrashed(next); crashed != "" {
		c.RecordPart(next, "spec.containers{"+crashed+"}", cluster.EventWarning, "BackOff", "Back-off restarting failed container "+crashed+" in pod "+p.Name+"_"+p.Namespace+"("+string(p.UID)+")", "kubelet", p.Spec.NodeName)
	}
	return true
}

func firstCrashed(p *api.Pod) string {
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && w.Reason == "CrashLoopBackOff" {
			return cs.Name
		}
	}
	return ""
}
