/** Who is asking and from where: becomes event metadata and rate-limit keys. */
export interface RequestContext {
  requestId: string;
  clientAddress: string;
  /** Signed-in user, when there is one. */
  actorId?: string;
  impersonatorId?: string;
}

/**
 * Metadata for events a user's command (ctx) or a workflow step (ctx null)
 * appends about data the owner holds: who acted, for whom, in which flow.
 */
export function eventMetadata(ctx: RequestContext | null, ownerId: string, workflowCorrelationId: string) {
  return {
    correlationId: ctx?.requestId ?? workflowCorrelationId,
    actorId: ctx?.actorId ?? ownerId,
    impersonatorId: ctx?.impersonatorId,
    subjectId: ownerId,
  };
}
