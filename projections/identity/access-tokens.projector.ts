import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readEvent } from "#domain/shared/event-schemas";
import { accessTokenAggregate } from "#domain/identity/access-token-events";
import type { TokenPermission } from "#domain/identity/access-token";

/**
 * The owner's list of personal access tokens (Settings, decision 220): what
 * each may reach and when it was last used. Never the secret, nor its hash:
 * a token is checked against its own stream, not this list.
 */
export interface AccessTokenReadModel {
  id: string;
  ownerId: string;
  name: string;
  /** null: all workspaces. */
  workspaceIds: string[] | null;
  permissions: TokenPermission[];
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const ACCESS_TOKENS = "identity_access_tokens";

export const accessTokensProjector: Projector = {
  name: "identity.access-tokens",
  collections: [ACCESS_TOKENS],
  async setup(store: ReadModelStore) {
    await store.collection<AccessTokenReadModel>(ACCESS_TOKENS).ensureIndex(["ownerId"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    const tokens = store.collection<AccessTokenReadModel>(ACCESS_TOKENS);
    if (recorded.type === "AccountPurged" && recorded.streamId.startsWith("user-")) {
      await tokens.deleteMany({ ownerId: recorded.streamId.slice("user-".length) });
      return;
    }
    if (!recorded.streamId.startsWith("access-token-")) return;
    const id = recorded.streamId.slice("access-token-".length);
    const event = readEvent(accessTokenAggregate.events, recorded);
    switch (event.type) {
      case "AccessTokenCreated":
        // A forgotten owner leaves no row behind (rebuilds after a purge).
        if (!event.data.personal) return;
        await tokens.upsert({
          id,
          ownerId: event.data.ownerId,
          name: event.data.personal.name,
          workspaceIds: event.data.workspaceIds,
          permissions: event.data.permissions,
          expiresAt: event.data.expiresAt,
          createdAt: event.data.createdAt,
          lastUsedAt: null,
          revokedAt: null,
        });
        return;
      case "AccessTokenUsed":
        await tokens.patch(id, { lastUsedAt: event.data.at });
        return;
      case "AccessTokenRevoked":
        await tokens.patch(id, { revokedAt: event.data.at });
        return;
    }
  },
};
