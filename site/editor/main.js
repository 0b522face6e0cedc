// DaemonLab's YAML editor: CodeMirror 6 in place of the page's textarea, bundled by esbuild into
// ../editor.js (`make site/editor.js`). Go (main.wasm) owns the state and knows only the
// textarea, which stays the editor's mirror:
//
//   1. every edit here is copied into the textarea, followed by an "input" event;
//   2. Go replaces the text by setting the textarea and sending it "daemonlab-set" (the editor
//      starts afresh on it, its undo history too);
//   3. Go sends "daemonlab-problems" with the apply's problems as JSON ([{line, column, message}]),
//      shown as diagnostics at their line, and keeps the last in the textarea's data-problems;
//   4. Ctrl/Cmd+Enter presses the Apply button;
//   5. Tab indents (Shift+Tab outdents); Escape and then Tab (within 2 s) moves the focus on, as
//      CodeMirror's tab focus mode does, so the editor is no keyboard trap (the hint under it
//      says so);
//   6. its colours are the page's CSS variables (site/style.css), which reach into the shadow
//      root: a dark system theme darkens the editor and its syntax colours with the page.
//
// main.js loads this bundle once the page is ready: until then the plain textarea is the editor.
// So the editor starts from the textarea as it finds it: its text, the problems shown, and the
// focus and selection when the learner is already in it.
//
// The editor lives in a shadow root: there CodeMirror's styles go into a constructed style sheet,
// which the page's Content-Security-Policy (style-src 'self') allows, where a <style> element
// would be refused. Without this bundle the plain textarea works on its own.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { EditorState, Prec } from "@codemirror/state";
import { yaml } from "@codemirror/lang-yaml";
import { lintGutter, setDiagnostics } from "@codemirror/lint";

const textarea = document.getElementById("editor");
const applyButton = document.getElementById("apply");

const host = document.createElement("div");
host.id = "code-editor";
host.className = "code-editor";
const shadow = host.attachShadow({ mode: "open" });

const extensions = [
  basicSetup,
  yaml(),
  lintGutter(),
  EditorState.tabSize.of(2),
  keymap.of([indentWithTab]),
  EditorView.theme({
    "&": { height: "100%", backgroundColor: "var(--code-bg)", color: "var(--code-ink)", fontSize: ".82rem" },
    ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.45" },
    "&.cm-focused": { outline: "3px solid var(--focus)" },
    ".cm-content": { caretColor: "var(--code-ink)" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--code-ink)" },
    ".cm-gutters": { backgroundColor: "var(--code-gutter)", color: "var(--muted)", borderRight: "1px solid var(--line)" },
    ".cm-activeLine": { backgroundColor: "var(--code-active)" },
    ".cm-activeLineGutter": { backgroundColor: "var(--code-active)" },
    "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "var(--code-selection)" },
    ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--ink)", border: "1px solid var(--line)" },
    ".cm-panels": { backgroundColor: "var(--panel)", color: "var(--ink)" },
    ".cm-matchingBracket": { backgroundColor: "var(--code-selection)", outline: "none" },
  }),
  syntaxHighlighting(HighlightStyle.define([
    { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: "var(--code-key)" },
    { tag: [tags.string, tags.special(tags.string), tags.content], color: "var(--code-string)" },
    { tag: [tags.number, tags.bool, tags.null, tags.atom, tags.keyword], color: "var(--code-atom)" },
    { tag: [tags.comment, tags.lineComment], color: "var(--code-comment)", fontStyle: "italic" },
    { tag: [tags.meta, tags.punctuation, tags.separator, tags.typeName, tags.labelName], color: "var(--code-meta)" },
  ])),
  // before basicSetup's own Mod-Enter (insertBlankLine)
  Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { applyButton.click(); return true; } }])),
  EditorView.contentAttributes.of({ "aria-label": textarea.getAttribute("aria-label") || "manifest" }),
  EditorView.updateListener.of((update) => {
    if (update.docChanged && !update.transactions.some((tr) => tr.isUserEvent("daemonlab.set"))) {
      textarea.value = update.state.doc.toString();
      textarea.dispatchEvent(new Event("input"));
    }
  }),
];
const view = new EditorView({ doc: textarea.value, parent: shadow, root: shadow, extensions });
const focused = document.activeElement === textarea;
const { selectionStart, selectionEnd } = textarea;
textarea.after(host);
textarea.hidden = true;
if (focused) {
  const end = view.state.doc.length;
  view.dispatch({ selection: { anchor: Math.min(selectionStart, end), head: Math.min(selectionEnd, end) } });
  view.focus();
}

// A text Go sets is another document (a tab, a reset, a lesson, a kubectl edit reopened): the
// editor starts afresh on it, so that its undo does not bring the text of another tab back.
textarea.addEventListener("daemonlab-set", () => {
  if (textarea.value !== view.state.doc.toString()) {
    const hadFocus = view.hasFocus;
    view.setState(EditorState.create({ doc: textarea.value, extensions }));
    view.scrollDOM.scrollTo(0, 0); // a new document opens at its top left, its first line (kubectl edit's error) in view
    showProblems(textarea.dataset.problems || "[]");
    if (hadFocus) {
      view.focus();
    }
  }
});

// showProblems marks the problems and the warnings (JSON, as Go sends them: severity "error"
// or "warning") at their lines.
function showProblems(json) {
  const doc = view.state.doc;
  const diagnostics = JSON.parse(json).map((p) => {
    const line = doc.line(Math.min(Math.max(p.line || 1, 1), doc.lines));
    const from = p.column > 0 ? Math.min(line.from + p.column - 1, line.to) : line.from;
    return { from, to: line.to, severity: p.severity || "error", message: p.message };
  });
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

textarea.addEventListener("daemonlab-problems", (event) => showProblems(event.detail));
if (textarea.dataset.problems) {
  showProblems(textarea.dataset.problems);
}
