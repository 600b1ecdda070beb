import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore, RecordedEvent } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { Reactor } from "#application/ports/reactor";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { AppSettings } from "#application/shared/app-settings";
import { Aggregate } from "#application/shared/aggregate";
import { type RequestContext, requestMetadata } from "#application/shared/request-context";
import { adminRoleAggregate } from "#domain/administration/administration-events";
import { type AdminRoleCommand, type AdminRoleEvent, type AdminRoleState, BY_CONFIGURATION } from "#domain/administration/admin-role";
import { DomainError } from "#domain/shared/domain-error";
import { userById } from "#projections/identity/users.queries";

/** Granting and revoking the admin role (decision 100): a command an existing admin runs. */
@injectable()
export class AdminRoles {
  private readonly roles: Aggregate<AdminRoleCommand, AdminRoleEvent, AdminRoleState>;

  constructor(
    @inject(TOKENS.EventStore) events: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
  ) {
    this.roles = new Aggregate(events, ids, adminRoleAggregate);
  }

  grant(byAdminId: string, userId: string, ctx: RequestContext) {
    return this.change("GrantAdminRole", byAdminId, userId, ctx);
  }

  revoke(byAdminId: string, userId: string, ctx: RequestContext) {
    return this.change("RevokeAdminRole", byAdminId, userId, ctx);
  }

  private async change(type: AdminRoleCommand["type"], byAdminId: string, userId: string, ctx: RequestContext): Promise<void> {
    const user = await userById(this.store, userId);
    if (!user || !user.confirmed) throw new DomainError("USER_NOT_FOUND", "No such user.");
    const byIsAdmin = (await this.roles.load(byAdminId)).state.isAdmin;
    const result = await this.roles.handle(userId, { type, userId, by: byAdminId, byIsAdmin, now: this.clock.now() }, { metadata: { ...requestMetadata(ctx, userId), actorId: byAdminId } });
    await this.projections.waitForPosition(result.position);
  }
}

/**
 * The bootstrap from configuration (decision 100): when an account listed in
 * ADMIN_USERNAMES confirms its sign-up or logs in, it is granted the role "by
 * configuration"; an account the configuration granted and no longer lists
 * loses it. The role then matters from that first session on.
 */
@injectable()
export class AdminBootstrap implements Reactor {
  readonly name = "administration.admin-bootstrap";
  readonly eventTypes = ["SignupConfirmed", "UserLoggedIn"];
  private readonly roles: Aggregate<AdminRoleCommand, AdminRoleEvent, AdminRoleState>;

  constructor(
    @inject(TOKENS.EventStore) events: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
    @inject(TOKENS.Config) private readonly settings: AppSettings,
  ) {
    this.roles = new Aggregate(events, ids, adminRoleAggregate);
  }

  async react(event: RecordedEvent): Promise<void> {
    const userId = event.streamId.slice("user-".length);
    const user = await userById(this.store, userId);
    if (!user) return;
    const configured = this.settings.adminUsernames.includes(user.usernameLower);
    const { state } = await this.roles.load(userId);
    if (configured === state.isAdmin) return;
    await this.roles.handle(
      userId,
      { type: configured ? "GrantAdminRole" : "RevokeAdminRole", userId, by: BY_CONFIGURATION, byIsAdmin: false, now: this.clock.now() },
      { metadata: { correlationId: `admin-bootstrap-${event.eventId}`, causationId: event.eventId, actorId: BY_CONFIGURATION, subjectId: userId } },
    );
  }
}
