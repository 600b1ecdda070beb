import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * A workspace (stream `workspace-<id>`): documents meet the chat. Created,
 * then launched by a durable workflow (attach documents -> first conversation
 * -> resume for Resume Builder -> ACTIVE), or FAILED with a reason.
 * Its name and description are the owner's personal data.
 */

export const WORKSPACE_TYPES = ["Conversation", "Resume Builder"] as const;
export type WorkspaceType = (typeof WORKSPACE_TYPES)[number];
export type WorkspaceStatus = "CREATING" | "ACTIVE" | "FAILED" | "DELETED";

export const MAX_DOCUMENTS_PER_WORKSPACE = 10;

export interface ModelChoice {
  keysetId: string;
  model: string;
}

export interface ChatPreference {
  text: ModelChoice;
  image: ModelChoice;
  /** null = keyword search only. */
  embedding: ModelChoice | null;
}

/** What the user had open when they left (spec 000 §3 Workspace metadata). */
export interface WorkspaceSession {
  activeFileIds: string[];
  openFileId: string | null;
  activeConversationId: string | null;
}

export interface AttachResult {
  documentId: string;
  status: "ATTACH_SUCCESS" | "ATTACH_FAILED";
  reason: string | null;
}

export type WorkspaceEvent =
  | DomainEvent<
      "WorkspaceCreated",
      {
        workspaceId: string;
        ownerId: string;
        type: WorkspaceType;
        requestedDocumentIds: string[];
        chatPreference: ChatPreference;
        personal: { name: string; description: string } | null;
        createdAt: string;
      }
    >
  | DomainEvent<"DocumentsAttached", { results: AttachResult[]; attachedAt: string }>
  | DomainEvent<"FirstConversationCreated", { conversationId: string }>
  | DomainEvent<"ResumeCreated", { resumeId: string }>
  | DomainEvent<"WorkspaceLaunched", { launchedAt: string }>
  | DomainEvent<"WorkspaceLaunchFailed", { reason: string; failedAt: string }>
  | DomainEvent<"WorkspaceRenamed", { personal: { name: string; description: string } | null; renamedAt: string }>
  | DomainEvent<"ChatPreferenceChanged", { chatPreference: ChatPreference; changedAt: string }>
  | DomainEvent<"WorkspaceSessionSaved", { session: WorkspaceSession; savedAt: string }>
  | DomainEvent<"WorkspaceDeleted", { deletedAt: string }>
  /**
   * The workspace's documents are to be (re-)embedded with its embedding model:
   * on choosing a model and whenever documents join. A later revision supersedes
   * an earlier one still running.
   */
  | DomainEvent<"EmbeddingIndexRequested", { revision: number; keysetId: string; model: string; requestedAt: string }>
  | DomainEvent<
      "EmbeddingIndexProgressed",
      { revision: number; documentId: string; done: number; total: number; failure: string | null; progressedAt: string }
    >
  | DomainEvent<"EmbeddingIndexCompleted", { revision: number; completedAt: string }>;

export type WorkspaceCommand =
  | {
      type: "CreateWorkspace";
      workspaceId: string;
      ownerId: string;
      name: string;
      description: string;
      workspaceType: WorkspaceType;
      documentIds: string[];
      chatPreference: ChatPreference;
      now: Date;
    }
  | { type: "AttachDocuments"; results: AttachResult[]; now: Date; duringLaunch: boolean }
  | { type: "RecordFirstConversation"; conversationId: string }
  | { type: "RecordResume"; resumeId: string }
  | { type: "CompleteLaunch"; now: Date }
  | { type: "FailLaunch"; reason: string; now: Date }
  | { type: "Rename"; name: string; description: string; now: Date }
  | { type: "ChangeChatPreference"; chatPreference: ChatPreference; now: Date }
  | { type: "SaveSession"; session: WorkspaceSession; now: Date }
  | { type: "RecordEmbeddingProgress"; revision: number; documentId: string; done: number; total: number; failure: string | null; now: Date }
  | { type: "CompleteEmbeddingIndex"; revision: number; now: Date }
  | { type: "Delete"; now: Date };

export type WorkspaceState =
  | { exists: false }
  | {
      exists: true;
      workspaceId: string;
      ownerId: string;
      type: WorkspaceType;
      status: WorkspaceStatus;
      requestedDocumentIds: string[];
      documentIds: string[];
      firstConversationId: string | null;
      resumeId: string | null;
      session: WorkspaceSession;
      embedding: ModelChoice | null;
      /** Latest embedding index run requested (0: none yet). */
      embeddingRevision: number;
      embeddingCompleted: boolean;
    };

const iso = (d: Date) => d.toISOString();

function live(state: WorkspaceState) {
  if (!state.exists || state.status === "DELETED") throw new DomainError("WORKSPACE_NOT_EXIST", "Workspace does not exist");
  return state;
}

export function decide(command: WorkspaceCommand, state: WorkspaceState): WorkspaceEvent[] {
  switch (command.type) {
    case "CreateWorkspace": {
      if (state.exists) return [];
      const name = command.name.trim();
      if (!name) throw new DomainError("VALIDATION", "This field is required", "name");
      const documentIds = [...new Set(command.documentIds)];
      if (documentIds.length === 0) throw new DomainError("NO_DOCUMENTS", "Choose at least one file for the workspace.");
      if (documentIds.length > MAX_DOCUMENTS_PER_WORKSPACE) {
        throw new DomainError("TOO_MANY_DOCUMENTS", "Can not upload more than 10 files");
      }
      return [
        {
          type: "WorkspaceCreated",
          data: {
            workspaceId: command.workspaceId,
            ownerId: command.ownerId,
            type: command.workspaceType,
            requestedDocumentIds: documentIds,
            chatPreference: command.chatPreference,
            personal: { name, description: command.description.trim() },
            createdAt: iso(command.now),
          },
        },
      ];
    }
    case "AttachDocuments": {
      const ws = live(state);
      if (!command.duringLaunch && ws.type === "Resume Builder") {
        throw new DomainError("RESUME_NO_FILES", "Files cannot be added to a Resume Builder workspace.");
      }
      const fresh = command.results.filter((r) => r.status === "ATTACH_FAILED" || !ws.documentIds.includes(r.documentId));
      if (fresh.length === 0) return [];
      const attached = new Set([...ws.documentIds, ...fresh.filter((r) => r.status === "ATTACH_SUCCESS").map((r) => r.documentId)]);
      if (attached.size > MAX_DOCUMENTS_PER_WORKSPACE) throw new DomainError("TOO_MANY_DOCUMENTS", "Can not upload more than 10 files");
      const events: WorkspaceEvent[] = [{ type: "DocumentsAttached", data: { results: fresh, attachedAt: iso(command.now) } }];
      if (ws.embedding && fresh.some((r) => r.status === "ATTACH_SUCCESS")) events.push(embeddingRequest(ws, ws.embedding, command.now));
      return events;
    }
    case "RecordFirstConversation": {
      const ws = live(state);
      return ws.firstConversationId ? [] : [{ type: "FirstConversationCreated", data: { conversationId: command.conversationId } }];
    }
    case "RecordResume": {
      const ws = live(state);
      return ws.resumeId ? [] : [{ type: "ResumeCreated", data: { resumeId: command.resumeId } }];
    }
    case "CompleteLaunch": {
      const ws = live(state);
      if (ws.status === "ACTIVE") return [];
      if (ws.documentIds.length === 0) throw new DomainError("NO_DOCUMENTS", "None of the chosen documents could be attached.");
      return [{ type: "WorkspaceLaunched", data: { launchedAt: iso(command.now) } }];
    }
    case "FailLaunch": {
      const ws = live(state);
      if (ws.status !== "CREATING") return [];
      return [{ type: "WorkspaceLaunchFailed", data: { reason: command.reason, failedAt: iso(command.now) } }];
    }
    case "Rename": {
      live(state);
      const name = command.name.trim();
      if (!name) throw new DomainError("VALIDATION", "Workspace name is required", "name");
      return [{ type: "WorkspaceRenamed", data: { personal: { name, description: command.description.trim() }, renamedAt: iso(command.now) } }];
    }
    case "ChangeChatPreference": {
      const ws = live(state);
      const events: WorkspaceEvent[] = [{ type: "ChatPreferenceChanged", data: { chatPreference: command.chatPreference, changedAt: iso(command.now) } }];
      const next = command.chatPreference.embedding;
      if (next && !sameChoice(next, ws.embedding) && ws.documentIds.length > 0) events.push(embeddingRequest(ws, next, command.now));
      return events;
    }
    case "RecordEmbeddingProgress": {
      const ws = live(state);
      // A superseded run's late report changes nothing.
      if (command.revision !== ws.embeddingRevision || ws.embeddingCompleted) return [];
      const { revision, documentId, done, total, failure } = command;
      return [{ type: "EmbeddingIndexProgressed", data: { revision, documentId, done, total, failure, progressedAt: iso(command.now) } }];
    }
    case "CompleteEmbeddingIndex": {
      const ws = live(state);
      if (command.revision !== ws.embeddingRevision || ws.embeddingCompleted) return [];
      return [{ type: "EmbeddingIndexCompleted", data: { revision: command.revision, completedAt: iso(command.now) } }];
    }
    case "SaveSession": {
      const ws = live(state);
      // Only files of this workspace can be reopened.
      const activeFileIds = command.session.activeFileIds.filter((id) => ws.documentIds.includes(id));
      const openFileId = command.session.openFileId && activeFileIds.includes(command.session.openFileId) ? command.session.openFileId : null;
      return [
        {
          type: "WorkspaceSessionSaved",
          data: { session: { activeFileIds, openFileId, activeConversationId: command.session.activeConversationId }, savedAt: iso(command.now) },
        },
      ];
    }
    case "Delete":
      if (!state.exists || state.status === "DELETED") return [];
      return [{ type: "WorkspaceDeleted", data: { deletedAt: iso(command.now) } }];
  }
}

export function evolve(state: WorkspaceState, event: WorkspaceEvent): WorkspaceState {
  if (event.type === "WorkspaceCreated") {
    const first = event.data.requestedDocumentIds[0] ?? null;
    return {
      exists: true,
      workspaceId: event.data.workspaceId,
      ownerId: event.data.ownerId,
      type: event.data.type,
      status: "CREATING",
      requestedDocumentIds: event.data.requestedDocumentIds,
      documentIds: [],
      firstConversationId: null,
      resumeId: null,
      embedding: event.data.chatPreference.embedding,
      embeddingRevision: 0,
      embeddingCompleted: false,
      // On creation the first file is the open one (spec 000 §4 Workspace launch).
      session: { activeFileIds: first ? [first] : [], openFileId: first, activeConversationId: null },
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case "DocumentsAttached": {
      const ok = event.data.results.filter((r) => r.status === "ATTACH_SUCCESS").map((r) => r.documentId);
      return { ...state, documentIds: [...new Set([...state.documentIds, ...ok])] };
    }
    case "FirstConversationCreated":
      return { ...state, firstConversationId: event.data.conversationId, session: { ...state.session, activeConversationId: event.data.conversationId } };
    case "ResumeCreated":
      return { ...state, resumeId: event.data.resumeId };
    case "WorkspaceLaunched":
      return { ...state, status: "ACTIVE" };
    case "WorkspaceLaunchFailed":
      return { ...state, status: "FAILED" };
    case "WorkspaceSessionSaved":
      return { ...state, session: event.data.session };
    case "ChatPreferenceChanged":
      return { ...state, embedding: event.data.chatPreference.embedding };
    case "EmbeddingIndexRequested":
      return { ...state, embeddingRevision: event.data.revision, embeddingCompleted: false };
    case "EmbeddingIndexCompleted":
      return { ...state, embeddingCompleted: true };
    case "WorkspaceDeleted":
      return { ...state, status: "DELETED" };
    default:
      return state;
  }
}

const sameChoice = (a: ModelChoice | null, b: ModelChoice | null) => a?.keysetId === b?.keysetId && a?.model === b?.model;

function embeddingRequest(ws: { embeddingRevision: number }, choice: ModelChoice, now: Date): WorkspaceEvent {
  return { type: "EmbeddingIndexRequested", data: { revision: ws.embeddingRevision + 1, keysetId: choice.keysetId, model: choice.model, requestedAt: iso(now) } };
}

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = {
  initialState: () => ({ exists: false }),
  decide,
  evolve,
};

export const workspaceStreamId = (workspaceId: string) => `workspace-${workspaceId}`;

/** Vectors of one embedding model live in their own space of the search index: vectors of different models never meet. */
export const embeddingSpace = (choice: ModelChoice) => `${choice.keysetId}/${choice.model}`;

export const BUILT_IN_KEYSET = "docuchat";
export const BUILT_IN_TEXT_MODEL = "docuchat-extractive";
/** The built-in keyset's embedding model (Universal Sentence Encoder lite, offline; docs/decisions/070). */
export const BUILT_IN_EMBEDDING_MODEL = "docuchat-sentence-encoder";
export const BUILT_IN_EMBEDDING: ModelChoice = { keysetId: BUILT_IN_KEYSET, model: BUILT_IN_EMBEDDING_MODEL };

/**
 * The product's own keyset and model for text and image, keyword search only.
 * New workspaces start with the built-in embedding model where the server runs
 * it (KeysetModels.chatPreferenceFor); this is the floor when it does not.
 */
export const DEFAULT_CHAT_PREFERENCE: ChatPreference = {
  text: { keysetId: BUILT_IN_KEYSET, model: BUILT_IN_TEXT_MODEL },
  image: { keysetId: BUILT_IN_KEYSET, model: BUILT_IN_TEXT_MODEL },
  embedding: null,
};
