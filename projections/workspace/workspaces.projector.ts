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
  /** Latest use (creation, session saved on leaving): orders "Pick up where you left...". */
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

export const WORKSPACES = "workspace_workspaces";
export const WORKSPACE_USAGE = "workspace_usage";

export const workspacesProjector: Projector = {
  name: "workspace.workspaces",
  collections: [WORKSPACES, WORKSPACE_USAGE],
  async setup(store: ReadModelStore) {
    await store.collection<WorkspaceReadModel>(WORKSPACES).ensureIndex(["ownerId", "lastUsedAt"]);
    await store.collection<WorkspaceUsageReadModel>(WORKSPACE_USAGE).ensureIndex(["ownerId", "month"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    if (recorded.type === "AccountPurged" && recorded.streamId.startsWith("user-")) {
      const ownerId = recorded.streamId.slice("user-".length);
      await store.collection<WorkspaceReadModel>(WORKSPACES).deleteMany({ ownerId });
      await store.collection<WorkspaceUsageReadModel>(WORKSPACE_USAGE).deleteMany({ ownerId });
      return;
    }
    if (!recorded.streamId.startsWith("workspace-")) return;
    const workspaces = store.collection<WorkspaceReadModel>(WORKSPACES);
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
        await workspaces.patch(id, { embeddingIndex: { revision, keysetId, model, status: "indexing", done: 0, total: 0, failures: [] } });
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
      case "WorkspaceDeleted":
        await workspaces.delete(id);
        return;
    }
  },
};
