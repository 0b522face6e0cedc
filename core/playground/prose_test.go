package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestProseFlowsAsWrittenText: a lesson's lines join by a space in English and by nothing in
// Chinese, so that a YAML line break is never a stray space after a Chinese full stop.
func TestProseFlowsAsWrittenText(t *testing.T) {
	for text, want := range map[string]string{
		"A DaemonSet runs\none pod per node.\n": "A DaemonSet runs one pod per node.",
		"控制器创建 Pod。\n调度器绑定它。":                   "控制器创建 Pod。调度器绑定它。",
		"DaemonSet 的 Pod\n由默认调度器绑定":             "DaemonSet 的 Pod 由默认调度器绑定",
		"控制器\n创建":                               "控制器创建",
		"the `matchFields`\nterm":               "the `matchFields` term",
		"  one line  ":                          "one line",
		"第 1 步，\n`kubectl get ds`":              "第 1 步，`kubectl get ds`",
	} {
		assert.Equal(t, want, Flow(text), text)
	}
	assert.Equal(t, "答对了。DESIRED 是 3。", JoinProse("答对了。", "DESIRED 是 3。"))
	assert.Equal(t, "Right. DESIRED is 3.", JoinProse("Right.", "DESIRED is 3."))
	assert.Equal(t, "Right.", JoinProse("Right.", ""))
}
