import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { KeyCipher } from "#application/ports/key-cipher";
import type { ModelProviders } from "#application/ports/model-providers";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { Aggregate } from "#application/shared/aggregate";
import { refuseDuringImpersonation } from "#application/shared/impersonation-guard";
import { parseInput } from "#application/shared/parse";
import { readableBy } from "#application/shared/access-policy";
import { type RequestContext, requestMetadata } from "#application/shared/request-context";
import {
  addKeysetSchema,
  chooseDefaultSchema,
  editKeysetSchema,
  type KeysetCommand,
  type KeysetEvent,
  type KeysetState,
  keysetNotFound,
  type ModelDefault,
  type ModelDefaultsCommand,
  type ModelDefaultsEvent,
  type ModelDefaultsState,
  type ModelScope,
  BUILT_IN_TRANSCRIPTION_MODEL,
  PROVIDERS,
  type Provider,
} from "#domain/identity/keyset";
import { keysetAggregate, modelDefaultsAggregate } from "#domain/identity/identity-events";
import { DomainError } from "#domain/shared/domain-error";
import { BUILT_IN_KEYSET, BUILT_IN_TEXT_MODEL, DEFAULT_CHAT_PREFERENCE } from "#domain/workspace/workspace";
import { keysetById, type KeysetReadModel, keysetsOf, modelDefaultsOf } from "#projections/identity/keysets.queries";
import { KeysetModels } from "./keyset-models";

/** How recently the owner must have confirmed their password to reveal a key. */
export const REVEAL_REAUTH_MS = 5 * 60_000;

const KEYSET_ID = /^[0-9A-Za-z-]{1,64}$/;

/** What screens may see of a keyset: never the key. */
export type KeysetView = KeysetReadModel;

export interface ModelDefaultsView {
  text: ModelDefault;
  image: ModelDefault;
  embedding: ModelDefault;
  transcription: ModelDefault;
}

/** Recordings are transcribed offline unless the user chose a keyset's transcription model. */
const OFFLINE_TRANSCRIPTION: ModelDefault = { keysetId: BUILT_IN_KEYSET, model: BUILT_IN_TRANSCRIPTION_MODEL };

/**
 * The user's own provider keys (spec 001 §2 Chat settings, §5 Add key, §7
 * Keysets calls): add (checked against the provider first), edit, delete
 * (defaults that used it fall back to the built-in keyset and model), reveal
 * after a fresh password confirmation, and the default keyset and model per
 * scope (text, image, embedding).
 */
@injectable()
export class KeysetService {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(TOKENS.KeyCipher) private readonly cipher: KeyCipher,
    @inject(TOKENS.ModelProviders) private readonly providers: ModelProviders,
    @inject(KeysetModels) private readonly models: KeysetModels,
  ) {
    this.keysets = new Aggregate(events, ids, keysetAggregate);
    this.modelDefaults = new Aggregate(events, ids, modelDefaultsAggregate);
  }

  private readonly keysets: Aggregate<KeysetCommand, KeysetEvent, KeysetState>;
  private readonly modelDefaults: Aggregate<ModelDefaultsCommand, ModelDefaultsEvent, ModelDefaultsState>;

  async list(ownerId: string): Promise<KeysetView[]> {
    return keysetsOf(this.readModels, ownerId);
  }

  async get(ownerId: string, keysetId: string): Promise<KeysetView> {
    const keyset = KEYSET_ID.test(keysetId) ? await keysetById(this.readModels, keysetId) : null;
    return readableBy(keyset, ownerId, keysetNotFound);
  }

  /** Checks the key with the provider, then saves it sealed. Answers the models the provider offers. */
  async add(ownerId: string, input: unknown, ctx: RequestContext): Promise<{ keysetId: string; models: string[] }> {
    refuseDuringImpersonation(ctx); // before the key is sent to the provider
    const form = parseInput(addKeysetSchema, input);
    const rules = PROVIDERS[form.provider];
    const endpoint = rules.needsEndpoint || (form.provider === "AWS" && form.endpoint) ? form.endpoint || null : null;
    const model = form.model || null;
    const keysetId = this.ids.next();
    const { models } = await this.providers.validate({ keysetId, provider: form.provider, subProvider: form.subProvider, endpoint, model, apiKey: form.apiKey });
    const result = await this.execute(keysetId, ownerId, ctx, {
      type: "AddKeyset",
      keysetId,
      ownerId,
      provider: form.provider,
      subProvider: form.subProvider,
      endpoint,
      model,
      models,
      name: form.name,
      sealedKey: form.apiKey ? this.cipher.seal(form.apiKey) : "",
      now: this.clock.now(),
    });
    await this.projections.waitForPosition(result.position);
    return { keysetId, models };
  }

  /** Rename, replace the key, change endpoint or model; a changed key, endpoint or model is checked again. */
  async edit(ownerId: string, keysetId: string, input: unknown, ctx: RequestContext): Promise<{ models: string[] }> {
    refuseDuringImpersonation(ctx); // before the key is sent to the provider
    const form = parseInput(editKeysetSchema, input);
    const current = await this.models.unsealed(ownerId, this.checkedId(keysetId));
    const rules = PROVIDERS[current.provider as Provider];
    const endpoint = form.endpoint === undefined ? current.endpoint : form.endpoint || null;
    const model = form.model === undefined ? current.model : form.model || null;
    if (rules?.needsEndpoint && !endpoint) throw new DomainError("VALIDATION", "Endpoint is required", "endpoint");
    if (rules?.needsModel && !model) throw new DomainError("VALIDATION", "Model is required", "model");
    const apiKey = form.apiKey ? form.apiKey : current.apiKey;
    const recheck = Boolean(form.apiKey) || endpoint !== current.endpoint || model !== current.model;
    const models = recheck ? (await this.providers.validate({ ...current, endpoint, model, apiKey })).models : undefined;
    const result = await this.execute(keysetId, ownerId, ctx, {
      type: "EditKeyset",
      ownerId,
      name: form.name,
      sealedKey: form.apiKey ? this.cipher.seal(form.apiKey) : undefined,
      endpoint,
      model,
      models,
      now: this.clock.now(),
    });
    await this.projections.waitForPosition(result.position);
    return { models: models ?? (await this.get(ownerId, keysetId)).models };
  }

  /**
   * Deletes the keyset; the user's defaults and the workspaces' chat
   * preferences that used it fall back to the built-in keyset and model
   * (spec 001 §4 Keyset deletion), each as its own recorded change.
   */
  async delete(ownerId: string, keysetId: string, ctx: RequestContext): Promise<void> {
    const id = this.checkedId(keysetId);
    let position = (await this.execute(id, ownerId, ctx, { type: "DeleteKeyset", ownerId, now: this.clock.now() })).position;
    const builtIn: ModelDefault = { keysetId: BUILT_IN_KEYSET, model: BUILT_IN_TEXT_MODEL };
    const fallback = await this.modelDefaults.handle(
      ownerId,
      { type: "FallBackFrom", keysetId: id, fallback: { text: builtIn, image: builtIn, embedding: this.models.defaultEmbedding ?? builtIn, transcription: OFFLINE_TRANSCRIPTION }, now: this.clock.now() },
      { metadata: requestMetadata(ctx, ownerId) },
    );
    position = Math.max(position, fallback.position);
    // Workspaces that used the keyset fall back by reacting to KeysetDeleted (workspace context); the wait covers that too.
    await this.projections.waitForPosition(position);
  }

  /** The key in clear, only for its owner and only after a password confirmation within REVEAL_REAUTH_MS. */
  async reveal(ownerId: string, keysetId: string, reauthenticatedAt: Date | null): Promise<{ apiKey: string }> {
    const keyset = await this.models.unsealed(ownerId, this.checkedId(keysetId));
    const now = this.clock.now().getTime();
    if (!reauthenticatedAt || now - reauthenticatedAt.getTime() > REVEAL_REAUTH_MS || reauthenticatedAt.getTime() > now + 60_000) {
      throw new DomainError("REAUTH_REQUIRED", "Confirm your password to reveal the key.");
    }
    return { apiKey: keyset.apiKey };
  }

  /** The provider's current model list for a saved keyset (GET /user/keysets/{id}/models). */
  async refreshModels(ownerId: string, keysetId: string): Promise<string[]> {
    const keyset = await this.models.unsealed(ownerId, this.checkedId(keysetId));
    return (await this.providers.validate(keyset)).models;
  }

  async defaults(userId: string): Promise<ModelDefaultsView> {
    const stored = await modelDefaultsOf(this.readModels, userId);
    const builtIn: ModelDefault = { keysetId: BUILT_IN_KEYSET, model: BUILT_IN_TEXT_MODEL };
    // No embedding default chosen: the built-in embedding model where the server runs it, else the built-in keyset (keyword search).
    return {
      text: stored?.text ?? builtIn,
      image: stored?.image ?? builtIn,
      embedding: stored?.embedding ?? this.models.defaultEmbedding ?? builtIn,
      transcription: stored?.transcription ?? OFFLINE_TRANSCRIPTION,
    };
  }

  async chooseDefault(userId: string, input: unknown, ctx: RequestContext): Promise<void> {
    const form = parseInput(chooseDefaultSchema, input);
    // Among embedding defaults the built-in keyset's text model stands for "keyword search only" (new workspaces start without embeddings).
    const keywordOnly = form.scope === "embedding" && form.keysetId === BUILT_IN_KEYSET && form.model === BUILT_IN_TEXT_MODEL;
    const offline = form.scope === "transcription" && form.keysetId === BUILT_IN_KEYSET && form.model === BUILT_IN_TRANSCRIPTION_MODEL;
    if (!keywordOnly && !offline) {
      await this.models.assertAvailable(userId, form, form.scope === "embedding" || form.scope === "transcription" ? form.scope : "chat");
    }
    const result = await this.modelDefaults.handle(
      userId,
      { type: "ChooseDefault", scope: form.scope as ModelScope, keysetId: form.keysetId, model: form.model, now: this.clock.now() },
      { metadata: requestMetadata(ctx, userId) },
    );
    await this.projections.waitForPosition(result.position);
  }

  private checkedId(keysetId: string): string {
    if (!KEYSET_ID.test(keysetId)) throw keysetNotFound();
    return keysetId;
  }

  private execute(keysetId: string, ownerId: string, ctx: RequestContext, command: KeysetCommand) {
    return this.keysets.handle(keysetId, command, { metadata: requestMetadata(ctx, ownerId) });
  }
}
