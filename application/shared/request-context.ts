import type { EventMetadata } from "#application/ports/event-store";

/** Who is asking and from where: becomes event metadata and rate-limit keys. */
export interface RequestContext {
  requestId: string;
  clientAddress: string;
  /** Signed-in user, when there is one. */
  actorId?: string;
  impersonatorId?: string;
  /** The impersonation the request runs under (with impersonatorId). */
  impersonationId?: string;
}

/** Metadata for the events of a request's command about data `subjectId` holds (ARCHITECTURE §3). */
export function requestMetadata(ctx: RequestContext, subjectId: string): EventMetadata {
  return { correlationId: ctx.requestId, actorId: ctx.actorId ?? subjectId, impersonatorId: ctx.impersonatorId, ...(ctx.impersonationId ? { impersonationId: ctx.impersonationId } : {}), subjectId };
}

/**
 * Metadata for events a user's command (ctx) or a workflow step (ctx null)
 * appends about data the owner holds: who acted, for whom, in which flow.
 */
export function eventMetadata(ctx: RequestContext | null, ownerId: string, workflowCorrelationId: string): EventMetadata {
  return ctx ? requestMetadata(ctx, ownerId) : { correlationId: workflowCorrelationId, actorId: ownerId, subjectId: ownerId };
}
