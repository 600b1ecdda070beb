import { describe, expect, it } from "vitest";
import { readableDocuments } from "./access-policy";

describe("the access policy for documents", () => {
  const documents = [
    { id: "own", ownerId: "cy" },
    { id: "shared", ownerId: "ann" },
    { id: "foreign", ownerId: "bob" },
  ];

  it("lets a user read their own documents and those a community shares with them, asking only about the others", async () => {
    const asked: string[][] = [];
    const grants = {
      sharedWith: async (userId: string, ids: readonly string[]) => {
        asked.push([userId, ...ids]);
        return new Set(ids.filter((id) => id === "shared"));
      },
    };
    expect((await readableDocuments(documents, "cy", grants)).map((d) => d.id)).toEqual(["own", "shared"]);
    expect(asked).toEqual([["cy", "shared", "foreign"]]);
  });

  it("does not ask the communities when every document is the user's own", async () => {
    const grants = { sharedWith: async () => Promise.reject(new Error("not asked")) };
    expect((await readableDocuments([documents[0]], "cy", grants)).map((d) => d.id)).toEqual(["own"]);
  });
});
