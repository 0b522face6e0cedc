package api

import (
	"encoding/json"
	"strconv"
	"time"
)

// DaemonSet runs a copy of a pod on every node that matches (apps/v1).
type DaemonSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       DaemonSetSpec   `json:"spec"`
	Status     DaemonSetStatus `json:"status"`
}

// DaemonSetSpec is the desired state of a DaemonSet.
type DaemonSetSpec struct {
	Selector             *LabelSelector          `json:"selector"`
	Template             PodTemplateSpec         `json:"template"`
	UpdateStrategy       DaemonSetUpdateStrategy `json:"updateStrategy"`
	MinReadySeconds      int32                   `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit *int32                  `json:"revisionHistoryLimit,omitempty"`
}

// DaemonSetUpdateStrategyType is RollingUpdate or OnDelete.
type DaemonSetUpdateStrategyType string

const (
	RollingUpdateDaemonSetStrategyType DaemonSetUpdateStrategyType = "RollingUpdate"
	OnDeleteDaemonSetStrategyType      DaemonSetUpdateStrategyType = "OnDelete"
)

// DaemonSetUpdateStrategy says how pods are replaced when the template changes.
type DaemonSetUpdateStrategy struct {
	Type          DaemonSetUpdateStrategyType `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDaemonSet     `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDaemonSet bounds a DaemonSet rolling update.
type RollingUpdateDaemonSet struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DaemonSetStatus is the observed state of a DaemonSet.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32               `json:"currentNumberScheduled"`
	NumberMisscheduled     int32               `json:"numberMisscheduled"`
	DesiredNumberScheduled int32               `json:"desiredNumberScheduled"`
	NumberReady            int32               `json:"numberReady"`
	ObservedGeneration     int64               `json:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32               `json:"updatedNumberScheduled,omitempty"`
	NumberAvailable        int32               `json:"numberAvailable,omitempty"`
	NumberUnavailable      int32               `json:"numberUnavailable,omitempty"`
	CollisionCount         *int32              `json:"collisionCount,omitempty"`
	Conditions             []WorkloadCondition `json:"conditions,omitempty"`
}

// WorkloadCondition is a condition of a DaemonSet, Deployment or ReplicaSet.
type WorkloadCondition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	LastUpdateTime     Time            `json:"lastUpdateTime"`
	LastTransitionTime Time            `json:"lastTransitionTime"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
}

// Deployment manages ReplicaSets to roll out a pod template (apps/v1).
type Deployment struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       DeploymentSpec   `json:"spec"`
	Status     DeploymentStatus `json:"status"`
}

// DeploymentSpec is the desired state of a Deployment.
type DeploymentSpec struct {
	Replicas                *int32             `json:"replicas,omitempty"`
	Selector                *LabelSelector     `json:"selector"`
	Template                PodTemplateSpec    `json:"template"`
	Strategy                DeploymentStrategy `json:"strategy"`
	MinReadySeconds         int32              `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit    *int32             `json:"revisionHistoryLimit,omitempty"`
	Paused                  bool               `json:"paused,omitempty"`
	ProgressDeadlineSeconds *int32             `json:"progressDeadlineSeconds,omitempty"`
}

// DeploymentStrategyType is RollingUpdate or Recreate.
type DeploymentStrategyType string

const (
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate"
	RecreateDeploymentStrategyType      DeploymentStrategyType = "Recreate"
)

// DeploymentStrategy says how a Deployment replaces pods.
type DeploymentStrategy struct {
	Type          DeploymentStrategyType   `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDeployment bounds a Deployment rolling update.
type RollingUpdateDeployment struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DeploymentStatus is the observed state of a Deployment.
type DeploymentStatus struct {
	ObservedGeneration  int64               `json:"observedGeneration,omitempty"`
	Replicas            int32               `json:"replicas,omitempty"`
	UpdatedReplicas     int32               `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int32               `json:"readyReplicas,omitempty"`
	AvailableReplicas   int32               `json:"availableReplicas,omitempty"`
	UnavailableReplicas int32               `json:"unavailableReplicas,omitempty"`
	TerminatingReplicas *int32              `json:"terminatingReplicas,omitempty"`
	Conditions          []WorkloadCondition `json:"conditions,omitempty"`
	CollisionCount      *int32              `json:"collisionCount,omitempty"`
}

// ReplicaSet keeps a number of identical pods running (apps/v1).
type ReplicaSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       ReplicaSetSpec   `json:"spec"`
	Status     ReplicaSetStatus `json:"status"`
}

// ReplicaSetSpec is the desired state of a ReplicaSet.
type ReplicaSetSpec struct {
	Replicas        *int32          `json:"replicas,omitempty"`
	MinReadySeconds int32           `json:"minReadySeconds,omitempty"`
	Selector        *LabelSelector  `json:"selector"`
	Template        PodTemplateSpec `json:"template"`
}

// ReplicaSetStatus is the observed state of a ReplicaSet.
type ReplicaSetStatus struct {
	Replicas             int32               `json:"replicas"`
	FullyLabeledReplicas int32               `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32               `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32               `json:"availableReplicas,omitempty"`
	TerminatingReplicas  *int32              `json:"terminatingReplicas,omitempty"`
	ObservedGeneration   int64               `json:"observedGeneration,omitempty"`
	Conditions           []WorkloadCondition `json:"conditions,omitempty"`
}

// ControllerRevision is an immutable snapshot of a DaemonSet's template (apps/v1).
type ControllerRevision struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Data       json.RawMessage `json:"data,omitempty"`
	Revision   int64           `json:"revision"`
}

// Event is something that happened to an object (core/v1 Event, as `kubectl get events` shows).
// Its fields are core/v1's, in their order: an event recorded through events.k8s.io/v1 (the
// scheduler's) has eventTime, action and the reporting fields, and no source, timestamps or
// count, which read back as "source: {}" and null; one recorded through core/v1 has no eventTime,
// which reads back as "eventTime: null" (a MicroTime is a struct, never left out).
type Event struct {
	TypeMeta           `json:",inline"`
	ObjectMeta         `json:"metadata"`
	InvolvedObject     ObjectReference  `json:"involvedObject"`
	Reason             string           `json:"reason,omitempty"`
	Message            string           `json:"message,omitempty"`
	Source             EventSource      `json:"source"`
	FirstTimestamp     Time             `json:"firstTimestamp"`
	LastTimestamp      Time             `json:"lastTimestamp"`
	Count              int32            `json:"count,omitempty"`
	Type               string           `json:"type,omitempty"`
	EventTime          MicroTime        `json:"eventTime"`
	Series             *EventSeries     `json:"series,omitempty"`
	Action             string           `json:"action,omitempty"`
	Related            *ObjectReference `json:"related,omitempty"`
	ReportingComponent string           `json:"reportingComponent"`
	ReportingInstance  string           `json:"reportingInstance"`
}

// EventSeries is an events.k8s.io/v1 event seen again: how often, and when last.
type EventSeries struct {
	Count            int32     `json:"count,omitempty"`
	LastObservedTime MicroTime `json:"lastObservedTime"`
}

// LastSeen is when an event last happened, as kubectl events sorts by it (eventTime in
// pkg/cmd/events/events.go): the series' last observation, else lastTimestamp, else eventTime.
func (e *Event) LastSeen() time.Time {
	switch {
	case e.Series != nil:
		return e.Series.LastObservedTime.Time
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	}
	return e.EventTime.Time
}

// ObjectReference points at an object.
type ObjectReference struct {
	Kind            string `json:"kind,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name,omitempty"`
	UID             string `json:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
	FieldPath       string `json:"fieldPath,omitempty"`
}

// EventSource is the component that reported an event.
type EventSource struct {
	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
}

// DeprecatedTemplateGeneration is the annotation in which apps/v1 carries a DaemonSet's
// template generation (internal spec.templateGeneration): 1 on create, one more each time the
// pod template changes.
const DeprecatedTemplateGeneration = "deprecated.daemonset.template.generation"

// TemplateGeneration returns a DaemonSet's template generation (1 if it has none yet).
func (ds *DaemonSet) TemplateGeneration() int64 {
	if g, err := strconv.ParseInt(ds.Annotations[DeprecatedTemplateGeneration], 10, 64); err == nil && g >= 1 {
		return g
	}
	return 1
}
