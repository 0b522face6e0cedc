package apiserver

import (
	"fmt"

	"daemonlab/core/api"
)

// Reason is a status error's machine-readable reason, as metav1.StatusReason names it.
type Reason string

// The reasons DaemonLab's API server answers with, and their HTTP codes (StatusReason* in
// k8s.io/apimachinery/pkg/apis/meta/v1/types.go).
const (
	ReasonNotFound        Reason = "NotFound"        // 404
	ReasonAlreadyExists   Reason = "AlreadyExists"   // 409
	ReasonConflict        Reason = "Conflict"        // 409
	ReasonForbidden       Reason = "Forbidden"       // 403
	ReasonInvalid         Reason = "Invalid"         // 422
	ReasonBadRequest      Reason = "BadRequest"      // 400
	ReasonTooManyRequests Reason = "TooManyRequests" // 429
	ReasonInternalError   Reason = "InternalError"   // 500

	ReasonRequestEntityTooLarge Reason = "RequestEntityTooLarge" // 413
	// ReasonUnknown is StatusReasonUnknown: an error the server did not turn into a status
	// (responsewriters ErrorToAPIStatus answers it with 500 and no reason).
	ReasonUnknown Reason = "" // 500
)

var codes = map[Reason]int{
	ReasonNotFound: 404, ReasonAlreadyExists: 409, ReasonConflict: 409, ReasonForbidden: 403, ReasonInvalid: 422,
	ReasonBadRequest: 400, ReasonTooManyRequests: 429, ReasonRequestEntityTooLarge: 413, ReasonUnknown: 500, ReasonInternalError: 500,
}

// StatusError is the API server's refusal of a request: the metav1.Status it would send. Its
// Message is the status message (`daemonsets.apps "x" not found`, `DaemonSet.apps "x" is
// invalid: …`); how kubectl frames it for the learner is kubectl's business.
type StatusError struct {
	Reason  Reason
	Code    int
	Message string
	Details Details
}

// Details are the status details: what the request was about, and for Invalid the field errors
// (Causes) or a cause that names no field (Unexpected: the server's own words, as
// NewGenericServerResponse keeps them); for the Eviction API's TooManyRequests, the
// DisruptionBudget cause's message (Budget).
type Details struct {
	Group, Kind, Name string
	Causes            api.ErrorList
	Unexpected        string
	Budget            string
}

func (e *StatusError) Error() string { return e.Message }

func newStatus(reason Reason, details Details, format string, a ...any) *StatusError {
	return &StatusError{Reason: reason, Code: codes[reason], Message: fmt.Sprintf(format, a...), Details: details}
}

// conflict is errors.NewConflict with the registry's OptimisticLockErrorMsg: `Operation cannot
// be fulfilled on daemonsets.apps "x": the object has been modified; …`.
func conflict(kind api.Kind, name string) *StatusError {
	return newStatus(ReasonConflict, Details{Group: kind.Group, Kind: kind.Resource, Name: name}, "Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", kind.GroupResource(), name)
}

// NotFound is errors.NewNotFound: `pods "web" not found`.
func NotFound(kind api.Kind, name string) *StatusError {
	return newStatus(ReasonNotFound, Details{Group: kind.Group, Kind: kind.Resource, Name: name}, "%s %q not found", kind.GroupResource(), name)
}

// namespaceNotFound is NamespaceLifecycle's refusal of an object in a namespace that does not
// exist: `namespaces "x" not found`.
func namespaceNotFound(name string) *StatusError {
	return newStatus(ReasonNotFound, Details{Kind: "namespaces", Name: name}, "namespaces %q not found", name)
}

// alreadyExists is errors.NewAlreadyExists: `deployments.apps "web" already exists`.
func alreadyExists(kind api.Kind, name string) *StatusError {
	return newStatus(ReasonAlreadyExists, Details{Group: kind.Group, Kind: kind.Resource, Name: name}, "%s %q already exists", kind.GroupResource(), name)
}

// invalid is errors.NewInvalid: the qualified kind, the name and the field errors, one as it is
// and several as a bracketed list (utilerrors.NewAggregate).
func invalid(kind api.Kind, name string, errs api.ErrorList) *StatusError {
	qualified := kind.Kind
	if kind.Group != "" {
		qualified += "." + kind.Group
	}
	causes := errs[0].Error()
	if len(errs) > 1 {
		causes = "[" + errs[0].Error()
		for _, e := range errs[1:] {
			causes += ", " + e.Error()
		}
		causes += "]"
	}
	return newStatus(ReasonInvalid, Details{Group: kind.Group, Kind: kind.Kind, Name: name, Causes: errs}, "%s %q is invalid: %s", qualified, name, causes)
}

// forbidden is errors.NewForbidden, as admission plugins refuse: `pods "x" is forbidden: …`.
func forbidden(kind api.Kind, name, reason string) *StatusError {
	return newStatus(ReasonForbidden, Details{Group: kind.Group, Kind: kind.Resource, Name: name}, "%s %q is forbidden: %s", kind.GroupResource(), name, reason)
}

// unprocessable is errors.NewGenericServerResponse(422, …) as the patch handler answers a JSON
// patch that cannot apply: Invalid, the generic message, and the patch's error as its cause.
func unprocessable(serverMessage string) *StatusError {
	return newStatus(ReasonInvalid, Details{Unexpected: serverMessage}, "the server rejected our request due to an error in our request")
}

// requestEntityTooLarge is errors.NewRequestEntityTooLargeError: "Request entity too large: …".
func requestEntityTooLarge(msg string) *StatusError {
	return newStatus(ReasonRequestEntityTooLarge, Details{}, "Request entity too large: %s", msg)
}

// BadRequest is errors.NewBadRequest: the message as it is.
func BadRequest(msg string) *StatusError {
	return newStatus(ReasonBadRequest, Details{}, "%s", msg)
}

// resourceVersionSet is the storage's refusal of a create that sets metadata.resourceVersion
// (staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go Create,
// storage.ErrResourceVersionSetOnCreate): no status of its own, so a 500 without a reason.
func resourceVersionSet() *StatusError {
	return newStatus(ReasonUnknown, Details{}, "resourceVersion should not be set on objects to be created")
}

// internalError is errors.NewInternalError: "Internal error occurred: …".
func internalError(msg string) *StatusError {
	return newStatus(ReasonInternalError, Details{}, "Internal error occurred: %s", msg)
}
