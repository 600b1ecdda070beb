import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import {
  addKeysetSchema,
  type KeysetCommand,
  type KeysetEvent,
  keysetDecider,
  type ModelDefaultsEvent,
  modelDefaultsDecider,
} from "./keyset";

const now = new Date("2026-01-01T10:00:00Z");
const add: KeysetCommand = {
  type: "AddKeyset",
  keysetId: "k1",
  ownerId: "alice",
  provider: "OpenAI",
  subProvider: "OpenAI",
  endpoint: null,
  model: null,
  models: ["gpt-4o-mini"],
  name: "Work key",
  sealedKey: "kX:v1.sealed",
  now,
};
const given = (events: KeysetEvent[]) => DeciderSpecification.for(keysetDecider).given(events);
const added = given([]).when(add).events();

describe("keyset decider", () => {
  it("adds a keyset with the name and sealed key as personal data", () => {
    expect(added).toEqual([
      {
        type: "KeysetAdded",
        data: { keysetId: "k1", ownerId: "alice", provider: "OpenAI", subProvider: "OpenAI", endpoint: null, model: null, models: ["gpt-4o-mini"], personal: { name: "Work key", sealedKey: "kX:v1.sealed" }, addedAt: now.toISOString() },
      },
    ]);
  });

  it("refuses a sub-provider the provider does not have", () => {
    given([]).when({ ...add, subProvider: "Gemini" }).thenThrows("VALIDATION", "Choose a sub-provider of this provider");
  });

  it("answers another user's keyset like a missing one, for every command", () => {
    for (const command of [
      { type: "EditKeyset", ownerId: "bob", name: "x", now },
      { type: "DeleteKeyset", ownerId: "bob", now },
      { type: "RecordUse", ownerId: "bob", now },
    ] as KeysetCommand[]) {
      given(added).when(command).thenThrows("KEYSET_NOT_FOUND");
    }
  });

  it("edits: rename keeps the key; an unchanged edit records nothing", () => {
    given(added)
      .when({ type: "EditKeyset", ownerId: "alice", name: "Renamed", now })
      .then(([edited]) => expect(edited).toMatchObject({ type: "KeysetEdited", data: { personal: { name: "Renamed", sealedKey: "kX:v1.sealed" }, keyReplaced: false } }));
    given(added).when({ type: "EditKeyset", ownerId: "alice", name: "Work key", now }).thenNothing();
  });

  it("a deleted keyset is gone", () => {
    const deleted = [...added, ...given(added).when({ type: "DeleteKeyset", ownerId: "alice", now }).events()];
    given(deleted).when({ type: "DeleteKeyset", ownerId: "alice", now }).thenThrows("KEYSET_NOT_FOUND");
  });

  it("records use at most once a minute", () => {
    const used = [...added, ...given(added).when({ type: "RecordUse", ownerId: "alice", now }).events()];
    given(used).when({ type: "RecordUse", ownerId: "alice", now: new Date(now.getTime() + 30_000) }).thenNothing();
    given(used).when({ type: "RecordUse", ownerId: "alice", now: new Date(now.getTime() + 61_000) }).then((events) => expect(events).toHaveLength(1));
  });
});

describe("model defaults decider", () => {
  const builtIn = { keysetId: "docuchat", model: "docuchat-extractive" };
  it("falls back to the built-in keyset for exactly the scopes that used a deleted keyset", () => {
    const defaults = DeciderSpecification.for(modelDefaultsDecider);
    const history: ModelDefaultsEvent[] = [
      ...defaults.given([]).when({ type: "ChooseDefault", scope: "text", keysetId: "k1", model: "gpt-4o", now }).events(),
      ...defaults.given([]).when({ type: "ChooseDefault", scope: "image", keysetId: "k2", model: "gpt-4o", now }).events(),
    ];
    defaults
      .given(history)
      .when({ type: "FallBackFrom", keysetId: "k1", fallback: { text: builtIn, image: builtIn, embedding: builtIn }, now })
      .then((events) => expect(events.map((e) => [e.data.scope, e.data.keysetId, e.data.reason])).toEqual([["text", "docuchat", "keyset-deleted"]]));
  });
});

describe("add key form", () => {
  const base = { name: "k", apiKey: "sk", provider: "Azure", subProvider: "OpenAI", endpoint: "https://x.openai.azure.com", model: "gpt-4o" };
  it("needs endpoint and model for every Azure sub-provider", () => {
    expect(addKeysetSchema.safeParse(base).success).toBe(true);
    expect(addKeysetSchema.safeParse({ ...base, model: "" }).success).toBe(false);
    expect(addKeysetSchema.safeParse({ ...base, endpoint: "" }).success).toBe(false);
  });
  it("needs an API key except for an OpenAI-compatible endpoint", () => {
    expect(addKeysetSchema.safeParse({ name: "k", apiKey: "", provider: "OpenAI", subProvider: "OpenAI" }).success).toBe(false);
    expect(addKeysetSchema.safeParse({ name: "k", apiKey: "", provider: "OpenAI-compatible", subProvider: "Ollama", endpoint: "http://ollama.lan:11434/v1" }).success).toBe(true);
  });
  it("refuses the built-in provider", () => {
    expect(addKeysetSchema.safeParse({ name: "k", apiKey: "sk", provider: "DocuChat", subProvider: "DocuChat" }).success).toBe(false);
  });
});
