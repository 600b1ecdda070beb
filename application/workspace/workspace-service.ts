import { inject, injectable } from "inversify";
import { v5 as uuidv5 } from "uuid";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { ActivitiesFor } from "#application/ports/workflow";
import { Aggregate } from "#application/shared/aggregate";
import { parseInput } from "#application/shared/parse";
import type { UsageMeter } from "#application/shared/allowance-policy";
import { changeableBy } from "#application/shared/access-policy";
import { eventMetadata, type RequestContext } from "#application/shared/request-context";
import { LibraryQueries } from "#application/library/library-queries";
import { WorkspaceQueries } from "./workspace-queries";
import { KeysetModels } from "#application/identity/keyset-models";
import { DomainError } from "#domain/shared/domain-error";
import { workspacesPage } from "#projections/workspace/workspaces.queries";
import {
  type AttachResult,
  BUILT_IN_KEYSET,
  DEFAULT_CHAT_PREFERENCE,
  type WorkspaceCommand,
  type WorkspaceEvent,
  type WorkspaceState,
} from "#domain/workspace/workspace";
import { workspaceAggregate } from "#domain/workspace/workspace-events";
import {
  attachDocumentsSchema,
  chatPreferenceSchema,
  createWorkspaceSchema,
  renameWorkspaceSchema,
  workspaceSessionSchema,
} from "#domain/workspace/workspace-rules";
import { type LaunchActivityName, type LaunchStepOutcome, workspaceLaunchWorkflowId } from "#workflows/workspace-launch";

/** Namespace for ids derived from a workspace id, so launch steps are idempotent across retries. */
const DERIVED_IDS = "6f1f3c1e-4a8e-4d0a-9a53-5d6f0b9f7c21";

@injectable()
export class WorkspaceService {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(LibraryQueries) private readonly library: LibraryQueries,
    @inject(KeysetModels) private readonly keysetModels: KeysetModels,
    @inject(TOKENS.UsageMeter) private readonly usage: UsageMeter,
    @inject(WorkspaceQueries) private readonly queries: WorkspaceQueries,
  ) {
    this.workspaces = new Aggregate(events, ids, workspaceAggregate);
  }

  private readonly workspaces: Aggregate<WorkspaceCommand, WorkspaceEvent, WorkspaceState>;

  /** Creates the workspace and starts its launch workflow; the launch screen follows its progress. */
  async create(ownerId: string, input: unknown, ctx: RequestContext): Promise<{ workspaceId: string }> {
    const form = parseInput(createWorkspaceSchema, input);
    // A document the owner cannot read is unknown to them (404), and nothing is created for it; one still
    // being prepared is theirs, and the launch reports it per document.
    const readable = new Set((await this.library.readableDocuments(ownerId, form.documentIds)).map((d) => d.id));
    if (form.documentIds.some((id) => !readable.has(id))) throw new DomainError("DOCUMENT_NOT_FOUND", "Document Not Found");
    if (form.chatPreference) await this.checkModels(ownerId, form.chatPreference);
    // No choice in the wizard: the user's defaults from Chat Settings (the built-in keyset until they choose).
    const chatPreference = form.chatPreference ?? (await this.keysetModels.chatPreferenceFor(ownerId).catch(() => DEFAULT_CHAT_PREFERENCE));
    const workspaceId = this.ids.next();
    const at = this.clock.now();
    const metadata = eventMetadata(ctx, ownerId, `workspace-${workspaceId}`);
    await this.usage.reserve(ownerId, "workspaces", workspaceId, 1, at, metadata);
    const result = await this.releaseOnFailure(ownerId, workspaceId, at, metadata, () => this.execute(workspaceId, ownerId, ctx, {
      type: "CreateWorkspace",
      workspaceId,
      ownerId,
      name: form.name,
      description: form.description,
      workspaceType: form.type,
      documentIds: form.documentIds,
      chatPreference,
      now: this.clock.now(),
    }));
    // The launch is started by a reactor (WorkspaceWorkflowStarter); the launch screen can follow it once this returns.
    await this.projections.waitForPosition(result.position);
    return { workspaceId };
  }

  /** The Attach Files dialog (POST attach_documents): a status and reason per document. */
  async attachDocuments(ownerId: string, workspaceId: string, input: unknown, ctx: RequestContext): Promise<AttachResult[]> {
    const { documentIds } = parseInput(attachDocumentsSchema, input);
    await this.owned(ownerId, workspaceId);
    const results = await this.attachResults(ownerId, documentIds);
    const outcome = await this.execute(workspaceId, ownerId, ctx, { type: "AttachDocuments", results, now: this.clock.now(), duringLaunch: false });
    await this.projections.waitForPosition(outcome.position);
    return results;
  }

  async rename(ownerId: string, workspaceId: string, input: unknown, ctx: RequestContext) {
    const form = parseInput(renameWorkspaceSchema, input);
    await this.owned(ownerId, workspaceId);
    const result = await this.execute(workspaceId, ownerId, ctx, { type: "Rename", name: form.name, description: form.description, now: this.clock.now() });
    await this.projections.waitForPosition(result.position);
  }

  async changeChatPreference(ownerId: string, workspaceId: string, input: unknown, ctx: RequestContext) {
    const chatPreference = parseInput(chatPreferenceSchema, input);
    await this.owned(ownerId, workspaceId);
    await this.checkModels(ownerId, chatPreference);
    const result = await this.execute(workspaceId, ownerId, ctx, { type: "ChangeChatPreference", chatPreference, now: this.clock.now() });
    await this.projections.waitForPosition(result.position);
  }

  /** On leaving (or switching): the open files, the open file and the active chat (spec 001 §4). */
  async saveSession(ownerId: string, workspaceId: string, input: unknown, ctx: RequestContext) {
    const session = parseInput(workspaceSessionSchema, input);
    await this.owned(ownerId, workspaceId);
    const result = await this.execute(workspaceId, ownerId, ctx, { type: "SaveSession", session, now: this.clock.now() });
    await this.projections.waitForPosition(result.position);
  }

  async delete(ownerId: string, workspaceIds: string[], ctx: RequestContext) {
    let position = 0;
    for (const workspaceId of workspaceIds) {
      await this.owned(ownerId, workspaceId);
      const result = await this.execute(workspaceId, ownerId, ctx, { type: "Delete", now: this.clock.now() });
      position = Math.max(position, result.position);
    }
    await this.projections.waitForPosition(position);
  }

  /**
   * After a keyset was deleted: every workspace of the owner whose chat
   * preference used it falls back to the built-in keyset and model, each as
   * its own recorded change (spec 001 §4 Keyset deletion). Run by a reactor,
   * so it does not wait for read models.
   */
  /**
   * At start-up: workspaces embedded with a product keyset's embedding model
   * the server no longer runs (the operator changed it) move to its current
   * default, which re-embeds them in the background with progress (decision
   * 043); until then they answer by keyword search, never comparing vectors
   * of two models (decision 190). Returns how many moved.
   */
  async followProductEmbedding(): Promise<number> {
    const page = 200;
    let moved = 0;
    for (let offset = 0; ; offset += page) {
      const rows = await workspacesPage(this.readModels, offset, page);
      for (const workspace of rows) {
        const embedding = workspace.chatPreference?.embedding;
        if (embedding?.keysetId !== BUILT_IN_KEYSET || this.keysetModels.runsProductEmbedding(embedding)) continue;
        const chatPreference = { ...workspace.chatPreference, embedding: this.keysetModels.defaultEmbedding };
        await this.workspaces.handle(workspace.id, { type: "ChangeChatPreference", chatPreference, now: this.clock.now() }, {
          metadata: { correlationId: `product-embedding-${workspace.id}`, actorId: workspace.ownerId, subjectId: workspace.ownerId },
        });
        moved++;
      }
      if (rows.length < page) return moved;
    }
  }

  async fallBackFromKeyset(ownerId: string, keysetId: string, metadata: EventMetadata): Promise<void> {
    const { workspaces } = await this.queries.list(ownerId);
    const uses = (choice: { keysetId: string } | null) => choice?.keysetId === keysetId;
    for (const workspace of workspaces) {
      const preference = workspace.chatPreference;
      if (!preference || (!uses(preference.text) && !uses(preference.image) && !uses(preference.embedding))) continue;
      const chatPreference = {
        text: uses(preference.text) ? DEFAULT_CHAT_PREFERENCE.text : preference.text,
        image: uses(preference.image) ? DEFAULT_CHAT_PREFERENCE.image : preference.image,
        embedding: uses(preference.embedding) ? this.keysetModels.defaultEmbedding : preference.embedding,
      };
      await this.workspaces.handle(workspace.id, { type: "ChangeChatPreference", chatPreference, now: this.clock.now() }, { metadata });
    }
  }

  /** Only the built-in keyset or the owner's own keysets (another user's keyset id answers KEYSET_NOT_FOUND). */
  private async checkModels(ownerId: string, preference: { text: { keysetId: string; model: string }; image: { keysetId: string; model: string }; embedding: { keysetId: string; model: string } | null }) {
    await this.keysetModels.assertAvailable(ownerId, preference.text);
    await this.keysetModels.assertAvailable(ownerId, preference.image);
    if (preference.embedding) await this.keysetModels.assertAvailable(ownerId, preference.embedding, "embedding");
  }

  /** Workspaces left this month on the owner's plan. */
  async remainingWorkspaces(ownerId: string): Promise<{ used: number; limit: number | null }> {
    const { monthly } = await this.usage.usage(ownerId, "workspaces", this.clock.now());
    return { used: monthly.used, limit: monthly.limit };
  }

  /** The launch workflow's activities. */
  activities(): ActivitiesFor<LaunchActivityName> {
    const step = (fn: (workspaceId: string) => Promise<LaunchStepOutcome>) => async (input: unknown) =>
      fn((input as { workspaceId: string }).workspaceId);
    return {
      "workspace.attachRequestedDocuments": step(async (workspaceId) => {
        const ws = await this.load(workspaceId);
        if (!ws.exists || ws.status === "DELETED") return { ok: false, reason: "Workspace does not exist" };
        const pending = ws.requestedDocumentIds.filter((id) => !ws.documentIds.includes(id));
        if (pending.length > 0) {
          const results = await this.attachResults(ws.ownerId, pending);
          await this.execute(workspaceId, ws.ownerId, null, { type: "AttachDocuments", results, now: this.clock.now(), duringLaunch: true });
        }
        const { state: after, events } = await this.workspaces.load(workspaceId);
        if (after.exists && after.documentIds.length === 0) {
          const reasons = events.flatMap((e) => (e.type === "DocumentsAttached" ? e.data.results.map((r) => r.reason) : [])).filter(Boolean);
          return { ok: false, reason: `None of the chosen documents could be attached: ${[...new Set(reasons)].join("; ")}` };
        }
        return { ok: true };
      }),
      "workspace.createFirstConversation": step(async (workspaceId) => {
        const ws = await this.load(workspaceId);
        if (!ws.exists) return { ok: false, reason: "Workspace does not exist" };
        const conversationId = uuidv5(`${workspaceId}:first-conversation`, DERIVED_IDS);
        // The conversation context starts it on FirstConversationCreated (FirstConversationStarter).
        await this.execute(workspaceId, ws.ownerId, null, { type: "RecordFirstConversation", conversationId });
        return { ok: true };
      }),
      "workspace.createResume": step(async (workspaceId) => {
        const ws = await this.load(workspaceId);
        if (!ws.exists) return { ok: false, reason: "Workspace does not exist" };
        if (ws.type !== "Resume Builder") return { ok: true };
        const resumeId = uuidv5(`${workspaceId}:resume`, DERIVED_IDS);
        await this.execute(workspaceId, ws.ownerId, null, { type: "RecordResume", resumeId });
        return { ok: true };
      }),
      "workspace.activate": step(async (workspaceId) => {
        const ws = await this.load(workspaceId);
        if (!ws.exists) return { ok: false, reason: "Workspace does not exist" };
        await this.execute(workspaceId, ws.ownerId, null, { type: "CompleteLaunch", now: this.clock.now() });
        return { ok: true };
      }),
      "workspace.failLaunch": async (input) => {
        const { workspaceId, reason } = input as { workspaceId: string; reason: string };
        const ws = await this.load(workspaceId);
        if (ws.exists) await this.execute(workspaceId, ws.ownerId, null, { type: "FailLaunch", reason, now: this.clock.now() });
        return null;
      },
    };
  }

  private async attachResults(ownerId: string, documentIds: string[]): Promise<AttachResult[]> {
    return Promise.all(
      documentIds.map(async (documentId): Promise<AttachResult> => {
        // Own documents, and documents a community shares with the owner (not copied: read through the access policy).
        const document = await this.library.readableDocument(ownerId, documentId).catch(() => null);
        if (!document) return { documentId, status: "ATTACH_FAILED", reason: "Document Not Found" };
        if (document.status !== "ACTIVE") {
          const reason = document.status === "FAILED" ? `${document.name} failed to upload` : `${document.name} is in progress`;
          return { documentId, status: "ATTACH_FAILED", reason };
        }
        return { documentId, status: "ATTACH_SUCCESS", reason: null };
      }),
    );
  }

  /** A workspace that could not be created gives back the one it reserved. */
  private async releaseOnFailure<T>(ownerId: string, workspaceId: string, at: Date, metadata: EventMetadata, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await this.usage.release(ownerId, "workspaces", workspaceId, at, metadata);
      throw error;
    }
  }

  private async load(workspaceId: string) {
    return (await this.workspaces.load(workspaceId)).state;
  }

  /** The owner's live workspace, or WORKSPACE_NOT_EXIST — also for another user's id. */
  private async owned(ownerId: string, workspaceId: string) {
    const ws = await this.load(workspaceId);
    const live = ws.exists && ws.status !== "DELETED" ? ws : null;
    return changeableBy(live, ownerId, () => new DomainError("WORKSPACE_NOT_EXIST", "Workspace does not exist"));
  }

  private async execute(workspaceId: string, ownerId: string, ctx: RequestContext | null, command: WorkspaceCommand) {
    // A chosen embedding model, or documents joining a workspace that has one, re-embed in the background (WorkspaceWorkflowStarter).
    return this.workspaces.handle(workspaceId, command, {
      metadata: eventMetadata(ctx, ownerId, workspaceLaunchWorkflowId(workspaceId)),
    });
  }
}
