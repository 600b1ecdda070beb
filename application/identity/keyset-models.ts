import { inject, injectable, optional } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { KeyCipher } from "#application/ports/key-cipher";
import type { LanguageModel } from "#application/ports/language-model";
import type { Embedder, ModelProviders, ProviderKeyset } from "#application/ports/model-providers";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { Transcriber } from "#application/ports/speech";
import { Aggregate } from "#application/shared/aggregate";
import { accessPolicy, readableBy } from "#application/shared/access-policy";
import { type KeysetCommand, type KeysetEvent, type KeysetState, keysetNotFound } from "#domain/identity/keyset";
import { keysetAggregate } from "#domain/identity/identity-events";
import { DomainError } from "#domain/shared/domain-error";
import { BUILT_IN_EMBEDDING, BUILT_IN_EMBEDDING_MODEL, BUILT_IN_KEYSET } from "#domain/workspace/workspace";
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
}

/**
 * Turns a (keysetId, model) choice into a LanguageModel, and answers which
 * choices a user has (ModelCatalog.availableFor). The built-in keyset needs
 * no key. A keyset that is gone — deleted, or never this user's — resolves to
 * the built-in model (resolve-time fallback, docs/decisions/030): a foreign
 * keyset's key is never used, and a stale preference never breaks the chat.
 *
 * The built-in keyset also embeds (docs/decisions/070) when the server runs
 * its offline model: then it is every user's embedding default, and choosing
 * the built-in keyset's text model as an embedding means keyword search only
 * (what it meant before the built-in keyset could embed).
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
    @inject(TOKENS.BuiltInModel) private readonly builtInModel: LanguageModel,
    @inject(TOKENS.BuiltInEmbedder) @optional() private readonly builtInEmbedder?: Embedder & { label?: string },
  ) {
    this.keysets = new Aggregate(events, ids, keysetAggregate);
  }

  private readonly keysets: Aggregate<KeysetCommand, KeysetEvent, KeysetState>;

  get builtIn(): LanguageModel {
    return this.builtInModel;
  }

  /** The embedding a user gets without choosing: the built-in model where the server runs it, else keyword search only. */
  get defaultEmbedding(): ModelChoice | null {
    return this.builtInEmbedder ? BUILT_IN_EMBEDDING : null;
  }

  /** Whether a built-in choice names the built-in embedding model (and the server runs it). */
  private isBuiltInEmbedding(choice: ModelChoice): boolean {
    return choice.keysetId === BUILT_IN_KEYSET && choice.model === BUILT_IN_EMBEDDING_MODEL && !!this.builtInEmbedder;
  }

  /** The model for a choice; records the keyset's use ('last used'). */
  async resolve(ownerId: string, choice: ModelChoice): Promise<LanguageModel> {
    if (choice.keysetId === BUILT_IN_KEYSET) return this.builtInModel;
    let keyset: ProviderKeyset;
    try {
      keyset = await this.unsealed(ownerId, choice.keysetId);
    } catch (error) {
      if (error instanceof DomainError && error.code === "KEYSET_NOT_FOUND") return this.builtInModel;
      throw error;
    }
    await this.keysets.handle(choice.keysetId, { type: "RecordUse", ownerId, now: this.clock.now() }, {
      metadata: { correlationId: `keyset-use-${choice.keysetId}`, actorId: ownerId, subjectId: ownerId },
    });
    return this.providers.languageModel(keyset, choice.model || keyset.model || "");
  }

  /** The embedding model of a choice (the built-in one needs no key); a missing or foreign keyset answers KEYSET_NOT_FOUND. */
  async embedder(ownerId: string, choice: ModelChoice): Promise<Embedder> {
    if (this.isBuiltInEmbedding(choice)) return this.builtInEmbedder!;
    if (choice.keysetId === BUILT_IN_KEYSET) throw new DomainError("VALIDATION", "This server does not run the built-in embedding model; choose keyword search or one of your keysets.", "embedding");
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
        keysetName: "DocuChat (built-in)",
        provider: "DocuChat",
        subProvider: "DocuChat",
        models: [{ id: this.builtInModel.id, label: this.builtInModel.label }],
        embeddingModels: this.builtInEmbedder ? [{ id: BUILT_IN_EMBEDDING_MODEL, label: this.builtInEmbedder.label ?? BUILT_IN_EMBEDDING_MODEL }] : [],
        transcriptionModels: [],
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
    const builtIn = { keysetId: BUILT_IN_KEYSET, model: this.builtInModel.id };
    return { text: stored?.text ?? builtIn, image: stored?.image ?? builtIn, embedding: this.embeddingFor(stored?.embedding) };
  }

  /** A stored embedding default as a workspace's choice: a keyset's model, the built-in one, or null for keyword search. */
  embeddingFor(stored: ModelChoice | null | undefined): ModelChoice | null {
    if (!stored) return this.defaultEmbedding;
    if (stored.keysetId !== BUILT_IN_KEYSET) return stored;
    return this.isBuiltInEmbedding(stored) ? BUILT_IN_EMBEDDING : null;
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
        if (this.isBuiltInEmbedding(choice)) return;
        throw new DomainError("VALIDATION", "This server does not run the built-in embedding model; choose keyword search or one of your keysets.", "embedding");
      }
      if (choice.model !== this.builtInModel.id) throw new DomainError("VALIDATION", "Choose a model of the built-in keyset.", "model");
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
