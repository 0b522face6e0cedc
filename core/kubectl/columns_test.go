//go:build !(js && wasm)

package kubectl_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kubectlget "k8s.io/kubectl/pkg/cmd/get"

	"daemonlab/core/kubectl"
	"daemonlab/core/sim"
)

// TestCustomColumnsAreKubectls prints every scenario's end state with -o custom-columns and
// compares it with kubectl's own CustomColumnsPrinter given the same objects (as -o json lists
// them): the same cells, <none>s, commas and alignment.
func TestCustomColumnsAreKubectls(t *testing.T) {
	specs := []string{
		"NAME:.metadata.name,NODE:.spec.nodeName,IMAGES:.spec.containers[*].image",
		"KIND:kind,LABELS:.metadata.labels,TOLERATES:.spec.tolerations[*].key,FIRST:.spec.tolerations[0]",
		`NS:{.metadata.namespace},CREATED:{metadata.creationTimestamp},READY:.status.conditions[?(@.type=="Ready")].status,PORTS:.spec.containers[*].ports[*].containerPort`,
		"TAINTS:.spec.taints,DESIRED:.status.desiredNumberScheduled,REPLICAS:.spec.replicas,ALLOC:.status.allocatable.memory",
	}
	forEachScenario(t, func(t *testing.T, s *sim.Sim) {
		for _, resource := range []string{"pods", "nodes", "daemonsets", "deployments"} {
			list := kubectl.Run(s, []string{"get", resource, "-A", "-o", "json"}, "")
			require.Empty(t, list.Err)
			var objs unstructured.UnstructuredList
			require.NoError(t, objs.UnmarshalJSON([]byte(list.Out)))
			for _, spec := range specs {
				printer, err := kubectlget.NewCustomColumnsPrinterFromSpec(spec, nil, false)
				require.NoError(t, err)
				var want bytes.Buffer
				require.NoError(t, printer.PrintObj(&objs, &want))
				got := kubectl.Run(s, []string{"get", resource, "-A", "-o", "custom-columns=" + spec}, "")
				require.Empty(t, got.Err)
				assert.Equal(t, want.String(), got.Out, "%s %s", resource, spec)
			}
		}
	})
}
