import { describe, expect, it } from "vitest";
import {
  BUILT_IN_EMBEDDING_VALUE,
  BUILT_IN_VALUE,
  DEFAULT_PREFERENCE_VALUES,
  KEYWORD_VALUE,
  preferenceOptions,
  startingPreferenceValues,
} from "./chat-preferences";

const catalog = [
  { keysetId: "docuchat", keysetName: "DocuChat (built-in)", models: [{ id: "docuchat-extractive", label: "DocuChat extractive" }] },
  { keysetId: "ks-1", keysetName: "My Ollama", models: [{ id: "llama3.2", label: "llama3.2" }, { id: "qwen2.5", label: "qwen2.5" }] },
];
const builtIn = { keysetId: "docuchat", model: "docuchat-extractive" };

describe("startingPreferenceValues (the creation wizard's pickers)", () => {
  it("starts on the user's text and image defaults from Chat Settings", () => {
    const values = startingPreferenceValues({ text: { keysetId: "ks-1", model: "llama3.2" }, image: { keysetId: "ks-1", model: "qwen2.5" }, embedding: null }, preferenceOptions(catalog));
    expect(values).toEqual({ text: "ks-1::llama3.2", image: "ks-1::qwen2.5", embedding: KEYWORD_VALUE });
  });

  it("starts on the built-in model without defaults", () => {
    expect(startingPreferenceValues(null, preferenceOptions(catalog))).toEqual(DEFAULT_PREFERENCE_VALUES);
    expect(startingPreferenceValues({ text: builtIn, image: builtIn, embedding: null }, preferenceOptions(catalog))).toEqual(DEFAULT_PREFERENCE_VALUES);
  });

  it("uses the built-in value for a default the pickers do not offer (a keyset no longer listed, a provider embedding)", () => {
    const values = startingPreferenceValues(
      { text: { keysetId: "gone", model: "gpt-4" }, image: builtIn, embedding: { keysetId: "ks-1", model: "nomic-embed" } },
      preferenceOptions(catalog),
    );
    expect(values).toEqual({ text: BUILT_IN_VALUE, image: BUILT_IN_VALUE, embedding: KEYWORD_VALUE });
  });
});

describe("the built-in embedding model in the pickers", () => {
  const embeddingCatalog = [
    { ...catalog[0], embeddingModels: [{ id: "docuchat-sentence-encoder", label: "Universal Sentence Encoder lite" }] },
    { ...catalog[1], embeddingModels: [{ id: "nomic-embed-text", label: "nomic-embed-text" }] },
  ];

  it("is offered first, before keyword search only and the keysets' embedding models, when the server runs it", () => {
    expect(preferenceOptions(embeddingCatalog).embedding.map((o) => o.value)).toEqual([BUILT_IN_EMBEDDING_VALUE, KEYWORD_VALUE, "ks-1::nomic-embed-text"]);
    expect(preferenceOptions(catalog).embedding.map((o) => o.value)).toEqual([KEYWORD_VALUE]);
  });

  it("is where a new workspace starts without defaults, and when the default embedding is gone", () => {
    const options = preferenceOptions(embeddingCatalog);
    expect(startingPreferenceValues(null, options).embedding).toBe(BUILT_IN_EMBEDDING_VALUE);
    expect(startingPreferenceValues({ text: builtIn, image: builtIn, embedding: { keysetId: "gone", model: "e" } }, options).embedding).toBe(BUILT_IN_EMBEDDING_VALUE);
  });

  it("leaves a user who chose keyword search only with keyword search", () => {
    expect(startingPreferenceValues({ text: builtIn, image: builtIn, embedding: null }, preferenceOptions(embeddingCatalog)).embedding).toBe(KEYWORD_VALUE);
  });
});

describe("the product's keyset backed by an operator's model (decision 190)", () => {
  const operated = [
    {
      keysetId: "docuchat",
      keysetName: "DocuChat",
      operated: true,
      models: [{ id: "docuchat-extractive", label: "llama3.2" }],
      embeddingModels: [{ id: "nomic-embed-text", label: "nomic-embed-text" }, { id: "docuchat-sentence-encoder", label: "USE lite" }],
    },
    catalog[1],
  ];

  it("names the operator's model under the product's name, on the same stored value, its embedding model first", () => {
    const options = preferenceOptions(operated);
    expect(options.text[0]).toEqual({ value: BUILT_IN_VALUE, label: "DocuChat · llama3.2" });
    expect(options.image[0]).toEqual({ value: BUILT_IN_VALUE, label: "DocuChat · llama3.2" });
    expect(options.embedding.map((o) => o.label).slice(0, 3)).toEqual(["DocuChat · nomic-embed-text", "DocuChat built-in: semantic search (offline)", "Keyword search only (built-in)"]);
    expect(startingPreferenceValues(null, options).embedding).toBe("docuchat::nomic-embed-text");
  });

  it("keeps today's labels when no operator model is configured", () => {
    expect(preferenceOptions(catalog).text[0]).toEqual({ value: BUILT_IN_VALUE, label: "DocuChat built-in (extractive)" });
  });
});
