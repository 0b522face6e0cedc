//go:build js && wasm

package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"daemonlab/core/kubectl"
	"daemonlab/core/playground"
	"daemonlab/core/playground/markup"
	"daemonlab/core/sim"

	"honnef.co/go/js/dom/v2"
)

// page owns the DOM: the elements it renders into and the model behind them.
type page struct {
	win                                            dom.Window
	doc                                            js.Value // the document
	nodes, pending, problems                       element
	banner, notice, noticeText, terminal           element
	details, detailsTitle, detailsWhy, detailsSecs element
	events, tableToggle, tutor                     element
	clockState, due                                element
	tabs, apply, saveEdit, editorPane              element
	play, undo, redo, reset, addNode               element
	timeButtons                                    []element
	editor                                         *dom.HTMLTextAreaElement
	prompt, scrubber, shareURL, eventObject        *dom.HTMLInputElement
	speed, lang, eventType, lessonPicker, cluster  *dom.HTMLSelectElement
	model                                          playground.Model
	keeper                                         *playground.Keeper               // where the session is saved
	noticeActions, dismiss, unsaved                element                          // the notice's buttons, its Dismiss, the not-saved mark
	view                                           playground.View                  // the view last rendered
	shownLang                                      playground.Lang                  // the language the static text is in
	resetArmed                                     bool                             // Reset was clicked once: the next click resets
	openMenu                                       string                           // the menu open (its data-menu: a node's name, "session"), or ""
	clicks                                         map[string]func() playground.Msg // a click's message, by the data-key of the button clicked
	cells                                          []cell                           // the compact grid as drawn, if it is
	shownTerm                                      []playground.TermLine            // the terminal's lines as drawn
	shownPicker                                    playground.Picker                // the lesson picker as drawn
	listing                                        bool                             // listLessons is under way
	saveDue                                        bool                             // a change is not saved yet
	working                                        bool                             // work is due: the clock is moving
	tickDue                                        bool                             // the next play tick waits for the clock to stop
	scrollTerminal                                 js.Func                          // scrolls the terminal to its end
	shownDiagnostics                               string                           // the problems the code editor shows, as JSON
	collectDue                                     bool                             // an idle-time collection check is asked for
	shownTab                                       string                           // the editor's tab shown, as last drawn
	axisMarks                                      element                          // the time axis's marks, over its track
	shownMarks                                     []playground.AxisMark            // the marks as drawn
	shownNamed                                     int                              // the mark the axis's text names, as drawn
	copyShare                                      element                          // the share link's Copy button
	embedCode                                      *dom.HTMLTextAreaElement         // "Embed this"'s code to paste
	shownPods                                      map[string]string                // the pods' statuses as the last render drew them (by namespace/name)
	shownShare                                     string                           // the share link shown, and the language, as last drawn
	shownEvents                                    string                           // the events list as last drawn
	lints                                          element                          // the warnings on the editor's text (View.Lints)
	panes, drawer, drawerHandle, drawerFold        element                          // a phone's pane switcher; the terminal's drawer
	dragging                                       bool                             // the drawer's handle is being dragged
	shownInput                                     string                           // the prompt's text as the model last set it
	shownPane                                      string                           // the pane a phone shows, as last drawn
	shownDetails                                   playground.Ref                   // the object the details panel is open on, as last drawn (zero: closed)
	shownPanel                                     string                           // what the lesson panel shows (a lesson and step, or the reference), as last drawn
	giveUpArmed                                    bool                             // Give up was clicked once: the next click gives up
	timer                                          element                          // a challenge's timer, as last drawn; nil for none
	paint                                          *painter                         // draws the page's parts (core/playground/markup)
	texts                                          map[string]element               // the elements whose text is the view's (markup.Texts), by id
}

// mount finds the page's elements and wires their events to messages.
func mount(m playground.Model, keeper *playground.Keeper) (*page, error) {
	win := dom.GetWindow()
	// The code editor starts with no diagnostics: telling it so would only cost it a layout.
	p := &page{win: win, doc: js.Global().Get("document"), model: m, keeper: keeper, clicks: map[string]func() playground.Msg{}, shownDiagnostics: "[]"}
	p.paint = &painter{B: domBuilder{p}}
	p.texts = map[string]element{}
	for _, t := range markup.Texts(playground.View{}) {
		if p.texts[t.ID] = p.byID(t.ID); p.texts[t.ID] == nil {
			return nil, fmt.Errorf("the page has no #%s element", t.ID)
		}
	}
	for id, dst := range map[string]*element{
		"clock-state": &p.clockState, "due": &p.due, "nodes": &p.nodes, "pending": &p.pending, "problems": &p.problems,
		"panes": &p.panes, "drawer": &p.drawer, "drawer-handle": &p.drawerHandle, "drawer-fold": &p.drawerFold,
		"banner": &p.banner, "notice": &p.notice, "notice-text": &p.noticeText, "notice-actions": &p.noticeActions, "dismiss": &p.dismiss, "unsaved": &p.unsaved, "terminal": &p.terminal,
		"play": &p.play, "undo": &p.undo, "redo": &p.redo, "reset": &p.reset, "add-node": &p.addNode,
		"details": &p.details, "details-title": &p.detailsTitle, "details-why": &p.detailsWhy, "details-sections": &p.detailsSecs,
		"events": &p.events, "table-toggle": &p.tableToggle, "tutor": &p.tutor,
		"editor-tabs": &p.tabs, "apply": &p.apply, "save": &p.saveEdit, "editor-pane": &p.editorPane,
		"axis-marks": &p.axisMarks,
		"copy-share": &p.copyShare,
		"lints":      &p.lints,
	} {
		if *dst = p.byID(id); *dst == nil {
			return nil, fmt.Errorf("the page has no #%s element", id)
		}
	}
	var missing []string
	control := func(id, tag string) element {
		e := p.control(id, tag)
		if e == nil {
			missing = append(missing, "#"+id)
		}
		return e
	}
	p.editor = &dom.HTMLTextAreaElement{BasicHTMLElement: control("editor", "TEXTAREA")}
	p.prompt = &dom.HTMLInputElement{BasicHTMLElement: control("prompt", "INPUT")}
	p.scrubber = &dom.HTMLInputElement{BasicHTMLElement: control("scrubber", "INPUT")}
	p.shareURL = &dom.HTMLInputElement{BasicHTMLElement: control("share-url", "INPUT")}
	p.embedCode = &dom.HTMLTextAreaElement{BasicHTMLElement: control("embed-code", "TEXTAREA")}
	p.eventObject = &dom.HTMLInputElement{BasicHTMLElement: control("event-object", "INPUT")}
	p.speed = &dom.HTMLSelectElement{BasicHTMLElement: control("speed", "SELECT")}
	p.lang = &dom.HTMLSelectElement{BasicHTMLElement: control("lang", "SELECT")}
	p.cluster = &dom.HTMLSelectElement{BasicHTMLElement: control("cluster", "SELECT")}
	p.eventType = &dom.HTMLSelectElement{BasicHTMLElement: control("event-type", "SELECT")}
	p.lessonPicker = &dom.HTMLSelectElement{BasicHTMLElement: control("lesson-picker", "SELECT")}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the page lacks the form controls %s", strings.Join(missing, ", "))
	}
	p.scrollTerminal = js.FuncOf(func(js.Value, []js.Value) any {
		t := p.terminal.Underlying()
		t.Set("scrollTop", t.Get("scrollHeight"))
		return nil
	})
	// Typing goes through Update alone, not dispatch: the editor shows the text typed already, and
	// the rest of the page (Reset's confirmation too) stays as it is. Typing in a file's tab
	// writes the workspace, a step of the history: the timeline and the terminal show it.
	p.listen(p.editor.Underlying(), "input", func(js.Value) {
		if file := p.openFile(); file != "" {
			p.dispatch(playground.WriteMsg{File: file, Text: p.editor.Value()})
			return
		}
		p.model = playground.Update(p.model, playground.EditMsg{Text: p.editor.Value()})
		p.save()
		_, lints, diagnostics := playground.EditorMarks(p.model) // the warnings follow the typing
		p.renderLints(p.model.Lang, lints)
		p.showDiagnostics(diagnostics)
	})
	// Ctrl/⌘+S anywhere in the editor's pane saves the open tab (the code editor's keys reach it
	// through its shadow root), instead of the browser's Save Page.
	p.listen(p.editorPane.Underlying(), "keydown", func(e js.Value) {
		if k := keyboard(e); (k.Key() == "s" || k.Key() == "S") && (k.CtrlKey() || k.MetaKey()) {
			k.PreventDefault()
			p.dispatch(playground.SaveMsg{Text: p.editor.Value()})
		}
	})
	p.onClick(p.saveEdit, func() playground.Msg { return playground.SaveMsg{Text: p.editor.Value()} })
	p.listen(p.editor.Underlying(), "keydown", func(e js.Value) {
		if k := keyboard(e); k.Key() == "Enter" && (k.CtrlKey() || k.MetaKey()) {
			k.PreventDefault()
			p.dispatch(playground.ApplyMsg{Text: p.editor.Value()})
		}
	})
	p.onClick(p.apply, func() playground.Msg { return playground.ApplyMsg{Text: p.editor.Value()} })
	p.listen(p.prompt.Underlying(), "keydown", p.promptKey)
	p.listen(p.prompt.Underlying(), "paste", p.promptPaste)
	p.onClick(p.play, func() playground.Msg { return playground.PlayMsg{On: !p.view.Playing} })
	p.speed.SetTextContent("") // the prerendered options are drawn anew: the same
	p.paint.Speeds(p.speed.Underlying(), m.Speed)
	p.listen(p.speed.Underlying(), "change", func(js.Value) { p.dispatch(playground.SpeedMsg{Index: p.speed.SelectedIndex()}) }) // the options are the speeds in order
	buttons := p.byID("time-buttons")
	buttons.SetTextContent("")
	for i, a := range playground.TimeActions(m.Lang) {
		b := asElement(p.paint.TimeButton(a))
		p.onClick(b, func() playground.Msg { return playground.RunMsg{Line: p.view.Time[i].Command} })
		buttons.AppendChild(b)
		p.timeButtons = append(p.timeButtons, b)
	}
	p.onClick(p.undo, func() playground.Msg { return playground.UndoMsg{} })
	p.onClick(p.redo, func() playground.Msg { return playground.RedoMsg{} })
	// The time axis's slider is in seconds of the clock; its keys are the model's (AxisKey).
	p.listen(p.scrubber.Underlying(), "input", func(js.Value) {
		p.dispatch(playground.SeekTimeMsg{At: time.Duration(p.scrubber.ValueAsNumber() * float64(time.Second))})
	})
	p.listen(p.scrubber.Underlying(), "keydown", func(e js.Value) {
		if msg, ok := playground.AxisKey(p.view.Axis, keyboard(e).Key()); ok {
			e.Call("preventDefault")
			p.dispatch(msg)
		}
	})
	p.onClick(p.addNode, func() playground.Msg { return playground.RunMsg{Line: p.view.AddNode.Command} })
	p.onClick(p.byID("share"), func() playground.Msg { return playground.ShareMsg{} })
	p.onClick(p.byID("embed-this"), func() playground.Msg { return playground.EmbedMsg{} })
	p.mountEmbed()
	p.onClick(p.dismiss, func() playground.Msg { return playground.NoticeMsg{} })
	// Leaving a page that is not saving asks first (the browser's own prompt).
	p.listen(js.Global(), "beforeunload", func(e js.Value) {
		if p.model.Unsaved {
			e.Call("preventDefault")
		}
	})
	p.listen(p.byID("export").Underlying(), "click", func(js.Value) { p.export() })
	p.onClick(p.byID("close-details"), func() playground.Msg { return playground.SelectMsg{} })
	p.onClick(p.tableToggle, func() playground.Msg { return playground.TableMsg{On: !p.view.Table} })
	filter := func(js.Value) {
		p.dispatch(playground.EventsMsg{Filter: playground.EventFilter{Type: p.eventType.Value(), Object: p.eventObject.Value()}})
	}
	p.listen(p.eventType.Underlying(), "change", filter)
	p.listen(p.eventObject.Underlying(), "input", filter)
	p.listen(p.reset.Underlying(), "click", func(js.Value) {
		if !p.resetArmed {
			p.resetArmed = true
			p.render()
			return
		}
		p.dispatch(playground.ResetMsg{})
	})
	p.onFiles(p.byID("lesson-file"), p.openLesson)
	p.listen(p.byID("progress-save").Underlying(), "click", func(js.Value) {
		p.download("daemonlab-progress.json", "application/json", string(playground.ProgressFile(p.model)))
	})
	p.onFiles(p.byID("progress-file"), func(files map[string]string) {
		for _, text := range files {
			if len(files) == 1 {
				p.dispatch(playground.ProgressMsg{Data: text})
			}
		}
	})
	// The buttons a render draws are not given listeners of their own: one listener takes every
	// click on the page to the message of the button's data-key (a render of 5,000 nodes would
	// otherwise make, and keep, 5,000 functions).
	p.listen(p.doc, "click", func(e js.Value) {
		p.menuClick(e.Get("target")) // first: a menu's item closes it before a render draws it anew
		if b := e.Get("target").Call("closest", "[data-key]"); b.Truthy() {
			key := b.Call("getAttribute", "data-key").String()
			if msg := p.clicks[key]; msg != nil {
				if m := msg(); m != nil { // nil: the click did the page's own work
					p.dispatch(m)
				}
			} else if ref, ok := playground.OpenRef(key); ok {
				p.dispatch(playground.SelectMsg{Ref: ref})
			}
		}
	})
	p.listen(p.doc, "keydown", p.menuKey)
	p.listen(p.doc, "dragover", func(e js.Value) { e.Call("preventDefault") })
	p.listen(p.doc, "drop", func(e js.Value) {
		if files := e.Get("dataTransfer").Get("files"); files.Length() > 0 {
			e.Call("preventDefault")
			p.readFiles(files, p.openLesson)
		}
	})
	p.listen(p.lessonPicker.Underlying(), "change", func(js.Value) { p.dispatch(playground.LessonMsg{ID: p.lessonPicker.Value()}) })
	p.listen(p.lang.Underlying(), "change", func(js.Value) {
		_ = p.keeper.Store.Set(playground.LangKey, p.lang.Value()) // without storage, the choice lasts the visit
		p.dispatch(playground.LangMsg{Lang: playground.Lang(p.lang.Value())})
	})
	p.listen(js.Global(), "pagehide", func(js.Value) { p.saveNow() })
	p.listen(p.doc, "visibilitychange", func(js.Value) {
		if p.doc.Get("visibilityState").String() == "hidden" {
			p.saveNow()
		}
	})
	p.listen(js.Global(), "hashchange", func(js.Value) { p.openLink() })
	p.listen(js.Global(), "storage", func(e js.Value) {
		key, value := e.Get("key"), e.Get("newValue")
		if key.Type() == js.TypeString {
			if msg := p.keeper.Changed(key.String(), value.String(), value.Type() != js.TypeString); msg != nil {
				p.dispatch(msg)
			}
		}
	})
	p.listen(p.byID("session-save").Underlying(), "click", func(js.Value) { p.exportSession() })
	p.onClick(p.byID("reference-open"), func() playground.Msg { return playground.ReferenceMsg{Show: true} })
	p.win.SetInterval(func() { Recover(p.tickTimer, p.showPanic) }, 1000)
	p.listen(p.cluster.Underlying(), "change", func(js.Value) {
		p.dispatch(playground.ClusterMsg{Cluster: sim.Topology(p.cluster.Value())})
	})
	p.onFiles(p.byID("cluster-file"), func(files map[string]string) {
		for name, text := range files {
			p.dispatch(playground.ClusterFileMsg{Name: name, Data: text})
		}
	})
	p.onFiles(p.byID("session-file"), func(files map[string]string) {
		for _, text := range files {
			p.dispatch(playground.ImportMsg{Data: text})
		}
	})
	p.mountLayout()
	p.win.SetTimeout(p.tick, playground.TickInterval)
	return p, nil
}

// mountLayout wires the phone's pane switcher (a tablist: playground.PaneKey) and the terminal's
// drawer: its handle, dragged or keyed (playground.HandleKey), and its fold button.
func (p *page) mountLayout() {
	p.listen(p.panes.Underlying(), "keydown", func(e js.Value) {
		if msg, ok := playground.PaneKey(keyboard(e).Key(), p.view.Panes); ok {
			e.Call("preventDefault")
			p.dispatch(msg)
			if tab := p.panes.Underlying().Call("querySelector", `[aria-selected="true"]`); tab.Truthy() {
				tab.Call("focus")
			}
		}
	})
	p.listen(p.drawerHandle.Underlying(), "keydown", func(e js.Value) {
		if msg, ok := playground.HandleKey(keyboard(e).Key(), p.model.Drawer); ok {
			e.Call("preventDefault")
			p.dispatch(msg)
		}
	})
	p.onClick(p.drawerFold, func() playground.Msg {
		d := p.model.Drawer
		d.Folded = !d.Folded
		return playground.DrawerMsg{Drawer: d}
	})
	handle := p.drawerHandle.Underlying()
	p.listen(handle, "pointerdown", func(e js.Value) {
		e.Call("preventDefault")
		handle.Call("setPointerCapture", e.Get("pointerId"))
		p.dragging = true
	})
	p.listen(handle, "pointermove", func(e js.Value) {
		if p.dragging {
			height := js.Global().Get("innerHeight").Float()
			pct := int(100 * (height - e.Get("clientY").Float()) / height)
			p.dispatch(playground.DrawerMsg{Drawer: playground.Drawer{Height: pct}})
		}
	})
	for _, end := range []string{"pointerup", "pointercancel"} {
		p.listen(handle, end, func(js.Value) {
			if p.dragging {
				p.dragging = false
				p.storeDrawer()
			}
		})
	}
}

// storeDrawer remembers the drawer on this device; without storage, it lasts the visit.
func (p *page) storeDrawer() {
	_ = p.keeper.Store.Set(playground.DrawerKey, p.model.Drawer.String())
}

// renderDrawer sizes the terminal's drawer (the CSS variable --drawer) and says its state on its
// handle and fold button.
func (p *page) renderDrawer(d playground.DrawerView) {
	p.doc.Get("documentElement").Get("style").Call("setProperty", "--drawer", strconv.Itoa(d.Height)+"vh")
	setClass(p.drawer, "folded", d.Folded)
	setAttrs(p.drawerHandle, "aria-valuenow", strconv.Itoa(d.Height), "aria-valuetext", d.Value)
	p.drawerFold.SetTextContent(d.Fold)
	p.drawerFold.SetAttribute("aria-expanded", strconv.FormatBool(!d.Folded))
}

// renderPanes draws the phone's pane switcher, a tab per pane (the one shown in the tab order,
// the others reached by the arrow keys), and shows the pane selected.
func (p *page) renderPanes(v playground.View) {
	p.panes.SetTextContent("")
	p.paint.Panes(p.panes.Underlying(), v)
	shown := ""
	for _, t := range v.Panes {
		if t.Selected {
			shown = string(t.Pane)
		}
	}
	for _, e := range all(p.doc, ".work > [data-pane]") {
		setClass(e, "shown", e.GetAttribute("data-pane") == shown)
	}
	if shown != p.shownPane {
		// A phone shows one pane at a time, below the sticky timeline: another pane starts at its
		// top, not at the scroll of the one before (which could hide the terminal's new lines).
		if p.shownPane != "" && p.panes.Underlying().Get("offsetParent").Truthy() {
			js.Global().Call("scrollTo", 0, 0)
		}
		p.shownPane = shown
	}
}

// tick is play's timer. Play ticks are chained, not on an interval: while the clock is moving (a
// Tick under way) no tick begins, and the next is due a whole TickInterval after it stops (see
// work), so however long a tick of a large cluster takes, simulated time runs slower than the
// speed says rather than ticks running back to back.
func (p *page) tick() {
	if p.model.Playing && p.model.Tick == nil {
		p.dispatch(playground.TickMsg{})
	}
	if p.tickDue = p.model.Tick != nil; !p.tickDue {
		p.win.SetTimeout(p.tick, playground.TickInterval)
	}
}

// mountEmbed readies embed.html, the page framed by another (playground.Embed): the html
// element says whether the editor is shown (data-editor, which the style sheet reads), and
// "Open in DaemonLab" links the full page with the session as it is when it is pressed.
func (p *page) mountEmbed() {
	if p.model.Embed == nil {
		return
	}
	if p.model.Embed.Editor {
		p.doc.Get("documentElement").Call("setAttribute", "data-editor", "")
	}
	open := p.byID("open-full")
	for _, on := range []string{"pointerdown", "click"} { // before the browser follows the link
		p.listen(open.Underlying(), on, func(js.Value) {
			open.SetAttribute("href", p.pageDir()+"#"+playground.ShareFragment(p.model))
		})
	}
}

// pageDir is the address of the page's directory, where index.html and embed.html are.
func (p *page) pageDir() string {
	loc := p.win.Location()
	path := loc.Pathname()
	return loc.Origin() + path[:strings.LastIndex(path, "/")+1]
}

// openLink opens a share link pasted into the address bar of the open page (a change of the
// fragment alone does not reload it): the link's session replaces the current one, which is
// kept one click away, or a damaged link leaves it as it is, with a notice. An embed's fragment
// is its configuration: a new one reloads the frame, which reads it.
func (p *page) openLink() {
	if p.model.Embed != nil {
		p.win.Location().Call("reload")
		return
	}
	fragment := takeLink()
	if fragment == "" {
		return
	}
	if m, err := playground.OpenLink(lib, fragment); err != nil {
		println("DaemonLab did not open the link:", err.Error())
		p.dispatch(playground.NoticeMsg{Key: "link.bad"})
	} else {
		p.dispatch(playground.SessionMsg{Session: m})
	}
}

// exportSession downloads the session as a file (playground.Save), which Open session reads.
func (p *page) exportSession() {
	p.download("daemonlab-session.json", "application/json", string(playground.Save(p.model)))
}

// pageAction does one of the notice's page actions (playground.NoticeAction).
func (p *page) pageAction(do string) {
	switch do {
	case "export-session":
		p.exportSession()
	case "download-unreadable":
		p.download("daemonlab-session-unreadable.json", "application/json", p.keeper.Unreadable())
	case "save-over":
		p.keeper.Release()
		p.dispatch(playground.NoticeMsg{})
	}
}

// setEditor replaces the editor's text: the textarea's, and the code editor's (site/editor),
// which listens for "daemonlab-set".
func (p *page) setEditor(text string) {
	p.editor.SetValue(text)
	p.signalEditor("daemonlab-set", "")
}

// signalEditor sends the code editor an event with a JSON detail.
func (p *page) signalEditor(name, detail string) {
	ev := js.Global().Get("CustomEvent").New(name, map[string]any{"detail": detail})
	p.editor.Underlying().Call("dispatchEvent", ev)
}

// showDiagnostics hands the apply's problems to the code editor, which marks them at their
// lines, when they changed.
func (p *page) showDiagnostics(diagnostics string) {
	if diagnostics != p.shownDiagnostics {
		p.shownDiagnostics = diagnostics
		p.editor.SetAttribute("data-problems", p.shownDiagnostics) // for an editor that loads later
		p.signalEditor("daemonlab-problems", p.shownDiagnostics)
	}
}

// openLesson opens the files a teacher chose or dropped, by name, as a lesson.
func (p *page) openLesson(files map[string]string) { p.dispatch(playground.OpenMsg{Files: files}) }

// onFiles calls done with the files chosen in a file input, by name, and clears the input (so
// that choosing the same file again is a change too).
func (p *page) onFiles(input element, done func(map[string]string)) {
	p.listen(input.Underlying(), "change", func(js.Value) {
		p.readFiles(input.Underlying().Get("files"), done)
		input.Underlying().Set("value", "")
	})
}

// readFiles reads the text of every file of a FileList, by name, and calls done with them all.
func (p *page) readFiles(list js.Value, done func(map[string]string)) {
	files := map[string]string{}
	pending := list.Length()
	for i := range list.Length() {
		file := list.Index(i)
		name := file.Get("name").String()
		var read js.Func
		read = js.FuncOf(func(_ js.Value, args []js.Value) any {
			Recover(func() {
				defer read.Release()
				files[name] = args[0].String()
				if pending--; pending == 0 {
					done(files)
				}
			}, p.showPanic)
			return nil
		})
		file.Call("text").Call("then", read)
	}
}

// export downloads the cluster's own objects as daemonlab.yaml (kubectl.Export).
func (p *page) export() {
	text := kubectl.Export(p.model.Sim.C)
	if text == "" {
		p.dispatch(playground.NoticeMsg{Key: "export.empty"})
		return
	}
	p.download("daemonlab.yaml", "application/yaml", text)
}

// download saves text as a file, made in the page: nothing goes to a server.
func (p *page) download(name, mediaType, text string) {
	global := js.Global()
	blob := global.Get("Blob").New([]any{text}, map[string]any{"type": mediaType})
	url := global.Get("URL").Call("createObjectURL", blob)
	link := p.el("a", "", "")
	setAttrs(link, "href", url.String(), "download", name)
	link.Underlying().Call("click")
	p.win.SetTimeout(func() { global.Get("URL").Call("revokeObjectURL", url) }, 10_000)
}

// onClick makes a click on e dispatch the message msg returns.
func (p *page) onClick(e element, msg func() playground.Msg) {
	p.listen(e.Underlying(), "click", func(js.Value) { p.dispatch(msg()) })
}

// promptKey is the terminal's keyboard (playground.TerminalKey).
func (p *page) promptKey(e js.Value) {
	k := keyboard(e)
	in := p.prompt.Underlying()
	if k.Key() == "c" && k.CtrlKey() && in.Get("selectionStart").Int() != in.Get("selectionEnd").Int() {
		return // Ctrl+C copies what is selected
	}
	if msg, ok := playground.TerminalKey(k.Key(), k.CtrlKey(), k.ShiftKey(), p.prompt.Value()); ok {
		k.PreventDefault()
		p.dispatch(msg)
		p.prompt.SetValue(p.view.Input)
		p.shownInput = p.view.Input
	}
}

// promptPaste types a pasted block of lines at the prompt a line at a time
// (playground.PasteMsg); text on one line is pasted as the browser pastes it.
func (p *page) promptPaste(e js.Value) {
	text := e.Get("clipboardData").Call("getData", "text/plain").String()
	if !strings.ContainsAny(text, "\r\n") {
		return
	}
	e.Call("preventDefault")
	in := p.prompt.Underlying()
	value := p.prompt.Value()
	line := value[:in.Get("selectionStart").Int()] // what the paste replaces is dropped
	p.dispatch(playground.PasteMsg{Line: line, Text: text + value[in.Get("selectionEnd").Int():]})
	p.prompt.SetValue(p.view.Input)
	p.shownInput = p.view.Input
}

func (p *page) showPanic(r any) {
	println("DaemonLab internal error:", fmt.Sprint(r), "\n", string(debug.Stack()))
	p.banner.SetTextContent(playground.T(p.shownLang, "panic"))
	p.banner.Class().Remove("hidden")
}

// workSlice is how long one task of the clock's moving runs before the page lets the browser
// paint and handle input: a controller's pass is not cut, so a task can run longer.
const workSlice = 30 * time.Millisecond

// dispatch runs a message through Update and shows the result, except for a play tick's
// beginning and work (the page shows the clock's move when it is over); when the message set the
// clock moving, work is due. A panic inside is reported on the page (dispatch then reports
// false) and leaves the model as it was.
func (p *page) dispatch(msg playground.Msg) (ok bool) {
	ok = !Recover(func() {
		p.resetArmed, p.giveUpArmed = false, false
		p.model = playground.Update(p.model, msg)
		switch msg.(type) {
		case playground.TickMsg:
			if p.model.Playing {
				return // the tick shows the cluster when it stops (work); one that stopped play shows that
			}
		case playground.WorkMsg, playground.StopMsg:
			return
		case playground.ShowLessonsMsg: // only the picker changes
			p.renderPicker(playground.RenderPicker(p.model))
			return
		case playground.AssetMsg: // the lessons, arrived, are listed a lesson at a time
			p.listLessons()
		case playground.DrawerMsg: // only the drawer changes: a drag draws it at every move
			p.renderDrawer(playground.RenderDrawer(p.model))
			if !p.dragging { // a drag is stored as it ends
				p.storeDrawer()
			}
			return
		}
		p.show()
	}, p.showPanic)
	if p.model.Tick != nil && !p.working {
		p.working = true
		p.nodes.SetAttribute("aria-busy", "true") // what the cluster shows is about to change
		p.win.SetTimeout(p.work, 0)
	}
	return ok
}

// work moves the clock on for workSlice, in a task of its own, so that the browser paints and
// handles input between slices; when the clock has stopped it shows the cluster (in a task of
// its own too) and lets the next play tick be due. Meanwhile the cluster is aria-busy.
func (p *page) work() {
	start := time.Now()
	if !p.dispatch(playground.WorkMsg{Enough: func() bool { return time.Since(start) >= workSlice }}) {
		p.dispatch(playground.StopMsg{}) // a run that panicked is not retried
	}
	if p.model.Tick != nil {
		p.win.SetTimeout(p.work, 0)
		return
	}
	p.working = false
	p.win.SetTimeout(func() {
		Recover(p.show, p.showPanic)
		p.nodes.RemoveAttribute("aria-busy")
		if p.tickDue {
			p.tickDue = false
			p.win.SetTimeout(p.tick, playground.TickInterval)
		}
	}, 0)
}

// show saves the session and renders it.
func (p *page) show() {
	p.save()
	p.render()
	p.collectWhenIdle()
}

// saveDelay is how long after a change the session is saved, in milliseconds: a burst of
// changes (typing, steps one after another) is saved once, outside the steps' own tasks.
const saveDelay = 250

// save keeps the session and the lesson progress in localStorage, so that a reload restores
// them: saveDelay after the first change not yet saved, or at once when the page is hidden or
// left (pagehide, visibilitychange).
func (p *page) save() {
	if !p.saveDue {
		p.saveDue = true
		p.win.SetTimeout(func() { Recover(p.saveNow, p.showPanic) }, saveDelay)
	}
}

// saveNow saves a change not yet saved.
func (p *page) saveNow() {
	if !p.saveDue {
		return
	}
	p.saveDue = false
	if msg := p.keeper.Save(p.model); msg != nil {
		p.dispatch(msg)
	}
	p.collectWhenIdle()
}

// collectWhenIdle has the garbage collector run while the browser is idle rather than in the
// middle of handling a command: Go's collector runs on the page's thread, and a collection at
// 1,000 nodes takes about 40 ms, three frames. Once the page is idle (requestIdleCallback, where
// the browser has it) after it handled something, it collects when playground.CollectNow says so.
func (p *page) collectWhenIdle() {
	if p.collectDue || js.Global().Get("requestIdleCallback").Type() != js.TypeFunction {
		return
	}
	p.collectDue = true
	var check js.Func
	check = js.FuncOf(func(js.Value, []js.Value) any {
		check.Release()
		Recover(func() {
			p.collectDue = false
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if playground.CollectNow(ms.HeapAlloc, ms.NextGC) {
				runtime.GC()
			}
		}, p.showPanic)
		return nil
	})
	js.Global().Call("requestIdleCallback", check)
}

// setClass adds or removes one class.
func setClass(e element, class string, on bool) {
	if on {
		e.Class().Add(class)
	} else {
		e.Class().Remove(class)
	}
}

// el is a new element of tag, with a class and a text ("" for none).
func (p *page) el(tag, class, text string) element { return asElement(p.paint.B.El(tag, class, text)) }

// setAttrs sets attributes of e, each given as its name and then its value.
func setAttrs(e interface{ SetAttribute(name, value string) }, nameValues ...string) {
	for i := 0; i+1 < len(nameValues); i += 2 {
		e.SetAttribute(nameValues[i], nameValues[i+1])
	}
}

// setDisabled enables or disables a control.
func setDisabled(e element, disabled bool) {
	if disabled {
		e.SetAttribute("disabled", "")
	} else {
		e.RemoveAttribute("disabled")
	}
}

// translate puts the page's static text into lang: every element's data-i18n text and
// data-i18n-aria label.
func (p *page) translate(lang playground.Lang) {
	p.doc.Get("documentElement").Call("setAttribute", "lang", string(lang))
	p.doc.Set("title", playground.T(lang, "title"))
	for _, e := range all(p.doc, "[data-i18n]") {
		e.SetTextContent(playground.T(lang, e.GetAttribute("data-i18n")))
	}
	for _, a := range [][2]string{{"data-i18n-aria", "aria-label"}, {"data-i18n-title", "title"}} {
		for _, e := range all(p.doc, "["+a[0]+"]") {
			e.SetAttribute(a[1], playground.T(lang, e.GetAttribute(a[0])))
		}
	}
	p.lang.SetValue(string(lang))
	p.shownLang = lang
}

func (p *page) render() {
	v := playground.Render(p.model)
	p.view = v
	clear(p.clicks)
	if v.Lang != p.shownLang {
		p.translate(v.Lang)
	}
	p.paint.Lang, p.paint.OpenMenu = v.Lang, p.openMenu
	for _, t := range markup.Texts(v) {
		p.texts[t.ID].SetTextContent(t.Text)
	}
	focused := ""
	if a := asElement(p.doc.Get("activeElement")); a != nil {
		focused = a.GetAttribute("data-key")
	}

	if v.Editor != p.editor.Value() { // a reset, a lesson, a solution's manifest, another tab
		p.setEditor(v.Editor)
	}
	p.renderTabs(v)
	p.renderDue(v)
	p.play.SetAttribute("aria-pressed", strconv.FormatBool(v.Playing))
	p.speed.SetValue(strconv.Itoa(v.Speed))
	for i, a := range v.Time {
		p.timeButtons[i].SetTextContent(a.Label)
		p.timeButtons[i].SetAttribute("title", a.Command)
	}
	setDisabled(p.undo, v.Step == 0 && !v.Axis.Inside)
	setDisabled(p.redo, v.Step == v.Steps)
	p.renderAxis(v)
	p.reset.SetTextContent(playground.T(v.Lang, map[bool]string{false: "reset", true: "reset.confirm"}[p.resetArmed]))
	setClass(p.reset, "armed", p.resetArmed)
	p.addNode.SetAttribute("title", v.AddNode.Command)

	p.renderNotice(v)
	p.renderLessons(v)
	p.renderDetails(v.Details)
	p.paint.Shown, p.paint.Drawn = p.shownPods, make(map[string]string, len(p.shownPods))
	p.renderNodes(v)
	p.pending.SetTextContent("")
	for _, pod := range v.Pending {
		p.pending.Underlying().Call("appendChild", p.paint.PodChip(pod))
	}
	p.shownPods = p.paint.Drawn
	if v.MorePending > 0 {
		p.pending.AppendChild(p.el("li", "more", playground.T(v.Lang, "more", v.MorePending)))
	}
	if events := markup.EventsText(v); events != p.shownEvents {
		// kubectl lists events oldest first: a new one shows at the end, scrolled to.
		p.shownEvents = events
		p.events.SetTextContent(events)
		p.events.Underlying().Set("scrollTop", p.events.Underlying().Get("scrollHeight"))
	}
	setClass(asElement(p.pending.Underlying().Get("parentElement")), "hidden", len(v.Pending) == 0)
	p.problems.SetTextContent("")
	for _, pr := range v.Problems {
		p.problems.AppendChild(p.el("li", "", pr))
	}
	p.renderLints(v.Lang, v.Lints)
	p.showDiagnostics(v.Diagnostics)
	p.renderTerminal(v)
	p.renderPanes(v)
	p.renderDrawer(v.Drawer)
	if v.Input != p.shownInput { // a solution's line put in the prompt, a key that changed the line
		p.prompt.SetValue(v.Input)
		p.shownInput = v.Input
	}
	if v.Cluster != "" {
		p.cluster.SetValue(v.Cluster)
	}
	p.cluster.SetDisabled(v.Cluster == "") // a lesson starts from its own cluster
	if focused != "" {
		// The element focused before may have been redrawn: focus the one drawn in its place,
		// where it was, so without scrolling (a phone has just scrolled to the panel it opened).
		selector := `[data-key="` + js.Global().Get("CSS").Call("escape", focused).String() + `"]`
		if e := p.doc.Call("querySelector", selector); e.Truthy() {
			e.Call("focus", map[string]any{"preventScroll": true})
		}
	}
	p.doc.Get("documentElement").Call("setAttribute", "data-ready", "true")
}

// renderDue shows the clock's state beside it (its words, and their spoken form for screen
// readers) and what waits on the clock: the next thing due, the click that moves time there
// (echoed in the terminal as its command), and the rest in a list that keeps open across
// renders; or that the cluster is settled.
func (p *page) renderDue(v playground.View) {
	p.clockState.SetTextContent("")
	p.paint.ClockState(p.clockState.Underlying(), v)
	setClass(p.clockState, "playing", v.Playing)
	open := p.due.Underlying().Call("querySelector", "details[open]").Truthy()
	p.due.SetTextContent("")
	p.paint.Due(p.due.Underlying(), v, open)
}

// openFile is the workspace file whose tab is shown, or "".
func (p *page) openFile() string {
	for _, t := range p.view.Tabs {
		if t.Active {
			return t.File
		}
	}
	return ""
}

// renderTabs draws the editor's tabs (each a tab button and, but for the manifest's, a close
// button), and the buttons and hint of the tab shown: Apply, or Save for a kubectl edit.
func (p *page) renderTabs(v playground.View) {
	p.tabs.SetTextContent("")
	p.paint.Tabs(p.tabs.Underlying(), v)
	// A tab newly shown is scrolled into the row's view (a phone shows two or three tabs).
	if key := activeTabKey(v); key != p.shownTab {
		p.shownTab = key
		// the js value's own querySelector: dom's would bring its type-by-constructor wrappers in
		if tab := p.tabs.Underlying().Call("querySelector", ".tab.active"); tab.Truthy() {
			row := p.tabs.Underlying()
			left, width, seen := tab.Get("offsetLeft").Int()-row.Get("offsetLeft").Int(), tab.Get("offsetWidth").Int(), row.Get("clientWidth").Int()
			if scroll := row.Get("scrollLeft").Int(); left < scroll || left+width > scroll+seen {
				row.Set("scrollLeft", max(0, left+width-seen))
			}
		}
	}
	setClass(p.apply, "hidden", v.Editing)
	setClass(p.saveEdit, "hidden", !v.Editing)
}

// activeTabKey names the tab shown: its file, or the edit's title.
func activeTabKey(v playground.View) string {
	for _, t := range v.Tabs {
		if t.Active {
			return t.File + "\x00" + strconv.FormatBool(t.Edit) + t.Title
		}
	}
	return ""
}

// renderAxis draws the time axis: the slider over the clock's seconds, its value's text, and
// the marks over its track, buttons that seek to their instant (drawn again only when they
// changed: play redraws the page at every tick).
func (p *page) renderAxis(v playground.View) {
	a := v.Axis
	seconds := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	setAttrs(p.scrubber, "min", seconds(a.Start), "max", seconds(a.End), "aria-valuetext", a.Text, "aria-label", playground.T(v.Lang, "axis"))
	p.scrubber.SetValue(seconds(a.Now))
	p.axisMarks.SetAttribute("aria-label", playground.T(v.Lang, "axis.marks"))
	length := a.End - a.Start
	redraw := !slices.Equal(a.Marks, p.shownMarks) || a.Named != p.shownNamed
	if redraw {
		p.axisMarks.SetTextContent("")
		p.shownMarks, p.shownNamed = a.Marks, a.Named
	}
	for i, mk := range a.Marks {
		key := "mark:" + strconv.Itoa(i)
		p.clicks[key] = func() playground.Msg { return playground.SeekTimeMsg{At: mk.At} }
		if !redraw {
			continue
		}
		left := 0.0
		if length > 0 {
			left = 100 * float64(mk.At-a.Start) / float64(length)
		}
		class := "mark " + string(mk.Kind)
		if i == a.Named {
			class += " named"
		}
		switch {
		case left < 25:
			class += " start"
		case left > 75:
			class += " end"
		}
		b := p.button(class, "", key, nil)
		setAttrs(b, "aria-label", mk.Text, "title", mk.Text)
		b.Underlying().Get("style").Call("setProperty", "left", strconv.FormatFloat(left, 'f', 2, 64)+"%") // the page's policy refuses style attributes, not the CSSOM
		b.AppendChild(p.el("span", "mark-label", mk.Label))
		p.axisMarks.AppendChild(b)
	}
}

// renderNotice shows the notice, with its buttons, and the share link or the code to embed when
// one was just made.
func (p *page) renderNotice(v playground.View) {
	setClass(p.notice, "hidden", v.Notice == "")
	p.noticeText.SetTextContent(v.Notice)
	setClass(p.dismiss, "hidden", v.MustChoose)
	p.unsaved.SetTextContent(v.Unsaved)
	setClass(p.unsaved, "hidden", v.Unsaved == "")
	p.noticeActions.SetTextContent("")
	for i, a := range v.NoticeActions {
		key := "notice:" + strconv.Itoa(i)
		b := p.el("button", "", a.Label)
		setAttrs(b, "type", "button", "data-key", key)
		p.clicks[key] = func() playground.Msg {
			if a.Page != "" {
				p.pageAction(a.Page)
			}
			return a.Msg
		}
		p.noticeActions.AppendChild(b)
	}
	setClass(p.shareURL.BasicHTMLElement, "hidden", v.Share == "")
	if v.Share != "" {
		loc := p.win.Location()
		p.shareURL.SetValue(loc.Origin() + loc.Pathname() + "#" + v.Share)
		p.shareURL.Select()
	}
	setClass(p.embedCode.BasicHTMLElement, "hidden", v.Embed == "")
	setClass(p.copyShare, "hidden", v.Share == "" && v.Embed == "")
	if v.Embed != "" {
		if code := playground.EmbedSnippet(p.pageDir() + "embed.html#" + v.Embed); code != p.embedCode.Value() {
			p.embedCode.SetValue(code)
			p.embedCode.Select()
		}
	}
	if shown := string(v.Lang) + " " + v.Share + v.Embed; shown != p.shownShare { // a new link is not copied yet (site/main.js copies it)
		p.copyShare.SetTextContent(playground.T(v.Lang, "copy"))
		setAttrs(p.copyShare, "data-copied", "✓ "+playground.T(v.Lang, "copied"), "data-select", playground.T(v.Lang, "copy.select"))
		p.shownShare = shown
	}
}

// renderNodes draws the cluster: node cards with their pods, a grid of cells for a large
// cluster, or a table.
func (p *page) renderNodes(v playground.View) {
	p.tableToggle.SetAttribute("aria-pressed", strconv.FormatBool(v.Table))
	setClass(p.nodes, "compact", v.Compact && !v.Table)
	if v.Compact && !v.Table {
		p.renderGrid(v)
		return
	}
	p.cells = nil
	p.nodes.SetTextContent("")
	if v.Table {
		p.nodes.AppendChild(p.nodeTable(v))
		return
	}
	p.paint.Nodes(p.nodes.Underlying(), v)
}

// cell is a node's cell in the compact grid, as drawn: its node's status and pods, in a
// language.
type cell struct {
	el           element
	name, status string
	pods         int
	lang         playground.Lang
}

// renderGrid draws a large cluster as a grid of cells, a button per node. While the nodes are
// the same, the cells drawn are kept and only what changed is set (a grid of 5,000 nodes is
// redrawn on every tick of play).
func (p *page) renderGrid(v playground.View) {
	same := len(p.cells) == len(v.Nodes)
	for i := 0; same && i < len(v.Nodes); i++ {
		same = p.cells[i].name == v.Nodes[i].Name
	}
	if !same {
		p.nodes.SetTextContent("")
		p.cells = make([]cell, len(v.Nodes))
	}
	for i, n := range v.Nodes {
		c := &p.cells[i]
		if c.el == nil {
			c.el, c.name = p.openButton("", "", playground.Ref{Kind: "Node", Name: n.Name}), n.Name
			c.el.SetAttribute("data-node", n.Name)
			p.nodes.AppendChild(c.el)
		}
		if c.status != n.Status {
			c.el.SetAttribute("class", "cell "+playground.StatusClass(n.Status))
		}
		if c.status != n.Status || c.pods != n.PodCount || c.lang != v.Lang {
			label := playground.T(v.Lang, "cell", n.Name, n.Status, n.PodCount)
			setAttrs(c.el, "aria-label", label, "title", label)
		}
		c.status, c.pods, c.lang = n.Status, n.PodCount, v.Lang
	}
}

// nodeTable is the cluster as a table: a node per row with its status, roles, taints and pods.
func (p *page) nodeTable(v playground.View) element {
	table := p.el("table", "cluster-table", "")
	head := p.el("tr", "", "")
	for _, col := range []string{"col.node", "col.status", "col.roles", "col.taints", "col.pods"} {
		th := p.el("th", "", playground.T(v.Lang, col))
		th.SetAttribute("scope", "col")
		head.AppendChild(th)
	}
	table.AppendChild(head)
	for _, n := range v.Nodes {
		row := p.el("tr", "", "")
		row.SetAttribute("data-node", n.Name)
		th := p.el("th", "", "")
		th.SetAttribute("scope", "row")
		th.AppendChild(p.openButton("node-name", n.Name, playground.Ref{Kind: "Node", Name: n.Name}))
		row.AppendChild(th)
		row.AppendChild(p.el("td", "", n.Status))
		row.AppendChild(p.el("td", "", n.Roles))
		row.AppendChild(p.el("td", "", strings.Join(n.Taints, "\n")))
		pods := p.el("td", "", strconv.Itoa(n.PodCount))
		if len(n.Pods) > 0 {
			var lines []string
			for _, pod := range n.Pods {
				lines = append(lines, pod.Namespace+"/"+pod.Name+" "+pod.Ready+" "+pod.Status)
			}
			pods.SetTextContent(strings.Join(lines, "\n"))
		}
		row.AppendChild(pods)
		table.AppendChild(row)
	}
	return table
}

// renderDetails shows the panel on the selected object, or hides it. A phone, which shows the
// panel above the cards it was opened from, scrolls it into view, below its sticky timeline and
// pane switcher, as it opens on an object.
func (p *page) renderDetails(d *playground.Details) {
	setClass(p.details, "hidden", d == nil)
	if d == nil {
		p.shownDetails = playground.Ref{}
		return
	}
	p.detailsTitle.SetTextContent(d.Ref.String())
	p.detailsWhy.SetTextContent("")
	setClass(asElement(p.detailsWhy.Underlying().Get("previousElementSibling")), "hidden", len(d.Why) == 0)
	for _, w := range d.Why {
		p.detailsWhy.AppendChild(p.el("li", "", w))
	}
	p.detailsSecs.SetTextContent("")
	if d.Placement != nil {
		p.detailsSecs.Underlying().Call("appendChild", p.paint.Placement(d.Placement))
	}
	if len(d.Actions) > 0 {
		p.detailsSecs.Underlying().Call("appendChild", p.paint.ActionButtons(d.Actions, "", "node-actions"))
	}
	for _, s := range d.Sections {
		h := p.el("h4", "", "")
		h.AppendChild(p.el("code", "", "$ "+s.Command))
		p.detailsSecs.AppendChild(h)
		p.detailsSecs.AppendChild(p.el("pre", "", s.Text))
	}
	if d.Ref != p.shownDetails && p.panes.Underlying().Get("offsetParent").Truthy() {
		p.details.Underlying().Call("scrollIntoView", map[string]any{"block": "start"})
		js.Global().Call("scrollBy", 0, -p.panes.Underlying().Call("getBoundingClientRect").Get("bottom").Float())
	}
	p.shownDetails = d.Ref
}

// renderTerminal draws the terminal's lines. The lines drawn are kept: those the scrollback
// dropped from the top are removed and new ones appended, so a render that printed nothing
// touches nothing.
func (p *page) renderTerminal(v playground.View) {
	kept := playground.KeptLines(p.shownTerm, v.Terminal)
	if kept == 0 {
		p.terminal.SetTextContent("")
	} else {
		for range len(p.shownTerm) - kept {
			p.terminal.Underlying().Get("firstChild").Call("remove")
		}
	}
	if kept == len(v.Terminal) && kept == len(p.shownTerm) {
		return
	}
	for _, l := range v.Terminal[kept:] {
		p.terminal.AppendChild(p.el("pre", l.Class(), l.Text))
	}
	p.shownTerm = v.Terminal
	// Scrolled to the end just before the next frame's layout: reading the terminal's height
	// now would lay the whole page out in the middle of the render.
	js.Global().Call("requestAnimationFrame", p.scrollTerminal)
}

// renderLints lists the warnings on the editor's text under it, headed by what they are.
func (p *page) renderLints(lang playground.Lang, lints []string) {
	p.lints.SetTextContent("")
	setClass(p.lints, "hidden", len(lints) == 0)
	if len(lints) == 0 {
		return
	}
	p.lints.AppendChild(p.el("strong", "", playground.T(lang, "lints.title")))
	list := p.el("ul", "", "")
	for _, lint := range lints {
		list.AppendChild(p.el("li", "", lint))
	}
	p.lints.AppendChild(list)
}

// button is a button that dispatches msg's message when clicked (markup's Painter.Button).
func (p *page) button(class, text, key string, msg func() playground.Msg) element {
	return asElement(p.paint.Button(class, text, key, msg))
}

// openButton is a button that opens the details panel on ref (markup's Painter.OpenButton).
func (p *page) openButton(class, text string, ref playground.Ref) element {
	return asElement(p.paint.OpenButton(class, text, ref))
}
