package cluster

import (
	"fmt"
	"strconv"
	"strings"
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
// client-go's event recorder does:
//
//  1. An event equal to an earlier one (same object, type, reason, message and source) is
//     counted: count goes up and lastTimestamp moves to now.
//  2. Otherwise a new Event is stored in the object's namespace ("default" for cluster-scoped
//     objects), named <object>.<hex nanoseconds>.
func (c *Cluster) Record(obj api.Object, eventType, reason, message, component, host string) {
	c.RecordPart(obj, "", eventType, reason, message, component, host)
}

// RecordPart records an event about a part of an object, such as a pod's container
// ("spec.containers{nginx}"), which kubectl prints as the SUBOBJECT.
func (c *Cluster) RecordPart(obj api.Object, fieldPath, eventType, reason, message, component, host string) {
	meta, tm := obj.GetObjectMeta(), obj.GetTypeMeta()
	ref := api.ObjectReference{Kind: tm.Kind, Namespace: meta.Namespace, Name: meta.Name, UID: meta.UID, APIVersion: tm.APIVersion, ResourceVersion: meta.ResourceVersion, FieldPath: fieldPath}
	ns := meta.Namespace
	if ns == "" {
		ns = "default"
	}
	now := api.NewTime(c.now)
	if k, ok := c.eventIndex()[eventKey(ns, ref, eventType, reason, message, component, host)]; ok {
		repeat := *c.objects["Event"][k].(*api.Event)
		repeat.Count++
		repeat.LastTimestamp = now
		repeat.InvolvedObject.ResourceVersion = ref.ResourceVersion
		_ = c.Update(&repeat)
		return
	}
	e := &api.Event{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Event"}, InvolvedObject: ref, Reason: reason, Message: message,
		Source: api.EventSource{Component: component, Host: host}, FirstTimestamp: now, LastTimestamp: now, Count: 1, Type: eventType,
		ReportingComponent: component, ReportingInstance: host}
	e.Namespace = ns
	e.Name = c.nextEventName(ns, meta.Name)
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

// eventKey is what makes two events the same one, counted rather than stored twice: the
// namespace, the object (kind, name, uid, part), the type, reason and message, and the source.
func eventKey(ns string, ref api.ObjectReference, eventType, reason, message, component, host string) string {
	var b strings.Builder
	for _, part := range []string{ns, ref.Kind, ref.Name, string(ref.UID), ref.FieldPath, eventType, reason, message, component, host} {
		b.WriteString(strconv.Itoa(len(part))) // length-prefixed: no two lists of parts give one key
		b.WriteByte(':')
		b.WriteString(part)
	}
	return b.String()
}

func keyOfEvent(e *api.Event) string {
	return eventKey(e.Namespace, e.InvolvedObject, e.Type, e.Reason, e.Message, e.Source.Component, e.Source.Host)
}

// eventIndex maps every stored event's eventKey to the event, so that recording one costs a
// lookup rather than a scan of every event. Built when first needed (and after a restore) from
// the events in order, so that of two equal events the first is counted, as a scan would.
func (c *Cluster) eventIndex() map[string]Key {
	if c.events == nil {
		c.events = map[string]Key{}
		for _, e := range List[*api.Event](c) {
			if k := keyOfEvent(e); c.events[k] == (Key{}) {
				c.events[k] = keyOf(e)
			}
		}
	}
	return c.events
}

// indexEvent keeps the index in step with a write: was is the event stored before (nil for a
// create), now the one stored after (nil for a delete). Other kinds are ignored.
func (c *Cluster) indexEvent(now, was api.Object) {
	if _, ok := was.(*api.Event); ok && now == nil {
		c.names = eventNames{} // a deleted event frees its name
	}
	if c.events == nil {
		return // not built yet: it will be built from the store
	}
	if e, ok := was.(*api.Event); ok && c.events[keyOfEvent(e)] == keyOf(e) {
		c.events = nil // another equal event may take its place: rebuild when next needed
		return
	}
	if e, ok := now.(*api.Event); ok {
		if _, taken := c.events[keyOfEvent(e)]; !taken {
			c.events[keyOfEvent(e)] = keyOf(e)
		}
	}
}

// ExpireEvents deletes the events whose last occurrence is EventTTL or more in the past.
func (c *Cluster) ExpireEvents() {
	for _, e := range List[*api.Event](c) {
		if !c.now.Before(e.LastTimestamp.Add(EventTTL)) {
			c.Delete(e)
		}
	}
}
