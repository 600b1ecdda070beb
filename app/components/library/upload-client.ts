import { loadPdfjs } from "./pdfjs";
import { AUDIO_EXTENSIONS, extensionOf, TEXT_LIKE_EXTENSIONS } from "#domain/library/upload-rules";

/** Browser side of the upload flow (spec 000 §7): POST /api/documents, then PUT the bytes to the returned URL. */

export type UploadPayload = {
  document_name: string;
  document_type: string;
  document_size: number;
  page_count: number;
  media_type: "document" | "file";
  document_source: "file" | "audio";
  embedding_data: { keyset_id: string; model: string } | null;
  ocr: "true" | "false";
  rag_type: string;
};

export type Registered = { url: string; document_id: string; user_id: string };

export class UploadError extends Error {
  constructor(message: string, readonly status: number, readonly code?: string) {
    super(message);
  }
}

async function readError(response: Response): Promise<UploadError> {
  try {
    const body = (await response.json()) as { message?: string; code?: string };
    return new UploadError(body.message || "Something went wrong", response.status, body.code);
  } catch {
    return new UploadError(response.status === 413 ? "The file is too large." : "Something went wrong", response.status);
  }
}

export async function postJson<T>(url: string, body: unknown, csrfToken: string): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken, Accept: "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await readError(response);
  return (await response.json()) as T;
}

export const registerUpload = (payload: UploadPayload, csrfToken: string) => postJson<Registered>("/api/documents", payload, csrfToken);

/** One item of an upload screen's list, as `uploadEach` needs it. */
export type UploadItem = { name: string; payload: UploadPayload; body: Blob; contentType: string };

/**
 * The upload screens' "Upload" button: each item in turn is registered, then
 * its bytes are PUT with progress. A failing item is reported and the rest
 * go on. Answers how many failed.
 */
export async function uploadEach<T>(
  items: readonly T[],
  csrfToken: string,
  handlers: {
    describe: (item: T) => UploadItem;
    progress: (item: T, progress: number | null, error: string | null) => void;
    done: (item: T) => void;
    failed: (name: string, message: string) => void;
    /** After the bytes arrived (the share-with-community setting hands the new document to its community here). */
    uploaded?: (item: T, documentId: string) => Promise<void>;
  },
): Promise<number> {
  let failed = 0;
  for (const item of items) {
    handlers.progress(item, 0, null);
    const described = handlers.describe(item);
    try {
      const registered = await registerUpload(described.payload, csrfToken);
      await putWithProgress(registered, described.body, described.contentType, (fraction) => handlers.progress(item, fraction, null));
      await handlers.uploaded?.(item, registered.document_id).catch((error: unknown) =>
        handlers.failed(described.name, `uploaded, but not shared: ${error instanceof Error ? error.message : "Something went wrong"}`),
      );
      handlers.done(item);
    } catch (error) {
      failed++;
      const message = error instanceof Error ? error.message : "Something went wrong";
      handlers.progress(item, null, message);
      handlers.failed(described.name, message);
    }
  }
  return failed;
}

/** PUT with upload progress (fetch has none), like the S3 presigned PUT with its x-amz-meta headers. */
export function putWithProgress(
  registered: Registered,
  body: Blob,
  contentType: string,
  onProgress: (fraction: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", registered.url);
    xhr.setRequestHeader("Content-Type", contentType);
    xhr.setRequestHeader("x-amz-meta-document_id", registered.document_id);
    xhr.setRequestHeader("x-amz-meta-user_id", registered.user_id);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      let message = xhr.status === 413 ? "The file is too large." : "Something went wrong";
      try {
        message = (JSON.parse(xhr.responseText) as { message?: string }).message || message;
      } catch {
        // keep the fallback
      }
      reject(new UploadError(message, xhr.status));
    };
    xhr.onerror = () => reject(new UploadError("The upload was interrupted. Check your connection and try again.", 0));
    xhr.send(body);
  });
}

const isTextLike = (name: string) => (TEXT_LIKE_EXTENSIONS as readonly string[]).includes(extensionOf(name)) || extensionOf(name) === "txt";
export const isAudioName = (name: string) => (AUDIO_EXTENSIONS as readonly string[]).includes(extensionOf(name));

const MIME: Record<string, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
};

/** Text-like code files are sent as text/plain (spec 000 §9). */
export function uploadContentType(file: { name: string; type: string }): string {
  if (isTextLike(file.name)) return "text/plain";
  return MIME[extensionOf(file.name)] || file.type || "application/octet-stream";
}

/** 'document' for PDF or plain text, otherwise 'file' (spec 000 §3). */
export function mediaTypeOf(name: string): "document" | "file" {
  const ext = extensionOf(name);
  return ext === "pdf" || isTextLike(name) ? "document" : "file";
}

/** Pages of a PDF (counted in the browser); null when it cannot be read. */
export async function countPdfPages(file: Blob): Promise<number | null> {
  try {
    const lib = await loadPdfjs();
    const task = lib.getDocument({ data: new Uint8Array(await file.arrayBuffer()), isEvalSupported: false });
    const doc = await task.promise;
    const pages = doc.numPages;
    await task.destroy();
    return pages;
  } catch (error) {
    console.warn("Could not count the PDF's pages", error);
    return null;
  }
}

const WORDS_PER_PAGE = 500;

/** A page estimate for non-PDF files: words / 500 for text, otherwise 1 (the server recounts). */
export async function estimatePages(file: File): Promise<number> {
  if (extensionOf(file.name) === "pdf") return (await countPdfPages(file)) ?? 1;
  if (isTextLike(file.name) && file.size < 5 * 1024 * 1024) {
    const words = (await file.text()).split(/\s+/).filter(Boolean).length;
    return Math.max(1, Math.ceil(words / WORDS_PER_PAGE));
  }
  return 1;
}
