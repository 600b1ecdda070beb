import { describe, expect, it } from "vitest";
import { projectEvents } from "../../tests/support/projector-feed";
import { conversationsProjector } from "./conversations.projector";
import { conversationsOfWorkspace, messagesOf, ownedConversation, questionsAsked } from "./conversations.queries";

const started = (conversationId: string, ownerId: string, workspaceId: string, title: string, startedAt: string) => ({
  streamId: `conversation-${conversationId}`,
  type: "ConversationStarted",
  data: { conversationId, ownerId, workspaceId, personal: { title }, startedAt },
});
const asked = (conversationId: string, messageId: string, text: string, askedAt: string) => ({
  streamId: `conversation-${conversationId}`,
  type: "QuestionAsked",
  data: { messageId, personal: { text, selectedText: null }, mediaIds: [], language: "English", askedAt },
  recordedAt: askedAt,
});

describe("the conversation queries", () => {
  it("list a workspace's conversations most recently updated first, only the owner's", async () => {
    const store = await projectEvents(
      [conversationsProjector],
      [
        started("c1", "alice", "w1", "First", "2026-01-01T10:00:00.000Z"),
        started("c2", "alice", "w1", "Second", "2026-01-02T10:00:00.000Z"),
        started("c3", "alice", "w2", "Elsewhere", "2026-01-03T10:00:00.000Z"),
        started("c4", "bob", "w1", "Not hers", "2026-01-04T10:00:00.000Z"),
        asked("c1", "m1", "What is due?", "2026-01-05T10:00:00.000Z"),
      ],
    );
    expect((await conversationsOfWorkspace(store, "alice", "w1")).map((c) => c.title)).toEqual(["First", "Second"]);
    expect(await ownedConversation(store, "alice", "c4")).toBeNull();
    expect((await ownedConversation(store, "alice", "c1"))?.messageCount).toBe(1);
  });

  it("read a conversation's messages in order and count the questions asked per month, deleted conversations included", async () => {
    const store = await projectEvents(
      [conversationsProjector],
      [
        started("c1", "alice", "w1", "Chat", "2026-01-01T10:00:00.000Z"),
        asked("c1", "m1", "First question", "2026-01-01T10:01:00.000Z"),
        { streamId: "conversation-c1", type: "AnswerStarted", data: { messageId: "m2", questionId: "m1", model: "docuchat", startedAt: "2026-01-01T10:01:01.000Z" } },
        asked("c1", "m3", "Second question", "2026-02-01T10:00:00.000Z"),
        started("c2", "alice", "w1", "Gone", "2026-02-02T10:00:00.000Z"),
        asked("c2", "m4", "Asked, then deleted", "2026-02-02T10:01:00.000Z"),
        { streamId: "conversation-c2", type: "ConversationDeleted", data: { deletedAt: "2026-02-03T10:00:00.000Z" } },
      ],
    );
    expect((await messagesOf(store, "alice", "c1")).map((m) => [m.id, m.sender])).toEqual([
      ["m1", "USER"],
      ["m2", "BOT"],
      ["m3", "USER"],
    ]);
    expect(await messagesOf(store, "bob", "c1")).toEqual([]);
    expect(await questionsAsked(store, "alice")).toBe(3);
    expect(await questionsAsked(store, "alice", "2026:2")).toBe(2);
  });
});
