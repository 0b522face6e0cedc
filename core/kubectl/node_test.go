package kubectl

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDrainWritesItsTriesAndRetriesInTheirOrder: kubectl drain writes "evicting pod" to standard
// output and each refusal to standard error as it goes (k8s.io/kubectl/pkg/drain/drain.go
// evictPods), so a terminal shows every try followed by its 429; Out and Err still hold each
// stream whole, for a pipe.
func TestDrainWritesItsTriesAndRetriesInTheirOrder(t *testing.T) {
	s := newSim(t)
	require.Empty(t, settledAll(s, []byte(`apiVersion: v1
kind: Pod
metadata: {name: db, labels: {app: db}}
spec:
  nodeSelector: {kubernetes.io/hostname: hd2}
  containers: [{name: postgres, image: postgres:17}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: db}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: db}}
`), "-", "default").Err)
	s.Advance(5 * time.Second) // running and Ready: the budget counts it
	r := run(s, []string{"drain", "hd2", "--force", "--ignore-daemonsets", "--timeout=6s"}, "")
	require.Equal(t, 1, r.Code)
	tryOut := Piece{Text: "evicting pod default/db\n"}
	refused := Piece{Text: `error when evicting pods/"db" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.` + "\n", Err: true}
	ps := r.Pieces()
	require.Len(t, ps, 8)
	assert.Equal(t, Piece{Text: "node/hd2 cordoned\n"}, ps[0])
	assert.True(t, ps[1].Err, "the warning about the pod no controller owns")
	assert.Equal(t, []Piece{tryOut, refused, tryOut, refused, tryOut}, ps[2:7])
	assert.Contains(t, ps[7].Text, "global timeout reached: 6s")
	var out, errOut string
	for _, p := range ps {
		if p.Err {
			errOut += p.Text
		} else {
			out += p.Text
		}
	}
	assert.Equal(t, r.Out, out)
	assert.Equal(t, r.Err, strings.TrimSuffix(errOut, "\n"))
}
