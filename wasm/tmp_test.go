package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestTmpRender5000(t *testing.T) {
	m, _ := NewModel()
	var manifest strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&manifest, "apiVersion: v1\nkind: Node\nmetadata: {name: node-%04d}\n---\n", i)
	}
	manifest.WriteString("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  updateStrategy: {rollingUpdate: {maxUnavailable: 10%}}\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: busybox:1.36, resources: {requests: {cpu: 10m, memory: 20Mi}}}]\n")
	m = Update(m, ApplyMsg{Text: manifest.String()})
	m = Update(m, RunMsg{"sim advance 30s"})
	m = Update(m, RunMsg{"kubectl set image ds/agent c=busybox:1.37"})
	m = Update(m, PlayMsg{On: true})
	var total time.Duration
	for range 20 {
		m = Update(m, TickMsg{})
		m = Update(m, WorkMsg{Enough: func() bool { return false }})
		t0 := time.Now()
		Render(m)
		total += time.Since(t0)
	}
	fmt.Println("render avg", total/20)
}
