import type { ReadModelStore } from "#application/ports/read-model-store";
import { USERS, type UserReadModel } from "./users.projector";

/** The identity context's read side of the users projection. */
export type { ConnectedAppReadModel, UserReadModel } from "./users.projector";

/** The account's row, or null before its first event is projected (or after a purge). */
export function userById(store: ReadModelStore, userId: string): Promise<UserReadModel | null> {
  return store.collection<UserReadModel>(USERS).get(userId);
}

/** The account with this username (any case), or null. */
export function userByUsername(store: ReadModelStore, username: string): Promise<UserReadModel | null> {
  return store.collection<UserReadModel>(USERS).findOne({ usernameLower: username.trim().toLowerCase() });
}
