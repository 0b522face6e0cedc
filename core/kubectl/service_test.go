package kubectl

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestServiceEndpointsAreFormatEndpointSlices pins describe's Endpoints line
// (k8s.io/kubectl/pkg/describe formatEndpointSlices): <none> without a slice, nothing for a
// slice without ready endpoints, the first three ready ones, and "+ N more..." counted from the
// fourth endpoint met — ready or not — as kubectl counts it.
func TestServiceEndpointsAreFormatEndpointSlices(t *testing.T) {
	ep := func(addr string, ready bool) endpoint { return endpoint{"http", addr, ready} }
	for _, tc := range []struct {
		name string
		es   endpointSlices
		want string
	}{
		{"no slice", endpointSlices{}, "<none>"},
		{"a placeholder slice", endpointSlices{sliced: true}, ""},
		{"not ready ones are left out", endpointSlices{true, []endpoint{ep("a:1", false), ep("b:1", true)}}, "b:1"},
		{"another port's are left out", endpointSlices{true, []endpoint{{"metrics", "a:9", true}, ep("b:1", true)}}, "b:1"},
		{"three", endpointSlices{true, []endpoint{ep("a:1", true), ep("b:1", true), ep("c:1", true)}}, "a:1,b:1,c:1"},
		{"five", endpointSlices{true, []endpoint{ep("a:1", true), ep("b:1", true), ep("c:1", true), ep("d:1", true), ep("e:1", true)}}, "a:1,b:1,c:1 + 2 more..."},
		{"a fourth not ready still says more", endpointSlices{true, []endpoint{ep("a:1", true), ep("b:1", true), ep("c:1", true), ep("d:1", false)}}, "a:1,b:1,c:1 + 0 more..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.es.format("http"))
		})
	}
}
