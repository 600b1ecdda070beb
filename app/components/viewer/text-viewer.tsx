import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { SelectionTip, useSelectionTip } from "./selection-tip";
import { CaptureIcon, ChevronDownIcon, ChevronUpIcon } from "#app/components/icons";
import { Divider, PageInput, Toolbar, ToolbarButton, ZoomControls } from "./toolbar";
import { inlineUrl, type DocumentViewerProps } from "./types";
import { findPassage } from "./passage-match";
import { clampPage, stepZoom, TEXT_ZOOM } from "./zoom";
import { segmentForQuote, type TimedSegment } from "#domain/library/transcript-pages";
import { TranscriptPlayer, type TranscriptPlayerHandle } from "./transcript-player";

type Loaded = { state: "loading" } | { state: "ready"; text: string; pageCount: number; segments?: TimedSegment[] | null } | { state: "error"; message: string };

export const UNKNOWN_ERROR = "An unknown error occurred.";
export const fetchFailed = (statusText: string) => `Error: Failed to fetch the file: ${statusText}`;

/** Spec 001 §8: a failed answer shows its status text; anything else is unknown. */
async function fetchText(url: string, signal: AbortSignal, json: boolean): Promise<{ text: string; pageCount?: number; segments?: TimedSegment[] | null }> {
  let response: Response;
  try {
    response = await fetch(url, { signal, credentials: "same-origin", headers: json ? { Accept: "application/json" } : undefined });
  } catch (error) {
    if ((error as { name?: string })?.name === "AbortError") throw error;
    throw new Error(UNKNOWN_ERROR);
  }
  if (!response.ok) throw new Error(fetchFailed(response.statusText || String(response.status)));
  try {
    if (!json) return { text: await response.text() };
    const body = (await response.json()) as { text?: string; pageCount?: number; segments?: TimedSegment[] | null };
    return { text: typeof body.text === "string" ? body.text : "", pageCount: body.pageCount, segments: Array.isArray(body.segments) ? body.segments : null };
  } catch {
    throw new Error(UNKNOWN_ERROR);
  }
}

/**
 * Plain text files (the whole file, one page) and the extracted text of other
 * kinds (docx, pptx, xlsx, web pages, transcripts: page by page from
 * /api/documents/{id}/pages/{n}). Text is rendered as text nodes only, never
 * HTML. Zoom 50–500 % in steps of 10 %.
 */
export function TextViewer(props: DocumentViewerProps & { mode: "txt" | "pages"; captureMode: boolean; setCaptureMode: ((on: boolean) => void) | null }) {
  const { document: doc, mode, target, chatOpen, onSelectionAction, onReady, captureMode, setCaptureMode } = props;
  const id = doc.documentId;
  const uid = useMemo(() => id.replace(/[^a-zA-Z0-9_-]/g, ""), [id]);
  const [page, setPage] = useState(1);
  const [pageCount, setPageCount] = useState(mode === "txt" ? 1 : Math.max(1, doc.pageCount));
  const [zoom, setZoom] = useState(1);
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [passage, setPassage] = useState<{ text: string; requestId: string | number } | null>(null);
  const [citationState, setCitationState] = useState<string | undefined>(undefined);
  const rootRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const readyOnce = useRef(false);
  const onReadyRef = useRef(onReady);
  onReadyRef.current = onReady;

  useEffect(() => {
    const controller = new AbortController();
    setLoaded({ state: "loading" });
    const url = mode === "txt" ? inlineUrl(id) : `/api/documents/${encodeURIComponent(id)}/pages/${page}`;
    fetchText(url, controller.signal, mode === "pages").then(
      ({ text, pageCount: count, segments }) => {
        if (count && count > 0) setPageCount(count);
        setLoaded({ state: "ready", text, pageCount: count ?? 1, segments });
        if (scrollRef.current) scrollRef.current.scrollTop = 0;
        if (!readyOnce.current) {
          readyOnce.current = true;
          onReadyRef.current?.();
        }
      },
      (error: unknown) => {
        if ((error as { name?: string })?.name === "AbortError") return;
        setLoaded({ state: "error", message: error instanceof Error && error.message ? error.message : UNKNOWN_ERROR });
      },
    );
    return () => controller.abort();
  }, [id, mode, page]);

  const goToPage = useCallback((n: number) => setPage(clampPage(n, pageCount)), [pageCount]);

  // A citation: go to its page (once loaded), mark the passage and scroll it into view.
  const handled = useRef<string | number | null>(null);
  useEffect(() => {
    if (!target || handled.current === target.requestId) return;
    handled.current = target.requestId;
    setPassage(target.highlightText ? { text: target.highlightText, requestId: target.requestId } : null);
    setCitationState(`${target.requestId}:going`);
    goToPage(target.pageNumber);
  }, [target, goToPage]);

  const text = loaded.state === "ready" ? loaded.text : "";
  const found = useMemo(() => (passage ? findPassage(text, passage.text) : null), [text, passage]);
  // A recording's page: the cited segment, where the player starts (decision 143).
  const segments = loaded.state === "ready" && loaded.segments?.length ? loaded.segments : null;
  const cited = useMemo(() => (segments && passage ? (segmentForQuote(segments, passage.text) ?? null) : null), [segments, passage]);
  const player = useRef<TranscriptPlayerHandle>(null);
  const seekedFor = useRef<string | number | null>(null);
  useEffect(() => {
    if (!target || !segments || clampPage(target.pageNumber, pageCount) !== page) return;
    // The quote of this citation is set in the same pass as the target: wait for it, or the player would start at the page's top.
    if (target.highlightText && passage?.requestId !== target.requestId) return;
    if (seekedFor.current === target.requestId) return;
    seekedFor.current = target.requestId;
    player.current?.playFrom((cited ?? segments[0]!).startSeconds);
  }, [target, segments, page, pageCount, passage, cited]);
  useEffect(() => {
    if (!target || loaded.state !== "ready" || clampPage(target.pageNumber, pageCount) !== page) return;
    const root = scrollRef.current;
    const mark = root?.querySelector<HTMLElement>("mark.dc-viewer-mark");
    if (root && mark) root.scrollTop = mark.offsetTop - root.clientHeight / 3;
    setCitationState(`${target.requestId}:done`);
  }, [target, loaded, page, pageCount, found]);

  const zoomBy = (direction: 1 | -1) => setZoom((z) => stepZoom(z, direction, TEXT_ZOOM));
  useEffect(() => {
    const root = scrollRef.current;
    if (!root) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      setZoom((z) => stepZoom(z, event.deltaY < 0 ? 1 : -1, TEXT_ZOOM));
    };
    root.addEventListener("wheel", onWheel, { passive: false });
    return () => root.removeEventListener("wheel", onWheel);
  }, []);
  const onKeyDown = (event: React.KeyboardEvent) => {
    const tag = (event.target as HTMLElement).tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || event.ctrlKey || event.metaKey) return;
    if (event.key === "+" || event.key === "=") {
      event.preventDefault();
      zoomBy(1);
    } else if (event.key === "-") {
      event.preventDefault();
      zoomBy(-1);
    } else if (mode === "pages" && event.key === "PageDown" && page < pageCount) {
      event.preventDefault();
      goToPage(page + 1);
    } else if (mode === "pages" && event.key === "PageUp" && page > 1) {
      event.preventDefault();
      goToPage(page - 1);
    }
  };

  const { tip, clear } = useSelectionTip(scrollRef, rootRef, true);

  const body =
    found && passage ? (
      <>
        {text.slice(0, found.start)}
        <mark className="dc-viewer-mark" data-testid="citation-highlight">
          {text.slice(found.start, found.end)}
        </mark>
        {text.slice(found.end)}
      </>
    ) : (
      text
    );

  return (
    <div
      ref={rootRef}
      className="dc-viewer"
      data-testid="document-viewer"
      data-kind={mode}
      data-document-id={id}
      data-state={loaded.state}
      data-current-page={page}
      data-page-count={pageCount}
      data-zoom={zoom}
      data-citation={citationState}
    >
      <Toolbar label={`${doc.documentName} viewer controls`}>
        {mode === "pages" ? (
          <ToolbarButton label="Previous page" disabled={page <= 1} onClick={() => goToPage(page - 1)}>
            <ChevronUpIcon size={16} />
          </ToolbarButton>
        ) : null}
        <PageInput id={`pg-${uid}`} current={page} pageCount={pageCount} onGo={goToPage} />
        {mode === "pages" ? (
          <ToolbarButton label="Next page" disabled={page >= pageCount} onClick={() => goToPage(page + 1)}>
            <ChevronDownIcon size={16} />
          </ToolbarButton>
        ) : null}
        <Divider />
        <ZoomControls id={`zm-${uid}`} zoom={zoom} rule={TEXT_ZOOM} onZoom={setZoom} />
        {setCaptureMode ? (
          <>
            <Divider />
            <ToolbarButton label={captureMode ? "Stop capture" : "Capture an area"} pressed={captureMode} onClick={() => setCaptureMode(!captureMode)} testId="toggle-capture">
              <CaptureIcon size={16} />
            </ToolbarButton>
          </>
        ) : null}
      </Toolbar>
      {captureMode ? (
        <p className="dc-viewer-hint" role="status">
          Area capture works on PDF pages and images; open one of those to capture.
        </p>
      ) : null}
      <div className="dc-viewer-body">
        <div
          ref={scrollRef}
          className="dc-viewer-scroll dc-viewer-scroll--text"
          tabIndex={0}
          role="region"
          aria-label={mode === "txt" ? `Text of ${doc.documentName}` : `Page ${page} of ${doc.documentName}`}
          onKeyDown={onKeyDown}
          data-testid="viewer-scroll"
        >
          {loaded.state === "loading" ? (
            <div className="dc-viewer-status" role="status">
              <span className="dc-viewer-spinner" aria-hidden="true" />
              Loading {doc.documentName}…
            </div>
          ) : null}
          {loaded.state === "error" ? (
            <div className="dc-viewer-status dc-viewer-status--error" role="alert" data-testid="viewer-error">
              {loaded.message}
            </div>
          ) : null}
          {loaded.state === "ready" && segments ? (
            <TranscriptPlayer
              ref={player}
              documentId={id}
              documentName={doc.documentName}
              segments={segments}
              highlighted={cited}
              fontSize={`${(14 * zoom).toFixed(1)}px`}
              playable={doc.kind === "audio"}
            />
          ) : loaded.state === "ready" ? (
            <pre className={`dc-viewer-text${mode === "pages" ? " dc-viewer-text--page" : ""}`} style={{ fontSize: `${(14 * zoom).toFixed(1)}px` }} data-testid="viewer-text">
              {text.length > 0 ? body : mode === "pages" ? "This page has no text." : "This file is empty."}
            </pre>
          ) : null}
        </div>
      </div>
      {tip ? <SelectionTip tip={tip} chatOpen={chatOpen} onAction={onSelectionAction} onDone={clear} /> : null}
    </div>
  );
}
