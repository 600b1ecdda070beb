import { randomBytes, randomInt } from "node:crypto";
import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { Mailer } from "#application/ports/mailer";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { PasswordHasher, RateLimiter, SecretHasher, SessionRecord, SessionStore } from "#application/ports/sessions";
import { handleCommand } from "#application/shared/command-handler";
import type { RequestContext } from "#application/shared/request-context";
import { parseInput } from "#application/shared/parse";
import type { AppSettings } from "#application/shared/app-settings";
import { fold } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";
import {
  confirmSignupSchema,
  loginSchema,
  normaliseEmail,
  normaliseUsername,
  signupSchema,
  usernameSchema,
} from "#domain/identity/credentials";
import { type ReservationKind, reservationDecider, reservationStreamId } from "#domain/identity/reservation";
import { type UserEvent, type UserState, userDecider, userStreamId } from "#domain/identity/user";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Limits per client address and per account (ARCHITECTURE §8). */
const LIMITS = {
  loginPerAddress: { limit: 30, windowMs: 15 * 60_000 },
  loginFailuresPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  usernameCheckPerAddress: { limit: 30, windowMs: 60_000 },
  registerPerAddress: { limit: 10, windowMs: 60 * 60_000 },
  codeRequestsPerAddress: { limit: 20, windowMs: 60 * 60_000 },
  confirmPerAddress: { limit: 30, windowMs: 15 * 60_000 },
} as const;

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
  ) {}

  async register(input: unknown, ctx: RequestContext): Promise<{ userId: string }> {
    const form = parseInput(signupSchema, input);
    await this.throttle(`register:${ctx.clientAddress}`, LIMITS.registerPerAddress);
    const userId = this.ids.next();
    const now = this.clock.now();
    const metadata = this.metadata(ctx, userId);

    await this.reserve("username", form.username, userId, metadata, "USERNAME_TAKEN", "Username already present");
    try {
      await this.reserve("email", form.email, userId, metadata, "EMAIL_TAKEN", "Email already present");
    } catch (error) {
      await this.release("username", form.username, userId, metadata);
      throw error;
    }

    const code = this.newCode();
    await handleCommand(
      this.events,
      this.ids,
      userDecider,
      userStreamId(userId),
      {
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
    await handleCommand(
      this.events,
      this.ids,
      userDecider,
      userStreamId(userId),
      { type: "IssueVerificationCode", codeId: this.ids.next(), codeHash: this.codeHash(code), purpose: "signup", now: this.clock.now() },
      { metadata: this.metadata(ctx, userId) },
    );
    await this.sendCode(user.email, code);
  }

  async confirmSignup(input: unknown, ctx: RequestContext): Promise<{ userId: string }> {
    const form = parseInput(confirmSignupSchema, input);
    await this.throttle(`confirm:${ctx.clientAddress}`, LIMITS.confirmPerAddress);
    const userId = await this.userIdFor("username", form.username);
    if (!userId) throw new DomainError("CODE_INVALID", "Invalid verification code provided, please try again.");
    const result = await handleCommand(
      this.events,
      this.ids,
      userDecider,
      userStreamId(userId),
      { type: "ConfirmSignup", codeHash: this.codeHash(form.code), now: this.clock.now() },
      { metadata: this.metadata(ctx, userId) },
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
    const valid = user?.registered
      ? await this.passwords.verify(form.password, user.passwordHash)
      : await this.passwords.verify(form.password, await this.dummyHash());
    if (!userId || !user?.registered || !valid) {
      await this.limiter.hit(accountKey, limit, windowMs);
      throw new DomainError("INVALID_CREDENTIALS", "Incorrect username or password.");
    }
    if (!user.confirmed) throw new DomainError("USER_NOT_CONFIRMED", "User is not confirmed.");
    await this.limiter.reset(accountKey);
    return { userId };
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
    const valid = user.registered && typeof password === "string" && password.length <= 256 && (await this.passwords.verify(password, user.passwordHash));
    if (!valid) await this.limiter.hit(key, limit, windowMs);
    return valid;
  }

  /** Opens a server-side session (a fresh token every login: rotation) and records the login. */
  async startSession(userId: string, ctx: RequestContext): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString("base64url");
    const ref = this.sessionRef(token);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    const result = await handleCommand(
      this.events,
      this.ids,
      userDecider,
      userStreamId(userId),
      { type: "RecordLogin", sessionRef: ref, now },
      { metadata: this.metadata(ctx, userId) },
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
    const result = await handleCommand(
      this.events,
      this.ids,
      userDecider,
      userStreamId(session.userId),
      { type: "RecordLogout", sessionRef: session.ref, now: this.clock.now() },
      { metadata: this.metadata(ctx, session.userId) },
    );
    await this.projections.waitForPosition(result.position);
  }

  private async loadUser(userId: string): Promise<UserState> {
    const recorded = await this.events.readStream(userStreamId(userId));
    return fold(userDecider, recorded as unknown as UserEvent[]);
  }

  private reservationStream(kind: ReservationKind, value: string) {
    const normalised = kind === "username" ? normaliseUsername(value) : normaliseEmail(value);
    return reservationStreamId(kind, this.secrets.hash(`reservation:${kind}`, normalised));
  }

  /** Resolves a username or email to its account through the reservation stream (consistent, unlike a read model). */
  private async userIdFor(kind: ReservationKind, value: string): Promise<string | null> {
    const recorded = await this.events.readStream(this.reservationStream(kind, value));
    return fold(reservationDecider, recorded as never).holder;
  }

  private async reserve(kind: ReservationKind, value: string, userId: string, metadata: EventMetadata, takenCode: string, takenMessage: string) {
    const streamId = this.reservationStream(kind, value);
    const current = fold(reservationDecider, (await this.events.readStream(streamId)) as never);
    const ownerIsRegistered =
      current.holder !== null && (await this.events.readStream(userStreamId(current.holder))).length > 0;
    await handleCommand(
      this.events,
      this.ids,
      reservationDecider,
      streamId,
      { type: "Reserve", userId, now: this.clock.now(), ownerIsRegistered, takenCode, takenMessage },
      { metadata: { ...metadata, subjectId: undefined } },
    );
  }

  private async release(kind: ReservationKind, value: string, userId: string, metadata: EventMetadata) {
    await handleCommand(
      this.events,
      this.ids,
      reservationDecider,
      this.reservationStream(kind, value),
      { type: "Release", userId, now: this.clock.now() },
      { metadata: { ...metadata, subjectId: undefined } },
    );
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

  private async sendCode(email: string, code: string) {
    const product = this.settings.productName;
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

  private metadata(ctx: RequestContext, subjectId: string): EventMetadata {
    return {
      correlationId: ctx.requestId,
      actorId: ctx.actorId ?? subjectId,
      impersonatorId: ctx.impersonatorId,
      subjectId,
    };
  }
}
