import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { CaptureOverlay, useAreaCapture } from "./capture";
import { fetchLayout, openPdf, viewMemory, type LayoutBlock, type PdfDocument, type PdfLib } from "./pdf-document";
import { PAGE_GAP, PdfPageView, PdfThumbnail, type CitedPassage, type PageSize } from "./pdf-pages";
import { SelectionTip, useSelectionTip } from "./selection-tip";
import { CaptureIcon, ChevronDownIcon, ChevronUpIcon, FitWidthIcon, ThumbsIcon } from "#app/components/icons";
import { Divider, PageInput, Toolbar, ToolbarButton, ZoomControls } from "./toolbar";
import type { DocumentViewerProps } from "./types";
import { matchBlocks } from "./passage-match";
import { clampPage, clampZoom, PDF_ZOOM, stepZoom } from "./zoom";
import { currentPage, type RequestedPage } from "./reading-position";

type Status = { state: "loading" } | { state: "ready" } | { state: "error"; message: string };

/** Pages this far (px) outside the viewport are rendered ahead of scrolling; beyond it they are placeholders. */
const RENDER_MARGIN = "800px 0px";
/** An A4 page's width at 100 %: thumbnails start open only where the page keeps at least this much (spec parity: readable at 1440 px beside the chat). */
const READABLE_PAGE_WIDTH = 596;
/** The thumbnail panel's width (spec 001 §2) and room for a scroll bar. */
const THUMBS_WIDTH = 200;
const SCROLLBAR = 16;

const now = () => (typeof performance === "undefined" ? Date.now() : performance.now());

/** A performance mark with the document and the ms since the viewer mounted (for the bench). */
function mark(name: string, documentId: string, since: number) {
  try {
    performance.mark(name, { detail: { documentId, ms: Math.round(now() - since) } });
  } catch {
    // marks are best effort
  }
}

/**
 * The PDF viewer: continuous vertical pages rendered only near the viewport,
 * a selectable text layer, thumbnails, page input, zoom 50–500 % (step 0.05),
 * per-page layout boxes, citations, the selection tip and area capture.
 */
export function PdfViewer(props: DocumentViewerProps & { captureMode: boolean; setCaptureMode: ((on: boolean) => void) | null }) {
  const { document: doc, target, captureMode, setCaptureMode, onCapture, onSelectionAction, chatOpen, onReady } = props;
  const id = doc.documentId;
  const uid = useMemo(() => id.replace(/[^a-zA-Z0-9_-]/g, ""), [id]);
  const remembered = viewMemory.get(id);

  const [status, setStatus] = useState<Status>({ state: "loading" });
  const [pdf, setPdf] = useState<{ lib: PdfLib; doc: PdfDocument } | null>(null);
  const [sizes, setSizes] = useState<PageSize[]>([]);
  const [scale, setScale] = useState(remembered?.scale ?? 1);
  const [current, setCurrent] = useState(1);
  const [near, setNear] = useState<Set<number>>(() => new Set());
  const [thumbsOpen, setThumbsOpen] = useState<boolean | null>(remembered?.thumbs ?? null);
  const [thumbsNear, setThumbsNear] = useState<Set<number>>(() => new Set());
  const [layoutShown, setLayoutShown] = useState<Set<number>>(() => new Set());
  const [layouts, setLayouts] = useState<Map<number, LayoutBlock[]>>(() => new Map());
  /** The cited passage, marked in its page's text layer; `cited` holds layout boxes when the text layer does not hold it. */
  const [citedPassage, setCitedPassage] = useState<{ page: number; passage: CitedPassage } | null>(null);
  const [cited, setCited] = useState<{ page: number; ids: string[]; requestId: string | number } | null>(null);
  const [citationState, setCitationState] = useState<{ requestId: string | number; state: "going" | "done" } | null>(null);
  const [firstPageMs, setFirstPageMs] = useState<number | null>(null);
  /** The page the document opens on (a citation's, the remembered one, else 1). */
  const [startPage, setStartPage] = useState(1);

  const rootRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const thumbsRef = useRef<HTMLDivElement>(null);
  const pageEls = useRef(new Map<number, HTMLDivElement>());
  const thumbEls = useRef(new Map<number, HTMLButtonElement>());
  const mountedAt = useRef(now());
  const scaleRef = useRef(scale);
  scaleRef.current = scale;
  const currentRef = useRef(current);
  currentRef.current = current;
  const anchorRef = useRef<{ page: number; fraction: number } | null>(null);
  const rendered = useRef(new Map<number, number>()); // page → scale it was last painted at
  const waiters = useRef<{ page: number; resolve: () => void }[]>([]);
  const firstPainted = useRef(false);
  const handledTarget = useRef<string | number | null>(null);
  const onReadyRef = useRef(onReady);
  onReadyRef.current = onReady;
  const targetRef = useRef(target);
  targetRef.current = target;

  const pageCount = sizes.length;
  // Until the first page is painted only the pages up to the one after it are mounted: mounting a
  // frame for each of 300 pages cost page 1 a long React commit (decision 177). The rest follow.
  const mountedPages = firstPageMs === null ? Math.min(pageCount, startPage + 1) : pageCount;

  // ---- load ----------------------------------------------------------------------------
  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | null = null;
    mountedAt.current = now();
    firstPainted.current = false;
    rendered.current.clear();
    try {
      performance.mark("viewer:mount", { detail: { documentId: id } });
    } catch {
      // marks are best effort
    }
    setStatus({ state: "loading" });
    void (async () => {
      try {
        const { lib, task } = await openPdf(id);
        destroy = () => void task.destroy();
        if (cancelled) return destroy();
        mark("viewer:bytes", id, mountedAt.current);
        const loaded = await task.promise;
        if (cancelled) return;
        mark("viewer:parsed", id, mountedAt.current);
        const first = (await loaded.getPage(1)).getViewport({ scale: 1 });
        if (cancelled) return;
        const firstSize = { width: first.width, height: first.height };
        setSizes(Array.from({ length: loaded.numPages }, () => firstSize));
        // Thumbnails start open unless they would squeeze the page below 100 %; the zoom is remembered, else fits the width left (at most 125 %).
        const rootWidth = rootRef.current?.clientWidth ?? 1024;
        const thumbs = thumbsOpen ?? rootWidth - THUMBS_WIDTH - 2 * PAGE_GAP - SCROLLBAR >= READABLE_PAGE_WIDTH;
        if (thumbsOpen === null) setThumbsOpen(thumbs);
        const box = rootWidth - (thumbs ? THUMBS_WIDTH : 0) - 2 * PAGE_GAP - SCROLLBAR;
        if (!viewMemory.get(id)) setScale(clampZoom(Math.floor(Math.min(1.25, box / firstSize.width) / PDF_ZOOM.step) * PDF_ZOOM.step, PDF_ZOOM));
        // The first pages render at once, without waiting for the observer's first report.
        const start = clampPage(targetRef.current?.pageNumber ?? viewMemory.get(id)?.page ?? 1, loaded.numPages);
        setNear(new Set([start, start + 1].filter((n) => n <= loaded.numPages)));
        setStartPage(start);
        setPdf({ lib, doc: loaded });
        setStatus({ state: "ready" });
      } catch (error) {
        if (cancelled) return;
        // 'Error loading PDF document: {message}!' (spec 001 §8): no doubled end punctuation.
        const message = (error instanceof Error && error.message ? error.message : "unknown error").replace(/[.!\s]+$/, "");
        setStatus({ state: "error", message });
      }
    })();
    return () => {
      cancelled = true;
      destroy?.();
      setPdf(null);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reload only for another document
  }, [id]);

  // Real page sizes (pages may differ), read in the background after the first page is painted.
  useEffect(() => {
    if (!pdf || firstPageMs === null) return;
    let cancelled = false;
    void (async () => {
      const found: PageSize[] = [];
      for (let n = 1; n <= pdf.doc.numPages && !cancelled; n++) {
        const viewport = (await pdf.doc.getPage(n)).getViewport({ scale: 1 });
        found.push({ width: viewport.width, height: viewport.height });
        if (n % 50 === 0) await new Promise((r) => setTimeout(r, 0));
      }
      if (cancelled) return;
      setSizes((old) => (old.length === found.length && old.every((s, i) => Math.abs(s.width - found[i].width) < 0.5 && Math.abs(s.height - found[i].height) < 0.5) ? old : found));
    })().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [pdf, firstPageMs]);

  // ---- page tracking and rendering window ---------------------------------------------
  const registerPage = useCallback((page: number, el: HTMLDivElement | null) => {
    if (el) pageEls.current.set(page, el);
    else pageEls.current.delete(page);
  }, []);
  const registerThumb = useCallback((page: number, el: HTMLButtonElement | null) => {
    if (el) thumbEls.current.set(page, el);
    else thumbEls.current.delete(page);
  }, []);

  useEffect(() => {
    const root = scrollRef.current;
    if (!root || !pdf || mountedPages === 0) return;
    const observer = new IntersectionObserver(
      (entries) => {
        setNear((old) => {
          const next = new Set(old);
          for (const entry of entries) {
            const page = Number((entry.target as HTMLElement).dataset.pageNumber);
            if (entry.isIntersecting) next.add(page);
            else next.delete(page);
          }
          return next;
        });
      },
      { root, rootMargin: RENDER_MARGIN },
    );
    for (const el of pageEls.current.values()) observer.observe(el);
    return () => observer.disconnect();
  }, [pdf, mountedPages]);

  const thumbsShown = firstPageMs !== null;
  useEffect(() => {
    const root = thumbsRef.current;
    if (!root || !pdf || !thumbsOpen || !thumbsShown || pageCount === 0) return;
    const observer = new IntersectionObserver(
      (entries) => {
        setThumbsNear((old) => {
          const next = new Set(old);
          for (const entry of entries) if (entry.isIntersecting) next.add(Number((entry.target as HTMLElement).dataset.pageNumber));
          return next;
        });
      },
      { root, rootMargin: "400px 0px" },
    );
    for (const el of thumbEls.current.values()) observer.observe(el);
    return () => observer.disconnect();
  }, [pdf, pageCount, thumbsOpen, thumbsShown]);

  /** The page the reader asked for last, kept current until they scroll (see reading-position.ts). */
  const requestedRef = useRef<RequestedPage | null>(null);
  const pageAtScroll = useCallback(() => {
    const root = scrollRef.current;
    if (!root || pageCount === 0) return 1;
    return currentPage(requestedRef.current, (n) => pageEls.current.get(n)?.offsetTop, pageCount, root);
  }, [pageCount]);

  useEffect(() => {
    const root = scrollRef.current;
    if (!root) return;
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const page = pageAtScroll();
        if (requestedRef.current && requestedRef.current.page !== page) requestedRef.current = null;
        setCurrent(page);
      });
    };
    root.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      root.removeEventListener("scroll", onScroll);
      cancelAnimationFrame(frame);
    };
  }, [pageAtScroll]);

  // Remember where this document was left.
  useEffect(() => {
    if (status.state === "ready") viewMemory.set(id, { page: current, scale, thumbs: Boolean(thumbsOpen) });
  }, [id, status.state, current, scale, thumbsOpen]);

  // Keep the current thumbnail in view.
  useEffect(() => {
    const panel = thumbsRef.current;
    const el = thumbEls.current.get(current);
    if (!panel || !el) return;
    if (el.offsetTop < panel.scrollTop || el.offsetTop + el.offsetHeight > panel.scrollTop + panel.clientHeight) {
      panel.scrollTop = el.offsetTop - panel.clientHeight / 2 + el.offsetHeight / 2;
    }
  }, [current, thumbsOpen, thumbsShown]);

  const goToPage = useCallback(
    (page: number) => {
      const root = scrollRef.current;
      const n = clampPage(page, pageCount);
      const el = pageEls.current.get(n);
      if (root && el) {
        root.scrollTop = el.offsetTop - PAGE_GAP / 2;
        requestedRef.current = { page: n, scrollTop: root.scrollTop };
      }
      setCurrent(n);
    },
    [pageCount],
  );

  // Restore the remembered page once the pages exist (only when no citation is waiting).
  const restored = useRef(false);
  useLayoutEffect(() => {
    if (restored.current || status.state !== "ready" || pageCount === 0) return;
    restored.current = true;
    if (remembered && remembered.page > 1 && !target) goToPage(remembered.page);
  }, [status.state, pageCount, remembered, target, goToPage]);

  // ---- zoom ------------------------------------------------------------------------------
  const zoomTo = useCallback(
    (next: number) => {
      const value = clampZoom(next, PDF_ZOOM);
      if (value === scaleRef.current) return;
      const root = scrollRef.current;
      const page = currentRef.current;
      const el = pageEls.current.get(page);
      if (root && el && el.offsetHeight > 0) anchorRef.current = { page, fraction: (root.scrollTop - el.offsetTop) / el.offsetHeight };
      setScale(value);
    },
    [],
  );
  // Keep the same spot of the same page in view across a zoom.
  useLayoutEffect(() => {
    const anchor = anchorRef.current;
    anchorRef.current = null;
    const root = scrollRef.current;
    const el = anchor ? pageEls.current.get(anchor.page) : undefined;
    if (anchor && root && el) root.scrollTop = el.offsetTop + anchor.fraction * el.offsetHeight;
  }, [scale]);

  const fitWidth = useCallback(() => {
    const root = scrollRef.current;
    const size = sizes[currentRef.current - 1] ?? sizes[0];
    if (!root || !size) return;
    const room = root.clientWidth - 2 * PAGE_GAP - (root.scrollHeight > root.clientHeight ? 0 : SCROLLBAR);
    zoomTo(Math.floor(room / size.width / PDF_ZOOM.step) * PDF_ZOOM.step);
  }, [sizes, zoomTo]);

  // Ctrl/⌘ + wheel zooms (the page must not zoom instead).
  useEffect(() => {
    const root = scrollRef.current;
    if (!root) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      zoomTo(stepZoom(scaleRef.current, event.deltaY < 0 ? 1 : -1, PDF_ZOOM));
    };
    root.addEventListener("wheel", onWheel, { passive: false });
    return () => root.removeEventListener("wheel", onWheel);
  }, [zoomTo]);

  const onKeyDown = (event: React.KeyboardEvent) => {
    const tag = (event.target as HTMLElement).tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || event.altKey) return;
    if (event.key === "PageDown") {
      event.preventDefault();
      goToPage(currentRef.current + 1);
    } else if (event.key === "PageUp") {
      event.preventDefault();
      goToPage(currentRef.current - 1);
    } else if ((event.key === "+" || event.key === "=") && !event.metaKey && !event.ctrlKey) {
      event.preventDefault();
      zoomTo(stepZoom(scaleRef.current, 1, PDF_ZOOM));
    } else if (event.key === "-" && !event.metaKey && !event.ctrlKey) {
      event.preventDefault();
      zoomTo(stepZoom(scaleRef.current, -1, PDF_ZOOM));
    } else if (event.key === "Home" && (event.target as HTMLElement) === scrollRef.current) {
      event.preventDefault();
      goToPage(1);
    } else if (event.key === "End" && (event.target as HTMLElement) === scrollRef.current) {
      event.preventDefault();
      goToPage(pageCount);
    }
  };

  // ---- painted pages: first-page time, readiness, waiting for a page -------------------------
  const onRendered = useCallback(
    (page: number, at: number) => {
      rendered.current.set(page, at);
      if (!firstPainted.current) {
        firstPainted.current = true;
        const ms = Math.round(now() - mountedAt.current);
        try {
          performance.mark("viewer:first-page", { detail: { documentId: id, ms } });
        } catch {
          // best effort
        }
        setFirstPageMs(ms);
        onReadyRef.current?.();
      }
      waiters.current = waiters.current.filter((w) => {
        if (w.page !== page || at !== scaleRef.current) return true;
        w.resolve();
        return false;
      });
    },
    [id],
  );
  const waitForPage = useCallback((page: number, timeoutMs = 10_000) => {
    if (rendered.current.get(page) === scaleRef.current) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const entry = { page, resolve };
      waiters.current.push(entry);
      setTimeout(() => {
        waiters.current = waiters.current.filter((w) => w !== entry);
        resolve();
      }, timeoutMs);
    });
  }, []);

  // ---- layout boxes -------------------------------------------------------------------------
  const layoutsRef = useRef(layouts);
  layoutsRef.current = layouts;
  const ensureLayout = useCallback(
    async (page: number) => {
      const known = layoutsRef.current.get(page);
      if (known && known.length > 0) return known;
      const blocks = await fetchLayout(id, page);
      setLayouts((old) => new Map(old).set(page, blocks));
      return blocks;
    },
    [id],
  );
  const toggleLayout = useCallback(
    (page: number) => {
      setLayoutShown((old) => {
        const next = new Set(old);
        if (next.has(page)) next.delete(page);
        else next.add(page);
        return next;
      });
      void ensureLayout(page);
    },
    [ensureLayout],
  );

  // ---- citations: wait for the document and the page, then go and highlight -----------------
  const markWaiters = useRef(new Map<string | number, (found: boolean) => void>());
  const onPassageMarked = useCallback((_page: number, passage: CitedPassage, found: boolean) => {
    markWaiters.current.get(passage.requestId)?.(found);
  }, []);
  /** Whether the page's text layer held the passage (false after `timeoutMs`: no text layer came). */
  const waitForMark = useCallback((requestId: string | number, timeoutMs = 10_000) => {
    return new Promise<boolean>((resolve) => {
      const done = (found: boolean) => {
        markWaiters.current.delete(requestId);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      markWaiters.current.set(requestId, done);
    });
  }, []);

  useEffect(() => {
    if (!target || status.state !== "ready" || pageCount === 0 || handledTarget.current === target.requestId) return;
    handledTarget.current = target.requestId;
    const requestId = target.requestId;
    const page = clampPage(target.pageNumber, pageCount);
    setCitationState({ requestId, state: "going" });
    setCited(null);
    // A provider's citation may carry no quote: the page opens without a highlight.
    const passage = target.highlightText?.trim() ? { text: target.highlightText, requestId } : null;
    const marked = passage ? waitForMark(requestId) : Promise.resolve(false);
    setCitedPassage(passage ? { page, passage } : null);
    goToPage(page);
    let cancelled = false;
    void (async () => {
      await waitForPage(page);
      const found = await marked;
      if (cancelled) return;
      if (passage && !found) {
        // No text layer holds it (an OCR'd scan): the layout boxes that do.
        const ids = matchBlocks(await ensureLayout(page), passage.text).map((b) => b.id);
        if (cancelled) return;
        if (ids.length) setCited({ page, ids, requestId });
      }
      // Layout is settled: put the passage (or the page top) in view.
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      const root = scrollRef.current;
      const pageEl = pageEls.current.get(page);
      const mark = pageEl?.querySelector<HTMLElement>(".dc-viewer-cited, .dc-viewer-box.is-cited");
      if (root && pageEl) {
        if (mark) root.scrollTop += mark.getBoundingClientRect().top - root.getBoundingClientRect().top - root.clientHeight / 3;
        else root.scrollTop = pageEl.offsetTop - PAGE_GAP / 2;
        requestedRef.current = { page, scrollTop: root.scrollTop };
      }
      setCurrent(page);
      setCitationState({ requestId, state: "done" });
    })();
    return () => {
      cancelled = true;
    };
  }, [target, status.state, pageCount, goToPage, ensureLayout, waitForPage, waitForMark]);

  // ---- selection tip and capture ----------------------------------------------------------
  const { tip, clear } = useSelectionTip(scrollRef, rootRef, !captureMode);
  const captureRect = useAreaCapture({ scope: scrollRef, anchor: rootRef, active: captureMode, onCapture, onExit: setCaptureMode ? () => setCaptureMode(false) : undefined });

  const showThumbs = Boolean(thumbsOpen) && status.state === "ready";

  return (
    <div
      ref={rootRef}
      className={`dc-viewer${captureMode ? " is-capturing" : ""}`}
      data-testid="document-viewer"
      data-kind="pdf"
      data-document-id={id}
      data-state={status.state}
      data-current-page={current}
      data-page-count={pageCount}
      data-zoom={scale}
      data-first-page-ms={firstPageMs ?? undefined}
      data-citation={citationState ? `${citationState.requestId}:${citationState.state}` : undefined}
    >
      <Toolbar label={`${doc.documentName} viewer controls`}>
        <ToolbarButton label={showThumbs ? "Hide thumbnails" : "Show thumbnails"} pressed={showThumbs} disabled={status.state !== "ready"} onClick={() => setThumbsOpen((v) => !v)} testId="toggle-thumbnails">
          <ThumbsIcon size={16} />
        </ToolbarButton>
        <Divider />
        <ToolbarButton label="Previous page" className="dc-viewer-tb__nav" disabled={current <= 1} onClick={() => goToPage(current - 1)}>
          <ChevronUpIcon size={16} />
        </ToolbarButton>
        <PageInput id={`pg-${uid}`} current={current} pageCount={Math.max(1, pageCount)} onGo={goToPage} />
        <ToolbarButton label="Next page" className="dc-viewer-tb__nav" disabled={current >= pageCount} onClick={() => goToPage(current + 1)}>
          <ChevronDownIcon size={16} />
        </ToolbarButton>
        <Divider />
        <ZoomControls id={`zm-${uid}`} zoom={scale} rule={PDF_ZOOM} onZoom={zoomTo} />
        <ToolbarButton label="Fit width" onClick={fitWidth} disabled={status.state !== "ready"}>
          <FitWidthIcon size={16} />
        </ToolbarButton>
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
          Drag over a page to capture an area · Esc cancels
        </p>
      ) : null}

      <div className="dc-viewer-body">
        {showThumbs && pdf ? (
          <nav ref={thumbsRef} className="dc-viewer-thumbs" aria-label="Page thumbnails" data-testid="thumbnails">
            {/* Thumbnails join once the first page is painted: they never delay it. */}
            {firstPageMs === null
              ? null
              : sizes.map((size, i) => (
              <PdfThumbnail
                key={i + 1}
                pdf={pdf.doc}
                pageNumber={i + 1}
                size={size}
                active={thumbsNear.has(i + 1)}
                current={current === i + 1}
                onGo={goToPage}
                registerElement={registerThumb}
              />
            ))}
          </nav>
        ) : null}
        <div
          ref={scrollRef}
          className="dc-viewer-scroll"
          tabIndex={0}
          role="region"
          aria-label={`Pages of ${doc.documentName}`}
          onKeyDown={onKeyDown}
          data-testid="viewer-scroll"
        >
          {status.state === "loading" ? (
            <div className="dc-viewer-status" role="status">
              <span className="dc-viewer-spinner" aria-hidden="true" />
              Loading {doc.documentName}…
            </div>
          ) : null}
          {status.state === "error" ? (
            <div className="dc-viewer-status dc-viewer-status--error" role="alert" data-testid="viewer-error">
              Error loading PDF document: {status.message}!
            </div>
          ) : null}
          {pdf && status.state === "ready" ? (
            <div className="dc-viewer-pages">
              {sizes.slice(0, mountedPages).map((size, i) => {
                const n = i + 1;
                return (
                  <PdfPageView
                    key={n}
                    lib={pdf.lib}
                    pdf={pdf.doc}
                    pageNumber={n}
                    size={size}
                    scale={scale}
                    active={near.has(n)}
                    documentName={doc.documentName}
                    showLayout={layoutShown.has(n)}
                    blocks={layouts.get(n)}
                    citedPassage={citedPassage?.page === n ? citedPassage.passage : undefined}
                    onPassageMarked={onPassageMarked}
                    citedIds={cited?.page === n ? cited.ids : undefined}
                    onToggleLayout={toggleLayout}
                    onRendered={onRendered}
                    registerElement={registerPage}
                  />
                );
              })}
            </div>
          ) : null}
        </div>
      </div>
      {tip ? <SelectionTip tip={tip} chatOpen={chatOpen} onAction={onSelectionAction} onDone={clear} /> : null}
      <CaptureOverlay rect={captureRect} />
    </div>
  );
}
