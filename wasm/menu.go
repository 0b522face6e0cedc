//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"daemonlab/core/playground"
)

// The page's menus follow the WAI-ARIA menu button pattern. Each is a .menu element holding a
// .menu-button (aria-haspopup="menu", aria-expanded) and a [role=menu] list of [role=menuitem]
// buttons, hidden while it is closed. The node cards' menus are drawn by every render (nodeMenu);
// the Session menu is the page's own (index.html). One click and one keydown listener on the
// document serve them all:
//
//  1. a click on a menu button opens its menu, the focus on its first item, or closes it;
//  2. a click on an item does what it does (its own listener, its data-key's message, or the
//     file input its data-file names, whose chooser opens) and closes the menu, the focus back
//     on its button;
//  3. a click elsewhere closes the open menu;
//  4. keys go to playground.MenuKey (arrows, Home, End, Escape, Tab).
//
// At most one menu is open: openMenu names it (its data-menu), so that a render draws a node's
// menu open again.

// menuParts are a menu's button and items.
func menuParts(menu js.Value) (button js.Value, items []js.Value) {
	button = menu.Call("querySelector", ".menu-button")
	list := menu.Call("querySelectorAll", "[role=menuitem]")
	for i := range list.Length() {
		items = append(items, list.Index(i))
	}
	return button, items
}

// setMenuOpen opens or closes a menu; opened, the focus is on its item at focus (-1: where it is).
func (p *page) setMenuOpen(menu js.Value, open bool, focus int) {
	button, items := menuParts(menu)
	button.Call("setAttribute", "aria-expanded", strconv.FormatBool(open))
	menu.Call("querySelector", "[role=menu]").Set("hidden", !open)
	if open {
		p.openMenu = menu.Call("getAttribute", "data-menu").String()
		if focus >= 0 && focus < len(items) {
			items[focus].Call("focus")
		}
	} else if p.openMenu == menu.Call("getAttribute", "data-menu").String() {
		p.openMenu = ""
	}
}

// closeMenus closes the open menu, and returns the focus to its button when back says so.
func (p *page) closeMenus(back bool) {
	for _, m := range all(p.doc, `.menu:has(> .menu-button[aria-expanded="true"])`) {
		p.setMenuOpen(m.Underlying(), false, -1)
		if back {
			button, _ := menuParts(m.Underlying())
			button.Call("focus")
		}
	}
}

// menuClick is a click's effect on the menus (rules 1 to 3).
func (p *page) menuClick(target js.Value) {
	menu := target.Call("closest", ".menu")
	switch {
	case !menu.Truthy():
		p.closeMenus(false)
	case target.Call("closest", ".menu-button").Truthy():
		open := menu.Call("querySelector", ".menu-button").Call("getAttribute", "aria-expanded").String() == "true"
		p.closeMenus(false)
		if !open {
			p.setMenuOpen(menu, true, 0)
		}
	case target.Call("closest", "[role=menuitem]").Truthy():
		if file := target.Call("closest", "[data-file]"); file.Truthy() {
			p.doc.Call("getElementById", file.Call("getAttribute", "data-file")).Call("click")
		}
		p.closeMenus(true)
	}
}

// menuKey is a key's effect on the menus (rule 4).
func (p *page) menuKey(e js.Value) {
	target := e.Get("target")
	menu := target.Call("closest", ".menu")
	if !menu.Truthy() {
		return
	}
	button, items := menuParts(menu)
	at := -1
	for i, item := range items {
		if item.Equal(target) {
			at = i
		}
	}
	if at < 0 && !button.Equal(target) {
		return
	}
	move := playground.MenuKey(e.Get("key").String(), at, len(items))
	if move.Handled {
		e.Call("preventDefault")
	}
	switch {
	case move.Close:
		p.closeMenus(move.Return)
	case move.Focus >= 0:
		p.setMenuOpen(menu, true, move.Focus)
	}
}
