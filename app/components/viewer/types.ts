/** The document viewer's contract with the workspace screen (browser-safe). */

export type ViewerKind = "pdf" | "txt" | "image" | "pages";

export type ViewerDocument = {
  documentId: string;
  documentName: string;
  /** The detected kind: 'pdf' | 'txt' | 'png' | 'jpg' | 'jpeg' | … | 'docx' | 'html' | 'audio' (others show extracted text). */
  kind: string | null;
  pageCount: number;
};

/** A citation to go to; a new requestId re-runs it even for the same page. */
export type ViewerTarget = { pageNumber: number; highlightText?: string; requestId: string | number };

export type SelectionAction = "copy" | "insert" | "ask" | "explain";

export type DocumentViewerProps = {
  document: ViewerDocument;
  target?: ViewerTarget | null;
  /** Controlled capture mode; leave undefined to let the viewer's own toolbar toggle it. */
  captureMode?: boolean;
  onCaptureModeChange?: (on: boolean) => void;
  onCapture: (dataUrl: string) => void;
  onSelectionAction: (action: SelectionAction, text: string) => void;
  chatOpen: boolean;
  onReady?: () => void;
};

const IMAGE_KINDS = new Set(["png", "jpg", "jpeg", "gif", "webp", "bmp", "image"]);

export function viewerKind(kind: string | null | undefined): ViewerKind {
  const k = (kind ?? "").toLowerCase();
  if (k === "pdf") return "pdf";
  if (k === "txt" || k === "text") return "txt";
  if (IMAGE_KINDS.has(k) || k.startsWith("image/")) return "image";
  return "pages";
}

export const inlineUrl = (id: string) => `/documents/download/${encodeURIComponent(id)}?type=document&inline=1`;
