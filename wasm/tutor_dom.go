//go:build js && wasm

package main

import (
	"slices"
	"strconv"
	"strings"
)

// pickerState is what the lesson picker shows: the lessons with their progress, in a language,
// and the lesson chosen.
type pickerState struct {
	lessons []LessonItem
	lang    Lang
	current string
}

// renderPicker fills the lesson picker, when what it shows changed.
func (p *page) renderPicker(want pickerState) {
	if shown := p.shownPicker; slices.Equal(shown.lessons, want.lessons) && shown.lang == want.lang && shown.current == want.current {
		return
	}
	picker := p.lessonPicker
	picker.SetTextContent("")
	sandbox := p.el("option", "", T(want.lang, "lesson.sandbox"))
	sandbox.SetAttribute("value", "")
	picker.AppendChild(sandbox)
	for i, l := range want.lessons {
		o := p.el("option", "", T(want.lang, "lesson.item", i+1, l.Title, l.Done, l.Steps))
		o.SetAttribute("value", l.ID)
		picker.AppendChild(o)
	}
	picker.SetValue(want.current)
	p.shownPicker = want
}

// renderLessons fills the lesson picker and draws the lesson panel.
func (p *page) renderLessons(v View) {
	current := ""
	if v.Tutor != nil {
		current = v.Tutor.ID
	}
	p.renderPicker(pickerState{v.Lessons, v.Lang, current})

	panel := p.tutor
	panel.SetTextContent("")
	setClass(panel, "hidden", v.Tutor == nil)
	if v.Tutor == nil {
		return
	}
	t, l := v.Tutor, v.Lang
	head := p.el("header", "", "")
	title := T(l, "lesson.own", t.Title) // a lesson opened from disk has number 00
	if number, _ := strconv.Atoi(strings.SplitN(t.ID, "-", 2)[0]); number > 0 {
		title = T(l, "lesson.title", number, t.Title)
	}
	head.AppendChild(p.el("h2", "", title))
	head.AppendChild(p.el("span", "lesson-step", T(l, "lesson.step", t.Step, t.Steps)))
	head.AppendChild(p.button("small quiet", T(l, "lesson.leave"), "lesson leave", func() any { return LessonMsg{} }))
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
	hint := p.button("small quiet", T(l, "lesson.hint"), "lesson hint", func() any { return HintMsg{} })
	setDisabled(hint, !t.MoreHints)
	actions.AppendChild(hint)
	solve := p.button("small quiet", T(l, "lesson.solve"), "lesson solve", func() any { return SolutionMsg{} })
	solve.SetAttribute("title", t.NextSolution)
	setDisabled(solve, t.NextSolution == "")
	actions.AppendChild(solve)
	goal := p.el("span", "goal", T(l, "lesson.goal"))
	if t.Met {
		goal = p.el("span", "goal met", T(l, "lesson.met"))
	}
	goal.SetAttribute("role", "status")
	actions.AppendChild(goal)
	switch {
	case t.Met && t.Last:
		actions.AppendChild(p.el("strong", "lesson-done", T(l, "lesson.done")))
	case t.Met:
		actions.AppendChild(p.button("", T(l, "lesson.next"), "lesson next", func() any { return NextStepMsg{} }))
	}
	panel.AppendChild(actions)
}

// prediction is a step's question: a button per choice until one is chosen, then the choices
// marked right and wrong, and the explanation.
func (p *page) prediction(l Lang, t *TutorView) element {
	box := p.el("fieldset", "predict", "")
	box.AppendChild(p.el("legend", "", T(l, "lesson.predict")))
	for i, c := range t.Choices {
		choice := i + 1
		b := p.prose("button", "choice", c)
		b.SetAttribute("type", "button")
		b.SetAttribute("data-key", "choice "+strconv.Itoa(choice))
		switch {
		case t.Predicted == 0:
			p.clicks["choice "+strconv.Itoa(choice)] = func() any { return PredictMsg{Choice: choice} }
		case choice == t.Answer:
			b.Class().Add("right")
			b.SetAttribute("aria-disabled", "true")
		case choice == t.Predicted:
			b.Class().Add("wrong")
			b.SetAttribute("aria-disabled", "true")
		default:
			b.SetAttribute("aria-disabled", "true")
		}
		box.AppendChild(b)
	}
	if t.Predicted > 0 {
		verdict := T(l, "lesson.wrong")
		if t.Predicted == t.Answer {
			verdict = T(l, "lesson.right")
		}
		explain := p.prose("p", "explain", verdict+" "+t.Explain)
		box.AppendChild(explain)
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
