import { randomBytes, timingSafeEqual } from "node:crypto";
import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { RateLimiter, SecretHasher } from "#application/ports/sessions";
import { Aggregate } from "#application/shared/aggregate";
import type { AppSettings } from "#application/shared/app-settings";
import { refuseDuringImpersonation } from "#application/shared/impersonation-guard";
import { parseInput } from "#application/shared/parse";
import { type RequestContext, requestMetadata } from "#application/shared/request-context";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import {
  type AccessTokenCommand,
  type AccessTokenEvent,
  type AccessTokenState,
  createAccessTokenSchema,
  isExpired,
  type TokenPermission,
  USE_SUMMARY_MS,
} from "#domain/identity/access-token";
import { accessTokenAggregate } from "#domain/identity/access-token-events";
import { type AccessTokenReadModel, accessTokensOf } from "#projections/identity/access-tokens.queries";

/** What a request made with a valid token may do: act for `ownerId`, within the scope, with the permissions. */
export interface TokenGrant {
  tokenId: string;
  ownerId: string;
  /** null: every workspace of the owner. */
  workspaceIds: string[] | null;
  permissions: TokenPermission[];
}

export type AccessTokenView = AccessTokenReadModel & { expired: boolean };

const PREFIX = "dcp_";
/** `dcp_<token id, 32 hex>_<secret, 32 random bytes base64url>`: the id finds the stream, the secret proves the holder. */
const TOKEN_FORMAT = /^dcp_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
const HASH_PURPOSE = "access-token";
const DAY_MS = 86_400_000;
const RATE_WINDOW_MS = 60_000;

const compact = (uuid: string) => uuid.replaceAll("-", "");
const expand = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * Personal access tokens (decision 220): created in Settings, shown once,
 * checked on every /api/v1 and /mcp request against the token's own stream
 * (strongly consistent: a revocation holds from the next request), each use
 * summarised as an event, rate-limited per token.
 */
@injectable()
export class AccessTokenService {
  private readonly tokens: Aggregate<AccessTokenCommand, AccessTokenEvent, AccessTokenState>;
  private readonly usesInFlight = new Map<string, Promise<void>>();

  constructor(
    @inject(TOKENS.EventStore) events: EventStore,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(TOKENS.SecretHasher) private readonly secrets: SecretHasher,
    @inject(TOKENS.RateLimiter) private readonly limiter: RateLimiter,
    @inject(TOKENS.Config) private readonly settings: AppSettings,
    @inject(WorkspaceQueries) private readonly workspaces: WorkspaceQueries,
  ) {
    this.tokens = new Aggregate(events, ids, accessTokenAggregate);
  }

  /** Mints a token; the plain token is in the answer and nowhere else, ever. */
  async create(ownerId: string, input: unknown, ctx: RequestContext): Promise<{ tokenId: string; token: string }> {
    refuseDuringImpersonation(ctx);
    const form = parseInput(createAccessTokenSchema, input);
    const workspaceIds = form.scope === "all" ? null : [...new Set(form.workspaceIds)];
    // Only the owner's own workspaces can be chosen; another user's id answers "not found".
    for (const workspaceId of workspaceIds ?? []) await this.workspaces.get(ownerId, workspaceId);
    const tokenId = this.ids.next();
    const token = `${PREFIX}${compact(tokenId)}_${randomBytes(32).toString("base64url")}`;
    const now = this.clock.now();
    const result = await this.tokens.handle(
      tokenId,
      {
        type: "CreateAccessToken",
        tokenId,
        ownerId,
        name: form.name,
        secretHash: this.secrets.hash(HASH_PURPOSE, token),
        workspaceIds,
        permissions: form.permissions,
        expiresAt: form.expiresIn === "none" ? null : new Date(now.getTime() + Number(form.expiresIn) * DAY_MS),
        now,
      },
      { metadata: requestMetadata(ctx, ownerId) },
    );
    await this.projections.waitForPosition(result.position);
    return { tokenId, token };
  }

  async list(ownerId: string): Promise<AccessTokenView[]> {
    const now = this.clock.now();
    return (await accessTokensOf(this.readModels, ownerId)).map((token) => ({ ...token, expired: isExpired(token, now) }));
  }

  async revoke(ownerId: string, tokenId: string, ctx: RequestContext): Promise<void> {
    const result = await this.tokens.handle(tokenId, { type: "RevokeAccessToken", ownerId, now: this.clock.now() }, { metadata: requestMetadata(ctx, ownerId) });
    await this.projections.waitForPosition(result.position);
  }

  /**
   * The grant of a bearer token, or null for anything that is not a live
   * token: malformed, unknown, wrong secret, revoked, expired, or its owner
   * forgotten (the hash was personal data). `useDue`: this is the token's
   * first request of a quarter hour, whose summary `recordUse` writes.
   */
  async authenticate(bearer: string): Promise<(TokenGrant & { useDue: boolean }) | null> {
    const match = TOKEN_FORMAT.exec(bearer);
    if (!match) return null;
    const tokenId = expand(match[1]!);
    const state = (await this.tokens.load(tokenId)).state;
    const now = this.clock.now();
    if (state.status !== "Active" || !state.secretHash || isExpired(state, now)) return null;
    const expected = Buffer.from(state.secretHash);
    const given = Buffer.from(this.secrets.hash(HASH_PURPOSE, bearer));
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const useDue = !state.lastUsedAt || now.getTime() - Date.parse(state.lastUsedAt) >= USE_SUMMARY_MS;
    return { tokenId, ownerId: state.ownerId, workspaceIds: state.workspaceIds, permissions: state.permissions, useDue };
  }

  /**
   * Writes the token's use summary. Callers need not wait for it: a summary
   * that fails leaves "last used" a quarter hour behind, never a request
   * failed. Parallel first uses in one process write it once; across
   * processes, the stream's version makes all but one decide there is nothing to do.
   */
  recordUse(grant: TokenGrant, ctx: RequestContext): Promise<void> {
    const pending = this.usesInFlight.get(grant.tokenId);
    if (pending) return pending;
    const recording = this.tokens
      .handle(grant.tokenId, { type: "RecordAccessTokenUse", now: this.clock.now() }, { metadata: requestMetadata({ ...ctx, actorId: grant.ownerId }, grant.ownerId) })
      .then(() => undefined)
      .finally(() => this.usesInFlight.delete(grant.tokenId));
    this.usesInFlight.set(grant.tokenId, recording);
    return recording;
  }

  /** One request of the token's per-minute allowance: how long to wait when it is spent. */
  async spend(tokenId: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const decision = await this.limiter.hit(`access-token:${tokenId}`, this.settings.apiRateLimitPerMinute, RATE_WINDOW_MS);
    return { allowed: decision.allowed, retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)) };
  }
}
