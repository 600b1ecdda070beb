import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { BlobStore } from "#application/ports/blob-store";
import type { Clock } from "#application/ports/clock";
import type { EventStore, RecordedEvent } from "#application/ports/event-store";
import type { Reactor } from "#application/ports/reactor";
import type { IdGenerator } from "#application/ports/ids";
import type { Mailer } from "#application/ports/mailer";
import type { DeletedDataCompactor, SubjectKeyStore } from "#application/ports/personal-data";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { SearchIndex } from "#application/ports/search-index";
import type { SecretHasher, SessionStore } from "#application/ports/sessions";
import type { ActivitiesFor, WorkflowEngine } from "#application/ports/workflow";
import type { AppSettings } from "#application/shared/app-settings";
import { Aggregate } from "#application/shared/aggregate";
import { parseInput } from "#application/shared/parse";
import { aggregateIdIn } from "#domain/shared/decider";
import { type RequestContext, requestMetadata } from "#application/shared/request-context";
import { deleteAccountSchema } from "#domain/identity/profile";
import type { ReservationCommand, ReservationEvent, ReservationKind, ReservationState } from "#domain/identity/reservation";
import { reservationAggregate } from "#domain/identity/identity-events";
import { userAggregate } from "#domain/identity/user-events";
import { type UserCommand, type UserEvent, type UserState, userStreamId } from "#domain/identity/user";
import {
  type AccountDeletionActivityName,
  type AccountDeletionInput,
  accountDeletionWorkflow,
  accountDeletionWorkflowId,
  type DeletionPlan,
} from "#workflows/account-deletion";
import { reservationStreamFor } from "./reservations";

const PROJECTION_WAIT_MS = 30_000;

/** Blob prefixes that hold a user's files (library sources and pages, avatars). */
export const userBlobPrefixes = (userId: string) => [`documents/${userId}/`, `avatars/${userId}/`, `media/${userId}/`, `compiles/${userId}/`];

/**
 * Scheduling and retrieving an account's deletion (spec 001 §4, §5). The
 * decision is an event on the user stream; the account-deletion workflow
 * waits out the grace period and purges (ARCHITECTURE §5, §7).
 */
@injectable()
export class AccountDeletionService {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(TOKENS.Config) private readonly settings: AppSettings,
  ) {
    this.users = new Aggregate(events, ids, userAggregate);
  }

  private readonly users: Aggregate<UserCommand, UserEvent, UserState>;

  async schedule(userId: string, input: unknown, ctx: RequestContext): Promise<{ purgeAt: string }> {
    const form = parseInput(deleteAccountSchema, input);
    const result = await this.execute(
      userId,
      { type: "ScheduleAccountDeletion", reason: form.reason, graceMs: this.settings.accountDeletionGraceMs, now: this.clock.now() },
      ctx,
    );
    const scheduled = result.events.find((e) => e.type === "AccountDeletionScheduled");
    // AccountDeletionReactor starts (or wakes) the deletion run; waiting covers it.
    await this.projections.waitForPosition(result.position);
    return { purgeAt: scheduled && scheduled.type === "AccountDeletionScheduled" ? scheduled.data.purgeAt : "" };
  }

  async retrieve(userId: string, ctx: RequestContext): Promise<void> {
    const result = await this.execute(userId, { type: "RetrieveAccount", now: this.clock.now() }, ctx);
    // AccountDeletionReactor wakes the waiting run; waiting covers it.
    await this.projections.waitForPosition(result.position);
  }

  private execute(userId: string, command: UserCommand, ctx: RequestContext) {
    return this.users.handle(userId, command, { metadata: requestMetadata(ctx, userId) });
  }
}


/**
 * Follows the user stream's deletion decisions: the first schedule starts the
 * user's one deletion run, a later schedule or a retrieval wakes it (the run
 * re-reads the account, so a replayed event changes nothing).
 */
@injectable()
export class AccountDeletionReactor implements Reactor {
  readonly name = "identity.account-deletion";
  readonly eventTypes = ["AccountDeletionScheduled", "AccountRetrieved"];

  constructor(@inject(TOKENS.WorkflowEngine) private readonly workflows: WorkflowEngine) {}

  async react(event: RecordedEvent): Promise<void> {
    const userId = aggregateIdIn(event.streamId, userStreamId);
    const id = accountDeletionWorkflowId(userId);
    const at = event.recordedAt;
    const run = await this.workflows.describe(id);
    // A replayed event may find the run finished (the account purged): nothing is left to wake.
    if (run && run.status !== "running") return;
    if (event.type === "AccountRetrieved") {
      if (run) await this.workflows.signal(id, "retrieve", { at });
      return;
    }
    if (!run) await this.workflows.start<AccountDeletionInput>(accountDeletionWorkflow, id, { userId });
    else await this.workflows.signal(id, "schedule", { at });
  }
}

/**
 * The purge steps the workflow calls. Each is idempotent: the decider records
 * nothing twice, deletes of what is gone are no-ops, releases of a value the
 * user no longer holds record nothing.
 */
@injectable()
export class AccountDeletionActivities {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.SessionStore) private readonly sessions: SessionStore,
    @inject(TOKENS.SubjectKeys) private readonly subjectKeys: SubjectKeyStore,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.SearchIndex) private readonly search: SearchIndex,
    @inject(TOKENS.SecretHasher) private readonly secrets: SecretHasher,
    @inject(TOKENS.Mailer) private readonly mailer: Mailer,
    @inject(TOKENS.DeletedDataCompactor) private readonly compactor: DeletedDataCompactor,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
  ) {
    this.users = new Aggregate(events, ids, userAggregate);
    this.reservations = new Aggregate(events, ids, reservationAggregate);
  }

  private readonly users: Aggregate<UserCommand, UserEvent, UserState>;
  private readonly reservations: Aggregate<ReservationCommand, ReservationEvent, ReservationState>;

  registry(): ActivitiesFor<AccountDeletionActivityName> {
    const step = <R>(fn: (input: AccountDeletionInput) => Promise<R>) => (input: unknown) => fn(input as AccountDeletionInput);
    return {
      "identity.deletionPlan": step((i) => this.plan(i)),
      "identity.purge.start": step((i) => this.start(i)),
      // Revoked, then the rows deleted: a purged account keeps no session history.
      "identity.purge.revokeSessions": step(async ({ userId }) => {
        const revoked = (await this.sessions.revokeAllForUser(userId)).length;
        await this.sessions.deleteAllForUser(userId);
        return revoked;
      }),
      "identity.purge.deleteBlobs": step(async ({ userId }) => {
        let deleted = 0;
        for (const prefix of userBlobPrefixes(userId)) deleted += await this.blobs.deletePrefix(prefix);
        return deleted;
      }),
      "identity.purge.deleteSearchEntries": step(async ({ userId }) => {
        await this.search.deleteOwner(userId);
        return null;
      }),
      "identity.purge.deleteMail": step((i) => this.deleteMail(i)),
      "identity.purge.releaseReservations": step((i) => this.releaseReservations(i)),
      "identity.purge.forgetSubjectKey": step(async ({ userId }) => {
        await this.subjectKeys.forget(userId);
        return null;
      }),
      "identity.purge.complete": step(async ({ userId }) => {
        await this.execute(userId, { type: "CompletePurge", now: this.clock.now() });
        return null;
      }),
      "identity.purge.compactStores": step(() => this.compactStores()),
    };
  }

  /** Copies of mails kept by the mailer (the dev mailbox). Runs while the email can still be read. */
  async deleteMail({ userId }: AccountDeletionInput): Promise<number> {
    const user = await this.load(userId);
    if (!user.registered || !user.email || !this.mailer.forgetRecipient) return 0;
    return this.mailer.forgetRecipient(user.email);
  }

  /**
   * Last: once the projectors have deleted the read models (they react to
   * AccountPurged), the stores drop the deleted bytes (decision 081).
   */
  async compactStores(): Promise<{ projected: boolean }> {
    const projected = await this.projections.waitForPosition(await this.events.headPosition(), PROJECTION_WAIT_MS);
    // Not caught up in time: the step fails and is retried, rather than compact too early.
    if (!projected) throw new Error("The read models have not caught up with the purge yet");
    await this.compactor.compact();
    return { projected };
  }

  async plan({ userId }: AccountDeletionInput): Promise<DeletionPlan> {
    const user = await this.load(userId);
    if (!user.registered) return { status: "MISSING", purgeAt: null };
    return { status: user.status, purgeAt: user.purgeAt === null ? null : new Date(user.purgeAt).toISOString() };
  }

  async start({ userId }: AccountDeletionInput): Promise<{ started: boolean }> {
    await this.execute(userId, { type: "StartPurge", now: this.clock.now() });
    const user = await this.load(userId);
    return { started: user.registered && (user.status === "PURGING" || user.status === "PURGED") };
  }

  /**
   * Frees the username and email so they can be used again (decision 021).
   * Runs before the key is forgotten: afterwards nobody can tell which values they were.
   */
  async releaseReservations({ userId }: AccountDeletionInput): Promise<number> {
    const user = await this.load(userId);
    if (!user.registered) return 0;
    let released = 0;
    const values: [ReservationKind, string][] = [
      ["username", user.username],
      ["email", user.email],
    ];
    for (const [kind, value] of values) {
      if (!value) continue; // already shredded: nothing readable to release
      const result = await this.reservations.handle(
        reservationStreamFor(this.secrets, kind, value),
        { type: "Release", userId, now: this.clock.now() },
        { metadata: { correlationId: accountDeletionWorkflowId(userId), actorId: "system" } },
      );
      released += result.events.length;
    }
    return released;
  }

  private async load(userId: string): Promise<UserState> {
    return (await this.users.load(userId)).state;
  }

  private execute(userId: string, command: UserCommand) {
    return this.users.handle(userId, command, {
      metadata: { correlationId: accountDeletionWorkflowId(userId), actorId: "system", subjectId: userId },
    });
  }
}
