import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { type ChatLayoutEvent, chatLayoutChangeSchema, chatLayoutDecider, DEFAULT_CHAT_LAYOUT } from "./chat-layout";

const now = new Date("2026-05-01T12:00:00Z");
const change = (history: ChatLayoutEvent[], c: Record<string, unknown>) =>
  DeciderSpecification.for(chatLayoutDecider).given(history).when({ type: "ChangeChatLayout", change: chatLayoutChangeSchema.parse(c), now });

describe("a user's chat layout", () => {
  it("starts at the spec's defaults: Medium, English, on the right, 47% wide", () => {
    expect(chatLayoutDecider.initialState()).toEqual({ fontSize: "Medium", responseLanguage: "English", isChatOnLeft: false, chatbotWidth: 47, sheetHeight: 50 });
  });

  it("records the whole layout when something changes, and nothing when nothing does", () => {
    change([], { isChatOnLeft: true, fontSize: "Large" }).then([
      { type: "ChatLayoutChanged", data: { layout: { ...DEFAULT_CHAT_LAYOUT, isChatOnLeft: true, fontSize: "Large" }, changedAt: now.toISOString() } },
    ]);
    const moved = change([], { isChatOnLeft: true, fontSize: "Large" }).events();
    change(moved, { isChatOnLeft: true }).thenNothing();
    change(moved, { chatbotWidth: 60 }).then((events) => expect(events[0]?.data.layout).toMatchObject({ isChatOnLeft: true, fontSize: "Large", chatbotWidth: 60 }));
  });

  it("refuses values outside the spec's ranges and lists, with a reason", () => {
    const problem = (c: Record<string, unknown>) => chatLayoutChangeSchema.safeParse(c).error?.issues[0]?.message;
    expect(problem({ chatbotWidth: 46 })).toBe("The chat is at least 47% wide.");
    expect(problem({ chatbotWidth: 91 })).toBe("The chat is at most 90% wide.");
    expect(problem({ sheetHeight: 81 })).toBe("The chat sheet is at most 80% high.");
    expect(problem({ fontSize: "Huge" })).toBe("Choose Small, Medium or Large.");
    expect(problem({ responseLanguage: "Klingon" })).toBe("Choose a language from the list.");
    expect(chatLayoutChangeSchema.safeParse({ theme: "dark" }).success).toBe(false);
  });
});
