import { describe, expect, it } from "vitest";
import { DEFAULT_CHAT_LAYOUT } from "#domain/identity/chat-layout";
import { projectEvents } from "../../tests/support/projector-feed";
import { chatLayoutsProjector } from "./chat-layouts.projector";
import { chatLayoutOf } from "./chat-layouts.queries";
import { keysetsProjector } from "./keysets.projector";
import { keysetById, keysetsOf, modelDefaultsOf } from "./keysets.queries";

const added = (keysetId: string, ownerId: string, name: string, addedAt: string) => ({
  streamId: `keyset-${keysetId}`,
  type: "KeysetAdded",
  data: { keysetId, ownerId, provider: "OpenAI", subProvider: "OpenAI", endpoint: null, model: null, models: ["gpt-4o"], personal: { name, sealedKey: "sealed" }, addedAt },
});

describe("the identity context's keyset queries", () => {
  it("list an owner's keys oldest first, leave deleted ones out, and find one by id for its owner check", async () => {
    const store = await projectEvents(
      [keysetsProjector],
      [
        added("k2", "alice", "Work", "2026-01-02T00:00:00.000Z"),
        added("k1", "alice", "Home", "2026-01-01T00:00:00.000Z"),
        added("k3", "bob", "Bob's", "2026-01-03T00:00:00.000Z"),
        added("k4", "alice", "Old", "2026-01-04T00:00:00.000Z"),
        { streamId: "keyset-k4", type: "KeysetDeleted", data: { deletedAt: "2026-01-05T00:00:00.000Z" } },
      ],
    );
    expect((await keysetsOf(store, "alice")).map((k) => k.name)).toEqual(["Home", "Work"]);
    expect((await keysetById(store, "k3"))?.ownerId).toBe("bob");
    expect(await keysetById(store, "k4")).toBeNull();
  });

  it("keep each scope's chosen default, and nothing for a user who never chose", async () => {
    const store = await projectEvents(
      [keysetsProjector],
      [
        { streamId: "model-defaults-alice", type: "ModelDefaultsChanged", data: { scope: "text", keysetId: "k1", model: "gpt-4o", reason: "chosen", changedAt: "2026-01-03T00:00:00.000Z" } },
        { streamId: "model-defaults-alice", type: "ModelDefaultsChanged", data: { scope: "image", keysetId: "k1", model: "gpt-4o-mini", reason: "chosen", changedAt: "2026-01-03T00:00:00.000Z" } },
      ],
    );
    expect(await modelDefaultsOf(store, "alice")).toEqual({ id: "alice", text: { keysetId: "k1", model: "gpt-4o" }, image: { keysetId: "k1", model: "gpt-4o-mini" } });
    expect(await modelDefaultsOf(store, "bob")).toBeNull();
  });
});

describe("the chat layout query", () => {
  it("answers the defaults until the user changes something, then their layout", async () => {
    const store = await projectEvents(
      [chatLayoutsProjector],
      [{ streamId: "chat-layout-alice", type: "ChatLayoutChanged", data: { layout: { ...DEFAULT_CHAT_LAYOUT, isChatOnLeft: true, chatbotWidth: 60 }, changedAt: "2026-01-01T00:00:00.000Z" } }],
    );
    expect(await chatLayoutOf(store, "bob")).toEqual(DEFAULT_CHAT_LAYOUT);
    expect(await chatLayoutOf(store, "alice")).toEqual({ ...DEFAULT_CHAT_LAYOUT, isChatOnLeft: true, chatbotWidth: 60 });
  });
});
