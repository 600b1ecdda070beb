import { useEffect, useRef, useState } from "react";
import type { SelectionAction, ViewerTarget } from "./types";

/**
 * A small window-event contract between the viewer, the chat and the screen,
 * so each can be built (and swapped) on its own:
 *
 * - `docuchat:open-citation` {documentId, pageNumber, highlightText?}: anyone
 *   (a chat citation chip) asks to open a document at a page. The screen opens
 *   the tab (useCitationRequests); the viewer of that document goes there.
 * - `docuchat:viewer-selection` {action, text}: the selection tip's actions
 *   when the screen passes no onSelectionAction of its own.
 * - `docuchat:viewer-capture` {dataUrl}: a captured area (PNG data URL) when
 *   the screen passes no onCapture of its own.
 * - `docuchat:capture-mode` {on, documentId}: capture mode turned on or off.
 */
export const OPEN_CITATION_EVENT = "docuchat:open-citation";
export const SELECTION_EVENT = "docuchat:viewer-selection";
export const CAPTURE_EVENT = "docuchat:viewer-capture";
/** `docuchat:capture-mode` {on, documentId}: the viewer's capture mode changed (tabs block closing, the chat may minimise). */
export const CAPTURE_MODE_EVENT = "docuchat:capture-mode";

export type CitationRequest = { documentId: string; pageNumber: number; highlightText?: string };
export type SelectionEventDetail = { action: SelectionAction; text: string };
export type CaptureEventDetail = { dataUrl: string };

/** How long a citation for a document that is not open yet waits for its viewer to mount. */
const PENDING_MS = 60_000;
let pending: (CitationRequest & { requestId: string; at: number }) | null = null;
let counter = 0;

// Every citation request (from openCitation or a raw event) is remembered until
// the viewer of its document takes it: the tab may not be open yet.
if (typeof window !== "undefined") {
  window.addEventListener(OPEN_CITATION_EVENT, (event) => {
    const detail = (event as CustomEvent<CitationRequest & { requestId?: string }>).detail;
    if (!detail?.documentId || !Number.isFinite(Number(detail.pageNumber))) return;
    counter += 1;
    pending = {
      documentId: String(detail.documentId),
      pageNumber: Number(detail.pageNumber),
      highlightText: typeof detail.highlightText === "string" ? detail.highlightText : undefined,
      requestId: detail.requestId ?? `c${Date.now().toString(36)}${counter}`,
      at: Date.now(),
    };
  });
}

/** Opens a citation: the screen opens the tab (useCitationRequests), the document's viewer goes to the page. */
export function openCitation(request: CitationRequest): void {
  if (typeof window === "undefined") return;
  window.dispatchEvent(new CustomEvent<CitationRequest>(OPEN_CITATION_EVENT, { detail: { ...request } }));
}

/** The newest citation for `documentId` that no viewer has taken yet (and takes it). */
export function takePendingCitation(documentId: string): ViewerTarget | null {
  if (!pending || pending.documentId !== documentId || Date.now() - pending.at > PENDING_MS) return null;
  const { pageNumber, highlightText, requestId } = pending;
  pending = null;
  return { pageNumber, highlightText, requestId };
}

/**
 * For the screen: calls `openFile(documentId)` for each citation request, so a
 * citation to a closed document opens its tab (the viewer then takes the
 * pending target when it mounts, or at once if it is already showing).
 */
export function useCitationRequests(openFile: (documentId: string) => void): void {
  const open = useRef(openFile);
  open.current = openFile;
  useEffect(() => {
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<CitationRequest>).detail;
      if (detail?.documentId) open.current(detail.documentId);
    };
    window.addEventListener(OPEN_CITATION_EVENT, listener);
    return () => window.removeEventListener(OPEN_CITATION_EVENT, listener);
  }, []);
}

/** Inside a document's viewer: the citation targets meant for it (pending at mount, then live). */
export function useCitationTargets(documentId: string): ViewerTarget | null {
  const [target, setTarget] = useState<ViewerTarget | null>(null);
  useEffect(() => {
    const initial = takePendingCitation(documentId);
    if (initial) setTarget(initial);
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<CitationRequest>).detail;
      if (detail?.documentId !== documentId) return;
      const taken = takePendingCitation(documentId);
      if (taken) setTarget(taken);
    };
    window.addEventListener(OPEN_CITATION_EVENT, listener);
    return () => window.removeEventListener(OPEN_CITATION_EVENT, listener);
  }, [documentId]);
  return target;
}

export function emitSelectionAction(action: SelectionAction, text: string): void {
  window.dispatchEvent(new CustomEvent<SelectionEventDetail>(SELECTION_EVENT, { detail: { action, text } }));
}

export function emitCapture(dataUrl: string): void {
  window.dispatchEvent(new CustomEvent<CaptureEventDetail>(CAPTURE_EVENT, { detail: { dataUrl } }));
}

/** The chat's question for Explain: 'Explain "{text}"?', trailing question marks of the text removed (spec 001 §2). */
export const explainPrompt = (text: string) => `Explain "${text.trim().replace(/[?？\s]+$/u, "")}"?`;

export function emitCaptureMode(on: boolean, documentId: string): void {
  window.dispatchEvent(new CustomEvent<{ on: boolean; documentId: string }>(CAPTURE_MODE_EVENT, { detail: { on, documentId } }));
}

/** Whether a viewer is in capture mode (from its `docuchat:capture-mode` events). */
export function useViewerCaptureMode(): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const listener = (event: Event) => setOn(Boolean((event as CustomEvent<{ on?: boolean }>).detail?.on));
    window.addEventListener(CAPTURE_MODE_EVENT, listener);
    return () => window.removeEventListener(CAPTURE_MODE_EVENT, listener);
  }, []);
  return on;
}
