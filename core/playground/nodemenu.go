package playground

import (
	"slices"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/cluster"
	"daemonlab/core/kubelet"
)

// failKeys are the texts of the menu items that inject each fault (`sim fail NODE KIND`).
var failKeys = map[string]string{
	kubelet.FaultKubeletDown: "kubelet-down", kubelet.FaultNotReady: "not-ready", kubelet.FaultMemoryPressure: "memory",
	kubelet.FaultDiskPressure: "disk", kubelet.FaultPIDPressure: "pid", kubelet.FaultNetworkUnavailable: "network",
}

// nodeActions is a node's menu: the items that apply to the node as it is now, each the sim or
// kubectl command it runs, in this order:
//
//  1. for each fault the machine has (kubelet.ActiveFaults), "Recover" from it alone: `sim
//     recover NODE KIND`;
//  2. with two faults or more, recovering from all of them at once, naming them: `sim recover
//     NODE`;
//  3. for each fault it does not have, in the order `sim help` lists them, injecting it: `sim
//     fail NODE KIND` (a fault it has is not offered again: sim fail refuses it);
//  4. Cordon while the node is schedulable, Uncordon while it is cordoned (spec.unschedulable);
//  5. Drain and Delete, which always apply.
//
// A node with no machine behind it has no faults.
func nodeActions(l Lang, n *api.Node, m cluster.Machine) []Action {
	name := n.Name
	active := kubelet.ActiveFaults(m)
	var out []Action
	for _, f := range active {
		out = append(out, Action{T(l, "recover."+f), "sim recover " + name + " " + f})
	}
	if len(active) > 1 {
		out = append(out, Action{T(l, "recover.all", strings.Join(active, ", ")), "sim recover " + name})
	}
	for _, f := range kubelet.Faults {
		if !slices.Contains(active, f) {
			out = append(out, Action{T(l, failKeys[f]), "sim fail " + name + " " + f})
		}
	}
	if n.Spec.Unschedulable {
		out = append(out, Action{T(l, "uncordon"), "kubectl uncordon " + name})
	} else {
		out = append(out, Action{T(l, "cordon"), "kubectl cordon " + name})
	}
	return append(out, Action{T(l, "drain"), "kubectl drain " + name + " --ignore-daemonsets"}, Action{T(l, "delete-node"), "kubectl delete node " + name})
}

// MenuMove is what a key pressed in a menu does: the item to focus (-1: none), and whether the
// menu closes (with Return, focus goes back to its button); Handled says the key is the menu's,
// and the browser's own action for it is prevented.
type MenuMove struct {
	Focus         int
	Close, Return bool
	Handled       bool
}

// MenuKey is a key pressed on a menu button or in its open menu of count items, as the WAI-ARIA
// menu button pattern has it; at is the item with the focus, or -1 on the button:
//
//  1. on the button, ArrowDown opens the menu on its first item, ArrowUp on its last (Enter and
//     Space click the button, which opens it on its first item);
//  2. in the menu, ArrowDown and ArrowUp move to the next and the previous item, wrapping
//     around; Home and End to the first and the last;
//  3. Escape closes the menu and returns the focus to its button;
//  4. Tab closes the menu and lets the focus move on as Tab moves it;
//  5. Enter and Space are the item's own: the browser clicks the button, which runs it and
//     closes the menu;
//  6. any other key does nothing.
func MenuKey(key string, at, count int) MenuMove {
	none := MenuMove{Focus: -1}
	if count == 0 {
		return none
	}
	if at < 0 {
		switch key {
		case "ArrowDown":
			return MenuMove{Focus: 0, Handled: true}
		case "ArrowUp":
			return MenuMove{Focus: count - 1, Handled: true}
		}
		return none
	}
	switch key {
	case "ArrowDown":
		return MenuMove{Focus: (at + 1) % count, Handled: true}
	case "ArrowUp":
		return MenuMove{Focus: (at + count - 1) % count, Handled: true}
	case "Home":
		return MenuMove{Focus: 0, Handled: true}
	case "End":
		return MenuMove{Focus: count - 1, Handled: true}
	case "Escape":
		return MenuMove{Focus: -1, Close: true, Return: true, Handled: true}
	case "Tab":
		return MenuMove{Focus: -1, Close: true}
	}
	return none
}
