package api

import (
	"bytes"
	"encoding/json"
	"time"
)

// TypeMeta names the kind and API version of an object.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// ObjectMeta is the metadata every object carries.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	SelfLink                   string            `json:"selfLink,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          Time              `json:"creationTimestamp,omitzero"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
	// ManagedFields is accepted so that `kubectl get -o yaml` output from a real cluster applies
	// unchanged; DaemonLab neither keeps nor prints it.
	ManagedFields []json.RawMessage `json:"managedFields,omitempty"`
}

// OwnerReference points from a dependent to its owner (a pod to its DaemonSet).
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// Time is a timestamp with second precision, written as RFC 3339 in UTC; the zero Time is null.
type Time struct {
	time.Time
}

// NewTime wraps t.
func NewTime(t time.Time) Time { return Time{t} }

// MarshalJSON writes RFC 3339, or null for the zero time.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.UTC().Format(time.RFC3339) + `"`), nil
}

// readBack returns what t's JSON reads back as: t in whole seconds, in UTC.
func (t Time) readBack() Time {
	if t.IsZero() {
		return Time{}
	}
	return Time{t.UTC().Truncate(time.Second)}
}

// UnmarshalJSON reads RFC 3339 or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*t = Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	parsed, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	*t = Time{parsed.UTC()}
	return nil
}

// MicroTime is a timestamp with microsecond precision (metav1.MicroTime), written as RFC 3339
// with six fractional digits in UTC; the zero MicroTime is null.
type MicroTime struct {
	time.Time
}

// NewMicroTime wraps t.
func NewMicroTime(t time.Time) MicroTime { return MicroTime{t} }

// rfc3339Micro is metav1.RFC3339Micro.
const rfc3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// MarshalJSON writes RFC 3339 to the microsecond, or null for the zero time.
func (t MicroTime) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.UTC().Format(rfc3339Micro) + `"`), nil
}

// UnmarshalJSON reads RFC 3339 with six fractional digits, or null.
func (t *MicroTime) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*t = MicroTime{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	parsed, err := time.Parse(rfc3339Micro, s)
	if err != nil {
		return err
	}
	*t = MicroTime{parsed.UTC()}
	return nil
}
