import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";
import { MAX_IMAGES_PER_QUESTION } from "./chat-image";

/**
 * A conversation in a workspace (stream `conversation-<id>`): questions and
 * answers. An answer is started before it streams and completed after, so a
 * dropped connection leaves it visibly unfinished (interrupted), never a
 * half-saved answer presented as complete. Regenerating starts another answer
 * to the same question; the older ones stay as versions. Texts are the owner's
 * personal data.
 */

export interface Citation {
  documentId: string;
  pageNumber: number;
  /** The exact span of the passage's text the answer rests on, for the viewer's highlight; providers may give none. */
  quote?: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Selected text in a question is cut at this length (spec 001 §2). */
export const SELECTED_TEXT_LIMIT = 230;
/** The marker between a selected-text prefix and the question (spec 001 §2). */

export type ConversationEvent =
  | DomainEvent<
      "ConversationStarted",
      { conversationId: string; workspaceId: string; ownerId: string; startedAt: string; personal: { title: string } | null }
    >
  | DomainEvent<"ConversationRenamed", { personal: { title: string } | null; renamedAt: string }>
  /** An image for a question to come; the link it was fetched from, if any, is the owner's personal data. */
  | DomainEvent<
      "ImageAttached",
      { mediaId: string; contentType: string; size: number; source: "upload" | "link"; personal: { link: string | null } | null; attachedAt: string }
    >
  | DomainEvent<
      "QuestionAsked",
      {
        messageId: string;
        personal: { text: string; selectedText: string | null } | null;
        mediaIds: string[];
        language: string;
        askedAt: string;
      }
    >
  /** `processId`: the process that streams the answer; answers started before it was recorded have none. */
  | DomainEvent<"AnswerStarted", { messageId: string; questionId: string; model: string; processId?: string; startedAt: string }>
  | DomainEvent<
      "AnswerCompleted",
      {
        messageId: string;
        /** `quotes[i]` is citation i's quote: document text is personal data, so it is sealed with the answer, never kept in `citations`. */
        personal: { text: string; quotes?: (string | null)[] } | null;
        citations: Citation[];
        usage: TokenUsage;
        firstTokenMs: number | null;
        /** Present when another model than the started one answered (the offline stand-in). */
        answeredBy?: string;
        completedAt: string;
      }
    >
  | DomainEvent<"AnswerInterrupted", { messageId: string; personal: { partialText: string } | null; reason: string; interruptedAt: string }>
  | DomainEvent<"AnswerRated", { messageId: string; rating: "false" | null; ratedAt: string }>
  | DomainEvent<"ConversationDeleted", { deletedAt: string }>;

export type ConversationCommand =
  | { type: "StartConversation"; conversationId: string; workspaceId: string; ownerId: string; title: string; now: Date }
  | { type: "AttachImage"; mediaId: string; contentType: string; size: number; link: string | null; now: Date }
  | {
      type: "AskQuestion";
      questionId: string;
      answerId: string;
      text: string;
      selectedText: string | null;
      mediaIds: string[];
      language: string;
      model: string;
      processId: string;
      now: Date;
    }
  | { type: "Regenerate"; questionId: string; answerId: string; model: string; processId: string; now: Date }
  | {
      type: "CompleteAnswer";
      answerId: string;
      text: string;
      citations: Citation[];
      usage: TokenUsage;
      firstTokenMs: number | null;
      /** The model that really answered, when not the one the answer started with (the offline stand-in, decision 190). */
      answeredBy?: string;
      now: Date;
    }
  | { type: "InterruptAnswer"; answerId: string; partialText: string; reason: string; now: Date }
  /** Ends every answer still streaming whose process is not among `liveProcesses`: nothing will ever finish it. */
  | { type: "EndAbandonedAnswers"; liveProcesses: string[]; now: Date }
  | { type: "RateAnswer"; answerId: string; rating: "false" | null; now: Date }
  | { type: "Delete"; now: Date };

interface AnswerState {
  questionId: string;
  status: "streaming" | "complete" | "interrupted";
  processId?: string;
}

/** Why an answer whose process is gone ended (shown to no one but operators: the reader sees "interrupted"). */
export const ABANDONED_ANSWER_REASON = "The server process streaming the answer stopped before it finished.";

export type ConversationState =
  | { exists: false }
  | {
      exists: true;
      deleted: boolean;
      conversationId: string;
      workspaceId: string;
      ownerId: string;
      titled: boolean;
      questions: string[];
      images: string[];
      answers: Record<string, AnswerState>;
    };

const iso = (d: Date) => d.toISOString();

function live(state: ConversationState) {
  if (!state.exists || state.deleted) throw new DomainError("CONVERSATION_NOT_FOUND", "Conversation not found");
  return state;
}

function streaming(state: Extract<ConversationState, { exists: true }>) {
  return Object.values(state.answers).some((a) => a.status === "streaming");
}

/**
 * A conversation is titled by its first question's first line: a question
 * that carries more below (Retry's error and LaTeX source) is named by what it
 * asks, not by everything it sends.
 */
export const titleFrom = (question: string) => {
  const first = question.split("\n").find((l) => l.trim() !== "") ?? "";
  const line = first.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
};

export function decide(command: ConversationCommand, state: ConversationState): ConversationEvent[] {
  switch (command.type) {
    case "StartConversation":
      if (state.exists) return [];
      return [
        {
          type: "ConversationStarted",
          data: {
            conversationId: command.conversationId,
            workspaceId: command.workspaceId,
            ownerId: command.ownerId,
            startedAt: iso(command.now),
            personal: { title: command.title },
          },
        },
      ];
    case "AttachImage": {
      const c = live(state);
      if (c.images.includes(command.mediaId)) return [];
      return [
        {
          type: "ImageAttached",
          data: {
            mediaId: command.mediaId,
            contentType: command.contentType,
            size: command.size,
            source: command.link ? "link" : "upload",
            personal: { link: command.link },
            attachedAt: iso(command.now),
          },
        },
      ];
    }
    case "AskQuestion": {
      const c = live(state);
      if (streaming(c)) throw new DomainError("MESSAGE_CREATION_FAILURE", "Please wait until the current answer has finished.");
      const text = command.text.trim();
      if (!text) throw new DomainError("MESSAGE_CREATION_FAILURE", "Type a question first.");
      if (command.mediaIds.length > MAX_IMAGES_PER_QUESTION) throw new DomainError("MESSAGE_CREATION_FAILURE", `A question can carry at most ${MAX_IMAGES_PER_QUESTION} images.`);
      if (command.mediaIds.some((id) => !c.images.includes(id))) throw new DomainError("MESSAGE_CREATION_FAILURE", "An attached image was not found. Please attach it again.");
      const events: ConversationEvent[] = [
        {
          type: "QuestionAsked",
          data: {
            messageId: command.questionId,
            personal: { text, selectedText: command.selectedText },
            mediaIds: command.mediaIds,
            language: command.language,
            askedAt: iso(command.now),
          },
        },
        answerStarted(command),
      ];
      if (!c.titled) events.unshift({ type: "ConversationRenamed", data: { personal: { title: titleFrom(text) }, renamedAt: iso(command.now) } });
      return events;
    }
    case "Regenerate": {
      const c = live(state);
      if (!c.questions.includes(command.questionId)) throw new DomainError("MESSAGE_NOT_FOUND", "Message not found");
      if (streaming(c)) throw new DomainError("MESSAGE_CREATION_FAILURE", "Please wait until the current answer has finished.");
      return [answerStarted(command)];
    }
    case "CompleteAnswer": {
      const c = live(state);
      const answer = c.answers[command.answerId];
      if (!answer) throw new DomainError("MESSAGE_NOT_FOUND", "Message not found");
      if (answer.status !== "streaming") return [];
      return [
        {
          type: "AnswerCompleted",
          data: {
            messageId: command.answerId,
            personal: { text: command.text, quotes: command.citations.map((c) => c.quote ?? null) },
            citations: command.citations.map(({ documentId, pageNumber }) => ({ documentId, pageNumber })),
            usage: command.usage,
            firstTokenMs: command.firstTokenMs,
            ...(command.answeredBy ? { answeredBy: command.answeredBy } : {}),
            completedAt: iso(command.now),
          },
        },
      ];
    }
    case "InterruptAnswer": {
      const c = live(state);
      const answer = c.answers[command.answerId];
      if (!answer || answer.status !== "streaming") return [];
      return [
        {
          type: "AnswerInterrupted",
          data: { messageId: command.answerId, personal: { partialText: command.partialText }, reason: command.reason, interruptedAt: iso(command.now) },
        },
      ];
    }
    case "EndAbandonedAnswers": {
      if (!state.exists || state.deleted) return [];
      return Object.entries(state.answers)
        .filter(([, answer]) => answer.status === "streaming" && !(answer.processId && command.liveProcesses.includes(answer.processId)))
        .map(([messageId]) => ({
          type: "AnswerInterrupted",
          data: { messageId, personal: { partialText: "" }, reason: ABANDONED_ANSWER_REASON, interruptedAt: iso(command.now) },
        }));
    }
    case "RateAnswer": {
      const c = live(state);
      const answer = c.answers[command.answerId];
      if (!answer) throw new DomainError("MESSAGE_NOT_FOUND", "Message not found");
      if (answer.status !== "complete") throw new DomainError("MESSAGE_NOT_FINISHED", "Only finished answers can be rated.");
      return [{ type: "AnswerRated", data: { messageId: command.answerId, rating: command.rating, ratedAt: iso(command.now) } }];
    }
    case "Delete":
      if (!state.exists || state.deleted) return [];
      return [{ type: "ConversationDeleted", data: { deletedAt: iso(command.now) } }];
  }
}

function answerStarted(command: Extract<ConversationCommand, { type: "AskQuestion" | "Regenerate" }>): ConversationEvent {
  const { answerId, questionId, model, processId, now } = command;
  return { type: "AnswerStarted", data: { messageId: answerId, questionId, model, processId, startedAt: iso(now) } };
}

export function evolve(state: ConversationState, event: ConversationEvent): ConversationState {
  if (event.type === "ConversationStarted") {
    return {
      exists: true,
      deleted: false,
      conversationId: event.data.conversationId,
      workspaceId: event.data.workspaceId,
      ownerId: event.data.ownerId,
      titled: Boolean(event.data.personal?.title),
      questions: [],
      images: [],
      answers: {},
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case "ConversationRenamed":
      return { ...state, titled: true };
    case "ImageAttached":
      return { ...state, images: [...state.images, event.data.mediaId] };
    case "QuestionAsked":
      return { ...state, questions: [...state.questions, event.data.messageId] };
    case "AnswerStarted":
      return {
        ...state,
        answers: { ...state.answers, [event.data.messageId]: { questionId: event.data.questionId, status: "streaming", processId: event.data.processId } },
      };
    case "AnswerCompleted":
    case "AnswerInterrupted": {
      const answer = state.answers[event.data.messageId];
      if (!answer) return state;
      const status = event.type === "AnswerCompleted" ? "complete" : "interrupted";
      return { ...state, answers: { ...state.answers, [event.data.messageId]: { ...answer, status } } };
    }
    case "ConversationDeleted":
      return { ...state, deleted: true };
    default:
      return state;
  }
}

export const conversationDecider: Decider<ConversationCommand, ConversationEvent, ConversationState> = {
  initialState: () => ({ exists: false }),
  decide,
  evolve,
};

export const conversationStreamId = (conversationId: string) => `conversation-${conversationId}`;
