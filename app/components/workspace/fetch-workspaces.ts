import type { FetchListPage } from "#app/components/use-infinite-list";
import type { WorkspaceSummary } from "./types";

/** A page of the owner's workspaces from GET /api/workspaces, most recently used first. */
export const fetchWorkspaces: FetchListPage<WorkspaceSummary> = async (offset, search, limit) => {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset), search });
  const response = await fetch(`/api/workspaces?${params}`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error("Could not load workspaces");
  const page = (await response.json()) as { workspaces: WorkspaceSummary[]; total: number };
  return { items: page.workspaces, total: page.total };
};
