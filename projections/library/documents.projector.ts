import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readEvent } from "#domain/shared/event-schemas";
import { documentAggregate } from "#domain/library/document-events";
import type { DocumentSource, DocumentStatus, IngestionSettings } from "#domain/library/document";

/** A document as My Documents, the wizard's file picker and the dashboard show it. */
export interface DocumentReadModel {
  id: string;
  ownerId: string;
  name: string;
  nameLower: string;
  source: DocumentSource;
  fileType: string;
  kind: string | null;
  size: number;
  pageCount: number;
  sourceUrl: string | null;
  status: Exclude<DocumentStatus, "DELETED">;
  failureReason: string | null;
  warnings: string[];
  /** Pages read by OCR and pages that could not be read (absent on rows written before they were counted). */
  pagesReadByOcr?: number[];
  unreadablePages?: number[];
  settings: IngestionSettings;
  /** A recording being transcribed: how far (absent on other documents and rows written before it was counted). */
  transcription?: { secondsDone: number; secondsTotal: number } | null;
  /** Which step of its preparation a document is in, while it is prepared (absent on rows written before it was kept). */
  preparation?: "reading" | "indexing" | null;
  chunkCount: number;
  createdAt: string;
  updatedAt: string;
}

export const DOCUMENTS = "library_documents";

export const documentsProjector: Projector = {
  name: "library.documents",
  // Pages counted against the allowance live on its own stream (application/shared/allowance-policy.ts), not here.
  collections: [DOCUMENTS],
  async setup(store: ReadModelStore) {
    const documents = store.collection<DocumentReadModel>(DOCUMENTS);
    await documents.ensureIndex(["ownerId", "createdAt"]);
    // My Documents watches what is in progress or just changed (documentsToWatch).
    await documents.ensureIndex(["ownerId", "status"]);
    await documents.ensureIndex(["ownerId", "updatedAt"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    // An account purge (identity context) removes every row its owner had here.
    if (recorded.type === "AccountPurged" && recorded.streamId.startsWith("user-")) {
      const ownerId = recorded.streamId.slice("user-".length);
      await store.collection<DocumentReadModel>(DOCUMENTS).deleteMany({ ownerId });
      return;
    }
    if (!recorded.streamId.startsWith("document-")) return;
    const documents = store.collection<DocumentReadModel>(DOCUMENTS);
    const event = readEvent(documentAggregate.events, recorded);
    const id = recorded.streamId.slice("document-".length);
    const at = recorded.recordedAt;
    switch (event.type) {
      case "DocumentRegistered": {
        const { data } = event;
        if (!data.personal) return; // the owner's data was shredded
        await documents.upsert({
          id,
          ownerId: data.ownerId,
          name: data.personal.name,
          nameLower: data.personal.name.toLowerCase(),
          source: data.source,
          fileType: data.declaredType,
          kind: null,
          size: data.declaredSize,
          pageCount: data.declaredPageCount,
          sourceUrl: data.personal.sourceUrl,
          status: "UPLOADING",
          failureReason: null,
          warnings: [],
          pagesReadByOcr: [],
          unreadablePages: [],
          settings: data.settings,
          chunkCount: 0,
          createdAt: data.registeredAt,
          updatedAt: data.registeredAt,
        });
        return;
      }
      case "DocumentFileReceived":
        await documents.patch(id, {
          size: event.data.size,
          kind: event.data.kind,
          fileType: event.data.contentType,
          ...(event.data.personal?.title ? { name: event.data.personal.title, nameLower: event.data.personal.title.toLowerCase() } : {}),
          updatedAt: at,
        });
        return;
      case "DocumentContextPreparationStarted":
        await documents.patch(id, { status: "PREPARING_CONTEXT", preparation: "reading", updatedAt: at });
        return;
      case "DocumentTextExtracted":
        await documents.patch(id, {
          pageCount: event.data.pageCount,
          warnings: event.data.warnings,
          pagesReadByOcr: event.data.pagesReadByOcr ?? [],
          unreadablePages: event.data.unreadablePages ?? [],
          preparation: "indexing",
          updatedAt: at,
        });
        return;
      case "DocumentTranscriptionProgressed":
        await documents.patch(id, { transcription: { secondsDone: event.data.secondsDone, secondsTotal: event.data.secondsTotal }, updatedAt: at });
        return;
      case "DocumentIndexed":
        await documents.patch(id, { chunkCount: event.data.chunkCount, updatedAt: at });
        return;
      case "DocumentActivated":
        await documents.patch(id, { status: "ACTIVE", preparation: null, updatedAt: at });
        return;
      case "DocumentFailed":
        await documents.patch(id, { status: "FAILED", failureReason: event.data.reason, preparation: null, updatedAt: at });
        return;
      case "DocumentDeleted":
        await documents.delete(id);
        return;
    }
  },
};
