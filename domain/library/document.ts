import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * A document in a user's library (stream `document-<id>`): registered, its
 * bytes received, its context prepared (text extracted, chunks indexed), then
 * ACTIVE, or FAILED with a reason the user can read. The name and source URL
 * are the owner's personal data (crypto-shredded with the account).
 */

export const DOCUMENT_SOURCES = ["file", "document_url", "website_url", "youtube_link", "audio"] as const;
export type DocumentSource = (typeof DOCUMENT_SOURCES)[number];

export const RAG_TYPES = ["baseline", "summary"] as const;
export type RagType = (typeof RAG_TYPES)[number];

export type DocumentStatus = "UPLOADING" | "PREPARING_CONTEXT" | "ACTIVE" | "FAILED" | "DELETED";

export interface IngestionSettings {
  ocr: boolean;
  ragType: RagType | null;
  /** Embedding keyset and model; null = BM25 only (the built-in model needs no vectors). */
  embedding: { keysetId: string; model: string } | null;
  /** Crawl depth, for website links. */
  maxDepth: number | null;
  /** Recordings: the keyset's transcription model; null or absent = the built-in offline one (decision 142). */
  transcription?: { keysetId: string; model: string } | null;
}

export type DocumentEvent =
  | DomainEvent<
      "DocumentRegistered",
      {
        documentId: string;
        ownerId: string;
        source: DocumentSource;
        /** Declared by the browser (type, size, page count); checked again when the bytes arrive. */
        declaredType: string;
        declaredSize: number;
        declaredPageCount: number;
        settings: IngestionSettings;
        personal: { name: string; sourceUrl: string | null } | null;
        registeredAt: string;
      }
    >
  | DomainEvent<
      "DocumentFileReceived",
      {
        blobKey: string;
        size: number;
        kind: string;
        contentType: string;
        /** A title found at the source (a video's or web page's), which becomes the document's name. */
        personal: { title: string } | null;
        receivedAt: string;
      }
    >
  | DomainEvent<"DocumentContextPreparationStarted", { startedAt: string }>
  | DomainEvent<
      "DocumentTextExtracted",
      {
        pageCount: number;
        pagesBlobKey: string;
        warnings: string[];
        extractedAt: string;
        /** Pages whose text came from OCR. Absent in events recorded before OCR was counted. */
        pagesReadByOcr?: number[];
        /** Pages whose text could not be read and were left out of the index. Absent in older events. */
        unreadablePages?: number[];
        /** What read a PDF's text layer. Absent for other kinds and in older events. */
        extractor?: "poppler" | "pdf.js";
      }
    >
  /** A long recording is transcribed in pieces; this follows each piece (decision 140). */
  | DomainEvent<"DocumentTranscriptionProgressed", { secondsDone: number; secondsTotal: number; progressedAt: string }>
  | DomainEvent<"DocumentIndexed", { chunkCount: number; indexedAt: string }>
  | DomainEvent<"DocumentActivated", { activatedAt: string }>
  | DomainEvent<"DocumentFailed", { reason: string; failedAt: string }>
  | DomainEvent<"DocumentDeleted", { deletedAt: string }>;

export type DocumentCommand =
  | {
      type: "RegisterDocument";
      documentId: string;
      ownerId: string;
      source: DocumentSource;
      name: string;
      sourceUrl: string | null;
      declaredType: string;
      declaredSize: number;
      declaredPageCount: number;
      settings: IngestionSettings;
      now: Date;
    }
  | { type: "ReceiveFile"; blobKey: string; size: number; kind: string; contentType: string; title?: string; now: Date }
  | { type: "StartContextPreparation"; now: Date }
  | {
      type: "RecordTextExtracted";
      pageCount: number;
      pagesBlobKey: string;
      warnings: string[];
      pagesReadByOcr?: number[];
      unreadablePages?: number[];
      extractor?: "poppler" | "pdf.js";
      now: Date;
    }
  | { type: "RecordTranscriptionProgress"; secondsDone: number; secondsTotal: number; now: Date }
  | { type: "RecordIndexed"; chunkCount: number; now: Date }
  | { type: "Activate"; now: Date }
  | { type: "Fail"; reason: string; now: Date }
  /** The upload's bytes never arrived (deadline passed, PUT refused or broken): fails it unless the file came. */
  | { type: "AbandonUpload"; reason: string; now: Date }
  | { type: "Delete"; now: Date };

export type DocumentState =
  | { exists: false }
  | {
      exists: true;
      documentId: string;
      ownerId: string;
      source: DocumentSource;
      status: DocumentStatus;
      registeredAt: string;
      /** Once ready, its pages count for good, even if it is deleted later. */
      activated: boolean;
      blobKey: string | null;
      pageCount: number;
      pagesBlobKey: string | null;
      chunkCount: number;
      failureReason: string | null;
      /** Seconds of the recording transcribed so far (recordings only). */
      transcribedSeconds: number;
    };

const iso = (d: Date) => d.toISOString();

function existing(state: DocumentState) {
  if (!state.exists || state.status === "DELETED") throw new DomainError("DOCUMENT_NOT_FOUND", "Document Not Found");
  return state;
}

/** Steps of ingestion are idempotent: a repeated step (a workflow retry after a crash) records nothing new. */
export function decide(command: DocumentCommand, state: DocumentState): DocumentEvent[] {
  switch (command.type) {
    case "RegisterDocument": {
      if (state.exists) return [];
      return [
        {
          type: "DocumentRegistered",
          data: {
            documentId: command.documentId,
            ownerId: command.ownerId,
            source: command.source,
            declaredType: command.declaredType,
            declaredSize: command.declaredSize,
            declaredPageCount: command.declaredPageCount,
            settings: command.settings,
            personal: { name: command.name, sourceUrl: command.sourceUrl },
            registeredAt: iso(command.now),
          },
        },
      ];
    }
    case "ReceiveFile": {
      const doc = existing(state);
      if (doc.blobKey) return [];
      if (doc.status !== "UPLOADING" && doc.status !== "PREPARING_CONTEXT") {
        throw new DomainError("UPLOAD_CLOSED", "This upload is no longer open.");
      }
      return [
        {
          type: "DocumentFileReceived",
          data: {
            blobKey: command.blobKey,
            size: command.size,
            kind: command.kind,
            contentType: command.contentType,
            personal: command.title ? { title: command.title } : null,
            receivedAt: iso(command.now),
          },
        },
      ];
    }
    case "StartContextPreparation": {
      const doc = existing(state);
      if (doc.status !== "UPLOADING") return [];
      return [{ type: "DocumentContextPreparationStarted", data: { startedAt: iso(command.now) } }];
    }
    case "RecordTextExtracted": {
      const doc = existing(state);
      if (doc.pagesBlobKey || doc.status !== "PREPARING_CONTEXT") return [];
      return [
        {
          type: "DocumentTextExtracted",
          data: {
            pageCount: command.pageCount,
            pagesBlobKey: command.pagesBlobKey,
            warnings: command.warnings,
            extractedAt: iso(command.now),
            pagesReadByOcr: command.pagesReadByOcr ?? [],
            unreadablePages: command.unreadablePages ?? [],
            ...(command.extractor ? { extractor: command.extractor } : {}),
          },
        },
      ];
    }
    case "RecordTranscriptionProgress": {
      const doc = existing(state);
      // Only while its text is being read; a retried piece reports nothing it already reported.
      if (doc.status !== "PREPARING_CONTEXT" || doc.pagesBlobKey || command.secondsDone <= doc.transcribedSeconds) return [];
      return [
        {
          type: "DocumentTranscriptionProgressed",
          data: { secondsDone: command.secondsDone, secondsTotal: command.secondsTotal, progressedAt: iso(command.now) },
        },
      ];
    }
    case "RecordIndexed": {
      const doc = existing(state);
      if (doc.status !== "PREPARING_CONTEXT" || doc.chunkCount > 0) return [];
      return [{ type: "DocumentIndexed", data: { chunkCount: command.chunkCount, indexedAt: iso(command.now) } }];
    }
    case "Activate": {
      const doc = existing(state);
      if (doc.status === "ACTIVE") return [];
      if (doc.status !== "PREPARING_CONTEXT" || !doc.pagesBlobKey) {
        throw new DomainError("NOT_READY", "The document's context is not prepared yet.");
      }
      return [{ type: "DocumentActivated", data: { activatedAt: iso(command.now) } }];
    }
    case "Fail": {
      const doc = existing(state);
      if (doc.status === "FAILED" || doc.status === "ACTIVE") return [];
      return [{ type: "DocumentFailed", data: { reason: command.reason, failedAt: iso(command.now) } }];
    }
    case "AbandonUpload": {
      const doc = existing(state);
      if (doc.status !== "UPLOADING" || doc.blobKey) return [];
      return [{ type: "DocumentFailed", data: { reason: command.reason, failedAt: iso(command.now) } }];
    }
    case "Delete": {
      if (!state.exists || state.status === "DELETED") return [];
      return [{ type: "DocumentDeleted", data: { deletedAt: iso(command.now) } }];
    }
  }
}

export function evolve(state: DocumentState, event: DocumentEvent): DocumentState {
  if (event.type === "DocumentRegistered") {
    return {
      exists: true,
      documentId: event.data.documentId,
      ownerId: event.data.ownerId,
      source: event.data.source,
      status: "UPLOADING",
      registeredAt: event.data.registeredAt,
      activated: false,
      blobKey: null,
      pageCount: event.data.declaredPageCount,
      pagesBlobKey: null,
      chunkCount: 0,
      failureReason: null,
      transcribedSeconds: 0,
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case "DocumentFileReceived":
      return { ...state, blobKey: event.data.blobKey };
    case "DocumentContextPreparationStarted":
      return { ...state, status: "PREPARING_CONTEXT" };
    case "DocumentTextExtracted":
      return { ...state, pageCount: event.data.pageCount, pagesBlobKey: event.data.pagesBlobKey };
    case "DocumentTranscriptionProgressed":
      return { ...state, transcribedSeconds: event.data.secondsDone };
    case "DocumentIndexed":
      return { ...state, chunkCount: event.data.chunkCount };
    case "DocumentActivated":
      return { ...state, status: "ACTIVE", activated: true };
    case "DocumentFailed":
      return { ...state, status: "FAILED", failureReason: event.data.reason };
    case "DocumentDeleted":
      return { ...state, status: "DELETED" };
  }
}

export const documentDecider: Decider<DocumentCommand, DocumentEvent, DocumentState> = {
  initialState: () => ({ exists: false }),
  decide,
  evolve,
};

export const documentStreamId = (documentId: string) => `document-${documentId}`;

/** The reason an upload whose bytes never arrived fails with. */
export const UPLOAD_DID_NOT_COMPLETE = "The upload did not complete";

/** Statuses the spec names "in progress" (000 §4). */
export const IN_PROGRESS_STATUSES = ["UPLOADING", "PREPARING_CONTEXT", "INPROGRESS"] as const;
export const isInProgress = (status: string) => (IN_PROGRESS_STATUSES as readonly string[]).includes(status);
