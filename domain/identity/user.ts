import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * The user account aggregate (stream `user-<id>`): registration, verification
 * codes, confirmation and the login/logout history an auditor replays.
 * Personal data lives under `data.personal` so it can be crypto-shredded
 * (ARCHITECTURE §7) without rewriting events.
 */

export const VERIFICATION_CODE_TTL_MS = 10 * 60 * 1000;
export const VERIFICATION_CODE_MAX_ATTEMPTS = 5;
export const VERIFICATION_CODE_RESEND_MS = 30 * 1000;
/** Codes a user may be sent per hour; stops a mailbox from being flooded. */
export const VERIFICATION_CODES_PER_HOUR = 6;

export type CodePurpose = "signup" | "password-reset";

/** Why every session of an account was revoked (audit). */
export type SessionsRevokedReason = "password-reset" | "user-request";

export type UserEvent =
  | DomainEvent<
      "UserRegistered",
      {
        userId: string;
        /** null once the account's personal data has been crypto-shredded. */
        /** passwordHash is null for an account created through an OpenID provider (no password yet). */
        personal: { username: string; email: string; passwordHash: string | null } | null;
        refCode: string | null;
        registeredAt: string;
      }
    >
  | DomainEvent<
      "VerificationCodeIssued",
      { codeId: string; purpose: CodePurpose; codeHash: string; issuedAt: string; expiresAt: string }
    >
  | DomainEvent<"VerificationCodeRejected", { codeId: string; attempt: number; rejectedAt: string }>
  | DomainEvent<"SignupConfirmed", { codeId: string; confirmedAt: string }>
  | DomainEvent<"UserLoggedIn", { sessionRef: string; method: LoginMethod; loggedInAt: string }>
  | DomainEvent<"UserLoggedOut", { sessionRef: string; loggedOutAt: string }>
  | DomainEvent<"PasswordReset", { codeId: string; personal: { passwordHash: string } | null; resetAt: string }>
  | DomainEvent<"PasswordChanged", { personal: { passwordHash: string } | null; changedAt: string }>
  | DomainEvent<"AllSessionsRevoked", { sessionRefs: string[]; reason: SessionsRevokedReason; revokedAt: string }>
  | DomainEvent<
      "ExternalIdentityLinked",
      {
        issuer: string;
        providerName: string;
        /** HMAC(issuer, subject): the key of the identity's reservation stream. */
        identityKey: string;
        personal: { subject: string; email: string } | null;
        /**
         * True when the link confirmed a not-yet-confirmed account: the provider
         * vouched for the mailbox, and the password set by whoever pre-registered
         * that address is dropped (docs/decisions/010).
         */
        confirmedAccount: boolean;
        linkedAt: string;
      }
    >
  /** Onboarding done (spec 000 §2). Names, occupation and language are personal: null once shredded. */
  | DomainEvent<"ProfileCompleted", { personal: ProfileDetails | null; completedAt: string }>
  | DomainEvent<"ProfileUpdated", { personal: ProfileDetails | null; updatedAt: string }>
  /** The blob key is generated (`avatars/<userId>/<uuid>.png`), never user input. */
  | DomainEvent<"ProfilePictureChanged", { pictureKey: string; previousKey: string | null; changedAt: string }>
  | DomainEvent<"AccountDeletionScheduled", { reason: string; scheduledAt: string; purgeAt: string }>
  | DomainEvent<"AccountRetrieved", { retrievedAt: string }>
  /** The point of no return: from here the account can no longer be retrieved or used. */
  | DomainEvent<"AccountPurgeStarted", { startedAt: string }>
  /** Keys forgotten, blobs, search entries and reservations gone. No personal data. */
  | DomainEvent<"AccountPurged", { purgedAt: string }>;

export interface ProfileDetails {
  firstName: string;
  lastName: string;
  occupation: string;
  language: string;
}

export type AccountStatus = "ACTIVE" | "PENDING_DELETE" | "PURGING" | "PURGED";

export const ACCOUNT_PENDING_DELETE_MESSAGE =
  "Your account is scheduled for deletion. Retrieve it to make changes.";

export type LoginMethod = "password" | "oidc";

export type UserCommand =
  | {
      type: "RegisterUser";
      userId: string;
      username: string;
      email: string;
      passwordHash: string;
      refCode: string | null;
      code: { codeId: string; codeHash: string };
      now: Date;
    }
  | { type: "IssueVerificationCode"; codeId: string; codeHash: string; purpose: CodePurpose; now: Date }
  | { type: "ConfirmSignup"; codeHash: string; now: Date }
  | { type: "RecordLogin"; sessionRef: string; method?: LoginMethod; now: Date }
  | { type: "RecordLogout"; sessionRef: string; now: Date }
  | { type: "ResetPassword"; codeHash: string; passwordHash: string; now: Date }
  | { type: "ChangePassword"; passwordHash: string; now: Date }
  | { type: "RevokeAllSessions"; reason: SessionsRevokedReason; now: Date }
  | {
      type: "RegisterExternalUser";
      userId: string;
      username: string;
      email: string;
      identity: ExternalIdentity;
      now: Date;
    }
  | { type: "LinkExternalIdentity"; identity: ExternalIdentity; now: Date }
  | { type: "CompleteOnboarding"; profile: ProfileDetails; now: Date }
  | { type: "UpdateProfile"; profile: ProfileDetails; now: Date }
  | { type: "ChangeProfilePicture"; pictureKey: string; now: Date }
  | { type: "ScheduleAccountDeletion"; reason: string; graceMs: number; now: Date }
  | { type: "RetrieveAccount"; now: Date }
  | { type: "StartPurge"; now: Date }
  | { type: "CompletePurge"; now: Date };

export interface ExternalIdentity {
  issuer: string;
  providerName: string;
  identityKey: string;
  subject: string;
  /** The provider's verified email. */
  email: string;
}

export interface LinkedIdentity {
  issuer: string;
  providerName: string;
  identityKey: string;
  email: string;
  linkedAt: string;
}

interface IssuedCode {
  codeId: string;
  purpose: CodePurpose;
  codeHash: string;
  issuedAt: number;
  expiresAt: number;
  attempts: number;
  used: boolean;
}

export type UserState =
  | { registered: false }
  | {
      registered: true;
      userId: string;
      username: string;
      email: string;
      /** null: no password (account created through an OpenID provider, or its pre-registered password was dropped). */
      passwordHash: string | null;
      confirmed: boolean;
      externalIdentities: LinkedIdentity[];
      /** Newest last; only the newest code of a purpose is valid. */
      codes: IssuedCode[];
      openSessions: string[];
      onboarded: boolean;
      profile: ProfileDetails;
      pictureKey: string | null;
      status: AccountStatus;
      /** When a scheduled deletion purges the account (ms), or null. */
      purgeAt: number | null;
    };

const initialState = (): UserState => ({ registered: false });

type Registered = Extract<UserState, { registered: true }>;

function requireRegistered(state: UserState): Registered {
  if (!state.registered) throw new DomainError("USER_NOT_FOUND", "User not found");
  return state;
}

/** A purged (or purging) account no longer exists for any command. */
function requireExisting(state: UserState): Registered {
  const user = requireRegistered(state);
  if (user.status === "PURGING" || user.status === "PURGED") throw new DomainError("USER_NOT_FOUND", "User not found");
  return user;
}

/**
 * Changes to an account pending deletion are refused (ARCHITECTURE §5, spec 001 §4):
 * it may only be retrieved, or logged in and out.
 */
function requireActive(state: UserState): Registered {
  const user = requireExisting(state);
  if (user.status === "PENDING_DELETE") throw new DomainError("ACCOUNT_PENDING_DELETE", ACCOUNT_PENDING_DELETE_MESSAGE);
  return user;
}

const EMPTY_PROFILE: ProfileDetails = { firstName: "", lastName: "", occupation: "", language: "" };

const iso = (date: Date) => date.toISOString();

/** A new code was asked for before the last one's resend wait ran out; the dialog counts down the seconds left. */
export class ResendTooSoon extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super("RATE_LIMITED", `Please wait ${retryAfterSeconds} seconds before requesting a new code.`);
  }
}

function issueCode(
  state: Extract<UserState, { registered: true }> | null,
  command: { codeId: string; codeHash: string; purpose: CodePurpose; now: Date },
): UserEvent {
  if (state) {
    const now = command.now.getTime();
    const recent = state.codes.filter((c) => c.purpose === command.purpose && now - c.issuedAt < 60 * 60 * 1000);
    const last = recent.at(-1);
    if (last && now - last.issuedAt < VERIFICATION_CODE_RESEND_MS) {
      throw new ResendTooSoon(Math.ceil((VERIFICATION_CODE_RESEND_MS - (now - last.issuedAt)) / 1000));
    }
    if (recent.length >= VERIFICATION_CODES_PER_HOUR) {
      throw new DomainError("RATE_LIMITED", "Too many codes requested. Please try again in an hour.");
    }
  }
  return {
    type: "VerificationCodeIssued",
    data: {
      codeId: command.codeId,
      purpose: command.purpose,
      codeHash: command.codeHash,
      issuedAt: iso(command.now),
      expiresAt: iso(new Date(command.now.getTime() + VERIFICATION_CODE_TTL_MS)),
    },
  };
}

const INVALID_CODE = "Invalid verification code provided, please try again.";

/**
 * The newest code of a purpose, checked for use, attempts and expiry. A wrong
 * code is not thrown: it becomes a `VerificationCodeRejected` event, so the
 * failed try counts against the code (and survives restarts).
 */
function checkCode(
  user: Extract<UserState, { registered: true }>,
  purpose: CodePurpose,
  codeHash: string,
  now: Date,
): { ok: true; code: IssuedCode } | { ok: false; rejection: UserEvent } {
  const code = user.codes.filter((c) => c.purpose === purpose).at(-1);
  if (!code || code.used) throw new DomainError("CODE_INVALID", INVALID_CODE);
  if (code.attempts >= VERIFICATION_CODE_MAX_ATTEMPTS) {
    throw new DomainError("CODE_ATTEMPTS_EXCEEDED", "Too many wrong attempts. Please request a new code.");
  }
  if (now.getTime() >= code.expiresAt) {
    throw new DomainError("CODE_EXPIRED", "This code has expired. Please request a new code.");
  }
  if (code.codeHash !== codeHash) {
    return {
      ok: false,
      rejection: { type: "VerificationCodeRejected", data: { codeId: code.codeId, attempt: code.attempts + 1, rejectedAt: iso(now) } },
    };
  }
  return { ok: true, code };
}

function linkEvent(identity: ExternalIdentity, confirmedAccount: boolean, now: Date): UserEvent {
  return {
    type: "ExternalIdentityLinked",
    data: {
      issuer: identity.issuer,
      providerName: identity.providerName,
      identityKey: identity.identityKey,
      personal: { subject: identity.subject, email: identity.email },
      confirmedAccount,
      linkedAt: iso(now),
    },
  };
}

function revokeAll(user: Extract<UserState, { registered: true }>, reason: SessionsRevokedReason, now: Date): UserEvent {
  return { type: "AllSessionsRevoked", data: { sessionRefs: [...user.openSessions], reason, revokedAt: iso(now) } };
}

export function decide(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case "RegisterUser": {
      if (state.registered) throw new DomainError("USER_EXISTS", "User already exists. Try Login!");
      return [
        {
          type: "UserRegistered",
          data: {
            userId: command.userId,
            personal: { username: command.username, email: command.email, passwordHash: command.passwordHash },
            refCode: command.refCode,
            registeredAt: iso(command.now),
          },
        },
        issueCode(null, { ...command.code, purpose: "signup", now: command.now }),
      ];
    }
    case "IssueVerificationCode": {
      const user = requireRegistered(state);
      if (command.purpose === "signup" && user.confirmed) {
        throw new DomainError("ALREADY_CONFIRMED", "This account is already confirmed. Please log in.");
      }
      return [issueCode(user, command)];
    }
    case "ConfirmSignup": {
      const user = requireRegistered(state);
      if (user.confirmed) throw new DomainError("ALREADY_CONFIRMED", "This account is already confirmed. Please log in.");
      const checked = checkCode(user, "signup", command.codeHash, command.now);
      if (!checked.ok) return [checked.rejection];
      return [{ type: "SignupConfirmed", data: { codeId: checked.code.codeId, confirmedAt: iso(command.now) } }];
    }
    case "RecordLogin": {
      const user = requireExisting(state);
      if (!user.confirmed) throw new DomainError("USER_NOT_CONFIRMED", "User is not confirmed.");
      return [
        {
          type: "UserLoggedIn",
          data: { sessionRef: command.sessionRef, method: command.method ?? "password", loggedInAt: iso(command.now) },
        },
      ];
    }
    case "RecordLogout": {
      const user = requireRegistered(state);
      if (!user.openSessions.includes(command.sessionRef)) return [];
      return [{ type: "UserLoggedOut", data: { sessionRef: command.sessionRef, loggedOutAt: iso(command.now) } }];
    }
    case "CompleteOnboarding": {
      const user = requireActive(state);
      if (user.onboarded) throw new DomainError("ALREADY_ONBOARDED", "Onboarding is already complete.");
      return [{ type: "ProfileCompleted", data: { personal: { ...command.profile }, completedAt: iso(command.now) } }];
    }
    case "UpdateProfile": {
      const user = requireActive(state);
      if (!user.onboarded) throw new DomainError("NOT_ONBOARDED", "Please complete onboarding");
      const p = command.profile;
      const same = (Object.keys(p) as (keyof ProfileDetails)[]).every((k) => p[k] === user.profile[k]);
      if (same) return [];
      return [{ type: "ProfileUpdated", data: { personal: { ...p }, updatedAt: iso(command.now) } }];
    }
    case "ChangeProfilePicture": {
      const user = requireActive(state);
      if (user.pictureKey === command.pictureKey) return [];
      return [
        {
          type: "ProfilePictureChanged",
          data: { pictureKey: command.pictureKey, previousKey: user.pictureKey, changedAt: iso(command.now) },
        },
      ];
    }
    case "ScheduleAccountDeletion": {
      const user = requireExisting(state);
      if (!user.confirmed) throw new DomainError("USER_NOT_CONFIRMED", "User is not confirmed.");
      if (user.status === "PENDING_DELETE") {
        throw new DomainError("DELETION_ALREADY_SCHEDULED", "Account deletion is already in progress.");
      }
      return [
        {
          type: "AccountDeletionScheduled",
          data: {
            reason: command.reason,
            scheduledAt: iso(command.now),
            purgeAt: iso(new Date(command.now.getTime() + command.graceMs)),
          },
        },
      ];
    }
    case "RetrieveAccount": {
      const user = requireExisting(state);
      if (user.status !== "PENDING_DELETE") throw new DomainError("NOT_PENDING_DELETE", "This account is not scheduled for deletion.");
      return [{ type: "AccountRetrieved", data: { retrievedAt: iso(command.now) } }];
    }
    case "StartPurge": {
      const user = requireRegistered(state);
      if (user.status === "PURGING" || user.status === "PURGED") return [];
      // Retrieved in the meantime, or the timer is early: nothing to purge.
      if (user.status !== "PENDING_DELETE" || user.purgeAt === null || command.now.getTime() < user.purgeAt) return [];
      return [{ type: "AccountPurgeStarted", data: { startedAt: iso(command.now) } }];
    }
    case "CompletePurge": {
      const user = requireRegistered(state);
      if (user.status === "PURGED") return [];
      if (user.status !== "PURGING") throw new DomainError("PURGE_NOT_STARTED", "The purge of this account has not started.");
      return [{ type: "AccountPurged", data: { purgedAt: iso(command.now) } }];
    }
    case "ResetPassword": {
      const user = requireExisting(state);
      const checked = checkCode(user, "password-reset", command.codeHash, command.now);
      if (!checked.ok) return [checked.rejection];
      // A reset means the password may be known to someone else: every session goes.
      return [
        {
          type: "PasswordReset",
          data: { codeId: checked.code.codeId, personal: { passwordHash: command.passwordHash }, resetAt: iso(command.now) },
        },
        revokeAll(user, "password-reset", command.now),
      ];
    }
    case "ChangePassword": {
      const user = requireActive(state);
      if (!user.confirmed) throw new DomainError("USER_NOT_CONFIRMED", "User is not confirmed.");
      return [{ type: "PasswordChanged", data: { personal: { passwordHash: command.passwordHash }, changedAt: iso(command.now) } }];
    }
    case "RevokeAllSessions": {
      const user = requireExisting(state);
      return [revokeAll(user, command.reason, command.now)];
    }
    case "RegisterExternalUser": {
      if (state.registered) throw new DomainError("USER_EXISTS", "User already exists. Try Login!");
      return [
        {
          type: "UserRegistered",
          data: {
            userId: command.userId,
            personal: { username: command.username, email: command.email, passwordHash: null },
            refCode: null,
            registeredAt: iso(command.now),
          },
        },
        linkEvent(command.identity, true, command.now),
      ];
    }
    case "LinkExternalIdentity": {
      const user = requireExisting(state);
      const existing = user.externalIdentities.find((i) => i.identityKey === command.identity.identityKey);
      if (existing) return [];
      if (user.externalIdentities.some((i) => i.issuer === command.identity.issuer)) {
        throw new DomainError("PROVIDER_ALREADY_LINKED", "Another account of this provider is already linked.");
      }
      return [linkEvent(command.identity, !user.confirmed, command.now)];
    }
  }
}

/** Is the account, as folded, one the purge has reached (or finished)? */
export const isPurged = (state: UserState) => state.registered && (state.status === "PURGING" || state.status === "PURGED");

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case "UserRegistered":
      return {
        registered: true,
        userId: event.data.userId,
        username: event.data.personal?.username ?? "",
        email: event.data.personal?.email ?? "",
        passwordHash: event.data.personal?.passwordHash ?? null,
        confirmed: false,
        externalIdentities: [],
        codes: [],
        openSessions: [],
        onboarded: false,
        profile: EMPTY_PROFILE,
        pictureKey: null,
        status: "ACTIVE",
        purgeAt: null,
      };
    case "VerificationCodeIssued": {
      const user = requireRegistered(state);
      const code: IssuedCode = {
        codeId: event.data.codeId,
        purpose: event.data.purpose,
        codeHash: event.data.codeHash,
        issuedAt: Date.parse(event.data.issuedAt),
        expiresAt: Date.parse(event.data.expiresAt),
        attempts: 0,
        used: false,
      };
      return { ...user, codes: [...user.codes, code] };
    }
    case "VerificationCodeRejected": {
      const user = requireRegistered(state);
      return {
        ...user,
        codes: user.codes.map((c) => (c.codeId === event.data.codeId ? { ...c, attempts: event.data.attempt } : c)),
      };
    }
    case "SignupConfirmed": {
      const user = requireRegistered(state);
      return {
        ...user,
        confirmed: true,
        codes: user.codes.map((c) => (c.codeId === event.data.codeId ? { ...c, used: true } : c)),
      };
    }
    case "UserLoggedIn": {
      const user = requireRegistered(state);
      return { ...user, openSessions: [...user.openSessions, event.data.sessionRef] };
    }
    case "UserLoggedOut": {
      const user = requireRegistered(state);
      return { ...user, openSessions: user.openSessions.filter((s) => s !== event.data.sessionRef) };
    }
    case "ProfileCompleted": {
      const user = requireRegistered(state);
      return { ...user, onboarded: true, profile: event.data.personal ? { ...event.data.personal } : EMPTY_PROFILE };
    }
    case "ProfileUpdated": {
      const user = requireRegistered(state);
      return { ...user, profile: event.data.personal ? { ...event.data.personal } : EMPTY_PROFILE };
    }
    case "ProfilePictureChanged": {
      const user = requireRegistered(state);
      return { ...user, pictureKey: event.data.pictureKey };
    }
    case "AccountDeletionScheduled": {
      const user = requireRegistered(state);
      return { ...user, status: "PENDING_DELETE", purgeAt: Date.parse(event.data.purgeAt) };
    }
    case "AccountRetrieved": {
      const user = requireRegistered(state);
      return { ...user, status: "ACTIVE", purgeAt: null };
    }
    case "AccountPurgeStarted": {
      const user = requireRegistered(state);
      return { ...user, status: "PURGING", openSessions: [] };
    }
    case "AccountPurged": {
      const user = requireRegistered(state);
      return { ...user, status: "PURGED", purgeAt: null, pictureKey: null, openSessions: [] };
    }
    case "PasswordReset": {
      const user = requireRegistered(state);
      return {
        ...user,
        passwordHash: event.data.personal?.passwordHash ?? null,
        codes: user.codes.map((c) => (c.codeId === event.data.codeId ? { ...c, used: true } : c)),
      };
    }
    case "PasswordChanged": {
      const user = requireRegistered(state);
      return { ...user, passwordHash: event.data.personal?.passwordHash ?? null };
    }
    case "AllSessionsRevoked": {
      const user = requireRegistered(state);
      return { ...user, openSessions: user.openSessions.filter((s) => !event.data.sessionRefs.includes(s)) };
    }
    case "ExternalIdentityLinked": {
      const user = requireRegistered(state);
      const linked: LinkedIdentity = {
        issuer: event.data.issuer,
        providerName: event.data.providerName,
        identityKey: event.data.identityKey,
        email: event.data.personal?.email ?? "",
        linkedAt: event.data.linkedAt,
      };
      return {
        ...user,
        confirmed: true,
        passwordHash: event.data.confirmedAccount ? null : user.passwordHash,
        externalIdentities: [...user.externalIdentities, linked],
      };
    }
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = { initialState, decide, evolve };

export const userStreamId = (userId: string) => `user-${userId}`;
