import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readEvent } from "#domain/shared/event-schemas";
import { userAggregate } from "#domain/identity/user-events";

/** The account as screens need it. Rebuilt from `user-*` streams. */
export interface UserReadModel {
  id: string;
  username: string;
  usernameLower: string;
  email: string;
  firstName: string;
  lastName: string;
  status: "ACTIVE" | "PENDING_DELETE" | "";
  confirmed: boolean;
  isOnboarded: boolean;
  occupation: string;
  language: string;
  /** Blob key of the current profile picture (served by /avatars/<userId>), or null. */
  pictureKey: string | null;
  /** ISO time a scheduled deletion purges the account (spec: delete_scheduled), or null. */
  deleteScheduled: string | null;
  refCode: string | null;
  registeredAt: string;
  lastLoginAt: string | null;
  /** OpenID identities linked to the account (Connected Apps); absent on rows written before they existed. */
  connectedApps?: ConnectedAppReadModel[];
}

export interface ConnectedAppReadModel {
  issuer: string;
  providerName: string;
  email: string;
  linkedAt: string;
}

export const USERS = "identity_users";

export const usersProjector: Projector = {
  name: "identity.users",
  collections: [USERS],
  async setup(store: ReadModelStore) {
    await store.collection<UserReadModel>(USERS).ensureIndex(["usernameLower"], { unique: true });
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    if (!recorded.streamId.startsWith("user-")) return;
    const users = store.collection<UserReadModel>(USERS);
    const event = readEvent(userAggregate.events, recorded);
    const userId = recorded.streamId.slice("user-".length);
    switch (event.type) {
      case "UserRegistered": {
        // A forgotten (purged) account leaves no row behind.
        if (!event.data.personal) return;
        // upsert keeps a replay of the same event harmless.
        await users.upsert({
          id: userId,
          username: event.data.personal.username,
          usernameLower: event.data.personal.username.toLowerCase(),
          email: event.data.personal.email,
          firstName: "",
          lastName: "",
          status: "",
          confirmed: false,
          isOnboarded: false,
          occupation: "",
          language: "",
          pictureKey: null,
          deleteScheduled: null,
          refCode: event.data.refCode,
          registeredAt: event.data.registeredAt,
          lastLoginAt: null,
          connectedApps: [],
        });
        return;
      }
      case "SignupConfirmed":
        await users.patch(userId, { confirmed: true, status: "ACTIVE" });
        return;
      case "ExternalIdentityLinked": {
        // The provider vouched for the email, so a linked account is confirmed.
        const row = await users.get(userId);
        if (!row) return;
        const app: ConnectedAppReadModel = {
          issuer: event.data.issuer,
          providerName: event.data.providerName,
          email: event.data.personal?.email ?? "",
          linkedAt: event.data.linkedAt,
        };
        // Keyed by issuer: replaying the event leaves one entry.
        const connectedApps = [...(row.connectedApps ?? []).filter((a) => a.issuer !== app.issuer), app];
        await users.patch(userId, { confirmed: true, status: row.status || "ACTIVE", connectedApps });
        return;
      }
      case "UserLoggedIn":
        await users.patch(userId, { lastLoginAt: event.data.loggedInAt });
        return;
      case "ProfileCompleted":
      case "ProfileUpdated": {
        // personal: null means the data was shredded; the row is gone or going.
        const personal = event.data.personal;
        if (!personal) return;
        await users.patch(userId, {
          firstName: personal.firstName,
          lastName: personal.lastName,
          occupation: personal.occupation,
          language: personal.language,
          ...(event.type === "ProfileCompleted" ? { isOnboarded: true } : {}),
        });
        return;
      }
      case "ProfilePictureChanged":
        await users.patch(userId, { pictureKey: event.data.pictureKey });
        return;
      case "AccountDeletionScheduled":
        await users.patch(userId, { status: "PENDING_DELETE", deleteScheduled: event.data.purgeAt });
        return;
      case "AccountRetrieved":
        await users.patch(userId, { status: "ACTIVE", deleteScheduled: null });
        return;
      case "AccountPurgeStarted":
      case "AccountPurged":
        // Nothing of the account stays in the read models.
        await users.delete(userId);
        return;
      default:
        return;
    }
  },
};

