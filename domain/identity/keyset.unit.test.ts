import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import {
  addKeysetSchema,
  editKeysetSchema,
  ENDPOINT_ZONE_ID_MESSAGE,
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
  const offline = { keysetId: "docuchat", model: "offline" };
  const defaults = DeciderSpecification.for(modelDefaultsDecider);
  it("falls back to the built-in keyset for exactly the scopes that used a deleted keyset", () => {
    const history: ModelDefaultsEvent[] = [
      ...defaults.given([]).when({ type: "ChooseDefault", scope: "text", keysetId: "k1", model: "gpt-4o", now }).events(),
      ...defaults.given([]).when({ type: "ChooseDefault", scope: "image", keysetId: "k2", model: "gpt-4o", now }).events(),
    ];
    defaults
      .given(history)
      .when({ type: "FallBackFrom", keysetId: "k1", fallback: { text: builtIn, image: builtIn, embedding: builtIn, transcription: offline }, now })
      .then((events) => expect(events.map((e) => [e.data.scope, e.data.keysetId, e.data.reason])).toEqual([["text", "docuchat", "keyset-deleted"]]));
  });

  it("falls a transcription default back to the offline model when its keyset is deleted", () => {
    const chose = defaults.given([]).when({ type: "ChooseDefault", scope: "transcription", keysetId: "k1", model: "whisper-1", now }).events();
    defaults
      .given(chose)
      .when({ type: "FallBackFrom", keysetId: "k1", fallback: { text: builtIn, image: builtIn, embedding: builtIn, transcription: offline }, now })
      .then((events) => expect(events.map((e) => [e.data.scope, e.data.keysetId, e.data.model])).toEqual([["transcription", "docuchat", "offline"]]));
  });
});

describe("add key form", () => {
  const base = { name: "k", apiKey: "sk", provider: "Azure", subProvider: "OpenAI", endpoint: "https://x.openai.azure.com", model: "gpt-4o" };
  it("needs endpoint and model for every Azure sub-provider", () => {
    expect(addKeysetSchema.safeParse(base).success).toBe(true);
    expect(addKeysetSchema.safeParse({ ...base, model: "" }).success).toBe(false);
    expect(addKeysetSchema.safeParse({ ...base, endpoint: "" }).success).toBe(false);
  });
  it("refuses an endpoint with an IPv6 zone id, or one that is not an address, before any request is made", () => {
    const local = { name: "k", apiKey: "", provider: "OpenAI-compatible", subProvider: "Ollama" };
    const zoned = addKeysetSchema.safeParse({ ...local, endpoint: "http://[fe80::1%25eth0]:11434/v1" });
    expect(zoned.success).toBe(false);
    expect(zoned.error?.issues[0]).toMatchObject({ path: ["endpoint"], message: ENDPOINT_ZONE_ID_MESSAGE });
    expect(addKeysetSchema.safeParse({ ...local, endpoint: "http://[fe80::1%eth0]/v1" }).error?.issues[0].message).toBe(ENDPOINT_ZONE_ID_MESSAGE);
    expect(addKeysetSchema.safeParse({ ...local, endpoint: "http://[not-ipv6]:80/v1" }).error?.issues[0].message).toBe("Enter the endpoint as an http(s) address");
    expect(addKeysetSchema.safeParse({ ...local, endpoint: "http://[2001:db8::5]:11434/v1" }).success).toBe(true);
    expect(editKeysetSchema.safeParse({ endpoint: "http://[fe80::1%25en0]:8080" }).error?.issues[0].message).toBe(ENDPOINT_ZONE_ID_MESSAGE);
    expect(editKeysetSchema.safeParse({ endpoint: "" }).success).toBe(true);
  });

  it("needs an API key except for an OpenAI-compatible endpoint", () => {
    expect(addKeysetSchema.safeParse({ name: "k", apiKey: "", provider: "OpenAI", subProvider: "OpenAI" }).success).toBe(false);
    expect(addKeysetSchema.safeParse({ name: "k", apiKey: "", provider: "OpenAI-compatible", subProvider: "Ollama", endpoint: "http://ollama.lan:11434/v1" }).success).toBe(true);
  });
  it("refuses the built-in provider", () => {
    expect(addKeysetSchema.safeParse({ name: "k", apiKey: "sk", provider: "DocuChat", subProvider: "DocuChat" }).success).toBe(false);
  });
});
