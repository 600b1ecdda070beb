import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { LanguageModel } from "#application/ports/language-model";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { Aggregate } from "#application/shared/aggregate";
import { changeableBy } from "#application/shared/access-policy";
import { eventMetadata, type RequestContext } from "#application/shared/request-context";
import { KeysetModels } from "#application/identity/keyset-models";
import { LibraryQueries } from "#application/library/library-queries";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import type { ResumeCommand, ResumeEvent, ResumeState, ResumeVersionContent } from "#domain/resume/resume";
import { resumeAggregate } from "#domain/resume/resume-events";
import { outlineResume, type SourceDocument } from "#domain/resume/resume-outline";
import { renderResume } from "#domain/resume/resume-template";
import { DomainError } from "#domain/shared/domain-error";
import { ownedConversation } from "#projections/conversation/conversations.queries";
import { type ResumeReadModel, ownedResume, resumeOfWorkspace } from "#projections/resume/resumes.queries";
import { extractLatexBlock } from "#domain/resume/latex-blocks";
import { LatexCompilation } from "./latex-compilation";

/** Who wrote a version the built-in model drafted or repaired. */
export const BUILT_IN_AUTHOR = "built-in";
/** Document text handed to a provider model to draft from. */
const DRAFT_TEXT_LIMIT = 24_000;

const notFound = () => new DomainError("RESUME_NOT_FOUND", "Resume not found");

/**
 * The resume of a Resume Builder workspace (docs/decisions/131): started by
 * the launch, drafted from the workspace's documents (offline by section
 * detection, or by the user's provider model), saved as versions from the
 * editor or the chat, restored. A version from the editor or the chat is
 * saved only when it compiles.
 */
@injectable()
export class ResumeService {
  private readonly resumes: Aggregate<ResumeCommand, ResumeEvent, ResumeState>;

  constructor(
    @inject(TOKENS.EventStore) events: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(WorkspaceQueries) private readonly workspaces: WorkspaceQueries,
    @inject(LibraryQueries) private readonly library: LibraryQueries,
    @inject(KeysetModels) private readonly keysetModels: KeysetModels,
    @inject(LatexCompilation) private readonly compilation: LatexCompilation,
  ) {
    this.resumes = new Aggregate(events, ids, resumeAggregate);
  }

  /** Idempotent by resume id: the workspace launch's `ResumeCreated` starts it. */
  async start(input: { resumeId: string; workspaceId: string; ownerId: string }) {
    return this.resumes.handle(input.resumeId, { type: "StartResume", ...input, now: this.clock.now() }, {
      metadata: eventMetadata(null, input.ownerId, `resume-${input.resumeId}`),
    });
  }

  /**
   * The first version, from the workspace's documents. The built-in model
   * outlines them into the template; a provider model writes the LaTeX, and
   * what it writes is kept only if it compiles (else the outline is used).
   */
  async draft(resumeId: string): Promise<void> {
    const { state } = await this.resumes.load(resumeId);
    if (state.status !== "DRAFTING") return;
    const workspace = await this.workspaces.get(state.ownerId, state.workspaceId);
    const documents: SourceDocument[] = [];
    for (const document of workspace.documents) {
      const pages = await this.library.pages(state.ownerId, document.documentId).catch(() => []);
      documents.push({ documentId: document.documentId, pages: pages.map((p) => ({ pageNumber: p.pageNumber, text: p.text })) });
    }
    const outlined = renderResume(outlineResume(documents), workspace.name || "Your Name");
    let content: ResumeVersionContent = outlined;
    let author = BUILT_IN_AUTHOR;
    const model = await this.keysetModels.resolve(state.ownerId, workspace.chatPreference.text).catch(() => null);
    if (model?.capabilities.generative) {
      const written = await this.writtenBy(model, documents, outlined.latex).catch(() => null);
      if (written && (await this.compilation.compile(state.ownerId, written)).ok) {
        content = { latex: written, sources: [] };
        author = model.id;
      }
    }
    await this.resumes.handle(resumeId, { type: "SaveResumeVersion", content, origin: "draft", author, now: this.clock.now() }, {
      metadata: eventMetadata(null, state.ownerId, `resume-${resumeId}`),
    });
  }

  /** Save from the editor (or restore's sibling): refused unless it compiles without error. */
  async save(ownerId: string, resumeId: string, latex: string, origin: "editor" | "chat", author: string, ctx: RequestContext) {
    const resume = changeableBy(await ownedResume(this.store, ownerId, resumeId), ownerId, notFound);
    await this.mustCompile(ownerId, latex);
    const result = await this.resumes.handle(resume.id, { type: "SaveResumeVersion", content: { latex, sources: [] }, origin, author, now: this.clock.now() }, {
      metadata: eventMetadata(ctx, ownerId, `resume-${resume.id}`),
    });
    await this.projections.waitForPosition(result.position);
    return { version: versionOf(result.state) };
  }

  async restore(ownerId: string, resumeId: string, version: number, ctx: RequestContext) {
    const resume = changeableBy(await ownedResume(this.store, ownerId, resumeId), ownerId, notFound);
    const result = await this.resumes.handle(resume.id, { type: "RestoreResumeVersion", version, now: this.clock.now() }, {
      metadata: eventMetadata(ctx, ownerId, `resume-${resume.id}`),
    });
    await this.projections.waitForPosition(result.position);
    return { version: versionOf(result.state) };
  }

  /**
   * PUT /conversations/{id}/update_resume (spec 001 §7): the new content of the
   * resume of the conversation's workspace. A complete resume is the whole
   * document; otherwise user_query is an answer holding a LaTeX block.
   */
  async updateFromConversation(ownerId: string, conversationId: string, userQuery: string, isCompleteResume: boolean, ctx: RequestContext) {
    const resume = await this.resumeOfConversation(ownerId, conversationId);
    const latex = isCompleteResume ? userQuery : extractLatexBlock(userQuery);
    if (!latex) throw new DomainError("VALIDATION", "The message holds no LaTeX resume to save.");
    return this.save(ownerId, resume.id, latex, isCompleteResume ? "editor" : "chat", "user", ctx);
  }

  /** Records a Retry of a chat answer's LaTeX (001 §4) and whether its answer compiled. */
  async recordRepair(ownerId: string, conversationId: string, attempt: { attempt: number; error: string; fixed: boolean; author: string }, ctx: RequestContext) {
    const resume = await this.resumeOfConversation(ownerId, conversationId);
    const result = await this.resumes.handle(resume.id, { type: "RecordRepairAttempt", ...attempt, now: this.clock.now() }, {
      metadata: eventMetadata(ctx, ownerId, `resume-${resume.id}`),
    });
    return { attempts: result.state.status === "NONE" ? 0 : result.state.repairAttempts };
  }

  private async resumeOfConversation(ownerId: string, conversationId: string): Promise<ResumeReadModel> {
    const conversation = await ownedConversation(this.store, ownerId, conversationId);
    if (!conversation) throw new DomainError("CONVERSATION_NOT_FOUND", "Conversation not found");
    const resume = await resumeOfWorkspace(this.store, ownerId, conversation.workspaceId);
    if (!resume) throw new DomainError("RESUME_NOT_FOUND", "This workspace has no resume.");
    return resume;
  }

  private async mustCompile(ownerId: string, latex: string) {
    const compiled = await this.compilation.compile(ownerId, latex);
    if (!compiled.ok) throw new DomainError("RESUME_DOES_NOT_COMPILE", compiled.error.message);
  }

  private async writtenBy(model: LanguageModel, documents: SourceDocument[], template: string): Promise<string | null> {
    const text = documents
      .flatMap((d) => d.pages.map((p) => p.text))
      .join("\n\n")
      .slice(0, DRAFT_TEXT_LIMIT);
    const question = [
      "Write my resume as one complete LaTeX document, in a single ```latex code block and nothing else.",
      "Start from the first draft below, made from my documents: keep its preamble and macros (\\resumeSubheading, \\resumeItem, \\resumeSubHeadingListStart/End, \\resumeItemListStart/End).",
      "Sections: name and contact, Summary, Experience, Education, Projects, Skills. Use only facts from my documents; escape & % $ # _ in text.",
      `The first draft:\n\`\`\`latex\n${template}\`\`\``,
    ].join("\n\n");
    let answer = "";
    for await (const event of model.streamAnswer({
      question,
      history: [],
      passages: [{ chunkId: "resume-documents", documentId: documents[0]?.documentId ?? "", documentName: "My documents", pageNumber: 1, text, score: 1 }],
      language: "English",
    })) {
      if (event.type === "text") answer += event.text;
    }
    return extractLatexBlock(answer);
  }
}

const versionOf = (state: ResumeState) => (state.status === "NONE" ? 0 : (state.versions.at(-1)?.version ?? 0));
