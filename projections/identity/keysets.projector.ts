import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readEvent } from "#domain/shared/event-schemas";
import { keysetAggregate, modelDefaultsAggregate } from "#domain/identity/identity-events";
import type { ModelDefault } from "#domain/identity/keyset";

/**
 * The saved keys list (no key material: the API key is read from the log,
 * sealed, only to call the provider or on an explicit reveal) and each user's
 * default keyset and model per scope.
 */
export interface KeysetReadModel {
  id: string;
  ownerId: string;
  name: string;
  provider: string;
  subProvider: string;
  endpoint: string | null;
  model: string | null;
  models: string[];
  lastUsed: string | null;
  createdAt: string;
}

export interface ModelDefaultsReadModel {
  /** The user id. */
  id: string;
  text?: ModelDefault;
  image?: ModelDefault;
  embedding?: ModelDefault;
  /** Recordings' transcription model (decision 142). */
  transcription?: ModelDefault;
}

export const KEYSETS = "identity_keysets";
export const MODEL_DEFAULTS = "identity_model_defaults";

export const keysetsProjector: Projector = {
  name: "identity.keysets",
  collections: [KEYSETS, MODEL_DEFAULTS],
  async setup(store: ReadModelStore) {
    await store.collection<KeysetReadModel>(KEYSETS).ensureIndex(["ownerId"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    if (recorded.streamId.startsWith("keyset-")) {
      const keysets = store.collection<KeysetReadModel>(KEYSETS);
      const id = recorded.streamId.slice("keyset-".length);
      const event = readEvent(keysetAggregate.events, recorded);
      switch (event.type) {
        case "KeysetAdded":
          // A shredded owner leaves no row behind.
          if (!event.data.personal) return;
          await keysets.upsert({
            id,
            ownerId: event.data.ownerId,
            name: event.data.personal.name,
            provider: event.data.provider,
            subProvider: event.data.subProvider,
            endpoint: event.data.endpoint,
            model: event.data.model,
            models: event.data.models,
            lastUsed: null,
            createdAt: event.data.addedAt,
          });
          return;
        case "KeysetEdited":
          if (!event.data.personal) return keysets.delete(id);
          await keysets.patch(id, { name: event.data.personal.name, endpoint: event.data.endpoint, model: event.data.model, models: event.data.models });
          return;
        case "KeysetUsed":
          await keysets.patch(id, { lastUsed: event.data.at });
          return;
        case "KeysetDeleted":
          await keysets.delete(id);
          return;
      }
      return;
    }
    if (recorded.streamId.startsWith("model-defaults-")) {
      const event = readEvent(modelDefaultsAggregate.events, recorded);
      if (event.type !== "ModelDefaultsChanged") return;
      const userId = recorded.streamId.slice("model-defaults-".length);
      const defaults = store.collection<ModelDefaultsReadModel>(MODEL_DEFAULTS);
      const current = (await defaults.get(userId)) ?? { id: userId };
      await defaults.upsert({ ...current, [event.data.scope]: { keysetId: event.data.keysetId, model: event.data.model } });
    }
  },
};
