package lesson

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRanMatchesWhatKubectlReadsTheSameWay: a ran line is met by any spelling kubectl reads as
// the same command showing at least as much (k8s.io/kubectl/pkg/cmd/get, describe: TYPE NAME and
// TYPE/NAME through resource.Builder; flags through pflag, global ones before the command as
// cobra's Command.Find strips them), and a grep lets the text through as grep would.
func TestRanMatchesWhatKubectlReadsTheSameWay(t *testing.T) {
	for _, tc := range []struct {
		ran     string
		accepts []string
		refuses []string
	}{
		{
			ran: "kubectl get ds -n kube-system",
			accepts: []string{
				"kubectl -n kube-system get ds",
				"k get daemonsets.apps --namespace=kube-system",
				"kubectl get daemonset -A",
				"kubectl get ds --all-namespaces -o wide",
				"kubectl get ds fluentd-elasticsearch -n kube-system",
				"kubectl get ds -nkube-system | grep fluentd",
				"kubectl get nodes; kubectl get ds -n kube-system",
			},
			refuses: []string{"kubectl get ds", "kubectl get pods -n kube-system", "kubectl describe ds -n kube-system", "kubectl get ds -n kube-sytem", "echo kubectl get ds -n kube-system"},
		},
		{
			ran: `kubectl describe pod mixed | grep "QoS Class"`,
			accepts: []string{
				"kubectl describe pod/mixed | grep -i qos",
				"kubectl describe po mixed | grep -i Qos",
				"k describe pods mixed|grep QoS",
				"kubectl describe pods | grep -i 'qos class'",
				"kubectl describe pod mixed -n default | egrep 'QoS|Class'",
			},
			refuses: []string{
				"kubectl describe pod mixed | grep qos",
				"kubectl describe pod mixed",
				"kubectl describe pod other | grep -i qos",
				"kubectl describe pod mixed | grep -v QoS",
				"kubectl get pod mixed | grep -i qos",
			},
		},
		{
			ran:     "kubectl describe node hd1",
			accepts: []string{"kubectl describe no hd1", "kubectl describe nodes/hd1 | grep -A3 Taints", "kubectl describe nodes", "kubectl -n kube-system describe node hd1"},
			refuses: []string{"kubectl describe node hd2", "kubectl get node hd1"},
		},
		{
			ran:     "kubectl get pods -n kube-system -o wide",
			accepts: []string{"kubectl get po -n kube-system -owide", "kubectl get pods -A -o=wide", "kubectl get pods -n kube-system --output wide -l name=fluentd-elasticsearch"},
			refuses: []string{"kubectl get pods -n kube-system", "kubectl get pods -o wide", "kubectl get pods -n kube-system -o yaml"},
		},
		{
			ran:     "kubectl rollout status ds/fluentd-elasticsearch -n kube-system",
			accepts: []string{"kubectl rollout status daemonset fluentd-elasticsearch -n kube-system", "kubectl -n kube-system rollout status ds fluentd-elasticsearch", "kubectl rollout status -n kube-system daemonsets.apps/fluentd-elasticsearch -w"},
			refuses: []string{"kubectl rollout history ds/fluentd-elasticsearch -n kube-system", "kubectl rollout status ds/fluentd-elasticsearch", "kubectl rollout status deploy/fluentd-elasticsearch -n kube-system"},
		},
		{
			ran:     "kubectl label node hd2 disk=ssd",
			accepts: []string{"kubectl label nodes hd2 disk=ssd", "kubectl label no/hd2 disk=ssd --overwrite"},
			refuses: []string{"kubectl label node hd2 disk=hdd", "kubectl label node hd3 disk=ssd"},
		},
	} {
		t.Run(tc.ran, func(t *testing.T) {
			look, err := ParseLook(tc.ran)
			require.NoError(t, err)
			assert.True(t, look.RunBy(tc.ran), "a ran line runs itself")
			for _, line := range tc.accepts {
				assert.True(t, look.RunBy(line), "accepts %q", line)
			}
			for _, line := range tc.refuses {
				assert.False(t, look.RunBy(line), "refuses %q", line)
			}
		})
	}
}

// TestParseLookRefusesWhatIsNotAKubectlLook: a ran line that kubectl would not run, that pipes
// into something other than grep, or whose grep does not find its own text is refused when the
// lesson is read.
func TestParseLookRefusesWhatIsNotAKubectlLook(t *testing.T) {
	for line, want := range map[string]string{
		"get pods":                            "a ran line starts with kubectl",
		"kubectl get pods; kubectl get nodes": "one kubectl command",
		"kubectl get pods | wc -l":            "pipes only into grep",
		"kubectl get pods | grep -v Running":  "its own last word",
		"kubectl get widgets":                 `doesn't have a resource type "widgets"`,
		"kubectl get pods --colour":           "unknown flag: --colour",
		"kubectl fly":                         `no command "fly"`,
		"kubectl rollout":                     "needs a subcommand",
		"kubectl get 'pods":                   "unterminated quoted string",
	} {
		_, err := ParseLook(line)
		assert.ErrorContains(t, err, want, line)
	}
}

// FuzzLook: no ran line and no typed line, however malformed, makes ParseLook or RunBy panic or
// hang, and a ran line that parses is run by itself.
func FuzzLook(f *testing.F) {
	f.Add("kubectl get ds -n kube-system", "kubectl -n kube-system get daemonsets.apps | grep -i x")
	f.Add(`kubectl describe pod mixed | grep "QoS Class"`, "k describe po/mixed|grep -iE 'q(o)s'")
	f.Add("kubectl rollout status ds/x -n y", "kubectl --namespace=y rollout status daemonset x; kubectl get -- pods")
	f.Add("kubectl label node hd2 disk=ssd", "kubectl label no/hd2 disk=ssd --overwrite && kubectl create pc x --value=1")
	f.Fuzz(func(t *testing.T, ran, line string) {
		look, err := ParseLook(ran)
		if err != nil {
			return
		}
		look.RunBy(line)
		if !look.RunBy(ran) {
			t.Fatalf("%q does not run itself", ran)
		}
	})
}
