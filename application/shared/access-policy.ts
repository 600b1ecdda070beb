import type { DomainError } from "#domain/shared/domain-error";

/** Anything a user can own: a document, a workspace, a conversation, a keyset. */
export interface OwnedResource {
  ownerId: string;
}

/**
 * Who may see or change a resource (ARCHITECTURE §8). Today: its owner.
 * Community roles (a member reads a shared document) and admins come here,
 * not into each service (docs/decisions/051).
 */
export const accessPolicy = {
  canRead<T extends OwnedResource>(resource: T | null | undefined, userId: string): resource is T {
    return resource != null && resource.ownerId === userId;
  },
  canChange<T extends OwnedResource>(resource: T | null | undefined, userId: string): resource is T {
    return resource != null && resource.ownerId === userId;
  },
};

/**
 * The resource when the user may read it; otherwise the context's "not found"
 * error, so another user's id answers exactly like a missing one.
 */
export function readableBy<T extends OwnedResource>(resource: T | null | undefined, userId: string, notFound: () => DomainError): T {
  if (!resource || !accessPolicy.canRead(resource, userId)) throw notFound();
  return resource;
}

/** The resource when the user may change it; otherwise "not found", as for reading. */
export function changeableBy<T extends OwnedResource>(resource: T | null | undefined, userId: string, notFound: () => DomainError): T {
  if (!resource || !accessPolicy.canChange(resource, userId)) throw notFound();
  return resource;
}

/**
 * Which documents communities share with a user (issue 17): of the ids asked,
 * those held right now by a community in which the user's role opens
 * resources (MEMBER, MODERATOR, OWNER; never VIEWER). The community context
 * answers it from its read side; it is asked at the moment of each read.
 */
export interface CommunityGrants {
  sharedWith(userId: string, documentIds: readonly string[]): Promise<ReadonlySet<string>>;
}

/**
 * The documents the user may read: their own, and those a community shares
 * with them (decision 120). Changing a document stays the owner's alone.
 */
export async function readableDocuments<T extends OwnedResource & { id: string }>(
  documents: readonly T[],
  userId: string,
  grants: CommunityGrants,
): Promise<T[]> {
  const owns = (document: T): boolean => accessPolicy.canRead(document, userId);
  const foreign = documents.filter((d) => !owns(d)).map((d) => d.id);
  const shared = foreign.length > 0 ? await grants.sharedWith(userId, foreign) : new Set<string>();
  return documents.filter((d) => owns(d) || shared.has(d.id));
}
