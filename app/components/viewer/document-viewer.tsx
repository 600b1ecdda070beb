import { useEffect, useState } from "react";
import { emitCaptureMode } from "./events";
import { useHydrated } from "#app/components/use-hydrated";
import { ImageViewer } from "./image-viewer";
import { preparePdf } from "./pdf-document";
import { PdfViewer } from "./pdf-viewer";
import { TextViewer } from "./text-viewer";
import { viewerKind, type DocumentViewerProps } from "./types";
import viewerStyles from "./viewer.css";

export type { DocumentViewerProps, SelectionAction, ViewerDocument, ViewerTarget } from "./types";
export { viewerStyles };

/**
 * The document viewer of the workspace screen (spec 001 §2): PDFs with pdf.js,
 * text files as text, images, and the extracted text of every other kind.
 * Renders in the browser only (pdf.js and image sizes need it); the server
 * sends a sized, labelled loading frame.
 */
export function DocumentViewer(props: DocumentViewerProps) {
  const hydrated = useHydrated();
  const [ownCapture, setOwnCapture] = useState(false);
  const controlled = props.captureMode !== undefined;
  const captureMode = controlled ? Boolean(props.captureMode) : ownCapture;
  const setCaptureMode = controlled ? (props.onCaptureModeChange ?? null) : setOwnCapture;
  const kind = viewerKind(props.document.kind);
  const documentId = props.document.documentId;

  // Others follow capture mode (tabs cannot close, the chat may minimise); leaving the viewer ends it.
  useEffect(() => {
    emitCaptureMode(captureMode, documentId);
  }, [captureMode, documentId]);
  useEffect(() => () => emitCaptureMode(false, documentId), [documentId]);
  useEffect(() => setOwnCapture(false), [documentId]);

  // The hydrating render: the PDF viewer mounts only once it is over, so pdf.js, its worker and the
  // first ranges start now, in parallel with it (decision 176). Idempotent, like a preload hint.
  if (!hydrated && kind === "pdf" && typeof window !== "undefined") preparePdf(documentId);

  let body;
  if (!hydrated) {
    body = (
      <div className="dc-viewer" data-testid="document-viewer" data-state="loading" data-document-id={props.document.documentId}>
        <div className="dc-viewer-status" role="status">
          <span className="dc-viewer-spinner" aria-hidden="true" />
          Loading {props.document.documentName}…
        </div>
      </div>
    );
  } else if (kind === "pdf") {
    body = <PdfViewer key={props.document.documentId} {...props} captureMode={captureMode} setCaptureMode={setCaptureMode} />;
  } else if (kind === "image") {
    body = <ImageViewer key={props.document.documentId} {...props} captureMode={captureMode} setCaptureMode={setCaptureMode} />;
  } else {
    body = <TextViewer key={props.document.documentId} {...props} mode={kind === "txt" ? "txt" : "pages"} captureMode={captureMode} setCaptureMode={setCaptureMode} />;
  }
  return (
    <>
      {/* React 18 has no stylesheet hoisting: the link sits with the viewer (the screen may also list viewerStyles in its links). */}
      <link rel="stylesheet" href={viewerStyles} />
      {body}
    </>
  );
}
