import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatApiError, cutSelectedText, decodeDataUrl, streamAnswer, stripTrailingQuestionMarks, visibleCitations } from "./chat-api";
import { normalizeChatSettings } from "./chat-settings";
import { safeUrl } from "./markdown";

describe("visibleCitations", () => {
  const docs = [{ documentId: "d1", documentName: "A very long document name.pdf", pageCount: 3 }];
  it("keeps workspace documents, existing 1-based pages, once per document-page, labelled with 16 characters", () => {
    const shown = visibleCitations(
      [
        { documentId: "d1", pageNumber: 2 },
        { documentId: "d1", pageNumber: 2 },
        { documentId: "d1", pageNumber: 0 },
        { documentId: "d1", pageNumber: 4 },
        { documentId: "other", pageNumber: 1 },
      ],
      docs,
    );
    expect(shown).toEqual([{ documentId: "d1", pageNumber: 2, name: "A very long document name.pdf", label: "A very long docu" }]);
  });
});

describe("safeUrl", () => {
  it.each(["javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", " javascript:alert(1)", "data:text/html,<script>", "vbscript:msgbox", "file:///etc/passwd", "//evil.example/x"])(
    "drops %s",
    (url) => expect(safeUrl(url)).toBe(""),
  );
  it.each(["https://example.org/a", "http://example.org", "mailto:a@example.org", "/documents/1", "#note", "page.html"])("keeps %s", (url) => expect(safeUrl(url)).toBe(url));
});

describe("selection helpers", () => {
  it("cuts selected text at 230 characters with an ellipsis", () => {
    expect(cutSelectedText("x".repeat(231))).toBe(`${"x".repeat(230)}…`);
    expect(cutSelectedText("short")).toBe("short");
  });
  it("removes trailing question marks", () => expect(stripTrailingQuestionMarks("What is it??  ")).toBe("What is it"));
});

describe("normalizeChatSettings", () => {
  it("defaults, clamps and rounds what a drag or a stale page hands it", () => {
    expect(normalizeChatSettings(null)).toMatchObject({ fontSize: "Medium", responseLanguage: "English", isChatOnLeft: false, chatbotWidth: 47, sheetHeight: 50 });
    expect(normalizeChatSettings({ chatbotWidth: 61.6 }).chatbotWidth).toBe(62);
    expect(normalizeChatSettings({ fontSize: "Huge", responseLanguage: "Klingon", chatbotWidth: 120, sheetHeight: 5, isChatOnLeft: true })).toMatchObject({
      fontSize: "Medium",
      responseLanguage: "English",
      chatbotWidth: 90,
      sheetHeight: 25,
      isChatOnLeft: true,
    });
  });
});

describe("decodeDataUrl", () => {
  it("reads a base64 image and a percent-encoded one, and refuses what is not a data URL", () => {
    expect(decodeDataUrl("data:image/png;base64,iVBORw==")).toEqual({ type: "image/png", bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47]) });
    expect(decodeDataUrl("data:,GIF89a")).toEqual({ type: "application/octet-stream", bytes: new TextEncoder().encode("GIF89a") });
    expect(() => decodeDataUrl("https://example.org/cat.png")).toThrow("The image could not be read.");
  });
});

describe("streamAnswer before the first byte", () => {
  afterEach(() => vi.unstubAllGlobals());
  const ask = (status: number, body: { code: string; message: string }) => {
    vi.stubGlobal("fetch", async () => Response.json(body, { status }));
    return streamAnswer("c1", { text: "Why?", selected_text: null, media_ids: [], language: "English", regenerate_question_id: null }, "t", () => undefined, new AbortController().signal);
  };

  it("is a failed answer when the model could not answer: the question was asked, as a reload shows it (issue 44 item 4)", async () => {
    const message = "DocuChat's model could not answer. Please try again in a moment.";
    expect(await ask(502, { code: "PROVIDER_ERROR", message })).toEqual({ kind: "failed", text: "", code: "PROVIDER_ERROR", message });
  });

  it("is a refusal when nothing was asked", async () => {
    await expect(ask(422, { code: "MESSAGE_CREATION_FAILURE", message: "Please add files to chat" })).rejects.toBeInstanceOf(ChatApiError);
  });
});
