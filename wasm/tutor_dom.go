//go:build js && wasm

package main

import (
	"slices"
	"strconv"
	"strings"
	"syscall/js"

	"daemonlab/core/playground"
)

// renderPicker fills the lesson picker, when what it shows changed: the sandbox, the lessons and
// the challenges, each kind in a group of its own.
func (p *page) renderPicker(want playground.Picker) {
	if shown := p.shownPicker; slices.Equal(shown.Lessons, want.Lessons) && shown.Lang == want.Lang && shown.Current == want.Current && shown.Waiting == want.Waiting {
		return
	}
	picker := p.lessonPicker
	picker.SetTextContent("")
	p.paint.Picker(picker.Underlying(), want)
	picker.SetValue(want.Current)
	p.shownPicker = want
}

// renderLessons fills the lesson picker and draws the lesson panel: the reference when it is
// asked for, else the lesson or challenge being taken.
func (p *page) renderLessons(v playground.View) {
	p.renderPicker(v.Picker)

	panel := p.tutor
	panel.SetTextContent("")
	p.timer = nil
	setClass(panel, "hidden", v.Tutor == nil && v.Reference == nil)
	shows := "reference"
	if t := v.Tutor; v.Reference == nil && t != nil {
		shows = t.ID + "/" + strconv.Itoa(t.Step)
	}
	if shows != p.shownPanel { // another lesson, step or the reference starts at its top
		panel.Underlying().Set("scrollTop", 0)
		p.shownPanel = shows
	}
	switch {
	case v.Reference != nil:
		p.renderReference(v.Lang, v.Reference)
		return
	case v.Tutor == nil:
		return
	}
	t, l := v.Tutor, v.Lang
	head := p.el("header", "", "")
	head.AppendChild(p.el("h2", "", t.Heading))
	if c := t.Challenge; c != nil {
		head.AppendChild(p.el("span", "lesson-step", playground.T(l, "challenge.minutes", c.Minutes)))
	} else {
		head.AppendChild(p.el("span", "lesson-step", playground.T(l, "lesson.step", t.Step, t.Steps)))
	}
	leave := map[bool]string{false: "lesson.leave", true: "challenge.leave"}[t.Challenge != nil]
	head.AppendChild(p.button("small quiet", playground.T(l, leave), "lesson leave", func() playground.Msg { return playground.LessonMsg{} }))
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
	if len(t.Solution) > 0 {
		panel.AppendChild(p.solution(l, t.Solution))
	}
	if c := t.Challenge; c != nil {
		panel.AppendChild(p.challenge(l, t, c))
		return
	}
	actions := p.el("div", "lesson-actions", "")
	hint := p.button("small quiet", playground.T(l, "lesson.hint"), "lesson hint", func() playground.Msg { return playground.HintMsg{} })
	setDisabled(hint, !t.MoreHints)
	actions.AppendChild(hint)
	solve := p.button("small quiet", playground.T(l, "lesson.solve"), "lesson solve", func() playground.Msg { return p.showSolution() })
	setDisabled(solve, len(t.Solution) > 0)
	actions.AppendChild(solve)
	goal := p.el("span", "goal", playground.T(l, "lesson.goal"))
	switch {
	case t.Met:
		goal = p.el("span", "goal met", playground.T(l, "lesson.met"))
	case t.PredictFirst:
		goal = p.el("span", "goal", playground.T(l, "lesson.predictFirst"))
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
	if t.Recap != nil {
		panel.AppendChild(p.recap(l, "", *t.Recap))
	}
	if t.Next != nil {
		panel.AppendChild(p.nextLesson(l, t.Next))
	}
}

// prediction is a step's question: the question and a button per choice until one is chosen
// (or the answer is revealed), then the choices marked right and wrong (or revealed), and the
// explanation.
func (p *page) prediction(l playground.Lang, t *playground.TutorView) element {
	box := p.el("fieldset", "predict", "")
	box.AppendChild(p.el("legend", "", playground.T(l, "lesson.predict")))
	box.AppendChild(p.prose("p", "question", t.Question))
	for i, c := range t.Choices {
		choice := i + 1
		b := p.prose("button", "choice", c)
		setAttrs(b, "type", "button", "data-key", "choice "+strconv.Itoa(choice))
		switch {
		case t.Answer == 0:
			p.clicks["choice "+strconv.Itoa(choice)] = func() playground.Msg { return playground.PredictMsg{Choice: choice} }
		case t.Revealed:
			b.SetAttribute("aria-disabled", "true")
			setClass(b, "revealed", choice == t.Answer)
		default:
			b.SetAttribute("aria-disabled", "true")
			setClass(b, "right", choice == t.Answer)
			setClass(b, "wrong", choice == t.Predicted && choice != t.Answer)
		}
		box.AppendChild(b)
	}
	if t.Answer > 0 {
		box.AppendChild(p.prose("p", "explain", playground.JoinProse(t.Verdict, playground.Flow(t.Explain))))
	}
	return box
}

// solution is a shown solution: nothing has run; each line is a button that puts it in the
// prompt (or its manifest or file in the editor) and moves the focus there, for the learner to
// run.
func (p *page) solution(l playground.Lang, lines []playground.SolutionLine) element {
	box := p.el("div", "solution", "")
	box.AppendChild(p.el("p", "solution-head", playground.T(l, "lesson.solution")))
	list := p.el("ol", "", "")
	for i, line := range lines {
		item := p.el("li", "", "")
		key := "solution " + strconv.Itoa(i)
		b := p.button("small quiet solution-line", "", key, nil)
		b.AppendChild(p.el("code", "", line.Text))
		to := map[bool]string{false: "lesson.solution.prompt", true: "lesson.solution.editor"}[line.Editor]
		b.AppendChild(p.el("span", "solution-to", "→ "+playground.T(l, to)))
		editor := line.Editor
		p.clicks[key] = func() playground.Msg {
			p.dispatch(playground.UseSolutionMsg{Line: i})
			p.focusSolution(editor)
			return nil
		}
		item.AppendChild(b)
		list.AppendChild(item)
	}
	box.AppendChild(list)
	return box
}

// showSolution shows the step's solution (a challenge's: gives up) and, when its first line is a
// command, which waits in the prompt, moves the focus there.
func (p *page) showSolution() playground.Msg {
	p.dispatch(playground.SolutionMsg{})
	if t := p.view.Tutor; t != nil && len(t.Solution) > 0 && !t.Solution[0].Editor {
		p.focusSolution(false) // a command waits in the prompt; a manifest or a file waits for its click
	}
	return nil
}

// focusSolution moves the focus where a solution's line waits: the prompt, or Apply under the
// editor that holds it.
func (p *page) focusSolution(editor bool) {
	if editor {
		p.apply.Underlying().Call("focus")
		return
	}
	p.prompt.Focus()
}

// challenge is a challenge's part of the panel: the timer, the hint, Check and Give up buttons,
// each check's verdict after a Check, and the result.
func (p *page) challenge(l playground.Lang, t *playground.TutorView, c *playground.ChallengeView) element {
	box := p.el("div", "challenge", "")
	actions := p.el("div", "lesson-actions", "")
	if !c.Solved {
		check := p.button("", playground.T(l, "challenge.check"), "challenge check", func() playground.Msg { return playground.CheckMsg{Now: now()} })
		actions.AppendChild(check)
		timerLabel := map[bool]string{false: "challenge.timer", true: "challenge.timerAgain"}[c.Started > 0]
		actions.AppendChild(p.button("small quiet", playground.T(l, timerLabel), "challenge timer", func() playground.Msg { return playground.TimerMsg{Now: now()} }))
		if c.Started > 0 {
			p.timer = p.el("span", "timer", playground.TimerText(l, c.Minutes, c.Started, now()))
			p.timer.SetAttribute("role", "timer")
			actions.AppendChild(p.timer)
		}
	}
	hint := p.button("small quiet", playground.T(l, "lesson.hintOf", len(t.Hints)+1, t.HintCount), "lesson hint", func() playground.Msg { return playground.HintMsg{} })
	if !t.MoreHints {
		hint.SetTextContent(playground.T(l, "lesson.hint"))
	}
	setDisabled(hint, !t.MoreHints)
	actions.AppendChild(hint)
	if !c.Solved && !c.GaveUp {
		label := map[bool]string{false: "challenge.giveup", true: "challenge.giveupConfirm"}[p.giveUpArmed]
		giveUp := p.button("small quiet", playground.T(l, label), "lesson solve", func() playground.Msg {
			if !p.giveUpArmed { // a give-up is asked twice, as a reset is
				p.giveUpArmed = true
				p.render()
				return nil
			}
			return p.showSolution()
		})
		setClass(giveUp, "armed", p.giveUpArmed)
		actions.AppendChild(giveUp)
	}
	box.AppendChild(actions)
	if len(c.Checks) > 0 {
		results := p.el("div", "checks", "")
		results.SetAttribute("role", "status")
		results.AppendChild(p.el("p", "", playground.T(l, "challenge.checking")))
		list := p.el("ul", "", "")
		for _, ch := range c.Checks {
			item := p.prose("li", map[bool]string{false: "check failed", true: "check passed"}[ch.Passed], ch.Text)
			list.AppendChild(item)
		}
		results.AppendChild(list)
		if !c.Solved {
			results.AppendChild(p.el("p", "", playground.T(l, "challenge.notYet")))
		}
		box.AppendChild(results)
	}
	if c.Solved {
		done := playground.T(l, "challenge.done")
		switch {
		case c.GaveUp:
			done = playground.T(l, "challenge.withSolution")
		case c.Took > 0:
			done = playground.JoinProse(done, playground.TookText(l, c.Took))
		}
		box.AppendChild(p.el("strong", "lesson-done", done))
	}
	if c.Result != "" {
		box.AppendChild(p.el("p", "result", playground.T(l, "challenge.result", c.Result)))
	}
	if t.Next != nil {
		box.AppendChild(p.nextLesson(l, t.Next))
	}
	return box
}

// tickTimer moves a challenge's timer on, once a second.
func (p *page) tickTimer() {
	if t := p.view.Tutor; p.timer != nil && t != nil && t.Challenge != nil {
		p.timer.SetTextContent(playground.TimerText(p.view.Lang, t.Challenge.Minutes, t.Challenge.Started, now()))
	}
}

// now is the page's clock, in milliseconds: the core reads no clock, the page hands it in.
func now() float64 { return js.Global().Get("Date").Call("now").Float() }

// recap is a lesson's recap card: the rules, the commands and the tutorials' claims it tested,
// under its heading (the lesson's own in the reference, "What you learned" at a lesson's end).
func (p *page) recap(l playground.Lang, heading string, r playground.RecapView) element {
	card := p.el("section", "recap", "")
	if heading == "" {
		heading = playground.T(l, "recap.title")
	}
	card.AppendChild(p.el("h3", "", heading))
	card.AppendChild(p.el("h4", "", playground.T(l, "recap.rules")))
	rules := p.el("ul", "", "")
	for _, rule := range r.Rules {
		rules.AppendChild(p.prose("li", "", rule))
	}
	card.AppendChild(rules)
	card.AppendChild(p.el("h4", "", playground.T(l, "recap.commands")))
	commands := p.el("ul", "commands", "")
	for _, c := range r.Commands {
		item := p.el("li", "", "")
		item.AppendChild(p.el("code", "", c))
		commands.AppendChild(item)
	}
	card.AppendChild(commands)
	if len(r.Claims) > 0 {
		card.AppendChild(p.el("h4", "", playground.T(l, "recap.claims")))
		claims := p.el("ul", "claims", "")
		for _, c := range r.Claims {
			item := p.prose("li", "", c.Text)
			item.AppendChild(p.el("span", "claim-where", " — "+c.Where+": "))
			item.AppendChild(p.el("strong", "verdict", c.Verdict))
			claims.AppendChild(item)
		}
		card.AppendChild(claims)
	}
	return card
}

// nextLesson is the button to what comes next, and to the reference.
func (p *page) nextLesson(l playground.Lang, next *playground.LessonItem) element {
	row := p.el("div", "lesson-actions", "")
	id := next.ID
	row.AppendChild(p.button("", playground.T(l, "lesson.nextLesson", next.Title), "lesson goto", func() playground.Msg { return playground.LessonMsg{ID: id} }))
	row.AppendChild(p.button("small quiet", playground.T(l, "reference.openShort"), "reference open", func() playground.Msg { return playground.ReferenceMsg{Show: true} }))
	return row
}

// renderReference draws every lesson's recap in the panel, each with a button to its lesson.
func (p *page) renderReference(l playground.Lang, r *playground.ReferenceView) {
	head := p.el("header", "", "")
	head.AppendChild(p.el("h2", "", playground.T(l, "reference.title")))
	head.AppendChild(p.button("small quiet", playground.T(l, "reference.close"), "reference close", func() playground.Msg { return playground.ReferenceMsg{} }))
	p.tutor.AppendChild(head)
	for _, entry := range r.Lessons {
		card := p.recap(l, entry.Heading, entry.Recap)
		id := entry.ID
		card.AppendChild(p.button("small quiet", playground.T(l, "reference.lesson"), "reference lesson "+id, func() playground.Msg { return playground.LessonMsg{ID: id} }))
		if entry.Done {
			p.tutor.AppendChild(card)
			continue
		}
		// A lesson not finished yet: its recap answers its predictions, so it is folded.
		folded := p.el("details", "recap-later", "")
		folded.AppendChild(p.el("summary", "", playground.T(l, "reference.later", entry.Heading)))
		folded.AppendChild(card)
		p.tutor.AppendChild(folded)
	}
}

// prose is an element with a lesson's text, its lines flowing as written text does
// (playground.Flow), `code` spans as <code>: built node by node, never from markup, so a lesson
// file cannot inject HTML.
func (p *page) prose(tag, class, text string) element {
	e := p.el(tag, class, "")
	for i, part := range strings.Split(playground.Flow(text), "`") {
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
