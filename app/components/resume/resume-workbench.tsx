import { Badge, Button, DropdownMenu, Spinner, Text } from "@radix-ui/themes";
import { useCallback, useEffect, useRef, useState } from "react";
import { useCsrfToken } from "#app/components/use-csrf";
import { openCitation } from "#app/components/viewer/events";
import { fixLatexMessage } from "#domain/resume/latex-blocks";
import { LatexEditor } from "./latex-editor";
import {
  compileLatex,
  type CompileFailure,
  type CompileOutcome,
  loadResume,
  previewVersion,
  RESUME_FIX_REQUEST_EVENT,
  RESUME_OPEN_IN_EDITOR_EVENT,
  RESUME_UPDATED_EVENT,
  type ResumeUpdated,
  type ResumeView,
  restoreVersion,
  svgDataUrl,
  updateResume,
} from "./resume-api";

const POLL_MS = 1500;
const ORIGIN_LABEL = { draft: "Drafted from your documents", editor: "Saved from the editor", chat: "Saved from the chat", restore: "Restored" } as const;

type Props = {
  resumeId: string;
  /** The chat the save goes through (PUT /conversations/{id}/update_resume). */
  conversationId: string | null;
  readOnly: boolean;
};

/** Tells the chat what happened to a save (spec 001 §4: it shows 'The resume is updated successfully'). */
function announce(detail: ResumeUpdated) {
  window.dispatchEvent(new CustomEvent<ResumeUpdated>(RESUME_UPDATED_EVENT, { detail }));
}

/**
 * The Resume Builder's editor and preview (spec 001 §4): CodeMirror with the
 * LaTeX, the compiled first page beside it (tabs on narrow screens),
 * 'Uncomplied Changes' while the text differs from the last compile, Compile
 * only then, Save only after a compile without error, versions, Download PDF.
 */
export function ResumeWorkbench({ resumeId, conversationId, readOnly }: Props) {
  const csrfToken = useCsrfToken();
  const [view, setView] = useState<ResumeView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [compiledText, setCompiledText] = useState<string | null>(null);
  const [pages, setPages] = useState<string[]>([]);
  const [compileError, setCompileError] = useState<CompileFailure | null>(null);
  const [compiling, setCompiling] = useState(false);
  const [saving, setSaving] = useState(false);
  const [tab, setTab] = useState<"editor" | "preview">("preview");
  const compileAbort = useRef<AbortController | null>(null);

  /** Shows `source` compiled by `run`: the editor's text (compileLatex) or a saved version (previewVersion). */
  const showCompiled = useCallback(
    async (source: string, run: (signal: AbortSignal) => Promise<CompileOutcome>) => {
      compileAbort.current?.abort();
      const controller = new AbortController();
      compileAbort.current = controller;
      setCompiling(true);
      try {
        const outcome = await run(controller.signal);
        if (controller.signal.aborted) return;
        setCompiledText(source);
        if (outcome.ok) {
          setPages(outcome.pages);
          setCompileError(null);
        } else {
          setCompileError(outcome.error);
        }
      } catch {
        if (!controller.signal.aborted) setCompileError({ code: "COMPILE_FAILED", message: "The resume could not be compiled. Try again.", line: null });
      } finally {
        if (compileAbort.current === controller) setCompiling(false);
      }
    },
    [],
  );
  const compile = useCallback((source: string) => showCompiled(source, (signal) => compileLatex(source, csrfToken, signal)), [showCompiled, csrfToken]);

  /** Loads the newest version into the editor and compiles it; polls while the first version is being drafted. */
  const reload = useCallback(async () => {
    let next: ResumeView;
    try {
      next = await loadResume(resumeId);
    } catch (e) {
      setLoadError(e instanceof Error ? e.message : "The resume could not be loaded.");
      return;
    }
    setView(next);
    if (next.current) {
      // A saved version is not an uncompiled change: its preview is on its way.
      setText(next.current.latex);
      setCompiledText(next.current.latex);
      setCompileError(null);
      const { latex, version } = next.current;
      void showCompiled(latex, (signal) => previewVersion(resumeId, version, signal));
    }
  }, [resumeId, showCompiled]);

  useEffect(() => {
    void reload();
    return () => compileAbort.current?.abort();
  }, [reload]);

  useEffect(() => {
    if (view?.resume.status !== "DRAFTING") return;
    const timer = window.setTimeout(() => void reload(), POLL_MS);
    return () => window.clearTimeout(timer);
  }, [view, reload]);

  // A LaTeX block of the chat, opened here to be saved.
  useEffect(() => {
    const open = (event: Event) => {
      const latex = (event as CustomEvent<string>).detail;
      if (typeof latex !== "string") return;
      setText(latex);
      setTab("editor");
    };
    window.addEventListener(RESUME_OPEN_IN_EDITOR_EVENT, open);
    return () => window.removeEventListener(RESUME_OPEN_IN_EDITOR_EVENT, open);
  }, []);

  const dirty = compiledText === null || text !== compiledText;
  const savedText = view?.current?.latex ?? null;
  const canSave = !readOnly && !dirty && !compiling && compileError === null && text !== savedText && Boolean(conversationId);

  const save = async () => {
    if (!canSave || !conversationId) return;
    setSaving(true);
    try {
      await updateResume(conversationId, text, csrfToken);
      announce({ ok: true, message: "The resume is updated successfully" });
      setView(await loadResume(resumeId));
    } catch {
      announce({ ok: false, message: "Failed to update resume" });
    } finally {
      setSaving(false);
    }
  };

  const restore = async (version: number) => {
    try {
      await restoreVersion(resumeId, version, csrfToken);
      announce({ ok: true, message: "The resume is updated successfully" });
      await reload();
    } catch {
      announce({ ok: false, message: "Failed to update resume" });
    }
  };

  if (loadError) {
    return (
      <div className="dc-resume dc-resume--empty" role="alert" data-testid="resume-error">
        <Text color="red">{loadError}</Text>
      </div>
    );
  }
  if (!view || view.resume.status === "DRAFTING") {
    return (
      <div className="dc-resume dc-resume--empty" role="status" data-testid="resume-drafting">
        <Spinner size="3" />
        <Text>Drafting your resume from your documents…</Text>
      </div>
    );
  }

  const latest = view.resume.latestVersion;
  return (
    <section className="dc-resume" aria-label="Resume" data-testid="resume-workbench" data-resume-id={resumeId} data-tab={tab}>
      <div className="dc-resume__toolbar" role="toolbar" aria-label="Resume actions">
        <div className="dc-resume__tabs" role="tablist" aria-label="Resume view">
          {(["editor", "preview"] as const).map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`resume-tab-${name}`}
              aria-selected={tab === name}
              aria-controls={`resume-${name}`}
              className="dc-resume__tab"
              onClick={() => setTab(name)}
            >
              {name === "editor" ? "Editor" : "Preview"}
            </button>
          ))}
        </div>
        {dirty ? (
          <Badge color="amber" data-testid="uncompiled-changes">
            Uncomplied Changes
          </Badge>
        ) : null}
        {compileError && !dirty ? (
          <Badge color="red" data-testid="compile-error-chip">
            Compile error
          </Badge>
        ) : null}
        <span className="dc-resume__spacer" />
        <Button size="2" variant="soft" disabled={!dirty || compiling || readOnly} onClick={() => void compile(text)} data-testid="compile-resume">
          {compiling ? <Spinner size="1" /> : null}
          Compile
        </Button>
        <Button size="2" disabled={!canSave || saving} onClick={() => void save()} data-testid="save-resume">
          {saving ? <Spinner size="1" /> : null}
          Save
        </Button>
        <DropdownMenu.Root>
          <DropdownMenu.Trigger>
            <Button size="2" variant="soft" color="gray" data-testid="resume-versions">
              Version {view.current?.version ?? latest}
              <DropdownMenu.TriggerIcon />
            </Button>
          </DropdownMenu.Trigger>
          <DropdownMenu.Content>
            <DropdownMenu.Label>Versions</DropdownMenu.Label>
            {view.versions.map((v) => (
              <DropdownMenu.Item key={v.version} disabled={v.version === latest || readOnly} onSelect={() => void restore(v.version)} data-testid="resume-version">
                {`v${v.version} · ${v.origin === "restore" && v.restoredFrom ? `Restored from v${v.restoredFrom}` : ORIGIN_LABEL[v.origin]} · ${new Date(v.savedAt).toLocaleString()}`}
                {v.version === latest ? " (current)" : " — Restore"}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Root>
        <Button size="2" variant="soft" color="gray" asChild>
          <a href={`/api/resumes/${encodeURIComponent(resumeId)}/pdf`} download data-testid="download-resume-pdf">
            Download PDF
          </a>
        </Button>
      </div>

      <div className="dc-resume__panes">
        <div id="resume-editor" role="tabpanel" aria-labelledby="resume-tab-editor" className="dc-resume__pane dc-resume__pane--editor">
          <LatexEditor value={text} onChange={setText} readOnly={readOnly} errorLine={compileError && !dirty ? compileError.line : null} label="Resume LaTeX source" />
        </div>
        <div id="resume-preview" role="tabpanel" aria-labelledby="resume-tab-preview" className="dc-resume__pane dc-resume__pane--preview" aria-busy={compiling}>
          {compileError && !dirty ? (
            <div className="dc-resume__error" role="alert" data-testid="compile-error">
              <Text size="2" weight="bold">
                Compile error{compileError.line !== null ? ` (line ${compileError.line})` : ""}
              </Text>
              <Text as="p" size="2">
                {compileError.message}
              </Text>
              <Button
                size="1"
                mt="2"
                disabled={readOnly}
                onClick={() => window.dispatchEvent(new CustomEvent(RESUME_FIX_REQUEST_EVENT, { detail: fixLatexMessage(compileError, text, { withSource: true }) }))}
                data-testid="retry-editor-compile"
              >
                Retry
              </Button>
            </div>
          ) : null}
          {pages.length > 0 ? (
            pages.map((svg, i) => <img key={i} className="dc-resume__page" src={svgDataUrl(svg)} alt={`Resume preview, page ${i + 1} of ${pages.length}`} data-testid="resume-preview-page" />)
          ) : compiling ? (
            <div className="dc-resume--empty" role="status">
              <Spinner size="3" />
              <Text>Compiling…</Text>
            </div>
          ) : null}
          {view.current && view.current.sources.length > 0 ? (
            <details className="dc-resume__sources" data-testid="resume-sources">
              <summary>Drafted from your documents ({view.current.sources.length} passages)</summary>
              <ul>
                {view.current.sources.map((source) => (
                  <li key={`${source.line}:${source.documentId}`}>
                    <button type="button" className="dc-resume__source" onClick={() => openCitation({ documentId: source.documentId, pageNumber: source.pageNumber, highlightText: source.quote })}>
                      <span className="dc-resume__source-line">Line {source.line}</span> “{source.quote}” <span className="dc-resume__source-page">(page {source.pageNumber})</span>
                    </button>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      </div>
    </section>
  );
}
