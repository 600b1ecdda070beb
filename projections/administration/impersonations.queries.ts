import type { ReadModelStore } from "#application/ports/read-model-store";
import { ADMINS, type AdminReadModel, IMPERSONATIONS, type ImpersonationReadModel } from "./impersonations.projector";

/** The administration context's read side. */
export type { AdminReadModel, ImpersonationReadModel, ViewedReadModel } from "./impersonations.projector";

const impersonations = (store: ReadModelStore) => store.collection<ImpersonationReadModel>(IMPERSONATIONS);

export async function isAdmin(store: ReadModelStore, userId: string): Promise<boolean> {
  return (await store.collection<AdminReadModel>(ADMINS).get(userId)) !== null;
}

export function admins(store: ReadModelStore): Promise<AdminReadModel[]> {
  return store.collection<AdminReadModel>(ADMINS).find({}, { sort: [{ field: "grantedAt", direction: "asc" }] });
}

/** Newest first, every admin's (the history table). */
export function impersonationHistory(store: ReadModelStore, limit = 100): Promise<ImpersonationReadModel[]> {
  return impersonations(store).find({}, { sort: [{ field: "startedAt", direction: "desc" }], limit });
}

/** Who looked at this user's account, newest first (My Account). */
export function impersonationsOfUser(store: ReadModelStore, userId: string, limit = 50): Promise<ImpersonationReadModel[]> {
  return impersonations(store).find({ userId }, { sort: [{ field: "startedAt", direction: "desc" }], limit });
}

/** The admin's impersonations still marked active (at most one, unless its end is still being projected). */
export function activeImpersonationsOf(store: ReadModelStore, adminId: string): Promise<ImpersonationReadModel[]> {
  return impersonations(store).find({ adminId, status: "ACTIVE" });
}

export function impersonationById(store: ReadModelStore, id: string): Promise<ImpersonationReadModel | null> {
  return impersonations(store).get(id);
}
