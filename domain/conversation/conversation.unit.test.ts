import { describe, expect, it } from "vitest";
import { fold } from "#domain/shared/decider";
import { type ConversationCommand, type ConversationEvent, conversationDecider, titleFrom } from "./conversation";

const now = new Date("2026-05-01T12:00:00Z");
const started = conversationDecider.decide(
  { type: "StartConversation", conversationId: "c1", workspaceId: "w1", ownerId: "u1", title: "", now },
  conversationDecider.initialState(),
);
const given = (events: ConversationEvent[]) => ({ when: (c: ConversationCommand) => conversationDecider.decide(c, fold(conversationDecider, events)) });
const ask = (questionId: string, answerId: string, text = "What is osmosis?"): ConversationCommand => ({
  type: "AskQuestion", questionId, answerId, text, selectedText: null, mediaIds: [], language: "English", model: "m", now,
});

describe("a conversation", () => {
  it("is titled by its first question", () => {
    const events = given(started).when(ask("q1", "a1"));
    expect(events.map((e) => e.type)).toEqual(["ConversationRenamed", "QuestionAsked", "AnswerStarted"]);
    expect(titleFrom("x".repeat(80))).toHaveLength(58);
  });

  it("takes no new question while an answer is still streaming", () => {
    const asked = [...started, ...given(started).when(ask("q1", "a1"))];
    expect(() => given(asked).when(ask("q2", "a2"))).toThrow("Please wait until the current answer has finished.");
  });

  it("completes an answer once; a late interruption changes nothing", () => {
    const asked = [...started, ...given(started).when(ask("q1", "a1"))];
    const done = given(asked).when({ type: "CompleteAnswer", answerId: "a1", text: "Water moves.", citations: [], usage: { inputTokens: 1, outputTokens: 2 }, firstTokenMs: 5, now });
    expect(done[0].type).toBe("AnswerCompleted");
    expect(given([...asked, ...done]).when({ type: "InterruptAnswer", answerId: "a1", partialText: "", reason: "x", now })).toEqual([]);
  });

  it("rates only finished answers", () => {
    const asked = [...started, ...given(started).when(ask("q1", "a1"))];
    expect(() => given(asked).when({ type: "RateAnswer", answerId: "a1", rating: "false", now })).toThrow("Only finished answers can be rated.");
  });

  it("regenerates an answer to a question it knows", () => {
    const asked = [...started, ...given(started).when(ask("q1", "a1"))];
    const interrupted = given(asked).when({ type: "InterruptAnswer", answerId: "a1", partialText: "Wat", reason: "closed", now });
    const again = given([...asked, ...interrupted]).when({ type: "Regenerate", questionId: "q1", answerId: "a2", model: "m", now });
    expect(again).toEqual([{ type: "AnswerStarted", data: { messageId: "a2", questionId: "q1", model: "m", startedAt: now.toISOString() } }]);
    expect(() => given([...asked, ...interrupted]).when({ type: "Regenerate", questionId: "nope", answerId: "a3", model: "m", now })).toThrow("Message not found");
  });
});
