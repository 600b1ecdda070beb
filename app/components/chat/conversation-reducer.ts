import type { ChatMessage, StreamMetadata } from "./chat-api";

/**
 * The conversation the chat panel shows, as a pure reducer: which chat is
 * open, its messages (with the question and answer being written), whether it
 * loads or an answer is being written, the last error and the suggested
 * questions. The panel dispatches what happened; this decides what it means.
 */
export type ChatError = { code: string; message: string };

export interface ConversationView {
  /** The saved chat, or null for a chat not created yet. */
  activeId: string | null;
  messages: ChatMessage[];
  loadedTitle: string;
  loading: boolean;
  /** A question is being sent or its answer written: nothing else may be sent. */
  creating: boolean;
  error: ChatError | null;
  /** Questions the overview suggests for this chat (at most 5). */
  suggested: string[];
}

export type ConversationAction =
  /** Another chat (or a new one) is shown: everything of the previous one goes. */
  | { type: "opened"; conversationId: string | null }
  | { type: "loaded"; messages: ChatMessage[]; title: string }
  | { type: "loadSettled" }
  | { type: "suggested"; questions: string[] }
  | { type: "titleLoaded"; title: string }
  /** A question (or a regeneration) starts: the previous error goes. */
  | { type: "sending" }
  /** The chat this panel just created for its first question. */
  | { type: "created"; conversationId: string }
  /** Messages written locally before the server knows them (the question, the answer placeholder). */
  | { type: "appended"; messages: ChatMessage[] }
  | { type: "streamed"; answerId: string; text: string }
  /** The answer is complete: the local ids become the server's. */
  | { type: "answered"; answerId: string; questionId: string | null; text: string; metadata: StreamMetadata }
  /** The answer stopped; `text` is what arrived, when known. */
  | { type: "interrupted"; answerId: string; text?: string; error?: ChatError }
  /** Refused before the first byte: nothing was asked, the local messages go. */
  | { type: "refused"; messageIds: string[]; error: ChatError }
  | { type: "failed"; error: ChatError }
  | { type: "sendSettled" }
  | { type: "rated"; messageId: string; rating: ChatMessage["rating"] }
  | { type: "errorDismissed" };

export const openConversation = (conversationId: string | null): ConversationView => ({
  activeId: conversationId,
  messages: [],
  loadedTitle: "",
  loading: Boolean(conversationId),
  creating: false,
  error: null,
  suggested: [],
});

const patch = (messages: ChatMessage[], id: string, change: Partial<ChatMessage>) => messages.map((m) => (m.id === id ? { ...m, ...change } : m));

export function conversationReducer(state: ConversationView, action: ConversationAction): ConversationView {
  switch (action.type) {
    case "opened":
      return openConversation(action.conversationId);
    case "loaded":
      return { ...state, messages: action.messages, loadedTitle: action.title };
    case "loadSettled":
      return { ...state, loading: false };
    case "suggested":
      return { ...state, suggested: action.questions };
    case "titleLoaded":
      return { ...state, loadedTitle: action.title };
    case "sending":
      return { ...state, error: null, creating: true };
    case "created":
      return { ...state, activeId: action.conversationId };
    case "appended":
      return { ...state, messages: [...state.messages, ...action.messages] };
    case "streamed":
      return { ...state, messages: patch(state.messages, action.answerId, { text: action.text }) };
    case "answered": {
      const { metadata } = action;
      return {
        ...state,
        messages: state.messages.map((m) => {
          if (m.id === action.answerId) {
            return { ...m, id: metadata.message_id, questionId: metadata.question_id || m.questionId, text: action.text, status: "complete", citations: metadata.citations, model: metadata.model };
          }
          if (action.questionId && m.id === action.questionId && metadata.question_id) return { ...m, id: metadata.question_id };
          return m;
        }),
      };
    }
    case "interrupted":
      return {
        ...state,
        messages: patch(state.messages, action.answerId, action.text === undefined ? { status: "interrupted" } : { text: action.text, status: "interrupted" }),
        error: action.error ?? state.error,
      };
    case "refused":
      return { ...state, messages: state.messages.filter((m) => !action.messageIds.includes(m.id)), error: action.error };
    case "failed":
      return { ...state, creating: false, error: action.error };
    case "sendSettled":
      return { ...state, creating: false };
    case "rated":
      return { ...state, messages: patch(state.messages, action.messageId, { rating: action.rating }) };
    case "errorDismissed":
      return { ...state, error: null };
  }
}

/** A question and its answers (the versions a regeneration adds); an answer without its question stands alone. */
export type Turn = { key: string; question: ChatMessage | null; answers: ChatMessage[] };

export function toTurns(messages: ChatMessage[]): Turn[] {
  const turns: Turn[] = [];
  const byQuestion = new Map<string, Turn>();
  for (const m of messages) {
    if (m.sender === "USER") {
      const turn: Turn = { key: m.id, question: m, answers: [] };
      byQuestion.set(m.id, turn);
      turns.push(turn);
    } else {
      const turn = m.questionId ? byQuestion.get(m.questionId) : undefined;
      if (turn) turn.answers.push(m);
      else turns.push({ key: m.id, question: null, answers: [m] });
    }
  }
  return turns;
}

let localSeq = 0;
/** Ids of messages the server has not named yet; "local-" marks them (they cannot be regenerated or rated). */
export const localId = (kind: "u" | "b") => `local-${kind}-${Date.now().toString(36)}-${++localSeq}`;

export const localQuestion = (id: string, text: string, selectedText: string | null, images: string[], createdAt: string): ChatMessage => ({
  id,
  sender: "USER",
  text,
  selectedText,
  questionId: null,
  status: "complete",
  citations: [],
  model: null,
  rating: null,
  createdAt,
  images,
});

export const pendingAnswer = (id: string, questionId: string, createdAt: string): ChatMessage => ({
  id,
  sender: "BOT",
  text: "",
  selectedText: null,
  questionId,
  status: "streaming",
  citations: [],
  model: null,
  rating: null,
  createdAt,
});
