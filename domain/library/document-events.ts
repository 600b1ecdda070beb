import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime, personal } from "#domain/shared/event-schemas";
import { DOCUMENT_SOURCES, type DocumentCommand, type DocumentEvent, type DocumentState, documentDecider, documentStreamId, RAG_TYPES } from "./document";

const modelChoice = z.object({ keysetId: z.string(), model: z.string() });

export const documentAggregate: AggregateDefinition<DocumentCommand, DocumentEvent, DocumentState> = {
  decider: documentDecider,
  streamId: documentStreamId,
  events: {
    DocumentRegistered: {
      version: 1,
      data: eventData({
        documentId: z.string(),
        ownerId: z.string(),
        source: z.enum(DOCUMENT_SOURCES),
        declaredType: z.string(),
        declaredSize: z.number(),
        declaredPageCount: z.number(),
        // Settings added over time read as "not chosen" on events stored before them.
        settings: z.object({
          ocr: z.boolean().default(false),
          ragType: z.enum(RAG_TYPES).nullable().default(null),
          embedding: modelChoice.nullable().default(null),
          maxDepth: z.number().nullable().default(null),
          transcription: modelChoice.nullable().default(null),
        }),
        personal: personal({ name: z.string(), sourceUrl: z.string().nullable() }),
        registeredAt: isoTime,
      }),
    },
    DocumentFileReceived: {
      version: 1,
      data: eventData({
        blobKey: z.string(),
        size: z.number(),
        kind: z.string(),
        contentType: z.string(),
        personal: personal({ title: z.string() }),
        receivedAt: isoTime,
      }),
    },
    DocumentContextPreparationStarted: { version: 1, data: eventData({ startedAt: isoTime }) },
    DocumentTextExtracted: {
      version: 1,
      data: eventData({
        pageCount: z.number(),
        pagesBlobKey: z.string(),
        warnings: z.array(z.string()).default([]),
        extractedAt: isoTime,
        // Counted since unreadable pages are detected (decision 061); absent before.
        pagesReadByOcr: z.array(z.number()).optional(),
        unreadablePages: z.array(z.number()).optional(),
        // What read a PDF's text layer (decision 212); absent for other kinds and before it was recorded.
        extractor: z.enum(["poppler", "pdf.js"]).optional(),
      }),
    },
    DocumentTranscriptionProgressed: {
      version: 1,
      data: eventData({ secondsDone: z.number(), secondsTotal: z.number(), progressedAt: isoTime }),
    },
    DocumentIndexed: { version: 1, data: eventData({ chunkCount: z.number(), indexedAt: isoTime }) },
    DocumentActivated: { version: 1, data: eventData({ activatedAt: isoTime }) },
    DocumentFailed: { version: 1, data: eventData({ reason: z.string(), failedAt: isoTime }) },
    DocumentDeleted: { version: 1, data: eventData({ deletedAt: isoTime }) },
  },
};
