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

/**
 * Confirmed accounts whose username, email, first or last name contains the
 * text (case-insensitive), by username: the admin's user search (spec 001 §7
 * POST /profiles/filter: OR of "contains" on email, auth id and name).
 */
export async function searchUsers(store: ReadModelStore, text: string, limit = 20): Promise<UserReadModel[]> {
  const users = store.collection<UserReadModel>(USERS);
  const fields = ["usernameLower", "email", "firstName", "lastName"] as const;
  const found = await Promise.all(fields.map((field) => users.find({ [field]: { $icontains: text }, confirmed: true }, { sort: [{ field: "usernameLower", direction: "asc" }], limit })));
  const byId = new Map(found.flat().map((user) => [user.id, user]));
  return [...byId.values()].sort((a, b) => a.usernameLower.localeCompare(b.usernameLower)).slice(0, limit);
}
