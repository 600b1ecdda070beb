import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { chatImageProblem, chatImageType, MAX_IMAGE_BYTES } from "./chat-image";
import { ABANDONED_ANSWER_REASON, type ConversationCommand, type ConversationEvent, conversationDecider, titleFrom } from "./conversation";

const now = new Date("2026-05-01T12:00:00Z");
const started = conversationDecider.decide(
  { type: "StartConversation", conversationId: "c1", workspaceId: "w1", ownerId: "u1", title: "", now },
  conversationDecider.initialState(),
);
const given = (events: ConversationEvent[]) => DeciderSpecification.for(conversationDecider).given(events);
const ask = (questionId: string, answerId: string, text = "What is osmosis?"): ConversationCommand => ({
  type: "AskQuestion", questionId, answerId, text, selectedText: null, mediaIds: [], language: "English", model: "m", processId: "web-1", now,
});

describe("a conversation", () => {
  it("is titled by its first question", () => {
    const events = given(started).when(ask("q1", "a1")).events();
    expect(events.map((e) => e.type)).toEqual(["ConversationRenamed", "QuestionAsked", "AnswerStarted"]);
    expect(titleFrom("x".repeat(80))).toHaveLength(58);
  });

  it("is titled by the first line of a question that carries more below it (Retry's error and source)", () => {
    const retry = "Fix the latex error in previous response\n\nHints: special characters in text must be escaped.\n\nError at line 4: Undefined control sequence.";
    expect(titleFrom(retry)).toBe("Fix the latex error in previous response");
    expect(titleFrom("\n  What is   osmosis?\nMore.")).toBe("What is osmosis?");
  });

  it("takes no new question while an answer is still streaming", () => {
    const asked = [...started, ...given(started).when(ask("q1", "a1")).events()];
    given(asked).when(ask("q2", "a2")).thenThrows("MESSAGE_CREATION_FAILURE", "Please wait until the current answer has finished.");
  });

  it("ends an answer whose process is gone as interrupted, and then takes the next question", () => {
    const asked = [...started, ...given(started).when(ask("q1", "a1")).events()];
    given(asked).when({ type: "EndAbandonedAnswers", liveProcesses: ["web-1"], now }).then([]);
    const ended = given(asked).when({ type: "EndAbandonedAnswers", liveProcesses: ["web-2"], now }).events();
    expect(ended).toEqual([
      { type: "AnswerInterrupted", data: { messageId: "a1", personal: { partialText: "" }, reason: ABANDONED_ANSWER_REASON, interruptedAt: now.toISOString() } },
    ]);
    expect(given([...asked, ...ended]).when(ask("q2", "a2")).events().map((e) => e.type)).toEqual(["QuestionAsked", "AnswerStarted"]);
  });

  it("ends an answer started before answers named their process, whatever process lives", () => {
    const { processId: _, ...data } = (given(started).when(ask("q1", "a1")).events().at(-1) as Extract<ConversationEvent, { type: "AnswerStarted" }>).data;
    const asked = [...started, ...given(started).when(ask("q1", "a1")).events().slice(0, -1), { type: "AnswerStarted" as const, data }];
    expect(given(asked).when({ type: "EndAbandonedAnswers", liveProcesses: ["web-1"], now }).events().map((e) => e.type)).toEqual(["AnswerInterrupted"]);
  });

  it("completes an answer once; a late interruption changes nothing", () => {
    const asked = [...started, ...given(started).when(ask("q1", "a1")).events()];
    const done = given(asked).when({ type: "CompleteAnswer", answerId: "a1", text: "Water moves.", citations: [], usage: { inputTokens: 1, outputTokens: 2 }, firstTokenMs: 5, now }).events();
    expect(done[0].type).toBe("AnswerCompleted");
    given([...asked, ...done]).when({ type: "InterruptAnswer", answerId: "a1", partialText: "", reason: "x", now }).then([]);
  });

  it("keeps a citation's quote with the answer's personal text, not in the event's open citations", () => {
    const asked = [...started, ...given(started).when(ask("q1", "a1")).events()];
    const citations = [
      { documentId: "d1", pageNumber: 3, quote: "Water moves through a membrane." },
      { documentId: "d2", pageNumber: 1 },
    ];
    const [done] = given(asked).when({ type: "CompleteAnswer", answerId: "a1", text: "Water moves.", citations, usage: { inputTokens: 1, outputTokens: 2 }, firstTokenMs: 5, now }).events();
    expect(done.type === "AnswerCompleted" && done.data).toMatchObject({
      citations: [{ documentId: "d1", pageNumber: 3 }, { documentId: "d2", pageNumber: 1 }],
      personal: { text: "Water moves.", quotes: ["Water moves through a membrane.", null] },
    });
    expect(JSON.stringify(done.type === "AnswerCompleted" && done.data.citations)).not.toContain("membrane");
  });

  it("rates only finished answers", () => {
    const asked = [...started, ...given(started).when(ask("q1", "a1")).events()];
    given(asked).when({ type: "RateAnswer", answerId: "a1", rating: "false", now }).thenThrows("MESSAGE_NOT_FINISHED", "Only finished answers can be rated.");
  });

  it("regenerates an answer to a question it knows", () => {
    const asked = [...started, ...given(started).when(ask("q1", "a1")).events()];
    const interrupted = given(asked).when({ type: "InterruptAnswer", answerId: "a1", partialText: "Wat", reason: "closed", now }).events();
    const again = given([...asked, ...interrupted]).when({ type: "Regenerate", questionId: "q1", answerId: "a2", model: "m", processId: "web-1", now }).events();
    expect(again).toEqual([{ type: "AnswerStarted", data: { messageId: "a2", questionId: "q1", model: "m", processId: "web-1", startedAt: now.toISOString() } }]);
    given([...asked, ...interrupted]).when({ type: "Regenerate", questionId: "nope", answerId: "a3", model: "m", processId: "web-1", now }).thenThrows("MESSAGE_NOT_FOUND", "Message not found");
  });

  it("takes a question about images attached to it, and no image it has not seen", () => {
    const attach = (mediaId: string): ConversationCommand => ({ type: "AttachImage", mediaId, contentType: "image/png", size: 10, link: null, now });
    const attached = [...started, ...given(started).when(attach("m1")).events()];
    expect(attached.at(-1)?.type).toBe("ImageAttached");
    given(attached).when(attach("m1")).then([]);
    expect(given(attached).when({ ...ask("q1", "a1"), mediaIds: ["m1"] } as ConversationCommand).events().map((e) => e.type)).toContain("QuestionAsked");
    given(attached).when({ ...ask("q1", "a1"), mediaIds: ["m1", "elsewhere"] } as ConversationCommand).thenThrows("MESSAGE_CREATION_FAILURE", "An attached image was not found. Please attach it again.");
    const six = ["m1", "m1", "m1", "m1", "m1", "m1"];
    given(attached).when({ ...ask("q1", "a1"), mediaIds: six } as ConversationCommand).thenThrows("MESSAGE_CREATION_FAILURE", "A question can carry at most 5 images.");
  });
});

describe("an image attached to a chat", () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
  it("is known by its bytes, not its name", () => {
    expect(chatImageType(png)).toBe("image/png");
    expect(chatImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(chatImageType(new TextEncoder().encode("GIF89a..."))).toBe("image/gif");
    expect(chatImageType(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(chatImageType(new TextEncoder().encode("<svg onload=alert(1)>"))).toBeNull();
  });

  it("is refused with a reason when empty, too large or not an image", () => {
    expect(chatImageProblem(new Uint8Array())).toBe("The image is empty.");
    expect(chatImageProblem(new Uint8Array(MAX_IMAGE_BYTES + 1).fill(0x89))).toBe("Images can be at most 5 MB.");
    expect(chatImageProblem(new TextEncoder().encode("%PDF-1.7"))).toBe("Only PNG, JPEG, GIF or WebP images can be attached.");
    expect(chatImageProblem(png)).toBeNull();
  });
});
