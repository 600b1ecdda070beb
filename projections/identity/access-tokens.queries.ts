import type { ReadModelStore } from "#application/ports/read-model-store";
import { ACCESS_TOKENS, type AccessTokenReadModel } from "./access-tokens.projector";

/** The identity context's read side of the access-token list. */
export type { AccessTokenReadModel } from "./access-tokens.projector";

/** The owner's tokens, newest first, revoked ones included (the list says so). */
export function accessTokensOf(store: ReadModelStore, ownerId: string): Promise<AccessTokenReadModel[]> {
  return store.collection<AccessTokenReadModel>(ACCESS_TOKENS).find({ ownerId }, { sort: [{ field: "createdAt", direction: "desc" }] });
}
