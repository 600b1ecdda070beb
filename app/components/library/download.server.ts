import type { DocumentReadModel } from "#projections/library/documents.queries";

/** A file name safe for headers and zip entries: no path parts, control characters or quotes. */
export function safeFileName(name: string, fallback = "document"): string {
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/[\\/:*?"<>|]/g, "_")
    .replace(/^[.\s]+/, "")
    .trim()
    .slice(0, 200);
  return cleaned || fallback;
}

/** RFC 6266/5987: an ASCII fallback plus the UTF-8 name. */
export function contentDisposition(kind: "attachment" | "inline", name: string): string {
  const safe = safeFileName(name);
  const ascii = safe.replace(/[^\x20-\x7e]/g, "_").replace(/[%;\\]/g, "_");
  const encoded = encodeURIComponent(safe).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The type the viewer frame may show inline, from the kind the server detected
 * from the bytes (never the client's declared type). HTML is never inline.
 */
export function inlineContentType(document: Pick<DocumentReadModel, "kind">): string | null {
  switch (document.kind) {
    case "pdf":
      return "application/pdf";
    case "png":
      return "image/png";
    case "jpg":
      return "image/jpeg";
    case "txt":
      return "text/plain; charset=utf-8";
    default:
      return null;
  }
}

export const canPreviewInline = (document: Pick<DocumentReadModel, "kind">) => inlineContentType(document) !== null;
