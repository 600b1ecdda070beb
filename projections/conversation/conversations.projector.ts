import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readEvent } from "#domain/shared/event-schemas";
import { conversationAggregate } from "#domain/conversation/conversation-events";
import { usageMonthKey } from "#domain/billing/plans";
import type { Citation } from "#domain/conversation/conversation";

export interface ConversationReadModel {
  id: string;
  workspaceId: string;
  ownerId: string;
  title: string;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface MessageReadModel {
  id: string;
  conversationId: string;
  ownerId: string;
  sender: "USER" | "BOT";
  text: string;
  /** USER: the selected-text prefix; BOT: null. */
  selectedText: string | null;
  /** USER: images attached to the question (served by /api/conversations/{id}/media/{mediaId}); BOT: []. */
  mediaIds: string[];
  /** BOT: the question it answers (versions of one answer share it). */
  questionId: string | null;
  status: "streaming" | "complete" | "interrupted";
  citations: Citation[];
  model: string | null;
  rating: "false" | null;
  language: string | null;
  firstTokenMs: number | null;
  createdAt: string;
}

/** Questions asked per owner and month, for the plan's message allowance. */
export interface MessageUsageReadModel {
  id: string;
  ownerId: string;
  month: string;
}

export const CONVERSATIONS = "conversation_conversations";
export const MESSAGES = "conversation_messages";
export const MESSAGE_USAGE = "conversation_message_usage";

export const conversationsProjector: Projector = {
  name: "conversation.conversations",
  collections: [CONVERSATIONS, MESSAGES, MESSAGE_USAGE],
  async setup(store: ReadModelStore) {
    await store.collection<ConversationReadModel>(CONVERSATIONS).ensureIndex(["workspaceId", "updatedAt"]);
    await store.collection<MessageReadModel>(MESSAGES).ensureIndex(["conversationId", "createdAt"]);
    await store.collection<MessageReadModel>(MESSAGES).ensureIndex(["status"]);
    await store.collection<MessageUsageReadModel>(MESSAGE_USAGE).ensureIndex(["ownerId", "month"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    if (recorded.type === "AccountPurged" && recorded.streamId.startsWith("user-")) {
      const ownerId = recorded.streamId.slice("user-".length);
      for (const name of [CONVERSATIONS, MESSAGES, MESSAGE_USAGE]) await store.collection<{ id: string; ownerId: string }>(name).deleteMany({ ownerId });
      return;
    }
    if (!recorded.streamId.startsWith("conversation-")) return;
    const conversationId = recorded.streamId.slice("conversation-".length);
    const conversations = store.collection<ConversationReadModel>(CONVERSATIONS);
    const messages = store.collection<MessageReadModel>(MESSAGES);
    const event = readEvent(conversationAggregate.events, recorded);
    const at = recorded.recordedAt;
    const conversation = event.type === "ConversationStarted" ? null : await conversations.get(conversationId);
    if (event.type !== "ConversationStarted" && !conversation) return;
    const ownerId = conversation?.ownerId ?? "";
    switch (event.type) {
      case "ConversationStarted":
        if (!event.data.personal) return;
        await conversations.upsert({
          id: conversationId,
          workspaceId: event.data.workspaceId,
          ownerId: event.data.ownerId,
          title: event.data.personal.title,
          messageCount: 0,
          createdAt: event.data.startedAt,
          updatedAt: event.data.startedAt,
        });
        return;
      case "ConversationRenamed":
        if (event.data.personal) await conversations.patch(conversationId, { title: event.data.personal.title, updatedAt: at });
        return;
      case "QuestionAsked":
        if (!event.data.personal) return;
        await messages.upsert({
          id: event.data.messageId,
          conversationId,
          ownerId,
          sender: "USER",
          text: event.data.personal.text,
          selectedText: event.data.personal.selectedText,
          mediaIds: event.data.mediaIds,
          questionId: null,
          status: "complete",
          citations: [],
          model: null,
          rating: null,
          language: event.data.language,
          firstTokenMs: null,
          createdAt: event.data.askedAt,
        });
        await store.collection<MessageUsageReadModel>(MESSAGE_USAGE).upsert({ id: event.data.messageId, ownerId, month: usageMonthKey(new Date(event.data.askedAt)) });
        await conversations.patch(conversationId, { messageCount: await messages.count({ conversationId, sender: "USER" }), updatedAt: at });
        return;
      case "AnswerStarted":
        await messages.upsert({
          id: event.data.messageId,
          conversationId,
          ownerId,
          sender: "BOT",
          text: "",
          selectedText: null,
          mediaIds: [],
          questionId: event.data.questionId,
          status: "streaming",
          citations: [],
          model: event.data.model,
          rating: null,
          language: null,
          firstTokenMs: null,
          createdAt: event.data.startedAt,
        });
        return;
      case "AnswerCompleted":
        await messages.patch(event.data.messageId, {
          text: event.data.personal?.text ?? "",
          status: "complete",
          citations: withQuotes(event.data.citations, event.data.personal?.quotes),
          firstTokenMs: event.data.firstTokenMs,
          ...(event.data.answeredBy ? { model: event.data.answeredBy } : {}),
        });
        await conversations.patch(conversationId, { updatedAt: at });
        return;
      case "AnswerInterrupted":
        await messages.patch(event.data.messageId, { text: event.data.personal?.partialText ?? "", status: "interrupted" });
        return;
      case "AnswerRated":
        await messages.patch(event.data.messageId, { rating: event.data.rating });
        return;
      case "ConversationDeleted":
        await messages.deleteMany({ conversationId });
        await conversations.delete(conversationId);
        return;
    }
  },
};

/** Citations with the quotes sealed beside the answer's text (gone, with the text, once the owner's key is shredded). */
function withQuotes(citations: Citation[], quotes: (string | null)[] | undefined): Citation[] {
  return citations.map((citation, i) => {
    const quote = quotes?.[i];
    return quote ? { ...citation, quote } : citation;
  });
}
