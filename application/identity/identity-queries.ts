import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { type ConnectedAppReadModel, type UserReadModel, userById } from "#projections/identity/users.queries";

/** Connected Apps on the profile page (spec 001 §2): the provider and the email it vouched for. */
export type ConnectedApp = ConnectedAppReadModel;

export type Role = "admin" | "member" | "impersonate";

export interface CurrentUser {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  /** "First Last", or null when neither is known yet. */
  displayName: string | null;
  role: Role;
  /** The admin acting as this user (read-only impersonation), if any. */
  impersonatorId: string | null;
  status: UserReadModel["status"];
  isOnboarded: boolean;
  occupation: string;
  language: string;
  /** Same-origin URL of the profile picture (versioned by its key), or null. */
  pictureUrl: string | null;
  /** ISO time a scheduled deletion purges the account, or null. */
  deleteScheduled: string | null;
}

/** The avatar route; the key's file name makes the URL change when the picture does. */
export const pictureUrlFor = (userId: string, pictureKey: string | null) =>
  pictureKey ? `/avatars/${userId}?v=${encodeURIComponent(pictureKey.split("/").pop()?.replace(/\.png$/, "") ?? "")}` : null;

@injectable()
export class IdentityQueries {
  constructor(@inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore) {}

  async currentUser(userId: string, impersonatorId: string | null): Promise<CurrentUser | null> {
    const user = await userById(this.store, userId);
    if (!user) return null;
    const displayName = [user.firstName, user.lastName].filter(Boolean).join(" ") || null;
    // "admin" is the administration context's to say (its role events, decision 100); the app layer asks it.
    const role: Role = impersonatorId ? "impersonate" : "member";
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      displayName,
      role,
      impersonatorId,
      status: user.status,
      isOnboarded: user.isOnboarded,
      occupation: user.occupation ?? "",
      language: user.language ?? "",
      pictureUrl: pictureUrlFor(user.id, user.pictureKey ?? null),
      deleteScheduled: user.deleteScheduled ?? null,
    };
  }

  /** The stored picture key of a user (for the avatar route), or null. */
  async pictureKey(userId: string): Promise<string | null> {
    const user = await userById(this.store, userId);
    return user?.pictureKey ?? null;
  }

  /** The OpenID providers linked to the account, oldest first. */
  async connectedApps(userId: string): Promise<ConnectedApp[]> {
    const user = await userById(this.store, userId);
    return [...(user?.connectedApps ?? [])].sort((a, b) => a.linkedAt.localeCompare(b.linkedAt));
  }
}
