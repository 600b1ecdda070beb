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

export type CodePurpose = "signup";

export type UserEvent =
  | DomainEvent<
      "UserRegistered",
      {
        userId: string;
        /** null once the account's personal data has been crypto-shredded. */
        personal: { username: string; email: string; passwordHash: string } | null;
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
  | DomainEvent<"UserLoggedIn", { sessionRef: string; method: "password"; loggedInAt: string }>
  | DomainEvent<"UserLoggedOut", { sessionRef: string; loggedOutAt: string }>;

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
  | { type: "RecordLogin"; sessionRef: string; now: Date }
  | { type: "RecordLogout"; sessionRef: string; now: Date };

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
      passwordHash: string;
      confirmed: boolean;
      /** Newest last; only the newest code of a purpose is valid. */
      codes: IssuedCode[];
      openSessions: string[];
    };

const initialState = (): UserState => ({ registered: false });

function requireRegistered(state: UserState): Extract<UserState, { registered: true }> {
  if (!state.registered) throw new DomainError("USER_NOT_FOUND", "User not found");
  return state;
}

const iso = (date: Date) => date.toISOString();

function issueCode(
  state: Extract<UserState, { registered: true }> | null,
  command: { codeId: string; codeHash: string; purpose: CodePurpose; now: Date },
): UserEvent {
  if (state) {
    const now = command.now.getTime();
    const recent = state.codes.filter((c) => c.purpose === command.purpose && now - c.issuedAt < 60 * 60 * 1000);
    const last = recent.at(-1);
    if (last && now - last.issuedAt < VERIFICATION_CODE_RESEND_MS) {
      const seconds = Math.ceil((VERIFICATION_CODE_RESEND_MS - (now - last.issuedAt)) / 1000);
      throw new DomainError("RATE_LIMITED", `Please wait ${seconds} seconds before requesting a new code.`);
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
      const code = user.codes.filter((c) => c.purpose === "signup").at(-1);
      if (!code || code.used) {
        throw new DomainError("CODE_INVALID", "Invalid verification code provided, please try again.");
      }
      if (code.attempts >= VERIFICATION_CODE_MAX_ATTEMPTS) {
        throw new DomainError("CODE_ATTEMPTS_EXCEEDED", "Too many wrong attempts. Please request a new code.");
      }
      if (command.now.getTime() >= code.expiresAt) {
        throw new DomainError("CODE_EXPIRED", "This code has expired. Please request a new code.");
      }
      if (code.codeHash !== command.codeHash) {
        // Recorded, not thrown: the wrong try must count against the code.
        return [
          {
            type: "VerificationCodeRejected",
            data: { codeId: code.codeId, attempt: code.attempts + 1, rejectedAt: iso(command.now) },
          },
        ];
      }
      return [{ type: "SignupConfirmed", data: { codeId: code.codeId, confirmedAt: iso(command.now) } }];
    }
    case "RecordLogin": {
      const user = requireRegistered(state);
      if (!user.confirmed) throw new DomainError("USER_NOT_CONFIRMED", "User is not confirmed.");
      return [
        { type: "UserLoggedIn", data: { sessionRef: command.sessionRef, method: "password", loggedInAt: iso(command.now) } },
      ];
    }
    case "RecordLogout": {
      const user = requireRegistered(state);
      if (!user.openSessions.includes(command.sessionRef)) return [];
      return [{ type: "UserLoggedOut", data: { sessionRef: command.sessionRef, loggedOutAt: iso(command.now) } }];
    }
  }
}

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case "UserRegistered":
      return {
        registered: true,
        userId: event.data.userId,
        username: event.data.personal?.username ?? "",
        email: event.data.personal?.email ?? "",
        passwordHash: event.data.personal?.passwordHash ?? "",
        confirmed: false,
        codes: [],
        openSessions: [],
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
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = { initialState, decide, evolve };

export const userStreamId = (userId: string) => `user-${userId}`;
