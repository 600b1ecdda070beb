import type { ReadModelStore } from "#application/ports/read-model-store";
import {
  CONVERSATIONS,
  type ConversationReadModel,
  MESSAGE_USAGE,
  MESSAGES,
  type MessageReadModel,
  type MessageUsageReadModel,
} from "./conversations.projector";

/** The conversation context's read side: what other modules may read of the conversations projection. */
export type { ConversationReadModel, MessageReadModel } from "./conversations.projector";

/** The owner's conversations in one workspace, most recently updated first. */
export function conversationsOfWorkspace(store: ReadModelStore, ownerId: string, workspaceId: string): Promise<ConversationReadModel[]> {
  return store
    .collection<ConversationReadModel>(CONVERSATIONS)
    .find({ ownerId, workspaceId }, { sort: [{ field: "updatedAt", direction: "desc" }] });
}

/** The owner's conversation, or null when it is missing or another user's (the caller answers both alike). */
export async function ownedConversation(store: ReadModelStore, ownerId: string, conversationId: string): Promise<ConversationReadModel | null> {
  const conversation = await store.collection<ConversationReadModel>(CONVERSATIONS).get(conversationId);
  return conversation && conversation.ownerId === ownerId ? conversation : null;
}

/** A conversation's messages in the order they were written. */
export function messagesOf(store: ReadModelStore, ownerId: string, conversationId: string): Promise<MessageReadModel[]> {
  return store
    .collection<MessageReadModel>(MESSAGES)
    .find({ ownerId, conversationId }, { sort: [{ field: "createdAt", direction: "asc" }, { field: "id", direction: "asc" }] });
}

/** Questions the owner asked, in one usage month ("year:month") or ever; deleted conversations still count. */
export function questionsAsked(store: ReadModelStore, ownerId: string, month?: string): Promise<number> {
  return store.collection<MessageUsageReadModel>(MESSAGE_USAGE).count(month === undefined ? { ownerId } : { ownerId, month });
}

/** Answers still streaming, in every conversation: where answers abandoned by a process that is gone are looked for. */
export function streamingAnswers(store: ReadModelStore): Promise<MessageReadModel[]> {
  return store.collection<MessageReadModel>(MESSAGES).find({ status: "streaming" });
}
