import { z } from "zod";
import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * A personal access token (stream `access-token-<id>`, decision 220): lets a
 * program act for its owner on /api/v1 and /mcp, within a scope (all the
 * owner's workspaces, or chosen ones) and with permissions (read, ask,
 * upload), until it expires or is revoked. The secret is never stored: only
 * its keyed hash, under `personal`, so a purged owner's tokens can no longer
 * be checked at all (crypto-shredding, decision 006).
 */

export const TOKEN_PERMISSIONS = ["read", "ask", "upload"] as const;
export type TokenPermission = (typeof TOKEN_PERMISSIONS)[number];
export const TOKEN_LIFETIMES = ["30", "90", "365", "none"] as const;
export const TOKEN_NAME_MAX = 60;
/** More chosen workspaces than this is "all workspaces" in all but name. */
export const TOKEN_WORKSPACES_MAX = 100;

/** The Settings form (browser and server). */
export const createAccessTokenSchema = z
  .object({
    name: z.string({ required_error: "Token name is required" }).trim().min(1, "Token name is required").max(TOKEN_NAME_MAX, "Token name is too long"),
    expiresIn: z.enum(TOKEN_LIFETIMES, { errorMap: () => ({ message: "Choose when the token expires" }) }),
    scope: z.enum(["all", "chosen"], { errorMap: () => ({ message: "Choose the workspaces it may reach" }) }),
    workspaceIds: z.array(z.string().min(1).max(64)).max(TOKEN_WORKSPACES_MAX).default([]),
    permissions: z.array(z.enum(TOKEN_PERMISSIONS)).min(1, "Choose at least one permission"),
  })
  .superRefine((value, ctx) => {
    if (value.scope === "chosen" && value.workspaceIds.length === 0) {
      ctx.addIssue({ code: "custom", path: ["workspaceIds"], message: "Choose at least one workspace" });
    }
  });

/** `null`: every workspace the owner has, now and later; otherwise the chosen ids. */
export type TokenScope = { workspaceIds: string[] | null };

export type AccessTokenEvent =
  | DomainEvent<
      "AccessTokenCreated",
      {
        tokenId: string;
        ownerId: string;
        workspaceIds: string[] | null;
        permissions: TokenPermission[];
        expiresAt: string | null;
        createdAt: string;
        personal: { name: string; secretHash: string } | null;
      }
    >
  | DomainEvent<"AccessTokenUsed", { at: string }>
  | DomainEvent<"AccessTokenRevoked", { at: string; reason: "owner" }>;

export type AccessTokenCommand =
  | {
      type: "CreateAccessToken";
      tokenId: string;
      ownerId: string;
      name: string;
      secretHash: string;
      workspaceIds: string[] | null;
      permissions: TokenPermission[];
      expiresAt: Date | null;
      now: Date;
    }
  | { type: "RecordAccessTokenUse"; now: Date }
  | { type: "RevokeAccessToken"; ownerId: string; now: Date };

export type AccessTokenState =
  | { status: "None" }
  | {
      status: "Active" | "Revoked";
      tokenId: string;
      ownerId: string;
      workspaceIds: string[] | null;
      permissions: TokenPermission[];
      expiresAt: string | null;
      /** null once the owner was forgotten: the token can no longer be checked. */
      secretHash: string | null;
      lastUsedAt: string | null;
    };

export const accessTokenStreamId = (tokenId: string) => `access-token-${tokenId}`;
export const accessTokenNotFound = () => new DomainError("ACCESS_TOKEN_NOT_FOUND", "Token not found");

/**
 * A use is recorded at most once per window: the owner sees when the token was
 * last used to the quarter hour, and a busy script does not write an event per request.
 */
export const USE_SUMMARY_MS = 15 * 60_000;

export function isExpired(state: { expiresAt: string | null }, now: Date): boolean {
  return state.expiresAt !== null && Date.parse(state.expiresAt) <= now.getTime();
}

export function decide(command: AccessTokenCommand, state: AccessTokenState): AccessTokenEvent[] {
  switch (command.type) {
    case "CreateAccessToken":
      if (state.status !== "None") throw new DomainError("ACCESS_TOKEN_EXISTS", "This token already exists.");
      return [
        {
          type: "AccessTokenCreated",
          data: {
            tokenId: command.tokenId,
            ownerId: command.ownerId,
            workspaceIds: command.workspaceIds,
            permissions: [...new Set(command.permissions)],
            expiresAt: command.expiresAt?.toISOString() ?? null,
            createdAt: command.now.toISOString(),
            personal: { name: command.name, secretHash: command.secretHash },
          },
        },
      ];
    case "RecordAccessTokenUse": {
      if (state.status !== "Active") return [];
      if (state.lastUsedAt && command.now.getTime() - Date.parse(state.lastUsedAt) < USE_SUMMARY_MS) return [];
      return [{ type: "AccessTokenUsed", data: { at: command.now.toISOString() } }];
    }
    case "RevokeAccessToken":
      if (state.status === "None" || state.ownerId !== command.ownerId) throw accessTokenNotFound();
      if (state.status === "Revoked") return [];
      return [{ type: "AccessTokenRevoked", data: { at: command.now.toISOString(), reason: "owner" } }];
  }
}

export function evolve(state: AccessTokenState, event: AccessTokenEvent): AccessTokenState {
  switch (event.type) {
    case "AccessTokenCreated":
      return {
        status: "Active",
        tokenId: event.data.tokenId,
        ownerId: event.data.ownerId,
        workspaceIds: event.data.workspaceIds,
        permissions: event.data.permissions,
        expiresAt: event.data.expiresAt,
        secretHash: event.data.personal?.secretHash ?? null,
        lastUsedAt: null,
      };
    case "AccessTokenUsed":
      return state.status === "None" ? state : { ...state, lastUsedAt: event.data.at };
    case "AccessTokenRevoked":
      return state.status === "None" ? state : { ...state, status: "Revoked" };
  }
}

export const accessTokenDecider: Decider<AccessTokenCommand, AccessTokenEvent, AccessTokenState> = {
  initialState: () => ({ status: "None" }),
  decide,
  evolve,
};
