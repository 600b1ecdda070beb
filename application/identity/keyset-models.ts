import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { KeyCipher } from "#application/ports/key-cipher";
import type { LanguageModel } from "#application/ports/language-model";
import type { Embedder, ModelProviders, ProviderKeyset } from "#application/ports/model-providers";
import type { ProductKeyset } from "#application/ports/product-keyset";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { Transcriber } from "#application/ports/speech";
import { Aggregate } from "#application/shared/aggregate";
import { accessPolicy, readableBy } from "#application/shared/access-policy";
import { type KeysetCommand, type KeysetEvent, type KeysetState, keysetNotFound } from "#domain/identity/keyset";
import { keysetAggregate } from "#domain/identity/identity-events";
import { DomainError } from "#domain/shared/domain-error";
import { BUILT_IN_KEYSET, BUILT_IN_TEXT_MODEL } from "#domain/workspace/workspace";
import { keysetById, keysetsOf, modelDefaultsOf } from "#projections/identity/keysets.queries";

export interface ModelChoice {
  keysetId: string;
  model: string;
}

export interface ModelOption {
  keysetId: string;
  keysetName: string;
  provider: string;
  subProvider: string;
  models: { id: string; label: string }[];
  /** Of the keyset's models, those that embed (the Workspace Settings embedding picker); the built-in keyset's offline one where the server runs it. */
  embeddingModels: { id: string; label: string }[];
  /** Of the keyset's models, those that transcribe recordings (the audio upload's picker); the built-in keyset's is the offline one. */
  transcriptionModels?: { id: string; label: string }[];
  /** The product's keyset only: an operator's model answers through it (the pickers name that model rather than the offline one). */
  operated?: boolean;
}

/** A model for a question, and whether the product's keyset answers it (then it counts against the plan, decision 110). */
export interface AnsweringModel {
  model: LanguageModel;
  throughProductKeyset: boolean;
}

/**
 * Turns a (keysetId, model) choice into a LanguageModel, and answers which
 * choices a user has (ModelCatalog.availableFor). The product's keyset needs
 * no key of the user's. A keyset that is gone — deleted, or never this user's
 * — resolves to the product's keyset (resolve-time fallback,
 * docs/decisions/030): a foreign keyset's key is never used, and a stale
 * preference never breaks the chat.
 *
 * The product's keyset (docs/decisions/190) answers with what the operator
 * configured, else the offline model. Its text choice is always
 * `docuchat/docuchat-extractive`: the name of its text slot, whatever model
 * stands behind it, so stored preferences follow the operator's choice.
 * It also embeds (docs/decisions/070) with the operator's embedding model or
 * the offline one; choosing its text model as an embedding means keyword
 * search only (what it meant before it could embed).
 */
@injectable()
export class KeysetModels {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.KeyCipher) private readonly cipher: KeyCipher,
    @inject(TOKENS.ModelProviders) private readonly providers: ModelProviders,
    @inject(TOKENS.ProductKeyset) private readonly product: ProductKeyset,
  ) {
    this.keysets = new Aggregate(events, ids, keysetAggregate);
  }

  private readonly keysets: Aggregate<KeysetCommand, KeysetEvent, KeysetState>;

  /** The offline extractive model, whatever the operator configured. */
  get offline(): LanguageModel {
    return this.product.offline;
  }

  /** The embedding a user gets without choosing: the product keyset's default embedding model, else keyword search only. */
  get defaultEmbedding(): ModelChoice | null {
    const first = this.product.embedders[0];
    return first ? { keysetId: BUILT_IN_KEYSET, model: first.model } : null;
  }

  /** Whether the server runs the product keyset's embedding model a choice names. */
  runsProductEmbedding(choice: ModelChoice): boolean {
    return this.productEmbedder(choice) !== undefined;
  }

  /** The product keyset's embedding model a choice names, when the server runs it. */
  private productEmbedder(choice: ModelChoice) {
    return choice.keysetId === BUILT_IN_KEYSET ? this.product.embedders.find((e) => e.model === choice.model) : undefined;
  }

  /** The model for a choice; records the keyset's use ('last used'). */
  async resolve(ownerId: string, choice: ModelChoice, purpose: "text" | "image" = "text"): Promise<LanguageModel> {
    return (await this.answering(ownerId, choice, purpose)).model;
  }

  /**
   * The model that answers a question for a workspace's choice, and whether
   * it is the product's keyset — decided together, from what really answers:
   * a keyset deleted a moment ago answers (and counts) as the product's even
   * before the workspace's preference has fallen back (issue #30 item 7).
   */
  async answering(ownerId: string, choice: ModelChoice | null | undefined, purpose: "text" | "image" = "text"): Promise<AnsweringModel> {
    const product = { model: purpose === "image" ? this.product.image : this.product.text, throughProductKeyset: true };
    if (!choice || choice.keysetId === BUILT_IN_KEYSET) return product;
    let keyset: ProviderKeyset;
    try {
      keyset = await this.unsealed(ownerId, choice.keysetId);
    } catch (error) {
      if (error instanceof DomainError && error.code === "KEYSET_NOT_FOUND") return product;
      throw error;
    }
    await this.keysets.handle(choice.keysetId, { type: "RecordUse", ownerId, now: this.clock.now() }, {
      metadata: { correlationId: `keyset-use-${choice.keysetId}`, actorId: ownerId, subjectId: ownerId },
    });
    return { model: this.providers.languageModel(keyset, choice.model || keyset.model || ""), throughProductKeyset: false };
  }

  /** The embedding model of a choice (the product keyset's needs no key of the user's); a missing or foreign keyset answers KEYSET_NOT_FOUND. */
  async embedder(ownerId: string, choice: ModelChoice): Promise<Embedder> {
    const product = this.productEmbedder(choice);
    if (product) return product.embedder;
    // A product model the server no longer runs (the operator changed it): its vectors are never compared with another model's.
    if (choice.keysetId === BUILT_IN_KEYSET) throw new DomainError("VALIDATION", "This server no longer runs that embedding model of the built-in keyset; choose keyword search or another embedding model.", "embedding");
    const keyset = await this.unsealed(ownerId, choice.keysetId);
    return this.providers.embedder(keyset, choice.model);
  }

  /** The transcription model of a choice; a missing or foreign keyset answers KEYSET_NOT_FOUND (its key is never used). */
  async transcriber(ownerId: string, choice: ModelChoice): Promise<Transcriber> {
    const keyset = await this.unsealed(ownerId, choice.keysetId);
    return this.providers.transcriber(keyset, choice.model);
  }

  /** Built-in first, then the user's keysets with the models each offers. */
  async availableFor(userId: string): Promise<ModelOption[]> {
    const keysets = await keysetsOf(this.readModels, userId);
    return [
      {
        keysetId: BUILT_IN_KEYSET,
        // Unconfigured it is what it always was; configured, the operator's model shows under the product's name.
        keysetName: this.product.operated ? this.product.name : `${this.product.name} (built-in)`,
        provider: this.product.name,
        subProvider: this.product.name,
        models: [{ id: BUILT_IN_TEXT_MODEL, label: this.product.text.label }],
        embeddingModels: this.product.embedders.map((e) => ({ id: e.model, label: e.label })),
        transcriptionModels: [],
        operated: this.product.operated,
      },
      ...keysets.map((k) => {
        const models = k.models.length > 0 ? k.models : k.model ? [k.model] : [];
        const embedding = this.providers.embeddingModels(k, models);
        const option = (m: string) => ({ id: m, label: m });
        const transcription = this.providers.transcriptionModels(k, models);
        return {
          keysetId: k.id,
          keysetName: k.name,
          provider: k.provider,
          subProvider: k.subProvider,
          models: models.map(option),
          embeddingModels: embedding.map(option),
          transcriptionModels: transcription.map(option),
        };
      }),
    ];
  }

  /**
   * The chat preference a new workspace starts with: the user's text and
   * image defaults (Chat Settings); for embeddings their choice, keyword
   * search when they chose it, else the built-in embedding model.
   */
  async chatPreferenceFor(userId: string): Promise<{ text: ModelChoice; image: ModelChoice; embedding: ModelChoice | null }> {
    const stored = await modelDefaultsOf(this.readModels, userId);
    const builtIn = { keysetId: BUILT_IN_KEYSET, model: BUILT_IN_TEXT_MODEL };
    return { text: stored?.text ?? builtIn, image: stored?.image ?? builtIn, embedding: this.embeddingFor(stored?.embedding) };
  }

  /** A stored embedding default as a workspace's choice: a keyset's model, the built-in one, or null for keyword search. */
  embeddingFor(stored: ModelChoice | null | undefined): ModelChoice | null {
    if (!stored) return this.defaultEmbedding;
    if (stored.keysetId !== BUILT_IN_KEYSET) return stored;
    if (stored.model === BUILT_IN_TEXT_MODEL) return null;
    // The product's embedding model, or its current one when the operator changed it.
    return this.productEmbedder(stored) ? stored : this.defaultEmbedding;
  }

  /**
   * Refuses a choice the user does not have (another user's keyset answers
   * like a missing one). For embeddings the model must be one of the keyset's
   * embedding models: a chat model would fail every document it is asked to embed.
   */
  async assertAvailable(userId: string, choice: ModelChoice, purpose: "chat" | "embedding" | "transcription" = "chat"): Promise<void> {
    if (choice.keysetId === BUILT_IN_KEYSET) {
      if (purpose === "transcription") throw new DomainError("VALIDATION", "The built-in keyset transcribes offline; choose it as Built-in, offline.", "model");
      if (purpose === "embedding") {
        if (this.productEmbedder(choice)) return;
        throw new DomainError("VALIDATION", "This server does not run that embedding model of the built-in keyset; choose keyword search or one of your keysets.", "embedding");
      }
      if (choice.model !== BUILT_IN_TEXT_MODEL) throw new DomainError("VALIDATION", "Choose a model of the built-in keyset.", "model");
      return;
    }
    let keyset: { ownerId: string; provider: string; subProvider: string; models: string[]; model: string | null } | null =
      await keysetById(this.readModels, choice.keysetId);
    if (!accessPolicy.canRead(keyset, userId)) {
      // The read model may lag behind a keyset just added: the log decides.
      const state = await this.state(choice.keysetId);
      keyset = readableBy(state.exists && !state.deleted ? state : null, userId, keysetNotFound);
    }
    if (purpose === "transcription") {
      const listed = keyset.models.length > 0 ? keyset.models : keyset.model ? [keyset.model] : [];
      if (!this.providers.transcriptionModels(keyset, listed).includes(choice.model)) {
        throw new DomainError("VALIDATION", `${choice.model} is not a transcription model of this keyset. Choose one of its transcription models.`, "model");
      }
    }
    if (purpose === "embedding") {
      const listed = keyset.models.length > 0 ? keyset.models : keyset.model ? [keyset.model] : [];
      if (!this.providers.embeddingModels(keyset, listed).includes(choice.model)) {
        throw new DomainError("VALIDATION", `${choice.model} is not an embedding model of this keyset. Choose one of its embedding models.`, "embedding");
      }
    }
  }

  /** The keyset with its key in clear, for one provider call. Re-seals a key sealed under a previous secret. */
  async unsealed(ownerId: string, keysetId: string): Promise<ProviderKeyset> {
    const state = await this.state(keysetId);
    if (!state.exists || state.deleted || !state.personal || !accessPolicy.canRead(state, ownerId)) throw keysetNotFound();
    const sealed = state.personal.sealedKey;
    const apiKey = sealed ? this.cipher.open(sealed) : "";
    if (sealed && this.cipher.isStale(sealed)) {
      await this.keysets.handle(keysetId, { type: "EditKeyset", ownerId, sealedKey: this.cipher.seal(apiKey), now: this.clock.now() }, {
        metadata: { correlationId: `keyset-reseal-${keysetId}`, actorId: ownerId, subjectId: ownerId },
      });
    }
    return { keysetId, provider: state.provider, subProvider: state.subProvider, endpoint: state.endpoint, model: state.model, apiKey };
  }

  async state(keysetId: string): Promise<KeysetState> {
    return (await this.keysets.load(keysetId)).state;
  }
}
