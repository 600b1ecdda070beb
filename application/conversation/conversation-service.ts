import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { BlobStore } from "#application/ports/blob-store";
import { termStatistics } from "./term-statistics";
import type { Clock } from "#application/ports/clock";
import { type Egress, EgressError } from "#application/ports/egress";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { AnswerEvent, AnswerInput, ChatTurn, LanguageModel, Passage } from "#application/ports/language-model";
import type { Tracing } from "#application/ports/tracing";
import type { ProcessLeases } from "#application/ports/process-leases";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { SearchIndex } from "#application/ports/search-index";
import { Aggregate, type Loaded } from "#application/shared/aggregate";
import { refuseDuringImpersonation } from "#application/shared/impersonation-guard";
import type { UsageMeter } from "#application/shared/allowance-policy";
import { readableBy } from "#application/shared/access-policy";
import { eventMetadata, type RequestContext } from "#application/shared/request-context";
import { WorkspaceQueries, type WorkspaceDetail } from "#application/workspace/workspace-queries";
import { LibraryQueries } from "#application/library/library-queries";
import { type AnsweringModel, KeysetModels } from "#application/identity/keyset-models";
import { chatImageBlobKey, chatImageProblem, chatImageType, IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from "#domain/conversation/chat-image";
import { embeddingSpace } from "#domain/workspace/workspace";
import {
  type Citation,
  type ConversationCommand,
  type ConversationEvent,
  type ConversationState,
  SELECTED_TEXT_LIMIT,
} from "#domain/conversation/conversation";
import { conversationAggregate } from "#domain/conversation/conversation-events";
import { DomainError } from "#domain/shared/domain-error";
import { type ConversationReadModel, conversationsOfWorkspace, type MessageReadModel, messagesOf, ownedConversation, questionsAsked } from "#projections/conversation/conversations.queries";
import { EndMarkerGuard } from "./answer-stream";
import { citedName, retrievePassages } from "./retrieval";
import { spreadPassages } from "./overview-passages";
import { asksForOverview, GENERATIVE_STARTERS, overviewRequest } from "./starter-questions";
import { resumeAnswering } from "./resume-answers";
import { resumeOfWorkspace, resumeVersion } from "#projections/resume/resumes.queries";

/** Passages handed to the model per question. */
const PASSAGES_PER_ANSWER = 8;
/** Questions an empty chat offers from the documents (the workspace's model writes them). */
const SUGGESTIONS = 5;
/** Earlier turns given to the model. */
const HISTORY_TURNS = 6;
/** The longest a generative model may take to reword a question before retrieval goes on without its queries. */
const QUERY_REWRITE_MS = 4_000;

export interface AskInput {
  text: string;
  selectedText?: string | null;
  mediaIds?: string[];
  language?: string;
  /** Asked by clicking one of the product's suggestions: if the model declines it, it is not counted (issue 44 item 2). */
  suggested?: boolean;
}

/** What the stream ends with after `[END]` (ARCHITECTURE §6). */
export interface AnswerMetadata {
  message_id: string;
  question_id: string;
  conversation_id: string;
  citations: Citation[];
  model: string;
  usage: { inputTokens: number; outputTokens: number };
  first_token_ms: number | null;
}

export type AnswerStreamEvent = { type: "text"; text: string } | { type: "end"; metadata: AnswerMetadata };

@injectable()
export class ConversationService {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(TOKENS.SearchIndex) private readonly search: SearchIndex,
    @inject(WorkspaceQueries) private readonly workspaces: WorkspaceQueries,
    @inject(KeysetModels) private readonly keysetModels: KeysetModels,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Egress) private readonly egress: Egress,
    @inject(TOKENS.UsageMeter) private readonly usage: UsageMeter,
    @inject(LibraryQueries) private readonly library: LibraryQueries,
    @inject(TOKENS.Tracing) private readonly tracing: Tracing,
    @inject(TOKENS.ProcessLeases) private readonly processes: ProcessLeases,
  ) {
    this.conversations = new Aggregate(events, ids, conversationAggregate);
  }

  /** The access policy as retrieval asks it, at question time: which of these documents the asker may read now. */
  private readableScope(userId: string) {
    return async (documentIds: string[]) => (await this.library.readableDocuments(userId, documentIds)).map((d) => d.id);
  }

  private readonly conversations: Aggregate<ConversationCommand, ConversationEvent, ConversationState>;

  /** Idempotent by conversation id (the workspace launch starts the first one). */
  async start(input: { conversationId: string; workspaceId: string; ownerId: string; title?: string }, ctx: RequestContext | null) {
    return this.execute(input.conversationId, input.ownerId, ctx, { type: "StartConversation", ...input, title: input.title ?? "", now: this.clock.now() });
  }

  /** 'New Chat': a conversation in one of the owner's workspaces. */
  async create(ownerId: string, workspaceId: string, ctx: RequestContext): Promise<{ conversationId: string }> {
    await this.workspaces.get(ownerId, workspaceId);
    const conversationId = this.ids.next();
    const result = await this.start({ conversationId, workspaceId, ownerId }, ctx);
    await this.projections.waitForPosition(result.position);
    return { conversationId };
  }

  async delete(ownerId: string, conversationId: string, ctx: RequestContext) {
    await this.owned(ownerId, conversationId);
    const result = await this.execute(conversationId, ownerId, ctx, { type: "Delete", now: this.clock.now() });
    await this.blobs.deletePrefix(chatImageBlobKey(ownerId, conversationId, ""));
    await this.projections.waitForPosition(result.position);
  }

  /**
   * Keeps an image for the next question (upload, paste, drop or capture).
   * The bytes must be a PNG, JPEG, GIF or WebP image whatever the file claims.
   */
  async attachImage(ownerId: string, conversationId: string, bytes: Buffer, ctx: RequestContext): Promise<{ mediaId: string }> {
    await this.owned(ownerId, conversationId);
    refuseDuringImpersonation(ctx);
    return this.keepImage(ownerId, conversationId, bytes, null, ctx);
  }

  /** Fetches an image link through the egress rules (ARCHITECTURE §8) and keeps the image like an upload. */
  async attachImageLink(ownerId: string, conversationId: string, link: string, ctx: RequestContext): Promise<{ mediaId: string }> {
    await this.owned(ownerId, conversationId);
    refuseDuringImpersonation(ctx);
    let body: Buffer;
    try {
      ({ body } = await this.egress.fetch({ url: link, maxBytes: MAX_IMAGE_BYTES, timeoutMs: 15_000 }));
    } catch (error) {
      if (error instanceof EgressError) {
        const reason = error.code === "TOO_LARGE" ? IMAGE_TOO_LARGE : error.message;
        throw new DomainError("IMAGE_NOT_ATTACHED", `The image could not be fetched: ${reason}`);
      }
      throw error;
    }
    return this.keepImage(ownerId, conversationId, body, link, ctx);
  }

  /** An image attached to one of the owner's conversations; another user's answers like a missing one. */
  async image(ownerId: string, conversationId: string, mediaId: string) {
    await this.owned(ownerId, conversationId);
    if (!/^[\w-]{1,64}$/.test(mediaId)) throw new DomainError("IMAGE_NOT_FOUND", "Image not found");
    const blob = await this.blobs.get(chatImageBlobKey(ownerId, conversationId, mediaId));
    if (!blob) throw new DomainError("IMAGE_NOT_FOUND", "Image not found");
    return blob;
  }

  /** Stores a checked image and records it; the caller has checked the conversation is the owner's and writable. */
  private async keepImage(ownerId: string, conversationId: string, bytes: Buffer, link: string | null, ctx: RequestContext) {
    const problem = chatImageProblem(bytes);
    if (problem) throw new DomainError("IMAGE_NOT_ATTACHED", problem);
    const contentType = chatImageType(bytes)!;
    const mediaId = this.ids.next();
    // The blob first: an event naming an image that was never stored would break every later question about it.
    await this.blobs.put(chatImageBlobKey(ownerId, conversationId, mediaId), bytes, { contentType, metadata: { user_id: ownerId, conversation_id: conversationId } });
    await this.execute(conversationId, ownerId, ctx, { type: "AttachImage", mediaId, contentType, size: bytes.length, link, now: this.clock.now() });
    return { mediaId };
  }

  async rate(ownerId: string, conversationId: string, messageId: string, rating: "false" | null, ctx: RequestContext) {
    await this.owned(ownerId, conversationId);
    const result = await this.execute(conversationId, ownerId, ctx, { type: "RateAnswer", answerId: messageId, rating, now: this.clock.now() });
    await this.projections.waitForPosition(result.position);
  }

  /**
   * Asks a question (or regenerates the answer to `regenerateQuestionId`) and
   * streams the answer. The answer is recorded as started before the first
   * token and completed after the last; if the stream is cut (signal aborted)
   * it is recorded as interrupted with what was sent so far.
   */
  async *ask(
    ownerId: string,
    conversationId: string,
    input: AskInput & { regenerateQuestionId?: string },
    ctx: RequestContext,
    signal?: AbortSignal,
  ): AsyncGenerator<AnswerStreamEvent> {
    // Refused before any retrieval or model call, not only at the first append.
    refuseDuringImpersonation(ctx);
    const conversation = await this.owned(ownerId, conversationId);
    const workspace = await this.workspaces.get(ownerId, conversation.workspaceId);
    if (workspace.documents.length === 0) throw new DomainError("MESSAGE_CREATION_FAILURE", "Please add files to chat");
    // Ids are time-ordered: the question's must sort before its answer's.
    const newQuestionId = this.ids.next();
    const answerId = this.ids.next();
    let questionId: string;
    let question: string;
    let selectedText: string | null;
    const language = input.language?.trim() || "English";
    // The stream is read (and its personal data opened) once per question; each append hands on the state it leaves.
    let current = await this.conversations.load(conversationId);
    const asked = input.regenerateQuestionId ? askedQuestion(current.events, input.regenerateQuestionId) : null;
    const mediaIds = asked ? asked.mediaIds : (input.mediaIds ?? []);
    // A question with images goes to the workspace's image model (Workspace Settings: "Reads images you add to the chat").
    // Which keyset answers is decided once, here, from what really answers; the count below follows it (issue #30 item 7).
    const answeringModel = await this.modelFor(ownerId, workspace, mediaIds.length > 0 ? "image" : "text");
    const model = answeringModel.model;
    // In a Resume Builder workspace answers edit the resume: LaTeX blocks (resume-answers.ts).
    const answering = workspace.type === "Resume Builder" ? resumeAnswering(model, await this.resumeLatex(ownerId, workspace.id)) : model;

    let counted: Awaited<ReturnType<ConversationService["reserveMessage"]>> | null = null;
    if (asked && input.regenerateQuestionId) {
      questionId = input.regenerateQuestionId;
      question = asked.text;
      selectedText = asked.selectedText;
      // A question no answer has given text to holds nothing (its failures gave it back): the first answer that does is counted.
      counted = answeredBefore(current.events, questionId) ? null : await this.reserveMessage(ownerId, answeringModel, questionId, ctx, conversationId);
      const regenerate = () => this.execute(conversationId, ownerId, ctx, { type: "Regenerate", questionId, answerId, model: model.id, processId: this.processes.processId, now: this.clock.now() }, current);
      current = (await (counted ? counted.releaseOnFailure(regenerate) : regenerate())).after;
    } else {
      counted = await this.reserveMessage(ownerId, answeringModel, newQuestionId, ctx, conversationId);
      questionId = newQuestionId;
      question = input.text.trim();
      selectedText = input.selectedText ? cut(input.selectedText.trim(), SELECTED_TEXT_LIMIT) : null;
      current = (await counted.releaseOnFailure(() => this.execute(conversationId, ownerId, ctx, {
        type: "AskQuestion",
        questionId,
        answerId,
        text: question,
        selectedText,
        mediaIds,
        language,
        model: model.id,
        processId: this.processes.processId,
        now: this.clock.now(),
      }, current))).after;
    }
    const history = turnsBefore(current.events, questionId);

    const started = performance.now();
    let firstTokenMs: number | null = null;
    let sent = "";
    const guard = new EndMarkerGuard();
    try {
      const images = await this.imagesFor(ownerId, conversationId, mediaIds, model);
      const stream: AsyncIterable<AnswerEvent> = answering.streamAnswer(
        { ...(await this.answerInput(ownerId, workspace, model, { question, selectedText, history, language }, signal)), images },
        signal,
      );
      for await (const event of stream) {
        if (event.type === "text") {
          firstTokenMs ??= Math.round(performance.now() - started);
          const text = guard.push(event.text);
          sent += text;
          if (text) yield { type: "text", text };
          continue;
        }
        const rest = guard.flush();
        sent += rest;
        if (rest) yield { type: "text", text: rest };
        const citations = validCitations(event.citations, workspace);
        await this.execute(conversationId, ownerId, ctx, {
          type: "CompleteAnswer",
          answerId,
          text: sent,
          citations,
          usage: event.usage,
          firstTokenMs,
          answeredBy: event.answeredBy,
          now: this.clock.now(),
        }, current);
        // A suggestion of ours the model declined was our mistake, not the asker's question.
        if (input.suggested && citations.length === 0) await counted?.release();
        yield {
          type: "end",
          metadata: {
            message_id: answerId,
            question_id: questionId,
            conversation_id: conversationId,
            citations,
            model: event.answeredBy ?? model.id,
            usage: event.usage,
            first_token_ms: firstTokenMs,
          },
        };
        return;
      }
      throw new Error("The model ended without finishing its answer.");
    } catch (error) {
      const reason = signal?.aborted ? "The connection was closed before the answer finished." : error instanceof Error ? error.message : String(error);
      await this.execute(conversationId, ownerId, ctx, { type: "InterruptAnswer", answerId, partialText: sent, reason, now: this.clock.now() }, current);
      // Nothing came from the model and the asker did not leave: no answer was given, so none is charged (issue 44 item 3).
      if (!sent && !signal?.aborted) await counted?.release();
      throw error instanceof DomainError ? error : new DomainError("MESSAGE_CREATION_FAILURE", "The answer could not be completed. Please regenerate it.");
    }
  }

  /**
   * What the model is handed for a question, as every question is answered: the passages
   * retrieval finds for it (spread over the documents when it asks for an overview of them) and
   * how rare its words are in the workspace (the built-in model weighs them by it).
   */
  private async answerInput(
    ownerId: string,
    workspace: WorkspaceDetail,
    model: LanguageModel,
    asked: { question: string; selectedText: string | null; history: ChatTurn[]; language: string },
    signal?: AbortSignal,
  ): Promise<AnswerInput> {
    const { question, selectedText, history, language } = asked;
    const readable = await this.readableScope(ownerId)(workspace.documentIds);
    const names = new Map(workspace.documents.map((d) => [d.documentId, citedName(d.documentName, d.documentSource)]));
    const overview = !selectedText && asksForOverview(question);
    const passages: Passage[] = await this.tracing.inSpan("retrieve passages", { attributes: { "docuchat.documents": workspace.documentIds.length } }, async (span) => {
      const found = overview
        ? await spreadPassages(this.search, readable, (id) => names.get(id))
        : await retrievePassages({
            index: this.search,
            question: selectedText ? `${selectedText} ${question}` : question,
            alternateQueries: await alternateQueries(model, question, history, signal),
            documentIds: workspace.documentIds,
            readable: this.readableScope(ownerId),
            limit: PASSAGES_PER_ANSWER,
            vectors: this.denseSearch(ownerId, workspace),
            documentName: (id) => names.get(id),
          });
      span.set({ "docuchat.passages": found.length });
      return found;
    });
    return {
      question,
      selectedText: selectedText ?? undefined,
      history,
      passages,
      language,
      overview,
      termStatistics: await termStatistics({ index: this.search, question, documentIds: readable }),
    };
  }

  /** Summary and suggested questions of a conversation's workspace (chat-support popover). */
  async overview(ownerId: string, conversationId: string): Promise<{ summary: string; questions: string[] }> {
    const conversation = await this.owned(ownerId, conversationId);
    const workspace = await this.workspaces.get(ownerId, conversation.workspaceId);
    const names = new Map(workspace.documents.map((d) => [d.documentId, d.documentName]));
    const messages = await this.messages(ownerId, conversationId);
    const topic = messages.filter((m) => m.sender === "USER").map((m) => m.text).join(" ");
    // Before anything is asked, the overview is of the whole of each document; after, of what was asked about.
    const passages = topic
      ? await retrievePassages({
          index: this.search,
          question: topic,
          documentIds: workspace.documentIds,
          readable: this.readableScope(ownerId),
          limit: 12,
          vectors: this.denseSearch(ownerId, workspace),
          documentName: (id) => names.get(id),
        })
      : await spreadPassages(this.search, await this.readableScope(ownerId)(workspace.documentIds), (id) => names.get(id));
    // The workspace's model writes the overview; if its provider fails, the offline one still gives one.
    const { model } = await this.modelFor(ownerId, workspace);
    // The offline model writes more than are offered: the ones it would decline when asked are left out below.
    const count = model.capabilities.generative ? SUGGESTIONS : SUGGESTIONS * 2;
    const overview = (m: LanguageModel) =>
      Promise.all([m.summarize({ passages, language: "English" }), m.suggestQuestions({ passages, count })]);
    const [summary, written] = await overview(model).catch(() => overview(this.keysetModels.offline));
    const candidates = [overviewRequest(workspace.documentIds.length === 1), ...(model.capabilities.generative ? GENERATIVE_STARTERS : []), ...written];
    if (model.capabilities.generative) return { summary, questions: candidates };
    return { summary, questions: await this.answerable(ownerId, workspace, model, candidates, SUGGESTIONS + 1) };
  }

  /**
   * The first `limit` of the questions that the model, asked each as the chat asks it (the same
   * retrieval, the same passages), answers with a citation (issue 44 item 2): a suggestion the
   * answering model would decline is never offered.
   */
  private async answerable(ownerId: string, workspace: WorkspaceDetail, model: LanguageModel, questions: string[], limit: number): Promise<string[]> {
    const kept: string[] = [];
    for (const question of questions) {
      if (kept.length === limit) break;
      const input = await this.answerInput(ownerId, workspace, model, { question, selectedText: null, history: [], language: "English" });
      for await (const event of model.streamAnswer(input)) if (event.type === "done" && event.citations.length > 0) kept.push(question);
    }
    return kept;
  }

  async get(ownerId: string, conversationId: string) {
    const conversation = await this.owned(ownerId, conversationId);
    return { conversation, messages: await this.messages(ownerId, conversationId) };
  }

  /** Questions the owner has asked, in all conversations (the dashboard's Messages tile). */
  async questionCount(ownerId: string): Promise<number> {
    return questionsAsked(this.readModels, ownerId);
  }

  async listForWorkspace(ownerId: string, workspaceId: string): Promise<ConversationReadModel[]> {
    return conversationsOfWorkspace(this.readModels, ownerId, workspaceId);
  }

  async messages(ownerId: string, conversationId: string): Promise<MessageReadModel[]> {
    return messagesOf(this.readModels, ownerId, conversationId);
  }

  /** The owner's conversation; another user's id answers like a missing one. */
  async owned(ownerId: string, conversationId: string): Promise<ConversationReadModel> {
    const conversation = await ownedConversation(this.readModels, ownerId, conversationId);
    if (!conversation) throw new DomainError("CONVERSATION_NOT_FOUND", "Conversation not found");
    return conversation;
  }

  /** The newest LaTeX of a Resume Builder workspace's resume (the resume context's read side), or null. */
  private async resumeLatex(ownerId: string, workspaceId: string): Promise<string | null> {
    const resume = await resumeOfWorkspace(this.readModels, ownerId, workspaceId);
    if (!resume || resume.latestVersion === 0) return null;
    return (await resumeVersion(this.readModels, resume.id, resume.latestVersion))?.latex ?? null;
  }

  /** The models a user can choose: the built-in one and their keysets' (ModelCatalog). */
  availableModels(ownerId: string) {
    return this.keysetModels.availableFor(ownerId);
  }

  /**
   * The workspace's text (or image) choice as the model that answers, and
   * whether that is the product's keyset: the owner's keyset through its
   * provider, else the product's. A keyset that is gone (deleted, or not the
   * owner's) falls back to the product's keyset rather than failing the chat.
   */
  private modelFor(ownerId: string, workspace: WorkspaceDetail, purpose: "text" | "image" = "text"): Promise<AnsweringModel> {
    return this.keysetModels.answering(ownerId, workspace.chatPreference?.[purpose], purpose);
  }

  /** Dense search with the workspace's embedding model, when it has one (its documents are embedded in the background). */
  private denseSearch(ownerId: string, workspace: WorkspaceDetail) {
    const choice = workspace.chatPreference?.embedding;
    if (!choice) return undefined;
    return {
      space: embeddingSpace(choice),
      embed: async (text: string) => (await (await this.keysetModels.embedder(ownerId, choice)).embed([text]))[0] ?? [],
    };
  }

  /** The question's images; their bytes are read only for a model that can look at them. */
  private async imagesFor(ownerId: string, conversationId: string, mediaIds: string[], model: LanguageModel) {
    return Promise.all(
      mediaIds.map(async (mediaId) => {
        const key = chatImageBlobKey(ownerId, conversationId, mediaId);
        if (!model.capabilities.images) return { contentType: (await this.blobs.head(key))?.contentType ?? "image/*" };
        const blob = await this.blobs.get(key);
        if (!blob) throw new DomainError("MESSAGE_CREATION_FAILURE", "An attached image was not found. Please attach it again.");
        const chunks: Buffer[] = [];
        for await (const chunk of blob.body) chunks.push(chunk as Buffer);
        return { contentType: blob.contentType, data: new Uint8Array(Buffer.concat(chunks)) };
      }),
    );
  }

  /**
   * Holds the question on the owner's message counter before it is asked,
   * when the product's keyset answers it. A question answered by the user's
   * own keyset is not counted: they pay its provider themselves
   * (docs/decisions/110).
   */
  private async reserveMessage(ownerId: string, answering: AnsweringModel, questionId: string, ctx: RequestContext | null, conversationId: string) {
    const counted = answering.throughProductKeyset;
    const at = this.clock.now();
    const metadata = eventMetadata(ctx, ownerId, `conversation-${conversationId}`);
    if (counted) {
      try {
        await this.usage.reserve(ownerId, "messages", questionId, 1, at, metadata);
      } catch (error) {
        if (error instanceof DomainError && error.code === "MESSAGE_LIMIT") throw new DomainError("MESSAGE_CREATION_FAILURE", error.message);
        throw error;
      }
    }
    const release = async () => {
      if (counted) await this.usage.release(ownerId, "messages", questionId, at, metadata);
    };
    return {
      /** Gives the message back: the question got no answer. */
      release,
      /** A question that could not be recorded gives its message back. */
      releaseOnFailure: async <T>(work: () => Promise<T>): Promise<T> => {
        try {
          return await work();
        } catch (error) {
          await release();
          throw error;
        }
      },
    };
  }

  /** `loaded`: the conversation as this request last saw it (a concurrent write is still detected and retried). */
  private execute(conversationId: string, ownerId: string, ctx: RequestContext | null, command: ConversationCommand, loaded?: Loaded<ConversationEvent, ConversationState>) {
    return this.conversations.handle(conversationId, command, { metadata: eventMetadata(ctx, ownerId, `conversation-${conversationId}`), loaded });
  }
}

/** The question's text from the log (the read model may lag behind a question just asked). */
function askedQuestion(events: ConversationEvent[], questionId: string) {
  const asked = events.find((e) => e.type === "QuestionAsked" && e.data.messageId === questionId);
  if (!asked || asked.type !== "QuestionAsked" || !asked.data.personal) throw new DomainError("MESSAGE_NOT_FOUND", "Message not found");
  return { ...asked.data.personal, mediaIds: asked.data.mediaIds ?? [] };
}

/** Whether an answer to the question gave the asker any text (complete, or cut after some): the question was counted then. */
function answeredBefore(events: ConversationEvent[], questionId: string): boolean {
  const answers = new Set(events.flatMap((e) => (e.type === "AnswerStarted" && e.data.questionId === questionId ? [e.data.messageId] : [])));
  return events.some(
    (e) => (e.type === "AnswerCompleted" && answers.has(e.data.messageId)) || (e.type === "AnswerInterrupted" && answers.has(e.data.messageId) && e.data.personal?.partialText !== ""),
  );
}

/** Earlier completed turns, oldest first, up to the question being answered. */
function turnsBefore(events: ConversationEvent[], questionId: string): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (const event of events) {
    if (event.type === "QuestionAsked") {
      if (event.data.messageId === questionId) break;
      turns.push({ role: "user", text: event.data.personal?.text ?? "" });
    } else if (event.type === "AnswerCompleted") {
      turns.push({ role: "assistant", text: event.data.personal?.text ?? "" });
    }
  }
  return turns.slice(-HISTORY_TURNS);
}

/** Citations show only for documents of the workspace and pages they have, once per document-page pair (spec 001 §5). */
export function validCitations(citations: Citation[], workspace: Pick<WorkspaceDetail, "documents">): Citation[] {
  const pages = new Map(workspace.documents.map((d) => [d.documentId, d.pageCount]));
  const seen = new Set<string>();
  return citations.filter((c) => {
    const count = pages.get(c.documentId);
    const key = `${c.documentId}:${c.pageNumber}`;
    if (count === undefined || !Number.isInteger(c.pageNumber) || c.pageNumber < 1 || c.pageNumber > count || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Other wordings of the question from a generative model (query rewrite):
 * one short call, bounded in time; any failure means retrieval goes on with
 * the question alone.
 */
async function alternateQueries(model: LanguageModel, question: string, history: ChatTurn[], signal?: AbortSignal): Promise<string[] | undefined> {
  if (!model.capabilities.generative || !model.alternateQueries) return undefined;
  const bounded = AbortSignal.timeout(QUERY_REWRITE_MS);
  try {
    const queries = await model.alternateQueries({ question, history }, signal ? AbortSignal.any([signal, bounded]) : bounded);
    return queries.length > 0 ? queries : undefined;
  } catch {
    return undefined;
  }
}

const cut = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}…` : text);
