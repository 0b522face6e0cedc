//go:build js && wasm

package main

import (
	"slices"
	"strconv"
	"strings"

	"daemonlab/core/playground"
)

// renderPicker fills the lesson picker, when what it shows changed.
func (p *page) renderPicker(want playground.Picker) {
	if shown := p.shownPicker; slices.Equal(shown.Lessons, want.Lessons) && shown.Lang == want.Lang && shown.Current == want.Current {
		return
	}
	picker := p.lessonPicker
	picker.SetTextContent("")
	sandbox := p.el("option", "", playground.T(want.Lang, "lesson.sandbox"))
	sandbox.SetAttribute("value", "")
	picker.AppendChild(sandbox)
	for i, l := range want.Lessons {
		o := p.el("option", "", playground.T(want.Lang, "lesson.item", i+1, l.Title, l.Done, l.Steps))
		o.SetAttribute("value", l.ID)
		picker.AppendChild(o)
	}
	picker.SetValue(want.Current)
	p.shownPicker = want
}

// renderLessons fills the lesson picker and draws the lesson panel.
func (p *page) renderLessons(v playground.View) {
	p.renderPicker(v.Picker)

	panel := p.tutor
	panel.SetTextContent("")
	setClass(panel, "hidden", v.Tutor == nil)
	if v.Tutor == nil {
		return
	}
	t, l := v.Tutor, v.Lang
	head := p.el("header", "", "")
	head.AppendChild(p.el("h2", "", t.Heading))
	head.AppendChild(p.el("span", "lesson-step", playground.T(l, "lesson.step", t.Step, t.Steps)))
	head.AppendChild(p.button("small quiet", playground.T(l, "lesson.leave"), "lesson leave", func() playground.Msg { return playground.LessonMsg{} }))
	panel.AppendChild(head)
	if t.Step == 1 {
		panel.AppendChild(p.prose("p", "intro", t.Intro))
	}
	panel.AppendChild(p.prose("p", "step-text", t.Text))
	if len(t.Choices) > 0 {
		panel.AppendChild(p.prediction(l, t))
	}
	for _, h := range t.Hints {
		panel.AppendChild(p.prose("p", "hint", h))
	}
	actions := p.el("div", "lesson-actions", "")
	hint := p.button("small quiet", playground.T(l, "lesson.hint"), "lesson hint", func() playground.Msg { return playground.HintMsg{} })
	setDisabled(hint, !t.MoreHints)
	actions.AppendChild(hint)
	solve := p.button("small quiet", playground.T(l, "lesson.solve"), "lesson solve", func() playground.Msg { return playground.SolutionMsg{} })
	solve.SetAttribute("title", t.NextSolution)
	setDisabled(solve, t.NextSolution == "")
	actions.AppendChild(solve)
	goal := p.el("span", "goal", playground.T(l, "lesson.goal"))
	if t.Met {
		goal = p.el("span", "goal met", playground.T(l, "lesson.met"))
	}
	goal.SetAttribute("role", "status")
	actions.AppendChild(goal)
	switch {
	case t.Met && t.Last:
		actions.AppendChild(p.el("strong", "lesson-done", playground.T(l, "lesson.done")))
	case t.Met:
		actions.AppendChild(p.button("", playground.T(l, "lesson.next"), "lesson next", func() playground.Msg { return playground.NextStepMsg{} }))
	}
	panel.AppendChild(actions)
}

// prediction is a step's question: a button per choice until one is chosen, then the choices
// marked right and wrong, and the explanation.
func (p *page) prediction(l playground.Lang, t *playground.TutorView) element {
	box := p.el("fieldset", "predict", "")
	box.AppendChild(p.el("legend", "", playground.T(l, "lesson.predict")))
	for i, c := range t.Choices {
		choice := i + 1
		b := p.prose("button", "choice", c)
		setAttrs(b, "type", "button", "data-key", "choice "+strconv.Itoa(choice))
		if t.Predicted == 0 {
			p.clicks["choice "+strconv.Itoa(choice)] = func() playground.Msg { return playground.PredictMsg{Choice: choice} }
		} else {
			b.SetAttribute("aria-disabled", "true")
			setClass(b, "right", choice == t.Answer)
			setClass(b, "wrong", choice == t.Predicted && choice != t.Answer)
		}
		box.AppendChild(b)
	}
	if t.Predicted > 0 {
		box.AppendChild(p.prose("p", "explain", t.Verdict+" "+t.Explain))
	}
	return box
}

// prose is an element with a lesson's text, `code` spans as <code>: built node by node, never
// from markup, so a lesson file cannot inject HTML.
func (p *page) prose(tag, class, text string) element {
	e := p.el(tag, class, "")
	for i, part := range strings.Split(strings.TrimSpace(text), "`") {
		if part == "" {
			continue
		}
		if i%2 == 1 {
			e.AppendChild(p.el("code", "", part))
		} else {
			e.Underlying().Call("append", part)
		}
	}
	return e
}
