package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/apiserver"
)

// ServerError words an API server's refusal as kubectl's checkErr does
// (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go checkErr, StandardErrorMessage):
//
//  1. Invalid with its field errors: "The <Kind> "<name>" is invalid: …" (see invalidMessage).
//  2. Invalid about no object, with a cause that names no field: "The request is invalid: "
//     and the cause as statusCausesToAggrError writes it, "<field>: <message>" with the field
//     empty (so "The request is invalid: : …", as kubectl prints a JSON patch that cannot apply).
//  3. Any other refusal: "Error from server (<Reason>): <message>", or without the
//     parenthesis when the status has no reason (a 500 the server made of a plain error).
func ServerError(err error) string {
	var se *apiserver.StatusError
	switch {
	case !errors.As(err, &se):
		return "error: " + err.Error()
	case se.Reason == apiserver.ReasonInvalid && len(se.Details.Causes) > 0:
		return invalidMessage(se.Details.Kind, se.Details.Name, se.Details.Causes)
	case se.Reason == apiserver.ReasonInvalid && se.Details.Unexpected != "":
		return "The request is invalid: : " + se.Details.Unexpected
	}
	return fromServer(se.Reason, se.Message)
}

// fromServer words a status as StandardErrorMessage does: "Error from server (<Reason>): …",
// or "Error from server: …" when the status has no reason.
func fromServer(reason apiserver.Reason, msg string) string {
	if reason == apiserver.ReasonUnknown {
		return "Error from server: " + msg
	}
	return fmt.Sprintf("Error from server (%s): %s", reason, msg)
}

// invalidMessage words a 422 as kubectl's checkErr does (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go checkErr): one cause on the line,
// several as a list of "* field: message".
func invalidMessage(kind, name string, errs api.ErrorList) string {
	if len(errs) == 1 {
		return fmt.Sprintf("The %s %q is invalid: %s", kind, name, errs[0].Error())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The %s %q is invalid: \n", kind, name)
	for i, e := range errs {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "* %s", e.Error())
	}
	return b.String()
}
