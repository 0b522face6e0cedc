package cluster

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"time"

	"daemonlab/core/api"
)

// Event types.
const (
	EventNormal  = "Normal"
	EventWarning = "Warning"
)

// EventTTL is kube-apiserver's --event-ttl: an event disappears an hour after it last happened.
const EventTTL = time.Hour

// Record reports an event about obj from a component (host is the node, for the kubelet), as
// client-go's core/v1 event recorder does (tools/record, makeEvent and the EventCorrelator):
//
//  1. An event equal to an earlier one (same object, type, reason, message and source) is
//     counted: count goes up and lastTimestamp moves to now.
//  2. Otherwise a new Event is stored in the object's namespace ("default" for cluster-scoped
//     objects), named <object>.<hex nanoseconds>, with source, firstTimestamp and
//     lastTimestamp (now, in whole seconds, as the API server keeps them) and count 1, the
//     reporting component and instance copied from the source, and no eventTime.
func (c *Cluster) Record(obj api.Object, eventType, reason, message, component, host string) {
	c.RecordPart(obj, "", eventType, reason, message, component, host)
}

// RecordPart records an event about a part of an object, such as a pod's container
// ("spec.containers{nginx}"), which kubectl prints as the SUBOBJECT.
func (c *Cluster) RecordPart(obj api.Object, fieldPath, eventType, reason, message, component, host string) {
	ref := referenceTo(obj, fieldPath)
	now := api.NewTime(c.now.Truncate(time.Second))
	id := eventIdentity{eventNamespace(ref), ref.Kind, ref.Name, ref.UID, ref.FieldPath, eventType, reason, message, component, host}
	if found := c.findEvent(id); found != nil {
		repeat := *found
		repeat.Count++
		repeat.LastTimestamp = now
		repeat.InvolvedObject.ResourceVersion = ref.ResourceVersion
		_ = c.Update(&repeat)
		return
	}
	c.createEvent(&api.Event{InvolvedObject: ref, Reason: reason, Message: message, Source: api.EventSource{Component: component, Host: host},
		FirstTimestamp: now, LastTimestamp: now, Count: 1, Type: eventType, ReportingComponent: component, ReportingInstance: host})
}

// Report records an event about regarding (and the object it relates to, if any) as client-go's
// events.k8s.io/v1 recorder does (tools/events, makeEvent), seen through core/v1 as the API
// server converts it (pkg/apis/events/v1 Convert_v1_Event_To_core_Event):
//
//  1. The event is stored in regarding's namespace ("default" for cluster-scoped objects),
//     named <object>.<hex nanoseconds> as Record names it.
//  2. It has eventTime (now, in whole microseconds), the action, the related object, and the
//     reporting controller and instance; no source, firstTimestamp, lastTimestamp or count,
//     which core/v1 shows as "source: {}", null and nothing.
//  3. A repeat becomes a series only when type, action, reason, reporting controller and
//     instance and both references, resourceVersion included, are the same (getKey in
//     event_broadcaster.go). The scheduler, the one component here that reports this way,
//     reports a pod only with a write to it (its condition, its binding, its deletion), so no
//     two reports share a resourceVersion and every report is a new event.
func (c *Cluster) Report(regarding, related api.Object, eventType, reason, action, note, controller, instance string) {
	e := &api.Event{InvolvedObject: referenceTo(regarding, ""), Reason: reason, Message: note, Type: eventType, EventTime: api.NewMicroTime(c.now.Truncate(time.Microsecond)),
		Action: action, ReportingComponent: controller, ReportingInstance: instance}
	if related != nil {
		ref := referenceTo(related, "")
		e.Related = &ref
	}
	c.createEvent(e)
}

// referenceTo is client-go's reference.GetReference for obj, pointing at fieldPath within it.
func referenceTo(obj api.Object, fieldPath string) api.ObjectReference {
	meta, tm := obj.GetObjectMeta(), obj.GetTypeMeta()
	return api.ObjectReference{Kind: tm.Kind, Namespace: meta.Namespace, Name: meta.Name, UID: meta.UID, APIVersion: tm.APIVersion, ResourceVersion: meta.ResourceVersion, FieldPath: fieldPath}
}

// eventNamespace is where an event about ref lives: the object's namespace, or "default".
func eventNamespace(ref api.ObjectReference) string {
	if ref.Namespace == "" {
		return "default"
	}
	return ref.Namespace
}

// createEvent stores a new core/v1 Event about e.InvolvedObject.
func (c *Cluster) createEvent(e *api.Event) {
	e.TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: "Event"}
	e.Namespace = eventNamespace(e.InvolvedObject)
	e.Name = c.nextEventName(e.Namespace, e.InvolvedObject.Name)
	_ = c.Create(e)
}

// eventNames remembers, for the current instant, the first nanosecond not yet tried for each
// object's event names, so that many events about one object at one instant (a DaemonSet
// creating a pod per node) do not each try every name taken before them.
type eventNames struct {
	at   time.Time
	next map[Key]int64
}

// nextEventName is client-go's event name, <object>.<hex nanoseconds of now>, taking the next
// nanosecond while the name is taken (many events can share a simulated instant).
func (c *Cluster) nextEventName(ns, object string) string {
	if c.names.next == nil || !c.names.at.Equal(c.now) {
		c.names = eventNames{at: c.now, next: map[Key]int64{}}
	}
	k := Key{ns, object}
	nanos := max(c.names.next[k], c.now.UnixNano())
	for ; ; nanos++ {
		if name := fmt.Sprintf("%s.%x", object, nanos); c.Get("Event", Key{ns, name}) == nil {
			c.names.next[k] = nanos + 1
			return name
		}
	}
}

// eventIdentity is what makes two events the same one, counted rather than stored twice: the
// namespace, the object (kind, name, uid, part), the type, reason and message, and the source.
type eventIdentity [10]string

func identityOf(e *api.Event) eventIdentity {
	r := e.InvolvedObject
	return eventIdentity{e.Namespace, r.Kind, r.Name, string(r.UID), r.FieldPath, e.Type, e.Reason, e.Message, e.Source.Component, e.Source.Host}
}

// hash is FNV-64a over the parts, each length-prefixed so that no two lists of parts run
// together into the same bytes.
func (id eventIdentity) hash() uint64 {
	h := fnv.New64a()
	var n [8]byte
	for _, part := range id {
		binary.LittleEndian.PutUint64(n[:], uint64(len(part)))
		h.Write(n[:])
		h.Write([]byte(part))
	}
	return h.Sum64()
}

// findEvent returns the stored event with this identity, the first in List order if there are
// several, or nil. The index answers by hash; an event of another identity under the same hash
// (never seen, but possible) sends it to a scan of every event.
func (c *Cluster) findEvent(id eventIdentity) *api.Event {
	k, ok := c.eventIndex()[id.hash()]
	if !ok {
		return nil
	}
	if e, _ := c.Get("Event", k).(*api.Event); e != nil && identityOf(e) == id {
		return e
	}
	for _, e := range List[*api.Event](c) {
		if identityOf(e) == id {
			return e
		}
	}
	return nil
}

// eventIndex maps the hash of every stored event's identity to the first such event in List
// order, so that recording one costs a lookup rather than a scan of every event. Built when
// first needed (and after a restore) from the events in order, so that of two equal events the
// first is counted, as a scan would.
func (c *Cluster) eventIndex() map[uint64]Key {
	if c.events == nil {
		c.events = map[uint64]Key{}
		for _, e := range List[*api.Event](c) {
			if h := identityOf(e).hash(); c.events[h] == (Key{}) {
				c.events[h] = KeyOf(e)
			}
		}
	}
	return c.events
}

// indexEvent keeps the index in step with a write: was is the event stored before (nil for a
// create), now the one stored after (nil for a delete). Other kinds are ignored. Counting a
// repeat keeps its identity and so its place; an indexed event that is deleted or changes
// identity may leave an equal one to take its place, so the index is rebuilt when next needed.
func (c *Cluster) indexEvent(now, was api.Object) {
	wasEvent, _ := was.(*api.Event)
	nowEvent, _ := now.(*api.Event)
	if wasEvent != nil && nowEvent == nil {
		c.names = eventNames{} // a deleted event frees its name
	}
	if c.events == nil {
		return // not built yet: it will be built from the store
	}
	if wasEvent != nil {
		h := identityOf(wasEvent).hash()
		if c.events[h] == KeyOf(wasEvent) && (nowEvent == nil || identityOf(nowEvent) != identityOf(wasEvent)) {
			c.events = nil
			return
		}
	}
	if nowEvent != nil {
		if h := identityOf(nowEvent).hash(); c.events[h] == (Key{}) {
			c.events[h] = KeyOf(nowEvent)
		}
	}
}

// ExpireEvents deletes the events whose last occurrence (LastSeen) is EventTTL or more in the
// past. Events
// expire only as the clock moves (a new one is stamped now), so a second call at the same
// instant has nothing to do.
func (c *Cluster) ExpireEvents() {
	if c.expiredAt.Equal(c.now) && !c.expiredAt.IsZero() {
		return
	}
	c.expiredAt = c.now
	for _, e := range List[*api.Event](c) {
		if !c.now.Before(e.LastSeen().Add(EventTTL)) {
			c.Delete(e)
		}
	}
}
