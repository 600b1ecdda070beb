import { useEffect, useRef, useState } from "react";

type Props = {
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
  /** The line the last compile error names: the editor scrolls to it and marks it. */
  errorLine: number | null;
  label: string;
};

/**
 * The LaTeX editor: CodeMirror 6 with the stex mode's highlighting, loaded in
 * the browser only (the server renders a plain text area with the same text,
 * which also serves before the editor has loaded).
 */
export function LatexEditor({ value, onChange, readOnly = false, errorLine, label }: Props) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<import("@codemirror/view").EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let destroyed = false;
    void (async () => {
      const [{ basicSetup }, { EditorView }, { EditorState }, { HighlightStyle, StreamLanguage, syntaxHighlighting }, { stex }, { tags }] = await Promise.all([
        import("codemirror"),
        import("@codemirror/view"),
        import("@codemirror/state"),
        import("@codemirror/language"),
        import("@codemirror/legacy-modes/mode/stex"),
        import("@lezer/highlight"),
      ]);
      // Colours that keep 4.5:1 contrast on white and on the active line (the default style's do not).
      const latexColours = HighlightStyle.define([
        { tag: [tags.keyword, tags.tagName, tags.definitionKeyword], color: "#1d4ed8" },
        { tag: [tags.atom, tags.bool, tags.special(tags.variableName), tags.variableName], color: "#6d28d9" },
        { tag: [tags.string, tags.number], color: "#7c2d12" },
        { tag: [tags.comment, tags.meta], color: "#4b5563", fontStyle: "italic" },
        { tag: [tags.bracket, tags.paren, tags.brace], color: "#1f2937" },
        { tag: tags.invalid, color: "#b91c1c" },
      ]);
      if (destroyed || !hostRef.current) return;
      const view = new EditorView({
        parent: hostRef.current,
        state: EditorState.create({
          doc: textareaRef.current?.value ?? value,
          extensions: [
            basicSetup,
            StreamLanguage.define(stex),
            syntaxHighlighting(latexColours),
            EditorView.lineWrapping,
            EditorState.readOnly.of(readOnly),
            EditorView.contentAttributes.of({ "aria-label": label, "data-testid": "latex-editor-content" }),
            EditorView.updateListener.of((update) => {
              if (update.docChanged) onChangeRef.current(update.state.doc.toString());
            }),
          ],
        }),
      });
      viewRef.current = view;
      // The scroller must be reachable by keyboard to scroll it (axe: scrollable-region-focusable).
      view.scrollDOM.tabIndex = 0;
      view.scrollDOM.setAttribute("aria-label", "Resume LaTeX source, scrollable");
      setReady(true);
    })();
    return () => {
      destroyed = true;
      viewRef.current?.destroy();
      viewRef.current = null;
      setReady(false);
    };
    // The editor is created once; later values are pushed in by the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readOnly, label]);

  // A new text from outside (a loaded version, a chat answer opened here) replaces the editor's.
  useEffect(() => {
    const view = viewRef.current;
    if (!view || view.state.doc.toString() === value) return;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const view = viewRef.current;
    if (!view || errorLine === null || errorLine < 1 || errorLine > view.state.doc.lines) return;
    const line = view.state.doc.line(errorLine);
    view.dispatch({ selection: { anchor: line.from, head: line.to }, scrollIntoView: true });
  }, [errorLine]);

  return (
    <div ref={hostRef} className="dc-resume-editor" data-testid="latex-editor" data-ready={ready || undefined}>
      {ready ? null : (
        <textarea
          ref={textareaRef}
          className="dc-resume-editor__fallback"
          aria-label={label}
          value={value}
          readOnly={readOnly}
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  );
}
