import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { SecretHasher } from "#application/ports/sessions";
import { Aggregate } from "#application/shared/aggregate";
import { parseInput } from "#application/shared/parse";
import { eventMetadata, type RequestContext } from "#application/shared/request-context";
import { LibraryQueries } from "#application/library/library-queries";
import {
  COMMUNITY_NOT_FOUND,
  type CommunityCommand,
  type CommunityEvent,
  type CommunityState,
  roleOf,
} from "#domain/community/community";
import { communityAggregate, communityNameAggregate } from "#domain/community/community-events";
import { type CommunityNameCommand, type CommunityNameEvent, type CommunityNameState, normaliseCommunityName } from "#domain/community/community-name";
import {
  attachResourcesSchema,
  communitySettingsSchema,
  createCommunitySchema,
  documentIdOf,
  memberRoleSchema,
  reportSchema,
} from "#domain/community/community-rules";
import { DomainError } from "#domain/shared/domain-error";
import { userByUsername } from "#projections/identity/users.queries";

/** The reservation stream of a community name: a keyed hash of the normalised name (the pattern of decision 002). */
export function communityNameKey(secrets: SecretHasher, name: string): string {
  return secrets.hash("reservation:community-name", normaliseCommunityName(name));
}

/**
 * Commands of the community context (issue 17). Every command names its
 * actor; the decider checks the actor's role, and a private community answers
 * COMMUNITY_NOT_FOUND to anyone it does not know, exactly like a missing one.
 */
@injectable()
export class CommunityService {
  private readonly communities: Aggregate<CommunityCommand, CommunityEvent, CommunityState>;
  private readonly names: Aggregate<CommunityNameCommand, CommunityNameEvent, CommunityNameState>;

  constructor(
    @inject(TOKENS.EventStore) events: EventStore,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(TOKENS.SecretHasher) private readonly secrets: SecretHasher,
    @inject(LibraryQueries) private readonly library: LibraryQueries,
  ) {
    this.communities = new Aggregate(events, ids, communityAggregate);
    this.names = new Aggregate(events, ids, communityNameAggregate);
  }

  /** 'Create New Public Community': the name is reserved first (unique in any case), then the community is created with its creator as OWNER. */
  async create(userId: string, input: unknown, ctx: RequestContext): Promise<{ communityId: string }> {
    const form = parseInput(createCommunitySchema, input);
    const communityId = this.ids.next();
    const metadata = eventMetadata(ctx, userId, `community-${communityId}`);
    const key = communityNameKey(this.secrets, form.communityName);
    const reservation = await this.names.load(key);
    const holder = reservation.state.holder;
    const holderExists = holder !== null && (await this.communities.load(holder)).state.status !== "None";
    await this.names.handle(key, { type: "Reserve", communityId, holderExists, now: this.clock.now() }, { metadata, loaded: reservation });
    const result = await this.communities.handle(
      communityId,
      {
        type: "CreateCommunity",
        communityId,
        name: form.communityName,
        description: form.communityDescription,
        visibility: form.visibility,
        creatorId: userId,
        now: this.clock.now(),
      },
      { metadata },
    );
    await this.projections.waitForPosition(result.position);
    return { communityId };
  }

  /** Delete selected: only what the user owns; any other id answers like a missing one, and nothing is deleted. */
  async delete(userId: string, communityIds: string[], ctx: RequestContext): Promise<void> {
    for (const id of communityIds) {
      const { state } = await this.communities.load(id);
      if (roleOf(state, userId) !== "OWNER") throw COMMUNITY_NOT_FOUND();
    }
    let position = 0;
    for (const id of communityIds) position = Math.max(position, (await this.run(id, userId, ctx, { type: "DeleteCommunity", actorId: userId, now: this.clock.now() })).position);
    await this.projections.waitForPosition(position);
  }

  /** 'Join Community': a public community makes the viewer a MEMBER at once; a private one records a request for a moderator. */
  async join(userId: string, communityId: string, ctx: RequestContext) {
    const result = await this.run(communityId, userId, ctx, { type: "Join", userId, now: this.clock.now() });
    await this.projections.waitForPosition(result.position);
    return { role: roleOf(result.state, userId), requested: result.state.status !== "None" && result.state.joinRequests.includes(userId) };
  }

  async leave(userId: string, communityId: string, ctx: RequestContext) {
    await this.settle(this.run(communityId, userId, ctx, { type: "Leave", userId, now: this.clock.now() }));
  }

  /**
   * 'Add New Files': the user's own documents only, and only ACTIVE ones (another
   * user's id answers "Document Not Found", as in the workspace's Attach Files).
   */
  async attachResources(userId: string, communityId: string, input: unknown, ctx: RequestContext) {
    const { resources } = parseInput(attachResourcesSchema, input);
    const documents = [];
    for (const resource of resources) {
      const document = await this.library.getDocument(userId, documentIdOf(resource.id));
      if (document.status !== "ACTIVE") throw new DomainError("DOCUMENT_NOT_READY", `${document.name} is still in progress.`);
      documents.push({ documentId: document.id, ownerId: document.ownerId, name: document.name });
    }
    await this.settle(this.run(communityId, userId, ctx, { type: "AttachResources", actorId: userId, documents, now: this.clock.now() }));
  }

  /** Upload's share-with-community: attached now when ready, else once ingestion makes it ACTIVE (ContributionAttacher). */
  async contributeUpload(userId: string, communityId: string, documentId: string, ctx: RequestContext) {
    const document = await this.library.getDocument(userId, documentId);
    if (document.status === "ACTIVE") {
      const documents = [{ documentId, ownerId: document.ownerId, name: document.name }];
      return this.settle(this.run(communityId, userId, ctx, { type: "AttachResources", actorId: userId, documents, now: this.clock.now() }));
    }
    await this.settle(this.run(communityId, userId, ctx, { type: "PlanContribution", actorId: userId, documentId, ownerId: document.ownerId, now: this.clock.now() }));
  }

  /**
   * A planned contribution becomes a resource (nothing if it already is one).
   * `activated`: the library's DocumentActivated says so, whatever the read model has projected yet.
   */
  async attachPlanned(communityId: string, contributorId: string, documentId: string, metadata: EventMetadata, activated = false) {
    const document = await this.library.getDocument(contributorId, documentId).catch(() => null);
    if (!document || (!activated && document.status !== "ACTIVE")) return;
    const documents = [{ documentId, ownerId: document.ownerId, name: document.name }];
    await this.communities.handle(communityId, { type: "AttachResources", actorId: contributorId, documents, now: this.clock.now() }, { metadata });
  }

  /** Remove from the community: a contributor withdraws their own; a moderator removes anyone's. */
  async removeResource(userId: string, communityId: string, resourceId: string, ctx: RequestContext) {
    await this.settle(this.run(communityId, userId, ctx, { type: "RemoveResource", actorId: userId, documentId: documentIdOf(resourceId), now: this.clock.now() }));
  }

  async report(userId: string, communityId: string, input: unknown, ctx: RequestContext) {
    const form = parseInput(reportSchema, input);
    const command: CommunityCommand = {
      type: "ReportResource",
      actorId: userId,
      reportId: this.ids.next(),
      documentId: documentIdOf(form.documentId),
      reason: form.reason,
      now: this.clock.now(),
    };
    await this.settle(this.run(communityId, userId, ctx, command));
  }

  async changeSettings(userId: string, communityId: string, input: unknown, ctx: RequestContext) {
    const form = parseInput(communitySettingsSchema, input);
    await this.settle(this.run(communityId, userId, ctx, { type: "ChangeSettings", actorId: userId, ...form, now: this.clock.now() }));
  }

  /** Settings → Members: add someone by username (how a private community gets its viewers and members). */
  async addMember(userId: string, communityId: string, input: { username?: unknown; role?: unknown }, ctx: RequestContext) {
    const username = typeof input.username === "string" ? input.username.trim() : "";
    const user = username ? await userByUsername(this.readModels, username) : null;
    if (!user) throw new DomainError("USER_NOT_FOUND", "No user has this username.", "username");
    const { role } = parseInput(memberRoleSchema, { userId: user.id, role: input.role });
    await this.settle(this.run(communityId, userId, ctx, { type: "AddMember", actorId: userId, userId: user.id, role, now: this.clock.now() }));
  }

  async changeRole(userId: string, communityId: string, input: unknown, ctx: RequestContext) {
    const form = parseInput(memberRoleSchema, input);
    if (form.role === "OWNER") {
      return this.settle(this.run(communityId, userId, ctx, { type: "HandOver", actorId: userId, to: form.userId, now: this.clock.now() }));
    }
    await this.settle(this.run(communityId, userId, ctx, { type: "ChangeRole", actorId: userId, userId: form.userId, role: form.role, now: this.clock.now() }));
  }

  async removeMember(userId: string, communityId: string, memberId: string, ctx: RequestContext) {
    await this.settle(this.run(communityId, userId, ctx, { type: "RemoveMember", actorId: userId, userId: memberId, now: this.clock.now() }));
  }

  async decideJoin(userId: string, communityId: string, requesterId: string, approve: boolean, ctx: RequestContext) {
    await this.settle(this.run(communityId, userId, ctx, { type: "DecideJoin", actorId: userId, userId: requesterId, approve, now: this.clock.now() }));
  }

  /** Reactions (no request): the purge and document deletion reach the communities. */
  async handleAsSystem(communityId: string, command: CommunityCommand, metadata: EventMetadata) {
    return this.communities.handle(communityId, command, { metadata });
  }

  /** Releases a deleted community's name (a reactor on CommunityDeleted). */
  async releaseName(communityId: string, metadata: EventMetadata) {
    const { state } = await this.communities.load(communityId);
    if (state.status !== "Deleted") return;
    await this.names.handle(communityNameKey(this.secrets, state.name), { type: "Release", communityId, now: this.clock.now() }, { metadata });
  }

  private run(communityId: string, userId: string, ctx: RequestContext, command: CommunityCommand) {
    return this.communities.handle(communityId, command, { metadata: eventMetadata(ctx, userId, `community-${communityId}`) });
  }

  private async settle(pending: Promise<{ position: number }>) {
    const { position } = await pending;
    await this.projections.waitForPosition(position);
  }
}
