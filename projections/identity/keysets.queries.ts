import type { ReadModelStore } from "#application/ports/read-model-store";
import { KEYSETS, type KeysetReadModel, MODEL_DEFAULTS, type ModelDefaultsReadModel } from "./keysets.projector";

/** The identity context's read side of the keysets projection. */
export type { KeysetReadModel, ModelDefaultsReadModel } from "./keysets.projector";

/** The owner's saved keysets, oldest first. */
export function keysetsOf(store: ReadModelStore, ownerId: string): Promise<KeysetReadModel[]> {
  return store.collection<KeysetReadModel>(KEYSETS).find({ ownerId }, { sort: [{ field: "createdAt", direction: "asc" }] });
}

/** A keyset by id, whoever owns it (callers check the owner), or null. */
export function keysetById(store: ReadModelStore, keysetId: string): Promise<KeysetReadModel | null> {
  return store.collection<KeysetReadModel>(KEYSETS).get(keysetId);
}

/** The user's chosen defaults per scope, or null when they never chose one. */
export function modelDefaultsOf(store: ReadModelStore, userId: string): Promise<ModelDefaultsReadModel | null> {
  return store.collection<ModelDefaultsReadModel>(MODEL_DEFAULTS).get(userId);
}
