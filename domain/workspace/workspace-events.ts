import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime, personal } from "#domain/shared/event-schemas";
import { WORKSPACE_TYPES, type WorkspaceCommand, type WorkspaceEvent, type WorkspaceState, workspaceDecider, workspaceStreamId } from "./workspace";

const modelChoice = z.object({ keysetId: z.string(), model: z.string() });
// Workspaces created before embedding models existed have none.
const chatPreference = z.object({ text: modelChoice, image: modelChoice, embedding: modelChoice.nullable().default(null) });
const nameAndDescription = personal({ name: z.string(), description: z.string() });

export const workspaceAggregate: AggregateDefinition<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = {
  decider: workspaceDecider,
  streamId: workspaceStreamId,
  events: {
    WorkspaceCreated: {
      version: 1,
      data: eventData({
        workspaceId: z.string(),
        ownerId: z.string(),
        type: z.enum(WORKSPACE_TYPES),
        requestedDocumentIds: z.array(z.string()),
        chatPreference,
        personal: nameAndDescription,
        createdAt: isoTime,
      }),
    },
    DocumentsAttached: {
      version: 1,
      data: eventData({
        results: z.array(z.object({ documentId: z.string(), status: z.enum(["ATTACH_SUCCESS", "ATTACH_FAILED"]), reason: z.string().nullable() })),
        attachedAt: isoTime,
      }),
    },
    FirstConversationCreated: { version: 1, data: eventData({ conversationId: z.string() }) },
    ResumeCreated: { version: 1, data: eventData({ resumeId: z.string() }) },
    WorkspaceLaunched: { version: 1, data: eventData({ launchedAt: isoTime }) },
    WorkspaceLaunchFailed: { version: 1, data: eventData({ reason: z.string(), failedAt: isoTime }) },
    WorkspaceRenamed: { version: 1, data: eventData({ personal: nameAndDescription, renamedAt: isoTime }) },
    ChatPreferenceChanged: { version: 1, data: eventData({ chatPreference, changedAt: isoTime }) },
    WorkspaceSessionSaved: {
      version: 1,
      data: eventData({
        session: z.object({ activeFileIds: z.array(z.string()), openFileId: z.string().nullable(), activeConversationId: z.string().nullable() }),
        savedAt: isoTime,
      }),
    },
    WorkspaceDeleted: { version: 1, data: eventData({ deletedAt: isoTime }) },
    EmbeddingIndexRequested: { version: 1, data: eventData({ revision: z.number(), keysetId: z.string(), model: z.string(), requestedAt: isoTime }) },
    EmbeddingIndexProgressed: {
      version: 1,
      data: eventData({
        revision: z.number(),
        documentId: z.string(),
        done: z.number(),
        total: z.number(),
        failure: z.string().nullable().default(null),
        progressedAt: isoTime,
      }),
    },
    EmbeddingIndexCompleted: { version: 1, data: eventData({ revision: z.number(), completedAt: isoTime }) },
  },
};
