import { describe, expect, it } from "vitest";
import type { ChatMessage } from "./chat-api";
import { type ConversationAction, conversationReducer, localQuestion, openConversation, pendingAnswer, toTurns } from "./conversation-reducer";

const at = "2026-05-01T12:00:00.000Z";
const run = (actions: ConversationAction[], start = openConversation(null)) => actions.reduce(conversationReducer, start);
const saved = (id: string, sender: "USER" | "BOT", questionId: string | null = null): ChatMessage => ({
  ...(sender === "USER" ? localQuestion(id, `question ${id}`, null, [], at) : pendingAnswer(id, questionId ?? "", at)),
  questionId,
  status: "complete",
});

describe("the chat panel's conversation", () => {
  it("opens a saved chat loading, and a new chat ready to ask", () => {
    expect(openConversation("c1")).toMatchObject({ activeId: "c1", loading: true, messages: [] });
    expect(openConversation(null)).toMatchObject({ activeId: null, loading: false });
  });

  it("forgets the previous chat's messages, error and suggestions when another one opens", () => {
    const before = run([
      { type: "loaded", messages: [saved("q1", "USER")], title: "Rivers" },
      { type: "suggested", questions: ["a", "b", "c", "d", "e", "f"] },
      { type: "failed", error: { code: "X", message: "x" } },
    ], openConversation("c1"));
    expect(before.suggested).toHaveLength(6);
    expect(conversationReducer(before, { type: "opened", conversationId: "c2" })).toEqual(openConversation("c2"));
  });

  it("shows a question and its answer as it streams, then takes the server's ids when it completes", () => {
    const view = run([
      { type: "sending" },
      { type: "created", conversationId: "c9" },
      { type: "appended", messages: [localQuestion("local-u", "Why?", null, [], at), pendingAnswer("local-b", "local-u", at)] },
      { type: "streamed", answerId: "local-b", text: "Because" },
    ]);
    expect(view).toMatchObject({ activeId: "c9", creating: true });
    expect(view.messages.map((m) => [m.id, m.text, m.status])).toEqual([
      ["local-u", "Why?", "complete"],
      ["local-b", "Because", "streaming"],
    ]);
    const done = run(
      [
        { type: "answered", answerId: "local-b", questionId: "local-u", text: "Because it rains.", metadata: { message_id: "m2", question_id: "m1", conversation_id: "c9", citations: [{ documentId: "d1", pageNumber: 2 }], model: "docuchat" } },
        { type: "sendSettled" },
      ],
      view,
    );
    expect(done.creating).toBe(false);
    expect(done.messages.map((m) => [m.id, m.questionId, m.status])).toEqual([
      ["m1", null, "complete"],
      ["m2", "m1", "complete"],
    ]);
    expect(done.messages[1].citations).toEqual([{ documentId: "d1", pageNumber: 2 }]);
  });

  it("keeps what arrived of an interrupted answer, with the reason when the server gave one", () => {
    const start = run([{ type: "appended", messages: [pendingAnswer("b", "q", at)] }, { type: "streamed", answerId: "b", text: "Half" }]);
    expect(run([{ type: "interrupted", answerId: "b" }], start).messages[0]).toMatchObject({ text: "Half", status: "interrupted" });
    const failed = run([{ type: "interrupted", answerId: "b", text: "Half an", error: { code: "RATE_LIMITED", message: "Slow down." } }], start);
    expect(failed.messages[0]).toMatchObject({ text: "Half an", status: "interrupted" });
    expect(failed.error).toEqual({ code: "RATE_LIMITED", message: "Slow down." });
  });

  it("takes back a question the server refused before answering, and says why", () => {
    const view = run([
      { type: "loaded", messages: [saved("q0", "USER")], title: "" },
      { type: "sending" },
      { type: "appended", messages: [localQuestion("u", "Again?", null, [], at), pendingAnswer("b", "u", at)] },
      { type: "refused", messageIds: ["b", "u"], error: { code: "MESSAGE_CREATION_FAILURE", message: "You have used the 100 messages of your plan this month." } },
      { type: "sendSettled" },
    ]);
    expect(view.messages.map((m) => m.id)).toEqual(["q0"]);
    expect(view).toMatchObject({ creating: false, error: { code: "MESSAGE_CREATION_FAILURE" } });
    expect(conversationReducer(view, { type: "errorDismissed" }).error).toBeNull();
  });

  it("rates an answer, and puts the old rating back when saving it fails", () => {
    const view = run([{ type: "loaded", messages: [saved("q", "USER"), saved("a", "BOT", "q")], title: "" }]);
    const rated = conversationReducer(view, { type: "rated", messageId: "a", rating: "false" });
    expect(rated.messages[1].rating).toBe("false");
    expect(conversationReducer(rated, { type: "rated", messageId: "a", rating: null }).messages[1].rating).toBeNull();
  });
});

describe("turns", () => {
  it("group each question with its answers' versions; an answer without its question stands alone", () => {
    const turns = toTurns([saved("q1", "USER"), saved("a1", "BOT", "q1"), saved("a2", "BOT", "q1"), saved("lost", "BOT", "gone"), saved("q2", "USER")]);
    expect(turns.map((t) => [t.key, t.question?.id ?? null, t.answers.map((a) => a.id)])).toEqual([
      ["q1", "q1", ["a1", "a2"]],
      ["lost", null, ["lost"]],
      ["q2", "q2", []],
    ]);
  });
});
