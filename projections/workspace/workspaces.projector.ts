import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readEvent } from "#domain/shared/event-schemas";
import { workspaceAggregate } from "#domain/workspace/workspace-events";
import { usageMonthKey } from "#domain/billing/plans";
import type { AttachResult, ChatPreference, WorkspaceSession, WorkspaceStatus, WorkspaceType } from "#domain/workspace/workspace";

export interface WorkspaceReadModel {
  id: string;
  ownerId: string;
  name: string;
  nameLower: string;
  description: string;
  type: WorkspaceType;
  status: Exclude<WorkspaceStatus, "DELETED">;
  failureReason: string | null;
  requestedDocumentIds: string[];
  documentIds: string[];
  lastAttachResults: AttachResult[];
  chatPreference: ChatPreference;
  session: WorkspaceSession;
  firstConversationId: string | null;
  resumeId: string | null;
  createdAt: string;
  updatedAt: string;
  /** Latest use (creation, session saved on leaving): orders "Pick up where you left off". */
  lastUsedAt: string;
  /** The latest embedding run (Workspace Settings shows its progress); null until an embedding model is chosen. */
  embeddingIndex?: EmbeddingIndexView | null;
}

export interface EmbeddingIndexView {
  revision: number;
  keysetId: string;
  model: string;
  status: "indexing" | "ready";
  /** Documents handled so far, of `total`. */
  done: number;
  total: number;
  failures: { documentId: string; reason: string }[];
}

/** Workspaces created per owner and month ("year:month"); deleting one does not give the allowance back. */
export interface WorkspaceUsageReadModel {
  id: string;
  ownerId: string;
  month: string;
}

/** Which workspaces hold a document, so a document deleted from the library leaves every workspace's count at once. */
interface WorkspaceDocumentLink {
  id: string;
  documentId: string;
  workspaceId: string;
  ownerId: string;
}

export const WORKSPACES = "workspace_workspaces";
export const WORKSPACE_USAGE = "workspace_usage";
const WORKSPACE_DOCUMENTS = "workspace_documents";

export const workspacesProjector: Projector = {
  name: "workspace.workspaces",
  collections: [WORKSPACES, WORKSPACE_USAGE, WORKSPACE_DOCUMENTS],
  async setup(store: ReadModelStore) {
    await store.collection<WorkspaceReadModel>(WORKSPACES).ensureIndex(["ownerId", "lastUsedAt"]);
    await store.collection<WorkspaceUsageReadModel>(WORKSPACE_USAGE).ensureIndex(["ownerId", "month"]);
    await store.collection<WorkspaceDocumentLink>(WORKSPACE_DOCUMENTS).ensureIndex(["documentId"]);
    await store.collection<WorkspaceDocumentLink>(WORKSPACE_DOCUMENTS).ensureIndex(["ownerId"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    if (recorded.type === "AccountPurged" && recorded.streamId.startsWith("user-")) {
      const ownerId = recorded.streamId.slice("user-".length);
      await store.collection<WorkspaceReadModel>(WORKSPACES).deleteMany({ ownerId });
      await store.collection<WorkspaceUsageReadModel>(WORKSPACE_USAGE).deleteMany({ ownerId });
      await store.collection<WorkspaceDocumentLink>(WORKSPACE_DOCUMENTS).deleteMany({ ownerId });
      return;
    }
    const workspaces = store.collection<WorkspaceReadModel>(WORKSPACES);
    const links = store.collection<WorkspaceDocumentLink>(WORKSPACE_DOCUMENTS);
    if (recorded.type === "DocumentDeleted" && recorded.streamId.startsWith("document-")) {
      const documentId = recorded.streamId.slice("document-".length);
      for (const link of await links.find({ documentId })) {
        const ws = await workspaces.get(link.workspaceId);
        if (ws) await workspaces.patch(ws.id, { documentIds: ws.documentIds.filter((d) => d !== documentId) });
        await links.delete(link.id);
      }
      return;
    }
    if (!recorded.streamId.startsWith("workspace-")) return;
    const id = recorded.streamId.slice("workspace-".length);
    const event = readEvent(workspaceAggregate.events, recorded);
    const at = recorded.recordedAt;
    switch (event.type) {
      case "WorkspaceCreated": {
        const { data } = event;
        await store.collection<WorkspaceUsageReadModel>(WORKSPACE_USAGE).upsert({ id, ownerId: data.ownerId, month: usageMonthKey(new Date(data.createdAt)) });
        if (!data.personal) return;
        const first = data.requestedDocumentIds[0] ?? null;
        await workspaces.upsert({
          id,
          ownerId: data.ownerId,
          name: data.personal.name,
          nameLower: data.personal.name.toLowerCase(),
          description: data.personal.description,
          type: data.type,
          status: "CREATING",
          failureReason: null,
          requestedDocumentIds: data.requestedDocumentIds,
          documentIds: [],
          lastAttachResults: [],
          chatPreference: data.chatPreference,
          session: { activeFileIds: first ? [first] : [], openFileId: first, activeConversationId: null },
          firstConversationId: null,
          resumeId: null,
          createdAt: data.createdAt,
          updatedAt: data.createdAt,
          lastUsedAt: data.createdAt,
        });
        return;
      }
      case "DocumentsAttached": {
        const ws = await workspaces.get(id);
        if (!ws) return;
        const ok = event.data.results.filter((r) => r.status === "ATTACH_SUCCESS").map((r) => r.documentId);
        await workspaces.patch(id, { documentIds: [...new Set([...ws.documentIds, ...ok])], lastAttachResults: event.data.results, updatedAt: at });
        for (const documentId of ok) await links.upsert({ id: `${documentId}:${id}`, documentId, workspaceId: id, ownerId: ws.ownerId });
        return;
      }
      case "FirstConversationCreated": {
        const ws = await workspaces.get(id);
        if (!ws) return;
        await workspaces.patch(id, {
          firstConversationId: event.data.conversationId,
          session: { ...ws.session, activeConversationId: ws.session.activeConversationId ?? event.data.conversationId },
        });
        return;
      }
      case "ResumeCreated":
        await workspaces.patch(id, { resumeId: event.data.resumeId });
        return;
      case "WorkspaceLaunched":
        await workspaces.patch(id, { status: "ACTIVE", updatedAt: at });
        return;
      case "WorkspaceLaunchFailed":
        await workspaces.patch(id, { status: "FAILED", failureReason: event.data.reason, updatedAt: at });
        return;
      case "WorkspaceRenamed":
        if (!event.data.personal) return;
        await workspaces.patch(id, {
          name: event.data.personal.name,
          nameLower: event.data.personal.name.toLowerCase(),
          description: event.data.personal.description,
          updatedAt: at,
        });
        return;
      case "ChatPreferenceChanged":
        await workspaces.patch(id, { chatPreference: event.data.chatPreference, updatedAt: at });
        return;
      case "EmbeddingIndexRequested": {
        const { revision, keysetId, model } = event.data;
        // The run indexes the workspace's documents as they are now (they joined before this event): its total from the start.
        const total = (await workspaces.get(id))?.documentIds.length ?? 0;
        await workspaces.patch(id, { embeddingIndex: { revision, keysetId, model, status: "indexing", done: 0, total, failures: [] } });
        return;
      }
      case "EmbeddingIndexProgressed": {
        const index = (await workspaces.get(id))?.embeddingIndex;
        if (!index || index.revision !== event.data.revision) return;
        const { documentId, done, total, failure } = event.data;
        const failures = failure ? [...index.failures.filter((f) => f.documentId !== documentId), { documentId, reason: failure }] : index.failures;
        await workspaces.patch(id, { embeddingIndex: { ...index, done, total, failures } });
        return;
      }
      case "EmbeddingIndexCompleted": {
        const index = (await workspaces.get(id))?.embeddingIndex;
        if (index && index.revision === event.data.revision) await workspaces.patch(id, { embeddingIndex: { ...index, status: "ready" } });
        return;
      }
      case "WorkspaceSessionSaved":
        await workspaces.patch(id, { session: event.data.session, lastUsedAt: event.data.savedAt });
        return;
      case "WorkspaceDeleted": {
        const ws = await workspaces.get(id);
        for (const documentId of ws?.documentIds ?? []) await links.delete(`${documentId}:${id}`);
        await workspaces.delete(id);
        return;
      }
    }
  },
};
