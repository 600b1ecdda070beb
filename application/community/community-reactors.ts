import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { EventMetadata, RecordedEvent } from "#application/ports/event-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { Reactor } from "#application/ports/reactor";
import { communityAggregate } from "#domain/community/community-events";
import { isDomainError } from "#domain/shared/domain-error";
import { readEvent } from "#domain/shared/event-schemas";
import {
  contributionsOf,
  holdersOf,
  membershipsOf,
  plannedContributionsOf,
} from "#projections/community/communities.queries";
import { CommunityService } from "./community-service";

const reactionMetadata = (event: RecordedEvent, actorId: string): EventMetadata => ({
  correlationId: event.metadata.correlationId,
  causationId: event.eventId,
  actorId,
  subjectId: actorId,
});

const idAfter = (streamId: string, prefix: string) => streamId.slice(prefix.length);

/** A deleted community gives its name back, so someone else may use it (decision 002's pattern). */
@injectable()
export class CommunityNameRelease implements Reactor {
  readonly name = "community.release-name";
  readonly eventTypes = ["CommunityDeleted"];

  constructor(@inject(CommunityService) private readonly communities: CommunityService) {}

  async react(event: RecordedEvent): Promise<void> {
    if (!event.streamId.startsWith("community-")) return;
    await this.communities.releaseName(idAfter(event.streamId, "community-"), reactionMetadata(event, event.metadata.actorId));
  }
}

/**
 * Upload's share-with-community (spec 000 §3 Advanced settings): the library's
 * `DocumentActivated` turns each planned contribution into a resource. A plan
 * recorded after the document was already ACTIVE is attached on its own event.
 */
@injectable()
export class ContributionAttacher implements Reactor {
  readonly name = "community.attach-contributions";
  readonly eventTypes = ["DocumentActivated", "ContributionPlanned"];

  constructor(
    @inject(CommunityService) private readonly communities: CommunityService,
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
  ) {}

  async react(event: RecordedEvent): Promise<void> {
    if (event.type === "ContributionPlanned") {
      if (!event.streamId.startsWith("community-")) return;
      const planned = readEvent(communityAggregate.events, event);
      if (planned.type !== "ContributionPlanned") return;
      const { documentId, contributorId } = planned.data;
      // Already ACTIVE (the plan came after the activation): attach now; otherwise DocumentActivated will.
      await this.communities.attachPlanned(idAfter(event.streamId, "community-"), contributorId, documentId, reactionMetadata(event, contributorId));
      return;
    }
    if (!event.streamId.startsWith("document-")) return;
    const documentId = idAfter(event.streamId, "document-");
    for (const plan of await plannedContributionsOf(this.store, documentId)) {
      await this.communities.attachPlanned(plan.communityId, plan.contributorId, documentId, reactionMetadata(event, plan.contributorId), true);
    }
  }
}

/**
 * Deletions reach the communities (issue 17 item 6): a deleted document leaves
 * every community holding it; a purged account's contributions leave, its
 * memberships end, and a community it owned passes to its longest-serving
 * moderator or is archived (decision 121).
 */
@injectable()
export class CommunityDeletionReactions implements Reactor {
  readonly name = "community.deletions";
  readonly eventTypes = ["DocumentDeleted", "AccountPurged"];

  constructor(
    @inject(CommunityService) private readonly communities: CommunityService,
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
  ) {}

  async react(event: RecordedEvent): Promise<void> {
    const now = new Date(event.recordedAt);
    if (event.type === "DocumentDeleted" && event.streamId.startsWith("document-")) {
      const documentId = idAfter(event.streamId, "document-");
      for (const held of await holdersOf(this.store, documentId)) {
        const command = { type: "WithdrawContributions" as const, contributorId: held.contributorId, documentIds: [documentId], reason: "DOCUMENT_DELETED" as const, now };
        await this.communities.handleAsSystem(held.communityId, command, reactionMetadata(event, held.contributorId));
      }
      return;
    }
    if (event.type !== "AccountPurged" || !event.streamId.startsWith("user-")) return;
    const userId = idAfter(event.streamId, "user-");
    const metadata = reactionMetadata(event, userId);
    const contributed = new Set((await contributionsOf(this.store, userId)).map((r) => r.communityId));
    for (const communityId of contributed) {
      await this.communities.handleAsSystem(communityId, { type: "WithdrawContributions", contributorId: userId, reason: "CONTRIBUTOR_DELETED", now }, metadata);
    }
    for (const membership of await membershipsOf(this.store, userId)) {
      if (membership.role === "OWNER") await this.communities.handleAsSystem(membership.communityId, { type: "ReplaceDeletedOwner", ownerId: userId, now }, metadata);
      // After a hand-over the former owner is a moderator and may leave; an archived community keeps its owner's place.
      await this.communities.handleAsSystem(membership.communityId, { type: "Leave", userId, now }, metadata).catch((error: unknown) => {
        if (!isDomainError(error)) throw error;
      });
    }
  }
}
