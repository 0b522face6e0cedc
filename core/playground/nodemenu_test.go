package playground

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commands are the commands of a menu's items, in order.
func commands(actions []Action) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.Command)
	}
	return out
}

// TestNodeMenuOffersOnlyWhatApplies: a node's menu names the faults its machine has and offers
// what applies to it as it is: Recover from a fault it has (sim recover NODE KIND clears one;
// core/shell simRecover), never the fault again (sim fail refuses it), recover-all only with
// two faults or more, Uncordon only when cordoned and Cordon only when schedulable, and drain
// and delete always.
func TestNodeMenuOffersOnlyWhatApplies(t *testing.T) {
	for _, tc := range []struct {
		name   string
		run    []string
		faults []string
		want   []string
	}{
		{"a healthy node offers every fault and cordon", nil, nil, []string{
			"sim fail hd2 kubelet-down", "sim fail hd2 not-ready", "sim fail hd2 memory-pressure", "sim fail hd2 disk-pressure",
			"sim fail hd2 pid-pressure", "sim fail hd2 network-unavailable", "kubectl cordon hd2", "kubectl drain hd2 --ignore-daemonsets", "kubectl delete node hd2"}},
		{"a stopped kubelet is restarted, not stopped again", []string{"sim fail hd2 kubelet-down"}, []string{"kubelet-down"}, []string{
			"sim recover hd2 kubelet-down", "sim fail hd2 not-ready", "sim fail hd2 memory-pressure", "sim fail hd2 disk-pressure",
			"sim fail hd2 pid-pressure", "sim fail hd2 network-unavailable", "kubectl cordon hd2", "kubectl drain hd2 --ignore-daemonsets", "kubectl delete node hd2"}},
		{"two faults: each recovered alone, or both at once, kubelet-down first as sim recover clears them",
			[]string{"sim fail hd2 memory-pressure", "sim fail hd2 kubelet-down"}, []string{"kubelet-down", "memory-pressure"}, []string{
				"sim recover hd2 kubelet-down", "sim recover hd2 memory-pressure", "sim recover hd2", "sim fail hd2 not-ready", "sim fail hd2 disk-pressure",
				"sim fail hd2 pid-pressure", "sim fail hd2 network-unavailable", "kubectl cordon hd2", "kubectl drain hd2 --ignore-daemonsets", "kubectl delete node hd2"}},
		{"a cordoned node offers uncordon, not cordon", []string{"kubectl cordon hd2"}, nil, []string{
			"sim fail hd2 kubelet-down", "sim fail hd2 not-ready", "sim fail hd2 memory-pressure", "sim fail hd2 disk-pressure",
			"sim fail hd2 pid-pressure", "sim fail hd2 network-unavailable", "kubectl uncordon hd2", "kubectl drain hd2 --ignore-daemonsets", "kubectl delete node hd2"}},
		{"a drained node is cordoned", []string{"kubectl drain hd2 --ignore-daemonsets"}, nil, []string{
			"sim fail hd2 kubelet-down", "sim fail hd2 not-ready", "sim fail hd2 memory-pressure", "sim fail hd2 disk-pressure",
			"sim fail hd2 pid-pressure", "sim fail hd2 network-unavailable", "kubectl uncordon hd2", "kubectl drain hd2 --ignore-daemonsets", "kubectl delete node hd2"}},
		{"recovered, the node's menu is a healthy one's again", []string{"sim fail hd2 not-ready", "sim recover hd2 not-ready"}, nil, []string{
			"sim fail hd2 kubelet-down", "sim fail hd2 not-ready", "sim fail hd2 memory-pressure", "sim fail hd2 disk-pressure",
			"sim fail hd2 pid-pressure", "sim fail hd2 network-unavailable", "kubectl cordon hd2", "kubectl drain hd2 --ignore-daemonsets", "kubectl delete node hd2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewModel(lib)
			require.NoError(t, err)
			for _, line := range tc.run {
				m = Update(m, RunMsg{Line: line})
				require.Empty(t, m.Result.Err, line)
			}
			n := Render(m).Nodes[1]
			require.Equal(t, "hd2", n.Name)
			assert.Equal(t, tc.faults, n.Faults)
			assert.Equal(t, tc.want, commands(n.Actions))
			for _, a := range n.Actions { // every item the menu offers runs without an error
				after := Update(m, RunMsg{Line: a.Command})
				assert.Empty(t, after.Result.Err, a.Command)
			}
		})
	}
}

// TestNodeMenuSaysWhatItRecovers: the recover items name what they undo, and recovering from
// every fault names the faults it clears; in Chinese too.
func TestNodeMenuSaysWhatItRecovers(t *testing.T) {
	m, err := NewModel(lib)
	require.NoError(t, err)
	m = Update(m, RunMsg{Line: "sim fail hd3 kubelet-down"})
	m = Update(m, RunMsg{Line: "sim fail hd3 network-unavailable"})
	actions := Render(m).Nodes[2].Actions
	require.GreaterOrEqual(t, len(actions), 3)
	assert.Equal(t, []Action{{"Restart the kubelet", "sim recover hd3 kubelet-down"}, {"Bring the network back", "sim recover hd3 network-unavailable"},
		{"Recover from every fault (kubelet-down, network-unavailable)", "sim recover hd3"}}, actions[:3])
	zh := Render(Update(m, LangMsg{Lang: Chinese})).Nodes[2].Actions
	assert.Equal(t, "从所有故障中恢复（kubelet-down, network-unavailable）", zh[2].Label)
}

// TestMenuKeysFollowTheMenuButtonPattern: the keys of a menu button and its menu, as the
// WAI-ARIA Authoring Practices' menu button pattern has them.
func TestMenuKeysFollowTheMenuButtonPattern(t *testing.T) {
	for _, tc := range []struct {
		key       string
		at, count int
		want      MenuMove
	}{
		{"ArrowDown", -1, 5, MenuMove{Focus: 0, Handled: true}},
		{"ArrowUp", -1, 5, MenuMove{Focus: 4, Handled: true}},
		{"Enter", -1, 5, MenuMove{Focus: -1}}, // the button's own click opens it
		{"ArrowDown", 1, 5, MenuMove{Focus: 2, Handled: true}},
		{"ArrowDown", 4, 5, MenuMove{Focus: 0, Handled: true}},
		{"ArrowUp", 0, 5, MenuMove{Focus: 4, Handled: true}},
		{"Home", 3, 5, MenuMove{Focus: 0, Handled: true}},
		{"End", 1, 5, MenuMove{Focus: 4, Handled: true}},
		{"Escape", 2, 5, MenuMove{Focus: -1, Close: true, Return: true, Handled: true}},
		{"Tab", 2, 5, MenuMove{Focus: -1, Close: true}},
		{"Enter", 2, 5, MenuMove{Focus: -1}}, // the item's own click runs it
		{" ", 2, 5, MenuMove{Focus: -1}},
		{"x", 2, 5, MenuMove{Focus: -1}},
		{"ArrowDown", -1, 0, MenuMove{Focus: -1}},
	} {
		assert.Equal(t, tc.want, MenuKey(tc.key, tc.at, tc.count), "%q at %d of %d", tc.key, tc.at, tc.count)
	}
}
