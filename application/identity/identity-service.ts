import { randomBytes, randomInt } from "node:crypto";
import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { Mailer } from "#application/ports/mailer";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { PasswordHasher, RateLimiter, SecretHasher, SessionRecord, SessionStore } from "#application/ports/sessions";
import { Aggregate } from "#application/shared/aggregate";
import { type RequestContext, requestMetadata } from "#application/shared/request-context";
import { parseInput } from "#application/shared/parse";
import type { AppSettings } from "#application/shared/app-settings";
import { DomainError } from "#domain/shared/domain-error";
import {
  changePasswordSchema,
  confirmSignupSchema,
  forgotPasswordSchema,
  loginSchema,
  emailSchema,
  normaliseEmail,
  normaliseUsername,
  resetPasswordSchema,
  signupSchema,
  usernameSchema,
} from "#domain/identity/credentials";
import type { ReservationCommand, ReservationEvent, ReservationKind, ReservationState } from "#domain/identity/reservation";
import { reservationAggregate } from "#domain/identity/identity-events";
import { userAggregate } from "#domain/identity/user-events";
import {
  type ExternalIdentity,
  isPurged,
  type LoginMethod,
  type UserCommand,
  type UserEvent,
  type UserState,
} from "#domain/identity/user";
import { reservationStreamFor } from "./reservations";

import type { VerifiedExternalClaims } from "#application/ports/external-identity";

export type { VerifiedExternalClaims };

export type ExternalSignInOutcome = "signed-in" | "linked" | "created";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Limits per client address and per account (ARCHITECTURE §8). */
const LIMITS = {
  loginPerAddress: { limit: 30, windowMs: 15 * 60_000 },
  loginFailuresPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  usernameCheckPerAddress: { limit: 30, windowMs: 60_000 },
  registerPerAddress: { limit: 10, windowMs: 60 * 60_000 },
  codeRequestsPerAddress: { limit: 20, windowMs: 60 * 60_000 },
  confirmPerAddress: { limit: 30, windowMs: 15 * 60_000 },
  resetRequestsPerAddress: { limit: 10, windowMs: 60 * 60_000 },
  resetAttemptsPerAddress: { limit: 30, windowMs: 15 * 60_000 },
  changePasswordFailuresPerAccount: { limit: 5, windowMs: 15 * 60_000 },
  externalSignInPerAddress: { limit: 30, windowMs: 15 * 60_000 },
} as const;

const INVALID_CODE_MESSAGE = "Invalid verification code provided, please try again.";

const RATE_LIMITED_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";

@injectable()
export class IdentityService {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.PasswordHasher) private readonly passwords: PasswordHasher,
    @inject(TOKENS.SecretHasher) private readonly secrets: SecretHasher,
    @inject(TOKENS.RateLimiter) private readonly limiter: RateLimiter,
    @inject(TOKENS.Mailer) private readonly mailer: Mailer,
    @inject(TOKENS.SessionStore) private readonly sessions: SessionStore,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(TOKENS.Config) private readonly settings: AppSettings,
  ) {
    this.users = new Aggregate(events, ids, userAggregate);
    this.reservations = new Aggregate(events, ids, reservationAggregate);
  }

  private readonly users: Aggregate<UserCommand, UserEvent, UserState>;
  private readonly reservations: Aggregate<ReservationCommand, ReservationEvent, ReservationState>;

  async register(input: unknown, ctx: RequestContext): Promise<{ userId: string }> {
    const form = parseInput(signupSchema, input);
    await this.throttle(`register:${ctx.clientAddress}`, LIMITS.registerPerAddress);
    const userId = this.ids.next();
    const now = this.clock.now();
    const metadata = requestMetadata(ctx, userId);

    await this.reserve("username", form.username, userId, metadata, "USERNAME_TAKEN", "Username already present");
    try {
      await this.reserve("email", form.email, userId, metadata, "EMAIL_TAKEN", "Email already present");
    } catch (error) {
      await this.release("username", form.username, userId, metadata);
      throw error;
    }

    const code = this.newCode();
    await this.users.handle(userId, {
        type: "RegisterUser",
        userId,
        username: form.username,
        email: form.email,
        passwordHash: await this.passwords.hash(form.password),
        refCode: form.refCode || null,
        code: { codeId: this.ids.next(), codeHash: this.codeHash(code) },
        now,
      },
      { metadata },
    );
    await this.sendCode(form.email, code);
    return { userId };
  }

  /** The spec's on-blur check. Rate-limited per address, because it tells whether an account exists. */
  async isUsernameAvailable(username: string, ctx: RequestContext): Promise<boolean> {
    const parsed = usernameSchema.safeParse(username);
    if (!parsed.success) return false;
    await this.throttle(`username-check:${ctx.clientAddress}`, LIMITS.usernameCheckPerAddress);
    return (await this.userIdFor("username", parsed.data)) === null;
  }

  /** Sends a fresh sign-up code. Unknown or confirmed names get the same silent answer (no enumeration). */
  async resendVerificationCode(input: { username: string }, ctx: RequestContext): Promise<void> {
    const username = parseInput(usernameSchema, input.username);
    await this.throttle(`code-request:${ctx.clientAddress}`, LIMITS.codeRequestsPerAddress);
    const userId = await this.userIdFor("username", username);
    if (!userId) return;
    const user = await this.loadUser(userId);
    if (!user.registered || user.confirmed) return;
    const code = this.newCode();
    await this.users.handle(userId, { type: "IssueVerificationCode", codeId: this.ids.next(), codeHash: this.codeHash(code), purpose: "signup", now: this.clock.now() },
      { metadata: requestMetadata(ctx, userId) },
    );
    await this.sendCode(user.email, code);
  }

  async confirmSignup(input: unknown, ctx: RequestContext): Promise<{ userId: string }> {
    const form = parseInput(confirmSignupSchema, input);
    await this.throttle(`confirm:${ctx.clientAddress}`, LIMITS.confirmPerAddress);
    const userId = await this.userIdFor("username", form.username);
    if (!userId) throw new DomainError("CODE_INVALID", "Invalid verification code provided, please try again.");
    const result = await this.users.handle(userId, { type: "ConfirmSignup", codeHash: this.codeHash(form.code), now: this.clock.now() },
      { metadata: requestMetadata(ctx, userId) },
    );
    if (result.events.some((e) => e.type === "VerificationCodeRejected")) {
      throw new DomainError("CODE_INVALID", "Invalid verification code provided, please try again.");
    }
    await this.projections.waitForPosition(result.position);
    return { userId };
  }

  /**
   * Checks credentials. The same message answers an unknown name and a wrong
   * password; only a correct password reveals that the account is unconfirmed.
   */
  async login(input: unknown, ctx: RequestContext): Promise<{ userId: string }> {
    const form = parseInput(loginSchema, input);
    await this.throttle(`login:${ctx.clientAddress}`, LIMITS.loginPerAddress, "LOGIN_THROTTLED");
    const accountKey = `login-failures:${normaliseUsername(form.username)}`;
    const { limit, windowMs } = LIMITS.loginFailuresPerAccount;
    if (!(await this.limiter.peek(accountKey, limit, windowMs)).allowed) {
      throw new DomainError("LOGIN_THROTTLED", RATE_LIMITED_MESSAGE);
    }
    const userId = await this.userIdFor("username", form.username);
    const user = userId ? await this.loadUser(userId) : null;
    // No account, a purged one (its hash was shredded) or one without a password (OpenID only):
    // verify against a dummy, same cost, same answer.
    const valid =
      user?.registered && !isPurged(user) && user.passwordHash
        ? await this.passwords.verify(form.password, user.passwordHash)
        : (await this.passwords.verify(form.password, await this.dummyHash())) && false;
    if (!userId || !user?.registered || !valid) {
      await this.limiter.hit(accountKey, limit, windowMs);
      throw new DomainError("INVALID_CREDENTIALS", "Incorrect username or password.");
    }
    if (!user.confirmed) throw new DomainError("USER_NOT_CONFIRMED", "User is not confirmed.");
    await this.limiter.reset(accountKey);
    return { userId };
  }

  /**
   * Forgot password, step one. Unknown, unconfirmed and just-served names all
   * get the same silent answer, so the form tells nobody whether an account exists.
   */
  async requestPasswordReset(input: unknown, ctx: RequestContext): Promise<void> {
    const form = parseInput(forgotPasswordSchema, input);
    await this.throttle(`reset-request:${ctx.clientAddress}`, LIMITS.resetRequestsPerAddress);
    const userId = await this.userIdFor("username", form.username);
    if (!userId) return;
    const user = await this.loadUser(userId);
    if (!user.registered || !user.confirmed) return;
    const code = this.newCode();
    try {
      await this.users.handle(userId, { type: "IssueVerificationCode", codeId: this.ids.next(), codeHash: this.codeHash(code), purpose: "password-reset", now: this.clock.now() },
        { metadata: requestMetadata(ctx, userId) },
      );
    } catch (error) {
      // The per-account resend limit must not reveal that the account exists: the earlier code stays valid.
      if (error instanceof DomainError && error.code === "RATE_LIMITED") return;
      throw error;
    }
    await this.sendCode(user.email, code, "password-reset");
  }

  /** Forgot password, step two: the newest reset code sets the new password and revokes every session. */
  async resetPassword(input: unknown, ctx: RequestContext): Promise<{ userId: string }> {
    const form = parseInput(resetPasswordSchema, input);
    await this.throttle(`reset-attempt:${ctx.clientAddress}`, LIMITS.resetAttemptsPerAddress);
    const userId = await this.userIdFor("username", form.username);
    if (!userId) throw new DomainError("CODE_INVALID", INVALID_CODE_MESSAGE);
    const user = await this.loadUser(userId);
    if (!user.registered || !user.codes.some((c) => c.purpose === "password-reset")) {
      throw new DomainError("CODE_INVALID", INVALID_CODE_MESSAGE);
    }
    const result = await this.users.handle(userId, { type: "ResetPassword", codeHash: this.codeHash(form.code), passwordHash: await this.passwords.hash(form.password), now: this.clock.now() },
      { metadata: requestMetadata(ctx, userId) },
    );
    if (result.events.some((e) => e.type === "VerificationCodeRejected")) {
      throw new DomainError("CODE_INVALID", INVALID_CODE_MESSAGE);
    }
    await this.sessions.revokeAllForUser(userId);
    // Whoever proved the mailbox may log in again at once.
    await this.limiter.reset(`login-failures:${normaliseUsername(form.username)}`);
    await this.projections.waitForPosition(result.position);
    return { userId };
  }

  /** Change password (spec 001 §5): the old password must be right; wrong tries are throttled per account. */
  async changePassword(userId: string, input: unknown, ctx: RequestContext): Promise<void> {
    const form = parseInput(changePasswordSchema, input);
    const key = `change-password-failures:${userId}`;
    const { limit, windowMs } = LIMITS.changePasswordFailuresPerAccount;
    if (!(await this.limiter.peek(key, limit, windowMs)).allowed) {
      throw new DomainError("RATE_LIMITED", RATE_LIMITED_MESSAGE);
    }
    const user = await this.loadUser(userId);
    if (!user.registered) throw new DomainError("USER_NOT_FOUND", "User not found");
    if (!user.passwordHash) {
      throw new DomainError("NO_PASSWORD", "This account has no password yet. Use Forgot Password on the login page to set one.", "oldPassword");
    }
    if (!(await this.passwords.verify(form.oldPassword, user.passwordHash))) {
      await this.limiter.hit(key, limit, windowMs);
      throw new DomainError("WRONG_PASSWORD", "The old password is incorrect.", "oldPassword");
    }
    await this.limiter.reset(key);
    const result = await this.users.handle(userId, { type: "ChangePassword", passwordHash: await this.passwords.hash(form.newPassword), now: this.clock.now() },
      { metadata: requestMetadata(ctx, userId) },
    );
    await this.projections.waitForPosition(result.position);
  }

  /** 'Log out of all Devices': every session of the account, this one included. */
  async logOutEverywhere(userId: string, ctx: RequestContext): Promise<void> {
    const result = await this.users.handle(userId, { type: "RevokeAllSessions", reason: "user-request", now: this.clock.now() },
      { metadata: requestMetadata(ctx, userId) },
    );
    await this.sessions.revokeAllForUser(userId);
    await this.projections.waitForPosition(result.position);
  }

  /**
   * After the OpenID adapter validated the ID token: a known (issuer, subject)
   * signs in; an unknown one whose verified email belongs to an account is
   * linked to it; otherwise a new, confirmed account is created
   * (docs/decisions/010).
   */
  async signInWithExternalIdentity(
    claims: VerifiedExternalClaims,
    ctx: RequestContext,
  ): Promise<{ userId: string; outcome: ExternalSignInOutcome }> {
    await this.throttle(`external-sign-in:${ctx.clientAddress}`, LIMITS.externalSignInPerAddress);
    const identityStream = this.reservationStream("oidc", `${claims.issuer}\n${claims.subject}`);
    const holder = (await this.reservations.load(identityStream)).state.holder;
    if (holder && (await this.loadUser(holder)).registered) return { userId: holder, outcome: "signed-in" };

    if (!claims.email || !claims.emailVerified) {
      throw new DomainError("OIDC_EMAIL_UNVERIFIED", "The provider did not vouch for an email address.");
    }
    const email = parseInput(emailSchema, claims.email);
    const identity: ExternalIdentity = {
      issuer: claims.issuer,
      providerName: claims.providerName,
      identityKey: identityStream.slice("oidc-".length),
      subject: claims.subject,
      email,
    };
    const now = this.clock.now();
    const existing = await this.userIdFor("email", email);
    if (existing && (await this.loadUser(existing)).registered) {
      const metadata = requestMetadata(ctx, existing);
      await this.reserveStream(identityStream, existing, metadata, "IDENTITY_TAKEN", "This sign-in is linked to another account.");
      const result = await this.users.handle(existing, { type: "LinkExternalIdentity", identity, now },
        { metadata },
      );
      await this.projections.waitForPosition(result.position);
      return { userId: existing, outcome: "linked" };
    }

    const userId = this.ids.next();
    const metadata = requestMetadata(ctx, userId);
    await this.reserveStream(identityStream, userId, metadata, "IDENTITY_TAKEN", "This sign-in is linked to another account.");
    const username = await this.reserveDerivedUsername(email, userId, metadata);
    try {
      await this.reserve("email", email, userId, metadata, "EMAIL_TAKEN", "Email already present");
    } catch (error) {
      await this.release("username", username, userId, metadata);
      await this.releaseStream(identityStream, userId, metadata);
      throw error;
    }
    const result = await this.users.handle(userId, { type: "RegisterExternalUser", userId, username, email, identity, now },
      { metadata },
    );
    await this.projections.waitForPosition(result.position);
    return { userId, outcome: "created" };
  }

  /** A username from the email's local part (letters and digits), made unique with a numeric suffix. */
  private async reserveDerivedUsername(email: string, userId: string, metadata: EventMetadata): Promise<string> {
    const base = (email.split("@")[0] ?? "").replace(/[^A-Za-z0-9]/g, "").slice(0, 24) || "user";
    const candidates = [base, ...Array.from({ length: 8 }, () => `${base}${randomInt(100, 1_000_000)}`)];
    for (const candidate of candidates) {
      try {
        await this.reserve("username", candidate, userId, metadata, "USERNAME_TAKEN", "Username already present");
        return candidate;
      } catch (error) {
        if (error instanceof DomainError && error.code === "USERNAME_TAKEN") continue;
        throw error;
      }
    }
    throw new DomainError("USERNAME_TAKEN", "Could not find a free username.");
  }

  /**
   * Re-authentication before a sensitive step (revealing a saved API key):
   * the signed-in user's password is checked again, with failures limited
   * per account like logins.
   */
  async verifyPassword(userId: string, password: string): Promise<boolean> {
    const key = `reauth-failures:${userId}`;
    const { limit, windowMs } = LIMITS.loginFailuresPerAccount;
    if (!(await this.limiter.peek(key, limit, windowMs)).allowed) throw new DomainError("RATE_LIMITED", RATE_LIMITED_MESSAGE);
    const user = await this.loadUser(userId);
    const valid = user.registered && typeof password === "string" && password.length <= 256 && Boolean(user.passwordHash) && (await this.passwords.verify(password, user.passwordHash!));
    if (!valid) await this.limiter.hit(key, limit, windowMs);
    return valid;
  }

  /** Opens a server-side session (a fresh token every login: rotation) and records the login. */
  async startSession(userId: string, ctx: RequestContext, method: LoginMethod = "password"): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString("base64url");
    const ref = this.sessionRef(token);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    const result = await this.users.handle(userId, { type: "RecordLogin", sessionRef: ref, method, now },
      { metadata: requestMetadata(ctx, userId) },
    );
    await this.sessions.create({ ref, userId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString(), impersonatorId: null });
    await this.projections.waitForPosition(result.position);
    return { token, expiresAt };
  }

  async resolveSession(token: string): Promise<SessionRecord | null> {
    if (!token) return null;
    return this.sessions.find(this.sessionRef(token), this.clock.now());
  }

  async endSession(token: string, ctx: RequestContext): Promise<void> {
    const session = await this.resolveSession(token);
    if (!session) return;
    await this.sessions.revoke(session.ref);
    const result = await this.users.handle(session.userId, { type: "RecordLogout", sessionRef: session.ref, now: this.clock.now() },
      { metadata: requestMetadata(ctx, session.userId) },
    );
    await this.projections.waitForPosition(result.position);
  }

  private async loadUser(userId: string): Promise<UserState> {
    return (await this.users.load(userId)).state;
  }

  private reservationStream(kind: ReservationKind, value: string) {
    return reservationStreamFor(this.secrets, kind, value);
  }

  /** Resolves a username or email to its account through the reservation stream (consistent, unlike a read model). */
  private async userIdFor(kind: ReservationKind, value: string): Promise<string | null> {
    return (await this.reservations.load(this.reservationStream(kind, value))).state.holder;
  }

  private reserve(kind: ReservationKind, value: string, userId: string, metadata: EventMetadata, takenCode: string, takenMessage: string) {
    return this.reserveStream(this.reservationStream(kind, value), userId, metadata, takenCode, takenMessage);
  }

  private async reserveStream(streamId: string, userId: string, metadata: EventMetadata, takenCode: string, takenMessage: string) {
    const current = await this.reservations.load(streamId);
    const holder = current.state.holder;
    const ownerIsRegistered = holder !== null && (await this.users.load(holder)).version >= 0;
    await this.reservations.handle(
      streamId,
      { type: "Reserve", userId, now: this.clock.now(), ownerIsRegistered, takenCode, takenMessage },
      { metadata: { ...metadata, subjectId: undefined }, loaded: current },
    );
  }

  private release(kind: ReservationKind, value: string, userId: string, metadata: EventMetadata) {
    return this.releaseStream(this.reservationStream(kind, value), userId, metadata);
  }

  private async releaseStream(streamId: string, userId: string, metadata: EventMetadata) {
    await this.reservations.handle(streamId, { type: "Release", userId, now: this.clock.now() }, { metadata: { ...metadata, subjectId: undefined } });
  }

  private async throttle(key: string, rule: { limit: number; windowMs: number }, code = "RATE_LIMITED") {
    const decision = await this.limiter.hit(key, rule.limit, rule.windowMs);
    if (!decision.allowed) throw new DomainError(code, RATE_LIMITED_MESSAGE);
  }

  private newCode(): string {
    return randomInt(0, 1_000_000).toString().padStart(6, "0");
  }

  private codeHash(code: string): string {
    return this.secrets.hash("verification-code", code);
  }

  private sessionRef(token: string): string {
    return this.secrets.hash("session", token);
  }

  private async sendCode(email: string, code: string, purpose: "signup" | "password-reset" = "signup") {
    const product = this.settings.productName;
    if (purpose === "password-reset") {
      await this.mailer.send({
        to: email,
        subject: `Your ${product} password reset code`,
        text: `Your ${product} password reset code is ${code}. It expires in 10 minutes. If you did not ask to reset your password, ignore this message: your password stays as it is.`,
      });
      return;
    }
    await this.mailer.send({
      to: email,
      subject: `Your ${product} verification code`,
      text: `Your ${product} verification code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this message.`,
    });
  }

  private dummy: Promise<string> | null = null;
  /** Verifying against a real hash keeps "unknown user" as slow as "wrong password". */
  private dummyHash(): Promise<string> {
    this.dummy ??= this.passwords.hash(randomBytes(16).toString("hex"));
    return this.dummy;
  }
}
