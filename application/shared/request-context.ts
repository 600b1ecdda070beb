/** Who is asking and from where: becomes event metadata and rate-limit keys. */
export interface RequestContext {
  requestId: string;
  clientAddress: string;
  /** Signed-in user, when there is one. */
  actorId?: string;
  impersonatorId?: string;
}
