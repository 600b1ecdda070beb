import type { ReadModelStore } from "#application/ports/read-model-store";
import { type NameSearch, ownerPageByName } from "../name-search";
import { WORKSPACE_USAGE, WORKSPACES, type WorkspaceReadModel, type WorkspaceUsageReadModel } from "./workspaces.projector";

/** The workspace context's read side: what other modules may read of the workspaces projection. */
export type { EmbeddingIndexView, WorkspaceReadModel } from "./workspaces.projector";

const workspaces = (store: ReadModelStore) => store.collection<WorkspaceReadModel>(WORKSPACES);

/** Most recently used first; search is case-insensitive on part of the name. */
export async function listWorkspaces(store: ReadModelStore, ownerId: string, options: NameSearch = {}): Promise<{ workspaces: WorkspaceReadModel[]; total: number }> {
  const { items, total } = await ownerPageByName(workspaces(store), ownerId, options, [{ field: "lastUsedAt", direction: "desc" }]);
  return { workspaces: items, total };
}

export function countWorkspaces(store: ReadModelStore, ownerId: string): Promise<number> {
  return workspaces(store).count({ ownerId });
}

/** The most recently used active workspace, or null. */
export async function lastUsedWorkspace(store: ReadModelStore, ownerId: string): Promise<WorkspaceReadModel | null> {
  const [latest] = await workspaces(store).find({ ownerId, status: "ACTIVE" }, { sort: [{ field: "lastUsedAt", direction: "desc" }], limit: 1 });
  return latest ?? null;
}

/** Every user's workspaces, a page at a time in id order (operator-wide upkeep such as following the product's embedding model). */
export function workspacesPage(store: ReadModelStore, offset: number, limit: number): Promise<WorkspaceReadModel[]> {
  return workspaces(store).find({}, { sort: [{ field: "id", direction: "asc" }], limit, offset });
}

/** The owner's workspace, or null when it is missing or another user's (the caller answers both alike). */
export async function ownedWorkspace(store: ReadModelStore, ownerId: string, workspaceId: string): Promise<WorkspaceReadModel | null> {
  const workspace = await workspaces(store).get(workspaceId);
  return workspace && workspace.ownerId === ownerId ? workspace : null;
}

/** Workspaces the owner created in one usage month ("year:month"); deleted ones still count. */
export function workspacesCreatedIn(store: ReadModelStore, ownerId: string, month: string): Promise<number> {
  return store.collection<WorkspaceUsageReadModel>(WORKSPACE_USAGE).count({ ownerId, month });
}
