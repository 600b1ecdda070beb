import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { fold } from "#domain/shared/decider";
import { type CommunityEvent, communityDecider, roleOf } from "./community";
import { communityNameDecider, normaliseCommunityName } from "./community-name";

const now = new Date("2026-11-25T10:00:00.000Z");
const at = now.toISOString();
const spec = DeciderSpecification.for(communityDecider);

const created = (visibility: "PUBLIC" | "PRIVATE" = "PUBLIC"): CommunityEvent => ({
  type: "CommunityCreated",
  data: { communityId: "c1", name: "Physics", description: "Lecture notes", visibility, creatorId: "ann", createdAt: at },
});
const joined = (userId: string): CommunityEvent => ({ type: "MemberJoined", data: { userId, joinedAt: at } });
const added = (userId: string, role: "VIEWER" | "MEMBER" | "MODERATOR"): CommunityEvent => ({
  type: "MemberAdded",
  data: { userId, role, addedBy: "ann", addedAt: at },
});
const attached = (documentId: string, contributorId: string): CommunityEvent => ({
  type: "ResourceAttached",
  data: { documentId, contributorId, personal: { name: `${documentId}.pdf` }, attachedAt: at },
});

describe("a community", () => {
  it("is created with its creator as OWNER", () => {
    spec
      .given([])
      .when({ type: "CreateCommunity", communityId: "c1", name: "Physics", description: "Lecture notes", visibility: "PUBLIC", creatorId: "ann", now })
      .then([created()]);
    expect(roleOf(fold(communityDecider, [created()]), "ann")).toBe("OWNER");
  });

  it("makes a stranger a VIEWER of a public community, and does not exist for a stranger when private", () => {
    expect(roleOf(fold(communityDecider, [created("PUBLIC")]), "bob")).toBe("VIEWER");
    expect(roleOf(fold(communityDecider, [created("PRIVATE")]), "bob")).toBeNull();
    spec.given([created("PRIVATE")]).when({ type: "Join", userId: "bob", now }).thenThrows("COMMUNITY_NOT_FOUND");
  });

  describe("joining", () => {
    it("a public community makes the viewer a MEMBER at once", () => {
      spec.given([created()]).when({ type: "Join", userId: "bob", now }).then([joined("bob")]);
    });

    it("a private community records a request a moderator approves", () => {
      const history = [created("PRIVATE"), added("cy", "VIEWER")];
      spec.given(history).when({ type: "Join", userId: "cy", now }).then([{ type: "JoinRequested", data: { userId: "cy", requestedAt: at } }]);
      const requested = [...history, { type: "JoinRequested", data: { userId: "cy", requestedAt: at } } as CommunityEvent];
      spec.given(requested).when({ type: "DecideJoin", actorId: "cy", userId: "cy", approve: true, now }).thenThrows("COMMUNITY_FORBIDDEN");
      spec
        .given(requested)
        .when({ type: "DecideJoin", actorId: "ann", userId: "cy", approve: true, now })
        .then([{ type: "JoinApproved", data: { userId: "cy", approvedBy: "ann", approvedAt: at } }]);
    });

    it("twice records nothing more", () => {
      spec.given([created(), joined("bob")]).when({ type: "Join", userId: "bob", now }).thenNothing();
    });
  });

  describe("resources", () => {
    it("a member contributes their own documents", () => {
      spec
        .given([created(), joined("bob")])
        .when({ type: "AttachResources", actorId: "bob", documents: [{ documentId: "d1", ownerId: "bob", name: "d1.pdf" }], now })
        .then([attached("d1", "bob")]);
    });

    it("nobody attaches someone else's document", () => {
      spec
        .given([created(), joined("bob")])
        .when({ type: "AttachResources", actorId: "bob", documents: [{ documentId: "d9", ownerId: "ann", name: "x" }], now })
        .thenThrows("DOCUMENT_NOT_FOUND");
    });

    it("a viewer cannot add files", () => {
      spec
        .given([created()])
        .when({ type: "AttachResources", actorId: "bob", documents: [{ documentId: "d1", ownerId: "bob", name: "d1.pdf" }], now })
        .thenThrows("COMMUNITY_FORBIDDEN");
    });

    it("a moderator removes anyone's document; a member only withdraws their own", () => {
      const history = [created(), joined("bob"), joined("dan"), attached("d1", "bob")];
      spec.given(history).when({ type: "RemoveResource", actorId: "dan", documentId: "d1", now }).thenThrows("COMMUNITY_FORBIDDEN");
      spec
        .given(history)
        .when({ type: "RemoveResource", actorId: "bob", documentId: "d1", now })
        .then([{ type: "ResourceRemoved", data: { documentId: "d1", contributorId: "bob", removedBy: "bob", reason: "WITHDRAWN", removedAt: at } }]);
      spec
        .given([...history, { type: "MemberRoleChanged", data: { userId: "dan", role: "MODERATOR", changedBy: "ann", changedAt: at } }])
        .when({ type: "RemoveResource", actorId: "dan", documentId: "d1", now })
        .then([
          { type: "ResourceRemoved", data: { documentId: "d1", contributorId: "bob", removedBy: "dan", reason: "REMOVED_BY_MODERATOR", removedAt: at } },
        ]);
    });

    it("a member reports a resource once", () => {
      const history = [created(), joined("bob"), attached("d1", "bob"), joined("eve")];
      const report = { type: "ReportResource" as const, actorId: "eve", reportId: "r1", documentId: "d1", reason: "Spam", now };
      spec.given(history).when(report).then([{ type: "ResourceReported", data: { reportId: "r1", documentId: "d1", reporterId: "eve", personal: { reason: "Spam" }, reportedAt: at } }]);
      spec.given([...history, ...spec.given(history).when(report).events()]).when({ ...report, reportId: "r2" }).thenNothing();
    });

    it("a planned upload contribution is attached later, once", () => {
      const history = [created(), joined("bob")];
      spec
        .given(history)
        .when({ type: "PlanContribution", actorId: "bob", documentId: "d1", ownerId: "bob", now })
        .then([{ type: "ContributionPlanned", data: { documentId: "d1", contributorId: "bob", plannedAt: at } }]);
      const state = fold(communityDecider, [...history, { type: "ContributionPlanned", data: { documentId: "d1", contributorId: "bob", plannedAt: at } }, attached("d1", "bob")]);
      expect(state.status !== "None" && state.pending).toEqual({});
    });
  });

  describe("members", () => {
    it("the owner names moderators; a moderator may not", () => {
      const history = [created(), joined("bob"), joined("dan"), { type: "MemberRoleChanged", data: { userId: "dan", role: "MODERATOR", changedBy: "ann", changedAt: at } } as CommunityEvent];
      spec.given(history).when({ type: "ChangeRole", actorId: "dan", userId: "bob", role: "MODERATOR", now }).thenThrows("COMMUNITY_FORBIDDEN");
      spec
        .given(history)
        .when({ type: "ChangeRole", actorId: "ann", userId: "bob", role: "MODERATOR", now })
        .then([{ type: "MemberRoleChanged", data: { userId: "bob", role: "MODERATOR", changedBy: "ann", changedAt: at } }]);
      spec.given(history).when({ type: "RemoveMember", actorId: "dan", userId: "bob", now }).then([{ type: "MemberRemoved", data: { userId: "bob", removedBy: "dan", removedAt: at } }]);
      spec.given(history).when({ type: "RemoveMember", actorId: "dan", userId: "ann", now }).thenThrows("COMMUNITY_OWNER_ROLE");
    });

    it("the owner hands over before leaving, and becomes a moderator", () => {
      const history = [created(), joined("bob")];
      spec.given(history).when({ type: "Leave", userId: "ann", now }).thenThrows("COMMUNITY_OWNER_LEAVING");
      const handed = { type: "OwnershipHandedOver", data: { from: "ann", to: "bob", handedOverAt: at } } as CommunityEvent;
      spec.given(history).when({ type: "HandOver", actorId: "ann", to: "bob", now }).then([handed]);
      const state = fold(communityDecider, [...history, handed]);
      expect([roleOf(state, "ann"), roleOf(state, "bob")]).toEqual(["MODERATOR", "OWNER"]);
    });

    it("a member who leaves is a viewer again", () => {
      const state = fold(communityDecider, [created(), joined("bob"), { type: "MemberLeft", data: { userId: "bob", leftAt: at } }]);
      expect(roleOf(state, "bob")).toBe("VIEWER");
    });
  });

  describe("deletion", () => {
    it("only the owner deletes the community", () => {
      spec.given([created(), joined("bob")]).when({ type: "DeleteCommunity", actorId: "bob", now }).thenThrows("COMMUNITY_FORBIDDEN");
      spec.given([created()]).when({ type: "DeleteCommunity", actorId: "ann", now }).then([{ type: "CommunityDeleted", data: { deletedBy: "ann", deletedAt: at } }]);
    });

    it("a purged contributor's documents leave", () => {
      spec
        .given([created(), joined("bob"), attached("d1", "bob"), attached("d2", "ann")])
        .when({ type: "WithdrawContributions", contributorId: "bob", reason: "CONTRIBUTOR_DELETED", now })
        .then([{ type: "ResourceRemoved", data: { documentId: "d1", contributorId: "bob", removedBy: "bob", reason: "CONTRIBUTOR_DELETED", removedAt: at } }]);
    });

    it("a purged owner hands the community to the longest-serving moderator, else it is archived", () => {
      const moderator = (userId: string) => ({ type: "MemberRoleChanged", data: { userId, role: "MODERATOR", changedBy: "ann", changedAt: at } }) as CommunityEvent;
      spec
        .given([created(), joined("bob"), joined("dan"), moderator("dan"), moderator("bob")])
        .when({ type: "ReplaceDeletedOwner", ownerId: "ann", now })
        .then([{ type: "OwnershipHandedOver", data: { from: "ann", to: "bob", handedOverAt: at } }]);
      spec
        .given([created(), joined("bob")])
        .when({ type: "ReplaceDeletedOwner", ownerId: "ann", now })
        .then((events) => expect(events.map((e) => e.type)).toEqual(["CommunityArchived"]));
    });
  });
});

describe("a community name", () => {
  const names = DeciderSpecification.for(communityNameDecider);
  it("is taken in any case and spacing", () => {
    expect(normaliseCommunityName("  PHYSICS   Club ")).toBe(normaliseCommunityName("physics club"));
    names
      .given([{ type: "CommunityNameReserved", data: { communityId: "c1", reservedAt: at } }])
      .when({ type: "Reserve", communityId: "c2", holderExists: true, now })
      .thenThrows("COMMUNITY_NAME_TAKEN");
  });

  it("may be taken over when its community never got created", () => {
    const later = new Date(now.getTime() + 3 * 60_000);
    names
      .given([{ type: "CommunityNameReserved", data: { communityId: "c1", reservedAt: at } }])
      .when({ type: "Reserve", communityId: "c2", holderExists: false, now: later })
      .then([{ type: "CommunityNameReserved", data: { communityId: "c2", reservedAt: later.toISOString() } }]);
  });
});
