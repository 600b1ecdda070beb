/** Browser-side calls of the chat panel (ARCHITECTURE §6 streaming contract). */
import { splitAnswerStream } from "#application/conversation/answer-stream";

export const NEW_CHAT_ID = "new-chat";

/** `quote`: the exact span of the page the answer rests on, highlighted when the citation opens (provider models may give none). */
export type ChatCitation = { documentId: string; pageNumber: number; quote?: string };
export type ChatDocument = { documentId: string; documentName: string; pageCount: number };
export type ChatConversationSummary = { id: string; title: string };

export type ChatMessage = {
  id: string;
  sender: "USER" | "BOT";
  text: string;
  selectedText: string | null;
  /** BOT: the question it answers; versions of one answer share it. */
  questionId: string | null;
  status: "streaming" | "complete" | "interrupted";
  citations: ChatCitation[];
  model: string | null;
  rating: "false" | null;
  createdAt: string;
  /** USER: the question's images (attached images' URLs once sent; data or link URLs while being chosen). */
  images?: string[];
};

export type StreamMetadata = {
  message_id: string;
  question_id: string;
  conversation_id: string;
  citations: ChatCitation[];
  model: string | null;
};

export class ChatApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function readError(response: Response, fallbackCode: string): Promise<ChatApiError> {
  let message = "Something went wrong. Please try again.";
  let code = fallbackCode;
  try {
    const body = (await response.json()) as { message?: unknown; code?: unknown };
    if (typeof body.message === "string" && body.message) message = body.message;
    if (typeof body.code === "string" && body.code) code = body.code;
  } catch {
    // not JSON
  }
  return new ChatApiError(message, code, response.status);
}

function jsonInit(method: string, csrfToken: string, body?: unknown): RequestInit {
  return {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrfToken },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

const conversationUrl = (id: string) => `/api/conversations/${encodeURIComponent(id)}`;

export async function createConversation(workspaceId: string, csrfToken: string): Promise<string> {
  const response = await fetch("/api/conversations", jsonInit("POST", csrfToken, { workspace_id: workspaceId }));
  if (!response.ok) throw await readError(response, "CONVERSATION_CREATION_FAILURE");
  const body = (await response.json()) as { conversation_id: string };
  return body.conversation_id;
}

type ServerMessage = Omit<ChatMessage, "images"> & { mediaIds?: unknown } & Record<string, unknown>;

export const chatImageUrl = (conversationId: string, mediaId: string) => `${conversationUrl(conversationId)}/media/${encodeURIComponent(mediaId)}`;

/** A base64 data URL's bytes, decoded here because the page's CSP (connect-src 'self') forbids fetching data: URLs. */
export function decodeDataUrl(dataUrl: string): { type: string; bytes: Uint8Array } {
  const match = /^data:([\w.+/-]*)(;[^,]*)?,(.*)$/s.exec(dataUrl);
  if (!match) throw new ChatApiError("The image could not be read.", "MESSAGE_CREATION_FAILURE", 400);
  const [, type, params = "", payload] = match;
  const bytes = params.includes(";base64")
    ? Uint8Array.from(atob(payload), (c) => c.charCodeAt(0))
    : new TextEncoder().encode(decodeURIComponent(payload));
  return { type: type || "application/octet-stream", bytes };
}

/**
 * Attaches one chosen image to the conversation and answers its media id: a
 * data URL (upload, paste, drop, area capture) goes up as bytes, a link as
 * `{url}` for the server to fetch.
 */
export async function attachImage(conversationId: string, image: string, csrfToken: string): Promise<string> {
  const url = `${conversationUrl(conversationId)}/media`;
  let response: Response;
  if (image.startsWith("data:")) {
    const { type, bytes } = decodeDataUrl(image);
    response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": type, Accept: "application/json", "X-CSRF-Token": csrfToken },
      body: new Blob([bytes as Uint8Array<ArrayBuffer>], { type }),
    });
  } else {
    response = await fetch(url, jsonInit("POST", csrfToken, { url: image }));
  }
  if (!response.ok) throw await readError(response, "MESSAGE_CREATION_FAILURE");
  return ((await response.json()) as { media_id: string }).media_id;
}

export async function loadConversation(id: string, signal?: AbortSignal): Promise<{ title: string; messages: ChatMessage[] }> {
  const response = await fetch(conversationUrl(id), { credentials: "same-origin", headers: { Accept: "application/json" }, signal });
  if (!response.ok) throw await readError(response, "GET_CONVERSATION_FAILURE");
  const body = (await response.json()) as { conversation: { title: string }; messages: ServerMessage[] };
  return {
    title: body.conversation.title ?? "",
    messages: body.messages.map((m) => ({
      id: m.id,
      sender: m.sender,
      text: m.text ?? "",
      selectedText: m.selectedText ?? null,
      images: Array.isArray(m.mediaIds) ? m.mediaIds.filter((x): x is string => typeof x === "string").map((mediaId) => chatImageUrl(id, mediaId)) : [],
      questionId: m.questionId ?? null,
      status: m.status,
      citations: Array.isArray(m.citations) ? m.citations : [],
      model: m.model ?? null,
      rating: m.rating === "false" ? "false" : null,
      createdAt: m.createdAt,
    })),
  };
}

export async function listConversations(workspaceId: string, signal?: AbortSignal): Promise<ChatConversationSummary[]> {
  const response = await fetch(`/api/conversations?workspace_id=${encodeURIComponent(workspaceId)}`, { credentials: "same-origin", signal });
  if (!response.ok) return [];
  const body = (await response.json()) as { conversations: { id: string; title: string }[] };
  return body.conversations.map((c) => ({ id: c.id, title: c.title }));
}

export async function loadOverview(id: string, signal?: AbortSignal): Promise<{ summary: string; questions: string[] }> {
  const response = await fetch(`${conversationUrl(id)}/overview`, { credentials: "same-origin", signal });
  if (!response.ok) throw await readError(response, "GET_OVERVIEW_FAILURE");
  return (await response.json()) as { summary: string; questions: string[] };
}

export async function rateMessage(conversationId: string, messageId: string, rating: "false" | null, csrfToken: string): Promise<void> {
  const response = await fetch(`${conversationUrl(conversationId)}/messages/${encodeURIComponent(messageId)}/feedback`, jsonInit("PUT", csrfToken, { rating }));
  if (!response.ok) throw await readError(response, "RATING_FAILURE");
}

export const exportUrl = (conversationId: string, format: "pdf" | "txt") => `${conversationUrl(conversationId)}/export?format=${format}`;

export type StreamOutcome =
  | { kind: "complete"; text: string; metadata: StreamMetadata }
  | { kind: "failed"; text: string; code: string; message: string }
  | { kind: "interrupted"; text: string };

/**
 * POST …/messages_stream and read the body as it arrives: text until `[END]`,
 * then one JSON object. Refusals before the first byte throw ChatApiError;
 * a model that fails before it (PROVIDER_…) is a failed answer.
 */
export async function streamAnswer(
  conversationId: string,
  body: { text: string; selected_text: string | null; media_ids: string[]; language: string; regenerate_question_id: string | null; suggested?: boolean },
  csrfToken: string,
  onText: (text: string) => void,
  signal: AbortSignal,
): Promise<StreamOutcome> {
  const response = await fetch(`${conversationUrl(conversationId)}/messages_stream`, {
    ...jsonInit("POST", csrfToken, body),
    headers: { "Content-Type": "application/json", Accept: "text/event-stream, text/plain", "X-CSRF-Token": csrfToken },
    signal,
  });
  if (!response.ok || !response.body) {
    const error = await readError(response, "MESSAGE_CREATION_FAILURE");
    // The model failed before its first word: the question was asked and its answer is interrupted, as a reload shows it.
    if (error.code.startsWith("PROVIDER_")) return { kind: "failed", text: "", code: error.code, message: error.message };
    throw error;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let shown = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const { text } = splitAnswerStream(buffer);
      if (text !== shown) {
        shown = text;
        onText(text);
      }
    }
    buffer += decoder.decode();
  } catch (error) {
    if (signal.aborted) throw error;
    return { kind: "interrupted", text: shown };
  }
  const { text, meta } = splitAnswerStream(buffer);
  if (meta === null) return { kind: "interrupted", text };
  try {
    const parsed = JSON.parse(meta) as Partial<StreamMetadata> & { error?: { code?: string; message?: string } };
    if (parsed.error) return { kind: "failed", text, code: parsed.error.code ?? "MESSAGE_CREATION_FAILURE", message: parsed.error.message ?? "The answer could not be completed." };
    if (!parsed.message_id) return { kind: "interrupted", text };
    return {
      kind: "complete",
      text,
      metadata: {
        message_id: parsed.message_id,
        question_id: parsed.question_id ?? "",
        conversation_id: parsed.conversation_id ?? conversationId,
        citations: Array.isArray(parsed.citations) ? parsed.citations : [],
        model: parsed.model ?? null,
      },
    };
  } catch (error) {
    // Spec 001 §4: stream parse failures are only logged.
    console.warn("Could not read the answer's metadata", error);
    return { kind: "interrupted", text };
  }
}

/** Citations shown under an answer (spec 001 §5): workspace documents only, existing pages (1-based), once per document-page. */
export function visibleCitations(citations: ChatCitation[], documents: ChatDocument[]): (ChatCitation & { label: string; name: string })[] {
  const byId = new Map(documents.map((d) => [d.documentId, d]));
  const seen = new Set<string>();
  const out: (ChatCitation & { label: string; name: string })[] = [];
  for (const c of citations) {
    const doc = byId.get(c.documentId);
    if (!doc || !Number.isInteger(c.pageNumber) || c.pageNumber < 1 || (doc.pageCount > 0 && c.pageNumber > doc.pageCount)) continue;
    const key = `${c.documentId}#${c.pageNumber}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...c, name: doc.documentName, label: doc.documentName.slice(0, 16) });
  }
  return out;
}

export const SELECTED_TEXT_MAX = 230;
export const cutSelectedText = (text: string) => (text.length > SELECTED_TEXT_MAX ? `${text.slice(0, SELECTED_TEXT_MAX)}…` : text);

/** 'Explain "{text}"?' with the selection's trailing question marks removed (spec 001 §2). */
export const stripTrailingQuestionMarks = (text: string) => text.trim().replace(/[?？\s]+$/u, "");
