import { describe, expect, it } from "vitest";
import { projectEvents } from "../../tests/support/projector-feed";
import { communitiesProjector } from "./communities.projector";
import { communitiesOfMember, documentsSharedWith, membershipIn, publicCommunities, resourcesOf } from "./communities.queries";

const at = "2026-11-25T10:00:00.000Z";
const created = (id: string, name: string, visibility: "PUBLIC" | "PRIVATE", creatorId = "ann") => ({
  streamId: `community-${id}`,
  type: "CommunityCreated",
  data: { communityId: id, name, description: "", visibility, creatorId, createdAt: at },
});
const on = (id: string, type: string, data: Record<string, unknown>) => ({ streamId: `community-${id}`, type, data });
const attached = (id: string, documentId: string, contributorId = "ann") =>
  on(id, "ResourceAttached", { documentId, contributorId, personal: { name: `${documentId}.pdf` }, attachedAt: at });

describe("the community read side", () => {
  it("lists public communities only, searched by part of the name", async () => {
    const store = await projectEvents([communitiesProjector], [created("c1", "Physics Club", "PUBLIC"), created("c2", "Physics Board", "PRIVATE")]);
    expect((await publicCommunities(store, "PHYS")).map((c) => c.id)).toEqual(["c1"]);
    expect((await communitiesOfMember(store, "ann")).map((c) => c.id).sort()).toEqual(["c1", "c2"]);
    expect(await communitiesOfMember(store, "bob")).toEqual([]);
  });

  it("shares a document with members whose role opens resources, never with viewers, and only while it is held", async () => {
    const store = await projectEvents(
      [communitiesProjector],
      [
        created("c1", "North", "PUBLIC"),
        created("c2", "South", "PUBLIC", "bob"),
        attached("c1", "d1"),
        on("c2", "ResourceAttached", { documentId: "d2", contributorId: "bob", personal: { name: "d2.pdf" }, attachedAt: at }),
        on("c1", "MemberJoined", { userId: "cy", joinedAt: at }),
        on("c2", "MemberAdded", { userId: "cy", role: "VIEWER", addedBy: "bob", addedAt: at }),
      ],
    );
    expect([...(await documentsSharedWith(store, "cy", ["d1", "d2"]))]).toEqual(["d1"]);
    const after = await projectEvents(
      [communitiesProjector],
      [on("c1", "ResourceRemoved", { documentId: "d1", contributorId: "ann", removedBy: "ann", reason: "WITHDRAWN", removedAt: at })],
      store,
    );
    expect([...(await documentsSharedWith(after, "cy", ["d1", "d2"]))]).toEqual([]);
    expect(await resourcesOf(after, "c1")).toEqual([]);
  });

  it("keeps an added viewer's role while their join request waits, and forgets a deleted community", async () => {
    const store = await projectEvents(
      [communitiesProjector],
      [
        created("c1", "Board", "PRIVATE"),
        on("c1", "MemberAdded", { userId: "cy", role: "VIEWER", addedBy: "ann", addedAt: at }),
        on("c1", "JoinRequested", { userId: "cy", requestedAt: at }),
      ],
    );
    expect(await membershipIn(store, "c1", "cy")).toMatchObject({ role: "VIEWER", requested: true });
    await projectEvents([communitiesProjector], [attached("c1", "d1"), on("c1", "CommunityDeleted", { deletedBy: "ann", deletedAt: at })], store);
    expect(await communitiesOfMember(store, "ann")).toEqual([]);
    expect([...(await documentsSharedWith(store, "ann", ["d1"]))]).toEqual([]);
  });
});
