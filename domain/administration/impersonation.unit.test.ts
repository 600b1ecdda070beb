import { describe, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { adminRoleDecider, BY_CONFIGURATION } from "./admin-role";
import { type ImpersonationCommand, type ImpersonationEvent, impersonationDecider, type ImpersonationTarget } from "./impersonation";

const spec = DeciderSpecification.for(impersonationDecider);
const t0 = new Date("2026-01-01T10:00:00.000Z");
const at = (ms: number) => new Date(t0.getTime() + ms);
const ada: ImpersonationTarget = { userId: "ada", status: "ACTIVE", isAdmin: false, displayName: "Ada Lovelace" };
const start = (overrides: Partial<Extract<ImpersonationCommand, { type: "StartImpersonation" }>> = {}): ImpersonationCommand => ({
  type: "StartImpersonation",
  impersonationId: "imp-1",
  adminId: "root",
  actorIsAdmin: true,
  adminHasRunning: false,
  target: ada,
  reason: "Ticket 42: cannot see her workspace",
  now: t0,
  ...overrides,
});
const started: ImpersonationEvent = {
  type: "ImpersonationStarted",
  data: {
    impersonationId: "imp-1",
    adminId: "root",
    userId: "ada",
    startedAt: t0.toISOString(),
    deadline: at(3600_000).toISOString(),
    personal: { reason: "Ticket 42: cannot see her workspace", userName: "Ada Lovelace" },
  },
};
const endedBy = (cause: "admin" | "expiry" | "forced", endedById: string, ms: number): ImpersonationEvent => ({
  type: "ImpersonationEnded",
  data: { cause, endedById, endedAt: at(ms).toISOString() },
});

describe("starting an impersonation", () => {
  it("records the admin, the user, the reason and a deadline one hour (3600 s) later", () => spec.given([]).when(start()).then([started]));
  it("is refused to a non-admin", () => spec.given([]).when(start({ actorIsAdmin: false })).thenThrows("NOT_ADMIN"));
  it("needs a reason", () => spec.given([]).when(start({ reason: "   " })).thenThrows("REASON_REQUIRED"));
  it("refuses an unknown, purged or unconfirmed user", () => spec.given([]).when(start({ target: { ...ada, status: null } })).thenThrows("USER_NOT_FOUND"));
  it("refuses a user whose account is pending deletion", () =>
    spec.given([]).when(start({ target: { ...ada, status: "PENDING_DELETE" } })).thenThrows("USER_PENDING_DELETION"));
  it("refuses the admin themself", () => spec.given([]).when(start({ target: { ...ada, userId: "root" } })).thenThrows("CANNOT_IMPERSONATE_SELF"));
  it("refuses another admin", () => spec.given([]).when(start({ target: { ...ada, isAdmin: true } })).thenThrows("CANNOT_IMPERSONATE_ADMIN"));
  it("refuses a second one while one is running", () => spec.given([]).when(start({ adminHasRunning: true })).thenThrows("IMPERSONATION_RUNNING"));
  it("happens once per id", () => spec.given([started]).when(start()).thenThrows("IMPERSONATION_EXISTS"));
});

describe("what the admin viewed", () => {
  it("is recorded while it runs", () =>
    spec
      .given([started])
      .when({ type: "RecordView", kind: "workspace", resourceId: "w1", title: "Thesis", now: at(60_000) })
      .then([{ type: "ImpersonationViewed", data: { kind: "workspace", resourceId: "w1", viewedAt: at(60_000).toISOString(), personal: { title: "Thesis" } } }]));
  it("counts the same resource read again within a minute as the same view", () => {
    const viewed = { type: "ImpersonationViewed" as const, data: { kind: "document" as const, resourceId: "d1", viewedAt: at(60_000).toISOString(), personal: { title: "Atlas" } } };
    spec.given([started, viewed]).when({ type: "RecordView", kind: "document", resourceId: "d1", title: "Atlas", now: at(100_000) }).then([]);
    spec
      .given([started, viewed])
      .when({ type: "RecordView", kind: "document", resourceId: "d1", title: "Atlas", now: at(130_000) })
      .then([{ type: "ImpersonationViewed", data: { kind: "document", resourceId: "d1", viewedAt: at(130_000).toISOString(), personal: { title: "Atlas" } } }]);
  });
  it("is refused after the deadline", () =>
    spec.given([started]).when({ type: "RecordView", kind: "document", resourceId: "d1", title: "x", now: at(3600_000) }).thenThrows("IMPERSONATION_ENDED"));
  it("is refused after the end", () =>
    spec.given([started, endedBy("admin", "root", 10)]).when({ type: "RecordView", kind: "document", resourceId: "d1", title: "x", now: at(20) }).thenThrows("IMPERSONATION_ENDED"));
});

describe("ending", () => {
  it("by the admin who started it", () => spec.given([started]).when({ type: "EndImpersonation", cause: "admin", endedById: "root", now: at(5000) }).then([endedBy("admin", "root", 5000)]));
  it("by anyone else asking as 'admin' is answered as if it did not exist", () =>
    spec.given([started]).when({ type: "EndImpersonation", cause: "admin", endedById: "mallory", now: at(5000) }).thenThrows("IMPERSONATION_NOT_FOUND"));
  it("by expiry at the deadline", () =>
    spec.given([started]).when({ type: "EndImpersonation", cause: "expiry", endedById: "system", now: at(3600_000) }).then([endedBy("expiry", "system", 3600_000)]));
  it("by expiry before the deadline records nothing", () =>
    spec.given([started]).when({ type: "EndImpersonation", cause: "expiry", endedById: "system", now: at(3599_000) }).thenNothing());
  it("happens exactly once", () =>
    spec.given([started, endedBy("admin", "root", 10)]).when({ type: "EndImpersonation", cause: "expiry", endedById: "system", now: at(3600_000) }).thenNothing());
  it("forced by another admin", () =>
    spec.given([started]).when({ type: "EndImpersonation", cause: "forced", endedById: "other-admin", now: at(100) }).then([endedBy("forced", "other-admin", 100)]));
  it("of an unknown id is refused", () =>
    spec.given([]).when({ type: "EndImpersonation", cause: "admin", endedById: "root", now: at(1) }).thenThrows("IMPERSONATION_NOT_FOUND"));
});

describe("the admin role", () => {
  const roles = DeciderSpecification.for(adminRoleDecider);
  const granted = { type: "AdminRoleGranted" as const, data: { userId: "bob", grantedBy: "root", grantedAt: t0.toISOString() } };
  it("is granted by an admin, naming them", () =>
    roles.given([]).when({ type: "GrantAdminRole", userId: "bob", by: "root", byIsAdmin: true, now: t0 }).then([granted]));
  it("is not granted by a non-admin", () =>
    roles.given([]).when({ type: "GrantAdminRole", userId: "bob", by: "eve", byIsAdmin: false, now: t0 }).thenThrows("NOT_ADMIN"));
  it("is bootstrapped by the configuration once", () => {
    roles.given([]).when({ type: "GrantAdminRole", userId: "bob", by: BY_CONFIGURATION, byIsAdmin: false, now: t0 }).then([
      { type: "AdminRoleGranted", data: { userId: "bob", grantedBy: BY_CONFIGURATION, grantedAt: t0.toISOString() } },
    ]);
    roles.given([granted]).when({ type: "GrantAdminRole", userId: "bob", by: BY_CONFIGURATION, byIsAdmin: false, now: t0 }).thenNothing();
  });
  it("is revoked by another admin", () =>
    roles.given([granted]).when({ type: "RevokeAdminRole", userId: "bob", by: "root", byIsAdmin: true, now: t0 }).then([
      { type: "AdminRoleRevoked", data: { userId: "bob", revokedBy: "root", revokedAt: t0.toISOString() } },
    ]));
  it("is not revoked by its holder", () =>
    roles.given([granted]).when({ type: "RevokeAdminRole", userId: "bob", by: "bob", byIsAdmin: true, now: t0 }).thenThrows("CANNOT_REVOKE_SELF"));
  it("granted by an admin is not taken back by the configuration", () =>
    roles.given([granted]).when({ type: "RevokeAdminRole", userId: "bob", by: BY_CONFIGURATION, byIsAdmin: false, now: t0 }).thenNothing());
});
