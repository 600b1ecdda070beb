import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { type AccessTokenCommand, type AccessTokenEvent, accessTokenDecider, createAccessTokenSchema, USE_SUMMARY_MS } from "./access-token";

const now = new Date("2026-03-01T10:00:00Z");
const create: AccessTokenCommand = {
  type: "CreateAccessToken",
  tokenId: "t1",
  ownerId: "alice",
  name: "Weekly reports",
  secretHash: "hash-of-secret",
  workspaceIds: ["w1"],
  permissions: ["read", "ask", "read"],
  expiresAt: new Date("2026-03-31T10:00:00Z"),
  now,
};
const given = (events: AccessTokenEvent[]) => DeciderSpecification.for(accessTokenDecider).given(events);
const created = given([]).when(create).events();

describe("access token decider", () => {
  it("creates a token whose name and secret hash are the owner's personal data, permissions once each", () => {
    expect(created).toEqual([
      {
        type: "AccessTokenCreated",
        data: {
          tokenId: "t1",
          ownerId: "alice",
          workspaceIds: ["w1"],
          permissions: ["read", "ask"],
          expiresAt: "2026-03-31T10:00:00.000Z",
          createdAt: now.toISOString(),
          personal: { name: "Weekly reports", secretHash: "hash-of-secret" },
        },
      },
    ]);
  });

  it("summarises uses: at most one use event per window", () => {
    const used = given(created).when({ type: "RecordAccessTokenUse", now }).events();
    expect(used).toEqual([{ type: "AccessTokenUsed", data: { at: now.toISOString() } }]);
    given([...created, ...used]).when({ type: "RecordAccessTokenUse", now: new Date(now.getTime() + USE_SUMMARY_MS - 1) }).thenNothing();
    given([...created, ...used])
      .when({ type: "RecordAccessTokenUse", now: new Date(now.getTime() + USE_SUMMARY_MS) })
      .then([{ type: "AccessTokenUsed", data: { at: new Date(now.getTime() + USE_SUMMARY_MS).toISOString() } }]);
  });

  it("revokes once; another user's token answers like a missing one; a revoked token records no use", () => {
    given([]).when({ type: "RevokeAccessToken", ownerId: "alice", now }).thenThrows("ACCESS_TOKEN_NOT_FOUND");
    given(created).when({ type: "RevokeAccessToken", ownerId: "bob", now }).thenThrows("ACCESS_TOKEN_NOT_FOUND");
    const revoked = given(created).when({ type: "RevokeAccessToken", ownerId: "alice", now }).events();
    expect(revoked).toEqual([{ type: "AccessTokenRevoked", data: { at: now.toISOString(), reason: "owner" } }]);
    given([...created, ...revoked]).when({ type: "RevokeAccessToken", ownerId: "alice", now }).thenNothing();
    given([...created, ...revoked]).when({ type: "RecordAccessTokenUse", now }).thenNothing();
  });

  it("the form needs a name, a permission, and workspaces when the scope is chosen ones", () => {
    expect(createAccessTokenSchema.safeParse({ name: " ", expiresIn: "30", scope: "all", permissions: ["read"] }).success).toBe(false);
    expect(createAccessTokenSchema.safeParse({ name: "x", expiresIn: "30", scope: "all", permissions: [] }).success).toBe(false);
    expect(createAccessTokenSchema.safeParse({ name: "x", expiresIn: "30", scope: "chosen", permissions: ["read"] }).success).toBe(false);
    expect(createAccessTokenSchema.safeParse({ name: "x", expiresIn: "none", scope: "chosen", workspaceIds: ["w1"], permissions: ["read"] }).success).toBe(true);
  });
});
