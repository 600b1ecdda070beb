import { Button, Flex, Text } from "@radix-ui/themes";
import { useCallback } from "react";
import { DownloadIcon, FileIcon } from "#app/components/icons";
import { DocumentViewer, type SelectionAction, type ViewerTarget } from "#app/components/viewer/document-viewer";
import { emitCapture, emitSelectionAction, useCitationTargets } from "#app/components/viewer/events";

/**
 * The open document: the viewer of app/components/viewer (pdf.js pages with
 * thumbnails, zoom and layout highlights; text; images; extracted text of the
 * other kinds) once the document is ready, a message while it is prepared.
 *
 * Every prop beyond `document` is optional. Without `onSelectionAction` /
 * `onCapture` the viewer announces them as window events
 * (`docuchat:viewer-selection`, `docuchat:viewer-capture`, see
 * app/components/viewer/events.ts) for the chat to pick up. Without `target`,
 * citations arrive through `openCitation()` (event `docuchat:open-citation`).
 * Without `captureMode`, the viewer's own toolbar toggles capture.
 */
export type FrameDocument = { documentId: string; documentName: string; kind: string | null; status: string; pageCount?: number };

export const documentInlineUrl = (id: string) => `/documents/download/${encodeURIComponent(id)}?type=document&inline=1`;
export const documentDownloadUrl = (id: string) => `/documents/download/${encodeURIComponent(id)}?type=document`;

export type DocumentFrameProps = {
  document: FrameDocument;
  /** A citation to go to (a new requestId re-runs it). */
  target?: ViewerTarget | null;
  /** Controlled capture mode (the chat's capture icon); undefined lets the viewer's toolbar toggle it. */
  captureMode?: boolean;
  onCaptureModeChange?: (on: boolean) => void;
  onCapture?: (dataUrl: string) => void;
  onSelectionAction?: (action: SelectionAction, text: string) => void;
  /** Insert in Chat, Ask Question and Explain need an open chat (default true). */
  chatOpen?: boolean;
  onReady?: () => void;
};

export function DocumentFrame({ document, target, captureMode, onCaptureModeChange, onCapture, onSelectionAction, chatOpen = true, onReady }: DocumentFrameProps) {
  const ready = document.status === "ACTIVE";
  const eventTarget = useCitationTargets(document.documentId);
  const capture = useCallback((dataUrl: string) => (onCapture ? onCapture(dataUrl) : emitCapture(dataUrl)), [onCapture]);
  const selection = useCallback(
    (action: SelectionAction, text: string) => (onSelectionAction ? onSelectionAction(action, text) : emitSelectionAction(action, text)),
    [onSelectionAction],
  );

  if (!ready) {
    return (
      <Flex direction="column" align="center" justify="center" gap="3" className="dc-wsx-frame dc-wsx-frame--message" data-testid="document-frame-message">
        <FileIcon size={36} />
        <Text size="3" weight="bold" align="center">
          {document.documentName}
        </Text>
        <Text size="2" color="gray" align="center">
          This document is still being prepared.
        </Text>
        <Button asChild variant="soft">
          <a href={documentDownloadUrl(document.documentId)} download>
            <DownloadIcon size={16} />
            Download
          </a>
        </Button>
      </Flex>
    );
  }
  return (
    <DocumentViewer
      key={document.documentId}
      document={{ documentId: document.documentId, documentName: document.documentName, kind: document.kind, pageCount: document.pageCount ?? 0 }}
      target={target ?? eventTarget}
      captureMode={captureMode}
      onCaptureModeChange={onCaptureModeChange}
      onCapture={capture}
      onSelectionAction={selection}
      chatOpen={chatOpen}
      onReady={onReady}
    />
  );
}
