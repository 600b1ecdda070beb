import { z } from "zod";
import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * A keyset (stream `keyset-<id>`): one of a user's own AI provider keys
 * (spec 001 §3 Keyset, §5 Add key). The key name and the sealed API key are
 * the owner's personal data (`data.personal`, crypto-shredded with the
 * account); the API key is additionally sealed under a key derived from the
 * app secret before it reaches the decider, so no event ever holds it in
 * clear. Every command names the acting owner: another user's keyset answers
 * exactly like a missing one.
 */

/** Providers and sub-providers exactly as the spec lists them, plus any OpenAI-compatible server. */
export const PROVIDERS = {
  AWS: { subProviders: ["Anthropic", "Cohere", "Llama"], needsEndpoint: false, needsModel: false, keyOptional: false },
  Azure: { subProviders: ["Anthropic", "Claude", "Cohere", "Llama", "Mistral", "OpenAI"], needsEndpoint: true, needsModel: true, keyOptional: false },
  Cohere: { subProviders: ["Cohere"], needsEndpoint: false, needsModel: false, keyOptional: false },
  Google: { subProviders: ["Gemini"], needsEndpoint: false, needsModel: false, keyOptional: false },
  Mistral: { subProviders: ["Mistral"], needsEndpoint: false, needsModel: false, keyOptional: false },
  OpenAI: { subProviders: ["OpenAI"], needsEndpoint: false, needsModel: false, keyOptional: false },
  Anthropic: { subProviders: ["Anthropic"], needsEndpoint: false, needsModel: false, keyOptional: false },
  Deepseek: { subProviders: ["Deepseek"], needsEndpoint: false, needsModel: false, keyOptional: false },
  "OpenAI-compatible": { subProviders: ["Ollama", "vLLM", "LM Studio", "llama.cpp", "Other"], needsEndpoint: true, needsModel: false, keyOptional: true },
} as const satisfies Record<string, { subProviders: readonly string[]; needsEndpoint: boolean; needsModel: boolean; keyOptional: boolean }>;

export type Provider = keyof typeof PROVIDERS;
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as Provider[];

/** The product's own provider: listed, never addable (it is the built-in keyset). */

export const KEY_NAME_MAX = 60;
export const API_KEY_MAX = 4096;

const required = "This field is required";

export const ENDPOINT_FORMAT_MESSAGE = "Enter the endpoint as an http(s) address";
export const ENDPOINT_ZONE_ID_MESSAGE =
  "An IPv6 zone id (the part after %) names a network interface of one machine; the server cannot use it. Enter the endpoint by host name or global address.";

/** Why an endpoint cannot be used, or null. Checked before any request, so a malformed address is a 400, not a provider error. */
export function endpointProblem(endpoint: string): string | null {
  if (!/^https?:\/\/[^\s]+$/i.test(endpoint)) return ENDPOINT_FORMAT_MESSAGE;
  const authority = /^https?:\/\/([^/?#]*)/i.exec(endpoint)?.[1] ?? "";
  if (/\[[^\]]*%/.test(authority)) return ENDPOINT_ZONE_ID_MESSAGE;
  try {
    new URL(endpoint);
  } catch {
    return ENDPOINT_FORMAT_MESSAGE;
  }
  return null;
}

/** The Add Keys dialog (browser and server). */
export const addKeysetSchema = z
  .object({
    name: z.string({ required_error: required }).trim().min(1, "Key name is required").max(KEY_NAME_MAX, "Key name is too long"),
    apiKey: z.string().trim().max(API_KEY_MAX, "The key is too long").default(""),
    provider: z.enum(PROVIDER_NAMES as [Provider, ...Provider[]], { errorMap: () => ({ message: "Choose a provider" }) }),
    subProvider: z.string({ required_error: required }).trim().min(1, "Choose a sub-provider"),
    endpoint: z.string().trim().max(500).optional().default(""),
    model: z.string().trim().max(200).optional().default(""),
  })
  .superRefine((value, ctx) => {
    const rules = PROVIDERS[value.provider];
    if (!(rules.subProviders as readonly string[]).includes(value.subProvider)) {
      ctx.addIssue({ code: "custom", path: ["subProvider"], message: "Choose a sub-provider of this provider" });
    }
    if (!rules.keyOptional && value.apiKey === "") ctx.addIssue({ code: "custom", path: ["apiKey"], message: "API key is required" });
    if (rules.needsEndpoint && value.endpoint === "") ctx.addIssue({ code: "custom", path: ["endpoint"], message: "Endpoint is required" });
    // Checked wherever an endpoint is used (AWS takes an optional one).
    const problem = value.endpoint !== "" && (rules.needsEndpoint || value.provider === "AWS") ? endpointProblem(value.endpoint) : null;
    if (problem) ctx.addIssue({ code: "custom", path: ["endpoint"], message: problem });
    if (rules.needsModel && value.model === "") ctx.addIssue({ code: "custom", path: ["model"], message: "Model is required" });
  });

/** Edit: every field optional; an empty API key keeps the stored one. */
export const editKeysetSchema = z.object({
  name: z.string().trim().min(1, "Key name is required").max(KEY_NAME_MAX, "Key name is too long").optional(),
  apiKey: z.string().trim().max(API_KEY_MAX, "The key is too long").optional(),
  endpoint: z
    .string()
    .trim()
    .max(500)
    .superRefine((value, ctx) => {
      const problem = value === "" ? null : endpointProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional(),
  model: z.string().trim().max(200).optional(),
});

export interface KeysetPersonal {
  name: string;
  /** The API key sealed by the key cipher ("<keyId>:<sealed>"), never the key itself; "" when the endpoint needs none. */
  sealedKey: string;
}

export type KeysetEvent =
  | DomainEvent<
      "KeysetAdded",
      {
        keysetId: string;
        ownerId: string;
        provider: Provider;
        subProvider: string;
        endpoint: string | null;
        model: string | null;
        /** The models the provider offered when the key was checked. */
        models: string[];
        personal: KeysetPersonal | null;
        addedAt: string;
      }
    >
  | DomainEvent<
      "KeysetEdited",
      { endpoint: string | null; model: string | null; models: string[]; personal: KeysetPersonal | null; keyReplaced: boolean; editedAt: string }
    >
  | DomainEvent<"KeysetDeleted", { deletedAt: string }>
  | DomainEvent<"KeysetUsed", { at: string }>;

export type KeysetCommand =
  | {
      type: "AddKeyset";
      keysetId: string;
      ownerId: string;
      provider: Provider;
      subProvider: string;
      endpoint: string | null;
      model: string | null;
      models: string[];
      name: string;
      sealedKey: string;
      now: Date;
    }
  | {
      type: "EditKeyset";
      ownerId: string;
      name?: string;
      sealedKey?: string;
      endpoint?: string | null;
      model?: string | null;
      models?: string[];
      now: Date;
    }
  | { type: "DeleteKeyset"; ownerId: string; now: Date }
  | { type: "RecordUse"; ownerId: string; now: Date };

export type KeysetState =
  | { exists: false }
  | {
      exists: true;
      deleted: boolean;
      keysetId: string;
      ownerId: string;
      provider: Provider;
      subProvider: string;
      endpoint: string | null;
      model: string | null;
      models: string[];
      personal: KeysetPersonal | null;
      lastUsed: string | null;
    };

const iso = (date: Date) => date.toISOString();

/** One message for missing, deleted and foreign keysets (a foreign id must not be told apart). */
export const keysetNotFound = () => new DomainError("KEYSET_NOT_FOUND", "Key not found");

function owned(state: KeysetState, ownerId: string): Extract<KeysetState, { exists: true }> {
  if (!state.exists || state.deleted || state.ownerId !== ownerId) throw keysetNotFound();
  return state;
}

/** Uses are recorded at most once a minute: 'last used' needs no finer grain, and the log stays small. */
const USE_GRAIN_MS = 60_000;

export function decide(command: KeysetCommand, state: KeysetState): KeysetEvent[] {
  switch (command.type) {
    case "AddKeyset": {
      if (state.exists) throw new DomainError("KEYSET_EXISTS", "This key already exists.");
      if (!(PROVIDERS[command.provider]?.subProviders as readonly string[] | undefined)?.includes(command.subProvider)) {
        throw new DomainError("VALIDATION", "Choose a sub-provider of this provider", "subProvider");
      }
      return [
        {
          type: "KeysetAdded",
          data: {
            keysetId: command.keysetId,
            ownerId: command.ownerId,
            provider: command.provider,
            subProvider: command.subProvider,
            endpoint: command.endpoint,
            model: command.model,
            models: command.models,
            personal: { name: command.name, sealedKey: command.sealedKey },
            addedAt: iso(command.now),
          },
        },
      ];
    }
    case "EditKeyset": {
      const keyset = owned(state, command.ownerId);
      const personal = keyset.personal ?? { name: "", sealedKey: "" };
      const next = {
        endpoint: command.endpoint === undefined ? keyset.endpoint : command.endpoint,
        model: command.model === undefined ? keyset.model : command.model,
        models: command.models ?? keyset.models,
        personal: { name: command.name ?? personal.name, sealedKey: command.sealedKey ?? personal.sealedKey },
      };
      const unchanged =
        next.endpoint === keyset.endpoint &&
        next.model === keyset.model &&
        next.personal.name === personal.name &&
        command.sealedKey === undefined &&
        next.models.join("\n") === keyset.models.join("\n");
      if (unchanged) return [];
      return [{ type: "KeysetEdited", data: { ...next, keyReplaced: command.sealedKey !== undefined, editedAt: iso(command.now) } }];
    }
    case "DeleteKeyset":
      owned(state, command.ownerId);
      return [{ type: "KeysetDeleted", data: { deletedAt: iso(command.now) } }];
    case "RecordUse": {
      const keyset = owned(state, command.ownerId);
      if (keyset.lastUsed && command.now.getTime() - Date.parse(keyset.lastUsed) < USE_GRAIN_MS) return [];
      return [{ type: "KeysetUsed", data: { at: iso(command.now) } }];
    }
  }
}

export function evolve(state: KeysetState, event: KeysetEvent): KeysetState {
  switch (event.type) {
    case "KeysetAdded":
      return {
        exists: true,
        deleted: false,
        keysetId: event.data.keysetId,
        ownerId: event.data.ownerId,
        provider: event.data.provider,
        subProvider: event.data.subProvider,
        endpoint: event.data.endpoint,
        model: event.data.model,
        models: event.data.models,
        personal: event.data.personal,
        lastUsed: null,
      };
    case "KeysetEdited":
      if (!state.exists) return state;
      return { ...state, endpoint: event.data.endpoint, model: event.data.model, models: event.data.models, personal: event.data.personal };
    case "KeysetDeleted":
      return state.exists ? { ...state, deleted: true } : state;
    case "KeysetUsed":
      return state.exists ? { ...state, lastUsed: event.data.at } : state;
  }
}

export const keysetDecider: Decider<KeysetCommand, KeysetEvent, KeysetState> = {
  initialState: () => ({ exists: false }),
  decide,
  evolve,
};

export const keysetStreamId = (keysetId: string) => `keyset-${keysetId}`;

// ---------------------------------------------------------------------------
// Model defaults (stream `model-defaults-<userId>`): the user's default keyset
// and model per scope (spec 001 §3 scope_keyset_info; §2 Chat settings tabs).

export const MODEL_SCOPES = ["text", "image", "embedding", "transcription"] as const;
/** The built-in keyset's transcription model: offline pocketsphinx (decision 140). */
export const BUILT_IN_TRANSCRIPTION_MODEL = "offline";
export type ModelScope = (typeof MODEL_SCOPES)[number];

export interface ModelDefault {
  keysetId: string;
  model: string;
}

export type ModelDefaultsEvent = DomainEvent<
  "ModelDefaultsChanged",
  { scope: ModelScope; keysetId: string; model: string; reason: "chosen" | "keyset-deleted"; changedAt: string }
>;

export type ModelDefaultsCommand =
  | { type: "ChooseDefault"; scope: ModelScope; keysetId: string; model: string; now: Date }
  /** A keyset was deleted: every scope that used it falls back to the built-in keyset and model (spec 001 §4). */
  | { type: "FallBackFrom"; keysetId: string; fallback: Record<ModelScope, ModelDefault>; now: Date };

export type ModelDefaultsState = Partial<Record<ModelScope, ModelDefault>>;

export const modelDefaultsDecider: Decider<ModelDefaultsCommand, ModelDefaultsEvent, ModelDefaultsState> = {
  initialState: () => ({}),
  decide(command, state) {
    if (command.type === "ChooseDefault") {
      const current = state[command.scope];
      if (current && current.keysetId === command.keysetId && current.model === command.model) return [];
      return [
        {
          type: "ModelDefaultsChanged",
          data: { scope: command.scope, keysetId: command.keysetId, model: command.model, reason: "chosen", changedAt: iso(command.now) },
        },
      ];
    }
    return MODEL_SCOPES.filter((scope) => state[scope]?.keysetId === command.keysetId).map((scope) => ({
      type: "ModelDefaultsChanged" as const,
      data: { scope, ...command.fallback[scope], reason: "keyset-deleted" as const, changedAt: iso(command.now) },
    }));
  },
  evolve(state, event) {
    return { ...state, [event.data.scope]: { keysetId: event.data.keysetId, model: event.data.model } };
  },
};

export const modelDefaultsStreamId = (userId: string) => `model-defaults-${userId}`;

export const chooseDefaultSchema = z.object({
  scope: z.enum(MODEL_SCOPES),
  keysetId: z.string().trim().min(1, "Choose a keyset").max(100),
  model: z.string().trim().min(1, "Choose a model").max(200),
});
