package kubectl

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"daemonlab/core/apiserver"
)

// TestServerErrorIsStandardErrorMessage pins how a refusal that is no Invalid is worded, as
// k8s.io/kubectl pkg/cmd/util/helpers.go StandardErrorMessage does: the reason in parentheses
// when the status has one, none at all when it has none (a 500 the API server made of a plain
// error, such as the storage's refusal of a resourceVersion on a create), and a plain error as
// "error: …".
func TestServerErrorIsStandardErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"a reason", &apiserver.StatusError{Reason: apiserver.ReasonNotFound, Code: 404, Message: `pods "x" not found`},
			`Error from server (NotFound): pods "x" not found`},
		{"no reason", &apiserver.StatusError{Reason: apiserver.ReasonUnknown, Code: 500, Message: "resourceVersion should not be set on objects to be created"},
			"Error from server: resourceVersion should not be set on objects to be created"},
		{"no status", errors.New("context deadline exceeded"), "error: context deadline exceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ServerError(tc.err))
		})
	}
	noReason := &apiserver.StatusError{Reason: apiserver.ReasonUnknown, Code: 500, Message: "resourceVersion should not be set on objects to be created"}
	assert.Equal(t, `Error from server: error when creating "pod.yaml": resourceVersion should not be set on objects to be created`,
		applyError(noReason, "creating", "pod.yaml"), "apply and create word it the same way, with the source")
}
