import { memo, useEffect, useRef, useState } from "react";
import { LayoutIcon } from "#app/components/icons";
import { LAYOUT_HEIGHT, LAYOUT_WIDTH, outputScale, type LayoutBlock, type PdfDocument, type PdfLib } from "./pdf-document";
import { clearPassageMarks, markPassage } from "./text-layer-marks";

export type PageSize = { width: number; height: number };
export type CitedPassage = { text: string; requestId: string | number };

/** Vertical gap between pages (CSS px); the scroll area's top padding is the same. */
export const PAGE_GAP = 16;

type PageProps = {
  lib: PdfLib;
  pdf: PdfDocument;
  pageNumber: number;
  size: PageSize;
  scale: number;
  /** Near the viewport: render the canvas and text layer; otherwise only the sized placeholder. */
  active: boolean;
  documentName: string;
  showLayout: boolean;
  blocks: LayoutBlock[] | undefined;
  /** The cited passage to mark in this page's text layer; the page reports whether it found it. */
  citedPassage: CitedPassage | undefined;
  onPassageMarked: (page: number, passage: CitedPassage, found: boolean) => void;
  /** Layout boxes to highlight instead, for a page whose text layer does not hold the passage (an OCR'd scan). */
  citedIds: string[] | undefined;
  onToggleLayout: (page: number) => void;
  onRendered: (page: number, scale: number) => void;
  registerElement: (page: number, element: HTMLDivElement | null) => void;
};

/**
 * One PDF page: a placeholder of the page's size; when near the viewport, a
 * canvas at the device pixel ratio and pdf.js's TextLayer (selectable,
 * aligned by --total-scale-factor), plus optional layout boxes.
 */
export const PdfPageView = memo(function PdfPageView(props: PageProps) {
  const { lib, pdf, pageNumber, size, scale, active, documentName, showLayout, blocks, citedPassage, onPassageMarked, citedIds, onToggleLayout, onRendered, registerElement } = props;
  const canvasHost = useRef<HTMLDivElement>(null);
  const textHost = useRef<HTMLDivElement>(null);
  /** Counts finished text-layer renders: a new layer (zoom, scrolled back) needs the passage marked again. */
  const [textRenders, setTextRenders] = useState(0);
  const width = Math.floor(size.width * scale);
  const height = Math.floor(size.height * scale);

  useEffect(() => {
    const host = canvasHost.current;
    const textDiv = textHost.current;
    if (!host || !textDiv) return;
    if (!active) {
      // Far from the viewport: free the canvas and the text spans.
      host.replaceChildren();
      textDiv.replaceChildren();
      return;
    }
    let cancelled = false;
    let renderTask: { cancel: () => void; promise: Promise<void> } | null = null;
    let textLayer: { cancel: () => void } | null = null;
    void (async () => {
      try {
        const page = await pdf.getPage(pageNumber);
        if (cancelled) return;
        const viewport = page.getViewport({ scale });
        const ratio = outputScale(viewport.width, viewport.height);
        const canvas = document.createElement("canvas");
        canvas.width = Math.max(1, Math.floor(viewport.width * ratio));
        canvas.height = Math.max(1, Math.floor(viewport.height * ratio));
        canvas.className = "dc-viewer-page__canvas";
        canvas.setAttribute("role", "img");
        canvas.setAttribute("aria-label", `Page ${pageNumber} of ${documentName}`);
        canvas.setAttribute("data-capture-source", "");
        const context = canvas.getContext("2d", { alpha: false });
        if (!context) return;
        renderTask = page.render({
          canvas,
          canvasContext: context,
          viewport,
          transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined,
        });
        await renderTask.promise;
        if (cancelled) return;
        // Swap in the new canvas only when it is painted: zooming never flashes blank.
        host.replaceChildren(canvas);
        onRendered(pageNumber, scale);
        const layer = new lib.TextLayer({ textContentSource: page.streamTextContent(), container: textDiv, viewport });
        textLayer = layer;
        textDiv.replaceChildren();
        await layer.render();
        if (!cancelled) setTextRenders((n) => n + 1);
      } catch (error) {
        const name = (error as { name?: string } | null)?.name;
        if (!cancelled && name !== "RenderingCancelledException" && name !== "AbortException") console.warn(`viewer: page ${pageNumber} failed`, error);
      }
    })();
    return () => {
      cancelled = true;
      renderTask?.cancel();
      textLayer?.cancel();
    };
  }, [lib, pdf, pageNumber, scale, active, documentName, onRendered]);

  useEffect(() => {
    const textDiv = textHost.current;
    if (!textDiv || !citedPassage || textRenders === 0) return;
    const found = markPassage(textDiv, citedPassage.text).length > 0;
    onPassageMarked(pageNumber, citedPassage, found);
    return () => clearPassageMarks(textDiv);
  }, [citedPassage, textRenders, pageNumber, onPassageMarked]);

  const sx = width / LAYOUT_WIDTH;
  const sy = height / LAYOUT_HEIGHT;
  const cited = citedIds && blocks ? blocks.filter((b) => citedIds.includes(b.id)) : [];

  return (
    <div
      ref={(el) => registerElement(pageNumber, el)}
      className="dc-viewer-page"
      style={{ width, height, ["--total-scale-factor" as string]: scale }}
      data-page-number={pageNumber}
      data-capture-surface=""
      data-rendered={active ? "near" : "far"}
    >
      <div ref={canvasHost} className="dc-viewer-page__canvas-host" />
      <div ref={textHost} className="textLayer dc-viewer-page__text" />
      {showLayout && blocks ? (
        <div className="dc-viewer-page__layout" aria-hidden="true" data-testid="layout-boxes">
          {blocks.map((b) => (
            <span
              key={b.id}
              className="dc-viewer-box"
              title={b.text}
              style={{ left: b.box.left * sx, top: b.box.top * sy, width: b.box.width * sx, height: b.box.height * sy }}
            />
          ))}
        </div>
      ) : null}
      {cited.length > 0 ? (
        <div className="dc-viewer-page__layout" aria-hidden="true">
          {cited.map((b) => (
            <span
              key={b.id}
              className="dc-viewer-box is-cited"
              data-testid="citation-highlight"
              data-block-text={b.text}
              style={{ left: b.box.left * sx - 3, top: b.box.top * sy - 3, width: b.box.width * sx + 6, height: b.box.height * sy + 6 }}
            />
          ))}
        </div>
      ) : null}
      <button
        type="button"
        className={`dc-viewer-page__layout-toggle${showLayout ? " is-on" : ""}`}
        aria-pressed={showLayout}
        aria-label={`${showLayout ? "Hide" : "Show"} layout of page ${pageNumber}`}
        title={`${showLayout ? "Hide" : "Show"} page layout`}
        onClick={() => onToggleLayout(pageNumber)}
        data-testid="layout-toggle"
      >
        <LayoutIcon size={14} />
      </button>
      <span className="dc-viewer-page__number" aria-hidden="true">
        {pageNumber}
      </span>
    </div>
  );
});

/** Thumbnails are 150 px wide (spec 001 §2). */
export const THUMB_WIDTH = 150;

type ThumbProps = {
  pdf: PdfDocument;
  pageNumber: number;
  size: PageSize;
  active: boolean;
  current: boolean;
  onGo: (page: number) => void;
  registerElement: (page: number, element: HTMLButtonElement | null) => void;
};

export const PdfThumbnail = memo(function PdfThumbnail({ pdf, pageNumber, size, active, current, onGo, registerElement }: ThumbProps) {
  const host = useRef<HTMLSpanElement>(null);
  const scale = THUMB_WIDTH / size.width;
  const height = Math.round(size.height * scale);
  useEffect(() => {
    const el = host.current;
    if (!el || !active || el.childElementCount > 0) return;
    let cancelled = false;
    let task: { cancel: () => void; promise: Promise<void> } | null = null;
    void (async () => {
      try {
        const page = await pdf.getPage(pageNumber);
        if (cancelled) return;
        const viewport = page.getViewport({ scale });
        const ratio = Math.min(2, window.devicePixelRatio || 1);
        const canvas = document.createElement("canvas");
        canvas.width = Math.floor(viewport.width * ratio);
        canvas.height = Math.floor(viewport.height * ratio);
        canvas.className = "dc-viewer-thumb__canvas";
        canvas.setAttribute("aria-hidden", "true");
        const context = canvas.getContext("2d", { alpha: false });
        if (!context) return;
        task = page.render({ canvas, canvasContext: context, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
        await task.promise;
        if (!cancelled) el.replaceChildren(canvas);
      } catch {
        // a cancelled or failed thumbnail stays a blank card
      }
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, pageNumber, scale, active]);
  return (
    <button
      ref={(el) => registerElement(pageNumber, el)}
      type="button"
      className={`dc-viewer-thumb${current ? " is-current" : ""}`}
      aria-label={`Page ${pageNumber}`}
      aria-current={current ? "page" : undefined}
      data-page-number={pageNumber}
      data-testid="thumbnail"
      onClick={() => onGo(pageNumber)}
    >
      <span ref={host} className="dc-viewer-thumb__img" style={{ width: THUMB_WIDTH, height }} />
      <span className="dc-viewer-thumb__label" aria-hidden="true">
        {pageNumber}
      </span>
    </button>
  );
});
