import { useEffect, useRef, useState, type RefObject } from "react";

/** The area being drawn, in the viewer root's coordinates (for the overlay). */
export type CaptureRect = { left: number; top: number; width: number; height: number };

/** Crops a region (CSS px of `surface`) of a rendered canvas or image to a PNG data URL, at the source's own resolution. */
export function cropToDataUrl(
  source: HTMLCanvasElement | HTMLImageElement,
  surface: HTMLElement,
  region: { x: number; y: number; width: number; height: number },
): string | null {
  const shownWidth = surface.clientWidth || 1;
  const naturalWidth = source instanceof HTMLCanvasElement ? source.width : source.naturalWidth;
  const naturalHeight = source instanceof HTMLCanvasElement ? source.height : source.naturalHeight;
  if (!naturalWidth || !naturalHeight) return null;
  const ratio = naturalWidth / shownWidth; // the device pixel ratio for pages, the image's scale for images
  const sx = Math.max(0, Math.floor(region.x * ratio));
  const sy = Math.max(0, Math.floor(region.y * ratio));
  const sw = Math.max(1, Math.min(naturalWidth - sx, Math.round(region.width * ratio)));
  const sh = Math.max(1, Math.min(naturalHeight - sy, Math.round(region.height * ratio)));
  const out = document.createElement("canvas");
  out.width = sw;
  out.height = sh;
  const ctx = out.getContext("2d");
  if (!ctx) return null;
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, sw, sh);
  ctx.drawImage(source, sx, sy, sw, sh, 0, 0, sw, sh);
  return out.toDataURL("image/png");
}

/**
 * Area capture (spec 001 §2/§5): with capture mode on, or holding Alt, a drag
 * over a `[data-capture-surface]` element inside `scope` draws a rectangle; on
 * release (at least 1×1 px) the region of the surface's canvas or image is
 * cropped to a PNG and handed to onCapture. Escape cancels the drag (and,
 * with no drag under way, leaves capture mode).
 */
export function useAreaCapture({
  scope,
  anchor,
  active,
  onCapture,
  onExit,
}: {
  scope: RefObject<HTMLElement | null>;
  anchor: RefObject<HTMLElement | null>;
  active: boolean;
  onCapture: (dataUrl: string) => void;
  onExit?: () => void;
}) {
  const [rect, setRect] = useState<CaptureRect | null>(null);
  const drag = useRef<{ surface: HTMLElement; x0: number; y0: number; x1: number; y1: number; pointerId: number } | null>(null);
  const latest = useRef({ active, onCapture, onExit });
  latest.current = { active, onCapture, onExit };

  useEffect(() => {
    const root = scope.current;
    if (!root) return;

    const local = (surface: HTMLElement, event: PointerEvent) => {
      const box = surface.getBoundingClientRect();
      return {
        x: Math.min(box.width, Math.max(0, event.clientX - box.left)),
        y: Math.min(box.height, Math.max(0, event.clientY - box.top)),
      };
    };
    const show = () => {
      const d = drag.current;
      const host = anchor.current;
      if (!d || !host) return setRect(null);
      const s = d.surface.getBoundingClientRect();
      const h = host.getBoundingClientRect();
      setRect({
        left: s.left - h.left + Math.min(d.x0, d.x1),
        top: s.top - h.top + Math.min(d.y0, d.y1),
        width: Math.abs(d.x1 - d.x0),
        height: Math.abs(d.y1 - d.y0),
      });
    };
    const cancel = () => {
      drag.current = null;
      setRect(null);
    };

    const onDown = (event: PointerEvent) => {
      if (event.button !== 0 || !(latest.current.active || event.altKey)) return;
      const surface = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-capture-surface]");
      if (!surface || !root.contains(surface)) return;
      event.preventDefault();
      window.getSelection()?.removeAllRanges();
      const p = local(surface, event);
      drag.current = { surface, x0: p.x, y0: p.y, x1: p.x, y1: p.y, pointerId: event.pointerId };
      try {
        surface.setPointerCapture(event.pointerId);
      } catch {
        // synthetic pointers cannot be captured; the window listeners still follow
      }
      show();
    };
    const onMove = (event: PointerEvent) => {
      const d = drag.current;
      if (!d || event.pointerId !== d.pointerId) return;
      const p = local(d.surface, event);
      d.x1 = p.x;
      d.y1 = p.y;
      show();
    };
    const onUp = (event: PointerEvent) => {
      const d = drag.current;
      if (!d || event.pointerId !== d.pointerId) return;
      const p = local(d.surface, event);
      d.x1 = p.x;
      d.y1 = p.y;
      const region = { x: Math.min(d.x0, d.x1), y: Math.min(d.y0, d.y1), width: Math.abs(d.x1 - d.x0), height: Math.abs(d.y1 - d.y0) };
      const surface = d.surface;
      cancel();
      if (region.width < 1 || region.height < 1) return; // spec 001 §5: at least 1×1 px
      const source = surface.querySelector<HTMLCanvasElement | HTMLImageElement>("[data-capture-source]");
      if (!source) return;
      const dataUrl = cropToDataUrl(source, surface, region);
      if (dataUrl) latest.current.onCapture(dataUrl);
    };
    // No text selection starts under a capture drag.
    const onMouseDown = (event: MouseEvent) => {
      if (event.button === 0 && (latest.current.active || event.altKey) && (event.target as HTMLElement | null)?.closest("[data-capture-surface]")) event.preventDefault();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      if (drag.current) cancel();
      else if (latest.current.active) latest.current.onExit?.();
    };

    root.addEventListener("pointerdown", onDown);
    root.addEventListener("mousedown", onMouseDown);
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", cancel);
    document.addEventListener("keydown", onKey);
    return () => {
      root.removeEventListener("pointerdown", onDown);
      root.removeEventListener("mousedown", onMouseDown);
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      window.removeEventListener("pointercancel", cancel);
      document.removeEventListener("keydown", onKey);
    };
  }, [scope, anchor]);

  return rect;
}

export function CaptureOverlay({ rect }: { rect: CaptureRect | null }) {
  if (!rect) return null;
  return (
    <div
      className="dc-viewer-capture-rect"
      aria-hidden="true"
      data-testid="capture-rect"
      style={{ left: rect.left, top: rect.top, width: rect.width, height: rect.height }}
    />
  );
}
