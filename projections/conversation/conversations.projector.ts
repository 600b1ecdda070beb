import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { ConversationEvent } from "#domain/conversation/conversation";

export interface ConversationReadModel {
  id: string;
  workspaceId: string;
  ownerId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

export const CONVERSATIONS = "conversation_conversations";

export const conversationsProjector: Projector = {
  name: "conversation.conversations",
  collections: [CONVERSATIONS],
  async setup(store: ReadModelStore) {
    await store.collection<ConversationReadModel>(CONVERSATIONS).ensureIndex(["workspaceId", "updatedAt"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    if (!recorded.streamId.startsWith("conversation-")) return;
    const event = recorded as unknown as ConversationEvent;
    if (event.type === "ConversationStarted") {
      await store.collection<ConversationReadModel>(CONVERSATIONS).upsert({
        id: event.data.conversationId,
        workspaceId: event.data.workspaceId,
        ownerId: event.data.ownerId,
        title: event.data.personal?.title ?? "",
        createdAt: event.data.startedAt,
        updatedAt: event.data.startedAt,
      });
    }
  },
};
