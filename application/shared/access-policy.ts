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
