import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * Who is an admin (stream `administrator-<userId>`): granted and revoked by
 * an existing admin, or by the configuration (`ADMIN_USERNAMES`, the bootstrap),
 * so the audit shows who made whom an admin (decision 100).
 */

/** The granter named when the configuration lists the account. */
export const BY_CONFIGURATION = "configuration";

export type AdminRoleEvent =
  | DomainEvent<"AdminRoleGranted", { userId: string; grantedBy: string; grantedAt: string }>
  | DomainEvent<"AdminRoleRevoked", { userId: string; revokedBy: string; revokedAt: string }>;

export type AdminRoleCommand =
  | { type: "GrantAdminRole"; userId: string; by: string; byIsAdmin: boolean; now: Date }
  | { type: "RevokeAdminRole"; userId: string; by: string; byIsAdmin: boolean; now: Date };

export type AdminRoleState = { isAdmin: false } | { isAdmin: true; grantedBy: string };

export const administratorStreamId = (userId: string) => `administrator-${userId}`;

function mayChange(command: AdminRoleCommand, state: AdminRoleState) {
  if (command.by === BY_CONFIGURATION) {
    // The configuration only takes back what it gave.
    if (command.type === "RevokeAdminRole" && state.isAdmin && state.grantedBy !== BY_CONFIGURATION) return false;
    return true;
  }
  if (!command.byIsAdmin) throw new DomainError("NOT_ADMIN", "Only an admin can change who is an admin.");
  if (command.type === "RevokeAdminRole" && command.by === command.userId) throw new DomainError("CANNOT_REVOKE_SELF", "An admin cannot revoke their own role.");
  return true;
}

export function decide(command: AdminRoleCommand, state: AdminRoleState): AdminRoleEvent[] {
  if (!mayChange(command, state)) return [];
  const at = command.now.toISOString();
  switch (command.type) {
    case "GrantAdminRole":
      return state.isAdmin ? [] : [{ type: "AdminRoleGranted", data: { userId: command.userId, grantedBy: command.by, grantedAt: at } }];
    case "RevokeAdminRole":
      return state.isAdmin ? [{ type: "AdminRoleRevoked", data: { userId: command.userId, revokedBy: command.by, revokedAt: at } }] : [];
  }
}

export function evolve(_state: AdminRoleState, event: AdminRoleEvent): AdminRoleState {
  switch (event.type) {
    case "AdminRoleGranted":
      return { isAdmin: true, grantedBy: event.data.grantedBy };
    case "AdminRoleRevoked":
      return { isAdmin: false };
  }
}

export const adminRoleDecider: Decider<AdminRoleCommand, AdminRoleEvent, AdminRoleState> = {
  initialState: () => ({ isAdmin: false }),
  decide,
  evolve,
};
