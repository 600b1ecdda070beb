import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * An admin acting as a user, read-only, for at most an hour (spec 001 §4, §6,
 * §9; stream `impersonation-<id>`). It starts with a required reason, records
 * what the admin opened, and ends exactly once: by the admin, by expiry at the
 * deadline, or forced by another admin. The reason, the user's name and the
 * titles viewed are the user's personal data (crypto-shredded with the account).
 */

/** Admin session 3600 seconds (spec 001 §9). */
export const IMPERSONATION_DURATION_MS = 3600 * 1000;
export const REASON_MIN_LENGTH = 5;
export const REASON_MAX_LENGTH = 500;

export const VIEWED_KINDS = ["document", "workspace", "conversation", "resume"] as const;
export type ViewedKind = (typeof VIEWED_KINDS)[number];

export const END_CAUSES = ["admin", "expiry", "forced"] as const;
export type EndCause = (typeof END_CAUSES)[number];

export type ImpersonationEvent =
  | DomainEvent<
      "ImpersonationStarted",
      {
        impersonationId: string;
        adminId: string;
        userId: string;
        startedAt: string;
        deadline: string;
        personal: { reason: string; userName: string } | null;
      }
    >
  | DomainEvent<"ImpersonationViewed", { kind: ViewedKind; resourceId: string; viewedAt: string; personal: { title: string } | null }>
  | DomainEvent<"ImpersonationEnded", { cause: EndCause; endedById: string; endedAt: string }>;

/** What the start rules need to know about the user asked for, read by the service. */
export interface ImpersonationTarget {
  userId: string;
  /** null: no such account (never registered, unconfirmed, or purged). */
  status: "ACTIVE" | "PENDING_DELETE" | null;
  isAdmin: boolean;
  displayName: string;
}

export type ImpersonationCommand =
  | {
      type: "StartImpersonation";
      impersonationId: string;
      adminId: string;
      actorIsAdmin: boolean;
      /** The admin already holds a running impersonation (no second one, no nesting). */
      adminHasRunning: boolean;
      target: ImpersonationTarget;
      reason: string;
      now: Date;
    }
  | { type: "RecordView"; kind: ViewedKind; resourceId: string; title: string; now: Date }
  | { type: "EndImpersonation"; cause: EndCause; endedById: string; now: Date };

export type ImpersonationState =
  | { status: "None" }
  | { status: "Running"; adminId: string; userId: string; deadline: number; lastViewed: Record<string, number> }
  | { status: "Ended"; adminId: string; userId: string; cause: EndCause };

export const impersonationStreamId = (id: string) => `impersonation-${id}`;

/** A resource read again within this time is the same view (a viewer reads a document page by page, range by range). */
export const SAME_VIEW_MS = 60_000;
const viewKey = (kind: ViewedKind, resourceId: string) => `${kind}:${resourceId}`;

const notFound = () => new DomainError("IMPERSONATION_NOT_FOUND", "No such impersonation.");

function start(command: Extract<ImpersonationCommand, { type: "StartImpersonation" }>, state: ImpersonationState): ImpersonationEvent[] {
  if (state.status !== "None") throw new DomainError("IMPERSONATION_EXISTS", "This impersonation was already started.");
  if (!command.actorIsAdmin) throw new DomainError("NOT_ADMIN", "Only an admin can impersonate a user.");
  const reason = command.reason.trim();
  if (reason.length < REASON_MIN_LENGTH) throw new DomainError("REASON_REQUIRED", `Give a reason of at least ${REASON_MIN_LENGTH} characters.`, "reason");
  if (reason.length > REASON_MAX_LENGTH) throw new DomainError("REASON_TOO_LONG", `Keep the reason under ${REASON_MAX_LENGTH} characters.`, "reason");
  const { target } = command;
  if (target.status === null) throw new DomainError("USER_NOT_FOUND", "No such user.");
  if (target.userId === command.adminId) throw new DomainError("CANNOT_IMPERSONATE_SELF", "An admin cannot impersonate themself.");
  if (target.isAdmin) throw new DomainError("CANNOT_IMPERSONATE_ADMIN", "An admin cannot impersonate another admin.");
  if (target.status === "PENDING_DELETE") throw new DomainError("USER_PENDING_DELETION", "This account is being deleted and cannot be impersonated.");
  if (command.adminHasRunning) throw new DomainError("IMPERSONATION_RUNNING", "End your running impersonation before starting another.");
  return [
    {
      type: "ImpersonationStarted",
      data: {
        impersonationId: command.impersonationId,
        adminId: command.adminId,
        userId: target.userId,
        startedAt: command.now.toISOString(),
        deadline: new Date(command.now.getTime() + IMPERSONATION_DURATION_MS).toISOString(),
        personal: { reason, userName: target.displayName },
      },
    },
  ];
}

function recordView(command: Extract<ImpersonationCommand, { type: "RecordView" }>, state: ImpersonationState): ImpersonationEvent[] {
  if (state.status === "None") throw notFound();
  if (state.status === "Ended" || command.now.getTime() >= state.deadline) throw new DomainError("IMPERSONATION_ENDED", "This impersonation has ended.");
  const last = state.lastViewed[viewKey(command.kind, command.resourceId)];
  if (last !== undefined && command.now.getTime() - last < SAME_VIEW_MS) return [];
  return [{ type: "ImpersonationViewed", data: { kind: command.kind, resourceId: command.resourceId, viewedAt: command.now.toISOString(), personal: { title: command.title } } }];
}

function end(command: Extract<ImpersonationCommand, { type: "EndImpersonation" }>, state: ImpersonationState): ImpersonationEvent[] {
  if (state.status === "None") throw notFound();
  // Only the admin who started it ends it as "admin"; anyone else asking is told it does not exist.
  if (command.cause === "admin" && command.endedById !== state.adminId) throw notFound();
  if (state.status === "Ended") return [];
  // The timer may fire a little early on another clock; the next request's check or a later fire ends it.
  if (command.cause === "expiry" && command.now.getTime() < state.deadline) return [];
  return [{ type: "ImpersonationEnded", data: { cause: command.cause, endedById: command.endedById, endedAt: command.now.toISOString() } }];
}

export function decide(command: ImpersonationCommand, state: ImpersonationState): ImpersonationEvent[] {
  switch (command.type) {
    case "StartImpersonation":
      return start(command, state);
    case "RecordView":
      return recordView(command, state);
    case "EndImpersonation":
      return end(command, state);
  }
}

export function evolve(state: ImpersonationState, event: ImpersonationEvent): ImpersonationState {
  switch (event.type) {
    case "ImpersonationStarted":
      return { status: "Running", adminId: event.data.adminId, userId: event.data.userId, deadline: Date.parse(event.data.deadline), lastViewed: {} };
    case "ImpersonationViewed":
      if (state.status !== "Running") return state;
      return { ...state, lastViewed: { ...state.lastViewed, [viewKey(event.data.kind, event.data.resourceId)]: Date.parse(event.data.viewedAt) } };
    case "ImpersonationEnded":
      return state.status === "None" ? state : { status: "Ended", adminId: state.adminId, userId: state.userId, cause: event.data.cause };
  }
}

export const impersonationDecider: Decider<ImpersonationCommand, ImpersonationEvent, ImpersonationState> = {
  initialState: () => ({ status: "None" }),
  decide,
  evolve,
};
