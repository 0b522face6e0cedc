package cluster

import (
	"fmt"
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
	for _, e := range List[*api.Event](c) {
		if e.Namespace == ns && sameEvent(e, ref, eventType, reason, message, component, host) {
			repeat := *e
			repeat.Count++
			repeat.LastTimestamp = now
			repeat.InvolvedObject.ResourceVersion = ref.ResourceVersion
			_ = c.Update(&repeat)
			return
		}
	}
	e := &api.Event{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Event"}, InvolvedObject: ref, Reason: reason, Message: message,
		Source: api.EventSource{Component: component, Host: host}, FirstTimestamp: now, LastTimestamp: now, Count: 1, Type: eventType,
		ReportingComponent: component, ReportingInstance: host}
	e.Namespace = ns
	for nanos := c.now.UnixNano(); ; nanos++ {
		e.Name = fmt.Sprintf("%s.%x", meta.Name, nanos)
		if c.Get("Event", Key{ns, e.Name}) == nil {
			break
		}
	}
	_ = c.Create(e)
}

func sameEvent(e *api.Event, ref api.ObjectReference, eventType, reason, message, component, host string) bool {
	o := e.InvolvedObject
	return o.Kind == ref.Kind && o.Name == ref.Name && o.UID == ref.UID && o.FieldPath == ref.FieldPath && e.Type == eventType && e.Reason == reason &&
		e.Message == message && e.Source.Component == component && e.Source.Host == host
}

// ExpireEvents deletes the events whose last occurrence is EventTTL or more in the past.
func (c *Cluster) ExpireEvents() {
	for _, e := range List[*api.Event](c) {
		if !c.now.Before(e.LastTimestamp.Add(EventTTL)) {
			c.Delete(e)
		}
	}
}
