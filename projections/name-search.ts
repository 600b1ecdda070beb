import type { Collection, FindOptions, ReadModelDocument } from "#application/ports/read-model-store";

export interface NameSearch {
  /** Case-insensitive, on part of the name. */
  search?: string;
  /** Only rows in this status (a picker of ready documents). */
  status?: string;
  limit?: number;
  offset?: number;
}

/**
 * One page of an owner's rows, searched by part of the name, with the total
 * that matched: the history tables' read (My Documents, My Workspaces) and the pickers'.
 */
export async function ownerPageByName<T extends ReadModelDocument & { ownerId: string; nameLower: string }>(
  collection: Collection<T>,
  ownerId: string,
  options: NameSearch,
  sort: NonNullable<FindOptions<T>["sort"]>,
): Promise<{ items: T[]; total: number }> {
  const search = options.search?.trim();
  const filter = {
    ownerId,
    ...(options.status ? { status: options.status } : {}),
    ...(search ? { nameLower: { $icontains: search } } : {}),
  } as Parameters<Collection<T>["find"]>[0];
  const [items, total] = await Promise.all([collection.find(filter, { sort, limit: options.limit, offset: options.offset }), collection.count(filter)]);
  return { items, total };
}
