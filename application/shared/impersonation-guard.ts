import { DomainError } from "#domain/shared/domain-error";

/**
 * Impersonation is read-only (ARCHITECTURE §8): while an admin acts as a user
 * every command is refused, on the server, except one explicitly allowed
 * (ending the impersonation). The aggregate helper calls this for every
 * command; a service calls it first only when it does work before its first
 * command (streaming an answer, storing an image).
 */
export function refuseDuringImpersonation(actor: { impersonatorId?: string | null }, options: { allowDuringImpersonation?: boolean } = {}): void {
  if (actor.impersonatorId && !options.allowDuringImpersonation) {
    throw new DomainError("IMPERSONATION_READ_ONLY", "An admin acting as this user cannot change anything.");
  }
}
