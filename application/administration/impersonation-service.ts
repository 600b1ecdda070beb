import { randomBytes } from "node:crypto";
import { inject, injectable } from "inversify";
import { z } from "zod";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { SecretHasher, SessionStore } from "#application/ports/sessions";
import { Aggregate } from "#application/shared/aggregate";
import { parseInput } from "#application/shared/parse";
import { type RequestContext, requestMetadata } from "#application/shared/request-context";
import { adminRoleAggregate, impersonationAggregate } from "#domain/administration/administration-events";
import type { AdminRoleCommand, AdminRoleEvent, AdminRoleState } from "#domain/administration/admin-role";
import {
  type EndCause,
  type ImpersonationCommand,
  type ImpersonationEvent,
  type ImpersonationState,
  REASON_MAX_LENGTH,
  type ViewedKind,
} from "#domain/administration/impersonation";
import { DomainError, isDomainError } from "#domain/shared/domain-error";
import { activeImpersonationsOf } from "#projections/administration/impersonations.queries";
import type { ImpersonationReadModel } from "#projections/administration/impersonations.queries";
import { userById } from "#projections/identity/users.queries";
import { impersonationExpiryWorkflowId } from "#workflows/impersonation-expiry";

export const startImpersonationSchema = z.object({
  userId: z.string().trim().min(1, "Choose a user to impersonate.").max(100),
  reason: z.string().max(REASON_MAX_LENGTH * 2).default(""),
});

/** An impersonation session a request runs under (decision 101). */
export interface ImpersonationSession {
  impersonationId: string;
  adminId: string;
  userId: string;
  /** ISO-8601; the top bar counts down to it. */
  deadline: string;
}

/** What the admin's impersonation cookie resolved to: a live session, one that just ended, or nothing. */
export type ResolvedImpersonation = { state: "active"; session: ImpersonationSession } | { state: "ended"; cause: EndCause } | { state: "none" };

const SESSION_PURPOSE = "impersonation-session";
const SYSTEM = "system";

/**
 * Starting, ending and recording an admin's impersonation (spec 001 §4, §6).
 * Starting also opens a separate server-side session naming both people; the
 * admin's own session is left untouched, so ending restores it.
 */
@injectable()
export class ImpersonationService {
  private readonly impersonations: Aggregate<ImpersonationCommand, ImpersonationEvent, ImpersonationState>;
  private readonly roles: Aggregate<AdminRoleCommand, AdminRoleEvent, AdminRoleState>;

  constructor(
    @inject(TOKENS.EventStore) events: EventStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
    @inject(TOKENS.SessionStore) private readonly sessions: SessionStore,
    @inject(TOKENS.SecretHasher) private readonly secrets: SecretHasher,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
  ) {
    this.impersonations = new Aggregate(events, ids, impersonationAggregate);
    this.roles = new Aggregate(events, ids, adminRoleAggregate);
  }

  /** Starts an impersonation and its session; the token goes into the admin's impersonation cookie. */
  async start(adminId: string, input: unknown, ctx: RequestContext): Promise<{ impersonationId: string; token: string; deadline: string }> {
    const form = parseInput(startImpersonationSchema, input);
    const now = this.clock.now();
    const actorIsAdmin = (await this.roles.load(adminId)).state.isAdmin;
    const adminHasRunning = (await this.runningOf(adminId)).length > 0;
    const user = await userById(this.store, form.userId);
    const status = user && user.confirmed && user.status ? user.status : null;
    const impersonationId = this.ids.next();
    const result = await this.impersonations.handle(
      impersonationId,
      {
        type: "StartImpersonation",
        impersonationId,
        adminId,
        actorIsAdmin,
        adminHasRunning,
        target: {
          userId: form.userId,
          status,
          isAdmin: status !== null && (await this.roles.load(form.userId)).state.isAdmin,
          displayName: user ? [user.firstName, user.lastName].filter(Boolean).join(" ") || user.username : "",
        },
        reason: form.reason,
        now,
      },
      { metadata: { ...requestMetadata(ctx, form.userId), actorId: adminId } },
    );
    const started = result.events[0];
    if (started?.type !== "ImpersonationStarted") throw new DomainError("IMPERSONATION_EXISTS", "This impersonation was already started.");
    const token = randomBytes(32).toString("base64url");
    await this.sessions.create({
      ref: this.secrets.hash(SESSION_PURPOSE, token),
      userId: form.userId,
      createdAt: now.toISOString(),
      expiresAt: started.data.deadline,
      impersonatorId: adminId,
      impersonationId,
    });
    // The reaction starts the expiry timer; the history shows the new row.
    await this.projections.waitForPosition(result.position);
    return { impersonationId, token, deadline: started.data.deadline };
  }

  /**
   * The server's own check on every request (decision 101): the cookie's
   * session must be live, belong to this admin, and its impersonation still
   * run; past the deadline it is ended by expiry here and then.
   */
  async resolve(token: string, adminId: string): Promise<ResolvedImpersonation> {
    if (!token) return { state: "none" };
    const ref = this.secrets.hash(SESSION_PURPOSE, token);
    const now = this.clock.now();
    // find() answers null past expiresAt (the deadline): the stream says how it ended.
    const session = await this.sessions.find(ref, new Date(0));
    if (!session || session.impersonatorId !== adminId || !session.impersonationId) return { state: "none" };
    const resolved = await this.resolveStream(session.impersonationId, now);
    if (resolved.state !== "active") await this.sessions.revoke(ref);
    return resolved;
  }

  /** The admin ends their own impersonation (Exit Admin Mode); the cookie's session is revoked. */
  async end(token: string, adminId: string, ctx: RequestContext): Promise<void> {
    const ref = this.secrets.hash(SESSION_PURPOSE, token);
    const session = await this.sessions.find(ref, new Date(0));
    if (!session || session.impersonatorId !== adminId || !session.impersonationId) throw new DomainError("IMPERSONATION_NOT_FOUND", "No such impersonation.");
    await this.sessions.revoke(ref);
    await this.endById(session.impersonationId, "admin", adminId, this.metadata(ctx, session.userId, adminId, session.impersonationId));
  }

  /**
   * The admin's own running impersonation, if any: one left open (a closed
   * browser keeps no Exit Admin Mode) is shown on the dashboard to be ended.
   * Only from a consistent read of each candidate's stream.
   */
  async runningOf(adminId: string): Promise<ImpersonationReadModel[]> {
    const now = this.clock.now();
    const running: ImpersonationReadModel[] = [];
    for (const candidate of await activeImpersonationsOf(this.store, adminId)) {
      if ((await this.resolveStream(candidate.id, now)).state === "active") running.push(candidate);
    }
    return running;
  }

  /** The admin ends their own running impersonation without its cookie (the dashboard's End); its session stops at its next request. */
  async endOwn(adminId: string, impersonationId: string, ctx: RequestContext): Promise<void> {
    const { state } = await this.impersonations.load(impersonationId);
    if (state.status === "None" || state.adminId !== adminId) throw new DomainError("IMPERSONATION_NOT_FOUND", "No such impersonation.");
    if (state.status !== "Running") return;
    await this.endById(impersonationId, "admin", adminId, { ...requestMetadata(ctx, state.userId), actorId: adminId });
  }

  /** Another admin ends a running impersonation (forced); its session stops at its next request. */
  async forceEnd(byAdminId: string, impersonationId: string, ctx: RequestContext): Promise<void> {
    if (!(await this.roles.load(byAdminId)).state.isAdmin) throw new DomainError("NOT_ADMIN", "Only an admin can end an impersonation.");
    const loaded = await this.impersonations.load(impersonationId);
    if (loaded.state.status === "None") throw new DomainError("IMPERSONATION_NOT_FOUND", "No such impersonation.");
    await this.endById(impersonationId, "forced", byAdminId, { ...requestMetadata(ctx, loaded.state.userId), actorId: byAdminId });
  }

  /** The expiry workflow's step: ends it by expiry unless it already ended (exactly once). */
  async expire(impersonationId: string): Promise<{ expired: boolean }> {
    const loaded = await this.impersonations.load(impersonationId);
    if (loaded.state.status !== "Running") return { expired: false };
    const result = await this.impersonations.handle(
      impersonationId,
      { type: "EndImpersonation", cause: "expiry", endedById: SYSTEM, now: this.clock.now() },
      { metadata: { correlationId: impersonationExpiryWorkflowId(impersonationId), actorId: SYSTEM, subjectId: loaded.state.userId }, loaded },
    );
    return { expired: result.events.length > 0 };
  }

  /**
   * Opening a document, workspace or conversation while impersonating is
   * recorded on the impersonation's stream (allowed during impersonation).
   * Outside an impersonation it does nothing; a refusal (ended meanwhile) is not the page's concern.
   */
  async recordView(ctx: RequestContext, kind: ViewedKind, resourceId: string, title: string): Promise<void> {
    if (!ctx.impersonationId || !ctx.impersonatorId || !ctx.actorId) return;
    try {
      await this.impersonations.handle(
        ctx.impersonationId,
        { type: "RecordView", kind, resourceId, title, now: this.clock.now() },
        { metadata: this.metadata(ctx, ctx.actorId, ctx.impersonatorId, ctx.impersonationId), allowDuringImpersonation: true },
      );
    } catch (error) {
      if (!isDomainError(error)) throw error;
    }
  }

  private async resolveStream(impersonationId: string, now: Date): Promise<ResolvedImpersonation> {
    const loaded = await this.impersonations.load(impersonationId);
    const { state } = loaded;
    if (state.status === "None") return { state: "none" };
    if (state.status === "Ended") return { state: "ended", cause: state.cause };
    if (now.getTime() >= state.deadline) {
      await this.expire(impersonationId);
      return { state: "ended", cause: "expiry" };
    }
    return { state: "active", session: { impersonationId, adminId: state.adminId, userId: state.userId, deadline: new Date(state.deadline).toISOString() } };
  }

  private async endById(impersonationId: string, cause: EndCause, endedById: string, metadata: EventMetadata) {
    const result = await this.impersonations.handle(
      impersonationId,
      { type: "EndImpersonation", cause, endedById, now: this.clock.now() },
      { metadata, allowDuringImpersonation: true },
    );
    await this.projections.waitForPosition(result.position);
  }

  /** Metadata of a command run inside the impersonation: the user acted, named with the admin and the impersonation. */
  private metadata(ctx: RequestContext, userId: string, adminId: string, impersonationId: string): EventMetadata {
    return requestMetadata({ ...ctx, actorId: userId, impersonatorId: adminId, impersonationId }, userId);
  }
}
